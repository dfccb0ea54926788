"""Where the SQL runs, behind one small interface: an executor runs one DuckDB-source
statement and returns (column names, rows) (:meth:`Executor.fetch`); the steps of a plan
(:mod:`ndcg_sql.plan`) live where the executor keeps them.

* :class:`DuckDB`: a DuckDB connection; a step read more than once is kept in a temp table;
  each statement runs so that Ctrl-C interrupts it (:func:`ndcg_sql.connections.interruptible`).
* :class:`Warehouse`: a DB-API 2.0 connection (BigQuery's dbapi, snowflake.connector,
  psycopg, redshift_connector, ...) or a pyspark SparkSession, with its dialect; every
  step is a CTE of the one statement sent (nothing is written to the warehouse), and
  the statement is transpiled by sqlglot first.
"""

from __future__ import annotations

from contextlib import contextmanager

import duckdb
import sqlglot
from sqlglot import exp

from . import dialects, identifiers
from .connections import DEFAULT_MEMORY_LIMIT, connect, interruptible, set_threads  # noqa: F401 (the runners' names)
from .id_types import ColumnType
from .errors import OptionError, first_line
from .inputs import new_view_name
from .plan import Step
from .sql_text import transpile


class Executor:
    """Runs DuckDB-source SQL somewhere (see the module docstring)."""

    dialect: dialects.Dialect

    def fetch(self, sql: str | exp.Expr) -> tuple[list[str], list[tuple]]:
        raise NotImplementedError


class DuckDB(Executor):
    """A DuckDB connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self.dialect = dialects.get("duckdb")

    def fetch(self, sql):
        text = sql if isinstance(sql, str) else sql.sql(dialect="duckdb")

        def run():
            cursor = self.con.execute(text)
            return [d[0] for d in cursor.description], cursor.fetchall()

        return interruptible(self.con, run)

    def named(self, step: str) -> str:
        """The relation a step of a plan is read by here: a fresh temp object's name, quoted, that
        no table or view of the connection has (:func:`ndcg_sql.plan.build`'s ``named``)."""
        return identifiers.quote(new_view_name(step, self.con))

    def store(self, step: Step) -> tuple[str, str]:
        """Create ``step`` (named by :meth:`named`): a temp table when it is kept, else a temp view
        (inlined where read, as a CTE would be). The template's text runs as rendered: nothing is
        parsed or rewritten on the DuckDB path.

        Returns:
            ("TABLE" or "VIEW", its name): for whoever drops it.
        """
        kind = "TABLE" if step.keep else "VIEW"
        statement = f"CREATE TEMP {kind} {step.name} AS {step.sql}"
        interruptible(self.con, lambda: self.con.execute(statement))
        return kind, sqlglot.parse_one(step.name, into=exp.Table, read="duckdb").name

    def relation(self, sql) -> duckdb.DuckDBPyRelation:
        """A lazy relation of a statement (computed each time it is read)."""
        return self.con.sql(sql if isinstance(sql, str) else sql.sql(dialect="duckdb"))


def is_spark(con) -> bool:
    """True for a pyspark SparkSession (duck-typed: no pyspark import needed)."""
    return callable(getattr(con, "sql", None)) and hasattr(con, "sparkContext")


class StatementFailed(Exception):
    """A statement (or a schema lookup) the package sent to a warehouse failed; the engine's own
    exception is the ``__cause__``, and the connection has recovered (:meth:`Warehouse.recover`).
    The warehouse runner words it for the user (never shown raw)."""


class Warehouse(Executor):
    """A DB-API 2.0 connection or a SparkSession, with the engine's dialect. Every failure of
    what it sends raises :class:`StatementFailed`, after the connection has recovered."""

    def __init__(self, con, dialect: str | None = None):
        if dialect is None:
            if not is_spark(con):
                raise OptionError("give dialect= for a DB-API connection (bigquery, snowflake, postgres, redshift, ...)")
            dialect = "spark"
        self.con = con
        self.dialect = dialects.get(dialect)

    @contextmanager
    def _sending(self):
        """Any failure within: the connection recovered, then :class:`StatementFailed`."""
        try:
            yield
        except Exception as error:
            try:
                self.recover()
            except Exception:  # a connection that cannot even roll back is lost anyway
                pass
            raise StatementFailed(first_line(error)) from error

    def fetch(self, sql):
        text = transpile(sql, self.dialect)
        with self._sending():
            if is_spark(self.con):
                frame = self.con.sql(text)
                return list(frame.columns), [tuple(row) for row in frame.collect()]
            cursor = self.con.cursor()
            try:
                cursor.execute(text)
                rows = [tuple(row) for row in cursor.fetchall()]
                return [d[0] for d in cursor.description], rows
            finally:
                cursor.close()

    @property
    def reads_schemas(self) -> bool:
        """Whether :meth:`table_columns` sends no statement (a SparkSession's catalog)."""
        return is_spark(self.con)

    def table_columns(self, relation: str) -> tuple[list[str], list[ColumnType]]:
        """The names and types of a table's columns (``relation``: its name as the DuckDB source
        quotes it): a SparkSession's schema of the table (analysis only, and no statement whose
        failed analysis pyspark logs with its whole plan), else a statement reading no row."""
        if not self.reads_schemas:
            return self.column_types(f"SELECT * FROM {relation} WHERE 1 = 0")
        name = sqlglot.parse_one(relation, into=exp.Table, read="duckdb").sql(dialect=self.dialect.sqlglot)
        with self._sending():
            fields = self.con.table(name).schema.fields
        return [f.name for f in fields], [ColumnType(f.dataType.typeName(), getattr(f.dataType, "scale", None),
                                                     f.dataType.simpleString()) for f in fields]

    def column_types(self, sql) -> tuple[list[str], list[ColumnType]]:
        """The names and types of a statement's columns, from a DB-API driver's result metadata
        (``cursor.description``: type code and scale), with its rows fetched and dropped: the
        statement should read none (``WHERE 1 = 0``). A SparkSession's come from
        :meth:`table_columns`."""
        text = transpile(sql, self.dialect)
        with self._sending():
            cursor = self.con.cursor()
            try:
                cursor.execute(text)
                cursor.fetchall()
                # psycopg 3 names a column's type as Postgres does ("int4[]"), for messages
                shown = [getattr(d, "type_display", None) for d in cursor.description]
                described = [tuple(d) for d in cursor.description]
            finally:
                cursor.close()
        # a type code of the driver's own class (DuckDB's type objects) is read by its text
        codes = [d[1] if len(d) > 1 and isinstance(d[1], (int, str, type(None))) else str(d[1]) for d in described]
        return [d[0] for d in described], [ColumnType(code, d[5] if len(d) > 5 else None, text)
                                           for code, d, text in zip(codes, described, shown)]

    def recover(self) -> None:
        """After a failed statement: roll back the transaction it aborted, where a failure aborts
        it (``aborts_transaction`` in :mod:`ndcg_sql.dialects`), so that more statements can run."""
        if self.dialect.aborts_transaction and not is_spark(self.con) and callable(getattr(self.con, "rollback", None)):
            self.con.rollback()
