{#- Copied from sql/labelled_items.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- One row per ranked (query, item) with a numeric order value and label.
    With judgments, the label comes from the judgments (unjudged items: 0);
    queries without any judgment are left out (as trec_eval does) where
    per_query.sql.j2 joins the run's values to the ideal ones.
    score_precision float32 rounds the order value to the nearest float32
    (trec_eval, XGBoost); negative_labels zero counts negative labels as 0
    (trec_eval).
    A judged item whose label counts as 0 is labelled exactly as an unjudged
    one, so only the other judgments are joined: a smaller join (most
    judgments of a large log are usually 0). With unjudged 'condense' every judgment
    is joined and only judged items are kept: the condensed list.
    With judged_needed (a measure looks at which items are judged: Judged@k), every
    judgment is joined and judged is 1.0 for an item with a judgment (whatever its label),
    0.0 otherwise; without judgments every ranked item is judged (its label is in the list).
    With pool_thresholds (Bpref, infAP) the assessed flag too: 1.0 for a judgment at or above 0,
    0.0 for one below 0 (pooled but unjudged, as trec_eval reads qrels) or none; without
    judgments the list's label below 0 marks an item unjudged the same way. -#}
{#- an order value as compared: the score or rank as a DOUBLE (float32 scores rounded first) -#}
{%- macro _order_value_of(ctx, raw) -%}
{%- set score_precision = ctx['score_precision'] -%}
{% if score_precision == 'float32' %}CAST(CAST({{ raw }} AS {{ ndcg_sql.sql_type('FLOAT') }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST({{ raw }} AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %}
{%- endmacro -%}
{% macro _labelled_items(ctx) -%}
{%- set judged_needed = ctx['judged_needed'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set ties = ctx['ties'] -%}
{%- set unjudged = ctx['unjudged'] -%}
{%- set counted_label = ndcg_sql._counted_label(ctx, 'label_raw') %}
{%- set judgment_counts = ndcg_sql._judgment_counts(ctx, 'label_raw') %}
{%- set with_judged = judged_needed | default(false) %}
{#- Bpref and infAP: the assessed flag, a judgment at or above 0 (sql/gain.sql.j2) -#}
{%- set with_assessed = ctx['pool_thresholds'] | default([]) | length > 0 %}
{#- unjudged 'condense': only judged items are ranked (Sakai, SIGIR 2007; trec_eval -J) -#}
{%- set condensed = (unjudged | default('zero')) == 'condense' %}
{#- Bpref and infAP read a judgment below 0 as in the pool though not judged (trec_eval's
    form_res_rels.c): with negative_labels 'unjudged' such a row stays, not judged but pooled,
    unless a condensed list drops it (trec_eval -J) -#}
{%- set pooled_unjudged = with_assessed and judgment_counts is not none and not condensed %}
{%- if judgments %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    r.qid,
    r.item,
    {{ ndcg_sql._order_value_of(ctx, 'r.order_raw') }} AS order_value,
    COALESCE(j.label, 0.0) AS label{% if ties == 'input-order' %},
    r.row_order{% endif %}{% if with_judged %},
    COALESCE(j.judged, 0.0) AS judged{% endif %}{% if with_assessed %},
    COALESCE(j.assessed, 0.0) AS assessed,
    COALESCE(j.pooled, 0.0) AS pooled{% endif %}
  FROM run_rows AS r
  {% if condensed %}INNER{% else %}LEFT{% endif %} JOIN (
    SELECT qid, item, {{ counted_label }} AS label{% if with_judged %}, {% if pooled_unjudged %}CASE WHEN {{ judgment_counts }} THEN 1.0 ELSE 0.0 END{% else %}1.0{% endif %} AS judged{% endif %}{% if with_assessed %}, {{ ndcg_sql._assessed_flag(ctx, 'label_raw') }} AS assessed, 1.0 AS pooled{% endif %}
    FROM judgment_rows
    {%- if not with_judged and not condensed %}
    WHERE {{ counted_label }} <> 0.0
    {%- elif judgment_counts is not none and not pooled_unjudged %}
    WHERE {{ judgment_counts }}
    {%- endif %}
  ) AS j ON r.qid = j.qid AND r.item = j.item
)
{%- else %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    qid,
    item,
    {{ ndcg_sql._order_value_of(ctx, 'order_raw') }} AS order_value,
    {{ counted_label }} AS label{% if ties == 'input-order' %},
    row_order{% endif %}{% if with_judged %},
    {% if judgment_counts is not none %}CASE WHEN {{ judgment_counts }} THEN 1.0 ELSE 0.0 END{% else %}1.0{% endif %} AS judged{% endif %}{% if with_assessed %},
    {{ ndcg_sql._assessed_flag(ctx, 'label_raw') }} AS assessed,
    1.0 AS pooled{% endif %}
  FROM run_rows
)
{%- endif %}
{% endmacro %}
