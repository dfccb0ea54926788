{#- An option's value normalised as ndcg_sql/options.py does (lower case, '_' -> '-'),
    or a compiler error listing the allowed values. -#}
{% macro option_choice(name, value, allowed) -%}
  {%- set normalised = (value | string | replace('_', '-') | lower) if value is string else none -%}
  {%- if normalised not in allowed -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ name ~ " must be one of " ~ allowed | join(', ') ~ "; got " ~ value) }}
  {%- endif -%}
  {{ return(normalised) }}
{%- endmacro %}
