-- Named measures per (arm, query): both runs at once, one segment (experiment arm) each
{{ ndcg_sql.ndcg_measures(ref('dl19_runs'), ['nDCG@10', 'P@10', 'R@100', 'AP', 'RR(rel=2)', 'Success@1'],
                          segment_cols=['arm'], judgments=ref('dl19_qrels'), gain='linear', ties='item-desc') }}
