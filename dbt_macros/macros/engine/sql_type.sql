{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- A DuckDB type name of a CAST as the engine writes it (sqlglot's translation); a type the engine
    lacks (a 4-byte FLOAT on BigQuery and Snowflake) is none. -#}
{% macro sql_type(name) -%}
  {{ return(adapter.dispatch('sql_type', 'ndcg_sql')(name)) }}
{%- endmacro %}

{% macro default__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE", "FLOAT": "FLOAT", "VARCHAR": "VARCHAR"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro bigquery__sql_type(name) -%}
  {%- set value = {"BIGINT": "INT64", "DECIMAL(38, 18)": "BIGNUMERIC", "DOUBLE": "FLOAT64", "FLOAT": none, "VARCHAR": "STRING"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro snowflake__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE", "FLOAT": none, "VARCHAR": "VARCHAR"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro spark__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE", "FLOAT": "FLOAT", "VARCHAR": "STRING"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro postgres__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE PRECISION", "FLOAT": "REAL", "VARCHAR": "TEXT"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro redshift__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE PRECISION", "FLOAT": "REAL", "VARCHAR": "VARCHAR(MAX)"} -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}
