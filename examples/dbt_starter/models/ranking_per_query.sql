-- NDCG@5 and NDCG@10 of each query, per arm: one row per (arm, query_id, k)
-- with cg, dcg, idcg and ndcg (labels from the log, ideal ranking from the listed items)
{{ ndcg_sql.ndcg_per_query(ref('ranking_log'), score_col='score', segment_cols=['arm'], k=[5, 10]) }}
