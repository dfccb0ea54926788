{#- Copied from sql/measures/rr.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- RR(@k): 1 / the rank of the first relevant item at or above k, 0 if none (trec_eval's recip_rank). -#}
{%- macro _rr_numerator(ctx, m) -%}
MAX(CASE WHEN {{ ndcg_sql._within_cutoff(m) }} AND relevant_{{ m.threshold_id }} = 1.0 THEN CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(rank, 0) END)
{%- endmacro %}

{%- macro _rr_value(ctx, m) -%}
CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
