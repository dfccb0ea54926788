{#- Generic test: the ranking (and its judgments) is fit for the metric macros called with the same
    arguments - exactly the input checks of the Python runner's evaluate: the same macros
    (sql/input_checks.sql.j2, copied into _internal/sql/), the same words
    (ndcg_sql/building/validation.py CHECK_TEXTS, generated into _internal/_check_texts.sql), on every
    engine (its own NaN test and safe cast, ndcg_sql/vocabulary/dialects.py): NULL query ids, item
    ids, scores (or ranks) and labels, duplicate (query, item) rows, non-numeric, NaN and infinite
    scores and labels, negative labels (negative_labels='error'), labels a gain mapping lacks,
    labels above 1023 with exponential gain, queries whose gains add up past 2^1023, labels above
    ERR's top grade (max_grade, with ERR among the measures), labels other than 0 and 1 where the
    convention's tool reads binary labels (XGBoost's AP and P), NULL row numbers
    (ties='input-order'), and query weights (weight_col) NULL, NaN, negative, differing within a
    query or all 0.

      query_col, item_col, label_col   column names of the tested model ('query_id', 'item_id', 'label')
      score_col / rank_col  score (default 'score') or logged rank column
      judgments     optional judgments relation: their labels are checked instead
      judgments_query_col, judgments_item_col, judgments_label_col  its columns (default: the model's)
      segment_cols  optional columns (experiment arm, date) that key a query with it, as in
                    ndcg_per_query: (segment, query, item) rows are duplicates, not (query, item);
                    segmented_judgments: the judgments carry them too
      gain, negative_labels, weight_col, ties, row_col, convention, measures, max_grade
                    as the metric macros take them (ndcg_per_query, ndcg_measures): give the ones
                    the models use, and the test checks what they accept
      limit         at most this many query ids per check (default 100)
    Failing rows: column_name (the user's column), problem, query_id (NULL for NULL query ids and
    for weights that are all 0). -#}
{% test ndcg_valid_input(model, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                         label_col='label', judgments=none, judgments_query_col=none, judgments_item_col=none,
                         judgments_label_col=none, gain='exponential', limit=100, segment_cols=[],
                         negative_labels='error', weight_col=none, ties='average', row_col=none, convention=none,
                         measures=none, max_grade=4, segmented_judgments=false) %}
  {{ return(adapter.dispatch('test_ndcg_valid_input', 'ndcg_sql')({
      'model': model, 'query_col': query_col, 'item_col': item_col, 'score_col': score_col, 'rank_col': rank_col,
      'label_col': label_col, 'judgments': judgments, 'judgments_query_col': judgments_query_col,
      'judgments_item_col': judgments_item_col, 'judgments_label_col': judgments_label_col, 'gain': gain,
      'limit': limit, 'segment_cols': segment_cols, 'negative_labels': negative_labels, 'weight_col': weight_col,
      'ties': ties, 'row_col': row_col, 'convention': convention, 'measures': measures, 'max_grade': max_grade,
      'segmented_judgments': segmented_judgments})) }}
{% endtest %}

{#- arguments: ndcg_valid_input's arguments by name -#}
{% macro default__test_ndcg_valid_input(arguments) -%}
  {%- set limit = arguments['limit'] -%}
  {%- if limit is not integer or limit is boolean or limit <= 0 -%}
    {{ exceptions.raise_compiler_error("ndcg_valid_input: limit must be a positive integer; got " ~ limit) }}
  {%- endif -%}
  {%- set model, judgments = arguments['model'], arguments['judgments'] -%}
  {#- ids compared by their types, as the models compare them (sql/options/id_forms.sql) -#}
  {%- set id_types = ndcg_sql._id_column_types(model, judgments, arguments['query_col'], arguments['item_col'],
                                                arguments['judgments_query_col'], arguments['judgments_item_col']) -%}
  {#- the options of _ndcg_context (sql/options/ndcg_context.sql): the defaults, then the arguments -#}
  {%- set options = {'item_type': 'text'} -%}
  {%- do options.update(ndcg_sql._option_table()['defaults']) -%}
  {%- do options.update(arguments) -%}
  {%- do options.update({'segments': arguments['segment_cols'] or none}) -%}
  {%- set resolved = ndcg_sql._ndcg_context(options, model, judgments, {'id_types': id_types} if id_types else none) -%}
  {#- a misspelt column stops here, named, when the relations are ref()s or source()s -#}
  {%- do ndcg_sql._require_columns(arguments, model, judgments) -%}
  {%- set context = resolved['context'] -%}
  {%- set decided = resolved['options'] -%}
  {#- the user's column of each role the checks name (sql/input_checks.sql.j2) -#}
  {%- set names = {'query': arguments['query_col'], 'item': arguments['item_col'], 'order': decided['order_col'],
                   'label': arguments['label_col'], 'row': arguments['row_col'], 'weight': arguments['weight_col'],
                   'j_query': arguments['judgments_query_col'] or arguments['query_col'],
                   'j_item': arguments['judgments_item_col'] or arguments['item_col'],
                   'j_label': arguments['judgments_label_col'] or arguments['label_col']} -%}
  {%- do names.update({'pair': names['query'] ~ ', ' ~ names['item'], 'j_pair': names['j_query'] ~ ', ' ~ names['j_item']}) -%}
  {%- for check in ndcg_sql._input_checks(decided, ndcg_sql._check_numbers(), ndcg_sql._option_table()['check_limits']) %}
{% if not loop.first %}UNION ALL
{% endif -%}
SELECT {{ ndcg_sql.string_literal(names[check['column']]) }} AS column_name,
  {{ ndcg_sql.string_literal(ndcg_sql._check_problem(check, decided)) }} AS problem, offending.qid AS query_id
FROM (
{{ ndcg_sql._validate_examples(dict(context, relation=check['relation'], condition=check['condition'], source=check['source'], limit=limit)) }}
) AS offending
  {%- endfor %}
{%- endmacro %}
