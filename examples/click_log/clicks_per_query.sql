-- models/clicks_per_query.sql: NDCG@k per experiment arm of a click log with no grade column
with labelled as (
  select *, case when dwell_seconds >= 180 then 3 when dwell_seconds >= 60 then 2
                 when clicked then 1 else 0 end as label
  from {{ ref('click_log') }}
), per_query as (
  {{ ndcg_sql.ndcg_per_query('labelled', rank_col='position', segment_cols=['arm'], k=[1, 3, 10]) }}
)
select * from per_query
