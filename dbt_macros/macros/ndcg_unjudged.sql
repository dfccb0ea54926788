{#- What to judge next: one row per (query, item) that the ranking shows within depth and that
    has no judgment, with the query and item columns, best_rank, runs (what shows it: run_name,
    with segment_cols each segment's values too, "dl19_runs arm=bm25", names joined by "; ") and
    exposure (the sum of the discount at its rank over what shows it, times the query's weight
    with weight_col), highest exposure first - the SQL of sql/unjudged_items.sql.j2 and
    sql/unjudged_worklist.sql.j2, as ndcg_sql.unjudged in Python, ranked as ndcg_per_query ranks
    (ties: with 'average' an item of a tie group has the group's first position and the mean
    discount of its positions within depth).
      relation      the ranking (a ref(), source() or CTE name); several runs: one relation with
                    a run column given as segment_cols
      judgments     the judgments relation (required): an item is judged when it has a row there
      depth         the ranks shown, a positive integer (default 10)
      run_name      the name of what shows an item (default: the relation's name)
      other options: as ndcg_per_query, but not k, gain, no_relevant, missing_queries or unjudged.
    Returns one SELECT statement. -#}
{% macro ndcg_unjudged(relation, judgments, depth=10, query_col='query_id', item_col='item_id', score_col=none,
                       rank_col=none, label_col='label', ties='average', segment_cols=[], judgments_query_col=none,
                       judgments_item_col=none, judgments_label_col=none, item_type='text', convention=none,
                       row_col=none, score_precision='double', negative_labels='error', segmented_judgments=false,
                       discount='log', log_base=2.0, weight_col=none, run_name=none) -%}
  {#- the arguments as one dict by name, for the engine's variant -#}
  {{ return(adapter.dispatch('ndcg_unjudged', 'ndcg_sql')({
      'relation': relation, 'judgments': judgments, 'depth': depth, 'query_col': query_col, 'item_col': item_col,
      'score_col': score_col, 'rank_col': rank_col, 'label_col': label_col, 'ties': ties,
      'segment_cols': segment_cols, 'judgments_query_col': judgments_query_col,
      'judgments_item_col': judgments_item_col, 'judgments_label_col': judgments_label_col,
      'item_type': item_type, 'convention': convention, 'row_col': row_col, 'score_precision': score_precision,
      'negative_labels': negative_labels, 'segmented_judgments': segmented_judgments, 'discount': discount,
      'log_base': log_base, 'weight_col': weight_col, 'run_name': run_name})) }}
{%- endmacro %}

{#- arguments: ndcg_unjudged's arguments by name -#}
{% macro default__ndcg_unjudged(arguments) -%}
  {%- set depth = ndcg_sql._checked_depth(arguments['depth']) -%}
  {%- if arguments['judgments'] is none -%}
    {{ ndcg_sql._option_error("ndcg_unjudged needs judgments: an item is unjudged when they have no row for it") }}
  {%- endif -%}
  {#- how ids are compared: by their types, as the runner compares them (sql/options/id_forms.sql) -#}
  {%- set id_types = ndcg_sql._id_column_types(arguments['relation'], arguments['judgments'], arguments['query_col'],
                                                arguments['item_col'], arguments['judgments_query_col'],
                                                arguments['judgments_item_col']) -%}
  {#- the options of _ndcg_context (sql/options/ndcg_context.sql): the ranking's, cut at depth -#}
  {%- set options = dict(arguments, segments=arguments['segment_cols'] or none, k=[depth], measures=none,
                         gain='exponential', no_relevant='zero', missing_queries='ignore', unjudged='zero',
                         intervals=none, bootstrap=0, seed=0) -%}
  {%- do options.pop('depth') -%}
  {%- do options.pop('run_name') -%}
  {%- set resolved = ndcg_sql._ndcg_context(options, arguments['relation'], arguments['judgments'],
                                            {'id_types': id_types} if id_types else none) -%}
  {#- a misspelt column stops here, named, when the relations are ref()s or source()s -#}
  {%- do ndcg_sql._require_columns(arguments, arguments['relation'], arguments['judgments']) -%}
  {%- set context = resolved['context'] -%}
  {%- set items = ndcg_sql._unjudged_items(dict(context, depth=depth, output_item_col=context['item_col'])) -%}
  {%- set name = arguments['run_name'] or (arguments['relation'].identifier if arguments['relation'].identifier is defined else arguments['relation'] | string) -%}
  {%- set labels = [] -%}
  {%- for s in arguments['segment_cols'] -%}{%- do labels.append(ndcg_sql.string_literal(s ~ '=')) -%}{%- endfor -%}
  {{ return(ndcg_sql._unjudged_worklist({
      'runs': [{'relation': '(' ~ items ~ ') AS run_items', 'name': ndcg_sql.string_literal(name)}],
      'segment_cols': context['segment_cols'], 'segment_labels': labels,
      'output_query_col': context['output_query_col'], 'output_item_col': context['item_col'],
      'names_aggregate': ndcg_sql.names_list('shown_by')})) }}
{%- endmacro %}
