-- ndcg_sql 0.1.0, redshift: one row per (query, measure): the measure's value.
-- Options: gain='exponential', discount='1/log2(rank + 1)', ties='item-desc', ranking_by='score',
-- ideal='list', no_relevant='zero', score_precision='double', negative_labels='error',
-- measures=['Success@10', 'nDCG@10', 'DCG@5'].
-- Input checks: none in this statement. NULL or NaN scores, NULL, NaN, negative or non-numeric
-- labels and duplicate (query, item) rows give wrong numbers here, not an error. Gate on the
-- checks' SQL first: the same call with what='checks' (ndcg-sql sql --statement checks), or dbt's
-- ndcg_valid_input.
WITH run_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "score" AS order_raw,
    "label" AS label_raw
  FROM "runs"
), run_labels AS (
  SELECT
    "query_id" AS qid,
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
    label,
    (
      POWER(2.0, label) - 1.0
    ) AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    label,
    order_value,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC NULLS LAST, item DESC NULLS LAST) AS rank,
    gain AS credited_gain
  FROM gained_items
), ideal_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS position,
    gain
  FROM (
    SELECT
      qid,
      (
        POWER(2.0, CAST(label_raw AS DOUBLE PRECISION)) - 1.0
      ) AS gain
    FROM run_labels
  ) AS ideal_source
), run_positions AS (
  SELECT
    qid,
    rank AS position,
    credited_gain AS gain
  FROM ranked_items
), discounts AS (
  SELECT
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(2 AS DOUBLE PRECISION)), 0) AS discount_1,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(3 AS DOUBLE PRECISION)), 0) AS discount_2,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(4 AS DOUBLE PRECISION)), 0) AS discount_3,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(5 AS DOUBLE PRECISION)), 0) AS discount_4,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(6 AS DOUBLE PRECISION)), 0) AS discount_5,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(7 AS DOUBLE PRECISION)), 0) AS discount_6,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(8 AS DOUBLE PRECISION)), 0) AS discount_7,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(9 AS DOUBLE PRECISION)), 0) AS discount_8,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(10 AS DOUBLE PRECISION)), 0) AS discount_9,
    CAST(LN(2.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(11 AS DOUBLE PRECISION)), 0) AS discount_10
), run_dcg_by_query AS (
  SELECT
    qid,
    MAX(CASE WHEN position = 1 THEN gain END) AS gain_at_1,
    MAX(CASE WHEN position = 2 THEN gain END) AS gain_at_2,
    MAX(CASE WHEN position = 3 THEN gain END) AS gain_at_3,
    MAX(CASE WHEN position = 4 THEN gain END) AS gain_at_4,
    MAX(CASE WHEN position = 5 THEN gain END) AS gain_at_5,
    MAX(CASE WHEN position = 6 THEN gain END) AS gain_at_6,
    MAX(CASE WHEN position = 7 THEN gain END) AS gain_at_7,
    MAX(CASE WHEN position = 8 THEN gain END) AS gain_at_8,
    MAX(CASE WHEN position = 9 THEN gain END) AS gain_at_9,
    MAX(CASE WHEN position = 10 THEN gain END) AS gain_at_10
  FROM run_positions
  GROUP BY
    qid
), run_dcg_head AS (
  SELECT
    *,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
          ) + COALESCE(gain_at_3, 0.0)
        ) + (
          COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) + COALESCE(gain_at_7, 0.0)
          ) + COALESCE(gain_at_8, 0.0)
        ) + (
          COALESCE(gain_at_9, 0.0) + COALESCE(gain_at_10, 0.0)
        )
      )
    ) AS head_cg,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
          ) + COALESCE(gain_at_3, 0.0) * discount_3
        ) + (
          COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * discount_6 + COALESCE(gain_at_7, 0.0) * discount_7
          ) + COALESCE(gain_at_8, 0.0) * discount_8
        ) + (
          COALESCE(gain_at_9, 0.0) * discount_9 + COALESCE(gain_at_10, 0.0) * discount_10
        )
      )
    ) AS head_dcg
  FROM run_dcg_by_query
  CROSS JOIN discounts
), run_dcg_at_cutoffs AS (
  SELECT
    qid,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
        ) + COALESCE(gain_at_3, 0.0)
      ) + (
        COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
      )
    ) AS cg_1,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
        ) + COALESCE(gain_at_3, 0.0) * discount_3
      ) + (
        COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
      )
    ) AS dcg_1,
    head_cg AS cg_2,
    head_dcg AS dcg_2
  FROM run_dcg_head
), ideal_dcg_by_query AS (
  SELECT
    qid,
    MAX(CASE WHEN position = 1 THEN gain END) AS gain_at_1,
    MAX(CASE WHEN position = 2 THEN gain END) AS gain_at_2,
    MAX(CASE WHEN position = 3 THEN gain END) AS gain_at_3,
    MAX(CASE WHEN position = 4 THEN gain END) AS gain_at_4,
    MAX(CASE WHEN position = 5 THEN gain END) AS gain_at_5,
    MAX(CASE WHEN position = 6 THEN gain END) AS gain_at_6,
    MAX(CASE WHEN position = 7 THEN gain END) AS gain_at_7,
    MAX(CASE WHEN position = 8 THEN gain END) AS gain_at_8,
    MAX(CASE WHEN position = 9 THEN gain END) AS gain_at_9,
    MAX(CASE WHEN position = 10 THEN gain END) AS gain_at_10
  FROM ideal_items
  GROUP BY
    qid
), ideal_dcg_head AS (
  SELECT
    *,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
          ) + COALESCE(gain_at_3, 0.0)
        ) + (
          COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) + COALESCE(gain_at_7, 0.0)
          ) + COALESCE(gain_at_8, 0.0)
        ) + (
          COALESCE(gain_at_9, 0.0) + COALESCE(gain_at_10, 0.0)
        )
      )
    ) AS head_cg,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
          ) + COALESCE(gain_at_3, 0.0) * discount_3
        ) + (
          COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * discount_6 + COALESCE(gain_at_7, 0.0) * discount_7
          ) + COALESCE(gain_at_8, 0.0) * discount_8
        ) + (
          COALESCE(gain_at_9, 0.0) * discount_9 + COALESCE(gain_at_10, 0.0) * discount_10
        )
      )
    ) AS head_dcg
  FROM ideal_dcg_by_query
  CROSS JOIN discounts
), ideal_dcg_at_cutoffs AS (
  SELECT
    qid,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
        ) + COALESCE(gain_at_3, 0.0)
      ) + (
        COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
      )
    ) AS ideal_cg_1,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
        ) + COALESCE(gain_at_3, 0.0) * discount_3
      ) + (
        COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
      )
    ) AS ideal_dcg_1,
    head_cg AS ideal_cg_2,
    head_dcg AS ideal_dcg_2
  FROM ideal_dcg_head
), cutoffs AS (
  SELECT
    1 AS cutoff_id,
    CAST(5 AS BIGINT) AS k
  UNION ALL
  SELECT
    2 AS cutoff_id,
    CAST(10 AS BIGINT) AS k
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
  INNER JOIN run_dcg_at_cutoffs AS r
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
), evaluated_queries AS (
  SELECT DISTINCT
    qid
  FROM run_rows
), relevant_counts AS (
  SELECT
    qid,
    SUM(CASE WHEN label >= 1.0 THEN 1 ELSE 0 END) AS relevant_1
  FROM (
    SELECT
      qid,
      label
    FROM labelled_items
  ) AS judged_labels
  GROUP BY
    qid
), relevance_by_rank AS (
  SELECT
    qid,
    rank,
    CASE WHEN label >= 1.0 THEN 1.0 ELSE 0.0 END AS relevant_1
  FROM ranked_items
), running_relevance AS (
  SELECT
    qid,
    rank,
    relevant_1,
    SUM(relevant_1) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS relevant_through_1
  FROM relevance_by_rank
), precision_sums AS (
  SELECT
    qid,
    rank,
    relevant_1,
    relevant_through_1,
    SUM(
      CASE
        WHEN relevant_1 = 1.0
        THEN CAST(relevant_through_1 AS DOUBLE PRECISION) / NULLIF(rank, 0)
        ELSE 0.0
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS precision_sum_1
  FROM running_relevance
), ranked_measures AS (
  SELECT
    qid,
    MAX(CASE WHEN rank <= 10 AND relevant_1 = 1.0 THEN 1.0 END) AS numerator_1
  FROM precision_sums
  GROUP BY
    qid
), binary_measures AS (
  SELECT
    q.qid,
    1 AS measure_order,
    CAST(COALESCE(r.numerator_1, 0.0) AS DOUBLE PRECISION) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
), binary_measure_rows AS (
  SELECT
    qid AS "query_id",
    measure_order,
    value
  FROM binary_measures
), measure_names AS (
  SELECT
    1 AS measure_order,
    'Success@10' AS measure
  UNION ALL
  SELECT
    2 AS measure_order,
    'nDCG@10' AS measure
  UNION ALL
  SELECT
    3 AS measure_order,
    'DCG@5' AS measure
), measure_values AS (
  SELECT
    "query_id" AS qid,
    2 AS measure_order,
    ndcg AS value
  FROM per_query_rows
  WHERE
    k = 10
  UNION ALL
  SELECT
    "query_id" AS qid,
    3 AS measure_order,
    dcg AS value
  FROM per_query_rows
  WHERE
    k = 5
  UNION ALL
  SELECT
    "query_id" AS qid,
    measure_order,
    value
  FROM binary_measure_rows
)
SELECT
  v.qid AS "query_id",
  n.measure,
  CAST(v.value AS DOUBLE PRECISION) AS value
FROM measure_values AS v
INNER JOIN measure_names AS n
  ON v.measure_order = n.measure_order
ORDER BY
  n.measure_order ASC NULLS FIRST,
  v.qid ASC
