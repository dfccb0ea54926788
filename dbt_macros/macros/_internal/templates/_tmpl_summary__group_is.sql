{#- Generated from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_summary__group_is(ndcg_context, a, b, group) -%}
{%- if group == 'k' %}COALESCE({{ a }}.k, 0) = COALESCE({{ b }}.k, 0){% else %}{{ a }}.measure = {{ b }}.measure{% endif -%}
{%- endmacro -%}
