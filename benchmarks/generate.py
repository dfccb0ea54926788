"""A deterministic generator of synthetic ranking logs, written as Parquet by DuckDB.

Every value is a hash of (row number, seed), so the same arguments give the same
file on any machine and with any number of threads:

    python -m benchmarks.generate --rows 10_000_000 --items 10 --out benchmarks/data/r10m.parquet

Columns: query_id BIGINT, item_id BIGINT, score DOUBLE, label INTEGER (0..4).

* ``--items``: mean list length (items per query); with ``--length-spread s`` a
  query's length is uniform in [items*(1-s), items*(1+s)] (rows are dropped from
  the fixed-size slot of items*(1+s) positions, so the row count is about ``--rows``).
* ``--relevant``: share of items with a label above 0 (label skew); relevant labels
  are 1..4 with probabilities 1/2, 1/4, 1/8, 1/8.
* ``--ties``: share of items whose score is rounded to a coarse grid of 8 values,
  so those tie with each other; the other scores are continuous.
* Scores are correlated with labels (label/2 + uniform noise), as a useful model's are.
* ``--judgments FILE``: also write judgments (qrels: query_id, item_id, label):
  a ``--judged`` share of the ranked items with their label, plus, per query, one
  unretrieved item in ``--unretrieved`` of the queries (so the ideal ranking holds
  items the run missed), and ``--unjudged-queries`` of the queries get no judgment.

Generation uses DuckDB's ``range`` and ``hash``; it is benchmark code, not part of
the portable metric SQL.
"""

from __future__ import annotations

import argparse
import os
import time

import duckdb


def uniform(seed: int, stream: int) -> str:
    """SQL for a uniform double in [0, 1) from the row number ``i``."""
    return _uniform_of("i", seed, stream)


def _uniform_of(expr: str, seed: int, stream: int) -> str:
    # one-argument hash of a distinct integer per (row, stream, seed): well mixed
    return f"(CAST(hash(({expr}) * 64 + {stream} + {seed} * 1099511627776) >> 11 AS DOUBLE) / 9007199254740992.0)"


def generate(
    out: str,
    rows: int,
    items: int = 10,
    length_spread: float = 0.0,
    relevant: float = 0.3,
    ties: float = 0.2,
    seed: int = 1,
    judgments: str | None = None,
    judged: float = 0.5,
    unretrieved: float = 0.5,
    unjudged_queries: float = 0.02,
    threads: int | None = None,
    memory_limit: str | None = "4GB",
) -> dict:
    """Write the ranking log (and optionally judgments); returns row and query counts."""
    slot = max(1, int(round(items * (1 + length_spread))))
    low = max(1, int(round(items * (1 - length_spread))))
    queries = max(1, rows // items)
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    if memory_limit:
        con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute("SET preserve_insertion_order = false")
    u = lambda stream: uniform(seed, stream)  # noqa: E731
    # the length of query q is a hash of q, uniform in [low, slot]
    length = f"({low} + CAST(FLOOR({_uniform_of(f'i // {slot}', seed, 9)} * {slot - low + 1}) AS BIGINT))"
    label = (
        f"CASE WHEN {u(1)} >= {relevant} THEN 0 "
        f"WHEN {u(2)} < 0.5 THEN 1 WHEN {u(2)} < 0.75 THEN 2 WHEN {u(2)} < 0.875 THEN 3 ELSE 4 END"
    )
    base = f"""
        SELECT i // {slot} AS query_id,
               i AS item_id,
               {label} AS label,
               {u(3)} AS noise,
               {u(4)} < {ties} AS tied,
               i % {slot} < {length} AS kept,
               {u(5)} AS judged_draw
        FROM range({queries * slot}) AS t(i)
    """
    run = f"""
        SELECT query_id, item_id,
               CASE WHEN tied THEN FLOOR((label / 2.0 + noise) * 4.0) / 4.0 ELSE label / 2.0 + noise END AS score,
               CAST(label AS INTEGER) AS label
        FROM ({base}) WHERE kept
    """
    started = time.perf_counter()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    con.execute(f"COPY ({run}) TO '{_path(out)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1000000)")
    info = {"file": out, "seconds": round(time.perf_counter() - started, 1)}
    info.update(
        dict(zip(("rows", "queries"), con.execute(f"SELECT COUNT(*), MAX(query_id) + 1 FROM '{_path(out)}'").fetchall()[0]))
    )
    if judgments:
        qu = lambda expr, stream: _uniform_of(expr, seed, stream)  # noqa: E731
        judged_rows = f"""
            SELECT query_id, item_id, CAST(label AS INTEGER) AS label FROM ({base})
            WHERE kept AND judged_draw < {judged}
              AND {qu('query_id', 7)} >= {unjudged_queries}
            UNION ALL
            SELECT q AS query_id, -1 - q AS item_id,
                   1 + CAST(FLOOR({qu('q', 8)} * 4) AS INTEGER) AS label
            FROM range({queries}) AS t(q)
            WHERE {qu('q', 6)} < {unretrieved}
              AND {qu('q', 7)} >= {unjudged_queries}
        """
        con.execute(f"COPY ({judged_rows}) TO '{_path(judgments)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1000000)")
        info["judgments"] = judgments
        info["judgment_rows"] = con.execute(f"SELECT COUNT(*) FROM '{_path(judgments)}'").fetchall()[0][0]
    return info


def _path(path: str) -> str:
    if "'" in path:
        raise ValueError(f"a path with a quote is not supported here: {path!r}")
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=lambda s: int(s.replace("_", "")), required=True)
    parser.add_argument("--items", type=int, default=10, help="mean items per query (default 10)")
    parser.add_argument("--length-spread", type=float, default=0.0)
    parser.add_argument("--relevant", type=float, default=0.3)
    parser.add_argument("--ties", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--judgments", metavar="FILE")
    parser.add_argument("--out", required=True)
    parser.add_argument("--threads", type=int)
    args = parser.parse_args(argv)
    print(generate(args.out, args.rows, args.items, args.length_spread, args.relevant, args.ties, args.seed,
                   args.judgments, threads=args.threads))


if __name__ == "__main__":
    main()
