{#- Copied from sql/period_changes.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Each period's mean against its trailing window (the daily gate of ndcg_no_regression and
    `ndcg-sql plot --over`): one row per ([segment values,] measure, period) with the values
    of sql/tested_values.sql.j2 (a query is keyed by (segment values, period, query)).
    For a period with values x_1 .. x_n1 (mean m1) and the values y_1 .. y_n0 of the queries of
    the `window` periods before it that have values for that segment and measure (pooled, mean
    m0; a period without values does not count; fewer periods at the start of the series):
      change  m1 - m0
      Welch's t = (m1 - m0) / sqrt(v1/n1 + v0/n0), v the sample variances (n - 1)
      df      Welch–Satterthwaite: (v1/n1 + v0/n0)^2 / ((v1/n1)^2/(n1 - 1) + (v0/n0)^2/(n0 - 1))
              (Welch, Biometrika 34, 1947; scipy.stats.ttest_ind(equal_var=False))
    and the one-sided decision of sql/t_critical.sql.j2 for a drop: significant_drop when
    p_value_below <= decision_level and m0 - m1 >= min_effect, the family being the tests of
    the same period (every segment and measure with a t). t is NULL below 2 values on a side
    or with no spread on both.
    The sums are the summary's exact ones (sql/summary.sql.j2): each value divided by its
    (segment, measure)'s scale (1, or its largest |value| above 1), rounded to 18 places and
    summed as a decimal, so no row order or thread changes them. The window's sum of squared
    deviations from m0 is the exact sum of each period's own and n_j (m_j - m0)^2, its
    per-period terms rounded alike.
    A measure whose summary is a geometric mean (gm_map) is tested on its logarithms (Welch's t on
    them) and reported as a ratio: mean and window_mean the geometric means, stderr the period's
    exp(mean) x the standard error of its mean logarithm (the summary's delta method), change the
    ratio exp(m1 - m0), and the drop held against min_effect the relative one, 1 - change.
    Context: that of sql/tested_values.sql.j2, window, and that of sql/t_critical.sql.j2. -#}
{%- macro _period_same(ctx, a, b, period) -%}
{%- for s in ctx['segment_cols'] %}{{ a }}.{{ s }} IS NOT DISTINCT FROM {{ b }}.{{ s }} AND {% endfor -%}
{{ a }}.measure = {{ b }}.measure{% if period %} AND {{ a }}.tested_group = {{ b }}.tested_group{% endif %}
{%- endmacro -%}
{%- macro _period_keys(ctx, prefix) -%}
{% for s in ctx['segment_cols'] %}{{ prefix }}{{ s }}, {% endfor %}{{ prefix }}measure
{%- endmacro -%}
{% macro _period_changes(ctx) -%}
{%- set window = ctx['window'] -%}
WITH
{{ ndcg_sql._tested_values(ctx) }},
value_scales AS ( -- one row per ([segment,] measure): the scale its values are summed at
  SELECT {{ ndcg_sql._period_keys(ctx, '') }}, CASE WHEN MAX(ABS(value)) > 1.0 THEN MAX(ABS(value)) ELSE 1.0 END AS scale
  FROM tested_values
  GROUP BY {{ ndcg_sql._period_keys(ctx, '') }}
),
period_sums AS ( -- one row per ([segment,] measure, period): its queries and the exact scaled sum
  SELECT
    {{ ndcg_sql._period_keys(ctx, 'v.') }},
    v.tested_group,
    s.scale,
    COUNT(*) AS queries,
    SUM(CAST(v.value / NULLIF(s.scale, 0) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_sum
  FROM tested_values AS v
  INNER JOIN value_scales AS s ON {{ ndcg_sql._period_same(ctx, 'v', 's', false) }}
  GROUP BY {{ ndcg_sql._period_keys(ctx, 'v.') }}, v.tested_group, s.scale
),
period_means AS ( -- one row per ([segment,] measure, period): the mean and the period's place in its series
  SELECT
    *,
    CAST(scale * CAST(scaled_sum AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(queries, 0) AS mean,
    DENSE_RANK() OVER (PARTITION BY {{ ndcg_sql._period_keys(ctx, '') }} ORDER BY tested_group ASC NULLS LAST) AS place
  FROM period_sums
),
period_stats AS ( -- one row per ([segment,] measure, period): the exact sum of squared scaled deviations from its mean
  SELECT
    {{ ndcg_sql._period_keys(ctx, 'm.') }},
    m.tested_group,
    m.scale,
    m.queries,
    m.scaled_sum,
    m.mean,
    m.place,
    SUM(CAST((CAST(v.value - m.mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) * (CAST(v.value - m.mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_squares
  FROM tested_values AS v
  INNER JOIN period_means AS m ON {{ ndcg_sql._period_same(ctx, 'v', 'm', true) }}
  GROUP BY {{ ndcg_sql._period_keys(ctx, 'm.') }}, m.tested_group, m.scale, m.queries, m.scaled_sum, m.mean, m.place
),
window_means AS ( -- one row per ([segment,] measure, period with earlier ones): its trailing window's periods, queries and mean
  SELECT
    {{ ndcg_sql._period_keys(ctx, 'p.') }},
    p.tested_group,
    p.place,
    COUNT(*) AS window_periods,
    SUM(w.queries) AS window_queries,
    CAST(p.scale * CAST(SUM(w.scaled_sum) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(SUM(w.queries), 0) AS window_mean
  FROM period_stats AS p
  INNER JOIN period_stats AS w ON {{ ndcg_sql._period_same(ctx, 'p', 'w', false) }}
    AND w.place < p.place AND w.place >= p.place - {{ window }}
  GROUP BY {{ ndcg_sql._period_keys(ctx, 'p.') }}, p.tested_group, p.place, p.scale
),
window_spreads AS ( -- one row per ([segment,] measure, period with earlier ones): the window's exact sum of squared scaled deviations from its mean
  SELECT
    {{ ndcg_sql._period_keys(ctx, 'p.') }},
    p.tested_group,
    SUM(w.scaled_squares + CAST(w.queries * (CAST(w.mean - p.window_mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(w.scale, 0)) * (CAST(w.mean - p.window_mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(w.scale, 0)) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS window_scaled_squares
  FROM window_means AS p
  INNER JOIN period_stats AS w ON {{ ndcg_sql._period_same(ctx, 'p', 'w', false) }}
    AND w.place < p.place AND w.place >= p.place - {{ window }}
  GROUP BY {{ ndcg_sql._period_keys(ctx, 'p.') }}, p.tested_group
),
period_variances AS ( -- one row per ([segment,] measure, period): the squared standard errors of the two means
  SELECT
    {{ ndcg_sql._period_keys(ctx, 'p.') }},
    p.tested_group,
    p.queries,
    p.mean,
    CASE WHEN p.queries >= 2 THEN p.scale * p.scale * CAST(p.scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(p.queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)
      / NULLIF(CAST(p.queries AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0) END AS se2,
    CAST(COALESCE(w.window_periods, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS window_periods,
    CAST(COALESCE(w.window_queries, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS window_queries,
    w.window_mean,
    CASE WHEN w.window_queries >= 2 THEN p.scale * p.scale * CAST(d.window_scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }})
      / NULLIF(CAST(w.window_queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0) / NULLIF(CAST(w.window_queries AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0) END AS window_se2
  FROM period_stats AS p
  LEFT JOIN window_means AS w ON {{ ndcg_sql._period_same(ctx, 'p', 'w', true) }}
  LEFT JOIN window_spreads AS d ON {{ ndcg_sql._period_same(ctx, 'p', 'd', true) }}
),
welch_tests AS ( -- one row per ([segment,] measure, period): Welch's t and df against the window
  SELECT
    *,
    mean - window_mean AS change,
    CASE WHEN se2 + window_se2 > 0 THEN CAST(mean - window_mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(SQRT(se2 + window_se2), 0) END AS t,
    CASE WHEN se2 + window_se2 > 0 THEN CAST((se2 + window_se2) * (se2 + window_se2) AS {{ ndcg_sql.sql_type('DOUBLE') }})
      / NULLIF(se2 * se2 / NULLIF(CAST(queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)
               + window_se2 * window_se2 / NULLIF(CAST(window_queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0), 0) END AS df
  FROM period_variances
),
{{ ndcg_sql._t_decisions(ctx, 'welch_tests', ['tested_group']) }}
SELECT
  {%- for s in ctx['segment_cols'] %}
  {{ s }},
  {%- endfor %}
  measure,
  tested_group AS {{ ctx['group_col'] }},
  CAST(queries AS {{ ndcg_sql.sql_type('BIGINT') }}) AS queries,
  {{ ndcg_sql._reported(ctx, 'mean') }} AS mean,
  CASE WHEN se2 IS NOT NULL THEN {% if ctx['geometric_measures'] | default([]) %}{{ ndcg_sql._reported(ctx, 'mean') }} * {% endif %}SQRT(se2) END AS stderr,
  window_periods,
  window_queries,
  {{ ndcg_sql._reported(ctx, 'window_mean') }} AS window_mean,
  {{ ndcg_sql._reported(ctx, 'change') }} AS change,
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
