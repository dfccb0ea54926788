{#- The summary of ndcg_measures' rows, one row per ([segment values,] measure) in the order
    given: measure, mean, queries, evaluated, and with intervals (default: always, as the
    Python runner's summary of measures) stderr, ci_low, ci_high, ci_method (the interval's
    method, by the range of the measure's values: 'wilson' for Success@k, P@1, RR@1; 'normal,
    clipped to [0, 1]' for nDCG, P, R, AP, RR; 'normal' for CG, DCG; for gm_map, whose mean is the
    geometric mean of AP, 'normal of the mean log, exponentiated, clipped to [0, 1]') - sql/summary.sql.j2.
      per_query     a ref(), source() or CTE name holding ndcg_measures' rows
      measures      the measures of those rows (as given to ndcg_measures)
      query_col     the query column (default 'query_id')
      segment_cols  the segment columns of those rows (as given to ndcg_measures)
      intervals     true, false, or none (default: with measures, always)
      weighted      the rows carry query weights (weight_col of ndcg_measures): the weighted mean
      convention    the convention given to ndcg_measures (default none): checked as the runner
                    does (measures its tool does not compute, weighted under 'trec_eval', and
                    weighted under 'lightgbm' or 'xgboost', whose weighted ndcg@k takes k, are refused)
      sample_strata the strata of a sample of the queries (a ref() of an ndcg_sample_strata model, with
                    the arguments the per-query rows were sampled with): the summary is an estimate, with
                    the column population, and its standard error and interval carry the
                    finite-population correction sqrt(1 - n/N) per segment, as Python's sample= -#}
{% macro ndcg_measures_summary(per_query, measures, query_col='query_id', segment_cols=[], intervals=none,
                               weighted=false, convention=none, sample_strata=none) -%}
  {{ return(adapter.dispatch('ndcg_measures_summary', 'ndcg_sql')(per_query, measures, query_col, segment_cols,
                                                                  intervals, weighted, convention, sample_strata)) }}
{%- endmacro %}

{% macro default__ndcg_measures_summary(per_query, measures, query_col, segment_cols, intervals, weighted,
                                        convention, sample_strata=none) -%}
  {%- set summary = ndcg_sql._summary_context({
      'k': none, 'measures': measures, 'segments': segment_cols or none, 'intervals': intervals, 'bootstrap': 0,
      'seed': 0, 'query_col': query_col, 'ties': none}) -%}
  {%- if sample_strata is not none and intervals is sameas false -%}
    {{ ndcg_sql._option_error("sample_strata gives an estimate, which comes with its interval: leave intervals out") }}
  {%- endif -%}
  {%- if sample_strata is not none and intervals is none -%}{%- do summary.update({'intervals': true}) -%}{%- endif -%}
  {%- do summary.update({'per_query_relation': per_query, 'output_query_col': ndcg_sql.quote_identifier(query_col),
                         'sample_relation': sample_strata,
                         'weighted': weighted,
                         'unweighted_no_relevant': ndcg_sql._unweighted_no_relevant(convention, weighted, summary['parsed_measures'])}) -%}
  {{ return(ndcg_sql._summary(summary)) }}
{%- endmacro %}
