{#- Copied from sql/measures/iprec.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- IPrec@x: the interpolated precision at the rank of the c-th relevant item, c = floor(x R + 0.9):
    the best P@j at or below it, every j once c = 0; 0 when fewer than c relevant items are ranked
    (trec_eval's m_iprec_at_recall.c). Its numerator reads R at each rank (numerator "counts":
    sql/counted_measures.sql.j2). -#}
{%- macro _iprec_numerator(ctx, m) -%}
{%- set t = m.threshold_id -%}
MAX(CASE WHEN p.relevant_through_{{ t }} >= FLOOR(CAST({{ m.recall }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * c.relevant_{{ t }} + 0.9) THEN CAST(p.relevant_through_{{ t }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0) END)
{%- endmacro %}

{%- macro _iprec_value(ctx, m) -%}
CAST(COALESCE(x.counted_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
