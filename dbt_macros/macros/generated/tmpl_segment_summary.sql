{#- Generated from sql/segment_summary.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro tmpl_segment_summary(group_cols, group_name, group_order, mean_name, output_query_col, per_query_relation, segment_cols, value_col) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if group_cols is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'group_cols'") }}{% endif -%}
{%- if group_name is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'group_name'") }}{% endif -%}
{%- if group_order is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'group_order'") }}{% endif -%}
{%- if mean_name is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'mean_name'") }}{% endif -%}
{%- if output_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'output_query_col'") }}{% endif -%}
{%- if per_query_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'per_query_relation'") }}{% endif -%}
{%- if segment_cols is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'segment_cols'") }}{% endif -%}
{%- if value_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_segment_summary: the template context has no 'value_col'") }}{% endif -%}
{%- set ndcg_context = {'group_cols': group_cols, 'group_name': group_name, 'group_order': group_order, 'mean_name': mean_name, 'output_query_col': output_query_col, 'per_query_relation': per_query_relation, 'segment_cols': segment_cols, 'value_col': value_col} -%}
{#- Summary per segment: one row per (segment values, {{ group_name }}) with
    the mean of {{ value_col }} over the segment's queries, how many were
    counted, the standard error and the 95% interval
    (sql/mean_intervals.sql.j2 holds the formulas; group_cols are the segment
    columns, then {{ group_name }}). -#}
WITH
intervals AS ( -- one row per (segment, group): mean, n, stderr, interval
{% with %}{#- Mean, standard error and 95% confidence interval of a per-query value, per group
    (group_cols: columns of the per-query rows, e.g. the segment columns and k
    or measure; output as group_1, group_2, ...).
    mean = sum / n (summed in query order, so it does not depend on threads;
    query ids are never NULL here, so NULLS FIRST/LAST changes nothing, and
    ascending NULLS FIRST is the form BigQuery's window frames accept);
    standard error SE = s / sqrt(n) with s the sample standard deviation
    (n - 1 in the denominator); interval mean -/+ 1.959963984540054 * SE, the
    normal approximation (z = Phi^-1(0.975); e.g. Sakai, "Statistical
    Significance, Power, and Sample Sizes", SIGIR 2014 tutorial; for small n
    the t interval of ndcg_sql.compare is wider). NULL values (skipped
    queries) are left out; SE and the interval are NULL for n < 2. -#}
WITH
summed_values AS ( -- one row per (group, query): the running sum in query order, and the row's place from the last
  SELECT
    {%- for g in group_cols %}
    {{ g }} AS group_{{ loop.index }},
    {%- endfor %}
    {{ value_col }} AS value,
    SUM({{ value_col }}) OVER (
      PARTITION BY {{ group_cols | join(', ') }} ORDER BY {{ output_query_col }} ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_sum,
    ROW_NUMBER() OVER (PARTITION BY {{ group_cols | join(', ') }} ORDER BY {{ output_query_col }} DESC NULLS LAST) AS from_last
  FROM {{ per_query_relation }}
),
group_moments AS ( -- one row per group: mean, sample standard deviation, count
  SELECT
    {%- for g in group_cols %}
    group_{{ loop.index }},
    {%- endfor %}
    CAST(MAX(CASE WHEN from_last = 1 THEN running_sum END) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(COUNT(value), 0) AS mean,
    STDDEV_SAMP(value) AS sd,
    COUNT(value) AS n
  FROM summed_values
  GROUP BY {% for g in group_cols %}{% if not loop.first %}, {% endif %}group_{{ loop.index }}{% endfor %}
)
SELECT
  {%- for g in group_cols %}
  group_{{ loop.index }},
  {%- endfor %}
  mean,
  n,
  CASE WHEN n >= 2 THEN CAST(sd AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(SQRT(n), 0) END AS stderr,
  CASE WHEN n >= 2 THEN mean - CAST(1.959963984540054 * sd AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(SQRT(n), 0) END AS ci_low,
  CASE WHEN n >= 2 THEN mean + CAST(1.959963984540054 * sd AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(SQRT(n), 0) END AS ci_high
FROM group_moments
{% endwith %}
)
SELECT
  {%- for s in segment_cols %}
  group_{{ loop.index }} AS {{ s }},
  {%- endfor %}
  group_{{ group_cols | length }} AS {{ group_name }},
  mean AS {{ mean_name }},
  CAST(n AS {{ ndcg_sql.sql_type('BIGINT') }}) AS queries,
  stderr,
  ci_low,
  ci_high
FROM intervals
ORDER BY {% for s in segment_cols %}group_{{ loop.index }} ASC NULLS LAST, {% endfor %}{{ group_order }}
{%- endmacro %}
