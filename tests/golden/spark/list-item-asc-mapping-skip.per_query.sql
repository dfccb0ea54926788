WITH run_rows AS (
  SELECT
    `query_id` AS qid,
    `item_id` AS item,
    `score` AS order_raw,
    `label` AS label_raw
  FROM `db`.`sch`.`runs`
), run_labels AS (
  SELECT
    `query_id` AS qid,
    `label` AS label_raw
  FROM `db`.`sch`.`runs`
), labelled_items AS (
  SELECT
    qid,
    item,
    CAST(order_raw AS DOUBLE) AS order_value,
    CAST(label_raw AS DOUBLE) AS label
  FROM run_rows
), gained_items AS (
  SELECT
    qid,
    item,
    order_value,
    label,
    CASE label
      WHEN 0.0
      THEN CAST(0.0 AS DOUBLE)
      WHEN 1.0
      THEN CAST(1.0 AS DOUBLE)
      WHEN 2.0
      THEN CAST(3.0 AS DOUBLE)
      WHEN 3.0
      THEN CAST(7.0 AS DOUBLE)
    END AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    label,
    order_value,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC, item ASC) AS rank,
    gain AS credited_gain
  FROM gained_items
), ideal_label_counts AS (
  SELECT
    qid,
    COUNT(CASE WHEN CAST(label_raw AS DOUBLE) = 3.0 THEN 1 END) AS items_of_grade_1,
    COUNT(CASE WHEN CAST(label_raw AS DOUBLE) = 2.0 THEN 1 END) AS items_of_grade_2,
    COUNT(CASE WHEN CAST(label_raw AS DOUBLE) = 1.0 THEN 1 END) AS items_of_grade_3
  FROM run_labels
  GROUP BY
    qid
), ideal_dcg_by_query AS (
  SELECT
    qid,
    CASE
      WHEN 1 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 1 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 1 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_1,
    CASE
      WHEN 2 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 2 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 2 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_2,
    CASE
      WHEN 3 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 3 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 3 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_3,
    CASE
      WHEN 4 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 4 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 4 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_4,
    CASE
      WHEN 5 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 5 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 5 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_5,
    CASE
      WHEN 6 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 6 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 6 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_6,
    CASE
      WHEN 7 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 7 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 7 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_7,
    CASE
      WHEN 8 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 8 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 8 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_8,
    CASE
      WHEN 9 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 9 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 9 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_9,
    CASE
      WHEN 10 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 10 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 10 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_10,
    CASE
      WHEN 11 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 11 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 11 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_11,
    CASE
      WHEN 12 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 12 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 12 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_12,
    CASE
      WHEN 13 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 13 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 13 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_13,
    CASE
      WHEN 14 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 14 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 14 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_14,
    CASE
      WHEN 15 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 15 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 15 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_15,
    CASE
      WHEN 16 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 16 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 16 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_16,
    CASE
      WHEN 17 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 17 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 17 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_17,
    CASE
      WHEN 18 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 18 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 18 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_18,
    CASE
      WHEN 19 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 19 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 19 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_19,
    CASE
      WHEN 20 <= items_of_grade_1
      THEN CASE 3.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 20 <= items_of_grade_1 + items_of_grade_2
      THEN CASE 2.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
      WHEN 20 <= items_of_grade_1 + items_of_grade_2 + items_of_grade_3
      THEN CASE 1.0
        WHEN 0.0
        THEN CAST(0.0 AS DOUBLE)
        WHEN 1.0
        THEN CAST(1.0 AS DOUBLE)
        WHEN 2.0
        THEN CAST(3.0 AS DOUBLE)
        WHEN 3.0
        THEN CAST(7.0 AS DOUBLE)
      END
    END AS gain_at_20
  FROM ideal_label_counts
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
          COALESCE(gain_at_1, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(1 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_2, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(2 AS DOUBLE) + 1.0), 0)
          )
        ) + COALESCE(gain_at_3, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(3 AS DOUBLE) + 1.0), 0)
        )
      ) + (
        COALESCE(gain_at_4, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(4 AS DOUBLE) + 1.0), 0)
        ) + COALESCE(gain_at_5, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(5 AS DOUBLE) + 1.0), 0)
        )
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
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(1 AS DOUBLE) + 1.0), 0)
            ) + COALESCE(gain_at_2, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(2 AS DOUBLE) + 1.0), 0)
            )
          ) + COALESCE(gain_at_3, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(3 AS DOUBLE) + 1.0), 0)
          )
        ) + (
          COALESCE(gain_at_4, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(4 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_5, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(5 AS DOUBLE) + 1.0), 0)
          )
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(6 AS DOUBLE) + 1.0), 0)
            ) + COALESCE(gain_at_7, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(7 AS DOUBLE) + 1.0), 0)
            )
          ) + COALESCE(gain_at_8, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(8 AS DOUBLE) + 1.0), 0)
          )
        ) + (
          COALESCE(gain_at_9, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(9 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_10, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(10 AS DOUBLE) + 1.0), 0)
          )
        )
      )
    ) AS dcg_2
  FROM run_dcg_by_query
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
          COALESCE(gain_at_1, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(1 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_2, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(2 AS DOUBLE) + 1.0), 0)
          )
        ) + COALESCE(gain_at_3, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(3 AS DOUBLE) + 1.0), 0)
        )
      ) + (
        COALESCE(gain_at_4, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(4 AS DOUBLE) + 1.0), 0)
        ) + COALESCE(gain_at_5, 0.0) * (
          CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(5 AS DOUBLE) + 1.0), 0)
        )
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
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(1 AS DOUBLE) + 1.0), 0)
            ) + COALESCE(gain_at_2, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(2 AS DOUBLE) + 1.0), 0)
            )
          ) + COALESCE(gain_at_3, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(3 AS DOUBLE) + 1.0), 0)
          )
        ) + (
          COALESCE(gain_at_4, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(4 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_5, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(5 AS DOUBLE) + 1.0), 0)
          )
        )
      ) + (
        (
          (
            COALESCE(gain_at_6, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(6 AS DOUBLE) + 1.0), 0)
            ) + COALESCE(gain_at_7, 0.0) * (
              CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(7 AS DOUBLE) + 1.0), 0)
            )
          ) + COALESCE(gain_at_8, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(8 AS DOUBLE) + 1.0), 0)
          )
        ) + (
          COALESCE(gain_at_9, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(9 AS DOUBLE) + 1.0), 0)
          ) + COALESCE(gain_at_10, 0.0) * (
            CAST(LN(2.0) AS DOUBLE) / NULLIF(LN(CAST(10 AS DOUBLE) + 1.0), 0)
          )
        )
      )
    ) AS ideal_dcg_2
  FROM ideal_dcg_by_query
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
)
SELECT
  qid AS `query_id`,
  k,
  CAST(cg AS DOUBLE) AS cg,
  CAST(dcg AS DOUBLE) AS dcg,
  CAST(idcg AS DOUBLE) AS idcg,
  CASE
    WHEN idcg > 0
    THEN CAST(dcg AS DOUBLE) / NULLIF(idcg, 0)
    ELSE CAST(NULL AS DOUBLE)
  END AS ndcg
FROM query_values
ORDER BY
  qid ASC NULLS LAST,
  k ASC NULLS LAST
