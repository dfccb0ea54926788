-- Mean NDCG@k of lambdarank_per_query
{{ ndcg_sql.ndcg_summary(ref('lambdarank_per_query'), k=[1, 3, 5, 10, 'all']) }}
