{#- The strata of a sample of the queries: one row per segment (one row without segment_cols)
    with population (its queries in the ranking, N) and sampled (those the seeded hash draws, n) -
    the SQL of sql/sample_strata.sql.j2, the Python runner's for sample=. Give it the arguments
    ndcg_measures or ndcg_per_query sampled with (relation, sample, seed, the columns, judgments,
    segment_cols), and its model to ndcg_measures_summary or ndcg_summary as sample_strata: the
    summary is then an estimate whose standard error carries the finite-population correction
    sqrt(1 - n/N) of its segment (Cochran, Sampling Techniques, 1977, ch. 2 and 5). Returns one
    SELECT statement. -#}
{% macro ndcg_sample_strata(relation, sample, seed=0, query_col='query_id', item_col='item_id', score_col=none,
                            rank_col=none, label_col='label', judgments=none, judgments_query_col=none,
                            judgments_item_col=none, judgments_label_col=none, segment_cols=[],
                            segmented_judgments=false, item_type='text', convention=none, row_col=none,
                            missing_queries='ignore') -%}
  {{ return(adapter.dispatch('ndcg_sample_strata', 'ndcg_sql')({
      'relation': relation, 'sample': sample, 'seed': seed, 'query_col': query_col, 'item_col': item_col,
      'score_col': score_col, 'rank_col': rank_col, 'label_col': label_col, 'judgments': judgments,
      'judgments_query_col': judgments_query_col, 'judgments_item_col': judgments_item_col,
      'judgments_label_col': judgments_label_col, 'segment_cols': segment_cols,
      'segmented_judgments': segmented_judgments, 'item_type': item_type, 'convention': convention,
      'row_col': row_col, 'missing_queries': missing_queries, 'k': [1, 3, 5, 10, 20, none],
      'gain': 'exponential', 'ties': 'average', 'no_relevant': 'zero', 'score_precision': 'double',
      'negative_labels': 'error', 'discount': 'log', 'log_base': 2.0, 'weight_col': none, 'unjudged': 'zero'})) }}
{%- endmacro %}

{#- arguments: ndcg_sample_strata's arguments by name -#}
{% macro default__ndcg_sample_strata(arguments) -%}
  {%- if arguments['sample'] is none -%}
    {{ ndcg_sql._option_error("ndcg_sample_strata needs sample, the fraction of the queries drawn") }}
  {%- endif -%}
  {%- set id_types = ndcg_sql._id_column_types(arguments['relation'], arguments['judgments'], arguments['query_col'],
                                                arguments['item_col'], arguments['judgments_query_col'],
                                                arguments['judgments_item_col']) -%}
  {%- set options = dict(arguments, segments=arguments['segment_cols'] or none, measures=none, intervals=none,
                         bootstrap=0) -%}
  {%- set resolved = ndcg_sql._ndcg_context(options, arguments['relation'], arguments['judgments'],
                                            {'id_types': id_types} if id_types else none) -%}
  {%- do ndcg_sql._require_columns(arguments, arguments['relation'], arguments['judgments']) -%}
  {{ return(ndcg_sql._sample_strata(resolved['context'])) }}
{%- endmacro %}
