-- ndcg_sql 0.1.0, redshift: one row per input check: the column, the problem and the rows breaking
-- it (0: passes).
-- Options: k=[10, 'all'], gain='linear', discount='1/log2(rank + 1)', ties='item-desc',
-- ranking_by='rank', ideal='judgments', no_relevant='zero', missing_queries='zero',
-- unjudged='zero', score_precision='double', negative_labels='error'.
-- The checks a warehouse evaluation counts; a failing count above 0 is what evaluate() refuses
-- with an InputError naming the column and a few query ids.
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
), judgment_labels AS (
  SELECT
    "query_id" AS qid,
    "label" AS label_raw
  FROM "proj"."ds"."qrels"
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
), judgment_duplicate_pairs AS (
  SELECT
    qid,
    item,
    COUNT(*) AS copies
  FROM judgment_rows
  GROUP BY
    qid,
    item
  HAVING
    COUNT(*) > 1
), judgment_gain_totals AS (
  SELECT
    qid,
    SUM(
      CASE
        WHEN NOT (
          CASE
            WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
            THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
          END = CAST('NaN' AS DOUBLE PRECISION)
        )
        AND ABS(
          CASE
            WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
            THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
          END
        ) <= 1.7976931348623157e308
        AND CASE
          WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END > 0
        THEN CAST(CASE
          WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END AS DOUBLE PRECISION) * 9.332636185032189e-302
        ELSE 0.0
      END
    ) AS scaled_gain
  FROM judgment_rows
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
        WHEN NOT order_raw IS NULL
        AND CASE
          WHEN TRIM(CAST(order_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(order_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END IS NULL
        THEN 1
        ELSE 0
      END
    ) AS check_3,
    SUM(
      CASE
        WHEN CASE
          WHEN TRIM(CAST(order_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(order_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END = CAST('NaN' AS DOUBLE PRECISION)
        THEN 1
        ELSE 0
      END
    ) AS check_4
  FROM run_rows
), run_duplicate_pairs_checks AS (
  SELECT
    COUNT(*) AS run_duplicate_pairs_count,
    SUM(CASE WHEN TRUE THEN 1 ELSE 0 END) AS check_5,
    SUM(CASE WHEN TRUE THEN copies ELSE 0 END) AS rows_5
  FROM run_duplicate_pairs
), judgment_rows_checks AS (
  SELECT
    COUNT(*) AS judgment_rows_count,
    SUM(CASE WHEN qid IS NULL THEN 1 ELSE 0 END) AS check_6,
    SUM(CASE WHEN item IS NULL THEN 1 ELSE 0 END) AS check_7,
    SUM(CASE WHEN label_raw IS NULL THEN 1 ELSE 0 END) AS check_8,
    SUM(
      CASE
        WHEN NOT label_raw IS NULL
        AND CASE
          WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END IS NULL
        THEN 1
        ELSE 0
      END
    ) AS check_9,
    SUM(
      CASE
        WHEN CASE
          WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END = CAST('NaN' AS DOUBLE PRECISION)
        OR ABS(
          CASE
            WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
            THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
          END
        ) > 1.7976931348623157e308
        THEN 1
        ELSE 0
      END
    ) AS check_10,
    SUM(
      CASE
        WHEN NOT (
          CASE
            WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
            THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
          END = CAST('NaN' AS DOUBLE PRECISION)
        )
        AND ABS(
          CASE
            WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
            THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
          END
        ) <= 1.7976931348623157e308
        AND CASE
          WHEN TRIM(CAST(label_raw AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$'
          THEN CAST(TRIM(CAST(label_raw AS VARCHAR(MAX))) AS DOUBLE PRECISION)
        END < 0
        THEN 1
        ELSE 0
      END
    ) AS check_11
  FROM judgment_rows
), judgment_gain_totals_checks AS (
  SELECT
    COUNT(*) AS judgment_gain_totals_count,
    SUM(CASE WHEN scaled_gain > 8388608.0 THEN 1 ELSE 0 END) AS check_12
  FROM judgment_gain_totals
), judgment_duplicate_pairs_checks AS (
  SELECT
    COUNT(*) AS judgment_duplicate_pairs_count,
    SUM(CASE WHEN TRUE THEN 1 ELSE 0 END) AS check_13,
    SUM(CASE WHEN TRUE THEN copies ELSE 0 END) AS rows_13
  FROM judgment_duplicate_pairs
), check_counts AS (
  SELECT
    *
  FROM run_rows_checks
  CROSS JOIN run_duplicate_pairs_checks
  CROSS JOIN judgment_rows_checks
  CROSS JOIN judgment_gain_totals_checks
  CROSS JOIN judgment_duplicate_pairs_checks
)
SELECT
  'ranking' AS input,
  CAST(NULL AS VARCHAR(MAX)) AS column_name,
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
  'rank' AS column_name,
  'NULL ranks' AS problem,
  check_2 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'rank' AS column_name,
  'non-numeric ranks' AS problem,
  check_3 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'rank' AS column_name,
  'NaN ranks' AS problem,
  check_4 AS failing
FROM check_counts
UNION ALL
SELECT
  'ranking' AS input,
  'query_id, item_id' AS column_name,
  'duplicate (query, item) rows in the ranking' AS problem,
  rows_5 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  CAST(NULL AS VARCHAR(MAX)) AS column_name,
  'no rows' AS problem,
  CASE WHEN judgment_rows_count = 0 THEN 1 ELSE 0 END AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'query_id' AS column_name,
  'NULL query ids in the judgments' AS problem,
  check_6 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'item_id' AS column_name,
  'NULL item ids in the judgments' AS problem,
  check_7 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'label' AS column_name,
  'NULL labels in the judgments' AS problem,
  check_8 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'label' AS column_name,
  'non-numeric labels in the judgments' AS problem,
  check_9 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'label' AS column_name,
  'NaN or infinite labels in the judgments' AS problem,
  check_10 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'label' AS column_name,
  'negative labels in the judgments' AS problem,
  check_11 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'label' AS column_name,
  'queries in the judgments whose gains add up past 2^1023 (about 9.0e307, where a double overflows: with linear gain the gain is the label; dividing the labels by a constant leaves NDCG as it is)' AS problem,
  check_12 AS failing
FROM check_counts
UNION ALL
SELECT
  'judgments' AS input,
  'query_id, item_id' AS column_name,
  'duplicate (query, item) rows in the judgments' AS problem,
  rows_13 AS failing
FROM check_counts
