{#- Generated from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_summary__same(ndcg_context, a, b, group) -%}
{{ ndcg_sql._tmpl_summary__segment_is(ndcg_context, a, b) }}{{ ndcg_sql._tmpl_summary__group_is(ndcg_context, a, b, group) }}
{%- endmacro -%}
