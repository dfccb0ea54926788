-- ndcg_sql 0.1.0, snowflake: one row per (query, cutoff k): CG, DCG, IDCG and NDCG at k.
-- Options: k=[10, 'all'], gain='linear', discount='1/log2(rank + 1)', ties='item-desc',
-- ranking_by='rank', ideal='judgments', no_relevant='zero', missing_queries='zero',
-- unjudged='zero', score_precision='double', negative_labels='error', item_type='text'.
-- Input checks: none in this statement. NULL or NaN scores, NULL, NaN, negative or non-numeric
-- labels and duplicate (query, item) rows give wrong numbers here, not an error. Gate on the
-- checks' SQL first: the same call with what='checks' (ndcg-sql sql --statement checks), or dbt's
-- ndcg_valid_input.
WITH run_rows AS (
  SELECT
    "QUERY_ID" AS qid,
    "ITEM_ID" AS item,
    "RANK" AS order_raw,
    CAST(NULL AS DOUBLE) AS label_raw
  FROM "PROJ"."DS"."RUNS"
), judgment_rows AS (
  SELECT
    "QUERY_ID" AS qid,
    "ITEM_ID" AS item,
    "LABEL" AS label_raw
  FROM "PROJ"."DS"."QRELS"
), judgment_labels AS (
  SELECT
    "QUERY_ID" AS qid,
    "LABEL" AS label_raw
  FROM "PROJ"."DS"."QRELS"
), labelled_items AS (
  SELECT
    r.qid,
    r.item,
    CAST(r.order_raw AS DOUBLE) AS order_value,
    COALESCE(j.label, 0.0) AS label
  FROM run_rows AS r
  LEFT JOIN (
    SELECT
      qid,
      item,
      CAST(label_raw AS DOUBLE) AS label
    FROM judgment_rows
    WHERE
      CAST(label_raw AS DOUBLE) <> 0.0
  ) AS j
    ON r.qid = j.qid AND r.item = j.item
), gained_items AS (
  SELECT
    qid,
    item,
    order_value,
    label,
    label AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    label,
    order_value,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value ASC NULLS FIRST, COLLATE(item, 'utf8') DESC NULLS LAST
    ) AS rank,
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
      CAST(label_raw AS DOUBLE) AS gain
    FROM judgment_labels
  ) AS ideal_source
), run_positions AS (
  SELECT
    qid,
    rank AS position,
    credited_gain AS gain
  FROM ranked_items
), discounts AS (
  SELECT
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(2 AS DOUBLE)), 0) AS discount_1,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(3 AS DOUBLE)), 0) AS discount_2,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(4 AS DOUBLE)), 0) AS discount_3,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(5 AS DOUBLE)), 0) AS discount_4,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(6 AS DOUBLE)), 0) AS discount_5,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(7 AS DOUBLE)), 0) AS discount_6,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(8 AS DOUBLE)), 0) AS discount_7,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(9 AS DOUBLE)), 0) AS discount_8,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(10 AS DOUBLE)), 0) AS discount_9,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(11 AS DOUBLE)), 0) AS discount_10,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(12 AS DOUBLE)), 0) AS discount_11,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(13 AS DOUBLE)), 0) AS discount_12,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(14 AS DOUBLE)), 0) AS discount_13,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(15 AS DOUBLE)), 0) AS discount_14,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(16 AS DOUBLE)), 0) AS discount_15,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(17 AS DOUBLE)), 0) AS discount_16,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(18 AS DOUBLE)), 0) AS discount_17,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(19 AS DOUBLE)), 0) AS discount_18,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(20 AS DOUBLE)), 0) AS discount_19,
    CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(21 AS DOUBLE)), 0) AS discount_20
), run_dcg_by_position AS (
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > 20 THEN gain END) OVER (
      PARTITION BY qid
      ORDER BY position ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(
      CASE
        WHEN position > 20
        THEN gain * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(position AS DOUBLE) + 1.0), 0)
        )
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY position ASC NULLS FIRST
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
    MAX(tail_cg) AS tail_cg_2,
    MAX(tail_dcg) AS tail_dcg_2
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
    ) AS cg_1,
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
    ) AS dcg_1,
    head_cg + COALESCE(tail_cg_2, 0.0) AS cg_2,
    head_dcg + COALESCE(tail_dcg_2, 0.0) AS dcg_2
  FROM run_dcg_head
), ideal_dcg_by_position AS (
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > 20 THEN gain END) OVER (
      PARTITION BY qid
      ORDER BY position ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(
      CASE
        WHEN position > 20
        THEN gain * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(position AS DOUBLE) + 1.0), 0)
        )
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY position ASC NULLS FIRST
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
    MAX(tail_cg) AS tail_cg_2,
    MAX(tail_dcg) AS tail_dcg_2
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
    ) AS ideal_cg_1,
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
    ) AS ideal_dcg_1,
    head_cg + COALESCE(tail_cg_2, 0.0) AS ideal_cg_2,
    head_dcg + COALESCE(tail_dcg_2, 0.0) AS ideal_dcg_2
  FROM ideal_dcg_head
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
)
SELECT
  qid AS "QUERY_ID",
  k,
  CAST(cg AS DOUBLE) AS cg,
  CAST(dcg AS DOUBLE) AS dcg,
  CAST(idcg AS DOUBLE) AS idcg,
  CASE
    WHEN idcg > 0
    THEN CAST(dcg AS DOUBLE) / NULLIF(idcg, 0)
    ELSE CAST(0.0 AS DOUBLE)
  END AS ndcg
FROM query_values
ORDER BY
  qid ASC,
  k ASC
