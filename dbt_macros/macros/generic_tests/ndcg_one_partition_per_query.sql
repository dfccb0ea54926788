{#- Generic test: every query of the ranking lies in one partition (one day), so that an
    incremental per-query model (ndcg_sql.ndcg_partitions_to_compute) computes each query from
    all its rows; fails on the queries found in more than one partition or with a NULL partition.

    An incremental run would evaluate such a query from part of its list (and a row with no
    partition is never computed incrementally).
      partition_col  the partition column of the tested ranking
      query_col      its query column (default 'query_id')
      segment_cols   the other columns of the query key (e.g. the experiment arm); a query id
                     may repeat in other segments
    Failing rows: the segment columns, the query column, partition_count (distinct partitions),
    first_partition, last_partition, rows_without_partition. -#}
{% test ndcg_one_partition_per_query(model, partition_col, query_col='query_id', segment_cols=[]) %}
  {{ return(adapter.dispatch('test_ndcg_one_partition_per_query', 'ndcg_sql')(model, partition_col, query_col,
      segment_cols)) }}
{% endtest %}

{% macro default__test_ndcg_one_partition_per_query(model, partition_col, query_col, segment_cols) -%}
  {%- set partition = ndcg_sql.quote_identifier(partition_col) -%}
  {%- set keys = [] -%}
  {%- for column in segment_cols if column != partition_col -%}
    {%- do keys.append(ndcg_sql.quote_identifier(column)) -%}
  {%- endfor -%}
  {%- do keys.append(ndcg_sql.quote_identifier(query_col)) -%}
SELECT
  {{ keys | join(', ') }},
  COUNT(DISTINCT {{ partition }}) AS partition_count,
  MIN({{ partition }}) AS first_partition,
  MAX({{ partition }}) AS last_partition,
  COUNT(*) - COUNT({{ partition }}) AS rows_without_partition
FROM {{ model }}
GROUP BY {{ keys | join(', ') }}
HAVING COUNT(DISTINCT {{ partition }}) > 1 OR COUNT(*) > COUNT({{ partition }})
{%- endmacro %}
