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
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC NULLS LAST, item ASC NULLS FIRST) AS rank,
    CASE
      WHEN MIN(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC NULLS LAST
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      ) = MAX(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC NULLS LAST
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      )
      THEN gain
      ELSE AVG(gain) OVER (
        PARTITION BY qid
        ORDER BY order_value DESC NULLS LAST
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      )
    END AS credited_gain
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
    MAX(CASE WHEN position = 20 THEN gain END) AS gain_at_20
  FROM run_positions
  GROUP BY
    qid
), run_dcg_at_cutoffs AS (
  SELECT
    qid,
    (
      COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
    ) AS cg_1,
    (
      COALESCE(gain_at_1, 0.0) * (
        CASE
          WHEN CAST(1 AS DOUBLE PRECISION) < 3.0
          THEN 1.0
          ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(1 AS DOUBLE PRECISION)), 0)
        END
      ) + COALESCE(gain_at_2, 0.0) * (
        CASE
          WHEN CAST(2 AS DOUBLE PRECISION) < 3.0
          THEN 1.0
          ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(2 AS DOUBLE PRECISION)), 0)
        END
      )
    ) AS dcg_1,
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
    ) AS cg_2,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) * (
              CASE
                WHEN CAST(1 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(1 AS DOUBLE PRECISION)), 0)
              END
            ) + COALESCE(gain_at_2, 0.0) * (
              CASE
                WHEN CAST(2 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(2 AS DOUBLE PRECISION)), 0)
              END
            )
          ) + COALESCE(gain_at_3, 0.0) * (
            CASE
              WHEN CAST(3 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(3 AS DOUBLE PRECISION)), 0)
            END
          )
        ) + (
          COALESCE(gain_at_4, 0.0) * (
            CASE
              WHEN CAST(4 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(4 AS DOUBLE PRECISION)), 0)
            END
          ) + COALESCE(gain_at_5, 0.0) * (
            CASE
              WHEN CAST(5 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(5 AS DOUBLE PRECISION)), 0)
            END
          )
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * (
              CASE
                WHEN CAST(6 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(6 AS DOUBLE PRECISION)), 0)
              END
            ) + COALESCE(gain_at_7, 0.0) * (
              CASE
                WHEN CAST(7 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(7 AS DOUBLE PRECISION)), 0)
              END
            )
          ) + COALESCE(gain_at_8, 0.0) * (
            CASE
              WHEN CAST(8 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(8 AS DOUBLE PRECISION)), 0)
            END
          )
        ) + (
          COALESCE(gain_at_9, 0.0) * (
            CASE
              WHEN CAST(9 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(9 AS DOUBLE PRECISION)), 0)
            END
          ) + COALESCE(gain_at_10, 0.0) * (
            CASE
              WHEN CAST(10 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(10 AS DOUBLE PRECISION)), 0)
            END
          )
        )
      )
    ) AS dcg_2
  FROM run_dcg_by_query
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
    MAX(CASE WHEN position = 20 THEN gain END) AS gain_at_20
  FROM ideal_items
  GROUP BY
    qid
), ideal_dcg_at_cutoffs AS (
  SELECT
    qid,
    (
      COALESCE(gain_at_1, 0.0) + COALESCE(gain_at_2, 0.0)
    ) AS ideal_cg_1,
    (
      COALESCE(gain_at_1, 0.0) * (
        CASE
          WHEN CAST(1 AS DOUBLE PRECISION) < 3.0
          THEN 1.0
          ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(1 AS DOUBLE PRECISION)), 0)
        END
      ) + COALESCE(gain_at_2, 0.0) * (
        CASE
          WHEN CAST(2 AS DOUBLE PRECISION) < 3.0
          THEN 1.0
          ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(2 AS DOUBLE PRECISION)), 0)
        END
      )
    ) AS ideal_dcg_1,
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
    ) AS ideal_cg_2,
    (
      (
        (
          (
            COALESCE(gain_at_1, 0.0) * (
              CASE
                WHEN CAST(1 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(1 AS DOUBLE PRECISION)), 0)
              END
            ) + COALESCE(gain_at_2, 0.0) * (
              CASE
                WHEN CAST(2 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(2 AS DOUBLE PRECISION)), 0)
              END
            )
          ) + COALESCE(gain_at_3, 0.0) * (
            CASE
              WHEN CAST(3 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(3 AS DOUBLE PRECISION)), 0)
            END
          )
        ) + (
          COALESCE(gain_at_4, 0.0) * (
            CASE
              WHEN CAST(4 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(4 AS DOUBLE PRECISION)), 0)
            END
          ) + COALESCE(gain_at_5, 0.0) * (
            CASE
              WHEN CAST(5 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(5 AS DOUBLE PRECISION)), 0)
            END
          )
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * (
              CASE
                WHEN CAST(6 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(6 AS DOUBLE PRECISION)), 0)
              END
            ) + COALESCE(gain_at_7, 0.0) * (
              CASE
                WHEN CAST(7 AS DOUBLE PRECISION) < 3.0
                THEN 1.0
                ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(7 AS DOUBLE PRECISION)), 0)
              END
            )
          ) + COALESCE(gain_at_8, 0.0) * (
            CASE
              WHEN CAST(8 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(8 AS DOUBLE PRECISION)), 0)
            END
          )
        ) + (
          COALESCE(gain_at_9, 0.0) * (
            CASE
              WHEN CAST(9 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(9 AS DOUBLE PRECISION)), 0)
            END
          ) + COALESCE(gain_at_10, 0.0) * (
            CASE
              WHEN CAST(10 AS DOUBLE PRECISION) < 3.0
              THEN 1.0
              ELSE CAST(LN(3.0) AS DOUBLE PRECISION) / NULLIF(LN(CAST(10 AS DOUBLE PRECISION)), 0)
            END
          )
        )
      )
    ) AS ideal_dcg_2
  FROM ideal_dcg_by_query
), cutoffs AS (
  SELECT
    1 AS cutoff_id,
    CAST(2 AS BIGINT) AS k
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
