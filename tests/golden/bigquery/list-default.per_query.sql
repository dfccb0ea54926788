-- ndcg_sql 0.1.0, bigquery: one row per (query, cutoff k): CG, DCG, IDCG and NDCG at k.
-- Options: k=[1, 3, 5, 10, 20, 'all'], gain='exponential', discount='1/log2(rank + 1)',
-- ties='average', ranking_by='score', ideal='list', no_relevant='zero', score_precision='double',
-- negative_labels='error'.
-- Input checks: none in this statement. NULL or NaN scores, NULL, NaN, negative or non-numeric
-- labels and duplicate (query, item) rows give wrong numbers here, not an error. Gate on the
-- checks' SQL first: the same call with what='checks' (ndcg-sql sql --statement checks), or dbt's
-- ndcg_valid_input.
WITH run_rows AS (
  SELECT
    `query_id` AS qid,
    `item_id` AS item,
    `score` AS order_raw,
    `label` AS label_raw
  FROM `runs`
), run_labels AS (
  SELECT
    `query_id` AS qid,
    `label` AS label_raw
  FROM `runs`
), labelled_items AS (
  SELECT
    qid,
    item,
    CAST(order_raw AS FLOAT64) AS order_value,
    CAST(label_raw AS FLOAT64) AS label
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
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC, item ASC) AS rank,
    CASE
      WHEN MIN(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      ) = MAX(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      )
      THEN gain
      ELSE AVG(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      )
    END AS credited_gain
  FROM gained_items
), ideal_items AS (
  SELECT
    qid,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC) AS position,
    gain
  FROM (
    SELECT
      qid,
      (
        POWER(2.0, CAST(label_raw AS FLOAT64)) - 1.0
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
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(2 AS FLOAT64)), 0) AS discount_1,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(3 AS FLOAT64)), 0) AS discount_2,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(4 AS FLOAT64)), 0) AS discount_3,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(5 AS FLOAT64)), 0) AS discount_4,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(6 AS FLOAT64)), 0) AS discount_5,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(7 AS FLOAT64)), 0) AS discount_6,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(8 AS FLOAT64)), 0) AS discount_7,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(9 AS FLOAT64)), 0) AS discount_8,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(10 AS FLOAT64)), 0) AS discount_9,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(11 AS FLOAT64)), 0) AS discount_10,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(12 AS FLOAT64)), 0) AS discount_11,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(13 AS FLOAT64)), 0) AS discount_12,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(14 AS FLOAT64)), 0) AS discount_13,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(15 AS FLOAT64)), 0) AS discount_14,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(16 AS FLOAT64)), 0) AS discount_15,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(17 AS FLOAT64)), 0) AS discount_16,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(18 AS FLOAT64)), 0) AS discount_17,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(19 AS FLOAT64)), 0) AS discount_18,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(20 AS FLOAT64)), 0) AS discount_19,
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(21 AS FLOAT64)), 0) AS discount_20
), run_dcg_by_position AS (
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > 20 THEN gain END) OVER (
      PARTITION BY qid
      ORDER BY position ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(
      CASE
        WHEN position > 20
        THEN gain * (
          CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(position AS FLOAT64) + 1.0), 0)
        )
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY position ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_dcg
  FROM run_positions
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
    MAX(CASE WHEN position = 10 THEN gain END) AS gain_at_10,
    MAX(CASE WHEN position = 11 THEN gain END) AS gain_at_11,
    MAX(CASE WHEN position = 12 THEN gain END) AS gain_at_12,
    MAX(CASE WHEN position = 13 THEN gain END) AS gain_at_13,
    MAX(CASE WHEN position = 14 THEN gain END) AS gain_at_14,
    MAX(CASE WHEN position = 15 THEN gain END) AS gain_at_15,
    MAX(CASE WHEN position = 16 THEN gain END) AS gain_at_16,
    MAX(CASE WHEN position = 17 THEN gain END) AS gain_at_17,
    MAX(CASE WHEN position = 18 THEN gain END) AS gain_at_18,
    MAX(CASE WHEN position = 19 THEN gain END) AS gain_at_19,
    MAX(CASE WHEN position = 20 THEN gain END) AS gain_at_20,
    MAX(tail_cg) AS tail_cg_6,
    MAX(tail_dcg) AS tail_dcg_6
  FROM run_dcg_by_position
  GROUP BY
    qid
), run_dcg_head AS (
  SELECT
    *,
    (
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
      ) + (
        (
          (
            (
              COALESCE(gain_at_11, 0.0) + COALESCE(gain_at_12, 0.0)
            ) + COALESCE(gain_at_13, 0.0)
          ) + (
            COALESCE(gain_at_14, 0.0) + COALESCE(gain_at_15, 0.0)
          )
        ) + (
          (
            (
              COALESCE(gain_at_16, 0.0) + COALESCE(gain_at_17, 0.0)
            ) + COALESCE(gain_at_18, 0.0)
          ) + (
            COALESCE(gain_at_19, 0.0) + COALESCE(gain_at_20, 0.0)
          )
        )
      )
    ) AS head_cg,
    (
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
      ) + (
        (
          (
            (
              COALESCE(gain_at_11, 0.0) * discount_11 + COALESCE(gain_at_12, 0.0) * discount_12
            ) + COALESCE(gain_at_13, 0.0) * discount_13
          ) + (
            COALESCE(gain_at_14, 0.0) * discount_14 + COALESCE(gain_at_15, 0.0) * discount_15
          )
        ) + (
          (
            (
              COALESCE(gain_at_16, 0.0) * discount_16 + COALESCE(gain_at_17, 0.0) * discount_17
            ) + COALESCE(gain_at_18, 0.0) * discount_18
          ) + (
            COALESCE(gain_at_19, 0.0) * discount_19 + COALESCE(gain_at_20, 0.0) * discount_20
          )
        )
      )
    ) AS head_dcg
  FROM run_dcg_by_query
  CROSS JOIN discounts
), run_dcg_at_cutoffs AS (
  SELECT
    qid,
    COALESCE(gain_at_1, 0.0) AS cg_1,
    COALESCE(gain_at_1, 0.0) * discount_1 AS dcg_1,
    (
      (
        COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
      ) + COALESCE(gain_at_3, 0.0)
    ) AS cg_2,
    (
      (
        COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
      ) + COALESCE(gain_at_3, 0.0) * discount_3
    ) AS dcg_2,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
        ) + COALESCE(gain_at_3, 0.0)
      ) + (
        COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
      )
    ) AS cg_3,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
        ) + COALESCE(gain_at_3, 0.0) * discount_3
      ) + (
        COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
      )
    ) AS dcg_3,
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
    ) AS cg_4,
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
    ) AS dcg_4,
    head_cg AS cg_5,
    head_dcg AS dcg_5,
    head_cg + COALESCE(tail_cg_6, 0.0) AS cg_6,
    head_dcg + COALESCE(tail_dcg_6, 0.0) AS dcg_6
  FROM run_dcg_head
), ideal_dcg_by_position AS (
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > 20 THEN gain END) OVER (
      PARTITION BY qid
      ORDER BY position ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(
      CASE
        WHEN position > 20
        THEN gain * (
          CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(position AS FLOAT64) + 1.0), 0)
        )
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY position ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_dcg
  FROM ideal_items
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
    MAX(CASE WHEN position = 10 THEN gain END) AS gain_at_10,
    MAX(CASE WHEN position = 11 THEN gain END) AS gain_at_11,
    MAX(CASE WHEN position = 12 THEN gain END) AS gain_at_12,
    MAX(CASE WHEN position = 13 THEN gain END) AS gain_at_13,
    MAX(CASE WHEN position = 14 THEN gain END) AS gain_at_14,
    MAX(CASE WHEN position = 15 THEN gain END) AS gain_at_15,
    MAX(CASE WHEN position = 16 THEN gain END) AS gain_at_16,
    MAX(CASE WHEN position = 17 THEN gain END) AS gain_at_17,
    MAX(CASE WHEN position = 18 THEN gain END) AS gain_at_18,
    MAX(CASE WHEN position = 19 THEN gain END) AS gain_at_19,
    MAX(CASE WHEN position = 20 THEN gain END) AS gain_at_20,
    MAX(tail_cg) AS tail_cg_6,
    MAX(tail_dcg) AS tail_dcg_6
  FROM ideal_dcg_by_position
  GROUP BY
    qid
), ideal_dcg_head AS (
  SELECT
    *,
    (
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
      ) + (
        (
          (
            (
              COALESCE(gain_at_11, 0.0) + COALESCE(gain_at_12, 0.0)
            ) + COALESCE(gain_at_13, 0.0)
          ) + (
            COALESCE(gain_at_14, 0.0) + COALESCE(gain_at_15, 0.0)
          )
        ) + (
          (
            (
              COALESCE(gain_at_16, 0.0) + COALESCE(gain_at_17, 0.0)
            ) + COALESCE(gain_at_18, 0.0)
          ) + (
            COALESCE(gain_at_19, 0.0) + COALESCE(gain_at_20, 0.0)
          )
        )
      )
    ) AS head_cg,
    (
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
      ) + (
        (
          (
            (
              COALESCE(gain_at_11, 0.0) * discount_11 + COALESCE(gain_at_12, 0.0) * discount_12
            ) + COALESCE(gain_at_13, 0.0) * discount_13
          ) + (
            COALESCE(gain_at_14, 0.0) * discount_14 + COALESCE(gain_at_15, 0.0) * discount_15
          )
        ) + (
          (
            (
              COALESCE(gain_at_16, 0.0) * discount_16 + COALESCE(gain_at_17, 0.0) * discount_17
            ) + COALESCE(gain_at_18, 0.0) * discount_18
          ) + (
            COALESCE(gain_at_19, 0.0) * discount_19 + COALESCE(gain_at_20, 0.0) * discount_20
          )
        )
      )
    ) AS head_dcg
  FROM ideal_dcg_by_query
  CROSS JOIN discounts
), ideal_dcg_at_cutoffs AS (
  SELECT
    qid,
    COALESCE(gain_at_1, 0.0) AS ideal_cg_1,
    COALESCE(gain_at_1, 0.0) * discount_1 AS ideal_dcg_1,
    (
      (
        COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
      ) + COALESCE(gain_at_3, 0.0)
    ) AS ideal_cg_2,
    (
      (
        COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
      ) + COALESCE(gain_at_3, 0.0) * discount_3
    ) AS ideal_dcg_2,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
        ) + COALESCE(gain_at_3, 0.0)
      ) + (
        COALESCE(gain_at_4, 0.0) + COALESCE(gain_at_5, 0.0)
      )
    ) AS ideal_cg_3,
    (
      (
        (
          COALESCE(gain_at_1, 0.0) * discount_1 + COALESCE(gain_at_2, 0.0) * discount_2
        ) + COALESCE(gain_at_3, 0.0) * discount_3
      ) + (
        COALESCE(gain_at_4, 0.0) * discount_4 + COALESCE(gain_at_5, 0.0) * discount_5
      )
    ) AS ideal_dcg_3,
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
    ) AS ideal_cg_4,
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
    ) AS ideal_dcg_4,
    head_cg AS ideal_cg_5,
    head_dcg AS ideal_dcg_5,
    head_cg + COALESCE(tail_cg_6, 0.0) AS ideal_cg_6,
    head_dcg + COALESCE(tail_dcg_6, 0.0) AS ideal_dcg_6
  FROM ideal_dcg_head
), cutoffs AS (
  SELECT
    1 AS cutoff_id,
    CAST(1 AS INT64) AS k
  UNION ALL
  SELECT
    2 AS cutoff_id,
    CAST(3 AS INT64) AS k
  UNION ALL
  SELECT
    3 AS cutoff_id,
    CAST(5 AS INT64) AS k
  UNION ALL
  SELECT
    4 AS cutoff_id,
    CAST(10 AS INT64) AS k
  UNION ALL
  SELECT
    5 AS cutoff_id,
    CAST(20 AS INT64) AS k
  UNION ALL
  SELECT
    6 AS cutoff_id,
    CAST(NULL AS INT64) AS k
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
  qid AS `query_id`,
  k,
  CAST(cg AS FLOAT64) AS cg,
  CAST(dcg AS FLOAT64) AS dcg,
  CAST(idcg AS FLOAT64) AS idcg,
  CASE
    WHEN idcg > 0
    THEN CAST(dcg AS FLOAT64) / NULLIF(idcg, 0)
    ELSE CAST(0.0 AS FLOAT64)
  END AS ndcg
FROM query_values
ORDER BY
  qid ASC NULLS LAST,
  k ASC NULLS LAST
