{#- Copied from sql/measures/gm_map.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- gm_map: trec_eval's per-query value, ln(max(AP, gm_floor)) (m_gm_map.c, MIN_GEO_MEAN), AP's
    numerator over R; the summary is exp of their mean (mean "geometric": sql/summary.sql.j2). -#}
{%- macro _gm_map_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'precision_sum_' ~ m.threshold_id) }}
{%- endmacro %}

{%- macro _gm_map_value(ctx, m) -%}
{%- set floor = ndcg_sql._cast(('%.10f' | format(ctx['gm_floor'])), 'DOUBLE') %}
{%- set ap = 'CAST(COALESCE(r.numerator_' ~ m.id ~ (', 0.0) AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ') / NULLIF(c.relevant_') ~ m.threshold_id ~ ', 0)' -%}
LN(CASE WHEN c.relevant_{{ m.threshold_id }} > 0 AND {{ ap }} > {{ floor }} THEN {{ ap }} ELSE {{ floor }} END)
{%- endmacro %}
