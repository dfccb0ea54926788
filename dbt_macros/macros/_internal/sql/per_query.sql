{#- Copied from sql/per_query.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Per-query CG, DCG, IDCG and NDCG at every cutoff: the package's main query.
    Data flows one way: normalised rows -> labelled items -> ranked items
    (ties) -> DCG by rank -> values at cutoffs -> one row per (query, k). With
    top_items only each query's top tie groups are ranked (sql/top_items.sql.j2).
    NDCG@k = DCG@k / IDCG@k (Jarvelin & Kekalainen, TOIS 2002). A query whose
    IDCG@k is 0 gets the no-relevant policy: zero -> 0, skip -> NULL, one -> 1.
    With ordered, rows come by query and k (the whole list last); the Python
    runner leaves that to whoever reads them (sorting every per-query row of a
    large log costs more than the query's other last steps). -#}
{% macro _per_query(ctx) -%}
{%- set cutoffs = ctx['cutoffs'] -%}
{%- set ideal_labels = ctx['ideal_labels'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set missing_queries = ctx['missing_queries'] -%}
{%- set no_relevant = ctx['no_relevant'] -%}
{%- set ordered = ctx['ordered'] -%}
{%- set output_query_col = ctx['output_query_col'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set tail_cutoffs = ctx['tail_cutoffs'] -%}
{%- set unjudged = ctx['unjudged'] -%}
{%- set weighted = ctx['weighted'] -%}
{%- set top_items = ctx['top_items'] -%}
{#- fused (list mode, the ideal counted per label, every item ranked): the labels are counted in
    the run's per-query group-by and the ideal ranking read from its rows, so the ranking is
    scanned once and the run's and the ideal's values meet in one row per query, no join
    (sql/ideal_items.sql.j2). The same values to the bit: the same counts and sums. -#}
{%- set fused = not judgments and not top_items and ideal_labels and ndcg_sql._ideal_counted(ctx)
    and not (ctx['whole_labels'] | default(false)) -%}
{%- set r = 'i' if fused else 'r' -%}
{%- set no_relevant_value = {'zero': ndcg_sql._cast('0.0', 'DOUBLE'), 'skip': ndcg_sql._cast('NULL', 'DOUBLE'), 'one': ndcg_sql._cast('1.0', 'DOUBLE')}[no_relevant] -%}
WITH
{{ ndcg_sql._normalised_rows(ctx, labels=not fused) }},
{{ ndcg_sql._labelled_items(ctx) }},
{%- if top_items %}
{{ ndcg_sql._top_items(ctx) }},
{%- else %}
{{ ndcg_sql._ranked_items(ctx) }},
{%- endif %}
{%- if not fused %}
{{ ndcg_sql._ideal_items(ctx) }},
{%- endif %}
{%- if not top_items %}
run_positions AS ( -- one row per ranked (query, item): its position{% if fused %}, label{% endif %} and the gain credited there
  SELECT qid, rank AS position, credited_gain AS gain{% if fused %}, label{% endif %} FROM ranked_items
),
{%- endif %}
{{ ndcg_sql._discounts(ctx) }},
{%- if fused %}
{%- set run_columns = [] %}
{%- for cutoff in cutoffs %}{% do run_columns.extend(['cg_' ~ cutoff.id, 'dcg_' ~ cutoff.id]) %}{% endfor %}
{{ ndcg_sql._dcg_at_cutoffs(ctx, 'run_dcg', 'run_positions', '', counts=ideal_labels) }},
{{ ndcg_sql._ideal_items(ctx, fused_from='run_dcg_at_cutoffs', carry=run_columns) }},
{{ ndcg_sql._dcg_at_cutoffs(ctx, 'ideal_dcg', none, 'ideal_', carry=run_columns) }},
{%- else %}
{{ ndcg_sql._dcg_at_cutoffs(ctx, 'run_dcg', none if top_items else 'run_positions', '') }},
{{ ndcg_sql._dcg_at_cutoffs(ctx, 'ideal_dcg', none if ndcg_sql._ideal_counted(ctx) else 'ideal_items', 'ideal_') }},
{%- endif %}
{{ ndcg_sql._cutoffs(ctx) }},
{%- if weighted | default(false) %}
{{ ndcg_sql._query_weights(ctx) }},
{%- endif %}
query_values AS ( -- one row per (evaluated query, cutoff): CG, DCG and IDCG
  SELECT
    i.qid,
    c.k,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE({{ r }}.cg_{{ cutoff.id }}, 0.0){% endfor %} END AS cg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE({{ r }}.dcg_{{ cutoff.id }}, 0.0){% endfor %} END AS dcg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN i.ideal_dcg_{{ cutoff.id }}{% endfor %} END AS idcg
    {%- if weighted | default(false) %},
    w.weight
    {%- endif %}
  FROM ideal_dcg_at_cutoffs AS i
  {%- set condensed = judgments and (unjudged | default('zero')) == 'condense' %}
  {%- if not fused %}
  {% if judgments and (missing_queries == 'zero' or condensed) %}LEFT{% else %}INNER{% endif %} JOIN run_dcg_at_cutoffs AS r ON i.qid = r.qid
  {%- endif %}
  {%- if weighted | default(false) %}
  INNER JOIN query_weights AS w ON i.qid = w.qid
  {%- endif %}
  CROSS JOIN cutoffs AS c
  {%- if condensed and missing_queries != 'zero' %}
  {#- a condensed list may be empty: the query still counts (with 0), as trec_eval -J counts it #}
  WHERE i.qid IN (SELECT qid FROM run_rows)
  {%- endif %}
)
SELECT
  {{- ndcg_sql._output_query_columns(ctx) }}
  k,
  CAST(cg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS cg,
  CAST(dcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS dcg,
  CAST(idcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS idcg,
  CASE WHEN idcg > 0 THEN CAST(dcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(idcg, 0) ELSE {{ no_relevant_value }} END AS ndcg
  {%- if weighted | default(false) %},
  weight
  {%- endif %}
FROM query_values
{%- if segment_cols %}
INNER JOIN segment_keys AS keys ON query_values.qid = keys.qid
{%- endif %}
{%- if ordered | default(false) %}
ORDER BY {% if segment_cols %}{% for s in segment_cols %}keys.segment_{{ loop.index }} ASC NULLS LAST, {% endfor %}keys.query{% else %}qid{% endif %} ASC NULLS LAST, k ASC NULLS LAST
{%- endif %}
{% endmacro %}
