"""Where the SQL runs, behind one small interface: an executor runs one DuckDB-source
statement and returns (column names, rows) (:meth:`Executor.fetch`); the steps of a plan
(:mod:`ndcg_sql.building.plan`) live where the executor keeps them.

* :class:`DuckDB`: a DuckDB connection; a step read more than once is kept in a temp table;
  each statement runs so that Ctrl-C interrupts it (:func:`ndcg_sql.data.connections.interruptible`).
* :class:`Warehouse`: a DB-API 2.0 connection (BigQuery's dbapi, snowflake.connector,
  psycopg, redshift_connector, ...) or a pyspark SparkSession, with its dialect; every
  step is a CTE of the one statement sent (nothing is written to the warehouse), and
  the statement is transpiled by sqlglot first.

The caller's transaction (:func:`own_work`): on an engine where a failed statement aborts the open
transaction (``aborts_transaction`` in :mod:`ndcg_sql.vocabulary.dialects`), the statements of one call run
inside a savepoint of their own where the engine has savepoints (Postgres), so that a failure
undoes only them; where it has none (Redshift, DuckDB), a call inside an open transaction is
refused (:class:`ndcg_sql.vocabulary.errors.OpenTransaction`) before any statement runs, and a transaction
the call itself began is ended when it returns.
"""

from __future__ import annotations

import secrets
from contextlib import contextmanager, nullcontext
from typing import Iterator, Literal, NamedTuple

import duckdb
import sqlglot
from sqlglot import exp

from ..vocabulary import activity, dialects, identifiers
from ..data.connections import DEFAULT_MEMORY_LIMIT, connect, drop, interruptible, set_threads  # noqa: F401 (the runners' names)
from ..building.id_types import ColumnType
from ..vocabulary.errors import OpenTransaction, OptionError, first_line
from ..data.inputs import new_view_name
from ..building import comparison_plan, templates
from ..building import plan as plans
from ..building.comparison_plan import Fetch, Program, Rows, Shared
from ..building.plan import Step
from ..building.sql_text import over_ctes, transpile


class Ran(NamedTuple):
    """What running a plan gave (:meth:`Executor.run_plan`), before it is named for the user."""
    summary_names: list[str]
    summary_rows: list[tuple]
    summary: duckdb.DuckDBPyRelation | None  # DuckDB: the stored summary, read as a relation
    per_query: duckdb.DuckDBPyRelation | tuple[list[str], list[tuple]] | None  # a relation, or fetched rows
    counts: dict[str, dict]  # each count of the plan (plans.Count) by name: {column: value}
    kept: list[tuple[str, str]]  # ("TABLE"/"VIEW", name) of the temp objects the result reads


class Done(NamedTuple):
    """What running a program gave (:meth:`DuckDB.run_program`)."""
    rows: dict[str, list[dict]]  # each fetch's rows (comparison_plan.Fetch) by its name, as records
    kept: list[tuple[str, str]]  # ("TABLE"/"VIEW", name) of the temp objects the result reads (Program.kept)
    made: list[tuple[str, str]]  # those only the work reads: for the caller to drop once it is done


class Executor:
    """Runs DuckDB-source SQL somewhere (see the module docstring)."""

    dialect: dialects.Dialect

    def fetch(self, sql: str | exp.Expr) -> tuple[list[str], list[tuple]]:
        raise NotImplementedError

    def named(self, step: str) -> str:
        """The relation a step of a plan is read by here (:func:`ndcg_sql.building.plan.build`'s
        ``named``): a CTE's name, the step's own."""
        return step

    def run_plan(self, computation: plans.Plan, per_query: bool = True) -> Ran:
        """Run ``computation``: its steps, summary, guard and counts (see the subclasses for where
        each lives). ``per_query``: fetch the per-query rows too (DuckDB gives a relation always).

        Raises:
            StatementFailed: a warehouse's statement failed (the connection recovered).
            OptionError: the plan's guard refused (DuckDB).
        """
        raise NotImplementedError

    def run_checks(self, checking: plans.CheckPlan) -> dict[str, tuple[list[str], list[tuple]]]:
        """Run the input checks' statements of ``checking``, each in turn (on every executor the
        same: each is one statement, nothing of it stored): their (column names, rows) by name.

        Raises:
            StatementFailed: a warehouse's statement failed (the connection recovered).
        """
        return {read.name: self.fetch(read.sql) for read in checking.reads}

    @staticmethod
    def _folded(fetch: Fetch, held: dict[str, list[tuple[str, str | exp.Expr]]]) -> str | exp.Expr:
        """A fetch's statement: its SQL, after the CTEs of the shared relations it reads (``held``:
        their CTEs by name) and its own (:class:`ndcg_sql.building.comparison_plan.Fetch`)."""
        parts = [*(cte for name in fetch.reads for cte in held[name]), *fetch.ctes]
        return over_ctes(parts, fetch.sql) if parts else fetch.sql

    def _counted(self, computation: plans.Plan) -> dict[str, dict]:
        """The plan's counts, each fetched by a statement of its own."""
        found = {}
        for count in computation.counts:
            names, rows = self.fetch(count.sql)
            found[count.name] = dict(zip((str(n).lower() for n in names), rows[0]))
        return found


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
        no table or view of the connection has (:func:`ndcg_sql.building.plan.build`'s ``named``)."""
        return identifiers.quote(new_view_name(step, self.con))

    def run_plan(self, computation: plans.Plan, per_query: bool = True) -> Ran:
        """Each step a temp table (kept) or view, the guard checked, the summary a temp table,
        then each count by a statement of its own; the per-query rows a relation (of the kept
        table, or of the plan's per-query statement, computed when read). Every temp object is
        dropped on a failure, and those the result does not read before returning.

        Raises:
            OptionError: the guard's draws are more than its most.
        """
        key = self.con
        created: list[tuple[str, str]] = []
        values = computation.values
        try:
            with activity.doing(key, f"{values} and their means" if computation.bootstrap else values):
                for step in computation.steps:
                    created.append(self.store(step))
            if computation.guard is not None:
                _check_guard(computation.guard, int(self.fetch(computation.guard.sql)[1][0][0]))
            final = (f"bootstrap interval, {computation.bootstrap} resamples of the queries" if computation.bootstrap
                     else "means" if computation.keeps_per_query else f"{values} and means")
            with activity.doing(key, final):
                created.append(self.store(Step(self.named("summary"), computation.summary, keep=True)))
                summary = self.con.table(created[-1][1])
                summary_rows = summary.fetchall()
            if computation.keeps_per_query:
                rows = self.relation(f"SELECT * FROM {computation.per_query} ORDER BY {computation.order}")
            else:
                rows = self.relation(transpile(computation.per_query_statement, self.dialect))
            counts = {}
            if computation.counts:
                with activity.doing(key, "query counts"):
                    counts = self._counted(computation)
        except BaseException:
            drop(self.con, list(reversed(created)))
            raise
        # what the result reads: the summary (the last step) and, where kept, the per-query rows (the first)
        read = {created[-1][1]} | ({created[0][1]} if computation.keeps_per_query else set())
        drop(self.con, [(kind, name) for kind, name in reversed(created) if name not in read])
        return Ran(list(summary.columns), summary_rows, summary, rows, counts,
                   [(kind, name) for kind, name in created if name in read])

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

    def fill(self, rows: Rows) -> tuple[str, str]:
        """Create the empty table of ``rows`` and put its rows in, their values bound as parameters
        (one statement run per row, or one for all of them: :class:`ndcg_sql.building.comparison_plan.Rows`).
        The table is dropped when putting the rows in fails.

        Returns:
            ("TABLE", its name): for whoever drops it.
        """
        interruptible(self.con, lambda: self.con.execute(rows.create))
        created = ("TABLE", sqlglot.parse_one(rows.name, into=exp.Table, read="duckdb").name)
        insert = rows.insert
        if insert is None:
            return created
        try:
            if rows.by_row:
                interruptible(self.con, lambda: self.con.executemany(insert, [list(row) for row in rows.parameters]))
            else:
                interruptible(self.con, lambda: self.con.execute(insert, list(rows.parameters)))
        except BaseException:
            drop(self.con, [created])
            raise
        return created

    def run_program(self, program: Program) -> Done:
        """Run ``program``'s items in order: a step stored (:meth:`store`), a table of rows filled
        (:meth:`fill`), a query's rows fetched as records (its progress line shown while it runs;
        a shared relation's CTEs folded into the statements that read it).
        Every temp object it created is dropped on a failure; on success the caller has them
        (:class:`Done`: those the result reads, and those to drop once the work is done)."""
        rows: dict[str, list[dict]] = {}
        created: list[tuple[str, str, bool]] = []  # (kind, name, the result reads it)
        held: dict[str, list[tuple[str, str | exp.Expr]]] = {}  # shared relations: CTEs of the fetches reading them
        try:
            for item in program.items:
                if isinstance(item, Shared):
                    held[item.name] = list(item.ctes)
                elif isinstance(item, Fetch):
                    with activity.doing(self.con, item.doing) if item.doing else nullcontext():
                        names, fetched = self.fetch(self._folded(item, held))
                    rows[item.name] = [dict(zip(names, row)) for row in fetched]
                else:
                    kind, name = self.fill(item) if isinstance(item, Rows) else self.store(item)
                    created.append((kind, name, item.name in program.kept))
        except BaseException:
            drop(self.con, [(kind, name) for kind, name, _ in reversed(created)])
            raise
        return Done(rows, [(kind, name) for kind, name, kept in created if kept],
                    [(kind, name) for kind, name, kept in created if not kept])

    def table(self, name: str) -> duckdb.DuckDBPyRelation:
        """A relation of the temp table or view ``name`` (quoted or not), read when it is read."""
        return self.con.table(sqlglot.parse_one(name, into=exp.Table, read="duckdb").name)

    def column_types(self, relation: str | duckdb.DuckDBPyRelation) -> dict[str, str]:
        """{column: DuckDB type} of a relation, or of the table or view named ``relation`` (no row read)."""
        found = self.table(relation) if isinstance(relation, str) else relation
        return dict(zip(found.columns, map(str, found.types)))

    def relation(self, sql) -> duckdb.DuckDBPyRelation:
        """A lazy relation of a statement (computed each time it is read)."""
        return self.con.sql(sql if isinstance(sql, str) else sql.sql(dialect="duckdb"))


def _check_guard(guard: plans.Guard, rows: int) -> None:
    """Raise OptionError when the bootstrap's draws (each a group of its replicates, sql/bootstrap_intervals.sql.j2),
    ``guard.replicates`` x the per-query ``rows``, are more than ``guard.most``."""
    replicates, most = guard.replicates, guard.most
    if replicates * rows > most:
        raise OptionError(
            f"bootstrap={replicates} (--bootstrap) resamples of {rows:,} per-query values is {replicates * rows:,} "
            f"draws, more than max_bootstrap_draws={most:,} (each draw is a row DuckDB groups, spilled to temp "
            "files past the memory limit): lower bootstrap, ask fewer cutoffs (k, --k) or measures, use "
            "intervals=True (--intervals; no resampling), or raise max_bootstrap_draws (--max-bootstrap-draws)")


TransactionState = Literal["idle", "open", "aborted"]
#: libpq's PQtransactionStatus codes (psycopg 3's ``info.transaction_status``, psycopg2's too):
#: IDLE, ACTIVE (a command running), INTRANS, INERROR; UNKNOWN (a bad connection) is not known.
_LIBPQ_STATES: dict[int, TransactionState] = {0: "idle", 1: "open", 2: "open", 3: "aborted"}


def transaction_state(con) -> TransactionState | None:
    """Whether a caller's connection is in a transaction, read without changing it: "idle" (no
    transaction), "open" (statements run since the last commit or rollback), "aborted" (a
    failed statement aborted it), or None when the driver does not tell.

    * DuckDB: the transaction id of two statements (``txid_current()``), the same only inside a
      transaction (each statement outside one is its own); an aborted one refuses the first.
    * psycopg 3 and psycopg2: ``con.info.transaction_status`` (libpq's).
    * redshift_connector (and pg8000): ``con.in_transaction``.
    """
    if isinstance(con, duckdb.DuckDBPyConnection):
        try:
            first, second = (con.execute("SELECT txid_current()").fetchall() for _ in range(2))
        except duckdb.TransactionException:
            return "aborted"
        return "open" if first == second else "idle"
    status = getattr(getattr(con, "info", None), "transaction_status", None)
    if status is not None:
        try:
            return _LIBPQ_STATES.get(int(status))
        except (TypeError, ValueError):
            return None
    flag = getattr(con, "in_transaction", None)
    if isinstance(flag, bool):
        return "open" if flag else "idle"
    return None


def refuse_open_transaction(dialect: dialects.Dialect, state: TransactionState | None) -> None:
    """Raise :class:`OpenTransaction` where a call's statements on a caller's connection could
    discard the caller's uncommitted work: the transaction is aborted already (any engine), or
    it is open, or not known to be closed, on an engine whose failed statement aborts it and
    that has no savepoint (``dialects``: Redshift, DuckDB)."""
    if state == "aborted":
        raise OpenTransaction(
            f"the connection's transaction is aborted (a statement failed in it earlier), so {dialect.name} "
            "refuses every statement: roll it back (con.rollback() or ROLLBACK) before calling ndcg_sql")
    if dialect.aborts_transaction and not dialect.savepoints and state != "idle":
        seen = "has an open transaction" if state == "open" else "may have an open transaction (its driver does not say)"
        raise OpenTransaction(
            f"the connection {seen}: on {dialect.name} a failed statement aborts the whole transaction and "
            f"{dialect.name} has no savepoint to confine a failure to ndcg_sql's own statements, so running "
            "here could discard your uncommitted work. Commit or roll back first (or use a connection in "
            "autocommit mode); nothing was run")


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
        self._savepoint: str | None = None

    @contextmanager
    def own_work(self) -> Iterator[None]:
        """Run the body's statements as the package's own work in the caller's transaction
        (``aborts_transaction`` and ``savepoints`` in :mod:`ndcg_sql.vocabulary.dialects`):

        * an engine where a failure aborts nothing (Snowflake, BigQuery, Spark), or a connection
          in autocommit mode: as they come;
        * no transaction open (the driver says so): the one the driver begins for our statements
          is ours, rolled back on a failure and ended (rolled back: nothing was written) at the end;
        * a transaction open, on an engine with savepoints (Postgres): inside ``SAVEPOINT``; a
          failed statement rolls back to it (:meth:`recover`), so the caller's earlier work
          stays, and it is released at the end, the caller's transaction going on;
        * a transaction open, or not known to be closed, where there is no savepoint (Redshift),
          or one aborted already: :class:`OpenTransaction` before anything runs.
        """
        if not self.dialect.aborts_transaction or is_spark(self.con) or getattr(self.con, "autocommit", None) is True:
            yield
            return
        state = transaction_state(self.con)
        refuse_open_transaction(self.dialect, state)
        if state == "idle":
            with self._undone(lambda failed: self._end_own()):  # nothing of the caller's in it
                yield
            return
        name = "ndcg_sql_" + secrets.token_hex(8)  # a savepoint of its own: no name of the caller's is touched
        try:
            self._send(f"SAVEPOINT {name}")
        except Exception:  # no transaction block after all (autocommit the driver did not report)
            yield
            return
        self._savepoint = name

        def release(failed: bool) -> None:
            self._savepoint = None
            if failed:
                self._send(f"ROLLBACK TO SAVEPOINT {name}")
            self._send(f"RELEASE SAVEPOINT {name}")

        with self._undone(release):
            yield

    @staticmethod
    @contextmanager
    def _undone(end) -> Iterator[None]:
        """Call ``end(failed)`` after the body; when the body failed, a failure of ``end`` (a lost
        connection) does not hide the body's."""
        try:
            yield
        except BaseException:
            try:
                end(True)
            except Exception:
                pass
            raise
        end(False)

    def _send(self, statement: str) -> None:
        cursor = self.con.cursor()
        try:
            cursor.execute(statement)
        finally:
            cursor.close()

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

    def run_plan(self, computation: plans.Plan, per_query: bool = True) -> Ran:
        """The plan folded into one statement (:func:`ndcg_sql.building.plan.one_statement`): its
        steps as CTEs, the counts beside the summary and, with ``per_query``, the per-query rows
        after it. The guard has no place in one statement and is not run. Where the summary has no
        row (with segments, nothing evaluated) the counts are fetched apart.

        Raises:
            StatementFailed: the statement failed (the connection has recovered).
        """
        statement, count_names, summary_names, per_query_names = plans.one_statement(computation, per_query)
        checked = "checking the input, " if any(c.name == plans.INPUT_CHECKS for c in computation.counts) else ""
        final = (f"bootstrap interval, {computation.bootstrap} resamples of the queries" if computation.bootstrap
                 else f"{computation.values} and means")
        with activity.doing(getattr(self, "con", None), checked + final + (", fetching the per-query rows" if per_query else "")):
            names, rows = self.fetch(statement)
        fetched = None
        if per_query_names is not None and summary_names is not None:
            # row_part 0: summary rows, 1: per-query rows (plan.with_per_query_rows)
            parts: dict[int, list[tuple]] = {0: [], 1: []}
            for row in rows:
                parts[int(row[0])].append(row[1:])
            names, rows = summary_names, [row[:len(summary_names)] for row in parts[0]]
            fetched = (per_query_names, [row[len(row) - len(per_query_names):] for row in parts[1]])
        width = len(count_names)
        if rows:
            values = dict(zip(count_names, rows[0][:width]))
            counts = {count.name: {column: values[column] for column in count.columns} for count in computation.counts}
        else:
            with activity.doing(getattr(self, "con", None), "query counts"):
                counts = self._counted(computation)
        return Ran(list(names[width:]), [row[width:] for row in rows], None, fetched, counts, [])

    def run_program(self, program: Program) -> Done:
        """Run a comparison's ``program`` (:func:`ndcg_sql.building.comparison_plan.warehouse_comparison`), the
        caller's transaction kept (:meth:`own_work`): each fetch one statement, the CTEs of the
        shared relations it reads folded into it; on a SparkSession each shared relation is first
        computed once and kept in the session (:meth:`kept`), the statements reading it there, and
        dropped from the session at the end. Nothing is written to the warehouse: a step or rows
        to store are refused.

        Raises:
            StatementFailed: a statement failed (the connection has recovered).
            ValueError: the program stores something.
        """
        rows: dict[str, list[dict]] = {}
        held: dict[str, list[tuple[str, str | exp.Expr]]] = {}
        kept: list[str] = []
        with self.own_work():
            try:
                for item in program.items:
                    if isinstance(item, Shared):
                        name = self.kept(over_ctes(list(item.ctes), templates.render("whole_relation.sql.j2",
                                                                                     relation=item.name)))
                        if name is None:
                            held[item.name] = list(item.ctes)
                        else:
                            kept.append(name)
                            held[item.name] = [(item.name, templates.render("whole_relation.sql.j2",
                                                                            relation=identifiers.quote(name)))]
                    elif isinstance(item, Fetch):
                        with activity.doing(self.con, item.doing) if item.doing else nullcontext():
                            names, fetched = self.fetch(self._folded(item, held))
                        rows[item.name] = [dict(zip(names, row)) for row in fetched]
                    else:
                        raise ValueError(f"a warehouse stores nothing: {type(item).__name__} {item.name}")
            finally:
                for name in kept:
                    self.forget(name)
        return Done(rows, [], [])

    def kept(self, sql) -> str | None:
        """On a SparkSession, the rows of ``sql`` computed now and kept in the session (a local
        checkpoint: in the executors' memory and disk, never in the catalog's storage) as a temp
        view, so that later statements read them as a table: Spark plans a CTE again at every
        place it is read, and a comparison reads each run's per-query values at many places (its
        analyzer ran out of a 1g heap on two runs' CTEs under the paired tests). Returns the view's
        name (drop it with :meth:`forget`); on any other engine None: a statement holds such rows
        as CTEs."""
        if not is_spark(self.con):
            return None
        name = "ndcg_sql_kept_" + secrets.token_hex(8)  # no name of the caller's is touched
        text = transpile(sql, self.dialect)
        with self._sending():
            self.con.sql(text).localCheckpoint().createOrReplaceTempView(name)
        return name

    def forget(self, name: str) -> None:
        """Drop a temp view of :meth:`kept` (no statement: the session's catalog)."""
        with self._sending():
            self.con.catalog.dropTempView(name)

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
        """After a failed statement, where a failure aborts the transaction (``aborts_transaction``
        in :mod:`ndcg_sql.vocabulary.dialects`), so that more statements can run: roll back to the savepoint of
        :meth:`own_work`, undoing only the package's statements; without one, roll back the
        transaction, which :meth:`own_work` made sure is the package's own (or autocommit's)."""
        if not self.dialect.aborts_transaction or is_spark(self.con):
            return
        if self._savepoint is not None:
            self._send(f"ROLLBACK TO SAVEPOINT {self._savepoint}")
        else:
            self._end_own()

    def _end_own(self) -> None:
        """Roll back the transaction the package's statements began, if one is open (psycopg and
        redshift_connector outside autocommit begin one at the first statement; DuckDB's driver
        does not)."""
        if transaction_state(self.con) != "idle" and callable(getattr(self.con, "rollback", None)):
            self.con.rollback()
