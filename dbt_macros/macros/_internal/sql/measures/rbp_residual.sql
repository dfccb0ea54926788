{#- Copied from sql/measures/rbp_residual.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- RBP's residual (Moffat & Zobel 2008, section 4): what the unjudged items could add to RBP,
    (1 - p) times the sum of p^(r-1) over the unjudged ranks r <= min(k, n) (the judged flag,
    the threshold 'judged'), plus p^min(k,n) - p^k for the ranks past the list (p^k is 0 without @k). -#}
{%- macro _rbp_residual_running_sum(ctx, m) -%}
SUM((1.0 - relevant_{{ m.threshold_id }}) * POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST(rank - 1 AS {{ ndcg_sql.sql_type('DOUBLE') }}))) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS rbp_sum_{{ m.id }}
{%- endmacro %}

{%- macro _rbp_residual_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'rbp_sum_' ~ m.id) }}
{%- endmacro %}

{%- macro _rbp_residual_value(ctx, m) -%}
{%- set depth = 'COALESCE(r.list_length, 0)' if m.k is none else 'CASE WHEN COALESCE(r.list_length, 0) < ' ~ m.k ~ ' THEN COALESCE(r.list_length, 0) ELSE ' ~ m.k ~ ' END' -%}
CAST(1.0 - {{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) * CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }})
      + POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST({{ depth }} AS {{ ndcg_sql.sql_type('DOUBLE') }})){% if m.k is not none %} - POWER(CAST({{ m.p }} AS {{ ndcg_sql.sql_type('DOUBLE') }}), CAST({{ m.k }} AS {{ ndcg_sql.sql_type('DOUBLE') }})){% endif %}
{%- endmacro %}
