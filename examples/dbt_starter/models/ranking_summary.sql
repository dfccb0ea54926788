-- Mean NDCG@k per arm, with its 95% interval
{{ ndcg_sql.ndcg_summary(ref('ranking_per_query'), k=[5, 10], segment_cols=['arm']) }}
