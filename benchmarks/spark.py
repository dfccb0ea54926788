"""ndcg_sql on a local SparkSession at scale, against DuckDB on the same data, in one run.

    python -m benchmarks.spark --rows 10_000_000        # ~10-20 minutes on 2 cores

A generated log (``benchmarks/generate.py``: query_id, item_id, score, label; an arm
column A/B by query parity is added for segments) is evaluated by ``ndcg_sql.evaluate``
with ``con=`` a SparkSession (``local[2]``, 8 shuffle partitions) and by DuckDB, for the
summary (and with the per-query rows fetched), segments (with intervals), measures with
intervals, the bootstrap, and ``compare`` of two runs. For each case it prints the seconds
of each engine and their ratio, the statements sent to Spark and how many times they name
the input table (input scans: Spark inlines a CTE read twice, so each name is one scan of
the table), and fails when

* a number differs from DuckDB's by more than 1e-9 (the means, standard errors and
  intervals are exact sums and the bootstrap draws are keyed by query, so they agree far
  closer than that), or
* Spark logs "No Partition Defined for Window operation" (a window that would move every
  row to one partition): every window of the SQL is partitioned by query.

tests/test_spark_scale.py runs the same cases on a small log in the test suite (and
tests/test_portable_sql.py checks that every window of every statement has a PARTITION BY).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time

import duckdb

import ndcg_sql

from . import generate
from .counting import CountedSession

SINGLE_PARTITION = "No Partition Defined for Window operation"
TOLERANCE = 1e-9
MEASURES = ["nDCG@10", "P@5", "AP", "RR"]
#: name -> (keyword arguments of evaluate, or None for compare)
CASES = {
    "summary": dict(),
    "summary, per-query rows": dict(per_query=True),
    "segments, intervals": dict(segments=["arm"], k=[5, 10], intervals=True),
    "measures, intervals": dict(measures=MEASURES, ties="item-asc", intervals=True),
    "bootstrap": dict(k=[10], bootstrap=100, seed=1),
    "compare": None,
}


class JvmLog:
    """The process's stderr, where the JVM that Spark starts logs, sent to a file from before
    the JVM starts (it inherits the descriptor): ``since(mark)`` is what was logged after a mark."""

    def __init__(self):
        self.file = tempfile.NamedTemporaryFile(prefix="ndcg_sql_spark_", suffix=".log", delete=False)
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)

    def mark(self) -> int:
        return os.path.getsize(self.file.name)

    def since(self, mark: int) -> str:
        with open(self.file.name, "rb") as handle:
            handle.seek(mark)
            return handle.read().decode("utf-8", "replace")

    def close(self) -> None:
        os.dup2(self.saved, 2)
        os.close(self.saved)


def spark_session(driver_memory: str = "4g"):
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("ndcg_sql-benchmark")
               .config("spark.sql.shuffle.partitions", "8").config("spark.driver.memory", driver_memory)
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("WARN")  # the single-partition warning is a WARN
    return session


def close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def compare_rows(spark_rows: list[dict], duck_rows: list[dict]) -> float:
    """Largest difference between two lists of summary rows (same order); inf when they differ in shape."""
    if len(spark_rows) != len(duck_rows) or any(set(a) != set(b) for a, b in zip(spark_rows, duck_rows)):
        return math.inf
    worst = 0.0
    for a, b in zip(spark_rows, duck_rows):
        for key in a:
            if not close(a[key], b[key]):
                return math.inf
            if isinstance(a[key], float) and isinstance(b[key], float):
                worst = max(worst, abs(a[key] - b[key]))
    return worst


def unpartitioned_windows(frame) -> list[str]:
    """The windows of Spark's optimized plan of a DataFrame (a statement sent, kept by
    :class:`CountedSession`: the plan its run made, not planned again) that have no partition
    key, each as the start of its text: the plan-time form of Spark's "No Partition Defined for
    Window operation" (such a window reads every row in one partition), found by walking the
    plan's operators instead of reading the log. A key that the optimizer proved constant is
    gone from the plan."""
    found, pending = [], [frame._jdf.queryExecution().optimizedPlan()]
    while pending:
        node = pending.pop()
        if node.nodeName() == "Window" and node.partitionSpec().isEmpty():
            found.append(node.toString().splitlines()[0][:120])
        children = node.children()
        pending.extend(children.apply(i) for i in range(children.size()))
    return found


def run_case(name: str, options, spark, duck, runs: tuple[str, str], log: JvmLog | None = None) -> dict:
    """One case on Spark and DuckDB: seconds, statements, input scans, largest difference, the
    single-partition warnings Spark logged (counted when ``log`` holds the JVM's log), and the
    windows without a partition key in the optimized plans of the statements sent."""
    counted = CountedSession(spark, runs)
    mark = log.mark() if log is not None else 0
    start = time.perf_counter()
    if options is None:
        got = ndcg_sql.compare(runs[0], runs[1], ["nDCG@10", "AP"], con=counted, dialect="spark",
                               ties="item-asc").summary_records()
    else:
        got = ndcg_sql.evaluate(runs[0], con=counted, dialect="spark", **options).summary_records()
    spark_seconds = time.perf_counter() - start
    warnings = log.since(mark).count(SINGLE_PARTITION) if log is not None else 0
    start = time.perf_counter()
    if options is None:
        want = ndcg_sql.compare(runs[0], runs[1], ["nDCG@10", "AP"], con=duck, ties="item-asc").summary_records()
    else:
        want = ndcg_sql.evaluate(runs[0], con=duck, **options).summary_records()
    duck_seconds = time.perf_counter() - start
    return {"case": name, "spark": spark_seconds, "duckdb": duck_seconds, "statements": counted.statements,
            "scans": counted.references, "difference": compare_rows(got, want),
            "single_partition_warnings": warnings,
            "unpartitioned_windows": [w for frame in counted.frames for w in unpartitioned_windows(frame)]}


def load(spark, duck, path: str) -> tuple[str, str]:
    """The log as tables 'ranking' and 'ranking_b' (scores perturbed) in both engines, with the arm column."""
    arm = "CASE WHEN query_id % 2 = 0 THEN 'A' ELSE 'B' END AS arm"
    other = "score + (CAST(item_id % 7 AS DOUBLE) - 3.0) * 0.05 AS score"
    spark.read.parquet(path).createOrReplaceTempView("source")
    spark.sql(f"SELECT *, {arm} FROM source").cache().createOrReplaceTempView("ranking")
    spark.sql(f"SELECT query_id, item_id, {other}, label, {arm} FROM source").cache().createOrReplaceTempView("ranking_b")
    duck.execute(f"CREATE TABLE ranking AS SELECT *, {arm} FROM read_parquet('{path}')")
    duck.execute(f"CREATE TABLE ranking_b AS SELECT query_id, item_id, {other}, label, {arm} FROM read_parquet('{path}')")
    for table in ("ranking", "ranking_b"):
        spark.table(table).count()  # materialise the cache before timing
    return "ranking", "ranking_b"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=lambda s: int(s.replace("_", "")), default=10_000_000)
    parser.add_argument("--driver-memory", default="4g")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    args = parser.parse_args(argv)
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(data, f"spark_{args.rows}.parquet")
    if not os.path.exists(path):
        generate.main(["--rows", str(args.rows), "--out", path])
    log = JvmLog()
    spark = spark_session(args.driver_memory)
    duck = ndcg_sql.running.executors.connect(None)
    runs = load(spark, duck, path)
    print(f"{args.rows:,} rows; Spark local[2], 8 shuffle partitions; DuckDB {duckdb.__version__}")
    print("| case | Spark s | DuckDB s | Spark / DuckDB | statements | input scans | largest difference "
          "| single-partition warnings | windows without a partition key |")
    print("|---|---|---|---|---|---|---|---|---|")
    failed = False
    for name in args.cases:
        result = run_case(name, CASES[name], spark, duck, runs, log)
        print(f"| {name} | {result['spark']:.1f} | {result['duckdb']:.1f} | {result['spark'] / result['duckdb']:.1f} "
              f"| {result['statements']} | {result['scans']} | {result['difference']:.2g} "
              f"| {result['single_partition_warnings']} | {len(result['unpartitioned_windows'])} |", flush=True)
        failed |= (result["difference"] > TOLERANCE or result["single_partition_warnings"] > 0
                   or bool(result["unpartitioned_windows"]))
    spark.stop()
    log.close()
    print(f"(Spark's log: {log.file.name})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
