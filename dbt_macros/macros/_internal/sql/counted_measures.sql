{#- Copied from sql/counted_measures.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The measures whose value reads R (and Bpref's N) at each rank, not only at the end of the
    list (the families whose numerator is "counts": Rprec, IPrec, Bpref, infAP): for the pool
    families (Bpref, infAP) the items above each rank in the pool and the relevant and non-relevant
    ones among them (pool_ranks), then each measure's numerator per query (counted_measures), its
    family's macro _<sql>_numerator (sql/measures/), over the ranked rows p joined to their
    query's counts c. CTEs of sql/measures_per_query.sql.j2, which passes the measures
    (``counted``); they read its running_relevance and relevant_counts. -#}
{% macro _counted_measures(ctx, counted) -%}
{%- set pool_thresholds = ctx['pool_thresholds'] | default([]) -%}
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
    {{ ndcg_sql[m.macros ~ '_numerator'](ctx, m) }} AS counted_{{ m.id }}
    {%- endfor %}
  FROM {{ 'pool_ranks' if pool_thresholds else 'running_relevance' }} AS p
  INNER JOIN relevant_counts AS c ON p.qid = c.qid
  GROUP BY p.qid
),
{%- endif %}
{%- endmacro %}
