{#- Copied from sql/measures/setr.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- SetR: the recall of the whole ranked list, its relevant items over R, 0 when R = 0 (trec_eval's
    set_recall, m_set_recall.c: num_rel_ret / num_rel; ir_measures SetR). The running count of
    relevant items never decreases, so its largest value is the whole list's. -#}
{%- macro _setr_numerator(ctx, m) -%}
MAX(relevant_through_{{ m.threshold_id }})
{%- endmacro %}

{%- macro _setr_value(ctx, m) -%}
{{ ndcg_sql._over_relevant(m, 'r.numerator_' ~ m.id) }}
{%- endmacro %}
