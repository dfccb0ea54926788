{#- Copied from sql/measures_per_query.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Binary-relevance measures per query over the ranked rows: every family but the graded ones
    (CG, DCG, nDCG: sql/per_query.sql.j2). Definitions, formulas and sources: the families' records,
    ndcg_sql/vocabulary/measures.py. This file is the frame every family shares: the evaluated
    queries, R (relevant_counts: the relevant items of each query at each threshold, from the
    judgments or the list itself; for Bpref also N, its judged non-relevant ones), and for each
    ranked (query, item) its rank and relevance at each threshold (relevance_by_rank), the
    relevant items at or above it (running_relevance) and the sum of P@r over the relevant ranks
    at or above it (precision_sums, AP's). An item is relevant at threshold t when its label >= t
    (trec_eval's -l). With ties = average the tie group's mean relevance is credited at each of
    its ranks (the linear families only: their expected value over the tie's orders).
    What is a family's own is in its macro file, sql/measures/<sql>.sql.j2, whose macros this
    file calls by the names the family's record gives (m.macros ~ '_value', ...: every entry of
    binary_measures carries them, sql/options/measure_context.sql): a running sum in rank order
    beside the precision sums (_running_sum), the numerator summed per query (_numerator: in
    ranked_measures, or for a value that reads R at each rank in counted_measures,
    sql/counted_measures.sql.j2), CTEs of its own and their join (_ctes, _join: ERR), and the
    per-query value (_value, reading r.numerator_<id>, x.counted_<id> and R, c.relevant_<t>).
    Running sums go in rank order, so results do not depend on threads. -#}
{#- the rows at or above m's cutoff (every row without one) -#}
{%- macro _within_cutoff(m) -%}
{% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %}
{%- endmacro -%}
{#- a running sum (in rank order, so never decreasing) at rank min(k, list length): its largest value
    at or above the cutoff -#}
{%- macro _through_cutoff(m, running) -%}
MAX(CASE WHEN {{ ndcg_sql._within_cutoff(m) }} THEN {{ running }} END)
{%- endmacro -%}
{#- a numerator divided by R, 0 when the query has no relevant item (trec_eval's rule) -#}
{%- macro _over_relevant(m, numerator) -%}
CASE WHEN c.relevant_{{ m.threshold_id }} > 0
      THEN CAST(COALESCE({{ numerator }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(c.relevant_{{ m.threshold_id }}, 0)
      ELSE CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) END
{%- endmacro -%}
{% macro _measures_per_query(ctx) -%}
{%- set binary_measures = ctx['binary_measures'] -%}
{%- set judged_needed = ctx['judged_needed'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set missing_queries = ctx['missing_queries'] -%}
{%- set output_query_col = ctx['output_query_col'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set thresholds = ctx['thresholds'] -%}
{%- set ties = ctx['ties'] -%}
{%- set weighted = ctx['weighted'] -%}
{%- set pool_thresholds = ctx['pool_thresholds'] | default([]) -%}
{#- the measures whose value reads R (and Bpref's N) at each rank, not only at the end -#}
{%- set counted = binary_measures | selectattr('numerator', 'equalto', 'counts') | list -%}
{#- the families with CTEs of their own (ERR), each family's macros once -#}
{%- set own = [] -%}
{%- for m in binary_measures if m.numerator == 'own' and m.macros not in own %}{% do own.append(m.macros) %}{% endfor -%}
{%- set p_reading = ctx['p_reading'] | default(none) -%}
WITH
{{ ndcg_sql._normalised_rows(ctx) }},
{{ ndcg_sql._labelled_items(ctx) }},
{{ ndcg_sql._ranked_items(ctx) }},
evaluated_queries AS ( -- one row per evaluated query
  {%- if judgments %}
  SELECT DISTINCT qid FROM judgment_rows
  {%- if missing_queries != 'zero' %}
  WHERE qid IN (SELECT qid FROM run_rows)
  {%- endif %}
  {%- else %}
  SELECT DISTINCT qid FROM run_rows
  {%- endif %}
),
{%- if weighted | default(false) %}
{{ ndcg_sql._query_weights(ctx) }},
{%- endif %}
relevant_counts AS ( -- one row per query: R, its number of relevant items at each threshold{% if pool_thresholds %} (and for Bpref N, its judged non-relevant ones){% endif %}
  SELECT
    qid
    {%- for t in thresholds if not t.judged %},
    SUM(CASE WHEN label >= {{ t.value }} THEN 1 ELSE 0 END) AS relevant_{{ t.id }}
    {%- if t.id in pool_thresholds %},
    SUM(CASE WHEN assessed = 1.0 AND label < {{ t.value }} THEN 1 ELSE 0 END) AS nonrelevant_{{ t.id }}
    {%- endif %}
    {%- endfor %}
  FROM (
    {%- if judgments %}
    SELECT qid, {{ ndcg_sql._counted_label(ctx, 'label_raw') }} AS label{% if pool_thresholds %}, {{ ndcg_sql._assessed_flag(ctx, 'label_raw') }} AS assessed{% endif %} FROM judgment_rows
    {%- else %}
    SELECT qid, label{% if pool_thresholds %}, assessed{% endif %} FROM labelled_items
    {%- endif %}
  ) AS judged_labels
  GROUP BY qid
),
{%- for macros in own %}
{{ ndcg_sql[macros ~ '_ctes'](ctx, binary_measures | selectattr('macros', 'equalto', macros) | list) }}
{%- endfor %}
relevance_by_rank AS ( -- one row per ranked (query, item): its rank and its (credited) relevance at each threshold
  SELECT
    qid,
    rank{% if pool_thresholds %},
    judged,
    assessed,
    pooled{% endif %}
    {%- for t in thresholds %},
    {%- set indicator = 'judged' if t.judged else 'CASE WHEN label >= ' ~ t.value ~ ' THEN 1.0 ELSE 0.0 END' %}
    {% if ties == 'average' -%}
    AVG({{ indicator }}) OVER (PARTITION BY qid ORDER BY order_value ASC NULLS FIRST RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
    {%- else -%}
    {{ indicator }}
    {%- endif %} AS relevant_{{ t.id }}
    {%- endfor %}
  FROM ranked_items
),
running_relevance AS ( -- one row per ranked (query, item): relevant items at or above its rank
  SELECT
    qid,
    rank{% if pool_thresholds %},
    judged,
    assessed,
    pooled{% endif %}
    {%- for t in thresholds %},
    relevant_{{ t.id }},
    SUM(relevant_{{ t.id }}) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS relevant_through_{{ t.id }}
    {%- endfor %}
  FROM relevance_by_rank
),
precision_sums AS ( -- one row per ranked (query, item): sum of P@r over relevant ranks r at or above it
  SELECT
    qid,
    rank
    {%- for t in thresholds %},
    relevant_{{ t.id }},
    relevant_through_{{ t.id }},
    SUM(CASE WHEN relevant_{{ t.id }} = 1.0 THEN CAST(relevant_through_{{ t.id }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(rank, 0) ELSE 0.0 END) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS precision_sum_{{ t.id }}
    {%- endfor %}
    {%- for m in binary_measures if m.running_sum %},
    {{ ndcg_sql[m.macros ~ '_running_sum'](ctx, m) }}
    {%- endfor %}
  FROM running_relevance
),
{{- ndcg_sql._counted_measures(ctx, counted) }}
ranked_measures AS ( -- one row per ranked query: the numerator of every measure
  SELECT
    qid
    {%- for m in binary_measures if m.numerator == 'ranks' %},
    {{ ndcg_sql[m.macros ~ '_numerator'](ctx, m) }} AS numerator_{{ m.id }}
    {%- endfor %}
    {%- if judged_needed | default(false) or p_reading is not none %},
    MAX(rank) AS list_length
    {%- endif %}
  FROM precision_sums
  GROUP BY qid
),
binary_measures AS ( -- one row per (evaluated query, measure): the measure's value
  {%- for m in binary_measures %}
  {% if not loop.first %}UNION ALL
  {% endif -%}
  SELECT
    q.qid,
    {{ m.order }} AS measure_order,
    {%- if weighted | default(false) %}
    w.weight,
    {%- endif %}
    {{ ndcg_sql[m.macros ~ '_value'](ctx, m) }} AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c ON q.qid = c.qid
  {%- if m.numerator == 'own' %}
  {{ ndcg_sql[m.macros ~ '_join'](ctx, m) }}
  {%- elif m.numerator == 'counts' %}
  LEFT JOIN counted_measures AS x ON q.qid = x.qid
  {%- endif %}
  {%- if weighted | default(false) %}
  INNER JOIN query_weights AS w ON q.qid = w.qid
  {%- endif %}
  {%- endfor %}
)
SELECT
  {{- ndcg_sql._output_query_columns(ctx) }}
  measure_order,
  value{% if weighted | default(false) %},
  weight{% endif %}
FROM binary_measures
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON binary_measures.qid = keys.qid
{%- endif %}
{% endmacro %}
