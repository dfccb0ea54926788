{#- Copied from sql/duplicate_pairs.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- (query, item) pairs given more than once: in a ranking an item has one
    rank, in judgments one label. -#}
{% macro _duplicate_pairs(ctx) -%}
{%- set judgments = ctx['judgments'] -%}
{%- set weight_col = ctx['weight_col'] -%}
run_duplicate_pairs AS ( -- one row per (query, item) that the ranking lists more than once
  SELECT qid, item, COUNT(*) AS copies FROM run_rows GROUP BY qid, item HAVING COUNT(*) > 1
)
{%- if judgments %},
judgment_duplicate_pairs AS ( -- one row per (query, item) judged more than once
  SELECT qid, item, COUNT(*) AS copies FROM judgment_rows GROUP BY qid, item HAVING COUNT(*) > 1
)
{%- endif %}
{%- if weight_col | default(none) %},
{#- query weights (weight_col) must be the same on every row of a query, and not all 0; item
    and label_raw are NULL here, for the first pass's profile (sql/validate_lists.sql.j2) #}
run_weight_queries AS ( -- one row per query of the ranking: its smallest and largest weight
  SELECT qid, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS item, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS label_raw,
         MIN(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS lowest_weight, MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS highest_weight,
         COUNT(*) AS query_rows
  FROM run_rows
  GROUP BY qid
),
{#- no query id names the ranking's total: qid is a NULL of the query ids' type (a union of
    checks' query ids, as dbt's ndcg_valid_input makes, then has one type on every engine) #}
run_weight_total AS ( -- one row: the largest weight of the ranking
  SELECT MAX(CASE WHEN 1 = 0 THEN qid END) AS qid, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS item, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS label_raw,
         MAX(CAST(weight_raw AS {{ ndcg_sql.sql_type('DOUBLE') }})) AS highest_weight
  FROM run_rows
)
{%- endif %}
{% endmacro %}
