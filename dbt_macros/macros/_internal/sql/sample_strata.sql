{#- Copied from sql/sample_strata.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The strata of a sample of the queries (sql/query_sample.sql.j2): one row per segment (one row
    without segments) with its queries in the ranking (population, N) and those drawn (sampled,
    n_frame), from which the summary takes the sampling fraction f = sampled / population of its
    finite-population correction sqrt(1 - f) (Cochran, Sampling Techniques, 3rd ed. 1977, ch. 2
    and 5: each segment a stratum sampled alike, its mean estimated from its own sample). -#}
{% macro _sample_strata(ctx) -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set sample = ctx['sample'] -%}
WITH
{{ ndcg_sql._normalised_rows(ctx) }}
SELECT
  {%- for s in segment_cols %}
  keys.segment_{{ loop.index }} AS {{ s }},
  {%- endfor %}
  COUNT(*) AS population,
  SUM(CASE WHEN d.state < {{ sample.threshold }} THEN 1 ELSE 0 END) AS sampled
FROM sample_draws AS d
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON d.qid = keys.qid
GROUP BY {% for s in segment_cols %}{% if not loop.first %}, {% endif %}keys.segment_{{ loop.index }}{% endfor %}
{%- else %}
WHERE d.qid IS NOT NULL
{%- endif %}
{% endmacro %}
