{#- Copied from sql/tested_values.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The values a regression test reads, from per-query rows: the CTE tested_values, one row per
    ([segment values,] group, query, measure) with the segment columns, tested_group (the period or the arm),
    tested_query, measure and value. From ndcg_per_query's rows (tested_cutoffs: NDCG@k, named
    'nDCG@k', 'nDCG' for the whole list) or ndcg_measures' (tested_measures: the names kept).
    Rows with a NULL group or value (a query skipped: no relevant item under no_relevant='skip')
    are left out.
    Context: per_query_relation, segment_cols (quoted), group_col (quoted), output_query_col,
    tested_cutoffs ([{'k', 'name_sql'}]) or tested_measures ([name_sql]), geometric_measures (the
    names as SQL literals of those whose summary is a geometric mean, gm_map: their values are
    logarithms, tested as they are, and reported by _reported and _drop_of). -#}
{%- macro _tested_cutoff_is(k) -%}
{% if k is none %}k IS NULL{% else %}k = {{ k }}{% endif %}
{%- endmacro -%}
{% macro _tested_values(ctx) -%}
{%- set cutoffs = ctx['tested_cutoffs'] -%}
{%- set measures = ctx['tested_measures'] -%}
tested_values AS ( -- one row per ([segment,] period or arm, query, measure): the value
SELECT
  {%- for s in ctx['segment_cols'] %}
  {{ s }},
  {%- endfor %}
  {{ ctx['group_col'] }} AS tested_group,
  {{ ctx['output_query_col'] }} AS tested_query,
  {%- if cutoffs is not none %}
  CASE{% for c in cutoffs %} WHEN {{ ndcg_sql._tested_cutoff_is(c.k) }} THEN {{ c.name_sql }}{% endfor %} END AS measure,
  CAST(ndcg AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
  {%- else %}
  measure,
  CAST(value AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS value
  {%- endif %}
FROM {{ ctx['per_query_relation'] }}
WHERE {{ ctx['group_col'] }} IS NOT NULL
  {%- if cutoffs is not none %}
  AND ndcg IS NOT NULL AND ({% for c in cutoffs %}{% if not loop.first %} OR {% endif %}{{ ndcg_sql._tested_cutoff_is(c.k) }}{% endfor %})
  {%- else %}
  AND value IS NOT NULL AND measure IN ({{ measures | join(', ') }})
  {%- endif %}
)
{%- endmacro %}

{#- x as a regression gate reports it: for a measure whose summary is a geometric mean (gm_map:
    ctx['geometric_measures']) exp of x, x a mean of its logarithms (the geometric mean) or a
    difference of two such means (the ratio of the geometric means); x itself for the others. -#}
{%- macro _reported(ctx, x) -%}
{%- set geometric = ctx['geometric_measures'] | default([]) -%}
{%- if geometric %}CASE WHEN measure IN ({{ geometric | join(', ') }}) THEN EXP({{ x }}) ELSE {{ x }} END{% else %}{{ x }}{% endif -%}
{%- endmacro %}

{#- The drop a regression gate holds against min_effect, from change (the difference of the means):
    -change in the measure's units; for a measure whose summary is a geometric mean the relative drop
    of the geometric mean, 1 - exp(change) (1 - the ratio). -#}
{%- macro _drop_of(ctx, change) -%}
{%- set geometric = ctx['geometric_measures'] | default([]) -%}
{%- if geometric %}CASE WHEN measure IN ({{ geometric | join(', ') }}) THEN 1.0 - EXP({{ change }}) ELSE -{{ change }} END{% else %}-{{ change }}{% endif -%}
{%- endmacro %}
