{#- Named ranking measures per query: one row per ([segment values,] query, measure) with the
    query column, measure (its canonical name) and value - the SQL of sql/per_query.sql.j2
    (CG, DCG, nDCG), sql/measures_per_query.sql.j2 (P, R, AP, RR, Success) and
    sql/measure_rows.sql.j2, as ndcg_sql.evaluate(measures=...).
      relation      the ranking (a ref(), source() or CTE name)
      measures      names in ir_measures notation: 'nDCG@10', 'P@5', 'R@100', 'AP', 'AP@10',
                    'RR', 'Success@10', 'P(rel=2)@5' (relevant: label >= rel, default 1),
                    aliases NDCG, MAP, MRR, Hit; a list, or one string separated by commas or spaces
      max_grade     the top grade of the relevance scale, which ERR reads (default 4, gdeval.pl's)
      sample, seed  a fraction in (0, 1]: only the queries of the seeded hash of their key (the
                    Python runner's sample=, sql/query_sample.sql.j2: the same queries for a seed);
                    give ndcg_measures_summary the strata (ndcg_sample_strata, same arguments) for
                    the estimate's finite-population correction. Default none (every query), seed 0.
      other options: as ndcg_per_query, but not k (the cutoffs are in the names).
    AP, RR and Success need a tie order (ties 'item-asc', 'item-desc' or 'input-order', or a
    convention that sets one). Returns one SELECT statement. -#}
{% macro ndcg_measures(relation, measures, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                       label_col='label', gain='exponential', ties='average', no_relevant='zero', judgments=none,
                       missing_queries='ignore', judgments_query_col=none, judgments_item_col=none,
                       judgments_label_col=none, item_type='text', convention=none, row_col=none,
                       score_precision='double', negative_labels='error', segment_cols=[],
                       segmented_judgments=false, discount='log', log_base=2.0, weight_col=none, unjudged='zero',
                       max_grade=4, sample=none, seed=0) -%}
  {#- the arguments as one dict by name, for the engine's variant -#}
  {{ return(adapter.dispatch('ndcg_measures', 'ndcg_sql')({
      'relation': relation, 'measures': measures, 'query_col': query_col, 'item_col': item_col,
      'score_col': score_col, 'rank_col': rank_col, 'label_col': label_col, 'gain': gain, 'ties': ties,
      'no_relevant': no_relevant, 'judgments': judgments, 'missing_queries': missing_queries,
      'judgments_query_col': judgments_query_col, 'judgments_item_col': judgments_item_col,
      'judgments_label_col': judgments_label_col, 'item_type': item_type, 'convention': convention,
      'row_col': row_col, 'score_precision': score_precision, 'negative_labels': negative_labels,
      'segment_cols': segment_cols, 'segmented_judgments': segmented_judgments, 'discount': discount,
      'log_base': log_base, 'weight_col': weight_col, 'unjudged': unjudged, 'max_grade': max_grade,
      'sample': sample, 'seed': seed})) }}
{%- endmacro %}

{#- arguments: ndcg_measures' arguments by name -#}
{% macro default__ndcg_measures(arguments) -%}
  {#- how ids are compared: by their types, as the runner compares them (sql/options/id_forms.sql) -#}
  {%- set id_types = ndcg_sql._id_column_types(arguments['relation'], arguments['judgments'], arguments['query_col'],
                                                arguments['item_col'], arguments['judgments_query_col'],
                                                arguments['judgments_item_col']) -%}
  {#- the options of _ndcg_context (sql/options/ndcg_context.sql) -#}
  {%- set options = dict(arguments, segments=arguments['segment_cols'] or none, k=none, intervals=none,
                         bootstrap=0) -%}
  {%- set resolved = ndcg_sql._ndcg_context(options, arguments['relation'], arguments['judgments'],
                                            {'id_types': id_types} if id_types else none) -%}
  {#- a misspelt column stops here, named, when the relations are ref()s or source()s -#}
  {%- do ndcg_sql._require_columns(arguments, arguments['relation'], arguments['judgments']) -%}
  {{ return(ndcg_sql._measure_rows(resolved['context'])) }}
{%- endmacro %}
