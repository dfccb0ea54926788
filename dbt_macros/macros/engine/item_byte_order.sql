{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The internal item column compared in byte order (ties item-asc/item-desc/input-order on text ids). -#}
{% macro item_byte_order() -%}
  {{ return(adapter.dispatch('item_byte_order', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default__item_byte_order() -%}
  {%- set value = "item" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro snowflake__item_byte_order() -%}
  {%- set value = "COLLATE(item, 'utf8')" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres__item_byte_order() -%}
  {%- set value = "item COLLATE \"C\"" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro redshift__item_byte_order() -%}
  {%- set value = "item" -%}
  {{ return(value) }}
{%- endmacro %}
