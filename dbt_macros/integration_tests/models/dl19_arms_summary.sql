-- Mean NDCG@k per arm
{{ ndcg_sql.ndcg_summary(ref('dl19_arms_per_query'), k=[1, 3, 10, 'all'], segment_cols=['arm']) }}
