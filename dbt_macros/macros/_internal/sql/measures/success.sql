{#- Copied from sql/measures/success.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Success@k: 1 if an item at rank <= k is relevant, else 0 (trec_eval's success_k). -#}
{%- macro _success_numerator(ctx, m) -%}
MAX(CASE WHEN {{ ndcg_sql._within_cutoff(m) }} AND relevant_{{ m.threshold_id }} = 1.0 THEN 1.0 END)
{%- endmacro %}

{%- macro _success_value(ctx, m) -%}
CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
