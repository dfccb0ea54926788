{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The name of the engine's function giving a character's code point (DuckDB's UNICODE, as sqlglot
    translates it): the query keys' hashes (sql/query_keys.sql.j2). -#}
{% macro char_code() -%}
  {{ return(adapter.dispatch('char_code', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default__char_code() -%}
  {%- set value = "UNICODE" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro spark__char_code() -%}
  {%- set value = "ASCII" -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres__char_code() -%}
  {%- set value = "ASCII" -%}
  {{ return(value) }}
{%- endmacro %}
