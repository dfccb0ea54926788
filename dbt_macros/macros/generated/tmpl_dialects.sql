{#- Generated from ndcg_sql/dialects.py by `python -m ndcg_sql.dbt_gen`: do not edit.
    What differs per engine, for the generated macros: DuckDB (the templates' own SQL) is the
    default__ variant; other engines have a variant only where they differ. -#}
{#- A DuckDB type name of a CAST as the engine writes it (sqlglot's translation). -#}
{% macro sql_type(name) -%}
  {{ return(adapter.dispatch('sql_type', 'ndcg_sql')(name)) }}
{%- endmacro %}

{% macro default__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE", "FLOAT": "FLOAT"} -%}
  {%- if value.get(name, 'unknown') is none -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ target.type ~ " has no 4-byte float type: scores "
       ~ "cannot be compared as float32 there (score_precision / conventions trec_eval, xgboost)") }}
  {%- endif -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro bigquery__sql_type(name) -%}
  {%- set value = {"BIGINT": "INT64", "DECIMAL(38, 18)": "BIGNUMERIC", "DOUBLE": "FLOAT64", "FLOAT": none} -%}
  {%- if value.get(name, 'unknown') is none -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ target.type ~ " has no 4-byte float type: scores "
       ~ "cannot be compared as float32 there (score_precision / conventions trec_eval, xgboost)") }}
  {%- endif -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro snowflake__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE", "FLOAT": none} -%}
  {%- if value.get(name, 'unknown') is none -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ target.type ~ " has no 4-byte float type: scores "
       ~ "cannot be compared as float32 there (score_precision / conventions trec_eval, xgboost)") }}
  {%- endif -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{% macro postgres__sql_type(name) -%}
  {%- set value = {"BIGINT": "BIGINT", "DECIMAL(38, 18)": "DECIMAL(38, 18)", "DOUBLE": "DOUBLE PRECISION", "FLOAT": "REAL"} -%}
  {%- if value.get(name, 'unknown') is none -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ target.type ~ " has no 4-byte float type: scores "
       ~ "cannot be compared as float32 there (score_precision / conventions trec_eval, xgboost)") }}
  {%- endif -%}
  {{ return(value.get(name, name)) }}
{%- endmacro %}

{#- The internal item column compared in byte order (ties item-asc/item-desc on text ids). -#}
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

{#- A name the engine accepts unquoted (and folds): ndcg_sql/identifiers.py PLAIN_NAME. -#}
{% macro plain_name_pattern() -%}
  {{ return("[A-Za-z_][A-Za-z0-9_]*") }}
{%- endmacro %}
