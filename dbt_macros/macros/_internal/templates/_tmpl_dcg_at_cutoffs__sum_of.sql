{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_dcg_at_cutoffs__sum_of(ndcg_context, first, last, with_discount) -%}
{%- if first == last -%}
{{ ndcg_sql._tmpl_dcg_at_cutoffs__term(ndcg_context, first, with_discount) }}
{%- else -%}
{%- set middle = (first + last) // 2 -%}
({{ ndcg_sql._tmpl_dcg_at_cutoffs__sum_of(ndcg_context, first, middle, with_discount) }} + {{ ndcg_sql._tmpl_dcg_at_cutoffs__sum_of(ndcg_context, middle + 1, last, with_discount) }})
{%- endif -%}
{%- endmacro -%}
