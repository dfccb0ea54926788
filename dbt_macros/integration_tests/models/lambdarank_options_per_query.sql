-- Other conventions on the same data: a gain mapping, ties broken by item id
-- descending, NDCG 1 for queries with no relevant item
{{ ndcg_sql.ndcg_per_query(ref('lambdarank_test'), item_col='doc_id', k=[2, 5, none],
                           gain={0: 0, 1: 1, 2: 3, 3: 7, 4: 15.5}, ties='item_desc', no_relevant='one') }}
