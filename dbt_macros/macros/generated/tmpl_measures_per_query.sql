{#- Generated from sql/measures_per_query.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro tmpl_measures_per_query(binary_measures, exact_gains, gain, gain_mapping, input_kind, item_col, item_order, j_item_col, j_label_col, j_query_col, judgments, judgments_relation, label_col, missing_queries, negative_labels, order_col, output_query_col, query_col, row_col, run_relation, score_precision, segment_cols, segmented_judgments, thresholds, ties) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if binary_measures is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'binary_measures'") }}{% endif -%}
{%- if exact_gains is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'exact_gains'") }}{% endif -%}
{%- if gain is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'gain'") }}{% endif -%}
{%- if gain_mapping is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'gain_mapping'") }}{% endif -%}
{%- if input_kind is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'input_kind'") }}{% endif -%}
{%- if item_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'item_col'") }}{% endif -%}
{%- if item_order is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'item_order'") }}{% endif -%}
{%- if j_item_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'j_item_col'") }}{% endif -%}
{%- if j_label_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'j_label_col'") }}{% endif -%}
{%- if j_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'j_query_col'") }}{% endif -%}
{%- if judgments is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'judgments'") }}{% endif -%}
{%- if judgments_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'judgments_relation'") }}{% endif -%}
{%- if label_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'label_col'") }}{% endif -%}
{%- if missing_queries is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'missing_queries'") }}{% endif -%}
{%- if negative_labels is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'negative_labels'") }}{% endif -%}
{%- if order_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'order_col'") }}{% endif -%}
{%- if output_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'output_query_col'") }}{% endif -%}
{%- if query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'query_col'") }}{% endif -%}
{%- if row_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'row_col'") }}{% endif -%}
{%- if run_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'run_relation'") }}{% endif -%}
{%- if score_precision is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'score_precision'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'segment_cols'") }}{% endif -%}
{%- if thresholds is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'thresholds'") }}{% endif -%}
{%- if ties is undefined %}{{ exceptions.raise_compiler_error("tmpl_measures_per_query: the template context has no 'ties'") }}{% endif -%}
{%- set ndcg_context = {'binary_measures': binary_measures, 'exact_gains': exact_gains, 'gain': gain, 'gain_mapping': gain_mapping, 'input_kind': input_kind, 'item_col': item_col, 'item_order': item_order, 'j_item_col': j_item_col, 'j_label_col': j_label_col, 'j_query_col': j_query_col, 'judgments': judgments, 'judgments_relation': judgments_relation, 'label_col': label_col, 'missing_queries': missing_queries, 'negative_labels': negative_labels, 'order_col': order_col, 'output_query_col': output_query_col, 'query_col': query_col, 'row_col': row_col, 'run_relation': run_relation, 'score_precision': score_precision, 'segment_cols': segment_cols, 'segmented_judgments': segmented_judgments, 'thresholds': thresholds, 'ties': ties} -%}
{#- Binary-relevance measures per query over the ranked rows: P@k, R@k, AP(@k),
    RR(@k), Success@k (definitions, formulas and sources: ndcg_sql/measures.py).
    An item is relevant at threshold t when its label >= t (trec_eval's -l).
    With ties = average the tie group's mean relevance is credited at each of
    its ranks (P and R only: their expected value over the tie's orders).
    R (relevant items of a query) counts the judgments, or the list itself.
    Running sums go in rank order, so results do not depend on threads. -#}
{#- import 'gain.sql.j2' as gain_sql with context (generated: see ndcg_context) -#}
WITH
{% with %}{#- The only place user column names appear. Every later CTE speaks of
    qid, item, order_value (a score, higher is better, or a logged rank, 1 = top)
    and label. With segment columns (experiment arm, date, device, ...) the
    query key qid is a number standing for the pair (segment values, query)
    (segment_keys): every later CTE partitions by it unchanged, so a query in
    two segments is two queries, and the per-query rows join segment_keys to
    give the segment columns and the query id back. Judgments without the
    segment columns are per query: each (segment, query) of the run gets the
    query's judgments, and judged queries the run does not show are left out.
    Judgments with them (segmented_judgments) are per (segment, query). -#}
{%- set query_key -%}
{%- if segment_cols -%}
ndcg_sql_segment_key
{%- else -%}
{{ query_col }}
{%- endif -%}
{%- endset -%}
{%- set keyed_run -%}
{%- if segment_cols -%}
(
    SELECT ranking.*, keys.qid AS ndcg_sql_segment_key
    FROM {{ run_relation }} AS ranking
    INNER JOIN segment_keys AS keys
      ON {% for s in segment_cols %}ranking.{{ s }} IS NOT DISTINCT FROM keys.segment_{{ loop.index }} AND {% endfor %}ranking.{{ query_col }} IS NOT DISTINCT FROM keys.query
  ) AS keyed_ranking
{%- else -%}
{{ run_relation }}
{%- endif -%}
{%- endset -%}
{%- if segment_cols %}
segment_keys AS ( -- one row per (segment values, query) of the run{% if segmented_judgments | default(false) %} or the judgments{% endif %}: the number standing for the pair
  SELECT
    {%- for s in segment_cols %}
    segment_{{ loop.index }},
    {%- endfor %}
    query,
    CASE WHEN query IS NOT NULL THEN ROW_NUMBER() OVER (
      ORDER BY {% for s in segment_cols %}segment_{{ loop.index }} ASC NULLS LAST, {% endfor %}query ASC NULLS LAST
    ) END AS qid
  FROM (
    SELECT DISTINCT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ query_col }} AS query
    FROM {{ run_relation }}
    {%- if segmented_judgments | default(false) %}
    UNION
    SELECT DISTINCT {% for s in segment_cols %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ j_query_col }} AS query
    FROM {{ judgments_relation }}
    {%- endif %}
  ) AS segment_queries
),
{%- endif %}
run_rows AS ( -- one row per (query, item) of the ranking, as given
  SELECT
    {{ query_key }} AS qid,
    {{ item_col }} AS item,
    {{ order_col }} AS order_raw,
    {% if judgments %}CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}{{ label_col }}{% endif %} AS label_raw
    {%- if ties == 'input-order' %},
    {{ row_col }} AS row_order
    {%- endif %}
  FROM {{ keyed_run }}
)
{%- if not judgments %},
run_labels AS ( -- one row per (query, item) of the ranking: its label, as given
  {#- the same rows as run_rows, named apart so that the ideal ranking reads
      them in a pass of its own instead of DuckDB keeping every row of a CTE
      read twice #}
  SELECT
    {{ query_key }} AS qid,
    {{ label_col }} AS label_raw
  FROM {{ keyed_run }}
)
{%- endif %}
{%- if judgments %},
judgment_rows AS ( -- one row per judged (query, item), as given
  {%- if segment_cols %}
  SELECT keys.qid, j.item, j.label_raw
  FROM (
    SELECT {% for s in segment_cols if segmented_judgments | default(false) %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ j_query_col }} AS query, {{ j_item_col }} AS item, {{ j_label_col }} AS label_raw
    FROM {{ judgments_relation }}
  ) AS j
  LEFT JOIN segment_keys AS keys
    ON {% for s in segment_cols if segmented_judgments | default(false) %}j.segment_{{ loop.index }} IS NOT DISTINCT FROM keys.segment_{{ loop.index }} AND {% endfor %}j.query = keys.query
  WHERE keys.qid IS NOT NULL OR j.query IS NULL
  {%- else %}
  SELECT
    {{ j_query_col }} AS qid,
    {{ j_item_col }} AS item,
    {{ j_label_col }} AS label_raw
  FROM {{ judgments_relation }}
  {%- endif %}
),
judgment_labels AS ( -- one row per judged (query, item): its label, as given (read apart, like run_labels)
  {%- if segment_cols %}
  SELECT keys.qid, j.label_raw
  FROM (
    SELECT {% for s in segment_cols if segmented_judgments | default(false) %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ j_query_col }} AS query, {{ j_label_col }} AS label_raw
    FROM {{ judgments_relation }}
  ) AS j
  INNER JOIN segment_keys AS keys
    ON {% for s in segment_cols if segmented_judgments | default(false) %}j.segment_{{ loop.index }} IS NOT DISTINCT FROM keys.segment_{{ loop.index }} AND {% endfor %}j.query = keys.query
  {%- else %}
  SELECT
    {{ j_query_col }} AS qid,
    {{ j_label_col }} AS label_raw
  FROM {{ judgments_relation }}
  {%- endif %}
)
{%- endif %}
{% endwith %},
{% with %}{#- One row per ranked (query, item) with a numeric order value and label.
    With judgments, the label comes from the judgments (unjudged items: 0);
    queries without any judgment are left out (as trec_eval does) where
    per_query.sql.j2 joins the run's values to the ideal ones.
    score_precision float32 rounds the order value to the nearest float32
    (trec_eval, XGBoost); negative_labels zero counts negative labels as 0
    (trec_eval).
    A judged item whose label counts as 0 is labelled exactly as an unjudged
    one, so only the other judgments are joined: a smaller join (most
    judgments of a large log are usually 0). -#}
{%- set judged_label = ('GREATEST(CAST(label_raw AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ '), 0.0)') if negative_labels == 'zero' else ('CAST(label_raw AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')') %}
{%- if judgments %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    r.qid,
    r.item,
    {% if score_precision == 'float32' %}CAST(CAST(r.order_raw AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(r.order_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS order_value,
    COALESCE(j.label, 0.0) AS label{% if ties == 'input-order' %},
    r.row_order{% endif %}
  FROM run_rows AS r
  LEFT JOIN (
    SELECT qid, item, {{ judged_label }} AS label
    FROM judgment_rows
    WHERE {{ judged_label }} <> 0.0
  ) AS j ON r.qid = j.qid AND r.item = j.item
)
{%- else %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    qid,
    item,
    {% if score_precision == 'float32' %}CAST(CAST(order_raw AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(order_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS order_value,
    {% if negative_labels == 'zero' %}GREATEST(CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0.0){% else %}CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS label{% if ties == 'input-order' %},
    row_order{% endif %}
  FROM run_rows
)
{%- endif %}
{% endwith %},
{% with %}{#- Ranking and ties. rank 1 is the top: score descending, or logged rank
    ascending. Inside a group of equal order values (a tie group: the rows
    that are peers in the order-value window below):
      average   - every item is credited the mean gain of its tie group
                  (McSherry & Najork, ECIR 2008; scikit-learn's ndcg_score).
                  Ranks inside the group are then arbitrary, so item ascending
                  only makes them deterministic; DCG does not depend on it.
      item-asc  - item id ascending (byte order for strings: item_order is
                  the engine's byte-order expression, ndcg_sql/dialects.py)
      item-desc - item id descending (trec_eval's order)
      input-order - the row-order column ascending (LightGBM's and XGBoost's
                  stable sorts keep tied rows in input order)
    Both windows partition by query and order by the order value, so one sort
    serves both (no second partitioning by tie group).
    exact_gains (the caller checked the input: every gain is a whole number
    and no list's gains add up past 2^53) makes every sum of gains exact, so
    the tie group's mean is the same whatever order its items come in and
    equals the gain when they are all equal: the ranking then needs no item
    order inside a tie group and no MIN/MAX guard (a cheaper sort, the same
    numbers to the bit). -#}
{%- set item_direction = 'DESC' if ties == 'item-desc' else 'ASC' -%}
{%- set exact_ties = ties == 'average' and exact_gains -%}
{%- set order_direction = 'DESC' if input_kind == 'score' else 'ASC' -%}
{#- Keys are never NULL (checked); NULLs are placed as the smallest value,
    BigQuery's fixed rule for windowed aggregates, so every engine agrees. -#}
{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'} -%}
{#- a tie group: the peers of a row in the order-value window (BigQuery cannot
    PARTITION BY a DOUBLE; a RANGE frame over it is fine) -#}
{%- set tie_group = 'PARTITION BY qid ORDER BY order_value ' ~ order_direction ~ ' ' ~ nulls[order_direction] ~ ' RANGE BETWEEN CURRENT ROW AND CURRENT ROW' -%}
gained_items AS ( -- one row per ranked (query, item) with its gain
  SELECT qid, item, order_value, label,{% if ties == 'input-order' %} row_order,{% endif %} {{ ndcg_sql.tmpl_gain__gain_of(ndcg_context, 'label') }} AS gain
  FROM labelled_items
),
ranked_items AS ( -- one row per ranked (query, item): its rank, label, order value and the gain credited at that rank
  SELECT
    qid,
    label,
    order_value,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value {{ order_direction }} {{ nulls[order_direction] }}{% if not exact_ties %}, {% if ties == 'input-order' %}row_order ASC NULLS FIRST, {% endif %}{{ item_order }} {{ item_direction }} {{ nulls[item_direction] }}{% endif %}
    ) AS rank,
    {% if exact_ties -%}
    AVG(gain) OVER ({{ tie_group }})
    {%- elif ties == 'average' -%}
    CASE
      WHEN MIN(gain) OVER ({{ tie_group }}) = MAX(gain) OVER ({{ tie_group }})
        THEN gain
      ELSE AVG(gain) OVER ({{ tie_group }})
    END
    {%- else -%}
    gain
    {%- endif %} AS credited_gain
  FROM gained_items
)
{% endwith %},
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
relevant_counts AS ( -- one row per query: R, its number of relevant items at each threshold
  SELECT
    qid
    {%- for t in thresholds %},
    SUM(CASE WHEN label >= {{ t.value }} THEN 1 ELSE 0 END) AS relevant_{{ t.id }}
    {%- endfor %}
  FROM (
    {%- if judgments %}
    SELECT qid, {% if negative_labels == 'zero' %}GREATEST(CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0.0){% else %}CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS label FROM judgment_rows
    {%- else %}
    SELECT qid, label FROM labelled_items
    {%- endif %}
  ) AS judged_labels
  GROUP BY qid
),
relevance_by_rank AS ( -- one row per ranked (query, item): its rank and its (credited) relevance at each threshold
  SELECT
    qid,
    rank
    {%- for t in thresholds %},
    {% if ties == 'average' -%}
    AVG(CASE WHEN label >= {{ t.value }} THEN 1.0 ELSE 0.0 END) OVER (PARTITION BY qid ORDER BY order_value ASC NULLS FIRST RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
    {%- else -%}
    CASE WHEN label >= {{ t.value }} THEN 1.0 ELSE 0.0 END
    {%- endif %} AS relevant_{{ t.id }}
    {%- endfor %}
  FROM ranked_items
),
running_relevance AS ( -- one row per ranked (query, item): relevant items at or above its rank, and the running AP sum
  SELECT
    qid,
    rank
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
  FROM running_relevance
),

ranked_measures AS ( -- one row per ranked query: the numerator of every measure
  SELECT
    qid
    {%- for m in binary_measures %},
    {%- set t = m.threshold_id %}
    {%- if m.family in ('P', 'R') %}
    MAX(CASE WHEN {{ ndcg_sql.tmpl_measures_per_query__within(ndcg_context, m.k) }} THEN relevant_through_{{ t }} END)
    {%- elif m.family == 'AP' %}
    MAX(CASE WHEN {{ ndcg_sql.tmpl_measures_per_query__within(ndcg_context, m.k) }} THEN precision_sum_{{ t }} END)
    {%- elif m.family == 'RR' %}
    MAX(CASE WHEN {{ ndcg_sql.tmpl_measures_per_query__within(ndcg_context, m.k) }} AND relevant_{{ t }} = 1.0 THEN CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(rank, 0) END)
    {%- else %}
    MAX(CASE WHEN {{ ndcg_sql.tmpl_measures_per_query__within(ndcg_context, m.k) }} AND relevant_{{ t }} = 1.0 THEN 1.0 END)
    {%- endif %} AS numerator_{{ m.id }}
    {%- endfor %}
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
    {%- if m.family == 'P' %}
    CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({{ m.k }}, 0) AS value
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
  {%- endfor %}
)
SELECT
  {%- if segment_cols %}
  {%- for s in segment_cols %}
  keys.segment_{{ loop.index }} AS {{ s }},
  {%- endfor %}
  keys.query AS {{ output_query_col }},
  {%- else %}
  qid AS {{ output_query_col }},
  {%- endif %}
  measure_order,
  value
FROM binary_measures
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON binary_measures.qid = keys.qid
{%- endif %}
{%- endmacro %}
