{#- The context of the regression tests (sql/period_changes.sql.j2, sql/arm_changes.sql.j2)
    from their options (a dict), checked, with the critical values they read
    (sql/options/t_critical_values.sql):
      per_query_relation  the per-query rows: ndcg_per_query's (k, ndcg) with k, or
                  ndcg_measures' (measure, value) with measures
      query_col, segment_cols  the query column and the other segment columns of those rows
      group_col   the period column (a day), or the arm column
      k / measures  the values tested: cutoffs of NDCG@k (default 10), or measure names
      baseline    (arms) the baseline arm's value, a string or a number
      alpha       the one-sided level of the family, one of the tabulated levels
                  (0.1, 0.05, 0.025, 0.01, ...)
      correction  'none', or 'bonferroni': each of the m tests of a family at level alpha / m,
                  rounded down to a tabulated level (conservative). Holm's procedure needs
                  each test's p-value, which the table gives only as a bracket: refused.
      min_effect  a drop smaller than this (in the measure's units; for gm_map the relative drop of
                  the geometric mean, 1 - the ratio) is never significant: >= 0
      window      (periods) how many earlier periods the trailing window holds: >= 1
    Returns the templates' context: the options checked, the names quoted, tested_cutoffs
    ([{'k', 'name_sql'}]) or tested_measures ([name_sql]) and geometric_measures (those of them whose
    summary is a geometric mean, gm_map: tested on their logarithms, reported as ratios), baseline_sql, levels (largest first)
    and critical_rows ([{'df', 'c': one value a level}]). -#}
{% macro _regression_context(options) -%}
  {%- set fail = ndcg_sql._option_error -%}
  {%- set table = ndcg_sql._t_critical_values() -%}
  {%- set alpha, min_effect, window = options['alpha'], options['min_effect'], options.get('window') -%}
  {%- if alpha is boolean or alpha is not number or alpha not in table['levels'] -%}
    {{ fail("alpha must be one of the tabulated one-sided levels " ~ table['levels'] | join(', ') ~ "; got " ~ ndcg_sql._shown(alpha)) }}
  {%- endif -%}
  {%- set correction = ndcg_sql._option_choice('correction', options['correction'], ['none', 'bonferroni', 'holm']) -%}
  {%- if correction == 'holm' -%}
    {{ fail("correction='holm' needs each test's p-value, which the critical-value table gives only as a bracket: use 'bonferroni' or 'none'") }}
  {%- endif -%}
  {%- if min_effect is boolean or min_effect is not number or not min_effect >= 0 -%}
    {{ fail("min_effect must be a number >= 0; got " ~ ndcg_sql._shown(min_effect)) }}
  {%- endif -%}
  {%- if window is not none and (window is boolean or window is not integer or window < 1) -%}
    {{ fail("window must be a positive integer (periods); got " ~ ndcg_sql._shown(window)) }}
  {%- endif -%}
  {%- set group_col = options['group_col'] -%}
  {%- set segments = ndcg_sql._segment_list((options['segment_cols'] or []) + [group_col], options['query_col']) -%}
  {%- set segment_cols = [] -%}
  {%- for name in segments if name != group_col -%}{%- do segment_cols.append(ndcg_sql.quote_identifier(name)) -%}{%- endfor -%}
  {%- set out = {'per_query_relation': options['per_query_relation'], 'segment_cols': segment_cols,
                 'group_col': ndcg_sql.quote_identifier(group_col), 'output_query_col': ndcg_sql.quote_identifier(options['query_col']),
                 'alpha': alpha, 'correction': correction, 'min_effect': min_effect, 'window': window,
                 'tested_cutoffs': none, 'tested_measures': none, 'geometric_measures': [], 'baseline_sql': none, 'levels': table['levels']} -%}
  {%- if options['measures'] is not none -%}
    {%- if options['k'] is not none -%}{{ fail("give k (NDCG@k rows) or measures (measure rows), not both") }}{%- endif -%}
    {%- set names, geometric = [], [] -%}
    {%- for m in ndcg_sql._compared_measures(options['measures']) if ndcg_sql.string_literal(m['name']) not in names -%}
      {%- do names.append(ndcg_sql.string_literal(m['name'])) -%}
      {%- if m['geometric'] %}{% do geometric.append(ndcg_sql.string_literal(m['name'])) %}{% endif -%}
    {%- endfor -%}
    {%- do out.update({'tested_measures': names, 'geometric_measures': geometric}) -%}
  {%- else -%}
    {%- set cutoffs = [] -%}
    {%- for k in ndcg_sql._parse_cutoffs(10 if options['k'] is none else options['k']) -%}
      {%- do cutoffs.append({'k': k, 'name_sql': ndcg_sql.string_literal('nDCG' if k is none else 'nDCG@' ~ k)}) -%}
    {%- endfor -%}
    {%- do out.update({'tested_cutoffs': cutoffs}) -%}
  {%- endif -%}
  {%- if 'baseline' in options -%}
    {%- set baseline = options['baseline'] -%}
    {%- if baseline is string -%}
      {%- do out.update({'baseline_sql': ndcg_sql.string_literal(baseline)}) -%}
    {%- elif baseline is number and baseline is not boolean -%}
      {%- do out.update({'baseline_sql': baseline | string}) -%}
    {%- else -%}
      {{ fail("baseline must be the baseline arm's value (a string or a number); got " ~ ndcg_sql._shown(baseline)) }}
    {%- endif -%}
  {%- endif -%}
  {%- set rows = [] -%}
  {%- for df in table['df'] -%}{%- do rows.append({'df': df, 'c': table['critical'][loop.index0]}) -%}{%- endfor -%}
  {%- do out.update({'critical_rows': rows}) -%}
  {{ return(out) }}
{%- endmacro %}
