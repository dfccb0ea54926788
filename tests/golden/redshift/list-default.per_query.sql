WITH run_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "score" AS order_raw,
    "label" AS label_raw
  FROM "runs"
), labelled_items AS (
  SELECT
    qid,
    item,
    CAST(order_raw AS DOUBLE PRECISION) AS order_value,
    CAST(label_raw AS DOUBLE PRECISION) AS label
  FROM run_rows
), gained_items AS (
  SELECT
    qid,
    item,
    order_value,
    (
      POWER(2.0, label) - 1.0
    ) AS gain,
    DENSE_RANK() OVER (PARTITION BY qid ORDER BY order_value DESC NULLS LAST) AS tie_group
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC NULLS LAST, item ASC NULLS FIRST) AS rank,
    CASE
      WHEN MIN(gain) OVER (PARTITION BY qid, tie_group) = MAX(gain) OVER (PARTITION BY qid, tie_group)
      THEN gain
      ELSE AVG(gain) OVER (PARTITION BY qid, tie_group)
    END AS credited_gain
  FROM gained_items
), ideal_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS rank,
    gain
  FROM (
    SELECT
      qid,
      gain
    FROM gained_items
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
    MAX(CASE WHEN rank <= 1 THEN running_cg END) AS cg_1,
    MAX(CASE WHEN rank <= 1 THEN running_dcg END) AS dcg_1,
    MAX(CASE WHEN rank <= 3 THEN running_cg END) AS cg_2,
    MAX(CASE WHEN rank <= 3 THEN running_dcg END) AS dcg_2,
    MAX(CASE WHEN rank <= 5 THEN running_cg END) AS cg_3,
    MAX(CASE WHEN rank <= 5 THEN running_dcg END) AS dcg_3,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS cg_4,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS dcg_4,
    MAX(CASE WHEN rank <= 20 THEN running_cg END) AS cg_5,
    MAX(CASE WHEN rank <= 20 THEN running_dcg END) AS dcg_5,
    MAX(running_cg) AS cg_6,
    MAX(running_dcg) AS dcg_6
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
    MAX(CASE WHEN rank <= 1 THEN running_cg END) AS ideal_cg_1,
    MAX(CASE WHEN rank <= 1 THEN running_dcg END) AS ideal_dcg_1,
    MAX(CASE WHEN rank <= 3 THEN running_cg END) AS ideal_cg_2,
    MAX(CASE WHEN rank <= 3 THEN running_dcg END) AS ideal_dcg_2,
    MAX(CASE WHEN rank <= 5 THEN running_cg END) AS ideal_cg_3,
    MAX(CASE WHEN rank <= 5 THEN running_dcg END) AS ideal_dcg_3,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS ideal_cg_4,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS ideal_dcg_4,
    MAX(CASE WHEN rank <= 20 THEN running_cg END) AS ideal_cg_5,
    MAX(CASE WHEN rank <= 20 THEN running_dcg END) AS ideal_dcg_5,
    MAX(running_cg) AS ideal_cg_6,
    MAX(running_dcg) AS ideal_dcg_6
  FROM ideal_dcg_by_rank
  GROUP BY
    qid
), cutoffs AS (
  SELECT
    1 AS cutoff_id,
    CAST(1 AS BIGINT) AS k
  UNION ALL
  SELECT
    2 AS cutoff_id,
    CAST(3 AS BIGINT) AS k
  UNION ALL
  SELECT
    3 AS cutoff_id,
    CAST(5 AS BIGINT) AS k
  UNION ALL
  SELECT
    4 AS cutoff_id,
    CAST(10 AS BIGINT) AS k
  UNION ALL
  SELECT
    5 AS cutoff_id,
    CAST(20 AS BIGINT) AS k
  UNION ALL
  SELECT
    6 AS cutoff_id,
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
      WHEN 3
      THEN COALESCE(r.cg_3, 0.0)
      WHEN 4
      THEN COALESCE(r.cg_4, 0.0)
      WHEN 5
      THEN COALESCE(r.cg_5, 0.0)
      WHEN 6
      THEN COALESCE(r.cg_6, 0.0)
    END AS cg,
    CASE c.cutoff_id
      WHEN 1
      THEN COALESCE(r.dcg_1, 0.0)
      WHEN 2
      THEN COALESCE(r.dcg_2, 0.0)
      WHEN 3
      THEN COALESCE(r.dcg_3, 0.0)
      WHEN 4
      THEN COALESCE(r.dcg_4, 0.0)
      WHEN 5
      THEN COALESCE(r.dcg_5, 0.0)
      WHEN 6
      THEN COALESCE(r.dcg_6, 0.0)
    END AS dcg,
    CASE c.cutoff_id
      WHEN 1
      THEN i.ideal_dcg_1
      WHEN 2
      THEN i.ideal_dcg_2
      WHEN 3
      THEN i.ideal_dcg_3
      WHEN 4
      THEN i.ideal_dcg_4
      WHEN 5
      THEN i.ideal_dcg_5
      WHEN 6
      THEN i.ideal_dcg_6
    END AS idcg
  FROM ideal_dcg_at_cutoffs AS i
  INNER JOIN run_dcg_at_cutoffs AS r
    ON i.qid = r.qid
  CROSS JOIN cutoffs AS c
)
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
ORDER BY
  qid ASC,
  k ASC
