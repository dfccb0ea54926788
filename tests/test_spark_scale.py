"""The cases of the Spark benchmark (benchmarks/spark.py: summary, segments with intervals,
measures with intervals, the bootstrap, compare) on a small generated log, in the suite: Spark
through evaluate(con=SparkSession) gives DuckDB's numbers (exact sums and query-keyed draws:
the same to 1e-9, in fact to the last digits), sending one statement per fetch.
(That no window runs over all rows in one partition is checked on the SQL itself, for every
statement: tests/test_portable_sql.py; the benchmark also watches Spark's log at 10M rows.)"""

from __future__ import annotations

import pytest

import ndcg_sql
from benchmarks import generate, spark as spark_benchmark
from engines import ENGINES


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("spark_scale") / "log.parquet")
    generate.main(["--rows", "3000", "--out", path])
    instance = ENGINES["spark"]()
    duck = ndcg_sql.executors.connect(None)
    runs = spark_benchmark.load(instance.session, duck, path)
    yield instance.session, duck, runs
    instance.close()


@pytest.mark.parametrize("case", list(spark_benchmark.CASES))
def test_spark_gives_duckdbs_numbers(engines, case):
    session, duck, runs = engines
    result = spark_benchmark.run_case(case, spark_benchmark.CASES[case], session, duck, runs)
    assert result["difference"] <= spark_benchmark.TOLERANCE, result
    assert result["statements"] >= 1
