{#- Generated from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_summary__segment_is(ndcg_context, a, b) -%}{% set segment_cols = ndcg_context['segment_cols'] -%}
{%- for s in segment_cols %}{{ a }}.{{ s }} IS NOT DISTINCT FROM {{ b }}.{{ s }} AND {% endfor -%}
{%- endmacro -%}
