WITH
run_rows AS ( -- one row per (query, item) of the ranking, as given
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "score" AS order_raw,
    "label" AS label_raw
  FROM "db"."sch"."runs"
)
,
labelled_items AS ( -- one row per ranked (query, item)
  SELECT
    qid,
    item,
    CAST(order_raw AS DOUBLE) AS order_value,
    CAST(label_raw AS DOUBLE) AS label
  FROM run_rows
)
,
gained_items AS ( -- one row per ranked (query, item) with its gain
  SELECT
    qid, item, order_value, CASE label WHEN 0.0 THEN CAST(0.0 AS DOUBLE) WHEN 1.0 THEN CAST(1.0 AS DOUBLE) WHEN 2.0 THEN CAST(3.0 AS DOUBLE) WHEN 3.0 THEN CAST(7.0 AS DOUBLE) END AS gain
  FROM labelled_items
),
ranked_items AS ( -- one row per ranked (query, item): its rank and the gain credited at that rank
  SELECT
    qid,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value DESC NULLS LAST, item ASC NULLS FIRST
    ) AS rank,
    gain AS credited_gain
  FROM gained_items
)
,
ideal_items AS ( -- one row per (query, position in the ideal ranking) with the gain found there
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS rank,
    gain
  FROM (
    SELECT qid, gain FROM gained_items
  ) AS ideal_source
)
,
run_dcg_by_rank AS ( -- one row per (query, rank): CG and DCG of the ranks above and at it
  SELECT
    qid,
    rank,
    SUM(credited_gain) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_cg,
    SUM(credited_gain * (CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(rank AS DOUBLE) + 1.0), 0))) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_dcg
  FROM ranked_items
),
run_dcg_at_cutoffs AS ( -- one row per query: CG and DCG at every cutoff
  SELECT
    qid,
    MAX(CASE WHEN rank <= 5 THEN running_cg END) AS cg_1,
    MAX(CASE WHEN rank <= 5 THEN running_dcg END) AS dcg_1,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS cg_2,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS dcg_2
  FROM run_dcg_by_rank
  GROUP BY qid
),
ideal_dcg_by_rank AS ( -- one row per (query, rank): CG and DCG of the ranks above and at it
  SELECT
    qid,
    rank,
    SUM(gain) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_cg,
    SUM(gain * (CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(rank AS DOUBLE) + 1.0), 0))) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_dcg
  FROM ideal_items
),
ideal_dcg_at_cutoffs AS ( -- one row per query: CG and DCG at every cutoff
  SELECT
    qid,
    MAX(CASE WHEN rank <= 5 THEN running_cg END) AS ideal_cg_1,
    MAX(CASE WHEN rank <= 5 THEN running_dcg END) AS ideal_dcg_1,
    MAX(CASE WHEN rank <= 10 THEN running_cg END) AS ideal_cg_2,
    MAX(CASE WHEN rank <= 10 THEN running_dcg END) AS ideal_dcg_2
  FROM ideal_dcg_by_rank
  GROUP BY qid
),
cutoffs AS ( -- one row per cutoff
  SELECT 1 AS cutoff_id, CAST(5 AS BIGINT) AS k
  UNION ALL SELECT 2 AS cutoff_id, CAST(10 AS BIGINT) AS k
)
,
query_values AS ( -- one row per (evaluated query, cutoff): CG, DCG and IDCG
  SELECT
    i.qid,
    c.k,
    CASE c.cutoff_id WHEN 1 THEN COALESCE(r.cg_1, 0.0) WHEN 2 THEN COALESCE(r.cg_2, 0.0) END AS cg,
    CASE c.cutoff_id WHEN 1 THEN COALESCE(r.dcg_1, 0.0) WHEN 2 THEN COALESCE(r.dcg_2, 0.0) END AS dcg,
    CASE c.cutoff_id WHEN 1 THEN i.ideal_dcg_1 WHEN 2 THEN i.ideal_dcg_2 END AS idcg
  FROM ideal_dcg_at_cutoffs AS i
  INNER JOIN run_dcg_at_cutoffs AS r ON i.qid = r.qid
  CROSS JOIN cutoffs AS c
)
SELECT
  qid AS "query_id",
  k,
  CAST(cg AS DOUBLE) AS cg,
  CAST(dcg AS DOUBLE) AS dcg,
  CAST(idcg AS DOUBLE) AS idcg,
  CASE WHEN idcg > 0 THEN CAST(dcg AS DOUBLE) / NULLIF(idcg, 0) ELSE CAST(NULL AS DOUBLE) END AS ndcg
FROM query_values
ORDER BY qid ASC NULLS LAST, k ASC NULLS LAST
