{#- Copied from sql/unjudged_items.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The items a run shows within depth that have no judgment: one row per (query, item) of the
    run ranked within depth (ctx['depth'], a checked positive integer) with no row in the
    judgments (whatever its label; a query with no judgment at all shows only unjudged items),
    with its rank and its exposure. The ranking is evaluate's: the rows, ids and labels of
    sql/normalised_rows.sql.j2 and sql/labelled_items.sql.j2 (with the judged flag, every ranked
    item kept), ordered by sql/ranked_items.sql.j2's order and tie-break (_rank_order,
    _tie_group), so an item is where the run showed it under the ties option:
      item-asc, item-desc, input-order  rank = its position, shown when rank <= depth, exposure =
                the discount at its rank (sql/discount.sql.j2);
      average   every item of a tie group stands at each of the group's positions alike (McSherry
                & Najork, ECIR 2008): rank = the group's first position, shown when that is within
                depth, exposure = the mean discount of the group's positions within depth, the
                weight its gain gets in DCG@depth.
    The positions' discounts are summed in position order by a running sum (a fixed order, as
    sql/dcg_at_cutoffs.sql.j2's tail), so the exposure does not depend on row order or threads.
    With query weights (weight_col) the exposure is multiplied by the query's weight
    (sql/query_weights.sql.j2). With segments, one row per (segment values, query, item). -#}
{% macro _unjudged_items(ctx) -%}
{%- set depth = ctx['depth'] | int -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set ties = ctx['ties'] -%}
{%- set weighted = ctx['weighted'] | default(false) -%}
{%- set ranking = {} -%}
{%- do ranking.update(ctx) -%}
{#- every ranked item, judged or not, with its judged flag; every item ranked by the window
    (the top positions of sql/top_items.sql.j2 carry no item) -#}
{%- do ranking.update({'judged_needed': true, 'unjudged': 'zero', 'top_items': false}) -%}
{%- set discount = ndcg_sql._discount_of(ranking, 'position') -%}
WITH
{{ ndcg_sql._normalised_rows(ranking) }},
{{ ndcg_sql._labelled_items(ranking) }},
positioned_items AS ( -- one row per ranked (query, item): its position in evaluate's order, whether it is judged{% if ties == 'average' %}, and its tie group's first position and size{% endif %}
  SELECT
    qid,
    item,
    judged,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY {{ ndcg_sql._rank_order(ranking, true) }}) AS position
    {%- if ties == 'average' %},
    {#- the rows before a tie group are those of a better order value: RANK is its first position #}
    RANK() OVER (PARTITION BY qid ORDER BY {{ ndcg_sql._rank_order(ranking, false) }}) AS first_position,
    COUNT(*) OVER ({{ ndcg_sql._tie_group(ranking) }}) AS group_size
    {%- endif %}
  FROM labelled_items
),
{%- if ties == 'average' %}
summed_discounts AS ( -- one row per ranked (query, item) of a tie group that starts within depth: the discounts of the positions within depth through it and before it, summed in position order
  {#- every position within depth is in such a group, so the sums miss none #}
  SELECT
    qid,
    item,
    judged,
    position,
    first_position,
    group_size,
    CASE WHEN position <= {{ depth }} THEN {{ discount }} ELSE 0.0 END AS discount,
    SUM(CASE WHEN position <= {{ depth }} THEN {{ discount }} ELSE 0.0 END) OVER (
      PARTITION BY qid ORDER BY position ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS through,
    COALESCE(SUM(CASE WHEN position <= {{ depth }} THEN {{ discount }} ELSE 0.0 END) OVER (
      PARTITION BY qid ORDER BY position ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0.0) AS before
  FROM positioned_items
  WHERE first_position <= {{ depth }}
),
shown_items AS ( -- one row per ranked (query, item) of a tie group that starts within depth: the group's first position, and the mean discount of its positions within depth
  SELECT
    qid,
    item,
    judged,
    first_position AS rank,
    CASE
      WHEN group_size = 1 THEN discount
      ELSE CAST(MAX(through) OVER (PARTITION BY qid, first_position) - MIN(before) OVER (PARTITION BY qid, first_position) AS {{ ndcg_sql.sql_type('DOUBLE') }})
        / NULLIF(CAST(group_size AS {{ ndcg_sql.sql_type('DOUBLE') }}), 0)
    END AS exposure
  FROM summed_discounts
),
{%- else %}
shown_items AS ( -- one row per ranked (query, item): its rank and the discount there
  SELECT
    qid,
    item,
    judged,
    position AS rank,
    {{ discount }} AS exposure
  FROM positioned_items
  WHERE position <= {{ depth }}
),
{%- endif %}
{%- if weighted %}
{{ ndcg_sql._query_weights(ranking) }},
{%- endif %}
unjudged_shown AS ( -- one row per unjudged (query, item) shown within depth: its rank and exposure
  SELECT
    s.qid,
    s.item,
    s.rank,
    {% if weighted %}s.exposure * w.weight{% else %}s.exposure{% endif %} AS exposure
  FROM shown_items AS s
  {%- if weighted %}
  INNER JOIN query_weights AS w ON s.qid = w.qid
  {%- endif %}
  WHERE s.judged = 0.0 AND s.rank <= {{ depth }}
)
SELECT
  {{- ndcg_sql._output_query_columns(ctx) }}
  item AS {{ ctx['output_item_col'] }},
  CAST(rank AS {{ ndcg_sql.sql_type('BIGINT') }}) AS rank,
  CAST(exposure AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS exposure
FROM unjudged_shown
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON unjudged_shown.qid = keys.qid
{%- endif %}
{% endmacro %}
