-- The BM25 run with whole-number query and item ids (BIGINT), judged by the text ids of
-- dl19_qrels: the package reads the four id columns' types through dbt's adapter and compares
-- the ids as text, as the Python runner does (ndcg_sql/building/id_types.py), never by the engine's
-- implicit cast (Postgres refuses bigint = varchar; others would cast one side as they choose)
select cast(query_id as {{ ndcg_sql.sql_type('BIGINT') }}) as query_id,
       cast(item_id as {{ ndcg_sql.sql_type('BIGINT') }}) as item_id,
       rank, score
from {{ ref('dl19_runs') }} where arm = 'bm25'
