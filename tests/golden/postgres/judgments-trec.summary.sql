WITH run_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "rank" AS order_raw,
    CAST(NULL AS DOUBLE PRECISION) AS label_raw
  FROM "proj"."ds"."runs"
), judgment_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "label" AS label_raw
  FROM "proj"."ds"."qrels"
), judged_queries AS (
  SELECT DISTINCT
    qid
  FROM judgment_rows
), labelled_items AS (
  SELECT
    r.qid,
    r.item,
    CAST(r.order_raw AS DOUBLE PRECISION) AS order_value,
    COALESCE(CAST(j.label_raw AS DOUBLE PRECISION), 0.0) AS label
  FROM run_rows AS r
  INNER JOIN judged_queries AS q
    ON r.qid = q.qid
  LEFT JOIN judgment_rows AS j
    ON r.qid = j.qid AND r.item = j.item
), gained_items AS (
  SELECT
    qid,
    item,
    order_value,
    label AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value ASC NULLS FIRST, item COLLATE "C" DESC NULLS LAST
    ) AS rank,
    gain AS credited_gain
  FROM gained_items
), ideal_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS rank,
    gain
  FROM (
    SELECT
      qid,
      CAST(label_raw AS DOUBLE PRECISION) AS gain
    FROM judgment_rows
  ) AS ideal_source
), run_dcg_by_rank AS (
  SELECT
    qid,
    rank,
    SUM(credited_gain) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_cg,
    SUM(
      credited_gain * (
        CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(rank AS DOUBLE PRECISION) + 1.0), 0)
      )
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_dcg
  FROM ranked_items
), run_dcg_at_cutoffs AS (
  SELECT
    qid,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS cg_1,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS dcg_1,
    MAX(running_cg) AS cg_2,
    MAX(running_dcg) AS dcg_2
  FROM run_dcg_by_rank
  GROUP BY
    qid
), ideal_dcg_by_rank AS (
  SELECT
    qid,
    rank,
    SUM(gain) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_cg,
    SUM(
      gain * (
        CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(rank AS DOUBLE PRECISION) + 1.0), 0)
      )
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_dcg
  FROM ideal_items
), ideal_dcg_at_cutoffs AS (
  SELECT
    qid,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS ideal_cg_1,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS ideal_dcg_1,
    MAX(running_cg) AS ideal_cg_2,
    MAX(running_dcg) AS ideal_dcg_2
  FROM ideal_dcg_by_rank
  GROUP BY
    qid
), cutoffs AS (
  SELECT
    1 AS cutoff_id,
    CAST(10 AS BIGINT) AS k
  UNION ALL
  SELECT
    2 AS cutoff_id,
    CAST(NULL AS BIGINT) AS k
), query_values AS (
  SELECT
    i.qid,
    c.k,
    CASE c.cutoff_id
      WHEN 1
      THEN COALESCE(r.cg_1, 0.0)
      WHEN 2
      THEN COALESCE(r.cg_2, 0.0)
    END AS cg,
    CASE c.cutoff_id
      WHEN 1
      THEN COALESCE(r.dcg_1, 0.0)
      WHEN 2
      THEN COALESCE(r.dcg_2, 0.0)
    END AS dcg,
    CASE c.cutoff_id WHEN 1 THEN i.ideal_dcg_1 WHEN 2 THEN i.ideal_dcg_2 END AS idcg
  FROM ideal_dcg_at_cutoffs AS i
  LEFT JOIN run_dcg_at_cutoffs AS r
    ON i.qid = r.qid
  CROSS JOIN cutoffs AS c
), per_query_rows AS (
  SELECT
    qid AS "query_id",
    k,
    CAST(cg AS DOUBLE PRECISION) AS cg,
    CAST(dcg AS DOUBLE PRECISION) AS dcg,
    CAST(idcg AS DOUBLE PRECISION) AS idcg,
    CASE
      WHEN idcg > 0
      THEN CAST(dcg AS DOUBLE PRECISION) / NULLIF(idcg, 0)
      ELSE CAST(0.0 AS DOUBLE PRECISION)
    END AS ndcg
  FROM query_values
), summed_queries AS (
  SELECT
    k,
    ndcg,
    idcg,
    SUM(ndcg) OVER (
      PARTITION BY k
      ORDER BY "query_id" ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_ndcg
  FROM per_query_rows
), cutoff_means AS (
  SELECT
    k,
    CAST(MAX(running_ndcg) AS DOUBLE PRECISION) / NULLIF(COUNT(ndcg), 0) AS ndcg,
    COUNT(ndcg) AS queries,
    SUM(CASE WHEN idcg > 0 THEN 0 ELSE 1 END) AS no_relevant
  FROM summed_queries
  GROUP BY
    k
)
SELECT
  c.k,
  m.ndcg,
  CAST(COALESCE(m.queries, 0) AS BIGINT) AS queries,
  CAST(COALESCE(m.no_relevant, 0) AS BIGINT) AS no_relevant
FROM cutoffs AS c
LEFT JOIN cutoff_means AS m
  ON COALESCE(c.k, 0) = COALESCE(m.k, 0)
ORDER BY
  c.cutoff_id ASC
