{#- Copied from sql/ideal_items.sql.j2 by `python -m tools.dbt_gen`, casts written per engine: do not edit. -#}
{#- The ideal ranking: every item the query could have shown, by gain
    descending. From the ranked list itself (default), or with judgments
    from all judged items of the query, retrieved or not (trec_eval).
    When every ideal ranking fits in the head and the labels are few and
    known (the caller found them while checking the input: ideal_labels, by
    gain descending, only those with a positive gain), no item is sorted: a
    query's ideal ranking is fully described by how many items it has of each
    label, and the items of one label fill consecutive positions, the highest
    gain first. Otherwise the items are numbered by gain descending. -#}
{% macro _ideal_items(ctx) -%}
{%- set head_length = ctx['head_length'] -%}
{%- set ideal_labels = ctx['ideal_labels'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set tail_cutoffs = ctx['tail_cutoffs'] -%}
{%- set ideal_source -%}
    SELECT qid, {{ ndcg_sql._gain_of(ctx, ndcg_sql._counted_label(ctx, 'label_raw')) }} AS gain
    FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
{%- endset -%}
{%- if ideal_labels is not none and not tail_cutoffs %}
ideal_label_counts AS ( -- one row per query: how many items it has of each label with a positive gain
  SELECT
    qid
    {%- for grade in ideal_labels %},
    COUNT(CASE WHEN CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}) = {{ grade.label }} THEN 1 END) AS items_of_grade_{{ loop.index }}
    {%- endfor %}
  FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
  GROUP BY qid
),
ideal_dcg_by_query AS ( -- one row per query: the gain at each head position of its ideal ranking (NULL past its items)
  SELECT
    qid
    {%- for p in range(1, head_length + 1) %},
    {% if ideal_labels %}CASE{% for grade in ideal_labels %} WHEN {{ p }} <= {% for earlier in range(1, loop.index + 1) %}{% if not loop.first %} + {% endif %}items_of_grade_{{ earlier }}{% endfor %} THEN {{ ndcg_sql._gain_of(ctx, grade.label) }}{% endfor %} END{% else %}CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS gain_at_{{ p }}
    {%- endfor %}
  FROM ideal_label_counts
)
{%- else %}
ideal_items AS ( -- one row per (query, position in the ideal ranking) with the gain found there
  SELECT qid, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS position, gain
  FROM ({{ ideal_source }}
  ) AS ideal_source
)
{%- endif %}
{% endmacro %}
