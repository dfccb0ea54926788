-- scikit-learn's ndcg_score conventions (linear gain, tie-averaged)
{{ ndcg_sql.ndcg_measures(ref('lambdarank_test'), 'nDCG@5 nDCG', item_col='doc_id', convention='sklearn') }}
