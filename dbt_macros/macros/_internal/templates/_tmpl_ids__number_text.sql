{#- Generated from sql/ids.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_ids__number_text(ndcg_context, x) -%}
CASE WHEN {{ x }} = FLOOR({{ x }}) AND ABS({{ x }}) < 9007199254740992 THEN CAST(CAST({{ x }} AS {{ ndcg_sql.sql_type('BIGINT') }}) AS {{ ndcg_sql.sql_type('VARCHAR') }}) ELSE CAST({{ x }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END
{%- endmacro -%}
