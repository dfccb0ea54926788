{#- The summary of ndcg_per_query's rows, one row per ([segment values,] k): k, ndcg (the mean
    over the queries counted: all, less the no-relevant ones under 'skip'; NULL when none),
    queries (how many were counted), no_relevant (queries with IDCG@k = 0), evaluated, and
    with intervals stderr, ci_low, ci_high, ci_method (NDCG's interval: the normal one clipped
    to [0, 1]) - the SQL of sql/summary.sql.j2, the same the Python runner runs (the same
    columns as evaluate(...).summary for the same options).
      per_query     a ref(), source() or CTE name with ndcg_per_query's rows
      query_col     the query column of per_query (default 'query_id')
      k             the cutoffs to report: give those of ndcg_per_query
      segment_cols  the segment columns of those rows (as given to ndcg_per_query)
      intervals     add the standard error and normal 95% interval (default: with segment_cols)
      weighted      the rows carry query weights (weight_col of ndcg_per_query): the weighted mean
      convention    the convention given to ndcg_per_query (default none): with weighted, 'lightgbm'
                    and 'xgboost' apply their tool's rule, a query with no relevant item adds 1 to
                    the weighted sum, not its weight, and 'trec_eval' is refused (trec_eval does not
                    weight queries): sql/options/weight_rule.sql, as the Python runner
    Returns one SELECT statement starting with WITH: inside another query, write
    `select * from ({{ ndcg_sql.ndcg_summary(...) }}) as summary`. -#}
{% macro ndcg_summary(per_query, query_col='query_id', k=[1, 3, 5, 10, 20, none], segment_cols=[], intervals=none,
                      weighted=false, convention=none, sample_strata=none) -%}
  {{ return(adapter.dispatch('ndcg_summary', 'ndcg_sql')(per_query, query_col, k, segment_cols, intervals, weighted,
                                                         convention, sample_strata)) }}
{%- endmacro %}

{% macro default__ndcg_summary(per_query, query_col, k, segment_cols, intervals, weighted, convention,
                               sample_strata=none) -%}
  {%- set summary = ndcg_sql._summary_context({
      'k': k, 'measures': none, 'segments': segment_cols or none, 'intervals': intervals, 'bootstrap': 0,
      'seed': 0, 'query_col': query_col, 'ties': none}) -%}
  {%- if sample_strata is not none and intervals is sameas false -%}
    {{ ndcg_sql._option_error("sample_strata gives an estimate, which comes with its interval: leave intervals out") }}
  {%- endif -%}
  {%- if sample_strata is not none and intervals is none -%}{%- do summary.update({'intervals': true}) -%}{%- endif -%}
  {%- do summary.update({'per_query_relation': per_query, 'output_query_col': ndcg_sql.quote_identifier(query_col),
                         'sample_relation': sample_strata,
                         'weighted': weighted,
                         'unweighted_no_relevant': ndcg_sql._unweighted_no_relevant(convention, weighted, none)}) -%}
  {{ return(ndcg_sql._summary(summary)) }}
{%- endmacro %}
