{#- Generated from sql/discount.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_discount__discount_of(ndcg_context, rank) -%}
(CAST(LN(2.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) + 1.0), 0))
{%- endmacro -%}
