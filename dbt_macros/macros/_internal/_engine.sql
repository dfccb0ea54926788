{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The engine's name (as ndcg_sql names it), whether it has a 4-byte float, a top-N aggregate and
    lists indexed by position. -#}
{% macro _engine() -%}
  {{ return(adapter.dispatch('_engine', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default___engine() -%}
  {%- set value = {"name": "duckdb", "float32": true, "top_n": true, "position_lists": true} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro bigquery___engine() -%}
  {%- set value = {"name": "bigquery", "float32": false, "top_n": false, "position_lists": false} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro snowflake___engine() -%}
  {%- set value = {"name": "snowflake", "float32": false, "top_n": false, "position_lists": false} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro spark___engine() -%}
  {%- set value = {"name": "spark", "float32": true, "top_n": false, "position_lists": false} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres___engine() -%}
  {%- set value = {"name": "postgres", "float32": true, "top_n": false, "position_lists": false} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro redshift___engine() -%}
  {%- set value = {"name": "redshift", "float32": true, "top_n": false, "position_lists": false} -%}
  {{ return(value) }}
{%- endmacro %}
