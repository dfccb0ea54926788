{#- Copied from sql/options/sample.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- The sample option: a fraction in (0, 1] of the queries (sql/query_sample.sql.j2), or none.
    Returns none, or {'fraction': it, 'threshold': the integer a query's draw (a state of the
    generator of sql/random_draws.sql.j2, uniform on 0 .. 2^31 - 2) must be below for the query
    to be in the sample, round(fraction * (2^31 - 1)), at least 1}; anything else is an option error. -#}
{% macro _checked_sample(sample) -%}
  {%- if sample is none -%}{{ return(none) }}{%- endif -%}
  {%- if sample is boolean or sample is not number or not 0 < sample <= 1 -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('sample') ~ " must be a fraction of the queries, greater than 0 and at most 1; got "
       ~ ndcg_sql._shown(sample)) }}
  {%- endif -%}
  {%- set threshold = (sample * 2147483647) | round | int -%}
  {%- if threshold < 1 -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('sample') ~ " must be at least 1 / (2^31 - 1), the generator's resolution; got " ~ sample) }}
  {%- endif -%}
  {{ return({'fraction': sample | float, 'threshold': threshold}) }}
{%- endmacro %}
