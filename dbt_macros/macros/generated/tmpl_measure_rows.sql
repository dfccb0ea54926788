{#- Generated from sql/measure_rows.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro tmpl_measure_rows(binary_relation, graded_measures, measures, output_query_col, per_query_relation, segment_cols) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if binary_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'binary_relation'") }}{% endif -%}
{%- if graded_measures is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'graded_measures'") }}{% endif -%}
{%- if measures is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'measures'") }}{% endif -%}
{%- if output_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'output_query_col'") }}{% endif -%}
{%- if per_query_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'per_query_relation'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("tmpl_measure_rows: the template context has no 'segment_cols'") }}{% endif -%}
{%- set ndcg_context = {'binary_relation': binary_relation, 'graded_measures': graded_measures, 'measures': measures, 'output_query_col': output_query_col, 'per_query_relation': per_query_relation, 'segment_cols': segment_cols} -%}
{#- One row per (query, measure): every asked measure in one long table.
    CG, DCG and nDCG come from the per-query NDCG rows (sql/per_query.sql.j2,
    one column each per cutoff), the binary measures from
    sql/measures_per_query.sql.j2; names are SQL string literals built by
    sqlglot from parsed measures (ndcg_sql/measures.py). As one statement
    (ndcg-sql sql), both are CTEs (ndcg_sql/sql_text.py: measure_statement). -#}
WITH
measure_names AS ( -- one row per asked measure: its place in the output and its name
  {%- for m in measures %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ m.order }} AS measure_order, {{ m.name_sql }} AS measure
  {%- endfor %}
),
measure_values AS ( -- one row per (query, measure order): the value
  {%- for m in graded_measures %}
  SELECT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ output_query_col }} AS qid, {{ m.order }} AS measure_order, {{ m.column }} AS value
  FROM {{ per_query_relation }}
  WHERE {% if m.k is not none %}k = {{ m.k }}{% else %}k IS NULL{% endif %}
  UNION ALL
  {%- endfor %}
  {%- if binary_relation %}
  SELECT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ output_query_col }} AS qid, measure_order, value FROM {{ binary_relation }}

  {%- else %}
  SELECT {% for s in segment_cols %}NULL AS segment_{{ loop.index }}, {% endfor %}NULL AS qid, NULL AS measure_order, NULL AS value WHERE FALSE
  {%- endif %}
)
SELECT {% for s in segment_cols %}v.segment_{{ loop.index }} AS {{ s }}, {% endfor %}v.qid AS {{ output_query_col }}, n.measure, CAST(v.value AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
FROM measure_values AS v
INNER JOIN measure_names AS n ON v.measure_order = n.measure_order
ORDER BY n.measure_order ASC NULLS FIRST, {% for s in segment_cols %}v.segment_{{ loop.index }} ASC NULLS LAST, {% endfor %}v.qid ASC NULLS LAST
{%- endmacro %}
