"""compare's paired tests at scale in DuckDB, against a bare scan of the same rows, in one run.

    python -m benchmarks.paired --queries 1_000_000 --measures 2 --permutations 10000

``compare`` runs its paired statistics (``sql/paired_tests.sql.j2``: t-test sums, wins/ties/
losses, the sign-flip permutation test) in DuckDB on both runs' per-query values, whichever
engine computed them. This times that statement on generated per-query differences (one row
per (query, measure), uniform values) and, for scale, one aggregate of the same table (the sum
of the differences per measure, the floor of any statement that reads every row). It prints
the seconds of each and their ratio, and the sampled permutation test's rows: queries x
measures x ceil(permutations / 31) draws, each summed into its byte values.
"""

from __future__ import annotations

import argparse
import time

import duckdb

from ndcg_sql.building import templates
from ndcg_sql.building.plan import RANDOM_PRIME


def differences(con: duckdb.DuckDBPyConnection, queries: int, measures: int, seed: float = 0.5) -> None:
    """Table ``paired_differences``: one row per (query, measure) with a, b and a - b."""
    con.execute(f"SELECT setseed({seed})")
    con.execute(
        "CREATE OR REPLACE TABLE paired_differences AS SELECT CAST(q AS VARCHAR) AS query_id, "
        "'m' || CAST(m AS VARCHAR) AS measure, random() AS a, random() AS b "
        f"FROM range({int(queries)}) AS t(q) CROSS JOIN range({int(measures)}) AS s(m)"
    )
    con.execute("CREATE OR REPLACE TABLE paired_differences AS SELECT *, a - b AS difference FROM paired_differences")


def paired_sql(permutations: int, seed: int = 0) -> str:
    """The statement compare runs, for these arguments (as ndcg_sql/compare.py renders it)."""
    return templates.render(
        "paired_tests.sql.j2", differences_relation="paired_differences", output_query_col="query_id",
        permutations=int(permutations), exact_max_queries=int(permutations).bit_length() - 1,
        seed_state=int(seed) % RANDOM_PRIME, group_cols=["measure"], segment_cols=[],
    )


def timed(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[float, list[dict]]:
    start = time.perf_counter()
    relation = con.sql(sql)
    rows = relation.fetchall()
    return time.perf_counter() - start, [dict(zip(relation.columns, row)) for row in rows]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    number = lambda s: int(s.replace("_", ""))  # noqa: E731
    parser.add_argument("--queries", type=number, default=1_000_000)
    parser.add_argument("--measures", type=number, default=2)
    parser.add_argument("--permutations", type=number, default=10_000)
    parser.add_argument("--threads", type=number, default=None)
    args = parser.parse_args(argv)
    con = duckdb.connect()
    if args.threads:
        con.execute(f"SET threads = {int(args.threads)}")
    differences(con, args.queries, args.measures)
    scan, _ = timed(con, "SELECT measure, SUM(difference) FROM paired_differences GROUP BY measure")
    paired, rows = timed(con, paired_sql(args.permutations))
    draws = -(-args.permutations // 31)
    print(f"{args.queries:,} queries x {args.measures} measures, {args.permutations:,} sign patterns "
          f"({args.queries * args.measures * draws:,} (query, measure, draw) rows); DuckDB {duckdb.__version__}")
    print("| statement | seconds | / scan |")
    print("|---|---|---|")
    print(f"| sum of the differences (scan) | {scan:.2f} | 1.0 |")
    print(f"| paired tests | {paired:.2f} | {paired / scan:.0f} |")
    for row in sorted(rows, key=lambda r: r["measure"]):
        print({k: row[k] for k in ("measure", "queries", "mean_difference", "t", "permutation_p_value",
                                   "permutation_kind")})


if __name__ == "__main__":
    main()
