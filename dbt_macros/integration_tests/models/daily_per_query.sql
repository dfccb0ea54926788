-- An incremental per-query model of a daily log: a run computes only the days not yet in the
-- table, and each (day, arm, query) equals what a full refresh computes (tests/test_dbt_incremental.py)
{{ config(materialized='incremental', unique_key='day', incremental_strategy='delete+insert') }}
with new_days as (
  select * from {{ ref('daily_log') }} where {{ ndcg_sql.ndcg_partitions_to_compute('day') }}
), per_query as (
  {{ ndcg_sql.ndcg_per_query('new_days', segment_cols=['day', 'arm'], k=[1, 5, 10, 'all']) }}
)
select *, '{{ invocation_id }}' as invocation_id from per_query
