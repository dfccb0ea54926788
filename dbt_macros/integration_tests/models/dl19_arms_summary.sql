-- Mean NDCG@k per arm
{{ ndcg_sql.ndcg_summary(ref('dl19_arms_per_query'), segment_cols=['arm']) }}
