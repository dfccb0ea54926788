-- A sample of the queries: each (arm, query) drawn with probability 0.5 by the seeded hash of its key (sample=0.5, seed=3)
{{ ndcg_sql.ndcg_measures(ref('dl19_runs'), ['nDCG@10', 'AP', 'Success@1'], segment_cols=['arm'],
                          judgments=ref('dl19_qrels'), gain='linear', ties='item-desc', sample=0.5, seed=3) }}
