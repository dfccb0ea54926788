{#- Copied from sql/options/shown.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- A value as the messages show it, as Python's repr() would: text in single quotes,
    none as None, booleans as True / False. -#}
{% macro _shown(value) -%}
  {%- if value is string -%}{{ return("'" ~ value ~ "'") }}
  {%- elif value is none -%}{{ return('None') }}
  {%- elif value is sameas true -%}{{ return('True') }}
  {%- elif value is sameas false -%}{{ return('False') }}
  {%- else -%}{{ return(value | string) }}
  {%- endif -%}
{%- endmacro %}
