{#- Generated from sql/top_items.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_top_items__top_items(ndcg_context) -%}{% set head_length = ndcg_context['head_length'] %}{% set input_kind = ndcg_context['input_kind'] -%}{%- set order_direction = 'DESC' if input_kind == 'score' else 'ASC' -%}{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'}[order_direction] -%}
top_thresholds AS ( -- one row per query: the order value of its head_length-th best item (NULL for a shorter list)
  SELECT
    qid,
    CASE WHEN LEN(best) = {{ head_length }} THEN best[{{ head_length }}] END AS threshold
  FROM (
    SELECT qid, {{ 'MAX' if order_direction == 'DESC' else 'MIN' }}({{ ndcg_sql._tmpl_top_items__order_value_of(ndcg_context, 'order_raw') }}, {{ head_length }}) AS best
    FROM run_scores
    GROUP BY qid
  ) AS best_values
),
top_groups AS ( -- one row per (query, tie group) at or above the threshold: its size and mean gain
  SELECT l.qid, l.order_value, COUNT(*) AS size, AVG({{ ndcg_sql._tmpl_gain__gain_of(ndcg_context, 'l.label') }}) AS mean_gain
  FROM labelled_items AS l
  INNER JOIN top_thresholds AS t ON l.qid = t.qid
  WHERE t.threshold IS NULL OR l.order_value {{ '>=' if order_direction == 'DESC' else '<=' }} t.threshold
  GROUP BY l.qid, l.order_value
),
top_placed AS ( -- one row per (query, tie group) that starts in the head: the items ranked before it
  SELECT *
  FROM (
    SELECT
      qid,
      size,
      mean_gain,
      CAST(SUM(size) OVER (
        PARTITION BY qid ORDER BY order_value {{ order_direction }} {{ nulls }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS {{ ndcg_sql.sql_type('BIGINT') }}) - size AS before
    FROM top_groups
  ) AS placed
  WHERE before < {{ head_length }}
),
run_dcg_by_query AS ( -- one row per query: the gain credited at each head position (NULL past the list)
  SELECT
    qid
    {%- for p in range(1, head_length + 1) %},
    MAX(CASE WHEN before < {{ p }} AND {{ p }} <= before + size THEN mean_gain END) AS gain_at_{{ p }}
    {%- endfor %}
  FROM top_placed
  GROUP BY qid
)
{%- endmacro -%}
