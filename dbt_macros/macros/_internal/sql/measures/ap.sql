{#- Copied from sql/measures/ap.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- AP(@k): the sum of P@r over the relevant ranks r <= k (precision_sums) over R, 0 when R = 0
    (trec_eval's map, map_cut_k). Under the conventions of LightGBM and XGBoost (ap_reading
    'min(R,k)': ndcg_sql/vocabulary/conventions.py) over min(R, k), a query without a relevant
    item counting the convention's no_relevant (LightGBM map_metric.hpp, XGBoost rank_metric.cc). -#}
{%- macro _ap_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'precision_sum_' ~ m.threshold_id) }}
{%- endmacro %}

{%- macro _ap_value(ctx, m) -%}
{%- if (ctx['ap_reading'] | default(none)) == 'min(R,k)' -%}
CASE WHEN c.relevant_{{ m.threshold_id }} > 0
      THEN CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({% if m.k is not none %}CASE WHEN c.relevant_{{ m.threshold_id }} < {{ m.k }} THEN c.relevant_{{ m.threshold_id }} ELSE {{ m.k }} END{% else %}c.relevant_{{ m.threshold_id }}{% endif %}, 0)
      ELSE CAST({{ '1.0' if ctx['no_relevant'] == 'one' else '0.0' }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) END
{%- else -%}
{{ ndcg_sql._over_relevant(m, 'r.numerator_' ~ m.id) }}
{%- endif -%}
{%- endmacro %}
