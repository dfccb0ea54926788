"""Real SQL engines for the warehouse tests, all local and offline.

- Postgres: Debian's server binaries, a throwaway cluster with an ICU
  collation (so string order is not byte order), started and stopped here on a
  Unix socket in its own directory; or an existing server given by
  NDCG_SQL_POSTGRES_DSN.
- Redshift (stand-in): the Redshift dialect's SQL on a second throwaway
  Postgres cluster with the C collation (Redshift compares bytes).
- Spark SQL: pyspark in local mode.
- BigQuery: the ``zetasql`` package's GoogleSQL reference engine (WebAssembly
  build of ZetaSQL, executes queries over in-memory tables).
- Snowflake: ``fakesnow``'s server (``fakesnow.server()``, run by ``fakesnow_server.py`` in
  fakesnow's own virtualenv, since it pins sqlglot) through the real ``snowflake.connector``, the
  one dbt-snowflake uses too. fakesnow's Python is NDCG_SQL_FAKESNOW_PYTHON, default
  ``.venv-snowflake/bin/python``.

A missing engine is a test failure, never a skip. In the quick run (``-m "not engines"``,
tests/conftest.py) starting one is an error: a test that does is not marked ``engines``. Each engine offers a DB-API
style connection (or a SparkSession) for :func:`ndcg_sql.evaluate`, and
``load(table, columns, rows)`` to create a table from Python rows.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

ROOT = Path(__file__).resolve().parent.parent

#: Column types by Python type of the values, as DuckDB-syntax type names.
TYPES = {str: "VARCHAR", int: "BIGINT", float: "DOUBLE"}


def column_types(rows, n):
    types = []
    for index in range(n):
        kinds = {type(row[index]) for row in rows if row[index] is not None}
        kind = float if kinds == {int, float} else (kinds.pop() if kinds else str)
        types.append(TYPES[kind])
    return types


def create_statements(dialect: str, table: exp.Table, columns: list[str], rows: list[tuple]) -> list[str]:
    """CREATE TABLE and INSERT for ``rows``, built as sqlglot trees (values as literals)."""
    types = column_types(rows, len(columns))
    schema = exp.Schema(
        this=table.copy(),
        expressions=[
            exp.ColumnDef(this=exp.to_identifier(c, quoted=True), kind=exp.DataType.build(t, dialect="duckdb"))
            for c, t in zip(columns, types)
        ],
    )
    create = exp.Create(this=schema, kind="TABLE")
    out = [create.sql(dialect=dialect, unsupported_level=sqlglot.ErrorLevel.RAISE)]
    for start in range(0, len(rows), 200):
        values = exp.values([tuple(exp.convert(v) for v in row) for row in rows[start : start + 200]])
        insert = exp.insert(values, table.copy(), columns=[exp.to_identifier(c, quoted=True) for c in columns])
        out.append(insert.sql(dialect=dialect, unsupported_level=sqlglot.ErrorLevel.RAISE))
    return out


# ---------------------------------------------------------------- Postgres


def _postgres_bindir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


#: Set by tests/conftest.py when the run deselects the tests marked ``engines``.
QUICK_RUN = "NDCG_SQL_QUICK_RUN"


def starting(name: str) -> None:
    """Called as an engine starts: in the quick run, an error naming the engine."""
    if os.environ.get(QUICK_RUN):
        raise RuntimeError(f"the quick run (-m 'not engines') started {name}: mark the test 'engines' "
                           "(its engine fixture, @pytest.mark.on_engine or @pytest.mark.engines: CONTRIBUTING.md)")


class Postgres:
    """Postgres with an ICU collation (en-US): string order is not byte order."""

    dialect = "postgres"
    dsn_variable = "NDCG_SQL_POSTGRES_DSN"
    locale = ["--locale=C.UTF-8", "--locale-provider=icu", "--icu-locale=en-US"]

    def __init__(self):
        starting("Postgres")
        import psycopg

        dsn = os.environ.get(self.dsn_variable)
        self.base = None
        if not dsn:
            bindir = _postgres_bindir()
            if bindir is None:
                pytest.fail("PostgreSQL server not installed (apt-get install postgresql; .ci/run does it)")
            self.bindir = bindir
            self.base = tempfile.mkdtemp(prefix="ndcg_sql_pg_")
            os.chmod(self.base, 0o755)
            self.data = os.path.join(self.base, "data")
            run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
            if run_as:
                shutil.chown(self.base, "postgres", "postgres")
            self.run_as = run_as
            subprocess.run(
                [*run_as, f"{bindir}/initdb", "-D", self.data, "-U", "postgres", "--auth=trust",
                 "--encoding=UTF8", *self.locale],
                check=True, capture_output=True,
            )
            port = 5432  # only names the socket file in our own directory: no TCP listener
            subprocess.run(
                [*run_as, f"{bindir}/pg_ctl", "-D", self.data, "-w", "-l", os.path.join(self.base, "log"),
                 "-o", f"-k {self.base} -c listen_addresses='' -p {port} -c fsync=off -c jit=off", "start"],
                check=True, capture_output=True,
            )
            dsn = f"host={self.base} port={port} user=postgres dbname=postgres"
        self.con = psycopg.connect(dsn, autocommit=True, prepare_threshold=None)  # tables are re-created
        self.schema_counter = 0

    def load(self, table: exp.Table, columns, rows):
        with self.con.cursor() as cur:
            if table.db:
                cur.execute(exp.Create(this=exp.Table(db=table.args["db"].copy()), kind="SCHEMA", exists=True).sql("postgres"))
            cur.execute(exp.Drop(tables=[table.copy()], kind="TABLE", exists=True).sql("postgres"))
            for statement in create_statements("postgres", table, columns, rows):
                cur.execute(statement)

    def connection(self):
        return self.con

    def transaction(self):
        """A new connection as psycopg opens one by default (not autocommit): its statements run in
        a transaction, which a failed statement aborts until it is rolled back. The caller closes it."""
        import psycopg

        return psycopg.connect(self.con.info.dsn, prepare_threshold=None)

    def close(self):
        self.con.close()
        if self.base:
            subprocess.run(
                [*self.run_as, f"{self.bindir}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"],
                check=False, capture_output=True,
            )
            shutil.rmtree(self.base, ignore_errors=True)


class Redshift(Postgres):
    """The Redshift dialect's SQL on Postgres with the C collation: Redshift compares
    VARCHAR by bytes and has no COLLATE clause (a Redshift cluster cannot run offline)."""

    dialect = "redshift"
    dsn_variable = "NDCG_SQL_REDSHIFT_POSTGRES_DSN"  # a server whose database uses the C collation
    locale = ["--locale=C"]

    def connection(self):
        return self._as_redshift(self.con)

    def transaction(self):
        return self._as_redshift(super().transaction())

    @staticmethod
    def _as_redshift(con):
        """Redshift's VARCHAR(MAX) (the longest text, which sqlglot writes for a
        cast to text) is Postgres's TEXT, and its \\' in a string literal Postgres's '';
        nothing else is changed."""

        class Cursor:
            def __init__(self):
                self.cursor = con.cursor()

            def execute(self, sql):
                # Redshift reads \' in a string literal as a quote (sqlglot writes a quote so);
                # Postgres, with standard_conforming_strings, wants ''
                self.cursor.execute(sql.replace("VARCHAR(MAX)", "TEXT").replace("\\'", "''"))

            def __getattr__(self, name):
                return getattr(self.cursor, name)

        class Connection:
            def cursor(self):
                return Cursor()

            @property
            def in_transaction(self) -> bool:
                """redshift_connector's attribute: statements run since the last commit or rollback."""
                return con.info.transaction_status != 0  # libpq's IDLE

            @property
            def autocommit(self) -> bool:
                return con.autocommit

            def commit(self):
                con.commit()

            def rollback(self):
                con.rollback()

            def close(self):
                con.close()

        return Connection()


# ---------------------------------------------------------------- Spark


#: The JVM of a test's Spark: the client compiler only and the serial collector. Statements on
#: tables of a few rows are planning, not computing, and the optimising JIT compiler spent more
#: CPU than it saved (measured: 154 -> 97 JVM CPU seconds for three suite cases, 2 cores). A code
#: cache of 256 MB: the dbt build on Spark once died of "Out of space in CodeCache for adapters"
#: (VirtualMachineError) in a full run on a loaded machine (2026-12-05).
SPARK_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m"


class Spark:
    dialect = "spark"

    def __init__(self):
        starting("Spark")
        from pyspark.sql import SparkSession

        self.warehouse = tempfile.mkdtemp(prefix="ndcg_sql_spark_")
        self.session = (
            SparkSession.builder.master("local[1]")
            .appName("ndcg_sql-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1")
            # tiny tables: compiling generated code and re-planning cost more than they save
            .config("spark.sql.codegen.wholeStage", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.driver.memory", "1g")
            .config("spark.driver.extraJavaOptions", SPARK_JVM_OPTIONS)
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.warehouse.dir", self.warehouse)
            .getOrCreate()
        )
        self.session.sparkContext.setLogLevel("ERROR")
        self.loaded = 0

    def load(self, table: exp.Table, columns, rows):
        from pyspark.sql import types as T

        kinds = {"VARCHAR": T.StringType(), "BIGINT": T.LongType(), "DOUBLE": T.DoubleType()}
        types = column_types(rows, len(columns))
        schema = T.StructType([T.StructField(c, kinds[t]) for c, t in zip(columns, types)])
        typed = [tuple(float(v) if t == "DOUBLE" and v is not None else v for v, t in zip(row, types)) for row in rows]
        self.loaded += 1
        source = f"ndcg_sql_loaded_{self.loaded}"
        self.session.createDataFrame(typed, schema).createOrReplaceTempView(source)
        if table.args.get("db"):  # a table in a database of the local catalog (parquet files)
            database = exp.Table(db=table.args["db"].copy())
            self.session.sql(exp.Create(this=database, kind="DATABASE", exists=True).sql("spark"))
            self.session.sql(exp.Drop(tables=[table.copy()], kind="TABLE", exists=True).sql("spark"))
            self.session.sql(f"CREATE TABLE {table.sql('spark')} USING parquet AS SELECT * FROM {source}")
        else:
            name = exp.Table(this=table.this.copy())
            self.session.sql(f"CREATE OR REPLACE TEMPORARY VIEW {name.sql('spark')} AS SELECT * FROM {source}")

    def connection(self):
        return self.session

    def close(self):
        self.session.stop()
        shutil.rmtree(self.warehouse, ignore_errors=True)


# ---------------------------------------------------------------- BigQuery (ZetaSQL)


#: ZetaSQL type kinds as google.cloud.bigquery.dbapi names a result column's type (its
#: ``cursor.description`` type code: the result schema's field type)
BIGQUERY_TYPE_CODES = {"TYPE_INT64": "INTEGER", "TYPE_STRING": "STRING", "TYPE_DOUBLE": "FLOAT",
                       "TYPE_BOOL": "BOOLEAN", "TYPE_NUMERIC": "NUMERIC", "TYPE_BIGNUMERIC": "BIGNUMERIC",
                       "TYPE_DATE": "DATE", "TYPE_TIMESTAMP": "TIMESTAMP", "TYPE_BYTES": "BYTES",
                       "TYPE_STRUCT": "RECORD", "TYPE_JSON": "JSON"}


def _bigquery_type_code(column) -> str | None:
    kind = getattr(getattr(column, "type", None), "type_kind", None)
    name = getattr(kind, "name", None) or str(kind)
    return BIGQUERY_TYPE_CODES.get(name, name)


class _ZetaCursor:
    def __init__(self, engine):
        self.engine = engine
        self.description = None
        self.rows = []

    def execute(self, sql):
        self.description, self.rows = self.engine.query(sql)

    def fetchall(self):
        return self.rows

    def close(self):
        pass


class BigQuery:
    """GoogleSQL semantics from ZetaSQL's reference implementation (package ``zetasql``)."""

    dialect = "bigquery"

    def __init__(self):
        starting("BigQuery")
        from zetasql.api import CatalogBuilder, PreparedQuery, TableBuilder, create_table_content
        from zetasql.types import AnalyzerOptions, LanguageOptions, TypeKind, ZetaSQLBuiltinFunctionOptions

        self._api = (CatalogBuilder, PreparedQuery, TableBuilder, create_table_content, TypeKind)
        self.language = LanguageOptions.maximum_features()
        self.builtins = ZetaSQLBuiltinFunctionOptions(language_options=self.language)
        self.options = AnalyzerOptions(language_options=self.language)
        self.tables = {}

    def load(self, table: exp.Table, columns, rows):
        CatalogBuilder, PreparedQuery, TableBuilder, create_table_content, TypeKind = self._api
        kinds = {"VARCHAR": TypeKind.TYPE_STRING, "BIGINT": TypeKind.TYPE_INT64, "DOUBLE": TypeKind.TYPE_DOUBLE}
        builder = TableBuilder(table.name)
        for column, kind in zip(columns, column_types(rows, len(columns))):
            builder = builder.add_column(column, kinds[kind])
        typed = [[float(v) if kind == "DOUBLE" and v is not None else v for v, kind in zip(row, column_types(rows, len(columns)))] for row in rows]
        self.tables[table.name] = (builder.build(), create_table_content(typed))

    def query(self, sql):
        CatalogBuilder, PreparedQuery, TableBuilder, create_table_content, TypeKind = self._api
        catalog = CatalogBuilder("bigquery")
        for definition, _ in self.tables.values():
            catalog = catalog.add_table(definition)
        catalog = catalog.with_builtin_functions(self.builtins).build()
        content = {name: data for name, (_, data) in self.tables.items()}
        prepared = PreparedQuery.builder().set_sql(sql).set_analyzer_options(self.options).set_catalog(catalog)
        with prepared.set_table_content(content).prepare() as query:
            response = query.execute()
            names = [(column.name, _bigquery_type_code(column)) for column in query.columns]
        rows = []
        content = response.content
        table_data = content.table_data if content is not None else None
        for row in (table_data.row if table_data is not None and table_data.row else []):  # no rows: no content
            cells = []
            for cell in row.cell:
                for attribute in ("int64_value", "double_value", "string_value", "bool_value"):
                    value = getattr(cell, attribute)
                    if value is not None:
                        break
                cells.append(value)
            rows.append(tuple(cells))
        return names, rows

    def analyze(self, sql: str, path: list[str], tables: dict[str, list[tuple[str, str]]]) -> None:
        """Analysis only (no rows): resolve ``sql`` against tables nested in catalogs ``path``.

        ZetaSQL's local service executes queries only over tables of the root
        catalog, so qualified names (project.dataset.table) are checked here.
        """
        CatalogBuilder, PreparedQuery, TableBuilder, create_table_content, TypeKind = self._api
        from zetasql.api import Analyzer
        from zetasql.types import SimpleCatalog

        kinds = {"VARCHAR": TypeKind.TYPE_STRING, "BIGINT": TypeKind.TYPE_INT64, "DOUBLE": TypeKind.TYPE_DOUBLE}
        built = []
        for name, columns in tables.items():
            builder = TableBuilder(name)
            for column, kind in columns:
                builder = builder.add_column(column, kinds[kind])
            built.append(builder.build())
        inner = SimpleCatalog(name=path[-1], table=built)
        for name in reversed(path[:-1]):
            inner = SimpleCatalog(name=name, catalog=[inner])
        root = CatalogBuilder("bigquery").with_builtin_functions(self.builtins).build()
        root.catalog.append(inner)
        Analyzer(self.options, root).analyze_statement(sql)

    def connection(self):
        engine = self

        class Connection:
            def cursor(self):
                return _ZetaCursor(engine)

        return Connection()

    def close(self):
        pass


# ---------------------------------------------------------------- Snowflake (fakesnow)


def fakesnow_python() -> str:
    return os.environ.get("NDCG_SQL_FAKESNOW_PYTHON", str(ROOT / ".venv-snowflake" / "bin" / "python"))


@contextlib.contextmanager
def fakesnow_server() -> Iterator[dict]:
    """fakesnow's server, in fakesnow's environment (``fakesnow_server.py``) until the block ends;
    yields the keyword arguments of ``snowflake.connector.connect`` that ``fakesnow.server()`` gives."""
    python = fakesnow_python()
    if not os.path.exists(python):
        pytest.fail(
            f"no fakesnow environment at {python}: python3 -m venv .venv-snowflake && "
            ".venv-snowflake/bin/pip install '.[fakesnow]' (README's test command does it with uv)"
        )
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log:
        process = subprocess.Popen(
            [python, str(Path(__file__).parent / "fakesnow_server.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, encoding="utf-8",
        )
        try:
            line = process.stdout.readline()
            if not line:
                process.wait(timeout=30)
                log.seek(0)
                pytest.fail(f"fakesnow's server did not start: {log.read()[-2000:]}")
            yield json.loads(line)
        finally:
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def without_utf8_collation(sql: str) -> str:
    """The one change made to our SQL on fakesnow: it runs on DuckDB, which has no Snowflake 'utf8'
    collation, so ``COLLATE(x, 'utf8')`` (Snowflake's byte order) becomes ``x``, whose order in
    DuckDB already is byte order. The Snowflake SQL itself is reviewed in tests/golden/snowflake/."""
    if "COLLATE" not in sql.upper():
        return sql
    tree = sqlglot.parse_one(sql, read="snowflake")
    for node in list(tree.find_all(exp.Collate)):
        if isinstance(node.expression, exp.Literal) and node.expression.this.lower() == "utf8":
            node.replace(node.this)
    return tree.sql(dialect="snowflake")


class _FakesnowCursor:
    """A ``snowflake.connector`` cursor whose statements drop the 'utf8' collation first."""

    def __init__(self, cursor):
        self._cursor = cursor

    def execute(self, sql, *args, **kwargs):
        self._cursor.execute(without_utf8_collation(sql), *args, **kwargs)
        return self

    def __getattr__(self, name):
        return getattr(self._cursor, name)


class Snowflake:
    dialect = "snowflake"

    def __init__(self):
        import snowflake.connector

        starting("Snowflake")
        self.server = contextlib.ExitStack()
        arguments = self.server.enter_context(fakesnow_server())
        try:
            self.con = snowflake.connector.connect(**arguments, database="NDCG", schema="PUBLIC")
            for statement in ("CREATE DATABASE IF NOT EXISTS NDCG", "CREATE SCHEMA IF NOT EXISTS NDCG.PUBLIC",
                              "USE SCHEMA NDCG.PUBLIC"):
                self.con.cursor().execute(statement)
        except BaseException:
            self.server.close()
            raise

    def send(self, sql: str) -> None:
        self.con.cursor().execute(sql)

    def load(self, table: exp.Table, columns, rows):
        for part in ("catalog", "db"):
            if table.args.get(part):
                kind = "DATABASE" if part == "catalog" else "SCHEMA"
                target = exp.Table(db=table.args["catalog"].copy()) if part == "catalog" else exp.Table(
                    db=table.args["db"].copy(), catalog=table.args["catalog"].copy() if table.args.get("catalog") else None
                )
                self.send(exp.Create(this=target, kind=kind, exists=True).sql("snowflake"))
        self.send(exp.Drop(tables=[table.copy()], kind="TABLE", exists=True).sql("snowflake"))
        for statement in create_statements("snowflake", table, columns, rows):
            self.send(statement)

    def connection(self):
        con = self.con

        class Connection:
            def cursor(self):
                return _FakesnowCursor(con.cursor())

        return Connection()

    def close(self):
        try:
            self.con.close()
        finally:
            self.server.close()


ENGINES = {"postgres": Postgres, "redshift": Redshift, "spark": Spark, "bigquery": BigQuery, "snowflake": Snowflake}

_STARTED: dict[str, object] = {}


def shared(name: str):
    """The engine ``name``, started once per test process (each pytest-xdist worker) and closed
    at its end (tests/conftest.py): a Postgres cluster, a SparkSession, ZetaSQL (whose WebAssembly
    module takes about a minute of CPU to compile) and the fakesnow server start once, not once
    per test file. The tests of an engine run on one worker (tests/conftest.py groups them)."""
    if name not in _STARTED:
        _STARTED[name] = ENGINES[name]()
    return _STARTED[name]


def close_shared() -> None:
    """Stop every engine :func:`shared` started."""
    while _STARTED:
        _, instance = _STARTED.popitem()
        instance.close()
