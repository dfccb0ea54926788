{#- Copied from sql/measures/rbp.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- RBP (Moffat & Zobel 2008): (1 - p) times the sum of p^(r-1) over the relevant ranks r <= k,
    summed in rank order beside the precision sums (its running sum, rbp_sum_<id>). -#}
{%- macro _rbp_running_sum(ctx, m) -%}
SUM(relevant_{{ m.threshold_id }} * POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST(rank - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}))) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS rbp_sum_{{ m.id }}
{%- endmacro %}

{%- macro _rbp_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'rbp_sum_' ~ m.id) }}
{%- endmacro %}

{%- macro _rbp_value(ctx, m) -%}
CAST(1.0 - {{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endmacro %}
