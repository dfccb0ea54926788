{#- Generated from sql/summary.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro tmpl_summary(cutoffs, per_query_relation, segment_cols) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if cutoffs is undefined %}{{ exceptions.raise_compiler_error("tmpl_summary: the template context has no 'cutoffs'") }}{% endif -%}
{%- if per_query_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_summary: the template context has no 'per_query_relation'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("tmpl_summary: the template context has no 'segment_cols'") }}{% endif -%}
{%- set ndcg_context = {'cutoffs': cutoffs, 'per_query_relation': per_query_relation, 'segment_cols': segment_cols} -%}
{#- Summary per cutoff over the per-query rows: mean NDCG over the queries
    counted (all, less the no-relevant ones under the skip policy), how many
    were counted, how many had no relevant item (IDCG@k = 0) and how many were
    evaluated (counted or skipped). Every cutoff gets a row, with 0 queries
    and a NULL mean when none was evaluated.
    With segment columns (e.g. experiment arm, date, device: quoted names of
    columns of the per-query rows), one row per (segment, cutoff).
    The NDCG values are summed exactly, as decimals with 18 places (NDCG lies
    in [0, 1], so rounding moves the mean by less than 1e-18), so the mean does
    not depend on the order in which rows or threads deliver them, without
    sorting the per-query rows. -#}
WITH
{% with %}{#- One row per cutoff k; k is NULL for the whole list. -#}
cutoffs AS ( -- one row per cutoff
  {%- for cutoff in cutoffs %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ cutoff.id }} AS cutoff_id, {% if cutoff.k is not none %}CAST({{ cutoff.k }} AS {{ ndcg_sql.sql_type('BIGINT') }}){% else %}CAST(NULL AS {{ ndcg_sql.sql_type('BIGINT') }}){% endif %} AS k
  {%- endfor %}
)
{% endwith %},
cutoff_means AS ( -- one row per ({% for segment in segment_cols %}segment, {% endfor %}cutoff) with evaluated queries
  SELECT
    {%- for segment in segment_cols %}
    {{ segment }},
    {%- endfor %}
    k,
    CAST(SUM(CAST(ndcg AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(COUNT(ndcg), 0) AS ndcg,
    COUNT(ndcg) AS queries,
    COUNT(*) AS evaluated,
    CAST(SUM(CASE WHEN idcg > 0 THEN 0 ELSE 1 END) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS no_relevant
  FROM {{ per_query_relation }}
  GROUP BY {% for segment in segment_cols %}{{ segment }}, {% endfor %}k
)
{%- if segment_cols %},
segments AS ( -- one row per segment
  SELECT DISTINCT {% for segment in segment_cols %}{% if not loop.first %}, {% endif %}{{ segment }}{% endfor %}
  FROM {{ per_query_relation }}
)
{%- endif %}
SELECT
  {%- for segment in segment_cols %}
  s.{{ segment }},
  {%- endfor %}
  c.k,
  m.ndcg,
  CAST(COALESCE(m.queries, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS queries,
  CAST(COALESCE(m.no_relevant, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS no_relevant,
  CAST(COALESCE(m.evaluated, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS evaluated
FROM cutoffs AS c
{%- if segment_cols %}
CROSS JOIN segments AS s
{%- endif %}
LEFT JOIN cutoff_means AS m ON COALESCE(c.k, 0) = COALESCE(m.k, 0)
  {%- for segment in segment_cols %} AND s.{{ segment }} IS NOT DISTINCT FROM m.{{ segment }}{% endfor %}
ORDER BY {% for segment in segment_cols %}s.{{ segment }} ASC NULLS LAST, {% endfor %}c.cutoff_id ASC NULLS LAST
{%- endmacro %}
