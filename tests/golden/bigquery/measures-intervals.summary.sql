-- ndcg_sql 0.1.0, bigquery: one row per (measure): the mean over the queries, its standard error
-- and 95% interval.
-- Options: gain='exponential', discount='1/log2(rank + 1)', ties='item-desc', ranking_by='score',
-- ideal='list', no_relevant='zero', score_precision='double', negative_labels='error',
-- measures=['Success@10', 'nDCG@10', 'DCG@5'].
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
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC, item DESC) AS rank,
    gain AS credited_gain
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
    CAST(LN(2.0) AS FLOAT64) / NULLIF(LN(CAST(11 AS FLOAT64)), 0) AS discount_10
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
    CAST(5 AS INT64) AS k
  UNION ALL
  SELECT
    2 AS cutoff_id,
    CAST(10 AS INT64) AS k
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
      ORDER BY rank ASC
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
        THEN CAST(relevant_through_1 AS FLOAT64) / NULLIF(rank, 0)
        ELSE 0.0
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC
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
    CAST(COALESCE(r.numerator_1, 0.0) AS FLOAT64) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
), binary_measure_rows AS (
  SELECT
    qid AS `query_id`,
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
    `query_id` AS qid,
    2 AS measure_order,
    ndcg AS value
  FROM per_query_rows
  WHERE
    k = 10
  UNION ALL
  SELECT
    `query_id` AS qid,
    3 AS measure_order,
    dcg AS value
  FROM per_query_rows
  WHERE
    k = 5
  UNION ALL
  SELECT
    `query_id` AS qid,
    measure_order,
    value
  FROM binary_measure_rows
), measure_rows AS (
  SELECT
    v.qid AS `query_id`,
    n.measure,
    CAST(v.value AS FLOAT64) AS value
  FROM measure_values AS v
  INNER JOIN measure_names AS n
    ON v.measure_order = n.measure_order
), summary_groups AS (
  SELECT
    1 AS place,
    'Success@10' AS measure,
    'wilson' AS ci_method
  UNION ALL
  SELECT
    2 AS place,
    'nDCG@10' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
  UNION ALL
  SELECT
    3 AS place,
    'DCG@5' AS measure,
    'normal' AS ci_method
), summary_values AS (
  SELECT
    measure,
    value
  FROM measure_rows
), summary_scales AS (
  SELECT
    measure,
    CASE
      WHEN measure IN ('DCG@5') AND MAX(ABS(value)) > 1.0
      THEN MAX(ABS(value))
      ELSE 1.0
    END AS scale
  FROM summary_values
  GROUP BY
    measure
), summary_sums AS (
  SELECT
    v.measure,
    s.scale AS scale,
    SUM(CAST(CAST(v.value AS FLOAT64) / NULLIF(s.scale, 0) AS BIGNUMERIC)) AS scaled_sum,
    COUNT(v.value) AS queries,
    COUNT(*) AS evaluated
  FROM summary_values AS v
  INNER JOIN summary_scales AS s
    ON v.measure = s.measure
  GROUP BY
    v.measure,
    s.scale
), summary_means AS (
  SELECT
    *,
    CAST(scale * CAST(scaled_sum AS FLOAT64) AS FLOAT64) / NULLIF(queries, 0) AS mean
  FROM summary_sums
), summary_spreads AS (
  SELECT
    v.measure,
    SUM(
      CAST((
        CAST(v.value - m.mean AS FLOAT64) / NULLIF(m.scale, 0)
      ) * (
        CAST(v.value - m.mean AS FLOAT64) / NULLIF(m.scale, 0)
      ) AS BIGNUMERIC)
    ) AS scaled_squares
  FROM summary_values AS v
  INNER JOIN summary_means AS m
    ON v.measure = m.measure
  GROUP BY
    v.measure
), summary_errors AS (
  SELECT
    m.measure,
    CASE
      WHEN m.queries >= 2
      THEN CAST(m.scale * SQRT(CAST(d.scaled_squares AS FLOAT64) / NULLIF(CAST(m.queries - 1 AS FLOAT64), 0)) AS FLOAT64) / NULLIF(SQRT(CAST(m.queries AS FLOAT64)), 0)
    END AS stderr
  FROM summary_means AS m
  INNER JOIN summary_spreads AS d
    ON m.measure = d.measure
), summary_bounds AS (
  SELECT
    e.measure,
    e.stderr,
    CASE
      WHEN g.ci_method <> 'wilson'
      THEN m.mean - 1.959963984540054 * e.stderr
      ELSE CASE
        WHEN m.queries < 2
        THEN NULL
        WHEN m.mean = 0
        THEN 0.0
        ELSE CAST(m.queries * m.mean + 0.5 * 1.959963984540054 * 1.959963984540054 - 1.959963984540054 * SQRT(
          m.queries * m.mean * (
            1 - m.mean
          ) + 0.25 * 1.959963984540054 * 1.959963984540054
        ) AS FLOAT64) / NULLIF(m.queries + 1.959963984540054 * 1.959963984540054, 0)
      END
    END AS ci_low,
    CASE
      WHEN g.ci_method <> 'wilson'
      THEN m.mean + 1.959963984540054 * e.stderr
      ELSE CASE
        WHEN m.queries < 2
        THEN NULL
        WHEN m.mean = 1
        THEN 1.0
        ELSE CAST(m.queries * m.mean + 0.5 * 1.959963984540054 * 1.959963984540054 + 1.959963984540054 * SQRT(
          m.queries * m.mean * (
            1 - m.mean
          ) + 0.25 * 1.959963984540054 * 1.959963984540054
        ) AS FLOAT64) / NULLIF(m.queries + 1.959963984540054 * 1.959963984540054, 0)
      END
    END AS ci_high
  FROM summary_errors AS e
  INNER JOIN summary_means AS m
    ON e.measure = m.measure
  INNER JOIN summary_groups AS g
    ON g.measure = e.measure
)
SELECT
  g.measure,
  m.mean AS mean,
  CAST(COALESCE(m.queries, 0) AS INT64) AS queries,
  CAST(COALESCE(m.evaluated, 0) AS INT64) AS evaluated,
  e.stderr,
  CASE
    WHEN g.ci_method = 'normal'
    THEN e.ci_low
    ELSE CASE WHEN e.ci_low < 0 THEN 0.0 WHEN e.ci_low > 1 THEN 1.0 ELSE e.ci_low END
  END AS ci_low,
  CASE
    WHEN g.ci_method = 'normal'
    THEN e.ci_high
    ELSE CASE WHEN e.ci_high < 0 THEN 0.0 WHEN e.ci_high > 1 THEN 1.0 ELSE e.ci_high END
  END AS ci_high,
  g.ci_method
FROM summary_groups AS g
LEFT JOIN summary_means AS m
  ON g.measure = m.measure
LEFT JOIN summary_bounds AS e
  ON g.measure = e.measure
ORDER BY
  g.place ASC NULLS LAST
