{#- Copied from sql/measures/infap.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- infAP (Yilmaz & Aslam 2006, as trec_eval's m_infap.c): over the relevant ranks r, 1/r + (J
    above / r) (relevant above + e) / (relevant above + non-relevant above + 2e), over R; J the
    items above r in the pool, e the infap_epsilon. Its numerator reads the items above each rank
    in the pool (numerator "counts": sql/counted_measures.sql.j2). -#}
{%- macro _infap_numerator(ctx, m) -%}
{%- set t = m.threshold_id -%}
{%- set epsilon = ndcg_sql._cast(('%.10f' | format(ctx['infap_epsilon'])), 'DOUBLE') -%}
SUM(CASE WHEN p.relevant_{{ t }} = 1.0 AND p.assessed = 1.0 THEN
      CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0) + (CAST(p.judged_above AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(p.rank, 0))
        * (p.relevant_above_{{ t }} + {{ epsilon }}) / (p.relevant_above_{{ t }} + p.nonrelevant_above_{{ t }} + 2.0 * {{ epsilon }})
      ELSE 0.0 END)
{%- endmacro %}

{%- macro _infap_value(ctx, m) -%}
{{ ndcg_sql._over_relevant(m, 'x.counted_' ~ m.id) }}
{%- endmacro %}
