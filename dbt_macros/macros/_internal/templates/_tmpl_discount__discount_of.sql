{#- Generated from sql/discount.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_discount__discount_of(ndcg_context, rank) -%}{% set discount = ndcg_context['discount'] %}{% set log_base = ndcg_context['log_base'] -%}
{%- if discount == 'jarvelin' -%}
(CASE WHEN CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) < {{ log_base }} THEN 1.0 ELSE CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0) END)
{%- else -%}
(CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) + 1.0), 0))
{%- endif -%}
{%- endmacro -%}
