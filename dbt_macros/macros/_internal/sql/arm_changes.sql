{#- Copied from sql/arm_changes.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Each candidate arm against the baseline arm, paired on the queries both have (ndcg_compare_arms,
    the arms gate of ndcg_no_regression): one row per ([segment values,] measure, candidate arm)
    with the values of sql/tested_values.sql.j2 (group_col the arm column; a query is keyed by
    (segment values, query), and the baseline arm's value is the one with group = baseline).
    With d_i = candidate_i - baseline_i over the n queries both arms have a value for:
      change  mean d (the candidate's mean minus the baseline's, on those queries)
      paired t = mean d / (s_d / sqrt(n)), df = n - 1 (Student 1908; scipy.stats.ttest_rel)
    and the one-sided decision of sql/t_critical.sql.j2 for a drop: significant_drop when
    p_value_below <= decision_level and -change >= min_effect, the family being every
    (segment, measure, candidate arm) with a t. t is NULL below 2 pairs or when every d_i is
    the same. The sums are exact (each value divided by its group's scale, 1 or its largest
    |value| above 1, rounded to 18 places and summed as a decimal: sql/summary.sql.j2).
    A measure whose summary is a geometric mean (gm_map) is tested on its logarithms and reported
    as a ratio: mean and baseline_mean the geometric means, change their ratio exp(mean d),
    stderr exp(mean d) x the standard error of mean d (the delta method, as the summary's), and
    the drop held against min_effect the relative one, 1 - change (sql/tested_values.sql.j2).
    Context: that of sql/tested_values.sql.j2, baseline_sql, and that of sql/t_critical.sql.j2. -#}
{%- macro _arm_keys(ctx, prefix) -%}
{% for s in ctx['segment_cols'] %}{{ prefix }}{{ s }}, {% endfor %}{{ prefix }}measure, {{ prefix }}tested_group
{%- endmacro -%}
{%- macro _arm_same(ctx, a, b) -%}
{%- for s in ctx['segment_cols'] %}{{ a }}.{{ s }} IS NOT DISTINCT FROM {{ b }}.{{ s }} AND {% endfor -%}
{{ a }}.measure = {{ b }}.measure AND {{ a }}.tested_group = {{ b }}.tested_group
{%- endmacro -%}
{% macro _arm_changes(ctx) -%}
WITH
{{ ndcg_sql._tested_values(ctx) }},
arm_pairs AS ( -- one row per ([segment,] measure, candidate arm, query both arms have): the two values and their difference
  SELECT
    {{ ndcg_sql._arm_keys(ctx, 'c.') }},
    c.value,
    b.value AS baseline_value,
    c.value - b.value AS difference
  FROM tested_values AS c
  INNER JOIN tested_values AS b
    ON {% for s in ctx['segment_cols'] %}c.{{ s }} IS NOT DISTINCT FROM b.{{ s }} AND {% endfor %}c.measure = b.measure
    AND c.tested_query = b.tested_query AND b.tested_group = {{ ctx['baseline_sql'] }}
  WHERE c.tested_group <> {{ ctx['baseline_sql'] }}
),
arm_scales AS ( -- one row per ([segment,] measure, candidate arm): the scale its values are summed at
  SELECT
    {{ ndcg_sql._arm_keys(ctx, '') }},
    CASE WHEN MAX(ABS(value)) > 1.0 OR MAX(ABS(baseline_value)) > 1.0
      THEN CASE WHEN MAX(ABS(value)) > MAX(ABS(baseline_value)) THEN MAX(ABS(value)) ELSE MAX(ABS(baseline_value)) END
      ELSE 1.0 END AS scale
  FROM arm_pairs
  GROUP BY {{ ndcg_sql._arm_keys(ctx, '') }}
),
arm_sums AS ( -- one row per ([segment,] measure, candidate arm): pairs and exact scaled sums
  SELECT
    {{ ndcg_sql._arm_keys(ctx, 'p.') }},
    s.scale,
    COUNT(*) AS queries,
    SUM(CAST(p.value / NULLIF(s.scale, 0) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_value,
    SUM(CAST(p.baseline_value / NULLIF(s.scale, 0) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_baseline,
    SUM(CAST(p.difference / NULLIF(s.scale, 0) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_difference
  FROM arm_pairs AS p
  INNER JOIN arm_scales AS s ON {{ ndcg_sql._arm_same(ctx, 'p', 's') }}
  GROUP BY {{ ndcg_sql._arm_keys(ctx, 'p.') }}, s.scale
),
arm_means AS ( -- one row per ([segment,] measure, candidate arm): the means
  SELECT
    *,
    CAST(scale * CAST(scaled_value AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(queries, 0) AS mean,
    CAST(scale * CAST(scaled_baseline AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(queries, 0) AS baseline_mean,
    CAST(scale * CAST(scaled_difference AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(queries, 0) AS change
  FROM arm_sums
),
arm_spreads AS ( -- one row per ([segment,] measure, candidate arm): the exact sum of squared scaled deviations of the differences
  SELECT
    {{ ndcg_sql._arm_keys(ctx, 'm.') }},
    SUM(CAST((CAST(p.difference - m.change AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) * (CAST(p.difference - m.change AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_squares
  FROM arm_pairs AS p
  INNER JOIN arm_means AS m ON {{ ndcg_sql._arm_same(ctx, 'p', 'm') }}
  GROUP BY {{ ndcg_sql._arm_keys(ctx, 'm.') }}
),
paired_tests AS ( -- one row per ([segment,] measure, candidate arm): the paired t and its df
  SELECT
    m.*,
    CASE WHEN m.queries >= 2 THEN m.scale * SQRT(CAST(d.scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(m.queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0))
      / NULLIF(SQRT(CAST(m.queries AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0) END AS stderr,
    CASE WHEN m.queries >= 2 AND d.scaled_squares > 0
      THEN CAST(m.change AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale * SQRT(CAST(d.scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(m.queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0))
        / NULLIF(SQRT(CAST(m.queries AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0), 0) END AS t,
    CAST(m.queries - 1 AS {{ ndcg_sql.sql_type('BIGINT') }}) AS df
  FROM arm_means AS m
  INNER JOIN arm_spreads AS d ON {{ ndcg_sql._arm_same(ctx, 'm', 'd') }}
),
{{ ndcg_sql._t_decisions(ctx, 'paired_tests', []) }}
SELECT
  {%- for s in ctx['segment_cols'] %}
  {{ s }},
  {%- endfor %}
  measure,
  tested_group AS {{ ctx['group_col'] }},
  CAST(queries AS {{ ndcg_sql.sql_type('BIGINT') }}) AS queries,
  {{ ndcg_sql._reported(ctx, 'mean') }} AS mean,
  {{ ndcg_sql._reported(ctx, 'baseline_mean') }} AS baseline_mean,
  {{ ndcg_sql._reported(ctx, 'change') }} AS change,
  {% if ctx['geometric_measures'] | default([]) %}{{ ndcg_sql._reported(ctx, 'change') }} * stderr{% else %}stderr{% endif %} AS stderr,
  t,
  df,
  p_value_below,
  tests,
  {{ ndcg_sql._adjusted_p_value_below(ctx, 'p_value_below', 'tests') }} AS adjusted_p_value_below,
  decision_level,
  CASE WHEN p_value_below <= decision_level AND {{ ndcg_sql._drop_of(ctx, 'change') }} >= {{ ctx['min_effect'] }} THEN TRUE ELSE FALSE END AS significant_drop
FROM decided
ORDER BY {% for s in ctx['segment_cols'] %}{{ s }} ASC NULLS LAST, {% endfor %}measure ASC NULLS LAST, tested_group ASC NULLS LAST
{% endmacro %}
