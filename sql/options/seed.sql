{#- The seed of the bootstrap resamples and of compare's sampled sign patterns: a non-negative
    integer below 2^63, so that the generator's integer arithmetic stays in every engine's
    BIGINT (sql/random_draws.sql.j2). Returns the seed; anything else is an option error. -#}
{% macro _checked_seed(seed) -%}
  {%- if seed is not integer or not 0 <= seed < 9223372036854775808 -%}
    {{ ndcg_sql._option_error("seed must be a non-negative integer; got " ~ ndcg_sql._shown(seed)) }}
  {%- endif -%}
  {{ return(seed) }}
{%- endmacro %}
