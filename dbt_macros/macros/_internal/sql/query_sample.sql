{#- Copied from sql/query_sample.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- A sample of the queries (the sample option), for a log too large to evaluate whole: each
    query key of the ranking (its segment values and id: sql/query_keys.sql.j2) is in the sample
    when its draw is below threshold, so with probability threshold / (2^31 - 1), the fraction
    asked. The draw is the generator of sql/random_draws.sql.j2 keyed by (seed, 2^31 - 2, hash_1,
    hash_2), the two hashes of the key's text, as the bootstrap keys a query (whose replicate
    numbers stay far below 2^31 - 2, so the two never share a draw): the same queries on every
    engine and version, whatever the order or partitioning of the rows, and a query is in the
    sample of every run, segment and day that shows it under the same seed. Rows of a NULL query
    id stay in (the input checks report them).

    CTEs: sample_frame (one row per query key of the ranking: the population the sample is drawn
    from), sample_hashes, sample_starts, sample_rounds, sample_draws (its draw) and sampled_queries (the keys in the sample).
      query_key   SQL of a row's query key (as sql/normalised_rows.sql.j2 computes it)
      source      the relation the ranking's rows are read from -#}
{%- macro _query_sample(ctx, query_key, source) -%}
{%- set sample = ctx['sample'] -%}
{%- set seed_state = ctx['sample_seed_state'] -%}
{%- set key_text = 'qid' if ctx['segment_cols'] else ndcg_sql._key_of(['qid']) -%}
sample_frame AS ( -- one row per query key of the ranking: the queries the sample is drawn from
  SELECT DISTINCT {{ query_key }} AS qid
  FROM {{ source }}
),
sample_hashes AS ( -- one row per query key: the two hashes of its text, grouped so that engines compute them once instead of inlining them into each use of the draw (Spark ran out of memory planning that)
  SELECT qid, hash_1, hash_2
  FROM (
    SELECT qid, {{ ndcg_sql._hash_of(key_text, 31) }} AS hash_1, {{ ndcg_sql._hash_of(key_text, 37) }} AS hash_2
    FROM sample_frame
  ) AS hashed
  GROUP BY qid, hash_1, hash_2
),
sample_starts AS ( -- one row per query key: the generator's starting state, keyed by the two hashes of its text
  SELECT qid, {{ ndcg_sql._random_start3(seed_state, ndcg_sql._random_prime() | int - 1, 'hash_1', 'hash_2') }} AS state
  FROM sample_hashes
),
{{ ndcg_sql._random_rounds('sample_rounds', 'sample_starts', ['qid']) }},
sample_draws AS ( -- one row per query key: its draw, grouped likewise (the rounds' arithmetic computed once)
  SELECT qid, MAX(state) AS state
  FROM sample_rounds
  GROUP BY qid
),
sampled_queries AS ( -- one row per query key in the sample: its draw below {{ sample.threshold }} (a fraction {{ sample.fraction }} of 2^31 - 1)
  SELECT qid
  FROM sample_draws
  WHERE state < {{ sample.threshold }}
)
{%- endmacro -%}
{#- A condition on a row's query key: the key is in the sample (or NULL, for the input checks). -#}
{%- macro _in_sample(query_key) -%}
({{ query_key }} IS NULL OR {{ query_key }} IN (SELECT qid FROM sampled_queries))
{%- endmacro -%}
