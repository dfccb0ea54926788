{#- Copied from sql/cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- One row per cutoff k; k is NULL for the whole list. -#}
{% macro _cutoffs(ctx) -%}
{%- set cutoffs = ctx['cutoffs'] -%}
cutoffs AS ( -- one row per cutoff
  {%- for cutoff in cutoffs %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ cutoff.id }} AS cutoff_id, {% if cutoff.k is not none %}CAST({{ cutoff.k }} AS {{ ndcg_sql.sql_type('BIGINT') }}){% else %}CAST(NULL AS {{ ndcg_sql.sql_type('BIGINT') }}){% endif %} AS k
  {%- endfor %}
)
{% endmacro %}
