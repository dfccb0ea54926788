{#- The rule of LightGBM and XGBoost for query weights (ndcg_sql/vocabulary/conventions.py:
    no_relevant_weight='one'; LightGBM rank_metric.hpp, NDCGMetric::Eval; XGBoost rank_metric.cc,
    EvalNDCG::Eval): under a convention that sets it, a weighted summary adds 1 for a query with
    no relevant item to the weighted sum, not the query's weight (its weight still counts in the
    sum of weights: sql/summary.sql.j2, unweighted_no_relevant). A rule of their NDCG@k summary:
    with measures it is an option error. What else a convention refuses with weights or measures
    is decided by _convention_scope (sql/options/resolve_convention.sql), called here.

    The one home of this decision, for every entry point: _ndcg_context (the Python runner,
    to_sql, dbt's ndcg_per_query and ndcg_measures) and dbt's ndcg_summary and
    ndcg_measures_summary (convention=, weighted=).
      convention  the convention as given (or none)
      weighted    the summary is weighted (weight_col given, or dbt's weighted=true)
      measures    the parsed measures of a summary of measures, or none (NDCG@k)
    Returns true when the rule applies. -#}
{% macro _unweighted_no_relevant(convention, weighted, measures) -%}
  {%- set found = ndcg_sql._convention_scope(convention, weighted, measures) -%}
  {%- set rule = true if weighted and found is not none and found['preset'].get('no_relevant_weight', 'weight') == 'one' else false -%}
  {%- if rule and measures is not none -%}
    {{ ndcg_sql._option_error("convention '" ~ found['name'] ~ "' with " ~ ndcg_sql._spelled('weight_col') ~ " is "
       ~ found['preset']['peer'] ~ "'s weighted ndcg@k: give k, not measures") }}
  {%- endif -%}
  {{ return(rule) }}
{%- endmacro %}
