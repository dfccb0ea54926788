{#-
  Seeds in batches of 1,000 rows on fakesnow (tests/test_dbt_adapters.py), instead of dbt's
  10,000: fakesnow rewrites each statement with sqlglot, a few milliseconds a row, and the
  Snowflake connector gives up on a request after 60 seconds and sends it again, which fakesnow
  refuses while the first still runs. Only on the fakesnow target (account 'fakesnow'); dbt
  searches this project first for its own dispatched macros.
-#}
{% macro snowflake__get_batch_size() -%}
  {%- if target.account | lower == 'fakesnow' -%}
    {{ return(1000) }}
  {%- endif -%}
  {{ return(dbt.default__get_batch_size()) }}
{%- endmacro %}
