{#- Per-query CG@k, DCG@k, IDCG@k and NDCG@k of a ranking relation: one row per
    ([segment values,] query, k) with the query column, k (NULL for the whole list), cg, dcg,
    idcg, ndcg - the SQL of sql/per_query.sql.j2, the same the Python runner runs, with the
    options resolved by the same macros (sql/options/, copied into _internal/options/).
    Returns one SELECT statement: a whole model, or the body of a CTE.
    Arguments (defaults and meaning as ndcg_sql.evaluate in Python; macros.yml lists them):
      relation      the ranking: a ref(), source(), or the name of a CTE; one row per
                    (query, item) with a score or a logged rank
      judgments     optional judgments relation (query, item, label columns, by default named
                    as the ranking's; judgments_*_col name them otherwise)
      segment_cols  optional columns (experiment arm, date, device): a query is evaluated once
                    per segment, and the output starts with these columns (segments= in Python)
      segmented_judgments  with segment_cols and judgments: the judgments carry the segment
                    columns too (judgments per (segment, query))
      item_type     'text' (default) or 'number': with an item-id tie-break, text ids are
                    compared in byte order (ndcg_sql.item_byte_order); with judgments given as
                    relations, the item column's type read by dbt's adapter decides instead
      Ids: with judgments given as relations (ref(), source()), the four id columns' types are
      read through dbt's adapter when the model runs, and ids are compared by the rule of the
      Python runner (ndcg_sql/building/id_types.py: as text in TREC form when the two sides' types differ,
      arrays refused); a CTE's name, or dbt compile --no-introspect, leaves them compared as stored.
      the others    query_col, item_col, score_col / rank_col, label_col, k, gain, discount, log_base, ties,
                    no_relevant, missing_queries, convention, row_col, score_precision,
                    negative_labels, unjudged, weight_col (a weight column of the ranking, carried by the rows as weight): as in Python.
      sample, seed  a fraction in (0, 1]: only the queries of the seeded hash of their key, as the
                    Python runner's sample= (sql/query_sample.sql.j2); ndcg_summary then takes the
                    strata (ndcg_sample_strata, same arguments). Default none (every query), seed 0. -#}
{% macro ndcg_per_query(relation, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                        label_col='label', k=[1, 3, 5, 10, 20, none], gain='exponential', ties='average',
                        no_relevant='zero', judgments=none, missing_queries='ignore', segment_cols=[],
                        judgments_query_col=none, judgments_item_col=none, judgments_label_col=none,
                        item_type='text', convention=none, row_col=none, score_precision='double',
                        negative_labels='error', segmented_judgments=false, discount='log', log_base=2.0, weight_col=none, unjudged='zero',
                        sample=none, seed=0) -%}
  {#- the arguments as one dict by name, for the engine's variant -#}
  {{ return(adapter.dispatch('ndcg_per_query', 'ndcg_sql')({
      'relation': relation, 'query_col': query_col, 'item_col': item_col, 'score_col': score_col,
      'rank_col': rank_col, 'label_col': label_col, 'k': k, 'gain': gain, 'ties': ties, 'no_relevant': no_relevant,
      'judgments': judgments, 'missing_queries': missing_queries, 'segment_cols': segment_cols,
      'judgments_query_col': judgments_query_col, 'judgments_item_col': judgments_item_col,
      'judgments_label_col': judgments_label_col, 'item_type': item_type, 'convention': convention,
      'row_col': row_col, 'score_precision': score_precision, 'negative_labels': negative_labels,
      'segmented_judgments': segmented_judgments, 'discount': discount, 'log_base': log_base,
      'weight_col': weight_col, 'unjudged': unjudged, 'sample': sample, 'seed': seed})) }}
{%- endmacro %}

{#- arguments: ndcg_per_query's arguments by name -#}
{% macro default__ndcg_per_query(arguments) -%}
  {#- how ids are compared: by their types, as the runner compares them (sql/options/id_forms.sql) -#}
  {%- set id_types = ndcg_sql._id_column_types(arguments['relation'], arguments['judgments'], arguments['query_col'],
                                                arguments['item_col'], arguments['judgments_query_col'],
                                                arguments['judgments_item_col']) -%}
  {#- the options of _ndcg_context (sql/options/ndcg_context.sql) -#}
  {%- set options = dict(arguments, segments=arguments['segment_cols'] or none, measures=none, intervals=none,
                         bootstrap=0) -%}
  {%- set resolved = ndcg_sql._ndcg_context(options, arguments['relation'], arguments['judgments'],
                                            {'id_types': id_types} if id_types else none) -%}
  {#- a misspelt column stops here, named, when the relations are ref()s or source()s -#}
  {%- do ndcg_sql._require_columns(arguments, arguments['relation'], arguments['judgments']) -%}
  {{ return(ndcg_sql._per_query(resolved['context'])) }}
{%- endmacro %}
