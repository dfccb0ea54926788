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
                        negative_labels='error') -%}
  {{ return(adapter.dispatch('ndcg_per_query', 'ndcg_sql')(
      relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties, no_relevant,
      judgments, missing_queries, segment_cols, judgments_query_col, judgments_item_col, judgments_label_col,
      item_type, convention, row_col, score_precision, negative_labels)) }}
{%- endmacro %}

{% macro default__ndcg_per_query(relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties,
                                 no_relevant, judgments, missing_queries, segment_cols,
                                 judgments_query_col, judgments_item_col, judgments_label_col,
                                 item_type, convention, row_col, score_precision, negative_labels) -%}
  {%- set context = ndcg_sql.ranking_context(
      relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties, no_relevant,
      judgments, missing_queries, judgments_query_col, judgments_item_col, judgments_label_col,
      item_type, row_col, score_precision, negative_labels, convention) -%}
  {%- if not segment_cols -%}
    {{ return(ndcg_sql.tmpl_per_query(**context)) }}
  {%- endif -%}

  {#- Segments: each (segment, query) gets a numeric key that stands for the
      query in the metric SQL; the key is mapped back at the end. -#}
  {%- if context['missing_queries'] == 'zero' -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: missing_queries='zero' cannot be used with segment_cols (a judged query absent from the run belongs to no segment)") }}
  {%- endif -%}
  {%- set segments = [] -%}
  {%- for column in segment_cols -%}{%- do segments.append(ndcg_sql.quote_identifier(column)) -%}{%- endfor -%}
  {%- set key = ndcg_sql.quote_identifier('ndcg_sql_segment_query_key') -%}
  {%- set keyed_ranking -%}
    (SELECT ranking.*, DENSE_RANK() OVER (ORDER BY {% for s in segments %}{{ s }} ASC NULLS LAST, {% endfor %}{{ context['query_col'] }} ASC NULLS LAST) AS {{ key }}
     FROM {{ relation }} AS ranking) AS keyed_ranking
  {%- endset -%}
  {%- set keyed_judgments = none -%}
  {%- if judgments is not none -%}
  {%- set keyed_judgments -%}
    (SELECT keys.{{ key }}, judged.{{ context['j_item_col'] }}, judged.{{ context['j_label_col'] }}
     FROM {{ judgments }} AS judged
     INNER JOIN (SELECT DISTINCT {{ context['query_col'] }}, {{ key }} FROM {{ keyed_ranking }}) AS keys
       ON judged.{{ context['j_query_col'] }} = keys.{{ context['query_col'] }}) AS keyed_judgments
  {%- endset -%}
  {%- endif -%}
  {%- do context.update({
      'run_relation': keyed_ranking,
      'judgments_relation': keyed_judgments,
      'query_col': key, 'j_query_col': key if judgments is not none else none, 'output_query_col': key}) -%}
  {%- set sql -%}
SELECT {% for s in segments %}keys.{{ s }}, {% endfor %}keys.{{ ndcg_sql.quote_identifier(query_col) }}, per_key.k, per_key.cg, per_key.dcg, per_key.idcg, per_key.ndcg
FROM (
{{ ndcg_sql.tmpl_per_query(**context) }}
) AS per_key
INNER JOIN (SELECT DISTINCT {% for s in segments %}{{ s }}, {% endfor %}{{ ndcg_sql.quote_identifier(query_col) }}, {{ key }} FROM {{ keyed_ranking }}) AS keys
  ON per_key.{{ key }} = keys.{{ key }}
ORDER BY {% for s in segments %}keys.{{ s }} ASC NULLS LAST, {% endfor %}keys.{{ ndcg_sql.quote_identifier(query_col) }} ASC NULLS LAST, per_key.k ASC NULLS LAST
  {%- endset -%}
  {{ return(sql) }}
{%- endmacro %}
