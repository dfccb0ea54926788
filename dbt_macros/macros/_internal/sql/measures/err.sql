{#- Copied from sql/measures/err.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- ERR (Chapelle, Metzler, Zhang & Grinspan 2009, as gdeval.pl): the chance of stopping at each rank,
    R = (2^g - 1) / 2^g_max for label g (labels above g_max count as g_max), times the chance of
    reaching it, the product of (1 - R) above it, taken as exp of a running sum of logarithms
    (every factor at least 1/16 > 0), over the rank, summed in rank order. Its numerator is summed
    in CTEs of its own (numerator "own": ndcg_sql/vocabulary/measures.py), written once for every
    ERR measure asked (they share g_max, the max_grade option). -#}
{%- macro _err_ctes(ctx, measures) -%}
{%- set g_max = measures[0].g_max %}
err_stops AS ( -- one row per ranked (query, item): R, the probability that the user stops there (Chapelle et al. 2009; labels above {{ g_max }} count as {{ g_max }})
  SELECT qid, rank, (POWER(2.0, CASE WHEN label > {{ g_max }} THEN {{ g_max }} ELSE label END) - 1.0) * {{ 1.0 / 2 ** g_max }} AS stop
  FROM ranked_items
),
err_reached AS ( -- one row per ranked (query, item): the probability of reaching its rank, the product of (1 - R) above it
  SELECT
    qid,
    rank,
    stop,
    EXP(COALESCE(SUM(LN(1.0 - stop)) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0.0)) AS reached
  FROM err_stops
),
err_running AS ( -- one row per ranked (query, item): ERR through its rank, summed in rank order
  SELECT
    qid,
    rank,
    SUM(CAST(stop * reached AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(rank, 0)) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS err_through
  FROM err_reached
),
err_values AS ( -- one row per ranked query: ERR at each asked cutoff (the running sum never decreases)
  SELECT
    qid
    {%- for m in measures %},
    {{ ndcg_sql._through_cutoff(m, 'err_through') }} AS err_{{ m.id }}
    {%- endfor %}
  FROM err_running
  GROUP BY qid
),
{%- endmacro %}

{%- macro _err_join(ctx, m) -%}
LEFT JOIN err_values AS e ON q.qid = e.qid
{%- endmacro %}

{%- macro _err_value(ctx, m) -%}
CAST(COALESCE(e.err_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
