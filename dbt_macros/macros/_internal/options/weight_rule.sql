{#- Copied from sql/options/weight_rule.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- LightGBM's rule for query weights (ndcg_sql/conventions.py: no_relevant_weight='one';
    rank_metric.hpp, NDCGMetric::Eval): under a convention that sets it, a weighted summary
    adds 1 for a query with no relevant item to the weighted sum, not the query's weight (its
    weight still counts in the sum of weights: sql/summary.sql.j2, unweighted_no_relevant).
    A rule of LightGBM's NDCG summary: with measures it is an option error.

    The one home of this decision, for every entry point: _ndcg_context (the Python runner,
    to_sql, dbt's ndcg_per_query and ndcg_measures) and dbt's ndcg_summary and
    ndcg_measures_summary (convention=, weighted=).
      convention  the convention as given (or none)
      weighted    the summary is weighted (weight_col given, or dbt's weighted=true)
      by_measure  the summary is of measures, not NDCG@k
    Returns true when the rule applies. -#}
{% macro _unweighted_no_relevant(convention, weighted, by_measure) -%}
  {%- set found = ndcg_sql._convention_preset(convention) -%}
  {%- set rule = true if weighted and found is not none and found['preset'].get('no_relevant_weight', 'weight') == 'one' else false -%}
  {%- if rule and by_measure -%}
    {{ ndcg_sql._option_error("convention '" ~ found['name'] ~ "' with " ~ ndcg_sql._spelled('weight_col') ~ " is LightGBM's weighted ndcg@k: give k, not measures") }}
  {%- endif -%}
  {{ return(rule) }}
{%- endmacro %}
