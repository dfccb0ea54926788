"""The dbt integration project on the warehouses' own dbt adapters (the `dbt-warehouses` extra).

- dbt-spark, `method: session` (target `spark` of integration_tests/profiles.yml): `dbt build` on
  a local SparkSession (pyspark, Java 17), in a process of its own (tests/dbt_build.py) started
  in the background when this module starts: Spark takes minutes to schedule the many small
  stages of the project, and the other builds here run meanwhile.
- dbt-snowflake (target `fakesnow`): `dbt build` against fakesnow's HTTP server
  (`fakesnow.server()` in .venv-snowflake since fakesnow pins its own sqlglot: tests/engines.py's
  `fakesnow_server`, the one the warehouse tests reach through snowflake.connector too), also
  in a process of its own (a connector that retries without end cannot hang the tests).
  Two project adjustments: trec_eval's float32 model is disabled on Snowflake (no 4-byte float),
  and the project's dispatch override macros/fakesnow_byte_order.sql drops Snowflake's 'utf8'
  collation, which fakesnow (DuckDB, whose string order is byte order) lacks.
- dbt-bigquery, dbt-snowflake, dbt-redshift, dbt-databricks (dummy targets): `dbt compile
  --no-populate-cache --no-introspect`, with every socket connect and name lookup of this
  process refused meanwhile; every compiled model and test must parse with sqlglot in the
  adapter's dialect.

The daily log's incremental model (and what goes with it) is enabled on dbt-duckdb and
dbt-postgres only, where tests/test_dbt_incremental.py runs it: none of these builds has it.

Each build is run once. A build passes only if every expected-value test (equals_expected:
the numpy reference, pytrec_eval, scikit-learn, scipy, to 1e-9) passes; the rows are also
compared here with the numpy reference, as tests/test_dbt.py does on DuckDB and Postgres.
"""

import json
import os
import socket
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

pytest.importorskip("dbt.adapters.spark", reason="install '.[test]' (its dbt-warehouses extra brings the adapters)")
pytest.importorskip("dbt.adapters.snowflake", reason="install '.[test]'")

import sqlglot
from sqlglot.errors import ErrorLevel

from engines import SPARK_JVM_OPTIONS, fakesnow_server
from test_dbt import (
    DAILY_NODES,
    NODES,
    REGRESSION_NODES,
    check_arms_measures,
    check_conventions,
    check_lambdarank_measures,
    check_models_match_reference,
    copy_project,
    environment,
    error_text,
    invoke,
)

#: every dbt adapter's own environment (fakesnow's among them)
pytestmark = pytest.mark.engines

HERE = Path(__file__).parent
#: the model that needs a 4-byte float (trec_eval's float32 scores), disabled on BigQuery and
#: Snowflake with its equals_expected test
FLOAT32_MODEL = "dl19_bm25_trec_eval"
#: every model that computes numbers, read back after the builds
READ_MODELS = [
    "lambdarank_per_query", "lambdarank_options_per_query", "lambdarank_summary", "lambdarank_measures",
    "lambdarank_measures_summary", "lambdarank_sklearn", "dl19_bm25_per_query", "dl19_bm25_by_rank_per_query",
    "dl19_bm25_summary", "dl19_arms_per_query", "dl19_arms_summary", "dl19_arms_measures",
    "dl19_arms_measures_summary", FLOAT32_MODEL,
]
#: the project's nodes on these adapters: the daily log's incremental model and what goes with it
#: are built on dbt-duckdb and dbt-postgres only (tests/test_dbt_incremental.py), as the seeded
#: log of the regression test and its tests
ADAPTER_NODES = NODES - DAILY_NODES - REGRESSION_NODES
#: a build that takes longer has gone wrong (uncontended: Spark about 4 minutes, fakesnow 1)
SPARK_MINUTES, FAKESNOW_MINUTES = 20, 15


def plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def assert_build_passed(build_success, exception, statuses: dict, nodes: int):
    assert build_success, exception
    assert len(statuses) == nodes, sorted(statuses)
    assert set(statuses.values()) <= {"success", "pass"}, {k: v for k, v in statuses.items() if v not in ("success", "pass")}
    assert sum(name.startswith("equals_expected_") for name in statuses) == (
        18 if FLOAT32_MODEL in statuses else 17)


# ---------------------------------------------------------------- builds in processes of their own


class Build:
    """`dbt build --target TARGET` of a copy of the project in a process of its own
    (tests/dbt_build.py), started at once and collected by result()."""

    def __init__(self, target: str, project: Path, minutes: float, **env: str):
        self.target, self.minutes = target, minutes
        folder = project.parent.parent
        self.output = folder / f"{target}_build.json"
        self.log_path = folder / f"{target}_build.log"
        self.log = open(self.log_path, "w")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "dbt_build.py"), target, str(project), str(self.output), *READ_MODELS],
            cwd=folder, env={**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false", **env},
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.outcome = None

    def result(self) -> dict:
        """{success, exception, statuses: {node: status}, tables: {model: rows} (Spark), seconds}."""
        if self.outcome is None:
            try:
                self.process.wait(timeout=self.minutes * 60)
            except subprocess.TimeoutExpired:
                self.stop()
                pytest.fail(f"dbt build --target {self.target} took over {self.minutes} minutes; "
                            f"its log ends:\n{self.log_path.read_text()[-3000:]}")
            self.log.close()
            if not self.output.exists():
                pytest.fail(f"dbt build --target {self.target} wrote no outcome; its log ends:\n"
                            f"{self.log_path.read_text()[-3000:]}")
            self.outcome = json.loads(self.output.read_text())
            self.outcome["seconds"] = time.monotonic() - self.started
        return self.outcome

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="module", autouse=True)
def spark_build(request, tmp_path_factory):
    """Starts the Spark build in the background when this module starts, if a selected test reads it."""
    if not any("spark_outcome" in item.fixturenames for item in request.session.items):
        yield None
        return
    project = copy_project(tmp_path_factory)
    build = Build("spark", project, SPARK_MINUTES,
                  NDCG_SQL_DBT_SPARK_WAREHOUSE=str(project.parent.parent / "spark-warehouse"),
                  JDK_JAVA_OPTIONS=SPARK_JVM_OPTIONS)  # read by every JVM the build starts
    try:
        yield build
    finally:
        build.stop()


@pytest.fixture(scope="module")
def spark_outcome(spark_build) -> dict:
    return spark_build.result()


# ---------------------------------------------------------------- dbt-snowflake on fakesnow's server


@pytest.fixture(scope="module")
def fakesnow_project(tmp_path_factory):
    """The integration project built with dbt-snowflake on fakesnow's server (tests/engines.py's
    :func:`fakesnow_server`, as the warehouse tests use it); yields (project, read, outcome)."""
    import snowflake.connector

    project = copy_project(tmp_path_factory)
    with fakesnow_server() as arguments:
        outcome = Build("fakesnow", project, FAKESNOW_MINUTES, NDCG_SQL_DBT_SNOWFLAKE_PORT=str(arguments["port"])).result()
        con = snowflake.connector.connect(**arguments, database="NDCG_SQL", schema="NDCG_SQL_IT")

        def read(name):
            cursor = con.cursor()
            cursor.execute(f"SELECT * FROM ndcg_sql.ndcg_sql_it.{name}")
            names = [d[0].lower() for d in cursor.description]
            return [dict(zip(names, map(plain, row))) for row in cursor.fetchall()]

        try:
            yield project, read, outcome
        finally:
            con.close()


def test_fakesnow_build_passes(fakesnow_project):
    _, _, outcome = fakesnow_project
    # the float32 model and its equality test are disabled on Snowflake, at parse time
    assert_build_passed(outcome["success"], outcome["exception"], outcome["statuses"], ADAPTER_NODES - 2)
    assert FLOAT32_MODEL not in outcome["statuses"]
    print(f"dbt build on fakesnow: {outcome['seconds']:.0f} s")


def test_fakesnow_models_match_reference(fakesnow_project):
    _, read, _ = fakesnow_project
    check_models_match_reference(read)
    check_lambdarank_measures(read)
    check_arms_measures(read)
    check_conventions(read, trec_eval=False)


def test_fakesnow_ran_the_byte_order_shim_and_snowflake_sql(fakesnow_project):
    project, _, _ = fakesnow_project
    compiled = project / "target" / "compiled" / "ndcg_sql_integration_tests" / "models"
    # item-desc ties: the project's override compares the item itself on fakesnow...
    sql = (compiled / "lambdarank_options_per_query.sql").read_text()
    assert "COLLATE" not in sql.upper() and "item DESC NULLS LAST" in sql
    # ...and is the package's own Snowflake collation on any other Snowflake account (below)


# ---------------------------------------------------------------- offline compile of the real adapters

#: target of profiles.yml -> sqlglot dialect
OFFLINE = {"bigquery": "bigquery", "snowflake": "snowflake", "redshift": "redshift", "databricks": "databricks"}


class no_network:
    """Refuses (and records) every socket connect and name lookup of this process for a block."""

    def __enter__(self):
        self.attempts = []
        self.saved = (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo)

        def refuse(what):
            def refused(*args, **kwargs):
                self.attempts.append((what, args[1:] if what != "getaddrinfo" else args))
                raise OSError(f"offline compile: {what} refused")
            return refused

        socket.socket.connect = refuse("connect")
        socket.socket.connect_ex = refuse("connect_ex")
        socket.getaddrinfo = refuse("getaddrinfo")
        return self

    def __exit__(self, *_):
        socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = self.saved


@pytest.fixture(scope="module")
def offline_project(tmp_path_factory):
    project = copy_project(tmp_path_factory)
    with environment():
        deps = invoke(project, "deps")
        assert deps.success, deps.exception
    return project, {}


def compile_offline(offline_project, target: str, *args: str):
    project, _ = offline_project
    with environment(), no_network() as guard:
        result = invoke(project, "compile", "--target", target, "--no-populate-cache", "--no-introspect",
                        "--target-path", f"target_{target}", *args)
    assert guard.attempts == [], guard.attempts
    return result


@pytest.fixture(params=sorted(OFFLINE))
def compiled(request, offline_project):
    """(target, {node name: (resource type, compiled SQL)}) of `dbt compile` on a dummy target."""
    target = request.param
    project, cache = offline_project
    if target not in cache:
        started = time.monotonic()
        result = compile_offline(offline_project, target)
        assert result.success, error_text(result.exception)
        cache[target] = {r.node.name: (r.node.resource_type, r.node.compiled_code) for r in result.result.results}
        print(f"dbt compile --target {target}: {time.monotonic() - started:.0f} s")
    return target, cache[target]


def test_offline_compile_of_every_node_parses_in_the_adapters_dialect(compiled):
    target, nodes = compiled
    models = {name for name, (kind, _) in nodes.items() if str(kind) == "model"}
    float32 = target in ("bigquery", "snowflake")
    assert len(models) == 19 - float32 and (FLOAT32_MODEL in models) != float32
    assert len(nodes) == ADAPTER_NODES - 2 * float32
    queries = {name: sql for name, (kind, sql) in nodes.items() if str(kind) in ("model", "test")}
    assert len(queries) == ADAPTER_NODES - 21 - 2 * float32  # models and data tests (a seed has no query)
    for name, sql in queries.items():
        try:
            sqlglot.parse(sql, read=OFFLINE[target], error_level=ErrorLevel.RAISE)
        except sqlglot.errors.SqlglotError as error:
            pytest.fail(f"{target}: {name} does not parse as {OFFLINE[target]} SQL: {error}")


#: in the compiled lambdarank_options_per_query (a gain mapping, ties by item id descending):
#: what each adapter's dispatched engine pieces put there
ENGINE_PIECES = {
    "bigquery": ["CAST(order_raw AS FLOAT64)", "`ndcg-sql-offline`.`ndcg_sql_it`.`lambdarank_test`"],
    "snowflake": ["COLLATE(item, 'utf8') DESC NULLS LAST", "ndcg_sql.ndcg_sql_it.lambdarank_test"],
    "redshift": ["CAST(order_raw AS DOUBLE PRECISION)", "item DESC NULLS LAST", '"dev"."ndcg_sql_it"."lambdarank_test"'],
    "databricks": ["CAST(order_raw AS DOUBLE)", "`main`.`ndcg_sql_it`.`lambdarank_test`"],
}


def test_offline_compile_uses_each_engines_pieces(compiled):
    target, nodes = compiled
    _, sql = nodes["lambdarank_options_per_query"]
    for piece in ENGINE_PIECES[target]:
        assert piece in sql, (target, piece)


@pytest.mark.parametrize("target", ["bigquery", "snowflake"])
def test_offline_compile_stops_float32_where_there_is_no_4_byte_float(offline_project, target):
    # the disabled model's call, compiled by hand: the package stops it with its own message
    result = compile_offline(offline_project, target, "--inline",
                             "{{ ndcg_sql.ndcg_measures(ref('dl19_bm25_run'), ['nDCG@10'], "
                             "judgments=ref('dl19_qrels'), convention='trec_eval') }}")
    assert not result.success
    assert "has no 32-bit float type" in error_text(result.exception)


# ---------------------------------------------------------------- dbt-spark's outcome (last: it ran meanwhile)


def test_spark_build_passes(spark_outcome):
    assert_build_passed(spark_outcome["success"], spark_outcome["exception"], spark_outcome["statuses"], ADAPTER_NODES)
    print(f"dbt build on Spark (in the background): {spark_outcome['seconds']:.0f} s")


def test_spark_models_match_reference_and_peers(spark_outcome):
    tables = spark_outcome["tables"]
    assert sorted(tables) == sorted(READ_MODELS)
    read = tables.__getitem__
    check_models_match_reference(read)
    check_lambdarank_measures(read)
    check_arms_measures(read)
    check_conventions(read)
