-- ndcg_sql 0.1.0, postgres: one row per (query, cutoff k): CG, DCG, IDCG and NDCG at k.
-- Options: k=[5, 10], gain={'0': 0.0, '1': 1.0, '2': 3.0, '3': 7.0}, discount='1/log2(rank + 1)',
-- ties='item-asc', ranking_by='score', ideal='list', no_relevant='skip', score_precision='double',
-- negative_labels='error', item_type='text'.
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
  FROM "db"."sch"."runs"
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
    CASE label
      WHEN 0.0
      THEN CAST(0.0 AS DOUBLE PRECISION)
      WHEN 1.0
      THEN CAST(1.0 AS DOUBLE PRECISION)
      WHEN 2.0
      THEN CAST(3.0 AS DOUBLE PRECISION)
      WHEN 3.0
      THEN CAST(7.0 AS DOUBLE PRECISION)
    END AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    label,
    order_value,
    ROW_NUMBER() OVER (
      PARTITION BY qid
      ORDER BY order_value DESC NULLS LAST, item COLLATE "C" ASC NULLS FIRST
    ) AS rank,
    gain AS credited_gain
  FROM gained_items
), run_positions AS (
  SELECT
    qid,
    rank AS position,
    credited_gain AS gain,
    label
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
    MAX(CASE WHEN position = 10 THEN gain END) AS gain_at_10,
    COUNT(CASE WHEN label = 3.0 THEN 1 END) AS items_of_grade_1,
    COUNT(CASE WHEN label = 2.0 THEN 1 END) AS items_of_grade_2,
    COUNT(CASE WHEN label = 1.0 THEN 1 END) AS items_of_grade_3
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
    items_of_grade_1,
    items_of_grade_2,
    items_of_grade_3,
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
    cg_1,
    dcg_1,
    cg_2,
    dcg_2,
    CASE
      WHEN 1 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 1 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 1 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_1,
    CASE
      WHEN 2 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 2 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 2 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_2,
    CASE
      WHEN 3 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 3 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 3 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_3,
    CASE
      WHEN 4 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 4 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 4 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_4,
    CASE
      WHEN 5 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 5 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 5 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_5,
    CASE
      WHEN 6 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 6 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 6 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_6,
    CASE
      WHEN 7 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 7 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 7 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_7,
    CASE
      WHEN 8 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 8 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 8 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_8,
    CASE
      WHEN 9 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 9 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 9 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_9,
    CASE
      WHEN 10 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 10 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
      WHEN 10 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE PRECISION)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE PRECISION)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE PRECISION)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE PRECISION)
      END
    END AS gain_at_10
  FROM run_dcg_at_cutoffs
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
    cg_1,
    dcg_1,
    cg_2,
    dcg_2,
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
      THEN COALESCE(i.cg_1, 0.0)
      WHEN 2
      THEN COALESCE(i.cg_2, 0.0)
    END AS cg,
    CASE c.cutoff_id
      WHEN 1
      THEN COALESCE(i.dcg_1, 0.0)
      WHEN 2
      THEN COALESCE(i.dcg_2, 0.0)
    END AS dcg,
    CASE c.cutoff_id WHEN 1 THEN i.ideal_dcg_1 WHEN 2 THEN i.ideal_dcg_2 END AS idcg
  FROM ideal_dcg_at_cutoffs AS i
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
    ELSE CAST(NULL AS DOUBLE PRECISION)
  END AS ndcg
FROM query_values
ORDER BY
  qid ASC,
  k ASC
