{#- Copied from sql/unjudged_worklist.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- What to judge next: the unjudged items several runs show within depth (each run's rows from
    sql/unjudged_items.sql.j2), one row per (query, item): its best rank, the runs that show it
    (with segments, each run's segment values as well: "bm25.txt arm=a"), and its exposure, the
    sum over the runs of the exposure each gives it (the discount at its rank, times the query's
    weight where given), highest first. ctx: runs, one {relation, name} each (name: a SQL string
    literal, written by the caller), in order; segment_cols, segment_labels (SQL string literals
    "arm="), output_query_col and output_item_col (quoted names); names_aggregate, the aggregate
    of the column shown_by that lists the names (default DuckDB's list, ordered by the runs'
    order, then the names; the dbt macro's, dbt's listagg: a text, names joined by "; ").
    The exposures are summed in a fixed order (the runs' order, then the names) by a running
    sum, so the total does not depend on row order or threads. -#}
{% macro _unjudged_worklist(ctx) -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set query = ctx['output_query_col'] -%}
{%- set item = ctx['output_item_col'] -%}
WITH
shown_by_run AS ( -- one row per (run, segment values, query, item) shown unjudged within depth: what shows it, at what rank, its exposure there
  {%- for run in ctx['runs'] %}
  SELECT
    {{ loop.index }} AS run_index,
    {{ run['name'] }}{% for s in segment_cols %} || ' ' || {{ ctx['segment_labels'][loop.index0] }} || COALESCE(CAST({{ s }} AS {{ ndcg_sql.sql_type('VARCHAR') }}), 'NULL'){% endfor %} AS shown_by,
    {{ query }} AS query,
    {{ item }} AS item,
    rank,
    exposure
  FROM {{ run['relation'] }}
  {%- if not loop.last %}
  UNION ALL
  {%- endif %}
  {%- endfor %}
),
summed_exposures AS ( -- one row per (run, segment values, query, item): the exposure summed over the runs through it, in the runs' order
  SELECT
    query,
    item,
    run_index,
    shown_by,
    rank,
    SUM(exposure) OVER (
      PARTITION BY query, item ORDER BY run_index ASC NULLS FIRST, shown_by ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS exposure
  FROM shown_by_run
)
SELECT
  query AS {{ query }},
  item AS {{ item }},
  CAST(MIN(rank) AS {{ ndcg_sql.sql_type('BIGINT') }}) AS best_rank,
  {{ ctx.get('names_aggregate') or 'LIST(shown_by ORDER BY run_index ASC NULLS FIRST, shown_by ASC NULLS FIRST)' }} AS runs,
  {#- exposures are >= 0: the running sum's largest value is the total #}
  MAX(exposure) AS exposure
FROM summed_exposures
GROUP BY query, item
ORDER BY exposure DESC NULLS LAST, {{ query }} ASC NULLS FIRST, best_rank ASC NULLS FIRST, {{ item }} ASC NULLS FIRST
{% endmacro %}
