{#- A user-given column name as a quoted SQL identifier, never pasted as text:
    the same rule as ndcg_sql/vocabulary/identifiers.py (sqlglot): a plain name (letters,
    digits, underscores) is first folded as the engine folds unquoted names
    (Snowflake upper, Postgres/Redshift lower: ndcg_sql.name_fold, generated
    from ndcg_sql/vocabulary/dialects.py), then the engine's quote character goes around
    the name, a quote character inside it doubled (BigQuery: backslash-escaped).
    Raises a compiler error for an empty or non-string name. -#}
{% macro quote_identifier(name) -%}
  {%- if name is not string or name | length == 0 -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: a column name must be a non-empty string; got " ~ name) }}
  {%- endif -%}
  {%- set fold = ndcg_sql.name_fold() -%}
  {%- if fold is not none and modules.re.fullmatch(ndcg_sql._plain_name_pattern(), name) -%}
    {%- set name = name | upper if fold == 'upper' else name | lower -%}
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
