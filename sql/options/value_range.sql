{#- The range of a measure's per-query values (ndcg_sql/vocabulary/measures.py: zero_one, zero_one_at_1,
    unbounded), which decides the interval of its mean in the summary (sql/summary.sql.j2):
    'zero_one' (every value 0 or 1: Success@k at every cutoff, P@1 and RR@1) for the Wilson
    score interval, 'unbounded' (CG, DCG) for the normal interval, and 'unit' (every value in
    [0, 1]: nDCG, P, R, AP, RR) for the normal interval clipped to [0, 1], and 'log' (logarithms
    of values in (0, 1]: gm_map) for the normal interval of their mean, exponentiated and clipped
    to [0, 1]. measure: a parsed
    measure ({'family', 'k', ...}: sql/options/parse_measures.sql). -#}
{% macro _value_range(measure) -%}
  {%- set grammar = ndcg_sql._measure_grammar() -%}
  {%- set range = 'unit' -%}
  {%- if measure['family'] in grammar['unbounded'] -%}
    {%- set range = 'unbounded' -%}
  {%- elif measure['family'] in grammar['log'] -%}
    {%- set range = 'log' -%}
  {%- elif measure['family'] in grammar['zero_one'] or (measure['k'] == 1 and measure['family'] in grammar['zero_one_at_1']) -%}
    {%- set range = 'zero_one' -%}
  {%- endif -%}
  {{ return(range) }}
{%- endmacro %}
