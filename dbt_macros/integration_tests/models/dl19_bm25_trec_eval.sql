-- trec_eval's conventions (linear gain, ties by docno descending, float32 scores) on BM25
{{ ndcg_sql.ndcg_measures(ref('dl19_bm25_run'), ['nDCG@10', 'P@10', 'R@100', 'AP', 'RR', 'P(rel=2)@10'],
                          judgments=ref('dl19_qrels'), convention='trec_eval') }}
