{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- A text as a string literal of the engine (quote and backslash escaped as sqlglot writes them). -#}
{% macro string_literal(text) -%}
  {{ return(adapter.dispatch('string_literal', 'ndcg_sql')(text)) }}
{%- endmacro %}

{% macro default__string_literal(text) -%}
  {%- set value = {"open": "'", "close": "'", "quote": "''", "backslash": "\\"} -%}
  {{ return(value['open'] ~ (text | string | replace('\\', value['backslash']) | replace("'", value['quote'])) ~ value['close']) }}
{%- endmacro %}

{% macro bigquery__string_literal(text) -%}
  {%- set value = {"open": "'", "close": "'", "quote": "\\'", "backslash": "\\\\"} -%}
  {{ return(value['open'] ~ (text | string | replace('\\', value['backslash']) | replace("'", value['quote'])) ~ value['close']) }}
{%- endmacro %}

{% macro snowflake__string_literal(text) -%}
  {%- set value = {"open": "'", "close": "'", "quote": "''", "backslash": "\\\\"} -%}
  {{ return(value['open'] ~ (text | string | replace('\\', value['backslash']) | replace("'", value['quote'])) ~ value['close']) }}
{%- endmacro %}

{% macro spark__string_literal(text) -%}
  {%- set value = {"open": "'", "close": "'", "quote": "\\'", "backslash": "\\\\"} -%}
  {{ return(value['open'] ~ (text | string | replace('\\', value['backslash']) | replace("'", value['quote'])) ~ value['close']) }}
{%- endmacro %}

{% macro redshift__string_literal(text) -%}
  {%- set value = {"open": "'", "close": "'", "quote": "''", "backslash": "\\\\"} -%}
  {{ return(value['open'] ~ (text | string | replace('\\', value['backslash']) | replace("'", value['quote'])) ~ value['close']) }}
{%- endmacro %}
