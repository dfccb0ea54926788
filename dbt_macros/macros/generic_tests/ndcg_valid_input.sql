{#- Generic test: the ranking (and its judgments) is fit for NDCG - the input checks of the
    Python runner (ndcg_sql/building/validation.py, generated into ndcg_sql._input_checks): NULL query
    ids, item ids, scores (or ranks) and labels, duplicate (query, item) rows, negative labels,
    labels above 1023 with exponential gain, queries whose gains add up past 2^1023, non-numeric and NaN scores and labels, on every
    engine (its own NaN test and safe cast, ndcg_sql/vocabulary/dialects.py).

      query_col, item_col, label_col   column names of the tested model ('query_id', 'item_id', 'label')
      score_col / rank_col  score (default 'score') or logged rank column
      judgments     optional judgments relation: their labels are checked instead
      judgments_query_col, judgments_item_col, judgments_label_col  its columns (default: the model's)
      gain          'exponential' (default) or 'linear'
      segment_cols  optional columns (experiment arm, date) that key a query with it, as in
                    ndcg_per_query: (segment, query, item) rows are duplicates, not (query, item)
      limit         at most this many query ids per check (default 100)
    Failing rows: column_name (the user's column), problem, query_id (NULL for NULL query ids). -#}
{% test ndcg_valid_input(model, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                         label_col='label', judgments=none, judgments_query_col=none, judgments_item_col=none,
                         judgments_label_col=none, gain='exponential', limit=100, segment_cols=[]) %}
  {{ return(adapter.dispatch('test_ndcg_valid_input', 'ndcg_sql')(model, query_col, item_col, score_col, rank_col,
      label_col, judgments, judgments_query_col, judgments_item_col, judgments_label_col, gain, limit, segment_cols)) }}
{% endtest %}

{% macro default__test_ndcg_valid_input(model, query_col, item_col, score_col, rank_col, label_col, judgments,
                                        judgments_query_col, judgments_item_col, judgments_label_col, gain, limit, segment_cols=[]) -%}
  {%- set gain = ndcg_sql._option_choice('gain', gain, ['exponential', 'linear']) -%}
  {%- if limit is not integer or limit is boolean or limit <= 0 -%}
    {{ exceptions.raise_compiler_error("ndcg_valid_input: limit must be a positive integer; got " ~ limit) }}
  {%- endif -%}
  {#- ids compared by their types, as the models compare them (sql/options/id_forms.sql) -#}
  {%- set id_types = ndcg_sql._id_column_types(model, judgments, query_col, item_col, judgments_query_col,
                                                judgments_item_col) -%}
  {%- set resolved = ndcg_sql._ndcg_context({
      'k': [1], 'query_col': query_col, 'item_col': item_col, 'score_col': score_col, 'rank_col': rank_col,
      'label_col': label_col, 'gain': gain, 'discount': 'log', 'log_base': 2.0, 'ties': 'average', 'weight_col': none, 'no_relevant': 'zero',
      'missing_queries': 'ignore', 'unjudged': 'zero',
      'measures': none, 'convention': none, 'row_col': none, 'score_precision': 'double', 'negative_labels': 'error',
      'segments': segment_cols or none, 'intervals': none, 'bootstrap': 0, 'seed': 0, 'item_type': 'text',
      'segmented_judgments': false, 'judgments_query_col': judgments_query_col,
      'judgments_item_col': judgments_item_col, 'judgments_label_col': judgments_label_col}, model, judgments,
      {'id_types': id_types} if id_types else none) -%}
  {#- a misspelt column stops here, named, when the relations are ref()s or source()s -#}
  {%- do ndcg_sql._require_columns({'query_col': query_col, 'item_col': item_col, 'score_col': score_col,
      'rank_col': rank_col, 'label_col': label_col, 'segment_cols': segment_cols, 'judgments_query_col': judgments_query_col,
      'judgments_item_col': judgments_item_col, 'judgments_label_col': judgments_label_col}, model, judgments) -%}
  {%- set context = resolved['context'] -%}
  {%- set judged = judgments is not none -%}
  {%- set key = ('judgments' if judged else 'labels') ~ '|' ~ context['input_kind'] ~ '|' ~ gain -%}
  {%- set names = {
      '@query@': query_col, '@item@': item_col,
      '@order@': rank_col if rank_col is not none else (score_col if score_col is not none else 'score'),
      '@label@': (judgments_label_col or label_col) if judged else label_col} -%}
  {%- for check in ndcg_sql._input_checks()[key] %}
  {%- set column = check['column'] | replace('@query@', names['@query@']) | replace('@item@', names['@item@'])
                   | replace('@order@', names['@order@']) | replace('@label@', names['@label@']) %}
{% if not loop.first %}UNION ALL
{% endif -%}
SELECT {{ ndcg_sql.string_literal(column) }} AS column_name, {{ ndcg_sql.string_literal(check['problem']) }} AS problem,
  offending.qid AS query_id
FROM (
{{ ndcg_sql._validate_examples(dict(context, relation=check['relation'], condition=check['condition'], source=check.get('source'), limit=limit)) }}
) AS offending
  {%- endfor %}
{%- endmacro %}
