-- ndcg_sql 0.1.0, spark: one row per input check: the column, the problem and the rows breaking it
-- (0: passes).
-- Options: gain='exponential', discount='1/log2(rank + 1)', ties='item-asc', ranking_by='score',
-- ideal='list', no_relevant='zero', score_precision='double', negative_labels='error',
-- measures=['nDCG@10', 'Success@1'], weight_col='traffic'.
-- The checks a warehouse evaluation counts; a failing count above 0 is what evaluate() refuses
-- with an InputError naming the column and a few query ids.
WITH run_rows AS (
  SELECT
    `query_id` AS qid,
    `item_id` AS item,
    `score` AS order_raw,
    `label` AS label_raw,
    `traffic` AS weight_raw
  FROM `runs`
), run_labels AS (
  SELECT
    `query_id` AS qid,
    `label` AS label_raw
  FROM `runs`
), run_duplicate_pairs AS (
  SELECT
    qid,
    item,
    COUNT(*) AS copies
  FROM run_rows
  GROUP BY
    qid,
    item
  HAVING
    COUNT(*) > 1
), run_weight_queries AS (
  SELECT
    qid,
    CAST(NULL AS DOUBLE) AS item,
    CAST(NULL AS DOUBLE) AS label_raw,
    MIN(CAST(weight_raw AS DOUBLE)) AS lowest_weight,
    MAX(CAST(weight_raw AS DOUBLE)) AS highest_weight,
    COUNT(*) AS query_rows
  FROM run_rows
  GROUP BY
    qid
), run_weight_total AS (
  SELECT
    MAX(CASE WHEN 1 = 0 THEN qid END) AS qid,
    CAST(NULL AS DOUBLE) AS item,
    CAST(NULL AS DOUBLE) AS label_raw,
    MAX(CAST(weight_raw AS DOUBLE)) AS highest_weight
  FROM run_rows
), run_gain_totals AS (
  SELECT
    qid,
    SUM(
      CASE
        WHEN NOT (
          TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        )
        AND ABS(TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE)) <= 1.7976931348623157e308
        AND TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) > 0
        AND TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) <= 1023
        THEN (
          POWER(2.0, CAST(TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) AS DOUBLE)) - 1.0
        ) * 9.332636185032189e-302
        ELSE 0.0
      END
    ) AS scaled_gain
  FROM run_rows
  GROUP BY
    qid
), run_rows_checks AS (
  SELECT
    COUNT(*) AS run_rows_count,
    SUM(CASE WHEN qid IS NULL THEN 1 ELSE 0 END) AS check_0,
    SUM(CASE WHEN item IS NULL THEN 1 ELSE 0 END) AS check_1,
    SUM(CASE WHEN order_raw IS NULL THEN 1 ELSE 0 END) AS check_2,
    SUM(
      CASE
        WHEN NOT order_raw IS NULL AND TRY_CAST(CAST(order_raw AS STRING) AS DOUBLE) IS NULL
        THEN 1
        ELSE 0
      END
    ) AS check_3,
    SUM(
      CASE
        WHEN TRY_CAST(CAST(order_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        THEN 1
        ELSE 0
      END
    ) AS check_4,
    SUM(CASE WHEN weight_raw IS NULL THEN 1 ELSE 0 END) AS check_5,
    SUM(
      CASE
        WHEN TRY_CAST(CAST(weight_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        OR ABS(TRY_CAST(CAST(weight_raw AS STRING) AS DOUBLE)) > 1.7976931348623157e308
        THEN 1
        ELSE 0
      END
    ) AS check_6,
    SUM(
      CASE
        WHEN NOT (
          TRY_CAST(CAST(weight_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        )
        AND TRY_CAST(CAST(weight_raw AS STRING) AS DOUBLE) < 0
        THEN 1
        ELSE 0
      END
    ) AS check_7,
    SUM(CASE WHEN label_raw IS NULL THEN 1 ELSE 0 END) AS check_11,
    SUM(
      CASE
        WHEN NOT label_raw IS NULL AND TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) IS NULL
        THEN 1
        ELSE 0
      END
    ) AS check_12,
    SUM(
      CASE
        WHEN TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        OR ABS(TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE)) > 1.7976931348623157e308
        THEN 1
        ELSE 0
      END
    ) AS check_13,
    SUM(
      CASE
        WHEN NOT (
          TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        )
        AND ABS(TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE)) <= 1.7976931348623157e308
        AND TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) < 0
        THEN 1
        ELSE 0
      END
    ) AS check_14,
    SUM(
      CASE
        WHEN NOT (
          TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) = CAST('NaN' AS DOUBLE)
        )
        AND ABS(TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE)) <= 1.7976931348623157e308
        AND TRY_CAST(CAST(label_raw AS STRING) AS DOUBLE) > 1023
        THEN 1
        ELSE 0
      END
    ) AS check_15
  FROM run_rows
), run_weight_queries_checks AS (
  SELECT
    COUNT(*) AS run_weight_queries_count,
    SUM(CASE WHEN lowest_weight <> highest_weight THEN 1 ELSE 0 END) AS check_8,
    SUM(CASE WHEN lowest_weight <> highest_weight THEN query_rows ELSE 0 END) AS rows_8
  FROM run_weight_queries
), run_weight_total_checks AS (
  SELECT
    COUNT(*) AS run_weight_total_count,
    SUM(CASE WHEN highest_weight = 0 THEN 1 ELSE 0 END) AS check_9
  FROM run_weight_total
), run_duplicate_pairs_checks AS (
  SELECT
    COUNT(*) AS run_duplicate_pairs_count,
    SUM(CASE WHEN TRUE THEN 1 ELSE 0 END) AS check_10,
    SUM(CASE WHEN TRUE THEN copies ELSE 0 END) AS rows_10
  FROM run_duplicate_pairs
), run_gain_totals_checks AS (
  SELECT
    COUNT(*) AS run_gain_totals_count,
    SUM(CASE WHEN scaled_gain > 8388608.0 THEN 1 ELSE 0 END) AS check_16
  FROM run_gain_totals
), check_counts AS (
  SELECT
    *
  FROM run_rows_checks
  CROSS JOIN run_weight_queries_checks
  CROSS JOIN run_weight_total_checks
  CROSS JOIN run_duplicate_pairs_checks
  CROSS JOIN run_gain_totals_checks
)
SELECT
  'ranking' AS input,
  CAST(NULL AS STRING) AS column_name,
  'no rows' AS problem,
  CASE WHEN run_rows_count = 0 THEN 1 ELSE 0 END AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'query_id' AS column_name,
  'NULL query ids' AS problem,
  check_0 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'item_id' AS column_name,
  'NULL item ids' AS problem,
  check_1 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'score' AS column_name,
  'NULL scores' AS problem,
  check_2 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'score' AS column_name,
  'non-numeric scores' AS problem,
  check_3 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'score' AS column_name,
  'NaN scores' AS problem,
  check_4 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'traffic' AS column_name,
  'NULL weights' AS problem,
  check_5 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'traffic' AS column_name,
  'NaN or infinite weights' AS problem,
  check_6 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'traffic' AS column_name,
  'negative weights' AS problem,
  check_7 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'NULL labels' AS problem,
  check_11 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'non-numeric labels' AS problem,
  check_12 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'NaN or infinite labels' AS problem,
  check_13 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'negative labels' AS problem,
  check_14 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'labels above 1023 (2^label - 1 overflows a double; use gain=\'linear\' or a mapping)' AS problem,
  check_15 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'traffic' AS column_name,
  'weights that differ within a query (a query has one weight)' AS problem,
  rows_8 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'traffic' AS column_name,
  'weights that are all 0 (the weighted mean is 0 / 0)' AS problem,
  check_9 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'query_id, item_id' AS column_name,
  'duplicate (query, item) rows in the ranking' AS problem,
  rows_10 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'label' AS column_name,
  'queries whose gains add up past 2^1023 (about 9.0e307, where a double overflows: exponential gain 2^label - 1 of labels near 1023; use gain=\'linear\' or a mapping)' AS problem,
  check_16 AS failing
FROM check_counts
