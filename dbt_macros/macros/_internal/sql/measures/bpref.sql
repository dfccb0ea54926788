{#- Copied from sql/measures/bpref.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Bpref (Buckley & Voorhees 2004, as trec_eval's m_bpref.c): over the relevant ranks, 1 - min(N
    above, R) / min(N, R) (1 with no judged non-relevant item above), over R; N the judged
    non-relevant items (assessed: a label at or above 0). Its numerator reads R and N at each rank
    and the items above it in the pool (numerator "counts": sql/counted_measures.sql.j2). -#}
{%- macro _bpref_numerator(ctx, m) -%}
{%- set t = m.threshold_id -%}
{%- set relevant = 'c.relevant_' ~ t -%}
{%- set above = 'p.nonrelevant_above_' ~ t -%}
{%- set nonrelevant = 'c.nonrelevant_' ~ t -%}
SUM(CASE WHEN p.relevant_{{ t }} = 1.0 AND p.assessed = 1.0 THEN
      CASE WHEN {{ above }} > 0 THEN 1.0 - CAST(CASE WHEN {{ above }} < {{ relevant }} THEN {{ above }} ELSE {{ relevant }} END AS {{ ndcg_sql.sql_type('DOUBLE') }})
        / NULLIF(CASE WHEN {{ nonrelevant }} < {{ relevant }} THEN {{ nonrelevant }} ELSE {{ relevant }} END, 0) ELSE 1.0 END
      ELSE 0.0 END)
{%- endmacro %}

{%- macro _bpref_value(ctx, m) -%}
{{ ndcg_sql._over_relevant(m, 'x.counted_' ~ m.id) }}
{%- endmacro %}
