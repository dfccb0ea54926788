{#- Generated from sql/validate_examples.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro _tmpl_validate_examples(condition, id_forms, item_col, j_item_col, j_label_col, j_query_col, judgments, judgments_relation, label_col, limit, order_col, query_col, read_input_once, relation, row_col, run_relation, segment_cols, segmented_judgments, source, ties, top_items, weight_col) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if condition is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'condition'") }}{% endif -%}
{%- if item_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'item_col'") }}{% endif -%}
{%- if j_item_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'j_item_col'") }}{% endif -%}
{%- if j_label_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'j_label_col'") }}{% endif -%}
{%- if j_query_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'j_query_col'") }}{% endif -%}
{%- if judgments is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'judgments'") }}{% endif -%}
{%- if judgments_relation is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'judgments_relation'") }}{% endif -%}
{%- if label_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'label_col'") }}{% endif -%}
{%- if limit is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'limit'") }}{% endif -%}
{%- if order_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'order_col'") }}{% endif -%}
{%- if query_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'query_col'") }}{% endif -%}
{%- if relation is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'relation'") }}{% endif -%}
{%- if row_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'row_col'") }}{% endif -%}
{%- if run_relation is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'run_relation'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'segment_cols'") }}{% endif -%}
{%- if ties is undefined %}{{ exceptions.raise_compiler_error("_tmpl_validate_examples: the template context has no 'ties'") }}{% endif -%}
{%- set ndcg_context = {'condition': condition, 'id_forms': id_forms, 'item_col': item_col, 'j_item_col': j_item_col, 'j_label_col': j_label_col, 'j_query_col': j_query_col, 'judgments': judgments, 'judgments_relation': judgments_relation, 'label_col': label_col, 'limit': limit, 'order_col': order_col, 'query_col': query_col, 'read_input_once': read_input_once, 'relation': relation, 'row_col': row_col, 'run_relation': run_relation, 'segment_cols': segment_cols, 'segmented_judgments': segmented_judgments, 'source': source, 'ties': ties, 'top_items': top_items, 'weight_col': weight_col} -%}
{#- A few query ids that break one check, for the error message (with segment
    columns, the query ids behind the (segment, query) keys). -#}
WITH
{% with %}{#- The only place user column names appear. Every later CTE speaks of
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
    once.) -#}
{#- import 'query_keys.sql.j2' as query_keys (generated: see ndcg_context) -#}
{#- ids read in the form ndcg_sql/id_types.py chose from their types (sql/ids.sql.j2):
    explicit casts here, never an engine's implicit one later -#}
{#- import 'ids.sql.j2' as ids (generated: see ndcg_context) -#}
{%- set forms = id_forms | default({}) -%}
{%- set query_read = ndcg_sql._tmpl_ids__id_of(ndcg_context, query_col, forms.get('run_query', 'native')) -%}
{%- set item_read = ndcg_sql._tmpl_ids__id_of(ndcg_context, item_col, forms.get('run_item', 'native')) -%}
{%- if judgments -%}
{%- set j_query_read = ndcg_sql._tmpl_ids__id_of(ndcg_context, j_query_col, forms.get('j_query', 'native')) -%}
{%- set j_item_read = ndcg_sql._tmpl_ids__id_of(ndcg_context, j_item_col, forms.get('j_item', 'native')) -%}
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
{{ ndcg_sql._tmpl_query_keys__key_of(ndcg_context, input_segments + [run_query]) }}
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
    {{ ndcg_sql._tmpl_query_keys__key_of(ndcg_context, parts) }} AS qid
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
)
{%- if not judgments %},
run_labels AS ( -- one row per (query, item) of the ranking: its label, as given
  {#- the same rows as run_rows, named apart so that the ideal ranking reads
      them in a pass of its own instead of DuckDB keeping every row of a CTE
      read twice #}
  SELECT
    {{ query_key }} AS qid,
    {{ run_label }} AS label_raw
  FROM {{ run_source }}
)
{%- endif %}
{%- if judgments %},
judgment_rows AS ( -- one row per judged (query, item), as given
  {%- if segment_cols and segmented %}
  SELECT
    {{ ndcg_sql._tmpl_query_keys__key_of(ndcg_context, input_segments + [j_query]) }} AS qid,
    {{ j_item }} AS item,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- elif segment_cols %}
  SELECT keys.qid, j.item, j.label_raw
  FROM (
    SELECT {{ j_query }} AS query, {{ j_item }} AS item, {{ j_label }} AS label_raw
    FROM {{ j_source }}
  ) AS j
  LEFT JOIN segment_keys AS keys ON j.query = keys.query
  WHERE keys.qid IS NOT NULL OR j.query IS NULL
  {%- else %}
  SELECT
    {{ j_query }} AS qid,
    {{ j_item }} AS item,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- endif %}
),
judgment_labels AS ( -- one row per judged (query, item): its label, as given (read apart, like run_labels)
  {%- if segment_cols and segmented %}
  SELECT
    {{ ndcg_sql._tmpl_query_keys__key_of(ndcg_context, input_segments + [j_query]) }} AS qid,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- elif segment_cols %}
  SELECT keys.qid, j.label_raw
  FROM (
    SELECT {{ j_query }} AS query, {{ j_label }} AS label_raw
    FROM {{ j_source }}
  ) AS j
  INNER JOIN segment_keys AS keys ON j.query = keys.query
  {%- else %}
  SELECT
    {{ j_query }} AS qid,
    {{ j_label }} AS label_raw
  FROM {{ j_source }}
  {%- endif %}
)
{%- endif %}
{%- if top_items | default(false) %},
run_scores AS ( -- one row per (query, item) of the ranking: its order value, as given (read apart, like run_labels, for the top positions' thresholds: sql/top_items.sql.j2)
  SELECT
    {{ query_key }} AS qid,
    {{ run_order }} AS order_raw
  FROM {{ run_source }}
)
{%- endif %}
{% endwith %},
{% with %}{#- (query, item) pairs given more than once: in a ranking an item has one
    rank, in judgments one label. -#}
run_duplicate_pairs AS ( -- one row per (query, item) that the ranking lists more than once
  SELECT qid, item, COUNT(*) AS copies FROM run_rows GROUP BY qid, item HAVING COUNT(*) > 1
)
{%- if judgments %},
judgment_duplicate_pairs AS ( -- one row per (query, item) judged more than once
  SELECT qid, item, COUNT(*) AS copies FROM judgment_rows GROUP BY qid, item HAVING COUNT(*) > 1
)
{%- endif %}
{%- if weight_col | default(none) %},
{#- query weights (weight_col) must be the same on every row of a query, and not all 0; item
    and label_raw are NULL here, for the first pass's profile (sql/validate_lists.sql.j2) #}
run_weight_queries AS ( -- one row per query of the ranking: its smallest and largest weight
  SELECT qid, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS item, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS label_raw,
         MIN(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS lowest_weight, MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS highest_weight,
         COUNT(*) AS query_rows
  FROM run_rows
  GROUP BY qid
),
run_weight_total AS ( -- one row: the largest weight of the ranking
  SELECT CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS qid, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS item, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS label_raw,
         MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS highest_weight
  FROM run_rows
)
{%- endif %}
{% endwith %}
{%- if source | default(none) %},
{{ relation }} AS ( -- one row per query: a sum checked (ndcg_sql/validation.py)
  {{ source }}
)
{%- endif %}
{%- if segment_cols %}
SELECT DISTINCT keys.query AS qid
FROM (SELECT qid FROM {{ relation }} WHERE {{ condition }}) AS failing
LEFT JOIN segment_keys AS keys ON failing.qid = keys.qid
ORDER BY keys.query ASC NULLS FIRST
{%- else %}
SELECT DISTINCT qid
FROM {{ relation }}
WHERE {{ condition }}
ORDER BY qid ASC NULLS FIRST
{%- endif %}
LIMIT {{ limit }}
{%- endmacro %}
