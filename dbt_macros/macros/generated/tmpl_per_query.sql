{#- Generated from sql/per_query.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{% macro tmpl_per_query(cutoffs, gain, gain_mapping, input_kind, item_col, item_order, j_item_col, j_label_col, j_query_col, judgments, judgments_relation, label_col, missing_queries, no_relevant, order_col, output_query_col, query_col, run_relation, ties) -%}
{#- The template's context variables are the arguments (those it gives a default may be
    left out); extra ones are accepted. -#}
{%- set ndcg_context_extra = kwargs -%}
{%- if cutoffs is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'cutoffs'") }}{% endif -%}
{%- if gain is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'gain'") }}{% endif -%}
{%- if gain_mapping is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'gain_mapping'") }}{% endif -%}
{%- if input_kind is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'input_kind'") }}{% endif -%}
{%- if item_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'item_col'") }}{% endif -%}
{%- if item_order is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'item_order'") }}{% endif -%}
{%- if j_item_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'j_item_col'") }}{% endif -%}
{%- if j_label_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'j_label_col'") }}{% endif -%}
{%- if j_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'j_query_col'") }}{% endif -%}
{%- if judgments is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'judgments'") }}{% endif -%}
{%- if judgments_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'judgments_relation'") }}{% endif -%}
{%- if label_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'label_col'") }}{% endif -%}
{%- if missing_queries is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'missing_queries'") }}{% endif -%}
{%- if no_relevant is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'no_relevant'") }}{% endif -%}
{%- if order_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'order_col'") }}{% endif -%}
{%- if output_query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'output_query_col'") }}{% endif -%}
{%- if query_col is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'query_col'") }}{% endif -%}
{%- if run_relation is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'run_relation'") }}{% endif -%}
{%- if ties is undefined %}{{ exceptions.raise_compiler_error("tmpl_per_query: the template context has no 'ties'") }}{% endif -%}
{%- set ndcg_context = {'cutoffs': cutoffs, 'gain': gain, 'gain_mapping': gain_mapping, 'input_kind': input_kind, 'item_col': item_col, 'item_order': item_order, 'j_item_col': j_item_col, 'j_label_col': j_label_col, 'j_query_col': j_query_col, 'judgments': judgments, 'judgments_relation': judgments_relation, 'label_col': label_col, 'missing_queries': missing_queries, 'no_relevant': no_relevant, 'order_col': order_col, 'output_query_col': output_query_col, 'query_col': query_col, 'run_relation': run_relation, 'ties': ties} -%}
{#- Per-query CG, DCG, IDCG and NDCG at every cutoff: the package's main query.
    Data flows one way: normalised rows -> labelled items -> ranked items
    (ties) -> DCG by rank -> values at cutoffs -> one row per (query, k).
    NDCG@k = DCG@k / IDCG@k (Jarvelin & Kekalainen, TOIS 2002). A query whose
    IDCG@k is 0 gets the no-relevant policy: zero -> 0, skip -> NULL, one -> 1. -#}
{#- import 'gain.sql.j2' as gain_sql with context (generated: see ndcg_context) -#}
{#- import 'discount.sql.j2' as discount_sql with context (generated: see ndcg_context) -#}
{#- import 'dcg_at_cutoffs.sql.j2' as dcg_sql with context (generated: see ndcg_context) -#}
{%- set no_relevant_value = {'zero': 'CAST(0.0 AS DOUBLE)', 'skip': 'CAST(NULL AS DOUBLE)', 'one': 'CAST(1.0 AS DOUBLE)'}[no_relevant] -%}
WITH
{% with %}{#- The only place user column names appear. Every later CTE speaks of
    qid, item, order_value (a score, higher is better, or a logged rank, 1 = top)
    and label. -#}
run_rows AS ( -- one row per (query, item) of the ranking, as given
  SELECT
    {{ query_col }} AS qid,
    {{ item_col }} AS item,
    {{ order_col }} AS order_raw,
    {% if judgments %}CAST(NULL AS DOUBLE){% else %}{{ label_col }}{% endif %} AS label_raw
  FROM {{ run_relation }}
)
{%- if judgments %},
judgment_rows AS ( -- one row per judged (query, item), as given
  SELECT
    {{ j_query_col }} AS qid,
    {{ j_item_col }} AS item,
    {{ j_label_col }} AS label_raw
  FROM {{ judgments_relation }}
)
{%- endif %}
{% endwith %},
{% with %}{#- One row per ranked (query, item) with a numeric order value and label.
    With judgments, the label comes from the judgments (unjudged items: 0),
    and queries without any judgment are left out (as trec_eval does). -#}
{%- if judgments %}
judged_queries AS ( -- one row per query that has at least one judgment
  SELECT DISTINCT qid FROM judgment_rows
),
labelled_items AS ( -- one row per ranked (query, item) of a judged query
  SELECT
    r.qid,
    r.item,
    CAST(r.order_raw AS DOUBLE) AS order_value,
    COALESCE(CAST(j.label_raw AS DOUBLE), 0.0) AS label
  FROM run_rows AS r
  INNER JOIN judged_queries AS q ON r.qid = q.qid
  LEFT JOIN judgment_rows AS j ON r.qid = j.qid AND r.item = j.item
)
{%- else %}
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    qid,
    item,
    CAST(order_raw AS DOUBLE) AS order_value,
    CAST(label_raw AS DOUBLE) AS label
  FROM run_rows
)
{%- endif %}
{% endwith %},
{% with %}{#- Ranking and ties. rank 1 is the top: score descending, or logged rank
    ascending. Inside a group of equal order values:
      average   - every item is credited the mean gain of its tie group
                  (McSherry & Najork, ECIR 2008; scikit-learn's ndcg_score).
                  Ranks inside the group are then arbitrary, so item ascending
                  only makes them deterministic; DCG does not depend on it.
      item-asc  - item id ascending (byte order for strings: item_order is
                  the engine's byte-order expression, ndcg_sql/dialects.py)
      item-desc - item id descending (trec_eval's order)
-#}
{%- set item_direction = 'DESC' if ties == 'item-desc' else 'ASC' -%}
{%- set order_direction = 'DESC' if input_kind == 'score' else 'ASC' -%}
{#- Keys are never NULL (checked); NULLs are placed as the smallest value,
    BigQuery's fixed rule for windowed aggregates, so every engine agrees. -#}
{%- set nulls = {'ASC': 'NULLS FIRST', 'DESC': 'NULLS LAST'} -%}
gained_items AS ( -- one row per ranked (query, item) with its gain{% if ties == 'average' %} and tie group{% endif %}
  SELECT
    qid, item, order_value, {{ ndcg_sql.tmpl_gain__gain_of(ndcg_context, 'label') }} AS gain
    {%- if ties == 'average' %},
    {#- numbered tie groups: BigQuery cannot PARTITION BY a DOUBLE #}
    DENSE_RANK() OVER (PARTITION BY qid ORDER BY order_value {{ order_direction }} {{ nulls[order_direction] }}) AS tie_group
    {%- endif %}
  FROM labelled_items
),
ranked_items AS ( -- one row per ranked (query, item): its rank and the gain credited at that rank
  SELECT
    qid,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value {{ order_direction }} {{ nulls[order_direction] }}, {{ item_order }} {{ item_direction }} {{ nulls[item_direction] }}
    ) AS rank,
    {% if ties == 'average' -%}
    CASE
      WHEN MIN(gain) OVER (PARTITION BY qid, tie_group) = MAX(gain) OVER (PARTITION BY qid, tie_group)
        THEN gain
      ELSE AVG(gain) OVER (PARTITION BY qid, tie_group)
    END
    {%- else -%}
    gain
    {%- endif %} AS credited_gain
  FROM gained_items
)
{% endwith %},
{% with %}{#- The ideal ranking: every item the query could have shown, by gain
    descending. From the ranked list itself (default), or with judgments
    from all judged items of the query, retrieved or not (trec_eval). -#}
ideal_items AS ( -- one row per (query, position in the ideal ranking) with the gain found there
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS rank,
    gain
  FROM (
    {%- if judgments %}
    SELECT qid, {{ ndcg_sql.tmpl_gain__gain_of(ndcg_context, 'CAST(label_raw AS DOUBLE)') }} AS gain FROM judgment_rows
    {%- else %}
    SELECT qid, gain FROM gained_items
    {%- endif %}
  ) AS ideal_source
)
{% endwith %},
{{ ndcg_sql.tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, 'run_dcg', 'ranked_items', 'credited_gain', '') }},
{{ ndcg_sql.tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, 'ideal_dcg', 'ideal_items', 'gain', 'ideal_') }},
{% with %}{#- One row per cutoff k; k is NULL for the whole list. -#}
cutoffs AS ( -- one row per cutoff
  {%- for cutoff in cutoffs %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ cutoff.id }} AS cutoff_id, {% if cutoff.k is not none %}CAST({{ cutoff.k }} AS BIGINT){% else %}CAST(NULL AS BIGINT){% endif %} AS k
  {%- endfor %}
)
{% endwith %},
query_values AS ( -- one row per (evaluated query, cutoff): CG, DCG and IDCG
  SELECT
    i.qid,
    c.k,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE(r.cg_{{ cutoff.id }}, 0.0){% endfor %} END AS cg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN COALESCE(r.dcg_{{ cutoff.id }}, 0.0){% endfor %} END AS dcg,
    CASE c.cutoff_id{% for cutoff in cutoffs %} WHEN {{ cutoff.id }} THEN i.ideal_dcg_{{ cutoff.id }}{% endfor %} END AS idcg
  FROM ideal_dcg_at_cutoffs AS i
  {% if judgments and missing_queries == 'zero' %}LEFT{% else %}INNER{% endif %} JOIN run_dcg_at_cutoffs AS r ON i.qid = r.qid
  CROSS JOIN cutoffs AS c
)
SELECT
  qid AS {{ output_query_col }},
  k,
  CAST(cg AS DOUBLE) AS cg,
  CAST(dcg AS DOUBLE) AS dcg,
  CAST(idcg AS DOUBLE) AS idcg,
  CASE WHEN idcg > 0 THEN CAST(dcg AS DOUBLE) / NULLIF(idcg, 0) ELSE {{ no_relevant_value }} END AS ndcg
FROM query_values
ORDER BY qid ASC NULLS LAST, k ASC NULLS LAST
{%- endmacro %}
