-- Named measures (ir_measures notation), one row per (query, measure)
{{ ndcg_sql.ndcg_measures(ref('lambdarank_test'), ['nDCG@10', 'P@5', 'R@10', 'AP', 'RR', 'P(rel=2)@5', 'Success@1'],
                          item_col='doc_id', ties='item-asc') }}
