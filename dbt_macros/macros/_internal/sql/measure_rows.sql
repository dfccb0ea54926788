{#- Copied from sql/measure_rows.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- One row per ([segment values,] query, measure): every asked measure in one long table, as
    one statement (to_sql, dbt's ndcg_measures, a step of ndcg_sql/building/plan.py).
    CG, DCG and nDCG come from the per-query NDCG rows (sql/per_query.sql.j2, one column each
    per cutoff), the binary measures from sql/measures_per_query.sql.j2, each a CTE here;
    names are SQL string literals of the parsed measures (sql/options/measure_context.sql). -#}
{% macro _measure_rows(ctx) -%}
{%- set binary_measures = ctx['binary_measures'] -%}
{%- set graded_measures = ctx['graded_measures'] -%}
{%- set measures = ctx['measures'] -%}
{%- set output_query_col = ctx['output_query_col'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set weighted = ctx['weighted'] -%}
{%- set per_query_relation = 'per_query_rows' if graded_measures else none -%}
{%- set binary_relation = 'binary_measure_rows' if binary_measures else none -%}
WITH
{%- if graded_measures %}
per_query_rows AS ( -- one row per (query, cutoff of a graded measure): CG, DCG, IDCG, NDCG
{{ ndcg_sql._per_query(ctx) }}
),
{%- endif %}
{%- if binary_measures %}
binary_measure_rows AS ( -- one row per (query, binary measure): its value
{{ ndcg_sql._measures_per_query(ctx) }}
),
{%- endif %}
measure_names AS ( -- one row per asked measure: its place in the output and its name
  {%- for m in measures %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ m.order }} AS measure_order, {{ m.name_sql }} AS measure
  {%- endfor %}
),
measure_values AS ( -- one row per (query, measure order): the value
  {%- for m in graded_measures %}
  {% if not loop.first %}UNION ALL
  {% endif -%}
  SELECT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ output_query_col }} AS qid, {{ m.order }} AS measure_order, {{ m.column }} AS value{% if weighted | default(false) %}, weight{% endif %}
  FROM {{ per_query_relation }}
  WHERE {% if m.k is not none %}k = {{ m.k }}{% else %}k IS NULL{% endif %}
  {%- endfor %}
  {%- if binary_relation %}
  {% if graded_measures %}UNION ALL
  {% endif -%}
  SELECT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ output_query_col }} AS qid, measure_order, value{% if weighted | default(false) %}, weight{% endif %} FROM {{ binary_relation }}
  {%- endif %}
)
SELECT {% for s in segment_cols %}v.segment_{{ loop.index }} AS {{ s }}, {% endfor %}v.qid AS {{ output_query_col }}, n.measure, CAST(v.value AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value{% if weighted | default(false) %}, CAST(v.weight AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS weight{% endif %}
FROM measure_values AS v
INNER JOIN measure_names AS n ON v.measure_order = n.measure_order
ORDER BY n.measure_order ASC NULLS FIRST, {% for s in segment_cols %}v.segment_{{ loop.index }} ASC NULLS LAST, {% endfor %}v.qid ASC NULLS LAST
{% endmacro %}
