-- The logged rank instead of the score; judged queries missing from the run
-- count as 0; queries with no relevant item at k are left out of the mean
{{ ndcg_sql.ndcg_per_query(ref('dl19_bm25_run'), rank_col='rank', judgments=ref('dl19_qrels'),
                           missing_queries='zero', no_relevant='skip', ties='item-asc', k=[1, 5, 20]) }}
