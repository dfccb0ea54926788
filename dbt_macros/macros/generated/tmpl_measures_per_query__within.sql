{#- Generated from sql/measures_per_query.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro tmpl_measures_per_query__within(ndcg_context, k) -%}{% if k is not none %}rank <= {{ k }}{% else %}TRUE{% endif %}{%- endmacro %}
