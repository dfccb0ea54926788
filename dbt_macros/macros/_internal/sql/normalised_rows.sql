{#- Copied from sql/normalised_rows.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The only place user column names appear. Every later CTE speaks of
    qid, item, order_value (a score, higher is better, or a logged rank, 1 = top)
    and label. With segment columns (experiment arm, date, device, ...) the
    query key qid is a text standing for the pair (segment values, query)
    (sql/query_keys.sql.j2), computed on each row: every later CTE partitions by it
    unchanged, so a query in two segments is two queries, and the per-query rows join
    segment_keys to give the segment columns and the query id back. Judgments without
    the segment columns are per query: each (segment, query) of the run gets the
    query's judgments, and judged queries the run does not show are left out.
    Judgments with them (segmented_judgments) are per (segment, query).
    With read_input_once (a warehouse's statements), each input table is named once:
    run_input and judgment_input read the columns used, under our names, and every CTE
    below reads them instead of the tables. (An engine may still read a CTE once per
    reference: BigQuery and Spark inline CTEs, while Postgres computes a CTE read twice
    once.) With a sample of the queries (the sample option: sql/query_sample.sql.j2) every CTE
    of input rows keeps the rows of the sampled query keys (and those of a NULL query id). -#}
{#- labels: also run_labels (the ranking's labels read apart, for the ideal ranking: sql/ideal_items.sql.j2) -#}
{% macro _normalised_rows(ctx, labels=true) -%}
{%- set id_forms = ctx['id_forms'] -%}
{%- set item_col = ctx['item_col'] -%}
{%- set j_item_col = ctx['j_item_col'] -%}
{%- set j_label_col = ctx['j_label_col'] -%}
{%- set j_query_col = ctx['j_query_col'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set judgments_relation = ctx['judgments_relation'] -%}
{%- set label_col = ctx['label_col'] -%}
{%- set order_col = ctx['order_col'] -%}
{%- set query_col = ctx['query_col'] -%}
{%- set read_input_once = ctx['read_input_once'] -%}
{%- set row_col = ctx['row_col'] -%}
{%- set run_relation = ctx['run_relation'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set segmented_judgments = ctx['segmented_judgments'] -%}
{%- set ties = ctx['ties'] -%}
{%- set weight_col = ctx['weight_col'] -%}
{%- set sample = ctx['sample'] | default(none) -%}
{#- ids read in the form ndcg_sql/building/id_types.py chose from their types (sql/ids.sql.j2):
    explicit casts here, never an engine's implicit one later -#}

{%- set forms = id_forms | default({}) -%}
{%- set query_read = ndcg_sql._id_of(query_col, forms.get('run_query', 'native')) -%}
{%- set item_read = ndcg_sql._id_of(item_col, forms.get('run_item', 'native')) -%}
{%- if judgments -%}
{%- set j_query_read = ndcg_sql._id_of(j_query_col, forms.get('j_query', 'native')) -%}
{%- set j_item_read = ndcg_sql._id_of(j_item_col, forms.get('j_item', 'native')) -%}
{%- endif -%}
{%- set segmented = segmented_judgments | default(false) -%}
{#- where each CTE below reads the input: the tables and the user's column names, or
    run_input / judgment_input and our names (read_input_once) -#}
{%- if read_input_once | default(false) -%}
{%- set run_source = 'run_input' -%}
{%- set run_query = 'query' -%}
{%- set run_item = 'item' -%}
{%- set run_order = 'order_raw' -%}
{%- set run_label = 'label_raw' -%}
{%- set run_row = 'row_order' -%}
{%- set run_weight = 'weight_raw' -%}
{%- set j_source = 'judgment_input' -%}
{%- set j_query = 'query' -%}
{%- set j_item = 'item' -%}
{%- set j_label = 'label_raw' -%}
{%- set input_segments = [] -%}
{%- for s in segment_cols -%}{%- set _ = input_segments.append('segment_' ~ loop.index) -%}{%- endfor -%}
{%- else -%}
{%- set run_source = run_relation -%}
{%- set run_query = query_read -%}
{%- set run_item = item_read -%}
{%- set run_order = order_col -%}
{%- set run_label = label_col -%}
{%- set run_row = row_col -%}
{%- set run_weight = weight_col | default(none) -%}
{%- set j_source = judgments_relation -%}
{%- set j_query = j_query_read -%}
{%- set j_item = j_item_read -%}
{%- set j_label = j_label_col -%}
{%- set input_segments = segment_cols -%}
{%- endif -%}
{%- set query_key -%}
{%- if segment_cols -%}
{{ ndcg_sql._key_of(input_segments + [run_query]) }}
{%- else -%}
{{ run_query }}
{%- endif -%}
{%- endset -%}
{%- if read_input_once | default(false) %}
run_input AS ( -- one row per row of the ranking: the columns read, the only place the ranking is named
  SELECT
    {%- for s in segment_cols %}
    {{ s }} AS segment_{{ loop.index }},
    {%- endfor %}
    {{ query_read }} AS query,
    {{ item_read }} AS item,
    {{ order_col }} AS order_raw
    {%- if not judgments %},
    {{ label_col }} AS label_raw
    {%- endif %}
    {%- if ties == 'input-order' %},
    {{ row_col }} AS row_order
    {%- endif %}
    {%- if weight_col | default(none) %},
    {{ weight_col }} AS weight_raw
    {%- endif %}
  FROM {{ run_relation }}
),
{%- if judgments %}
judgment_input AS ( -- one row per row of the judgments: the columns read, the only place the judgments are named
  SELECT
    {%- if segment_cols and segmented %}
    {%- for s in segment_cols %}
    {{ s }} AS segment_{{ loop.index }},
    {%- endfor %}
    {%- endif %}
    {{ j_query_read }} AS query,
    {{ j_item_read }} AS item,
    {{ j_label_col }} AS label_raw
  FROM {{ judgments_relation }}
),
{%- endif %}
{%- endif %}
{%- if segment_cols %}
segment_keys AS ( -- one row per (segment values, query) of the run{% if segmented %} or the judgments{% endif %}: the key standing for the pair
  {%- set parts = [] -%}
  {%- for s in segment_cols -%}{%- set _ = parts.append('segment_' ~ loop.index) -%}{%- endfor -%}
  {%- set _ = parts.append('query') %}
  SELECT DISTINCT
    {%- for s in segment_cols %}
    segment_{{ loop.index }},
    {%- endfor %}
    query,
    {{ ndcg_sql._key_of(parts) }} AS qid
  FROM (
    SELECT {% for s in input_segments %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ run_query }} AS query
    FROM {{ run_source }}
    {%- if segmented %}
    UNION ALL
    SELECT {% for s in input_segments %}{{ s }} AS segment_{{ loop.index }}, {% endfor %}{{ j_query }} AS query
    FROM {{ j_source }}
    {%- endif %}
  ) AS segment_pairs
),
{%- endif %}
{%- if sample %}
{{ ndcg_sql._query_sample(ctx, query_key, run_source) }},
{%- endif %}
run_rows AS ( -- one row per (query, item) of the ranking, as given
  SELECT
    {{ query_key }} AS qid,
    {{ run_item }} AS item,
    {{ run_order }} AS order_raw,
    {% if judgments %}CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}{{ run_label }}{% endif %} AS label_raw
    {%- if ties == 'input-order' %},
    {{ run_row }} AS row_order
    {%- endif %}
    {%- if weight_col | default(none) %},
    {{ run_weight }} AS weight_raw
    {%- endif %}
  FROM {{ run_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(query_key) }}
  {%- endif %}
)
{%- if not judgments and labels %},
run_labels AS ( -- one row per (query, item) of the ranking: its label, as given
  {#- the same rows as run_rows, named apart so that the ideal ranking reads
      them in a pass of its own instead of DuckDB keeping every row of a CTE
      read twice #}
  SELECT
    {{ query_key }} AS qid,
    {{ run_label }} AS label_raw
  FROM {{ run_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(query_key) }}
  {%- endif %}
)
{%- endif %}
{%- if judgments %},
judgment_rows AS ( -- one row per judged (query, item), as given
  {%- if segment_cols and segmented %}
  SELECT
    {{ ndcg_sql._key_of(input_segments + [j_query]) }} AS qid,
    {{ j_item }} AS item,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(ndcg_sql._key_of(input_segments + [j_query])) }}
  {%- endif %}
  {%- elif segment_cols %}
  SELECT keys.qid, j.item, j.label_raw
  FROM (
    SELECT {{ j_query }} AS query, {{ j_item }} AS item, {{ j_label }} AS label_raw
    FROM {{ j_source }}
  ) AS j
  LEFT JOIN segment_keys AS keys ON j.query = keys.query
  {%- if sample %}
  WHERE (keys.qid IS NOT NULL OR j.query IS NULL) AND {{ ndcg_sql._in_sample('keys.qid') }}
  {%- else %}
  WHERE keys.qid IS NOT NULL OR j.query IS NULL
  {%- endif %}
  {%- else %}
  SELECT
    {{ j_query }} AS qid,
    {{ j_item }} AS item,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(j_query) }}
  {%- endif %}
  {%- endif %}
),
judgment_labels AS ( -- one row per judged (query, item): its label, as given (read apart, like run_labels)
  {%- if segment_cols and segmented %}
  SELECT
    {{ ndcg_sql._key_of(input_segments + [j_query]) }} AS qid,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(ndcg_sql._key_of(input_segments + [j_query])) }}
  {%- endif %}
  {%- elif segment_cols %}
  SELECT keys.qid, j.label_raw
  FROM (
    SELECT {{ j_query }} AS query, {{ j_label }} AS label_raw
    FROM {{ j_source }}
  ) AS j
  INNER JOIN segment_keys AS keys ON j.query = keys.query
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample('keys.qid') }}
  {%- endif %}
  {%- else %}
  SELECT
    {{ j_query }} AS qid,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(j_query) }}
  {%- endif %}
  {%- endif %}
)
{%- endif %}
{%- if ctx['top_items'] | default(false) %},
run_scores AS ( -- one row per (query, item) of the ranking: its order value, as given (read apart, like run_labels, for the top positions' thresholds: sql/top_items.sql.j2)
  SELECT
    {{ query_key }} AS qid,
    {{ run_order }} AS order_raw
  FROM {{ run_source }}
  {%- if sample %}
  WHERE {{ ndcg_sql._in_sample(query_key) }}
  {%- endif %}
)
{%- endif %}
{% endmacro %}
