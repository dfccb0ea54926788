{#- Copied from sql/casts.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Casts. The templates are written in DuckDB's SQL: a cast names a DuckDB type through
    ndcg_sql.sql_type, which the Python runner reads as the name itself (sqlglot then writes the
    engine's type) and dbt as the engine's spelling (dbt_macros/macros/engine/sql_type.sql, from
    the table in ndcg_sql/vocabulary/dialects.py). -#}

{#- 'CAST(<sql> AS <type>)' for SQL text built in Jinja code. -#}
{% macro _cast(sql, type_name) -%}
{{ return('CAST(' ~ sql ~ ' AS ' ~ ndcg_sql.sql_type(type_name) ~ ')') }}
{%- endmacro %}
