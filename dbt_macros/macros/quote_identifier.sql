{#- A user-given column name as a quoted SQL identifier, never pasted as text:
    the same rule as ndcg_sql/identifiers.py (sqlglot): the engine's quote
    character around the name, a quote character inside it doubled (BigQuery:
    backslash-escaped). Raises a compiler error for an empty or non-string name. -#}
{% macro quote_identifier(name) -%}
  {%- if name is not string or name | length == 0 -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: a column name must be a non-empty string; got " ~ name) }}
  {%- endif -%}
  {{ return(adapter.dispatch('quote_identifier', 'ndcg_sql')(name)) }}
{%- endmacro %}

{% macro default__quote_identifier(name) -%}
  {{ return('"' ~ name | replace('"', '""') ~ '"') }}
{%- endmacro %}

{% macro bigquery__quote_identifier(name) -%}
  {{ return('`' ~ name | replace('\\', '\\\\') | replace('`', '\\`') ~ '`') }}
{%- endmacro %}

{% macro spark__quote_identifier(name) -%}
  {{ return('`' ~ name | replace('`', '``') ~ '`') }}
{%- endmacro %}

{% macro databricks__quote_identifier(name) -%}
  {{ return(ndcg_sql.spark__quote_identifier(name)) }}
{%- endmacro %}
