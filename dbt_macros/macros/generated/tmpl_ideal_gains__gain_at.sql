{#- Generated from sql/ideal_gains.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro tmpl_ideal_gains__gain_at(ndcg_context, position, prefix='') -%}{% set ideal_labels = ndcg_context['ideal_labels'] -%}
{%- if ideal_labels -%}
CASE{% for grade in ideal_labels %} WHEN {{ position }} <= {% for earlier in range(1, loop.index + 1) %}{% if not loop.first %} + {% endif %}{{ prefix }}items_of_grade_{{ earlier }}{% endfor %} THEN {{ ndcg_sql.tmpl_gain__gain_of(ndcg_context, grade.label) }}{% endfor %} END
{%- else -%}
CAST(NULL AS DOUBLE)
{%- endif -%}
{%- endmacro -%}
