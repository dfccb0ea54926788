{#- The partitions (days) an incremental per-query model computes in this run, as a condition on
    the ranking's rows, for the CTE that reads the log: on a first build or a --full-refresh every
    row, on an incremental run the new partitions (with lookback, the last ones computed too), or
    those listed in partitions (default: the var ndcg_partitions).

    Use: `where {{ ndcg_sql.ndcg_partitions_to_compute('day') }}`. The condition is `1 = 1` when
    is_incremental() is false; on an incremental run `day > (SELECT MAX(day) FROM {{ this }})`
    (or the model is empty); with lookback N, day at or after the N-th latest day in the model;
    with partitions (or --vars '{ndcg_partitions: [2019-11-02]}'), `day IN (...)` - e.g. to
    recompute a day whose late rows arrived.
      partition_col  the partition column of the ranking (a date, a number, a text); the model's
                     output carries it under the same name (list it in segment_cols)
      lookback       also recompute the last `lookback` partitions in the model (default 0)
      partitions     the partition values to compute (a value or a list; default: the var
                     ndcg_partitions, else the new partitions)
    Give the model unique_key=partition_col and incremental_strategy='delete+insert': each
    partition computed replaces all of that partition's rows. -#}
{% macro ndcg_partitions_to_compute(partition_col, lookback=0, partitions=none) -%}
  {{ return(adapter.dispatch('ndcg_partitions_to_compute', 'ndcg_sql')(partition_col, lookback, partitions)) }}
{%- endmacro %}

{% macro default__ndcg_partitions_to_compute(partition_col, lookback, partitions) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {%- if lookback is not integer or lookback is boolean or lookback < 0 -%}
    {{ fail("ndcg_partitions_to_compute: lookback must be a non-negative integer; got " ~ lookback) }}
  {%- endif -%}
  {%- set column = ndcg_sql.quote_identifier(partition_col) -%}
  {%- if partitions is none -%}
    {%- set partitions = var('ndcg_partitions', none) -%}
  {%- endif -%}
  {%- if partitions is not none and (partitions is string or partitions is not iterable) -%}
    {%- set partitions = [partitions] -%}
  {%- endif -%}
  {%- if partitions is not none and partitions | length == 0 -%}
    {{ fail("ndcg_partitions_to_compute: partitions is an empty list: give the partition values to compute") }}
  {%- endif -%}
  {%- if not is_incremental() -%}
    {{ return('(1 = 1)') }}
  {%- endif -%}
  {%- if partitions is not none -%}
    {%- set literals = [] -%}
    {%- for value in partitions -%}
      {%- if value is number and value is not boolean -%}
        {%- do literals.append(value | string) -%}
      {%- else -%}
        {#- text, and dates as YAML reads them (2019-11-02 unquoted): compared as the engine
            compares a text literal with the column (a date column takes 'YYYY-MM-DD') -#}
        {%- do literals.append(ndcg_sql.string_literal(value | string)) -%}
      {%- endif -%}
    {%- endfor -%}
    {{ return('(' ~ column ~ ' IN (' ~ literals | join(', ') ~ '))') }}
  {%- endif -%}
  {%- set latest = '(SELECT MAX(' ~ column ~ ') FROM ' ~ this ~ ')' -%}
  {%- if lookback == 0 -%}
    {{ return('(' ~ column ~ ' > ' ~ latest ~ ' OR ' ~ latest ~ ' IS NULL)') }}
  {%- endif -%}
  {%- set earliest_recomputed = '(SELECT MIN(recent.' ~ column ~ ') FROM (SELECT DISTINCT ' ~ column ~ ' FROM ' ~ this
      ~ ' WHERE ' ~ column ~ ' IS NOT NULL ORDER BY ' ~ column ~ ' DESC LIMIT ' ~ lookback ~ ') AS recent)' -%}
  {{ return('(' ~ column ~ ' >= ' ~ earliest_recomputed ~ ' OR ' ~ latest ~ ' IS NULL)') }}
{%- endmacro %}
