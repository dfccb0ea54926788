-- ndcg_sql 0.1.0, duckdb: one row per (measure): the mean over the queries, its standard error and
-- 95% interval.
-- Options: gain='exponential', discount='1/log2(rank + 1)', ties='item-desc', ranking_by='score',
-- ideal='judgments', no_relevant='zero', missing_queries='ignore', unjudged='zero',
-- score_precision='double', negative_labels='error', max_grade=4, measures=['Judged@10', 'P@5',
-- 'RBP(rel=2,p=0.9)', 'RBPResidual@10', 'ERR@10'].
-- Input checks: none in this statement. NULL or NaN scores, NULL, NaN, negative or non-numeric
-- labels and duplicate (query, item) rows give wrong numbers here, not an error. Gate on the
-- checks' SQL first: the same call with what='checks' (ndcg-sql sql --statement checks), or dbt's
-- ndcg_valid_input.
WITH run_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "score" AS order_raw,
    CAST(NULL AS DOUBLE) AS label_raw
  FROM "runs"
), judgment_rows AS (
  SELECT
    "query_id" AS qid,
    "item_id" AS item,
    "label" AS label_raw
  FROM "qrels"
), judgment_labels AS (
  SELECT
    "query_id" AS qid,
    "label" AS label_raw
  FROM "qrels"
), labelled_items AS (
  SELECT
    r.qid,
    r.item,
    CAST(r.order_raw AS DOUBLE) AS order_value,
    COALESCE(j.label, 0.0) AS label,
    COALESCE(j.judged, 0.0) AS judged
  FROM run_rows AS r
  LEFT JOIN (
    SELECT
      qid,
      item,
      CAST(label_raw AS DOUBLE) AS label,
      1.0 AS judged
    FROM judgment_rows
  ) AS j
    ON r.qid = j.qid AND r.item = j.item
), gained_items AS (
  SELECT
    qid,
    item,
    order_value,
    label,
    judged,
    (
      POWER(2.0, label) - 1.0
    ) AS gain
  FROM labelled_items
), ranked_items AS (
  SELECT
    qid,
    label,
    order_value,
    judged,
    ROW_NUMBER() OVER (PARTITION BY qid ORDER BY order_value DESC, item DESC) AS rank,
    gain AS credited_gain
  FROM gained_items
), evaluated_queries AS (
  SELECT DISTINCT
    qid
  FROM judgment_rows
  WHERE
    qid IN (
      SELECT
        qid
      FROM run_rows
    )
), relevant_counts AS (
  SELECT
    qid,
    SUM(CASE WHEN label >= 1.0 THEN 1 ELSE 0 END) AS relevant_2,
    SUM(CASE WHEN label >= 2.0 THEN 1 ELSE 0 END) AS relevant_3
  FROM (
    SELECT
      qid,
      CAST(label_raw AS DOUBLE) AS label
    FROM judgment_rows
  ) AS judged_labels
  GROUP BY
    qid
), err_stops AS (
  SELECT
    qid,
    rank,
    (
      POWER(2.0, CASE WHEN label > 4 THEN 4 ELSE label END) - 1.0
    ) * 0.0625 AS stop
  FROM ranked_items
), err_reached AS (
  SELECT
    qid,
    rank,
    stop,
    EXP(
      COALESCE(
        SUM(LN(1.0 - stop)) OVER (
          PARTITION BY qid
          ORDER BY rank ASC NULLS FIRST
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ),
        0.0
      )
    ) AS reached
  FROM err_stops
), err_running AS (
  SELECT
    qid,
    rank,
    SUM(CAST(stop * reached AS DOUBLE) / NULLIF(rank, 0)) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS err_through
  FROM err_reached
), err_values AS (
  SELECT
    qid,
    MAX(CASE WHEN rank <= 10 THEN err_through END) AS err_5
  FROM err_running
  GROUP BY
    qid
), relevance_by_rank AS (
  SELECT
    qid,
    rank,
    judged AS relevant_1,
    CASE WHEN label >= 1.0 THEN 1.0 ELSE 0.0 END AS relevant_2,
    CASE WHEN label >= 2.0 THEN 1.0 ELSE 0.0 END AS relevant_3
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
    ) AS relevant_through_1,
    relevant_2,
    SUM(relevant_2) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS relevant_through_2,
    relevant_3,
    SUM(relevant_3) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS relevant_through_3
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
        THEN CAST(relevant_through_1 AS DOUBLE) / NULLIF(rank, 0)
        ELSE 0.0
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS precision_sum_1,
    relevant_2,
    relevant_through_2,
    SUM(
      CASE
        WHEN relevant_2 = 1.0
        THEN CAST(relevant_through_2 AS DOUBLE) / NULLIF(rank, 0)
        ELSE 0.0
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS precision_sum_2,
    relevant_3,
    relevant_through_3,
    SUM(
      CASE
        WHEN relevant_3 = 1.0
        THEN CAST(relevant_through_3 AS DOUBLE) / NULLIF(rank, 0)
        ELSE 0.0
      END
    ) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS precision_sum_3,
    SUM(relevant_3 * POWER(CAST(0.9 AS DOUBLE), CAST(rank - 1 AS DOUBLE))) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS rbp_sum_3,
    SUM((
      1.0 - relevant_1
    ) * POWER(CAST(0.8 AS DOUBLE), CAST(rank - 1 AS DOUBLE))) OVER (
      PARTITION BY qid
      ORDER BY rank ASC NULLS FIRST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS rbp_sum_4
  FROM running_relevance
), ranked_measures AS (
  SELECT
    qid,
    MAX(CASE WHEN rank <= 10 THEN relevant_through_1 END) AS numerator_1,
    MAX(CASE WHEN rank <= 5 THEN relevant_through_2 END) AS numerator_2,
    MAX(CASE WHEN TRUE THEN rbp_sum_3 END) AS numerator_3,
    MAX(CASE WHEN rank <= 10 THEN rbp_sum_4 END) AS numerator_4,
    MAX(rank) AS list_length
  FROM precision_sums
  GROUP BY
    qid
), binary_measures AS (
  SELECT
    q.qid,
    1 AS measure_order,
    CASE
      WHEN r.list_length > 0
      THEN CAST(COALESCE(r.numerator_1, 0.0) AS DOUBLE) / NULLIF(CASE WHEN r.list_length < 10 THEN r.list_length ELSE 10 END, 0)
      ELSE CAST(0.0 AS DOUBLE)
    END AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
  UNION ALL
  SELECT
    q.qid,
    2 AS measure_order,
    CAST(COALESCE(r.numerator_2, 0.0) AS DOUBLE) / NULLIF(5, 0) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
  UNION ALL
  SELECT
    q.qid,
    3 AS measure_order,
    CAST(1.0 - 0.9 AS DOUBLE) * CAST(COALESCE(r.numerator_3, 0.0) AS DOUBLE) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
  UNION ALL
  SELECT
    q.qid,
    4 AS measure_order,
    CAST(1.0 - 0.8 AS DOUBLE) * CAST(COALESCE(r.numerator_4, 0.0) AS DOUBLE) + POWER(
      CAST(0.8 AS DOUBLE),
      CAST(CASE
        WHEN COALESCE(r.list_length, 0) < 10
        THEN COALESCE(r.list_length, 0)
        ELSE 10
      END AS DOUBLE)
    ) - POWER(CAST(0.8 AS DOUBLE), CAST(10 AS DOUBLE)) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
  UNION ALL
  SELECT
    q.qid,
    5 AS measure_order,
    CAST(COALESCE(e.err_5, 0.0) AS DOUBLE) AS value
  FROM evaluated_queries AS q
  LEFT JOIN ranked_measures AS r
    ON q.qid = r.qid
  LEFT JOIN relevant_counts AS c
    ON q.qid = c.qid
  LEFT JOIN err_values AS e
    ON q.qid = e.qid
), binary_measure_rows AS (
  SELECT
    qid AS "query_id",
    measure_order,
    value
  FROM binary_measures
), measure_names AS (
  SELECT
    1 AS measure_order,
    'Judged@10' AS measure
  UNION ALL
  SELECT
    2 AS measure_order,
    'P@5' AS measure
  UNION ALL
  SELECT
    3 AS measure_order,
    'RBP(rel=2,p=0.9)' AS measure
  UNION ALL
  SELECT
    4 AS measure_order,
    'RBPResidual@10' AS measure
  UNION ALL
  SELECT
    5 AS measure_order,
    'ERR@10' AS measure
), measure_values AS (
  SELECT
    "query_id" AS qid,
    measure_order,
    value
  FROM binary_measure_rows
), measure_rows AS (
  SELECT
    v.qid AS "query_id",
    n.measure,
    CAST(v.value AS DOUBLE) AS value
  FROM measure_values AS v
  INNER JOIN measure_names AS n
    ON v.measure_order = n.measure_order
), summary_groups AS (
  SELECT
    1 AS place,
    'Judged@10' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
  UNION ALL
  SELECT
    2 AS place,
    'P@5' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
  UNION ALL
  SELECT
    3 AS place,
    'RBP(rel=2,p=0.9)' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
  UNION ALL
  SELECT
    4 AS place,
    'RBPResidual@10' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
  UNION ALL
  SELECT
    5 AS place,
    'ERR@10' AS measure,
    'normal, clipped to [0, 1]' AS ci_method
), summary_values AS (
  SELECT
    measure,
    value
  FROM measure_rows
), summary_sums AS (
  SELECT
    v.measure,
    1.0 AS scale,
    SUM(CAST(v.value AS DECIMAL(38, 18))) AS scaled_sum,
    COUNT(v.value) AS queries,
    COUNT(*) AS evaluated
  FROM summary_values AS v
  GROUP BY
    v.measure
), summary_means AS (
  SELECT
    *,
    CAST(scaled_sum AS DOUBLE) / NULLIF(queries, 0) AS mean
  FROM summary_sums
), summary_spreads AS (
  SELECT
    v.measure,
    SUM(
      CAST((
        CAST(v.value - m.mean AS DOUBLE) / NULLIF(m.scale, 0)
      ) * (
        CAST(v.value - m.mean AS DOUBLE) / NULLIF(m.scale, 0)
      ) AS DECIMAL(38, 18))
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
      THEN CAST(m.scale * SQRT(CAST(d.scaled_squares AS DOUBLE) / NULLIF(CAST(m.queries - 1 AS DOUBLE), 0)) AS DOUBLE) / NULLIF(SQRT(CAST(m.queries AS DOUBLE)), 0)
    END AS stderr
  FROM summary_means AS m
  INNER JOIN summary_spreads AS d
    ON m.measure = d.measure
), summary_bounds AS (
  SELECT
    e.measure,
    e.stderr,
    m.mean - 1.959963984540054 * e.stderr AS ci_low,
    m.mean + 1.959963984540054 * e.stderr AS ci_high
  FROM summary_errors AS e
  INNER JOIN summary_means AS m
    ON e.measure = m.measure
)
SELECT
  g.measure,
  m.mean AS mean,
  CAST(COALESCE(m.queries, 0) AS BIGINT) AS queries,
  CAST(COALESCE(m.evaluated, 0) AS BIGINT) AS evaluated,
  e.stderr,
  CASE WHEN e.ci_low < 0 THEN 0.0 WHEN e.ci_low > 1 THEN 1.0 ELSE e.ci_low END AS ci_low,
  CASE WHEN e.ci_high < 0 THEN 0.0 WHEN e.ci_high > 1 THEN 1.0 ELSE e.ci_high END AS ci_high,
  g.ci_method
FROM summary_groups AS g
LEFT JOIN summary_means AS m
  ON g.measure = m.measure
LEFT JOIN summary_bounds AS e
  ON g.measure = e.measure
ORDER BY
  g.place ASC
