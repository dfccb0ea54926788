select query_id, item_id, rank, score from {{ ref('dl19_runs') }} where arm = 'bm25'
