-- Per-query values and their mean in one model, both inside CTEs
with bm25 as (
  select * from {{ ref('dl19_runs') }} where arm = 'bm25'
),
per_query as (
  {{ ndcg_sql.ndcg_per_query('bm25', judgments=ref('dl19_qrels'), gain='linear', ties='item-desc', k=[10, 'all']) }}
)
select * from (
  {{ ndcg_sql.ndcg_summary('per_query', k=[10, 'all']) }}
) as summary
