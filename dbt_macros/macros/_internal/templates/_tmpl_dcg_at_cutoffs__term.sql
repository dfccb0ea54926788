{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_dcg_at_cutoffs__term(ndcg_context, p, with_discount) -%}
COALESCE(gain_at_{{ p }}, 0.0){% if with_discount %} * {{ ndcg_sql._tmpl_discount__discount_of(ndcg_context, p) }}{% endif %}
{%- endmacro -%}
