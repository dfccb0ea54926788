{#- Generic test: fails when a measure is significantly worse - a candidate arm than the baseline
    arm (arm_col, baseline: paired t-test on the queries both arms have, per segment), or the
    latest period than the `window` periods before it (period_col: Welch's t-test, per segment and
    arm) - by at least min_effect, at the one-sided level alpha with the family's correction.
    The model holds per-query rows (ndcg_per_query's, or ndcg_measures' with measures), or, with
    `ranking: {options of ndcg_per_query}`, the ranking itself. p-values come from the package's
    table of t critical values (no t distribution in SQL): docs/statistics.md.

      arm_col, baseline     the arm column and the baseline arm's value; or
      period_col, window    the period column (a day) and the trailing window (default 7 periods);
                            the latest period is the model's latest (a segment without it is not tested)
      k / measures          NDCG@k (default 10) or measure names
      segment_cols          the other columns of the query key
      alpha, correction, min_effect   as ndcg_compare_arms (0.05, 'bonferroni', 0)
    Failing rows, one per failing (segment, measure[, arm]): the segment columns, measure, the arm
    or period, mean, baseline_mean (the baseline arm's, or the window's), mean_drop (baseline_mean -
    mean; for gm_map, tested on its per-query logarithms, the means are geometric and mean_drop is
    the relative drop 1 - mean / baseline_mean), t, df, p_value_below, adjusted_p_value_below,
    decision_level. -#}
{% test ndcg_no_regression(model, arm_col=none, baseline=none, period_col=none, window=7, k=none, measures=none,
                           query_col='query_id', segment_cols=[], alpha=0.05, correction='bonferroni', min_effect=0,
                           ranking=none) %}
  {{ return(adapter.dispatch('test_ndcg_no_regression', 'ndcg_sql')(model, arm_col, baseline, period_col, window, k,
      measures, query_col, segment_cols, alpha, correction, min_effect, ranking)) }}
{% endtest %}

{% macro default__test_ndcg_no_regression(model, arm_col, baseline, period_col, window, k, measures, query_col,
                                          segment_cols, alpha, correction, min_effect, ranking) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {%- if (arm_col is none) == (period_col is none) -%}
    {{ fail("ndcg_no_regression: give arm_col and baseline (arms), or period_col (periods); not both") }}
  {%- endif -%}
  {%- if arm_col is not none and baseline is none -%}
    {{ fail("ndcg_no_regression: arm_col needs baseline, the baseline arm's value") }}
  {%- endif -%}
  {%- set group_col = arm_col if arm_col is not none else period_col -%}
  {%- if ranking is not none -%}
    {%- set options = ranking.copy() -%}
    {%- if measures is not none -%}
      {%- do options.update({'query_col': query_col, 'segment_cols': segment_cols + [group_col]}) -%}
      {%- set per_query_sql = ndcg_sql.ndcg_measures(model, measures, **options) -%}
    {%- else -%}
      {%- do options.update({'query_col': query_col, 'segment_cols': segment_cols + [group_col],
                             'k': [10] if k is none else k}) -%}
      {%- set per_query_sql = ndcg_sql.ndcg_per_query(model, **options) -%}
    {%- endif -%}
  {%- else -%}
    {%- set per_query_sql = 'SELECT * FROM ' ~ model -%}
  {%- endif -%}
  {%- set test_options = {
      'per_query_relation': 'per_query_rows', 'query_col': query_col, 'segment_cols': segment_cols,
      'group_col': group_col, 'k': k, 'measures': measures, 'alpha': alpha, 'correction': correction,
      'min_effect': min_effect, 'window': window if period_col is not none else none} -%}
  {%- if arm_col is not none -%}{%- do test_options.update({'baseline': baseline}) -%}{%- endif -%}
  {%- set context = ndcg_sql._regression_context(test_options) -%}
  {%- set segments = [] -%}
  {%- for column in segment_cols -%}{%- do segments.append(ndcg_sql.quote_identifier(column)) -%}{%- endfor -%}
  {%- set group = ndcg_sql.quote_identifier(group_col) -%}
WITH
per_query_rows AS ( -- one row per ([segment,] {{ 'arm' if arm_col is not none else 'period' }}, query, k or measure)
{{ per_query_sql }}
),
changes AS ( -- one row per ([segment,] measure, {{ 'candidate arm' if arm_col is not none else 'period' }}): the test
  SELECT * FROM (
{{ ndcg_sql._arm_changes(context) if arm_col is not none else ndcg_sql._period_changes(context) }}
  ) AS tested
)
SELECT {% for s in segments %}{{ s }}, {% endfor %}measure, {{ group }}, mean,
  {{ 'baseline_mean' if arm_col is not none else 'window_mean' }} AS baseline_mean,
  {% if context['geometric_measures'] %}CASE WHEN measure IN ({{ context['geometric_measures'] | join(', ') }}) THEN 1.0 - change ELSE -change END{% else %}-change{% endif %} AS mean_drop, t, df, p_value_below, adjusted_p_value_below, decision_level
FROM changes
WHERE significant_drop
{%- if period_col is not none %}
  AND {{ group }} = (SELECT MAX(tested_group) FROM (SELECT {{ group }} AS tested_group FROM per_query_rows) AS periods)
{%- endif %}
{%- endmacro %}
