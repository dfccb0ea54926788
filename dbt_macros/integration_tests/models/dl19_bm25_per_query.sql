-- TREC DL 2019 BM25 against NIST's judgments with trec_eval's conventions:
-- the ranking comes from a CTE and the per-query SQL is itself a CTE
with bm25 as (
  select * from {{ ref('dl19_runs') }} where arm = 'bm25'
),
per_query as (
  {{ ndcg_sql.ndcg_per_query('bm25', judgments=ref('dl19_qrels'), gain='linear', ties='item-desc', k=[10, 'all']) }}
)
select * from per_query
