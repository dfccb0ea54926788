{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro tmpl_dcg_at_cutoffs__head_sum(ndcg_context, k, with_discount) -%}{% set head_length = ndcg_context['head_length'] -%}
{%- for p in range(1, [k, head_length] | min + 1) -%}
{% if not loop.first %} + {% endif %}COALESCE(gain_at_{{ p }}, 0.0){% if with_discount %} * {{ ndcg_sql.tmpl_discount__discount_of(ndcg_context, p) }}{% endif %}
{%- endfor -%}
{%- endmacro -%}
