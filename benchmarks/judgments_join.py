"""Judgments mode's ranking window over the join, against the join's rows stored first: one run.

    python -m benchmarks.judgments_join --rows 100_000_000 [--memory-limit 4GB]

DuckDB's PartitionedExecution optimizer splits a window whose input is a scan of data stored in
query order into independent ranges of the query key (each sorted in memory); a window over a join
is sorted in one piece, spilling past the memory limit. This times the per-query statement of
``evaluate(..., checks="trusted")`` (the summary's input) on one generated log three ways, each in
its own process, on a connection with the given memory limit:

* ``list``: list mode, the ranking window over the log's scan;
* ``judgments``: judgments mode as ndcg_sql runs it, the window over the LEFT join of the log
  with the judgments;
* ``judgments, stored``: the join's rows (``labelled_items``) stored first as a temp table, then
  the same statement reading that table (the window over a table scan).

Only the statements are timed, each on a new connection (``evaluate`` builds them first, in a
process of its own, and computes them once, untimed); each variant's per-query rows are
summed into a bit-exact checksum, and the two judgments variants must agree. A run out of memory
(the stored rows compete with the window for the limit) is counted in the table, not fatal. Data
is generated once into benchmarks/data/ (git-ignored) and reused. Prints a Markdown table, ratios
to ``list``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

from ndcg_sql.vocabulary.parameters import DEFAULTS

from . import generate
from .approaches import Timer, spill_folder
from .run import DATA, _rows

VARIANTS = ("list", "judgments", "judgments, stored")


def _statements(sql: str, stored: bool) -> list[str]:
    """The per-query statement as one checksum query, or its join stored first and then read."""
    import sqlglot
    from sqlglot import exp

    checksum = "SELECT BIT_XOR(HASH(query_id, k, cg, dcg, idcg, ndcg)) AS checksum, COUNT(*) AS n FROM ({})"
    if not stored:
        return [checksum.format(sql)]
    tree = sqlglot.parse_one(sql, read="duckdb")
    ctes = tree.ctes
    last = [cte.alias for cte in ctes].index("labelled_items")
    first = exp.select("*").from_("labelled_items")
    for cte in ctes[: last + 1]:
        first = first.with_(cte.alias, as_=cte.this.copy())
    ctes[last].set("this", sqlglot.parse_one("SELECT * FROM labelled_stored", read="duckdb"))
    return [f"CREATE TEMP TABLE labelled_stored AS {first.sql('duckdb')}", checksum.format(tree.sql("duckdb"))]


def statement_of(run: str, qrels: str | None, memory_limit: str, spill: str) -> dict:
    """The per-query statement ``evaluate(..., checks="trusted")`` runs, and the views it reads."""
    import duckdb

    import ndcg_sql

    con = duckdb.connect(config={"memory_limit": memory_limit, "temp_directory": spill})
    with ndcg_sql.evaluate(run, judgments=qrels, con=con, checks="trusted") as result:
        views = [sql for (sql,) in con.execute(
            "SELECT sql FROM duckdb_views() WHERE temporary AND view_name LIKE 'ndcg_sql_%'").fetchall()]
        return {"sql": result.sql, "views": views}


def measure(variant: str, statement: dict, memory_limit: str, spill: str) -> dict:
    """Time one variant on a new connection: wall and CPU seconds, peak memory, checksum."""
    import duckdb

    con = duckdb.connect(config={"memory_limit": memory_limit, "temp_directory": spill})
    for view in statement["views"]:
        con.execute(view)
    statements = _statements(statement["sql"], stored=variant.endswith("stored"))
    timer = Timer()
    try:
        for sql in statements:
            rows = con.execute(sql).fetchall()
    except duckdb.OutOfMemoryException:  # a row of the table, not the end of the run
        return {"variant": variant, "error": f"out of memory under memory_limit={memory_limit}"}
    seconds, cpu_seconds = timer.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024  # KiB -> GiB
    return {"variant": variant, "seconds": seconds, "cpu_seconds": cpu_seconds, "peak_gb": peak,
            "checksum": rows[0][0], "rows": rows[0][1]}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=_rows, required=True)
    parser.add_argument("--items", type=int, default=10, help="items per query (default 10)")
    parser.add_argument("--memory-limit", default=DEFAULTS.memory_limit,
                        help=f"DuckDB memory_limit (default {DEFAULTS.memory_limit}, evaluate's)")
    parser.add_argument("--repeat", type=int, default=1, help="run each variant this many times, keep the fastest")
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)  # the child process...
    parser.add_argument("--statement", help=argparse.SUPPRESS)  # ...and the JSON file of what it runs
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)  # ...or writes
    args = parser.parse_args(argv)

    stem = f"r{args.rows}_i{args.items}"
    run = os.path.join(DATA, stem + ".parquet")
    qrels = os.path.join(DATA, stem + ".qrels.parquet")
    spill = spill_folder()
    if args.variant:  # a child process: one variant timed, or (--prepare) a statement built
        if args.prepare:
            with open(args.statement, "w") as file:
                json.dump(statement_of(run, None if args.variant == "list" else qrels, args.memory_limit, spill), file)
        else:
            with open(args.statement) as file:
                print(json.dumps(measure(args.variant, json.load(file), args.memory_limit, spill)))
        return
    if not (os.path.exists(run) and os.path.exists(qrels)):
        print("generating", generate.generate(run, args.rows, args.items, judgments=qrels), file=sys.stderr)
    child = [sys.executable, "-m", "benchmarks.judgments_join", "--rows", str(args.rows), "--items", str(args.items),
             "--memory-limit", args.memory_limit]
    # the statements as evaluate builds them, each in a process of its own (evaluate also computes
    # them once, untimed; a child's peak memory would otherwise include the parent's)
    statements = {}
    for mode in ("list", "judgments"):
        statements[mode] = os.path.join(DATA, f"{stem}.{mode}.statement.json")
        subprocess.run([*child, "--variant", mode, "--prepare", "--statement", statements[mode]], check=True)
    results = []
    for variant in VARIANTS:
        command = [*child, "--variant", variant, "--statement", statements[variant.split(",")[0]]]
        runs = []
        for _ in range(args.repeat):
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
        done_runs = [r for r in runs if "error" not in r]
        best = min(done_runs, key=lambda r: r["seconds"]) if done_runs else runs[0]
        results.append({**best, "failed": len(runs) - len(done_runs), "runs": len(runs)})
    base = results[0]
    if "error" in base:
        sys.exit(f"list mode failed: {base['error']}")
    print(f"\n{args.rows:,} rows, {args.items} items/query, checks=trusted, DuckDB memory_limit={args.memory_limit}"
          f"{f', fastest of {args.repeat}' if args.repeat > 1 else ''}\n")
    print("| variant | seconds | × list | CPU seconds | × list (CPU) | peak memory (GB) | out of memory |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        failed = f"{r['failed']} of {r['runs']}"
        if "error" in r:
            print(f"| {r['variant']} | | | | | | {failed} |")
            continue
        print(f"| {r['variant']} | {r['seconds']:.2f} | {r['seconds'] / base['seconds']:.2f} | {r['cpu_seconds']:.2f} "
              f"| {r['cpu_seconds'] / base['cpu_seconds']:.2f} | {r['peak_gb']:.2f} | {failed} |")
    if any("error" in r for r in results):
        return
    same = results[1]["checksum"] == results[2]["checksum"] and results[1]["rows"] == results[2]["rows"]
    print(f"\njudgments and judgments, stored: per-query rows {'bit-identical' if same else 'DIFFER'}")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
