{#- Generated from sql/gain.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_gain__gain_of(ndcg_context, label) -%}{% set gain = ndcg_context['gain'] %}{% set gain_mapping = ndcg_context['gain_mapping'] -%}
{%- if gain == 'exponential' -%}
(POWER(2.0, {{ label }}) - 1.0)
{%- elif gain == 'linear' -%}
{{ label }}
{%- else -%}
CASE {{ label }}{% for pair in gain_mapping %} WHEN {{ pair[0] }} THEN CAST({{ pair[1] }} AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endfor %} END
{%- endif -%}
{%- endmacro -%}
