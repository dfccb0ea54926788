"""Time ndcg_sql against the scan floor and peers on one generated log, in one run.

    python -m benchmarks.run --rows 10_000_000 --items 10 --peers numpy polars

Each approach runs in its own process (``benchmarks/approaches.py``), one after
the other, so its peak memory is its own; seconds exclude interpreter start-up
and writing results (which happens only when peers are compared). CPU seconds
are reported beside wall seconds because the machine may be shared: the CPU
ratio to the floor is the steadier figure when other work competes for cores. Two floors: the hash
floor (one group-by per query, no sort) and the sort floor (one ranking window over the log, the
least any exact whole-list measure needs); with ``--repeat`` every approach runs once per round,
floors and ours side by side, and the fastest of each is kept. With ``--strict-memory-limit``, DuckDB's
partitioned execution is off for ndcg_sql (``strict_memory_limit=True``, on the connection evaluate opens itself
with ``--memory-limit``) and for the floors, so that the ratios compare like with like. Every approach's per-query NDCG@k is compared with
ndcg_sql's (largest absolute difference; it must be below 1e-9). Prints a
Markdown table with seconds, the ratios to both floors and peak memory.
Data is generated once into benchmarks/data/ (git-ignored) and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import duckdb

from . import generate

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
TOLERANCE = 1e-9
#: The two floors every ratio is given against: one hash group-by per query (no sort), and one
#: ranking window over the log (the least any exact whole-list measure needs).
FLOORS = ("floor", "sort_floor")


def _rows(text: str) -> int:
    return int(text.replace("_", ""))


def run_approach(name, run, judgments, memory_limit, out, strict=False):
    command = [sys.executable, "-m", "benchmarks.approaches", name, run, out, judgments or "-", memory_limit or "-",
               *(["strict"] if strict else [])]
    done = subprocess.run(command, capture_output=True, text=True, cwd=os.path.dirname(HERE))
    if done.returncode != 0:
        return {"approach": name, "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def largest_difference(ours: str, theirs: str) -> float | None:
    """Largest |NDCG difference| over (query, k); a peer may leave out a query only where ours is 0
    (no relevant item: ranx does); any other missing or extra row counts as infinite."""
    row = duckdb.connect().execute(
        f"""SELECT MAX(ABS(COALESCE(a.ndcg, 0) - COALESCE(b.ndcg, 0))),
                   COUNT(*) FILTER (WHERE b.query_id IS NULL AND COALESCE(a.ndcg, 0) <> 0),
                   COUNT(*) FILTER (WHERE a.query_id IS NULL)
            FROM read_parquet('{ours}') AS a FULL JOIN read_parquet('{theirs}') AS b
            ON a.query_id = b.query_id AND a.k = b.k"""
    ).fetchall()[0]
    if row[1] or row[2]:
        return float("inf")
    return row[0]


def _ratio(result: dict, floor: dict, key: str) -> str:
    """``result[key] / floor[key]`` to one decimal, or empty when the floor failed."""
    return f"{result[key] / floor[key]:.1f}" if key in floor and floor[key] else ""


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=_rows, required=True)
    parser.add_argument("--items", type=int, default=10, help="items per query (default 10)")
    parser.add_argument("--judgments", action="store_true", help="judgments mode (ideal from a qrels file)")
    parser.add_argument("--peers", nargs="*", default=[], choices=["numpy", "polars", "ranx"])
    parser.add_argument("--ties", type=float, default=0.2,
                        help="share of items on a coarse score grid, so tied (default 0.2; ranx needs 0)")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit for the floor and ndcg_sql, e.g. 1GB")
    parser.add_argument("--strict-memory-limit", action="store_true",
                        help="DuckDB's partitioned execution off: ndcg_sql through evaluate(..., memory_limit=, "
                             "strict_memory_limit=True) on the connection it opens itself, the floors with "
                             "SET disabled_optimizers = 'partitioned_execution' (like for like)")
    parser.add_argument("--trusted", action="store_true",
                        help='also time ndcg_sql with checks="trusted" (no input check)')
    parser.add_argument("--numeric-cutoffs", action="store_true",
                        help="also time ndcg_sql with cutoffs 1, 3, 5, 10, 20 only (no whole list), "
                             "with every check and, with --trusted, trusted")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of every approach in turn (floors and ours side by side); keep each one's fastest")
    args = parser.parse_args(argv)

    stem = f"r{args.rows}_i{args.items}" + (f"_t{args.ties:g}" if args.ties != 0.2 else "")
    run = os.path.join(DATA, stem + ".parquet")
    qrels = os.path.join(DATA, stem + ".qrels.parquet")
    if not os.path.exists(run) or (args.judgments and not os.path.exists(qrels)):
        print("generating", generate.generate(run, args.rows, args.items, ties=args.ties, judgments=qrels), file=sys.stderr)
    judgments = qrels if args.judgments else None
    if judgments and args.peers:
        parser.error("peers compute list mode only; leave out --peers with --judgments")

    outputs = {}
    ours = ["ndcg_sql", *(["ndcg_sql_trusted"] if args.trusted else [])]
    if args.numeric_cutoffs:
        ours += ["ndcg_sql_numeric", *(["ndcg_sql_numeric_trusted"] if args.trusted else [])]
    names = ["floor", "sort_floor", *ours, *args.peers]
    best: dict[str, dict] = {}
    for _ in range(args.repeat):  # every approach once per round, so each round's floors and ours run side by side
        for name in names:
            out = os.path.join(DATA, f"{stem}.{name}.result.parquet") if args.peers else "-"
            limit = args.memory_limit if name in FLOORS or name in ours else None
            measured = run_approach(name, run, judgments, limit, out,
                                    args.strict_memory_limit and (name in FLOORS or name in ours))
            print(json.dumps(measured), file=sys.stderr, flush=True)
            if name not in best or measured.get("seconds", float("inf")) < best[name].get("seconds", float("inf")):
                best[name] = measured
            outputs[name] = out
    results = [best[name] for name in names]
    floors = {name: next(r for r in results if r["approach"] == name) for name in FLOORS}
    title = (
        f"{args.rows:,} rows, {args.items} items/query"
        + (f", {args.ties:g} of scores tied" if args.ties != 0.2 else "")
        + (", judgments" if judgments else "")
        + (f", DuckDB memory_limit={args.memory_limit}" if args.memory_limit else "")
        + (", partitioned execution off (ndcg_sql with strict_memory_limit=True, the floors with "
           "SET disabled_optimizers = 'partitioned_execution')" if args.strict_memory_limit else "")
    )
    print(f"\n{title}\n")
    print("| approach | seconds | × floor | × sort floor | CPU seconds | × floor (CPU) | × sort floor (CPU) "
          "| peak memory (GB) | largest difference from ndcg_sql |")
    print("|---|---|---|---|---|---|---|---|---|")
    failed = False
    for result in results:
        name = result["approach"]
        if "error" in result:
            print(f"| {name} | failed: {result['error']} | | | | | | | |")
            failed = True
            continue
        difference = ""
        if name not in FLOORS and name not in ours and args.peers:
            value = largest_difference(outputs["ndcg_sql"], outputs[name])
            difference = f"{value:.1e}" + ("" if value <= TOLERANCE else " (DISAGREES)")
            failed |= value > TOLERANCE
        ratios = [_ratio(result, floors[f], key) for key in ("seconds", "cpu_seconds") for f in FLOORS]
        print(
            f"| {name} | {result['seconds']:.2f} | {ratios[0]} | {ratios[1]} | {result['cpu_seconds']:.2f} "
            f"| {ratios[2]} | {ratios[3]} | {result['peak_gb']:.2f} | {difference} |"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
