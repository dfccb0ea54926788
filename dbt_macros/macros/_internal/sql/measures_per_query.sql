{#- Copied from sql/measures_per_query.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Binary-relevance measures per query over the ranked rows: P@k, R@k, AP(@k),
    RR(@k), Success@k, Judged@k (definitions, formulas and sources: ndcg_sql/vocabulary/measures.py).
    Judged@k counts judged items (labelled_items' judged flag) as P@k counts relevant
    ones, divided by min(k, list length) as ir_measures does. RBP (Moffat & Zobel 2008) sums
    p^(r-1) over relevant ranks in rank order (a running sum, like AP's), its residual the
    same over unjudged ranks plus what the ranks past the list could add. ERR (Chapelle et
    al. 2009, as gdeval.pl) multiplies the chances of reaching each rank as a running sum of
    logarithms, every factor at least 1/16 > 0. Rprec and IPrec@x (trec_eval's readings) read
    R at each rank: Rprec counts the relevant items at ranks <= R, IPrec@x takes the best P@j at
    or below the rank of the c-th relevant item, c = floor(x R + 0.9). Bpref (Buckley & Voorhees
    2004) and infAP (Yilmaz & Aslam 2006), as trec_eval's m_bpref.c and m_infap.c, sum a term
    over the relevant ranks from what lies above each: the judged items (judged flag), and
    among them the relevant and the non-relevant ones (assessed: a label at or above 0; a
    judgment below 0 is pooled but unjudged). gm_map is trec_eval's ln(max(AP, 1e-5)).
    An item is relevant at threshold t when its label >= t (trec_eval's -l).
    With ties = average the tie group's mean relevance is credited at each of
    its ranks (P and R only: their expected value over the tie's orders).
    R (relevant items of a query) counts the judgments, or the list itself.
    Under the conventions of LightGBM and XGBoost (ndcg_sql/vocabulary/conventions.py) AP and P are read as
    those tools compute map@k and pre@k: ap_reading 'min(R,k)' divides AP@k by min(R, k), a query
    without a relevant item counting the convention's no_relevant (LightGBM map_metric.hpp, XGBoost
    rank_metric.cc); p_reading 'min(k,n)' divides P@k by min(k, list length) (XGBoost).
    Running sums go in rank order, so results do not depend on threads. -#}
{% macro _measures_per_query(ctx) -%}
{%- set binary_measures = ctx['binary_measures'] -%}
{%- set err_measures = ctx['err_measures'] -%}
{%- set judged_needed = ctx['judged_needed'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set missing_queries = ctx['missing_queries'] -%}
{%- set output_query_col = ctx['output_query_col'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set thresholds = ctx['thresholds'] -%}
{%- set ties = ctx['ties'] -%}
{%- set gm_floor = ctx['gm_floor'] -%}
{%- set weighted = ctx['weighted'] -%}
{%- set pool_thresholds = ctx['pool_thresholds'] | default([]) -%}
{#- the families whose value reads R (and Bpref's N) at each rank, not only at the end -#}
{%- set counted_families = ('Rprec', 'IPrec', 'Bpref', 'infAP') -%}
{%- set counted = [] -%}
{%- for m in binary_measures if m.family in counted_families %}{% do counted.append(m) %}{% endfor -%}
{%- set ap_reading = ctx['ap_reading'] | default(none) -%}
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
{%- set err_list = err_measures | default([]) %}
{%- if err_list %}
{%- set g_max = err_list[0].g_max %}
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
    {%- for m in err_list %},
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} THEN err_through END) AS err_{{ m.id }}
    {%- endfor %}
  FROM err_running
  GROUP BY qid
),
{%- endif %}
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
    {%- for m in binary_measures if m.family in ('RBP', 'RBPResidual') %},
    {#- RBP: p^(r-1) at each relevant rank; its residual: p^(r-1) at each unjudged rank #}
    SUM({% if m.family == 'RBP' %}relevant_{{ m.threshold_id }}{% else %}(1.0 - relevant_{{ m.threshold_id }}){% endif %} * POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST(rank - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}))) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS rbp_sum_{{ m.id }}
    {%- endfor %}
  FROM running_relevance
),
{{- ndcg_sql._counted_measures(ctx, counted) }}
ranked_measures AS ( -- one row per ranked query: the numerator of every measure
  SELECT
    qid
    {%- for m in binary_measures if m.family != 'ERR' and m.family not in counted_families %},
    {%- set t = m.threshold_id %}
    {%- if m.family in ('P', 'R', 'Judged') %}
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} THEN relevant_through_{{ t }} END)
    {%- elif m.family in ('RBP', 'RBPResidual') %}
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} THEN rbp_sum_{{ m.id }} END)
    {%- elif m.family in ('AP', 'gm_map') %}
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} THEN precision_sum_{{ t }} END)
    {%- elif m.family == 'RR' %}
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} AND relevant_{{ t }} = 1.0 THEN CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(rank, 0) END)
    {%- else %}
    MAX(CASE WHEN {% if m.k is not none %}rank <= {{ m.k }}{% else %}TRUE{% endif %} AND relevant_{{ t }} = 1.0 THEN 1.0 END)
    {%- endif %} AS numerator_{{ m.id }}
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
    {%- if m.family == 'P' and p_reading == 'min(k,n)' %}
    CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CASE WHEN r.list_length < {{ m.k }} THEN r.list_length ELSE {{ m.k }} END, 0) AS value
    {%- elif m.family == 'P' %}
    CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({{ m.k }}, 0) AS value
    {%- elif m.family == 'ERR' %}
    CAST(COALESCE(e.err_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
    {%- elif m.family == 'RBP' %}
    CAST(1.0 - {{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
    {%- elif m.family == 'RBPResidual' %}
    {%- set depth = 'COALESCE(r.list_length, 0)' if m.k is none else 'CASE WHEN COALESCE(r.list_length, 0) < ' ~ m.k ~ ' THEN COALESCE(r.list_length, 0) ELSE ' ~ m.k ~ ' END' %}
    CAST(1.0 - {{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
      + POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST({{ depth }} AS {{ ndcg_sql.sql_type('DOUBLE') }})){% if m.k is not none %} - POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST({{ m.k }} AS {{ ndcg_sql.sql_type('DOUBLE') }})){% endif %} AS value
    {%- elif m.family == 'Judged' %}
    CASE WHEN r.list_length > 0
      THEN CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({% if m.k is not none %}CASE WHEN r.list_length < {{ m.k }} THEN r.list_length ELSE {{ m.k }} END{% else %}r.list_length{% endif %}, 0)
      ELSE CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) END AS value
    {%- elif m.family == 'gm_map' %}
    {#- trec_eval's per-query gm_map: the logarithm of AP floored at its MIN_GEO_MEAN; the summary is exp of their mean #}
    {%- set floor = ndcg_sql._cast(('%.10f' | format(gm_floor)), 'DOUBLE') %}
    {%- set ap = 'CAST(COALESCE(r.numerator_' ~ m.id ~ (', 0.0) AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ') / NULLIF(c.relevant_') ~ m.threshold_id ~ ', 0)' %}
    LN(CASE WHEN c.relevant_{{ m.threshold_id }} > 0 AND {{ ap }} > {{ floor }} THEN {{ ap }} ELSE {{ floor }} END) AS value
    {%- elif m.family == 'IPrec' %}
    CAST(COALESCE(x.counted_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
    {%- elif m.family in counted_families %}
    CASE WHEN c.relevant_{{ m.threshold_id }} > 0
      THEN CAST(COALESCE(x.counted_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(c.relevant_{{ m.threshold_id }}, 0)
      ELSE CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) END AS value
    {%- elif m.family == 'AP' and ap_reading == 'min(R,k)' %}
    CASE WHEN c.relevant_{{ m.threshold_id }} > 0
      THEN CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({% if m.k is not none %}CASE WHEN c.relevant_{{ m.threshold_id }} < {{ m.k }} THEN c.relevant_{{ m.threshold_id }} ELSE {{ m.k }} END{% else %}c.relevant_{{ m.threshold_id }}{% endif %}, 0)
      ELSE CAST({{ '1.0' if ctx['no_relevant'] == 'one' else '0.0' }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) END AS value
    {%- elif m.family in ('R', 'AP') %}
    CASE WHEN c.relevant_{{ m.threshold_id }} > 0
      THEN CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(c.relevant_{{ m.threshold_id }}, 0)
      ELSE CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) END AS value
    {%- else %}
    CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
    {%- endif %}
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c ON q.qid = c.qid
  {%- if m.family == 'ERR' %}
  LEFT JOIN err_values AS e ON q.qid = e.qid
  {%- endif %}
  {%- if m.family in counted_families %}
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
