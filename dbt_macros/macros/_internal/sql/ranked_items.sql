{#- Copied from sql/ranked_items.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Ranking and ties. rank 1 is the top: score descending, or logged rank
    ascending. Inside a group of equal order values (a tie group: the rows
    that are peers in the order-value window below):
      average   - every item is credited the mean gain of its tie group
                  (McSherry & Najork, ECIR 2008; scikit-learn's ndcg_score).
                  Ranks inside the group are then arbitrary, so item ascending
                  only makes them deterministic; DCG does not depend on it.
      item-asc  - item id ascending (byte order for strings: item_order is
                  the engine's byte-order expression, ndcg_sql/vocabulary/dialects.py)
      item-desc - item id descending (trec_eval's order)
      input-order - the row-order column ascending (LightGBM's and XGBoost's
                  stable sorts keep tied rows in input order)
    Both windows partition by query and order by the order value, so one sort
    serves both (no second partitioning by tie group).
    exact_gains (the caller checked the input: every gain is a whole number
    and no list's gains add up past 2^53) makes every sum of gains exact, so
    the tie group's mean is the same whatever order its items come in and
    equals the gain when they are all equal: the ranking then needs no item
    order inside a tie group and no MIN/MAX guard (a cheaper sort, the same
    numbers to the bit). -#}
{#- A query's ranking order, for ROW_NUMBER() OVER (PARTITION BY qid ORDER BY ...): the order
    value (scores descending, logged ranks ascending), then with tie_break the order inside a tie
    group (input-order: row_order, then the item's byte order ascending, or descending for
    item-desc). Keys are never NULL (checked); NULLs are placed as the smallest value,
    BigQuery's fixed rule for windowed aggregates, so every engine agrees. -#}
{%- macro _rank_order(ctx, tie_break) -%}
{%- set item_direction = 'DESC' if ctx['ties'] == 'item-desc' else 'ASC' -%}
{%- set order_direction = 'DESC' if ctx['input_kind'] == 'score' else 'ASC' -%}
{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'} -%}
order_value {{ order_direction }} {{ nulls[order_direction] }}{% if tie_break %}, {% if ctx['ties'] == 'input-order' %}row_order ASC NULLS FIRST, {% endif %}{{ ctx['item_order'] }} {{ item_direction }} {{ nulls[item_direction] }}{% endif %}
{%- endmacro -%}
{#- A window over a row's tie group: the peers of a row in the order-value window (BigQuery cannot
    PARTITION BY a DOUBLE; a RANGE frame over it is fine) -#}
{%- macro _tie_group(ctx) -%}
{%- set order_direction = 'DESC' if ctx['input_kind'] == 'score' else 'ASC' -%}
PARTITION BY qid ORDER BY order_value {{ order_direction }} {{ {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'}[order_direction] }} RANGE BETWEEN CURRENT ROW AND CURRENT ROW
{%- endmacro -%}
{% macro _ranked_items(ctx) -%}
{%- set exact_gains = ctx['exact_gains'] -%}
{%- set judged_needed = ctx['judged_needed'] -%}
{%- set ties = ctx['ties'] -%}
{%- set with_assessed = ctx['pool_thresholds'] | default([]) | length > 0 -%}
{%- set exact_ties = ties == 'average' and exact_gains -%}
{%- set tie_group = ndcg_sql._tie_group(ctx) -%}
gained_items AS ( -- one row per ranked (query, item) with its gain
  SELECT qid, item, order_value, label,{% if ties == 'input-order' %} row_order,{% endif %}{% if judged_needed | default(false) %} judged,{% endif %}{% if with_assessed %} assessed, pooled,{% endif %} {{ ndcg_sql._gain_of(ctx, 'label') }} AS gain
  FROM labelled_items
),
ranked_items AS ( -- one row per ranked (query, item): its rank, label, order value and the gain credited at that rank
  SELECT
    qid,
    label,
    order_value,{% if judged_needed | default(false) %}
    judged,{% endif %}{% if with_assessed %}
    assessed,
    pooled,{% endif %}
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY {{ ndcg_sql._rank_order(ctx, not exact_ties) }}
    ) AS rank,
    {% if exact_ties -%}
    AVG(gain) OVER ({{ tie_group }})
    {%- elif ties == 'average' -%}
    CASE
      WHEN MIN(gain) OVER ({{ tie_group }}) = MAX(gain) OVER ({{ tie_group }})
        THEN gain
      ELSE AVG(gain) OVER ({{ tie_group }})
    END
    {%- else -%}
    gain
    {%- endif %} AS credited_gain
  FROM gained_items
)
{% endmacro %}
