{#- Copied from sql/measures/p.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- P@k: the relevant items at ranks <= k over k, even when the list is shorter (trec_eval's P_k).
    Under XGBoost's conventions (p_reading 'min(k,n)': ndcg_sql/vocabulary/conventions.py) over
    min(k, list length), as its pre@k (rank_metric.cc). -#}
{%- macro _p_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'relevant_through_' ~ m.threshold_id) }}
{%- endmacro %}

{%- macro _p_value(ctx, m) -%}
{%- if (ctx['p_reading'] | default(none)) == 'min(k,n)' -%}
CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(CASE WHEN r.list_length < {{ m.k }} THEN r.list_length ELSE {{ m.k }} END, 0)
{%- else -%}
CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({{ m.k }}, 0)
{%- endif -%}
{%- endmacro %}
