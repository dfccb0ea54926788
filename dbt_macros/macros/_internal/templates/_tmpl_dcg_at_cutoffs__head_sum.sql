{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_dcg_at_cutoffs__head_sum(ndcg_context, k, with_discount) -%}{% set head_length = ndcg_context['head_length'] -%}
{{ ndcg_sql._tmpl_dcg_at_cutoffs__sum_of(ndcg_context, 1, [k, head_length] | min, with_discount) }}
{%- endmacro -%}
