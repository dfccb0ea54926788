{#- Copied from sql/query_weights.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The weight of each query (weight_col): the same on every row of the query (the input
    checks refuse a query whose rows differ, ndcg_sql/building/validation.py), so MAX picks it. -#}
{% macro _query_weights(ctx) -%}
query_weights AS ( -- one row per query of the run: its weight
  SELECT qid, MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS weight FROM run_rows GROUP BY qid
)
{% endmacro %}
