-- Mean NDCG@k per (day, arm) over the incremental per-query model: an ordinary table
{{ ndcg_sql.ndcg_summary(ref('daily_per_query'), k=[1, 5, 10, 'all'], segment_cols=['day', 'arm']) }}
