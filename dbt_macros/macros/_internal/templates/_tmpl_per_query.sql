{#- Generated from sql/per_query.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro _tmpl_per_query(cutoffs, discount, exact_gains, gain, gain_mapping, head_length, id_forms, ideal_labels, input_kind, item_col, item_order, j_item_col, j_label_col, j_query_col, judged_needed, judgments, judgments_relation, label_col, log_base, missing_queries, negative_labels, no_relevant, order_col, ordered, output_query_col, query_col, read_input_once, row_col, run_relation, score_precision, segment_cols, segmented_judgments, tail_cutoffs, ties, unjudged, weight_col, weighted, whole_labels) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if cutoffs is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'cutoffs'") }}{% endif -%}
{%- if discount is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'discount'") }}{% endif -%}
{%- if exact_gains is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'exact_gains'") }}{% endif -%}
{%- if gain is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'gain'") }}{% endif -%}
{%- if gain_mapping is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'gain_mapping'") }}{% endif -%}
{%- if head_length is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'head_length'") }}{% endif -%}
{%- if ideal_labels is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'ideal_labels'") }}{% endif -%}
{%- if input_kind is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'input_kind'") }}{% endif -%}
{%- if item_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'item_col'") }}{% endif -%}
{%- if item_order is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'item_order'") }}{% endif -%}
{%- if j_item_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'j_item_col'") }}{% endif -%}
{%- if j_label_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'j_label_col'") }}{% endif -%}
{%- if j_query_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'j_query_col'") }}{% endif -%}
{%- if judgments is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'judgments'") }}{% endif -%}
{%- if judgments_relation is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'judgments_relation'") }}{% endif -%}
{%- if label_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'label_col'") }}{% endif -%}
{%- if log_base is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'log_base'") }}{% endif -%}
{%- if missing_queries is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'missing_queries'") }}{% endif -%}
{%- if negative_labels is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'negative_labels'") }}{% endif -%}
{%- if no_relevant is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'no_relevant'") }}{% endif -%}
{%- if order_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'order_col'") }}{% endif -%}
{%- if output_query_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'output_query_col'") }}{% endif -%}
{%- if query_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'query_col'") }}{% endif -%}
{%- if row_col is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'row_col'") }}{% endif -%}
{%- if run_relation is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'run_relation'") }}{% endif -%}
{%- if score_precision is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'score_precision'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'segment_cols'") }}{% endif -%}
{%- if tail_cutoffs is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'tail_cutoffs'") }}{% endif -%}
{%- if ties is undefined %}{{ exceptions.raise_compiler_error("_tmpl_per_query: the template context has no 'ties'") }}{% endif -%}
{%- set ndcg_context = {'cutoffs': cutoffs, 'discount': discount, 'exact_gains': exact_gains, 'gain': gain, 'gain_mapping': gain_mapping, 'head_length': head_length, 'id_forms': id_forms, 'ideal_labels': ideal_labels, 'input_kind': input_kind, 'item_col': item_col, 'item_order': item_order, 'j_item_col': j_item_col, 'j_label_col': j_label_col, 'j_query_col': j_query_col, 'judged_needed': judged_needed, 'judgments': judgments, 'judgments_relation': judgments_relation, 'label_col': label_col, 'log_base': log_base, 'missing_queries': missing_queries, 'negative_labels': negative_labels, 'no_relevant': no_relevant, 'order_col': order_col, 'ordered': ordered, 'output_query_col': output_query_col, 'query_col': query_col, 'read_input_once': read_input_once, 'row_col': row_col, 'run_relation': run_relation, 'score_precision': score_precision, 'segment_cols': segment_cols, 'segmented_judgments': segmented_judgments, 'tail_cutoffs': tail_cutoffs, 'ties': ties, 'unjudged': unjudged, 'weight_col': weight_col, 'weighted': weighted, 'whole_labels': whole_labels} -%}
{#- Per-query CG, DCG, IDCG and NDCG at every cutoff: the package's main query.
    Data flows one way: normalised rows -> labelled items -> ranked items
    (ties) -> DCG by rank -> values at cutoffs -> one row per (query, k). With
    top_items only each query's top tie groups are ranked (sql/top_items.sql.j2).
    NDCG@k = DCG@k / IDCG@k (Jarvelin & Kekalainen, TOIS 2002). A query whose
    IDCG@k is 0 gets the no-relevant policy: zero -> 0, skip -> NULL, one -> 1.
    With ordered, rows come by query and k (the whole list last); the Python
    runner leaves that to whoever reads them (sorting every per-query row of a
    large log costs more than the query's other last steps). -#}
{#- import 'gain.sql.j2' as gain_sql with context (generated: see ndcg_context) -#}
{#- import 'discount.sql.j2' as discount_sql with context (generated: see ndcg_context) -#}
{#- import 'dcg_at_cutoffs.sql.j2' as dcg_sql with context (generated: see ndcg_context) -#}
{#- import 'top_items.sql.j2' as top_sql with context (generated: see ndcg_context) -#}
{%- set top_items = top_items | default(false) -%}
{%- set no_relevant_value = {'zero': ('CAST(0.0 AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')'), 'skip': ('CAST(NULL AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')'), 'one': ('CAST(1.0 AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')')}[no_relevant] -%}
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
{% with %}{#- One row per ranked (query, item) with a numeric order value and label.
    With judgments, the label comes from the judgments (unjudged items: 0);
    queries without any judgment are left out (as trec_eval does) where
    per_query.sql.j2 joins the run's values to the ideal ones.
    score_precision float32 rounds the order value to the nearest float32
    (trec_eval, XGBoost); negative_labels zero counts negative labels as 0
    (trec_eval).
    A judged item whose label counts as 0 is labelled exactly as an unjudged
    one, so only the other judgments are joined: a smaller join (most
    judgments of a large log are usually 0). With unjudged 'condense' every judgment
    is joined and only judged items are kept: the condensed list.
    With judged_needed (a measure looks at which items are judged: Judged@k), every
    judgment is joined and judged is 1.0 for an item with a judgment (whatever its label),
    0.0 otherwise; without judgments every ranked item is judged (its label is in the list). -#}
{%- set counted_label = ndcg_sql._tmpl_gain__counted_label(ndcg_context, 'label_raw') %}
{%- set with_judged = judged_needed | default(false) %}
{#- unjudged 'condense': only judged items are ranked (Sakai, SIGIR 2007; trec_eval -J) -#}
{%- set condensed = (unjudged | default('zero')) == 'condense' %}
{%- if judgments %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    r.qid,
    r.item,
    {% if score_precision == 'float32' %}CAST(CAST(r.order_raw AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(r.order_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS order_value,
    COALESCE(j.label, 0.0) AS label{% if ties == 'input-order' %},
    r.row_order{% endif %}{% if with_judged %},
    COALESCE(j.judged, 0.0) AS judged{% endif %}
  FROM run_rows AS r
  {% if condensed %}INNER{% else %}LEFT{% endif %} JOIN (
    SELECT qid, item, {{ counted_label }} AS label{% if with_judged %}, 1.0 AS judged{% endif %}
    FROM judgment_rows
    {%- if not with_judged and not condensed %}
    WHERE {{ counted_label }} <> 0.0
    {%- endif %}
  ) AS j ON r.qid = j.qid AND r.item = j.item
)
{%- else %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    qid,
    item,
    {% if score_precision == 'float32' %}CAST(CAST(order_raw AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(order_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS order_value,
    {{ counted_label }} AS label{% if ties == 'input-order' %},
    row_order{% endif %}{% if with_judged %},
    1.0 AS judged{% endif %}
  FROM run_rows
)
{%- endif %}
{% endwith %},
{%- if top_items %}
{{ ndcg_sql._tmpl_top_items__top_items(ndcg_context) }},
{%- else %}
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
  SELECT qid, item, order_value, label,{% if ties == 'input-order' %} row_order,{% endif %}{% if judged_needed | default(false) %} judged,{% endif %} {{ ndcg_sql._tmpl_gain__gain_of(ndcg_context, 'label') }} AS gain
  FROM labelled_items
),
ranked_items AS ( -- one row per ranked (query, item): its rank, label, order value and the gain credited at that rank
  SELECT
    qid,
    label,
    order_value,{% if judged_needed | default(false) %}
    judged,{% endif %}
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
{%- endif %}
{% with %}{#- The ideal ranking: every item the query could have shown, by gain
    descending. From the ranked list itself (default), or with judgments
    from all judged items of the query, retrieved or not (trec_eval).
    When every ideal ranking fits in the head and the labels are few and
    known (the caller found them while checking the input: ideal_labels, by
    gain descending, only those with a positive gain), no item is sorted: a
    query's ideal ranking is fully described by how many items it has of each
    label, and the items of one label fill consecutive positions, the highest
    gain first. Otherwise the items are numbered by gain descending. -#}
{%- set ideal_source -%}
    SELECT qid, {{ ndcg_sql._tmpl_gain__gain_of(ndcg_context, ndcg_sql._tmpl_gain__counted_label(ndcg_context, 'label_raw')) }} AS gain
    FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
{%- endset -%}
{%- if ideal_labels is not none and not tail_cutoffs %}
ideal_label_counts AS ( -- one row per query: how many items it has of each label with a positive gain
  SELECT
    qid
    {%- for grade in ideal_labels %},
    COUNT(CASE WHEN CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}) = {{ grade.label }} THEN 1 END) AS items_of_grade_{{ loop.index }}
    {%- endfor %}
  FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
  GROUP BY qid
),
ideal_dcg_by_query AS ( -- one row per query: the gain at each head position of its ideal ranking (NULL past its items)
  SELECT
    qid
    {%- for p in range(1, head_length + 1) %},
    {% if ideal_labels %}CASE{% for grade in ideal_labels %} WHEN {{ p }} <= {% for earlier in range(1, loop.index + 1) %}{% if not loop.first %} + {% endif %}items_of_grade_{{ earlier }}{% endfor %} THEN {{ ndcg_sql._tmpl_gain__gain_of(ndcg_context, grade.label) }}{% endfor %} END{% else %}CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS gain_at_{{ p }}
    {%- endfor %}
  FROM ideal_label_counts
)
{%- else %}
ideal_items AS ( -- one row per (query, position in the ideal ranking) with the gain found there
  SELECT qid, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS position, gain
  FROM ({{ ideal_source }}
  ) AS ideal_source
)
{%- endif %}
{% endwith %},
{%- if not top_items %}
run_positions AS ( -- one row per ranked (query, item): its position and the gain credited there
  SELECT qid, rank AS position, credited_gain AS gain FROM ranked_items
),
{%- endif %}
{{ ndcg_sql._tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, 'run_dcg', none if top_items else 'run_positions', '') }},
{{ ndcg_sql._tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, 'ideal_dcg', none if (ideal_labels is not none and not tail_cutoffs) else 'ideal_items', 'ideal_') }},
{% with %}{#- One row per cutoff k; k is NULL for the whole list. -#}
cutoffs AS ( -- one row per cutoff
  {%- for cutoff in cutoffs %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ cutoff.id }} AS cutoff_id, {% if cutoff.k is not none %}CAST({{ cutoff.k }} AS {{ ndcg_sql.sql_type('BIGINT') }}){% else %}CAST(NULL AS {{ ndcg_sql.sql_type('BIGINT') }}){% endif %} AS k
  {%- endfor %}
)
{% endwith %},
{%- if weighted | default(false) %}
{% with %}{#- The weight of each query (weight_col): the same on every row of the query (the input
    checks refuse a query whose rows differ, ndcg_sql/validation.py), so MAX picks it. -#}
query_weights AS ( -- one row per query of the run: its weight
  SELECT qid, MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS weight FROM run_rows GROUP BY qid
)
{% endwith %},
{%- endif %}
query_values AS ( -- one row per (evaluated query, cutoff): CG, DCG and IDCG
  SELECT
    i.qid,
    c.k,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE(r.cg_{{ cutoff.id }}, 0.0){% endfor %} END AS cg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE(r.dcg_{{ cutoff.id }}, 0.0){% endfor %} END AS dcg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN i.ideal_dcg_{{ cutoff.id }}{% endfor %} END AS idcg
    {%- if weighted | default(false) %},
    w.weight
    {%- endif %}
  FROM ideal_dcg_at_cutoffs AS i
  {%- set condensed = judgments and (unjudged | default('zero')) == 'condense' %}
  {% if judgments and (missing_queries == 'zero' or condensed) %}LEFT{% else %}INNER{% endif %} JOIN run_dcg_at_cutoffs AS r ON i.qid = r.qid
  {%- if weighted | default(false) %}
  INNER JOIN query_weights AS w ON i.qid = w.qid
  {%- endif %}
  CROSS JOIN cutoffs AS c
  {%- if condensed and missing_queries != 'zero' %}
  {#- a condensed list may be empty: the query still counts (with 0), as trec_eval -J counts it #}
  WHERE i.qid IN (SELECT qid FROM run_rows)
  {%- endif %}
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
  k,
  CAST(cg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS cg,
  CAST(dcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS dcg,
  CAST(idcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS idcg,
  CASE WHEN idcg > 0 THEN CAST(dcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(idcg, 0) ELSE {{ no_relevant_value }} END AS ndcg
  {%- if weighted | default(false) %},
  weight
  {%- endif %}
FROM query_values
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON query_values.qid = keys.qid
{%- endif %}
{%- if ordered | default(false) %}
ORDER BY {% if segment_cols %}{% for s in segment_cols %}keys.segment_{{ loop.index }} ASC NULLS LAST, {% endfor %}keys.query{% else %}qid{% endif %} ASC NULLS LAST, k ASC NULLS LAST
{%- endif %}
{%- endmacro %}
