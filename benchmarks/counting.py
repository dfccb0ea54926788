"""Connections that count what evaluate(con=...) sends: the statements, and how many times
their text names the input tables (each a scan of the table, unless the engine shares it).
A table is counted where sqlglot, reading the statement in the engine's dialect, finds a
table of that name (case-insensitive: engines fold names)."""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from ndcg_sql.vocabulary import dialects


def table_references(sql: str, dialect: str, tables) -> int:
    names = {str(table).lower() for table in tables}
    tree = sqlglot.parse_one(sql, read=dialects.get(dialect).sqlglot)
    return sum(1 for table in tree.find_all(exp.Table) if table.name.lower() in names)


class Tally:
    def __init__(self, dialect: str, tables):
        self.dialect, self.tables = dialect, list(tables)
        self.statements = self.references = 0
        self.texts: list[str] = []
        self.fetched: list[int] = []  # the rows each statement sent back (DB-API: as fetched)

    def count(self, sql: str) -> None:
        self.statements += 1
        self.references += table_references(sql, self.dialect, self.tables)
        self.texts.append(sql)
        self.fetched.append(0)

    @property
    def counts(self) -> tuple[int, int]:
        return self.statements, self.references


class CountedConnection(Tally):
    """A DB-API connection (``cursor()``; ``rollback()`` passed on when it has one)."""

    def __init__(self, connection, dialect: str, tables):
        super().__init__(dialect, tables)
        self.connection = connection
        if callable(getattr(connection, "rollback", None)):
            self.rollback = connection.rollback

    def __getattr__(self, name):
        """The driver's other attributes (autocommit, its transaction status) as they are."""
        return getattr(self.connection, name)

    @property
    def in_transaction(self) -> bool:
        """Whether the wrapped connection is in a transaction, as a DB-API driver of DuckDB would
        tell it (read on the wrapped connection: not a statement of the package's)."""
        from ndcg_sql.running.executors import transaction_state

        state = transaction_state(self.connection)
        if state is None:
            raise AttributeError("in_transaction")
        return state != "idle"

    def cursor(self):
        tally, cursor = self, self.connection.cursor()

        class Cursor:
            def execute(self, sql):
                tally.count(sql)
                return cursor.execute(sql)

            def fetchall(self):
                rows = cursor.fetchall()
                tally.fetched[-1] += len(rows)
                return rows

            def __getattr__(self, name):
                return getattr(cursor, name)

        return Cursor()


class CountedSession(Tally):
    """A SparkSession (``sql()``, and ``table()`` for a schema)."""

    def __init__(self, session, tables):
        super().__init__("spark", tables)
        self.session = session
        self.sparkContext = session.sparkContext
        self.frames: list = []  # the DataFrame of each statement (its plans, once run, are kept)

    def sql(self, text):
        self.count(text)
        frame = self.session.sql(text)
        self.frames.append(frame)
        return _CountedFrame(frame, self)

    def table(self, name):
        """A table's DataFrame, for its schema (no statement: not counted)."""
        return self.session.table(name)

    @property
    def catalog(self):
        """The session's catalog (its temp views dropped: no statement, not counted)."""
        return self.session.catalog


def counted(connection, dialect: str, tables):
    """``connection`` (DB-API or SparkSession) counting what it is sent."""
    if hasattr(connection, "sparkContext"):
        return CountedSession(connection, tables)
    return CountedConnection(connection, dialect, tables)


class _CountedFrame:
    """A statement's DataFrame whose ``collect()`` counts the rows it sends back to the driver."""

    def __init__(self, frame, tally: Tally):
        self._frame, self._tally, self._index = frame, tally, len(tally.fetched) - 1

    def collect(self):
        rows = self._frame.collect()
        self._tally.fetched[self._index] += len(rows)
        return rows

    def __getattr__(self, name):
        return getattr(self._frame, name)
