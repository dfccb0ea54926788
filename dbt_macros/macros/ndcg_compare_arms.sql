{#- Each candidate arm against a baseline arm, paired on the queries both arms have: one row per
    ([segment values,] measure, candidate arm) with the segment columns, measure, the arm
    column, queries (pairs), mean, baseline_mean, change (mean - baseline_mean), stderr, the
    paired t and df, p_value_below (the one-sided p-value of a drop is at most this, from the
    package's table of t critical values), tests (the family), adjusted_p_value_below,
    decision_level and significant_drop - the SQL of sql/arm_changes.sql.j2.
      per_query     per-query rows: ndcg_per_query's (NDCG@k, give k) or ndcg_measures' (give
                    measures), carrying the arm column and the segment columns
      arm_col       the arm column; baseline  the baseline arm's value
      k / measures  what is compared: cutoffs of NDCG@k (default 10), or measure names
      segment_cols  the other columns of the query key (e.g. day): a test per segment
      alpha         one-sided level of the family, a tabulated one (0.1, 0.05, 0.025, 0.01, ...)
      correction    'bonferroni' (default; alpha / m rounded down to a tabulated level) or 'none'
      min_effect    a drop smaller than this is never significant (default 0)
    Returns one SELECT statement (starting with WITH). -#}
{% macro ndcg_compare_arms(per_query, arm_col, baseline, k=none, measures=none, query_col='query_id', segment_cols=[],
                           alpha=0.05, correction='bonferroni', min_effect=0) -%}
  {{ return(adapter.dispatch('ndcg_compare_arms', 'ndcg_sql')(per_query, arm_col, baseline, k, measures, query_col,
      segment_cols, alpha, correction, min_effect)) }}
{%- endmacro %}

{% macro default__ndcg_compare_arms(per_query, arm_col, baseline, k, measures, query_col, segment_cols, alpha, correction,
                                    min_effect) -%}
  {%- set context = ndcg_sql._regression_context({
      'per_query_relation': per_query, 'query_col': query_col, 'segment_cols': segment_cols, 'group_col': arm_col,
      'k': k, 'measures': measures, 'baseline': baseline, 'alpha': alpha, 'correction': correction,
      'min_effect': min_effect}) -%}
  {{ return(ndcg_sql._arm_changes(context)) }}
{%- endmacro %}
