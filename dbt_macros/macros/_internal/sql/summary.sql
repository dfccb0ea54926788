{#- Copied from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The summary of per-query rows, one row per ([segment values,] k or measure), the same for
    every entry point: the mean over the queries counted (all, less the no-relevant ones under
    the skip policy), how many were counted (queries) and evaluated, with NDCG how many had no
    relevant item (IDCG@k = 0), and with intervals the standard error, the 95% interval of the
    mean and the name of its method. Without segments every cutoff or measure asked gets a row,
    with 0 queries and a NULL mean when none was evaluated; with segments every segment of the
    rows gets a row for each (its queries have a value for each).

    The mean and the spread are exact sums, order-independent: every value is divided by its
    group's scale (1, or for CG and DCG, which are unbounded, the group's largest |value|,
    at least 1), rounded to a decimal with 18 places and summed as a decimal by GROUP BY. The
    sum does not depend on the order rows or threads deliver them, and no window orders the
    queries. With v the values and s the scale of a group of n queries:
      mean    = s * sum(round(v / s)) / n
      stderr  = s * sqrt(sum(round(((v - mean) / s)^2)) / (n - 1)) / sqrt(n)   (n >= 2)
    Rounding moves a value by at most 5e-19 * s. NULL values (skipped queries) are left out.
    With query weights (weighted: the per-query rows carry a weight column), each weight w is
    divided by its group's largest weight W first (u = w / W in [0, 1]), and
      mean    = s * sum(round(u v / s)) / sum(round(u))
      stderr  = s * sqrt(n / (n - 1) * sum(round(u^2 ((v - mean) / s)^2))) / sum(round(u))
    the linearised standard error of a ratio mean sum(w v) / sum(w) (Cochran, Sampling
    Techniques, 3rd ed. 1977, section 6.11), which is s/sqrt(n) when every weight is equal.
    Under the rule of LightGBM and XGBoost (unweighted_no_relevant) a query with no relevant item adds 1, not
    w * 1, to the weighted sum: its term u v is 1 / W in both sums.

    A measure whose summary is a geometric mean (gm_map: geometric_measures, its per-query values
    the logarithms ln(max(AP, 1e-5)), trec_eval's) is summarised as above on the log scale, then
    taken back: mean exp(mean log) (trec_eval's te_calc_avg_meas_s_gm), stderr exp(mean log) times
    the standard error of the mean log (the delta method), and the interval's ends exp of the normal
    interval's ends of the mean log, clipped to [0, 1] (ci_method 'normal of the mean log,
    exponentiated, clipped to [0, 1]'; value_range 'log').

    The interval (NULL below 2 queries) respects the range of the values (value_range:
    sql/options/value_range.sql), and ci_method names it. With z = 1.959963984540054
    (Phi^-1(0.975)), p the mean and n the queries counted:
      'normal'                      mean -/+ z * stderr (the normal approximation, e.g. Sakai,
                                    SIGIR 2014 tutorial; compare's t interval is wider), for
                                    unbounded values (CG, DCG)
      'normal, clipped to [0, 1]'   the same with its ends clipped to [0, 1], for values in [0, 1]
                                    (NDCG, P, R, AP, RR)
      'wilson'                      (n p + z^2/2 -/+ z sqrt(n p (1 - p) + z^2/4)) / (n + z^2), the
                                    Wilson score interval (Wilson, JASA 22(158) 1927), which lies
                                    in [0, 1] and holds the mean (clipped, and exact at p = 0 and
                                    p = 1, against rounding only), for values 0 or 1 (Success@k,
                                    P@1, RR@1)

    Context: per_query_relation, segment_cols (quoted column names of those rows),
    output_query_col, cutoffs, measures (none for NDCG rows, else the asked measures with
    their place, name and value_range; unbounded_measures: the names of CG and DCG ones),
    ndcg_value_range (the range of NDCG's values), intervals; with a sample of the queries,
    sample_relation (its strata: sql/sample_strata.sql.j2): the standard error is multiplied by the
    finite-population correction sqrt(1 - f), f = sampled / population of the row's segment
    (Cochran, Sampling Techniques, 3rd ed. 1977, eq. 2.12 and ch. 5), values 0 or 1 get the
    clipped normal interval (Wilson's is for a count among n independent queries), and the row
    says it is an estimate with population, the queries the sample was drawn from. -#}
{%- macro _summary_segments(ctx, prefix) -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{% for s in segment_cols %}{{ prefix }}{{ s }}, {% endfor %}{%- endmacro -%}
{#- the same group: segment values may be NULL; k is NULL for the whole list (0 stands for it) -#}
{%- macro _summary_same(ctx, a, b, group) -%}
{{ ndcg_sql._summary_segment_is(ctx, a, b) }}{{ ndcg_sql._summary_group_is(a, b, group) }}
{%- endmacro -%}
{%- macro _summary_group_is(a, b, group) -%}
{%- if group == 'k' %}COALESCE({{ a }}.k, 0) = COALESCE({{ b }}.k, 0){% else %}{{ a }}.measure = {{ b }}.measure{% endif -%}
{%- endmacro -%}
{#- an end of the Wilson score interval (sign '-' low, '+' high) of the mean m.mean of m.queries
    values 0 or 1: NULL below 2 queries; at p = 0 the low end and at p = 1 the high end are the
    formula's exact values, 0 and 1 (computed, rounding left the high end 1 - 1e-16 below a mean of 1) -#}
{%- macro _wilson_end(sign) -%}
CASE WHEN m.queries < 2 THEN NULL WHEN m.mean = {{ 0 if sign == '-' else 1 }} THEN {{ '0.0' if sign == '-' else '1.0' }} ELSE CAST(m.queries * m.mean + 0.5 * 1.959963984540054 * 1.959963984540054 {{ sign }} 1.959963984540054 * SQRT(m.queries * m.mean * (1 - m.mean) + 0.25 * 1.959963984540054 * 1.959963984540054) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.queries + 1.959963984540054 * 1.959963984540054, 0) END
{%- endmacro -%}
{#- x, or for a group of a measure whose summary is a geometric mean (geometric: their names as SQL
    literals) exp(x) -#}
{%- macro _exp_of_geometric(geometric, x) -%}
{%- if geometric %}CASE WHEN g.measure IN ({{ geometric | join(', ') }}) THEN EXP({{ x }}) ELSE {{ x }} END{% else %}{{ x }}{% endif -%}
{%- endmacro -%}
{#- x clipped to [0, 1] (NULL stays NULL) -#}
{%- macro _clipped(x) -%}
CASE WHEN {{ x }} < 0 THEN 0.0 WHEN {{ x }} > 1 THEN 1.0 ELSE {{ x }} END
{%- endmacro -%}
{%- macro _summary_segment_is(ctx, a, b) -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- for s in segment_cols %}{{ a }}.{{ s }} IS NOT DISTINCT FROM {{ b }}.{{ s }} AND {% endfor -%}
{%- endmacro -%}
{% macro _summary(ctx) -%}
{%- set intervals = ctx['intervals'] -%}
{%- set measures = ctx['measures'] -%}
{%- set ndcg_value_range = ctx['ndcg_value_range'] -%}
{%- set per_query_relation = ctx['per_query_relation'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set unbounded_measures = ctx['unbounded_measures'] -%}
{%- set unweighted_no_relevant = ctx['unweighted_no_relevant'] -%}
{%- set weighted = ctx['weighted'] -%}
{#- a sample of the queries (sql/query_sample.sql.j2): its strata (sql/sample_strata.sql.j2) give the
    finite-population correction of the standard error -#}
{%- set sample_relation = ctx['sample_relation'] | default(none) -%}
{%- set sampled = sample_relation is not none -%}
{%- set by_measure = (measures | default(none)) is not none -%}
{%- set group = 'measure' if by_measure else 'k' -%}
{%- set scaled = by_measure and (unbounded_measures | default([])) -%}
{#- the interval's method for each range of values, and the ranges of this summary's groups -#}
{%- set is_weighted = weighted | default(false) -%}
{#- the rule of LightGBM and XGBoost (conventions 'lightgbm', 'xgboost' with weights, NDCG rows only): a query with no relevant
    item adds 1 to the weighted sum, not its weight (its weight still counts in sum(w)) -#}
{%- set lightgbm_rule = is_weighted and (unweighted_no_relevant | default(false)) and not by_measure -%}
{#- weighted: the Wilson interval is for a count of successes among n queries, which a weighted mean
    is not: values 0 or 1 get the normal interval clipped to [0, 1], as values in [0, 1] -#}
{%- set ci_methods = {'zero_one': 'normal, clipped to [0, 1]' if is_weighted or sampled else 'wilson', 'unit': 'normal, clipped to [0, 1]', 'unbounded': 'normal',
                      'log': 'normal of the mean log, exponentiated, clipped to [0, 1]'} -%}
{#- the measures whose summary is a geometric mean (gm_map): their values are logarithms, and the mean,
    its standard error and its interval's ends are taken back by exp at the end -#}
{%- set geometric = (ctx['geometric_measures'] | default([])) if by_measure else [] -%}

{%- set ranges = (measures | map(attribute='value_range') | unique | list) if by_measure else [ndcg_value_range] -%}
{%- if is_weighted or sampled -%}
{%- set ranges = ranges | map('replace', 'zero_one', 'unit') | unique | list -%}
{%- endif -%}






WITH
{%- if by_measure %}
summary_groups AS ( -- one row per asked measure: its place in the output{% if intervals %} and its interval's method{% endif %}
  {%- for m in measures %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ m.order }} AS place, {{ m.name_sql }} AS measure{% if intervals %}, '{{ ci_methods[m.value_range] }}' AS ci_method{% endif %}
  {%- endfor %}
),
{%- else %}
{{ ndcg_sql._cutoffs(ctx) }},
summary_groups AS ( -- one row per cutoff: its place in the output{% if intervals %} and its interval's method{% endif %}
  SELECT cutoff_id AS place, k{% if intervals %}, '{{ ci_methods[ndcg_value_range] }}' AS ci_method{% endif %} FROM cutoffs
),
{%- endif %}
summary_values AS ( -- one row per ([segment,] query, {{ group }}): the value{% if not by_measure %} and whether IDCG@k is 0{% endif %}
  SELECT {{ ndcg_sql._summary_segments(ctx, '') }}{{ group }}, {% if by_measure %}value{% else %}ndcg AS value, CASE WHEN idcg > 0 THEN 0 ELSE 1 END AS no_relevant{% endif %}{% if is_weighted %}, weight{% endif %}
  FROM {{ per_query_relation }}
),
{%- if is_weighted %}
summary_weight_scales AS ( -- one row per ([segment,] {{ group }}): the largest weight, by which every weight is divided before it is summed
  SELECT {{ ndcg_sql._summary_segments(ctx, '') }}{{ group }}, CASE WHEN MAX(weight) > 0 THEN MAX(weight) ELSE 1.0 END AS weight_scale
  FROM summary_values
  GROUP BY {{ ndcg_sql._summary_segments(ctx, '') }}{{ group }}
),
{%- endif %}
{%- if scaled %}
summary_scales AS ( -- one row per ([segment,] measure): the scale its values are summed at
  SELECT
    {{ ndcg_sql._summary_segments(ctx, '') }}measure,
    CASE WHEN measure IN ({{ unbounded_measures | join(', ') }}) AND MAX(ABS(value)) > 1.0 THEN MAX(ABS(value)) ELSE 1.0 END AS scale
  FROM summary_values
  GROUP BY {{ ndcg_sql._summary_segments(ctx, '') }}measure
),
{%- endif %}
summary_sums AS ( -- one row per ([segment,] {{ group }}): exact sums and counts
  SELECT
    {{ ndcg_sql._summary_segments(ctx, 'v.') }}v.{{ group }},
    {% if scaled %}s.scale{% else %}1.0{% endif %} AS scale,
    {%- set scaled_value %}{% if scaled %}CAST(v.value AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(s.scale, 0){% else %}v.value{% endif %}{% endset %}
    {%- if is_weighted %}
    w.weight_scale,
    SUM(CAST({% if lightgbm_rule %}CASE WHEN v.no_relevant = 1 THEN CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(w.weight_scale, 0) ELSE {% endif %}(CAST(v.weight AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(w.weight_scale, 0)) * {{ scaled_value }}{% if lightgbm_rule %} END{% endif %} AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_sum,
    SUM(CASE WHEN v.value IS NOT NULL THEN CAST(CAST(v.weight AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(w.weight_scale, 0) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }}) END) AS weight_sum,
    {%- else %}
    SUM(CAST({{ scaled_value }} AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_sum,
    {%- endif %}
    COUNT(v.value) AS queries,
    COUNT(*) AS evaluated{% if not by_measure %},
    SUM(v.no_relevant) AS no_relevant{% endif %}
  FROM summary_values AS v
  {%- if scaled %}
  INNER JOIN summary_scales AS s ON {{ ndcg_sql._summary_same(ctx, 'v', 's', group) }}
  {%- endif %}
  {%- if is_weighted %}
  INNER JOIN summary_weight_scales AS w ON {{ ndcg_sql._summary_same(ctx, 'v', 'w', group) }}
  {%- endif %}
  GROUP BY {{ ndcg_sql._summary_segments(ctx, 'v.') }}v.{{ group }}{% if scaled %}, s.scale{% endif %}{% if is_weighted %}, w.weight_scale{% endif %}
),
summary_means AS ( -- one row per ([segment,] {{ group }}): the mean
  SELECT
    *,
    {% if scaled %}CAST(scale * CAST(scaled_sum AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(scaled_sum AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} / NULLIF({% if is_weighted %}CAST(weight_sum AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}queries{% endif %}, 0) AS mean
  FROM summary_sums
)
{%- if intervals %},
summary_spreads AS ( -- one row per ([segment,] {{ group }}): the exact sum of squared scaled deviations from the mean
  SELECT
    {{ ndcg_sql._summary_segments(ctx, 'v.') }}v.{{ group }},
    {%- if is_weighted %}
    {#- (u v - u mean)^2, u = w / W; under LightGBM's rule u v is 1 / W for a query with no relevant item #}
    {%- set term %}{% if lightgbm_rule %}CASE WHEN v.no_relevant = 1 THEN CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.weight_scale, 0) ELSE {% endif %}(CAST(v.weight AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.weight_scale, 0)) * CAST(v.value AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0){% if lightgbm_rule %} END{% endif %}{% endset %}
    {%- set centre %}(CAST(v.weight AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.weight_scale, 0)) * CAST(m.mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0){% endset %}
    SUM(CAST(({{ term }} - {{ centre }}) * ({{ term }} - {{ centre }}) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_squares
    {%- else %}
    SUM(CAST((CAST(v.value - m.mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) * (CAST(v.value - m.mean AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.scale, 0)) AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }})) AS scaled_squares
    {%- endif %}
  FROM summary_values AS v
  INNER JOIN summary_means AS m ON {{ ndcg_sql._summary_same(ctx, 'v', 'm', group) }}
  GROUP BY {{ ndcg_sql._summary_segments(ctx, 'v.') }}v.{{ group }}
),
summary_errors AS ( -- one row per ([segment,] {{ group }}): the standard error of the mean
  SELECT
    {{ ndcg_sql._summary_segments(ctx, 'm.') }}m.{{ group }},
    CASE WHEN m.queries >= 2 THEN
      {%- if is_weighted %}
      CAST(m.scale * SQRT(CAST(m.queries AS {{ ndcg_sql.sql_type('DOUBLE') }}) * CAST(d.scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(m.queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)) AS {{ ndcg_sql.sql_type('DOUBLE') }})
        / NULLIF(CAST(m.weight_sum AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)
      {%- else %}
      CAST(m.scale * SQRT(CAST(d.scaled_squares AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(m.queries - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)) AS {{ ndcg_sql.sql_type('DOUBLE') }})
        / NULLIF(SQRT(CAST(m.queries AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0)
      {%- endif %}
      {%- if sampled %}
        * SQRT(1.0 - CAST(p.sampled AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CAST(p.population AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0))
      {%- endif %}
    END AS stderr{% if sampled %},
    p.population{% endif %}
  FROM summary_means AS m
  INNER JOIN summary_spreads AS d ON {{ ndcg_sql._summary_same(ctx, 'm', 'd', group) }}
  {%- if sampled and segment_cols %}
  INNER JOIN {{ sample_relation }} AS p ON {% for s in segment_cols %}{% if not loop.first %} AND {% endif %}m.{{ s }} IS NOT DISTINCT FROM p.{{ s }}{% endfor %}
  {%- elif sampled %}
  CROSS JOIN {{ sample_relation }} AS p
  {%- endif %}
),
summary_bounds AS ( -- one row per ([segment,] {{ group }}): the standard error and the ends of the interval, before clipping
  SELECT
    {{ ndcg_sql._summary_segments(ctx, 'e.') }}e.{{ group }},
    e.stderr,{% if sampled %}
    e.population,{% endif %}
    {%- for side, sign in [('low', '-'), ('high', '+')] %}
    {% if ranges == ['zero_one'] -%}
    {{ ndcg_sql._wilson_end(sign) }}
    {%- elif 'zero_one' in ranges -%}
    CASE WHEN g.ci_method <> '{{ ci_methods['zero_one'] }}' THEN m.mean {{ sign }} 1.959963984540054 * e.stderr ELSE {{ ndcg_sql._wilson_end(sign) }} END
    {%- else -%}
    m.mean {{ sign }} 1.959963984540054 * e.stderr
    {%- endif %} AS ci_{{ side }}{% if not loop.last %},{% endif %}
    {%- endfor %}
  FROM summary_errors AS e
  INNER JOIN summary_means AS m ON {{ ndcg_sql._summary_same(ctx, 'e', 'm', group) }}
  {%- if 'zero_one' in ranges and ranges | length > 1 %}
  INNER JOIN summary_groups AS g ON {{ ndcg_sql._summary_group_is('g', 'e', group) }}
  {%- endif %}
)
{%- endif %}
SELECT
  {{ ndcg_sql._summary_segments(ctx, 'm.') }}g.{{ group }},
  {{ ndcg_sql._exp_of_geometric(geometric, 'm.mean') }} AS {% if by_measure %}mean{% else %}ndcg{% endif %},
  CAST(COALESCE(m.queries, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS queries,
  {%- if not by_measure %}
  CAST(COALESCE(m.no_relevant, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS no_relevant,
  {%- endif %}
  CAST(COALESCE(m.evaluated, 0) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS evaluated
  {%- if intervals %},
  {% if geometric %}CASE WHEN g.measure IN ({{ geometric | join(', ') }}) THEN EXP(m.mean) * e.stderr ELSE e.stderr END AS stderr{% else %}e.stderr{% endif %},
  {%- for side in ['low', 'high'] %}
  {%- set end = ndcg_sql._exp_of_geometric(geometric, 'e.ci_' ~ side) %}
  {% if 'unbounded' not in ranges -%}
  {{ ndcg_sql._clipped(end) }}
  {%- elif ranges == ['unbounded'] -%}
  e.ci_{{ side }}
  {%- else -%}
  CASE WHEN g.ci_method = '{{ ci_methods['unbounded'] }}' THEN e.ci_{{ side }} ELSE {{ ndcg_sql._clipped(end) }} END
  {%- endif %} AS ci_{{ side }},
  {%- endfor %}
  g.ci_method{% if sampled %},
  e.population{% endif %}
  {%- endif %}
{#- Without segments every group asked gets a row; with segments the groups of each segment are
    those of its rows (every evaluated query has a row for every cutoff or measure), with no
    cross join of segments and groups (Spark fails to ship a UNION under a cross join). #}
FROM summary_groups AS g
{% if segment_cols %}INNER{% else %}LEFT{% endif %} JOIN summary_means AS m ON {{ ndcg_sql._summary_group_is('g', 'm', group) }}
{%- if intervals %}
LEFT JOIN summary_bounds AS e ON {{ ndcg_sql._summary_segment_is(ctx, 'm', 'e') }}{{ ndcg_sql._summary_group_is('g', 'e', group) }}
{%- endif %}
ORDER BY {% for s in segment_cols %}m.{{ s }} ASC NULLS LAST, {% endfor %}g.place ASC NULLS LAST
{% endmacro %}
