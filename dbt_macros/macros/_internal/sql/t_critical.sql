{#- Copied from sql/t_critical.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- One-sided critical values of Student's t, and what the regression tests read from them
    (sql/period_changes.sql.j2, sql/arm_changes.sql.j2). No engine has a t distribution in
    SQL: the values are a table written with scipy (tools/t_table.py ->
    sql/options/t_critical_values.sql), c(a, df) = scipy.stats.t.isf(a, df) for the levels a
    (0.1, 0.05, 0.025, 0.01, ... 1e-6) and df = 1 .. 30, 35, 40, ... 100,000.
      tabulated df      the largest tabulated df at or below a test's df (Welch's df is
                        fractional): c falls as df grows, so this is conservative; past
                        100,000 that row (never the normal limit)
      p_value_below     the smallest level a with t <= -c(a, tabulated df): the one-sided
                        p-value of a drop is at most this (NULL: above 0.1, or t undefined)
      decision_level    alpha, or with correction 'bonferroni' and m tests in the family
                        alpha / m rounded down to a tabulated level (NULL below the smallest)
    A drop is significant when p_value_below <= decision_level, that is t <= -c(decision
    level, tabulated df), and the drop is at least min_effect.
    _t_decisions writes the CTEs t_critical, bracketed, families and decided (one row per test
    of tests_relation, with p_value_below, tests and decision_level), a family per value of the
    columns `family` (none: one family).
    Context: critical_rows ([{'df', 'c'}]), levels, alpha, correction. -#}
{% macro _t_decisions(ctx, tests_relation, family) -%}
{{ ndcg_sql._t_critical(ctx) }},
bracketed AS ( -- one row per test: the bracket of the one-sided p-value of a drop
  SELECT x.*, {{ ndcg_sql._p_value_below(ctx, 'x.t', 'c') }} AS p_value_below
  FROM {{ tests_relation }} AS x
  LEFT JOIN t_critical AS c ON c.df = {{ ndcg_sql._tabulated_df(ctx, 'x.df') }}
),
families AS ( -- one row per family of tests: how many tests it holds (those with a t)
  SELECT {% for f in family %}{{ f }}, {% endfor %}COUNT(t) AS tests
  FROM bracketed
  {%- if family %}
  GROUP BY {{ family | join(', ') }}
  {%- endif %}
),
decided AS ( -- one row per test: its family's size and the level it is decided at
  SELECT b.*, CAST(f.tests AS {{ ndcg_sql.sql_type('BIGINT') }}) AS tests, {{ ndcg_sql._decision_level(ctx, 'f.tests') }} AS decision_level
  FROM bracketed AS b
  {% if family %}INNER JOIN families AS f ON {% for f in family %}{% if not loop.first %} AND {% endif %}b.{{ f }} = f.{{ f }}{% endfor %}{% else %}CROSS JOIN families AS f{% endif %}
)
{%- endmacro %}
{% macro _t_critical(ctx) -%}
t_critical AS ( -- one row per tabulated df: the critical value c_i of each level i
  {%- for row in ctx['critical_rows'] %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ row.df }} AS df{% for c in row.c %}, {{ c }} AS c_{{ loop.index }}{% endfor %}
  {%- endfor %}
)
{%- endmacro %}
{#- the largest tabulated df at or below df (df >= 1 for every defined test) -#}
{% macro _tabulated_df(ctx, df) -%}
CASE{% for row in ctx['critical_rows'] | reverse %}{% if not loop.last %} WHEN {{ df }} >= {{ row.df }} THEN {{ row.df }}{% else %} ELSE {{ row.df }}{% endif %}{% endfor %} END
{%- endmacro %}
{#- the smallest level whose critical value t reaches (c: the alias of the t_critical row) -#}
{% macro _p_value_below(ctx, t, c) -%}
CAST(CASE{% for level in ctx['levels'] | reverse %} WHEN {{ t }} <= -{{ c }}.c_{{ ctx['levels'] | length - loop.index0 }} THEN {{ level }}{% endfor %} END AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
{#- the level each test of a family of `tests` tests is decided at -#}
{% macro _decision_level(ctx, tests) -%}
{%- if ctx['correction'] == 'none' -%}
CAST({{ ctx['alpha'] }} AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- else -%}
CAST(CASE{% for level in ctx['levels'] %} WHEN {{ tests }} * {{ level }} <= {{ ctx['alpha'] }} * (1 + 1e-12) THEN {{ level }}{% endfor %} END AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endif -%}
{%- endmacro %}
{#- the p-value bracket adjusted for the family (Bonferroni: m times, at most 1) -#}
{% macro _adjusted_p_value_below(ctx, p, tests) -%}
{%- if ctx['correction'] == 'none' -%}
{{ p }}
{%- else -%}
CAST(CASE WHEN {{ p }} * {{ tests }} < 1 THEN {{ p }} * {{ tests }} WHEN {{ p }} IS NOT NULL THEN 1.0 END AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endif -%}
{%- endmacro %}
