{#- Generated from ndcg_sql/vocabulary/dialects.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The engine's type names by the kind of id they hold ([kind, [names]]; '*' any other name):
    read by _id_kind (sql/options/id_forms.sql). -#}
{% macro _id_type_names() -%}
  {{ return(adapter.dispatch('_id_type_names', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default___id_type_names() -%}
  {%- set value = [["integer", ["TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"]], ["text", ["VARCHAR", "CHARACTER VARYING", "TEXT", "STRING", "CHAR", "BPCHAR"]], ["fraction", ["FLOAT", "DOUBLE", "DECIMAL"]], ["enum", ["ENUM"]], ["json", ["JSON"]], ["text_like", ["BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_NS", "TIMESTAMP_MS", "TIMESTAMP_S", "UUID", "INTERVAL"]], ["other", ["*"]]] -%}
  {{ return(value) }}
{%- endmacro %}

{% macro bigquery___id_type_names() -%}
  {%- set value = [["integer", ["INTEGER", "INT64"]], ["text", ["STRING"]], ["fraction", ["FLOAT", "FLOAT64"]], ["decimal", ["NUMERIC", "BIGNUMERIC", "DECIMAL", "BIGDECIMAL"]], ["text_like", ["BOOLEAN", "BOOL", "DATE", "TIME", "DATETIME", "TIMESTAMP", "INTERVAL"]], ["other", ["BYTES", "RECORD", "STRUCT", "GEOGRAPHY", "RANGE", "ARRAY"]]] -%}
  {{ return(value) }}
{%- endmacro %}

{% macro snowflake___id_type_names() -%}
  {%- set value = [["integer", ["INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "BYTEINT"]], ["decimal", ["NUMBER", "DECIMAL", "NUMERIC", "FIXED"]], ["fraction", ["FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "DOUBLE PRECISION", "REAL"]], ["text", ["VARCHAR", "TEXT", "STRING", "CHAR", "CHARACTER", "NCHAR", "NVARCHAR", "CHAR VARYING", "CHARACTER VARYING"]], ["text_like", ["DATE", "TIME", "DATETIME", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ", "TIMESTAMP_TZ", "BOOLEAN"]], ["other", ["BINARY", "VARBINARY", "ARRAY", "OBJECT", "MAP", "GEOGRAPHY", "GEOMETRY", "VECTOR"]]] -%}
  {{ return(value) }}
{%- endmacro %}

{% macro spark___id_type_names() -%}
  {%- set value = [["integer", ["BYTE", "SHORT", "INTEGER", "LONG", "TINYINT", "SMALLINT", "INT", "BIGINT"]], ["text", ["STRING", "VARCHAR", "CHAR"]], ["fraction", ["FLOAT", "DOUBLE"]], ["decimal", ["DECIMAL"]], ["text_like", ["BOOLEAN", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ"]], ["other", ["BINARY", "ARRAY", "MAP", "STRUCT"]]] -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres___id_type_names() -%}
  {%- set value = [["integer", ["SMALLINT", "INTEGER", "BIGINT", "INT", "INT2", "INT4", "INT8", "OID", "SMALLSERIAL", "SERIAL", "BIGSERIAL"]], ["text", ["TEXT", "CHARACTER VARYING", "VARCHAR", "CHARACTER", "CHAR", "BPCHAR", "NAME", "\"CHAR\""]], ["fraction", ["REAL", "DOUBLE PRECISION", "FLOAT4", "FLOAT8", "FLOAT"]], ["decimal", ["NUMERIC", "DECIMAL"]], ["text_like", ["BOOLEAN", "BOOL", "DATE", "TIME", "TIME WITHOUT TIME ZONE", "TIME WITH TIME ZONE", "TIMETZ", "TIMESTAMP", "TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ", "INTERVAL", "UUID"]], ["other", ["BYTEA", "ARRAY", "VARBYTE", "BINARY VARYING", "GEOMETRY", "GEOGRAPHY", "HLLSKETCH"]]] -%}
  {{ return(value) }}
{%- endmacro %}
