{#- An option's value normalised (lower case, '_' -> '-') and checked against the allowed
    values (ndcg_sql/vocabulary/parameters.py, through ndcg_sql._option_table()); an option error otherwise. -#}
{% macro _option_choice(name, value, allowed) -%}
  {%- set normalised = (value | replace('_', '-') | lower) if value is string else none -%}
  {%- if normalised not in allowed -%}
    {{ ndcg_sql._option_error(name ~ " must be one of " ~ allowed | join(', ') ~ "; got " ~ ndcg_sql._shown(value)) }}
  {%- endif -%}
  {{ return(normalised) }}
{%- endmacro %}
