{#- Generated from sql/top_items.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_top_items__order_value_of(ndcg_context, raw) -%}{% set input_kind = ndcg_context['input_kind'] %}{% set score_precision = ndcg_context['score_precision'] -%}{%- set order_direction = 'DESC' if input_kind == 'score' else 'ASC' -%}{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'}[order_direction] -%}
{% if score_precision == 'float32' %}CAST(CAST({{ raw }} AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST({{ raw }} AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %}
{%- endmacro -%}
