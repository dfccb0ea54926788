{#- Generated from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_summary__clipped(ndcg_context, x) -%}
CASE WHEN {{ x }} < 0 THEN 0.0 WHEN {{ x }} > 1 THEN 1.0 ELSE {{ x }} END
{%- endmacro -%}
