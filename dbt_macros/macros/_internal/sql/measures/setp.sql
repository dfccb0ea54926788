{#- Copied from sql/measures/setp.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- SetP: the precision of the whole ranked list, its relevant items over its length (trec_eval's
    set_P, m_set_P.c: num_rel_ret / num_ret; ir_measures SetP). The running count of relevant
    items never decreases, so its largest value is the whole list's; a query missing from the run
    has no ranked row, and its value is 0. -#}
{%- macro _setp_numerator(ctx, m) -%}
CAST(MAX(relevant_through_{{ m.threshold_id }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(MAX(rank), 0)
{%- endmacro %}

{%- macro _setp_value(ctx, m) -%}
CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
