WITH
keyed AS ( -- one row per (group, query): a, b, the difference and the query's key
  SELECT
    "arm" AS group_1,
    measure AS group_2,
    a,
    b,
    difference,
    CASE WHEN "query_id" IS NULL THEN NULL ELSE CASE WHEN "arm" IS NULL THEN '~' ELSE CAST(LENGTH(CAST("arm" AS VARCHAR)) AS VARCHAR) || ':' || CAST("arm" AS VARCHAR) END || CASE WHEN "query_id" IS NULL THEN '~' ELSE CAST(LENGTH(CAST("query_id" AS VARCHAR)) AS VARCHAR) || ':' || CAST("query_id" AS VARCHAR) END END AS query_key
  FROM "paired_differences"
),
query_hashes AS ( -- one row per query key: its two hashes (computed once per query, apart from the draws)
  SELECT query_key, MOD((((((MOD(CAST(LENGTH(query_key) AS BIGINT) * 1340005675, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 1 THEN UNICODE(SUBSTRING(query_key, 1, 1)) ELSE 0 END AS BIGINT) * 31, 2147483647)) + (MOD(CAST(CASE WHEN LENGTH(query_key) >= 1 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 0, 1)) ELSE 0 END AS BIGINT) * 127329182, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 2 THEN UNICODE(SUBSTRING(query_key, 2, 1)) ELSE 0 END AS BIGINT) * 961, 2147483647))) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 2 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 1, 1)) ELSE 0 END AS BIGINT) * 1799720995, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 3 THEN UNICODE(SUBSTRING(query_key, 3, 1)) ELSE 0 END AS BIGINT) * 29791, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 3 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 2, 1)) ELSE 0 END AS BIGINT) * 2104259670, 2147483647))) + (((MOD(CAST(CASE WHEN LENGTH(query_key) >= 4 THEN UNICODE(SUBSTRING(query_key, 4, 1)) ELSE 0 END AS BIGINT) * 923521, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 4 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 3, 1)) ELSE 0 END AS BIGINT) * 807540360, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 5 THEN UNICODE(SUBSTRING(query_key, 5, 1)) ELSE 0 END AS BIGINT) * 28629151, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 5 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 4, 1)) ELSE 0 END AS BIGINT) * 1411431043, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 6 THEN UNICODE(SUBSTRING(query_key, 6, 1)) ELSE 0 END AS BIGINT) * 887503681, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 6 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 5, 1)) ELSE 0 END AS BIGINT) * 804689393, 2147483647)))) + ((((MOD(CAST(CASE WHEN LENGTH(query_key) >= 7 THEN UNICODE(SUBSTRING(query_key, 7, 1)) ELSE 0 END AS BIGINT) * 1742810347, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 7 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 6, 1)) ELSE 0 END AS BIGINT) * 1323051066, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 8 THEN UNICODE(SUBSTRING(query_key, 8, 1)) ELSE 0 END AS BIGINT) * 340029582, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 8 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 7, 1)) ELSE 0 END AS BIGINT) * 212393753, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 9 THEN UNICODE(SUBSTRING(query_key, 9, 1)) ELSE 0 END AS BIGINT) * 1950982454, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 9 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 8, 1)) ELSE 0 END AS BIGINT) * 141755402, 2147483647))) + (((MOD(CAST(CASE WHEN LENGTH(query_key) >= 10 THEN UNICODE(SUBSTRING(query_key, 10, 1)) ELSE 0 END AS BIGINT) * 350913958, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 10 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 9, 1)) ELSE 0 END AS BIGINT) * 99450168, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 11 THEN UNICODE(SUBSTRING(query_key, 11, 1)) ELSE 0 END AS BIGINT) * 140914463, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 11 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 10, 1)) ELSE 0 END AS BIGINT) * 935471561, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 12 THEN UNICODE(SUBSTRING(query_key, 12, 1)) ELSE 0 END AS BIGINT) * 73381059, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 12 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 11, 1)) ELSE 0 END AS BIGINT) * 1082330980, 2147483647))))), 2147483647) AS hash_1, MOD((((((MOD(CAST(LENGTH(query_key) AS BIGINT) * 1667006711, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 1 THEN UNICODE(SUBSTRING(query_key, 1, 1)) ELSE 0 END AS BIGINT) * 37, 2147483647)) + (MOD(CAST(CASE WHEN LENGTH(query_key) >= 1 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 0, 1)) ELSE 0 END AS BIGINT) * 1768357194, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 2 THEN UNICODE(SUBSTRING(query_key, 2, 1)) ELSE 0 END AS BIGINT) * 1369, 2147483647))) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 2 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 1, 1)) ELSE 0 END AS BIGINT) * 1004706768, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 3 THEN UNICODE(SUBSTRING(query_key, 3, 1)) ELSE 0 END AS BIGINT) * 50653, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 3 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 2, 1)) ELSE 0 END AS BIGINT) * 666928417, 2147483647))) + (((MOD(CAST(CASE WHEN LENGTH(query_key) >= 4 THEN UNICODE(SUBSTRING(query_key, 4, 1)) ELSE 0 END AS BIGINT) * 1874161, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 4 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 3, 1)) ELSE 0 END AS BIGINT) * 1054031312, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 5 THEN UNICODE(SUBSTRING(query_key, 5, 1)) ELSE 0 END AS BIGINT) * 69343957, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 5 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 4, 1)) ELSE 0 END AS BIGINT) * 344452898, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 6 THEN UNICODE(SUBSTRING(query_key, 6, 1)) ELSE 0 END AS BIGINT) * 418242762, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 6 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 5, 1)) ELSE 0 END AS BIGINT) * 2007338991, 2147483647)))) + ((((MOD(CAST(CASE WHEN LENGTH(query_key) >= 7 THEN UNICODE(SUBSTRING(query_key, 7, 1)) ELSE 0 END AS BIGINT) * 442596665, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 7 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 6, 1)) ELSE 0 END AS BIGINT) * 1257098669, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 8 THEN UNICODE(SUBSTRING(query_key, 8, 1)) ELSE 0 END AS BIGINT) * 1343691076, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 8 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 7, 1)) ELSE 0 END AS BIGINT) * 1415494166, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 9 THEN UNICODE(SUBSTRING(query_key, 9, 1)) ELSE 0 END AS BIGINT) * 324445931, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 9 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 8, 1)) ELSE 0 END AS BIGINT) * 833676614, 2147483647))) + (((MOD(CAST(CASE WHEN LENGTH(query_key) >= 10 THEN UNICODE(SUBSTRING(query_key, 10, 1)) ELSE 0 END AS BIGINT) * 1267081212, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 10 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 9, 1)) ELSE 0 END AS BIGINT) * 781263660, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 11 THEN UNICODE(SUBSTRING(query_key, 11, 1)) ELSE 0 END AS BIGINT) * 1784848257, 2147483647)) + ((MOD(CAST(CASE WHEN LENGTH(query_key) >= 11 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 10, 1)) ELSE 0 END AS BIGINT) * 989468009, 2147483647) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 12 THEN UNICODE(SUBSTRING(query_key, 12, 1)) ELSE 0 END AS BIGINT) * 1614876099, 2147483647)) + MOD(CAST(CASE WHEN LENGTH(query_key) >= 12 THEN UNICODE(SUBSTRING(query_key, LENGTH(query_key) - 11, 1)) ELSE 0 END AS BIGINT) * 103094334, 2147483647))))), 2147483647) AS hash_2
  FROM (SELECT DISTINCT query_key FROM keyed) AS distinct_keys
),
numbered AS ( -- one row per (group, query): a, b, the difference and the two hashes of the query's key
  SELECT
    k.group_1,
    k.group_2,
    k.a,
    k.b,
    k.difference,
    h.hash_1,
    h.hash_2
  FROM keyed AS k
  INNER JOIN query_hashes AS h ON k.query_key = h.query_key
),
group_scales AS ( -- one row per group: the scales its sums are taken at, each 1 or a largest |value| above 1: the differences' (of a and b), a's, b's
  SELECT
    group_1,
    group_2,
    CASE
      WHEN MAX(ABS(a)) > 1.0 OR MAX(ABS(b)) > 1.0
        THEN CASE WHEN MAX(ABS(a)) > MAX(ABS(b)) THEN MAX(ABS(a)) ELSE MAX(ABS(b)) END
      ELSE 1.0
    END AS scale,
    CASE WHEN MAX(ABS(a)) > 1.0 THEN MAX(ABS(a)) ELSE 1.0 END AS scale_a,
    CASE WHEN MAX(ABS(b)) > 1.0 THEN MAX(ABS(b)) ELSE 1.0 END AS scale_b
  FROM numbered
  GROUP BY group_1, group_2
),
moments AS ( -- one row per group: n, the exact scaled sums, the means, wins / ties / losses
  SELECT
    x.group_1,
    x.group_2,
    COUNT(*) AS n,
    s.scale,
    s.scale_a,
    s.scale_b,
    SUM(CAST(CAST(x.a AS DOUBLE) / NULLIF(s.scale_a, 0) AS DECIMAL(38, 18))) AS scaled_a,
    SUM(CAST(CAST(x.b AS DOUBLE) / NULLIF(s.scale_b, 0) AS DECIMAL(38, 18))) AS scaled_b,
    SUM(CAST(CAST(x.difference AS DOUBLE) / NULLIF(s.scale, 0) AS DECIMAL(38, 18))) AS scaled_difference,
    SUM(CASE WHEN x.difference > 0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN x.difference = 0 THEN 1 ELSE 0 END) AS ties,
    SUM(CASE WHEN x.difference < 0 THEN 1 ELSE 0 END) AS losses
  FROM numbered AS x
  INNER JOIN group_scales AS s ON x.group_1 IS NOT DISTINCT FROM s.group_1 AND x.group_2 IS NOT DISTINCT FROM s.group_2
  GROUP BY x.group_1, x.group_2, s.scale, s.scale_a, s.scale_b
),
group_means AS ( -- one row per group: the means of a, b and the differences
  SELECT
    *,
    CAST(scale_a * CAST(scaled_a AS DOUBLE) AS DOUBLE) / NULLIF(n, 0) AS mean_a,
    CAST(scale_b * CAST(scaled_b AS DOUBLE) AS DOUBLE) / NULLIF(n, 0) AS mean_b,
    CAST(scale * CAST(scaled_difference AS DOUBLE) AS DOUBLE) / NULLIF(n, 0) AS mean_difference
  FROM moments
),
group_spreads AS ( -- one row per group: s_d from the exact sum of squared scaled deviations
  SELECT
    m.group_1,
    m.group_2,
    CASE WHEN m.n >= 2 THEN m.scale * SQRT(CAST(SUM(CAST(
      (CAST(x.difference - m.mean_difference AS DOUBLE) / NULLIF(m.scale, 0))
      * (CAST(x.difference - m.mean_difference AS DOUBLE) / NULLIF(m.scale, 0)) AS DECIMAL(38, 18))) AS DOUBLE)
      / NULLIF(CAST(m.n - 1 AS DOUBLE), 0)) END AS sd
  FROM numbered AS x
  INNER JOIN group_means AS m ON x.group_1 IS NOT DISTINCT FROM m.group_1 AND x.group_2 IS NOT DISTINCT FROM m.group_2
  GROUP BY m.group_1, m.group_2, m.n, m.scale
),
patterns_digits AS ( -- one row per decimal digit
  SELECT 0 AS digit UNION ALL SELECT 1 AS digit UNION ALL SELECT 2 AS digit UNION ALL SELECT 3 AS digit UNION ALL SELECT 4 AS digit UNION ALL SELECT 5 AS digit UNION ALL SELECT 6 AS digit UNION ALL SELECT 7 AS digit UNION ALL SELECT 8 AS digit UNION ALL SELECT 9 AS digit
),
patterns AS ( -- one row per number 0 .. 99
  SELECT number FROM (
    SELECT 1 * d0.digit + 10 * d1.digit AS number
    FROM patterns_digits AS d0 CROSS JOIN patterns_digits AS d1
  ) AS series
  WHERE number < 100
),
sign_draws_digits AS ( -- one row per decimal digit
  SELECT 0 AS digit UNION ALL SELECT 1 AS digit UNION ALL SELECT 2 AS digit UNION ALL SELECT 3 AS digit UNION ALL SELECT 4 AS digit UNION ALL SELECT 5 AS digit UNION ALL SELECT 6 AS digit UNION ALL SELECT 7 AS digit UNION ALL SELECT 8 AS digit UNION ALL SELECT 9 AS digit
),
sign_draws AS ( -- one row per number 0 .. 3
  SELECT number FROM (
    SELECT 1 * d0.digit AS number
    FROM sign_draws_digits AS d0
  ) AS series
  WHERE number < 4
),
sign_bytes AS ( -- one row per byte 0 .. 3 of a draw's 31 bits: the power of two it starts at
  SELECT 0 AS byte, 1.0 AS weight UNION ALL SELECT 1 AS byte, 256.0 AS weight UNION ALL SELECT 2 AS byte, 65536.0 AS weight UNION ALL SELECT 3 AS byte, 16777216.0 AS weight
),
sign_bits AS ( -- one row per bit 0 .. 30 of a draw: its byte and its power of two within that byte
  SELECT 0 AS bit, 0 AS byte, 1.0 AS weight UNION ALL SELECT 1 AS bit, 0 AS byte, 2.0 AS weight UNION ALL SELECT 2 AS bit, 0 AS byte, 4.0 AS weight UNION ALL SELECT 3 AS bit, 0 AS byte, 8.0 AS weight UNION ALL SELECT 4 AS bit, 0 AS byte, 16.0 AS weight UNION ALL SELECT 5 AS bit, 0 AS byte, 32.0 AS weight UNION ALL SELECT 6 AS bit, 0 AS byte, 64.0 AS weight UNION ALL SELECT 7 AS bit, 0 AS byte, 128.0 AS weight UNION ALL SELECT 8 AS bit, 1 AS byte, 1.0 AS weight UNION ALL SELECT 9 AS bit, 1 AS byte, 2.0 AS weight UNION ALL SELECT 10 AS bit, 1 AS byte, 4.0 AS weight UNION ALL SELECT 11 AS bit, 1 AS byte, 8.0 AS weight UNION ALL SELECT 12 AS bit, 1 AS byte, 16.0 AS weight UNION ALL SELECT 13 AS bit, 1 AS byte, 32.0 AS weight UNION ALL SELECT 14 AS bit, 1 AS byte, 64.0 AS weight UNION ALL SELECT 15 AS bit, 1 AS byte, 128.0 AS weight UNION ALL SELECT 16 AS bit, 2 AS byte, 1.0 AS weight UNION ALL SELECT 17 AS bit, 2 AS byte, 2.0 AS weight UNION ALL SELECT 18 AS bit, 2 AS byte, 4.0 AS weight UNION ALL SELECT 19 AS bit, 2 AS byte, 8.0 AS weight UNION ALL SELECT 20 AS bit, 2 AS byte, 16.0 AS weight UNION ALL SELECT 21 AS bit, 2 AS byte, 32.0 AS weight UNION ALL SELECT 22 AS bit, 2 AS byte, 64.0 AS weight UNION ALL SELECT 23 AS bit, 2 AS byte, 128.0 AS weight UNION ALL SELECT 24 AS bit, 3 AS byte, 1.0 AS weight UNION ALL SELECT 25 AS bit, 3 AS byte, 2.0 AS weight UNION ALL SELECT 26 AS bit, 3 AS byte, 4.0 AS weight UNION ALL SELECT 27 AS bit, 3 AS byte, 8.0 AS weight UNION ALL SELECT 28 AS bit, 3 AS byte, 16.0 AS weight UNION ALL SELECT 29 AS bit, 3 AS byte, 32.0 AS weight UNION ALL SELECT 30 AS bit, 3 AS byte, 64.0 AS weight
),
sign_inputs AS ( -- one row per (group of more than exact_max_queries queries, draw, query): the generator's starting state
  SELECT
    x.group_1,
    x.group_2,
    d.number AS draw,
    CAST(CAST(x.difference AS DOUBLE) / NULLIF(m.scale, 0) AS DECIMAL(38, 18)) AS scaled_difference,
    MOD(MOD(MOD(CAST(5 AS BIGINT) * 1000003 + CAST(d.number AS BIGINT), 2147483647) * 1000003 + CAST(x.hash_1 AS BIGINT), 2147483647) * 1000003 + CAST(x.hash_2 AS BIGINT), 2147483647) AS state
  FROM numbered AS x
  INNER JOIN moments AS m ON x.group_1 IS NOT DISTINCT FROM m.group_1 AND x.group_2 IS NOT DISTINCT FROM m.group_2
  CROSS JOIN sign_draws AS d
  WHERE m.n > 6
),
signs AS ( -- one row per row of sign_inputs: its random state after four rounds
  SELECT group_1, group_2, draw, scaled_difference, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
  FROM (
    SELECT group_1, group_2, draw, scaled_difference, MOD(state + 1013904223, 2147483647) AS y
    FROM (
      SELECT group_1, group_2, draw, scaled_difference, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
      FROM (
        SELECT group_1, group_2, draw, scaled_difference, MOD(state + 1664525, 2147483647) AS y
        FROM (
          SELECT group_1, group_2, draw, scaled_difference, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
          FROM (
            SELECT group_1, group_2, draw, scaled_difference, MOD(state + 12345, 2147483647) AS y
            FROM (
              SELECT group_1, group_2, draw, scaled_difference, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
              FROM (SELECT group_1, group_2, draw, scaled_difference, MOD(state + 7, 2147483647) AS y FROM sign_inputs) AS round_1
            ) AS round_1_done
          ) AS round_2
        ) AS round_2_done
      ) AS round_3
    ) AS round_3_done
  ) AS round_4
),
exact_places AS ( -- one row per (group of at most exact_max_queries queries, query): its place 0 .. n - 1
  SELECT
    x.group_1,
    x.group_2,
    CAST(CAST(x.difference AS DOUBLE) / NULLIF(m.scale, 0) AS DECIMAL(38, 18)) AS scaled_difference,
    m.n,
    ROW_NUMBER() OVER (
      PARTITION BY x.group_1, x.group_2 ORDER BY x.hash_1 ASC NULLS FIRST, x.hash_2 ASC NULLS FIRST
    ) - 1 AS place
  FROM numbered AS x
  INNER JOIN moments AS m ON x.group_1 IS NOT DISTINCT FROM m.group_1 AND x.group_2 IS NOT DISTINCT FROM m.group_2
  WHERE m.n <= 6
),
byte_values AS ( -- one row per (group of more than exact_max_queries queries, draw, query, byte of the draw): the byte's value 0 .. 255
  SELECT
    s.group_1,
    s.group_2,
    s.draw,
    b.byte,
    MOD(CAST(FLOOR(CAST(s.state AS DOUBLE) / NULLIF(b.weight, 0)) AS BIGINT), 256) AS byte_value,
    s.scaled_difference
  FROM signs AS s
  CROSS JOIN sign_bytes AS b
),
byte_sums AS ( -- one row per (group, draw, byte, byte value): the exact sum of the scaled differences of the queries drawn that value
  SELECT
    group_1,
    group_2,
    draw,
    byte,
    byte_value,
    SUM(scaled_difference) AS part
  FROM byte_values
  GROUP BY group_1, group_2, draw, byte, byte_value
),
flipped_terms AS ( -- one row per (group, sign pattern, part the pattern flips): a byte sum (sampled) or a query's scaled difference (exact)
  SELECT
    s.group_1,
    s.group_2,
    s.draw * 31 + b.bit AS pattern,
    s.part
  FROM byte_sums AS s
  INNER JOIN sign_bits AS b ON s.byte = b.byte
  WHERE s.draw * 31 + b.bit < 100
    AND MOD(CAST(FLOOR(CAST(s.byte_value AS DOUBLE) / NULLIF(b.weight, 0)) AS BIGINT), 2) = 1
  UNION ALL
  SELECT
    x.group_1,
    x.group_2,
    p.number AS pattern,
    x.scaled_difference AS part
  FROM exact_places AS x
  CROSS JOIN patterns AS p
  WHERE p.number < POWER(2.0, x.n)
    AND MOD(CAST(FLOOR(CAST(p.number AS DOUBLE) / NULLIF(POWER(2.0, x.place), 0)) AS BIGINT), 2) = 1
),
flipped_parts AS ( -- one row per (group, sign pattern flipping some query): the exact sum of the scaled differences it flips
  SELECT
    group_1,
    group_2,
    pattern,
    SUM(part) AS flipped
  FROM flipped_terms
  GROUP BY group_1, group_2, pattern
),
flipped_sums AS ( -- one row per (group, sign pattern): the exact sum of the sign-flipped scaled differences, total - 2 x flipped part
  SELECT
    m.group_1,
    m.group_2,
    p.number AS pattern,
    m.scaled_difference - COALESCE(f.flipped, 0) - COALESCE(f.flipped, 0) AS flipped_sum
  FROM moments AS m
  CROSS JOIN patterns AS p
  LEFT JOIN flipped_parts AS f ON f.group_1 IS NOT DISTINCT FROM m.group_1 AND f.group_2 IS NOT DISTINCT FROM m.group_2 AND f.pattern = p.number
  WHERE p.number < CASE WHEN m.n <= 6 THEN POWER(2.0, m.n) ELSE 100 END
),
permutation_counts AS ( -- one row per group: patterns drawn, and how many are at least as extreme
  SELECT
    f.group_1,
    f.group_2,
    COUNT(*) AS drawn,
    SUM(CASE WHEN CAST(ABS(f.flipped_sum) AS DOUBLE) >= CAST(ABS(m.scaled_difference) AS DOUBLE) * (1.0 - 1e-9)
      THEN 1 ELSE 0 END) AS extreme
  FROM flipped_sums AS f
  INNER JOIN moments AS m ON f.group_1 IS NOT DISTINCT FROM m.group_1 AND f.group_2 IS NOT DISTINCT FROM m.group_2
  GROUP BY f.group_1, f.group_2
)
SELECT
  m.group_1 AS "arm",
  m.group_2 AS measure,
  CAST(m.n AS BIGINT) AS queries,
  m.mean_a,
  m.mean_b,
  m.mean_difference,
  CASE WHEN m.n >= 2 THEN CAST(d.sd AS DOUBLE) / NULLIF(SQRT(m.n), 0) END AS stderr,
  CASE WHEN m.n >= 2 AND d.sd > 0 THEN CAST(m.mean_difference AS DOUBLE)
    / NULLIF(CAST(d.sd AS DOUBLE) / NULLIF(SQRT(m.n), 0), 0) END AS t,
  CAST(m.n - 1 AS BIGINT) AS df,
  CASE WHEN m.n <= 6
    THEN CAST(c.extreme AS DOUBLE) / NULLIF(c.drawn, 0)
    ELSE CAST(1.0 + c.extreme AS DOUBLE) / NULLIF(1.0 + c.drawn, 0)
  END AS permutation_p_value,
  CASE WHEN m.n <= 6 THEN 'exact' ELSE 'sampled' END AS permutation_kind,
  CAST(m.wins AS BIGINT) AS wins,
  CAST(m.ties AS BIGINT) AS ties,
  CAST(m.losses AS BIGINT) AS losses
FROM group_means AS m
INNER JOIN group_spreads AS d ON m.group_1 IS NOT DISTINCT FROM d.group_1 AND m.group_2 IS NOT DISTINCT FROM d.group_2
LEFT JOIN permutation_counts AS c ON m.group_1 IS NOT DISTINCT FROM c.group_1 AND m.group_2 IS NOT DISTINCT FROM c.group_2
