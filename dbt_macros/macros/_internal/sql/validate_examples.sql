{#- Copied from sql/validate_examples.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- A few query ids that break one check, for the error message (with segment
    columns, the query ids behind the (segment, query) keys, ordered by the output's name: Spark
    resolves no other column after DISTINCT). -#}
{% macro _validate_examples(ctx) -%}
{%- set condition = ctx['condition'] -%}
{%- set limit = ctx['limit'] -%}
{%- set relation = ctx['relation'] -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set source = ctx['source'] -%}
WITH
{{ ndcg_sql._normalised_rows(ctx) }},
{{ ndcg_sql._duplicate_pairs(ctx) }}
{%- if source | default(none) %},
{{ relation }} AS ( -- one row per query: a sum checked (ndcg_sql/building/validation.py)
  {{ source }}
)
{%- endif %}
{%- if segment_cols %}
SELECT DISTINCT keys.query AS qid
FROM (SELECT qid FROM {{ relation }} WHERE {{ condition }}) AS failing
LEFT JOIN segment_keys AS keys ON failing.qid = keys.qid
ORDER BY qid ASC NULLS FIRST
{%- else %}
SELECT DISTINCT qid
FROM {{ relation }}
WHERE {{ condition }}
ORDER BY qid ASC NULLS FIRST
{%- endif %}
LIMIT {{ limit }}
{% endmacro %}
