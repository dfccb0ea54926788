{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- What the engine does to an unquoted name: 'upper', 'lower' or none. -#}
{% macro name_fold() -%}
  {{ return(adapter.dispatch('name_fold', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default__name_fold() -%}
  {%- set value = none -%}
  {{ return(value) }}
{%- endmacro %}

{% macro snowflake__name_fold() -%}
  {%- set value = "upper" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres__name_fold() -%}
  {%- set value = "lower" -%}
  {{ return(value) }}
{%- endmacro %}
