{#-
  The byte-order shim for fakesnow (the Snowflake emulator the tests build this project on,
  tests/test_dbt_adapters.py), as tests/fakesnow_server.py applies it to the runner's SQL:
  fakesnow runs on DuckDB, which has no Snowflake 'utf8' collation, and DuckDB's string order
  already is byte order, so the item column is compared as it is. A dispatch override of the
  package's engine piece (dbt_project.yml `dispatch:` puts this project first); only on the
  fakesnow target (account 'fakesnow' in profiles.yml): on a real Snowflake the package's own
  COLLATE(item, 'utf8') is used.
-#}
{% macro snowflake__item_byte_order() -%}
  {%- if target.account | lower == 'fakesnow' -%}
    {{ return('item') }}
  {%- endif -%}
  {{ return(ndcg_sql.snowflake__item_byte_order()) }}
{%- endmacro %}
