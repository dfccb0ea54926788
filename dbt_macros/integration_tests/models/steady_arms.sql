-- Each day, the treatment arm against the control arm on the queries both served: NDCG@5, the
-- paired t-test, one-sided at 5% with Bonferroni over the days (the rows ndcg_no_regression reads)
with per_query as (
  {{ ndcg_sql.ndcg_per_query(ref('steady_log'), segment_cols=['day', 'arm'], k=[5]) }}
)
select * from (
{{ ndcg_sql.ndcg_compare_arms('per_query', 'arm', 'control', k=5, segment_cols=['day']) }}
) as arms
