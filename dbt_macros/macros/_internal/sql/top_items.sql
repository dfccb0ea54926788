{#- Copied from sql/top_items.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The run's top positions without ranking every item: when every cutoff is a
    number and some list is longer than the largest, the head (top_items,
    sql/options/ranking_context.sql), only each query's head_length best items
    and the items tied with the last of them can reach a cutoff. A top-N
    aggregate (an engine's own: top_n in ndcg_sql/vocabulary/dialects.py) finds each
    query's threshold, the head_length-th best order value, in one hash
    group-by; only the items at or above it are grouped into tie groups, and
    only those groups are ordered. A tie group at the threshold holds every
    item of that value (past the head too), so its mean gain is the one the
    full ranking credits.
    Taken only with exact_gains (ties='average', every sum of gains exact): a
    tie group's mean, AVG(gain) over its items, is then the same however they
    are grouped, so every gain at a position is the full ranking's to the bit.
    Defines run_dcg_by_query as sql/dcg_at_cutoffs.sql.j2 reads it: the gain at
    each head position, NULL past the list. -#}
{% macro _top_items(ctx) -%}
{%- set head_length = ctx['head_length'] -%}
{%- set input_kind = ctx['input_kind'] -%}
{%- set order_direction = 'DESC' if input_kind == 'score' else 'ASC' -%}
{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'}[order_direction] -%}
top_thresholds AS ( -- one row per query: the order value of its head_length-th best item (NULL for a shorter list)
  SELECT
    qid,
    CASE WHEN LEN(best) = {{ head_length }} THEN best[{{ head_length }}] END AS threshold
  FROM (
    SELECT qid, {{ 'MAX' if order_direction == 'DESC' else 'MIN' }}({{ ndcg_sql._order_value_of(ctx, 'order_raw') }}, {{ head_length }}) AS best
    FROM run_scores
    GROUP BY qid
  ) AS best_values
),
top_groups AS ( -- one row per (query, tie group) at or above the threshold: its size and mean gain
  SELECT l.qid, l.order_value, COUNT(*) AS size, AVG({{ ndcg_sql._gain_of(ctx, 'l.label') }}) AS mean_gain
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
{% endmacro %}
