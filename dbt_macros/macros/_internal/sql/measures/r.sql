{#- Copied from sql/measures/r.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- R@k: the relevant items at ranks <= k over R, 0 when R = 0 (trec_eval's recall_k). -#}
{%- macro _r_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'relevant_through_' ~ m.threshold_id) }}
{%- endmacro %}

{%- macro _r_value(ctx, m) -%}
{{ ndcg_sql._over_relevant(m, 'r.numerator_' ~ m.id) }}
{%- endmacro %}
