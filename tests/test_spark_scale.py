"""The cases of the Spark benchmark (benchmarks/spark.py: summary, segments with intervals,
measures with intervals, the bootstrap, compare) on a small generated log, in the suite: Spark
through evaluate(con=SparkSession) gives DuckDB's numbers (exact sums and query-keyed draws:
the same to 1e-9, in fact to the last digits), sending one statement for the input checks,
the summary and the query counts, naming the input table once (SENT).
No window of Spark's optimized plan of any statement a case sends lacks a partition key (the
plans its run made; on the SQL itself, for every statement: tests/test_portable_sql.py; the
benchmark also watches Spark's log at 10M rows)."""

from __future__ import annotations

import pytest

import ndcg_sql
from benchmarks import generate, spark as spark_benchmark
from engines import shared

#: on tests/engines.py's Spark (tests/conftest.py engine_of)
pytestmark = pytest.mark.on_engine("spark")


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("spark_scale") / "log.parquet")
    generate.main(["--rows", "3000", "--out", path])
    session = shared("spark").session
    duck = ndcg_sql.running.executors.connect(None)
    runs = spark_benchmark.load(session, duck, path)
    return session, duck, runs


#: (statements, input scans) of each case: one statement for the checks, the summary, the counts
#: and the per-query rows when asked (compare: one per run); each names the table once.
#: Before issue 14: summary 2 / 4, segments 2 / 6, measures 3 / 6, bootstrap 2 / 4, compare 6 / 12;
#: per-query rows in a statement of their own (until plan.with_per_query_rows): 2 / 2, compare 4 / 4.
#: compare since issue 32 item 4 (the statistics computed in Spark, only summary rows sent back): each
#: run's statement, then each run's values kept in the session (Warehouse.kept: a statement naming its
#: table), then the pair's statement over the kept values; before: 2 / 2, every per-query row sent back.
SENT = {"summary": (1, 1), "summary, per-query rows": (1, 1), "segments, intervals": (1, 1),
        "measures, intervals": (1, 1), "bootstrap": (1, 1), "compare": (5, 4)}


@pytest.mark.parametrize("case", list(spark_benchmark.CASES))
def test_spark_gives_duckdbs_numbers(engines, case):
    session, duck, runs = engines
    result = spark_benchmark.run_case(case, spark_benchmark.CASES[case], session, duck, runs)
    assert result["difference"] <= spark_benchmark.TOLERANCE, result
    assert (result["statements"], result["scans"]) == SENT[case], result
    # every window of Spark's optimized plan of every statement keeps a partition key, also the
    # bootstrap's window over the replicates with one cutoff, whose constant key (the cutoff)
    # Spark's optimizer drops (sql/bootstrap_intervals.sql.j2); the plans are those the run made
    assert result["unpartitioned_windows"] == [], result
