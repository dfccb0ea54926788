-- LightGBM lambdarank test queries: exponential gain, tie-averaged (the defaults)
{{ ndcg_sql.ndcg_per_query(ref('lambdarank_test'), item_col='doc_id', k=[1, 3, 5, 10, 'all']) }}
