{#- Per-query CG@k, DCG@k, IDCG@k and NDCG@k of a ranking relation: one row per
    (query, k) with the query column, k (NULL for the whole list), cg, dcg,
    idcg, ndcg - the SQL of sql/per_query.sql.j2, the same the Python runner
    runs (generated into macros/generated/ by `python -m ndcg_sql.dbt_gen`).

    Returns one SELECT statement: a whole model, or the body of a CTE.
    Arguments (defaults and meaning as ndcg_sql.evaluate in Python):
      relation      the ranking: a ref(), source(), or the name of a CTE;
                    one row per (query, item) with a score or a logged rank
      query_col, item_col, label_col       column names ('query_id', 'item_id', 'label')
      score_col / rank_col  score (higher is better; default 'score') or
                    logged rank (1 = top), not both
      k             cutoffs: integers, none or 'all' (default 1, 3, 5, 10, 20, all)
      gain          'exponential' (2^label - 1), 'linear' (label) or {label: gain}
      ties          'average', 'item-asc' or 'item-desc' (trec_eval)
      no_relevant   NDCG when IDCG@k = 0: 'zero', 'skip' (NULL) or 'one'
      judgments     optional judgments relation (query, item, label columns,
                    by default named as the ranking's): labels and the ideal
                    ranking come from it
      missing_queries  with judgments: 'ignore' or 'zero' (trec_eval -c)
      segment_cols  optional columns of the ranking (experiment arm, date,
                    device): a query is evaluated once per segment, and the
                    output starts with these columns
      segmented_judgments  with segment_cols and judgments: true when the
                    judgments carry the segment columns too (judgments per
                    (segment, query); then missing_queries='zero' counts a
                    judged (segment, query) the run lacks as 0 in its segment)
      item_type     'text' (default) or 'number': with ties item-asc/item-desc,
                    text ids are compared in byte order (the engine's
                    expression, ndcg_sql.item_byte_order); numbers as numbers
      convention    a peer tool's conventions: 'trec_eval', 'sklearn',
                    'lightgbm', 'xgboost', 'xgboost-minus' (sets gain, ties,
                    no_relevant, score_precision, negative_labels)
      row_col       with ties='input-order' (LightGBM, XGBoost): the column
                    numbering the input rows
      score_precision  'double' or 'float32' (scores rounded to float32 first)
      negative_labels  'error' or 'zero' (count negative labels as 0)
    Inputs are not checked here (the Python runner does): add the generic test
    ndcg_sql.ndcg_valid_input to the ranking (same checks as the runner). -#}
{% macro ndcg_per_query(relation, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                        label_col='label', k=[1, 3, 5, 10, 20, none], gain='exponential', ties='average',
                        no_relevant='zero', judgments=none, missing_queries='ignore', segment_cols=[],
                        judgments_query_col=none, judgments_item_col=none, judgments_label_col=none,
                        item_type='text', convention=none, row_col=none, score_precision='double',
                        negative_labels='error', segmented_judgments=false) -%}
  {{ return(adapter.dispatch('ndcg_per_query', 'ndcg_sql')(
      relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties, no_relevant,
      judgments, missing_queries, segment_cols, judgments_query_col, judgments_item_col, judgments_label_col,
      item_type, convention, row_col, score_precision, negative_labels, segmented_judgments)) }}
{%- endmacro %}

{% macro default__ndcg_per_query(relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties,
                                 no_relevant, judgments, missing_queries, segment_cols,
                                 judgments_query_col, judgments_item_col, judgments_label_col,
                                 item_type, convention, row_col, score_precision, negative_labels,
                                 segmented_judgments) -%}
  {%- set context = ndcg_sql.ranking_context(
      relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties, no_relevant,
      judgments, missing_queries, judgments_query_col, judgments_item_col, judgments_label_col,
      item_type, row_col, score_precision, negative_labels, convention) -%}
  {#- Segments: each (segment values, query) is a query of its own (the templates key it
      by a number, sql/normalised_rows.sql.j2), as evaluate(segments=...) does. -#}
  {%- do context.update(ndcg_sql.segment_context(segment_cols, segmented_judgments, context)) -%}
  {{ return(ndcg_sql.tmpl_per_query(**context)) }}
{%- endmacro %}
