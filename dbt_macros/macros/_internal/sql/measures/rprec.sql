{#- Copied from sql/measures/rprec.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Rprec: the relevant items at ranks <= R over R, 0 when R = 0 (trec_eval's m_Rprec.c). Its
    numerator reads R at each rank (numerator "counts": sql/counted_measures.sql.j2). -#}
{%- macro _rprec_numerator(ctx, m) -%}
{%- set t = m.threshold_id -%}
SUM(CASE WHEN p.rank <= c.relevant_{{ t }} THEN p.relevant_{{ t }} ELSE 0.0 END)
{%- endmacro %}

{%- macro _rprec_value(ctx, m) -%}
{{ ndcg_sql._over_relevant(m, 'x.counted_' ~ m.id) }}
{%- endmacro %}
