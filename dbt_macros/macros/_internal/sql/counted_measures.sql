{#- Copied from sql/counted_measures.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The measures whose value reads R (and Bpref's N) at each rank, not only at the end of the
    list (Rprec, IPrec, Bpref, infAP; trec_eval's m_Rprec.c, m_iprec_at_recall.c, m_bpref.c,
    m_infap.c): for Bpref and infAP, the items above each rank in the pool and the relevant and
    non-relevant ones among them (pool_ranks), then each measure's numerator per query
    (counted_measures). CTEs of sql/measures_per_query.sql.j2, which passes the measures
    (``counted``); they read its running_relevance and relevant_counts. -#}
{% macro _counted_measures(ctx, counted) -%}
{%- set pool_thresholds = ctx['pool_thresholds'] | default([]) -%}
{%- set infap_epsilon = ctx['infap_epsilon'] -%}
{%- if pool_thresholds %}
pool_ranks AS ( -- one row per ranked (query, item): for Bpref and infAP, the items above its rank in the pool (with a judgment, a label below 0 included), and the relevant and non-relevant ones among them
  SELECT
    *,
    COALESCE(SUM(pooled) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0.0) AS judged_above
    {%- for t in pool_thresholds %},
    relevant_through_{{ t }} - relevant_{{ t }} AS relevant_above_{{ t }},
    COALESCE(SUM(assessed * (1.0 - relevant_{{ t }})) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0.0) AS nonrelevant_above_{{ t }}
    {%- endfor %}
  FROM running_relevance
),
{%- endif %}
{%- if counted %}
counted_measures AS ( -- one row per ranked query: the numerators that read R at each rank (Rprec, IPrec) or R and N (Bpref), summed over relevant ranks (Bpref, infAP)
  SELECT
    p.qid
    {%- for m in counted %},
    {%- set t = m.threshold_id %}
    {%- set relevant = 'c.relevant_' ~ t %}
    {%- if m.family == 'Rprec' %}
    SUM(CASE WHEN p.rank <= {{ relevant }} THEN p.relevant_{{ t }} ELSE 0.0 END)
    {%- elif m.family == 'IPrec' %}
    {#- the interpolated precision at the rank of the c-th relevant item: the best P@j at or below it (every j once c = 0) #}
    MAX(CASE WHEN p.relevant_through_{{ t }} >= FLOOR(CAST({{ m.recall }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * {{ relevant }} + 0.9) THEN CAST(p.relevant_through_{{ t }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0) END)
    {%- elif m.family == 'Bpref' %}
    {%- set above = 'p.nonrelevant_above_' ~ t %}
    {%- set nonrelevant = 'c.nonrelevant_' ~ t %}
    SUM(CASE WHEN p.relevant_{{ t }} = 1.0 AND p.assessed = 1.0 THEN
      CASE WHEN {{ above }} > 0 THEN 1.0 - CAST(CASE WHEN {{ above }} < {{ relevant }} THEN {{ above }} ELSE {{ relevant }} END AS {{ ndcg_sql.sql_type('DOUBLE') }})
        / NULLIF(CASE WHEN {{ nonrelevant }} < {{ relevant }} THEN {{ nonrelevant }} ELSE {{ relevant }} END, 0) ELSE 1.0 END
      ELSE 0.0 END)
    {%- else %}
    {%- set epsilon = ndcg_sql._cast(('%.10f' | format(infap_epsilon)), 'DOUBLE') %}
    SUM(CASE WHEN p.relevant_{{ t }} = 1.0 AND p.assessed = 1.0 THEN
      CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0) + (CAST(p.judged_above AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0))
        * (p.relevant_above_{{ t }} + {{ epsilon }}) / (p.relevant_above_{{ t }} + p.nonrelevant_above_{{ t }} + 2.0 * {{ epsilon }})
      ELSE 0.0 END)
    {%- endif %} AS counted_{{ m.id }}
    {%- endfor %}
  FROM {{ 'pool_ranks' if pool_thresholds else 'running_relevance' }} AS p
  INNER JOIN relevant_counts AS c ON p.qid = c.qid
  GROUP BY p.qid
),
{%- endif %}
{%- endmacro %}
