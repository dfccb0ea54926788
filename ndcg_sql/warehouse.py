"""Running the metric SQL on a user's own warehouse connection.

The whole computation runs in the warehouse; only the summary (one row per k),
the query counts and, when asked, the per-query rows come back. A connection is
either a DB-API 2.0 connection (BigQuery's ``google.cloud.bigquery.dbapi``,
``snowflake.connector``, ``psycopg``/``psycopg2``, ``redshift_connector``, ...)
or a ``pyspark.sql.SparkSession`` (Spark, Databricks); the caller names its
dialect (a SparkSession defaults to "spark").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Sequence

from . import dialects, sql_text, templates, validation
from .evaluate import validate
from .options import DEFAULT_CUTOFFS, OptionError

#: Column names of the rows fetched, in the order the SQL returns them.
SUMMARY_COLUMNS = ("k", "ndcg", "queries", "no_relevant")
PER_QUERY_VALUES = ("k", "cg", "dcg", "idcg", "ndcg")


def is_spark(con) -> bool:
    """True for a pyspark SparkSession (duck-typed: no pyspark import needed)."""
    return callable(getattr(con, "sql", None)) and hasattr(con, "sparkContext")


def fetcher(con, dialect: str):
    """A function that runs DuckDB-source SQL on ``con`` in ``dialect`` and returns (names, rows)."""
    target = dialects.get(dialect)

    def fetch(sql) -> tuple[list[str], list[tuple]]:
        text = sql_text.transpile(sql, target)
        if is_spark(con):
            frame = con.sql(text)
            return list(frame.columns), [tuple(row) for row in frame.collect()]
        cursor = con.cursor()
        try:
            cursor.execute(text)
            rows = [tuple(row) for row in cursor.fetchall()]
            return [d[0] for d in cursor.description], rows
        finally:
            cursor.close()

    return fetch


def _plain(value):
    """Warehouse numbers as Python numbers: NUMBER/NUMERIC (Decimal) to int or float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


@dataclass
class WarehouseResult:
    """The outcome of :func:`evaluate` on a warehouse connection.

    Attributes:
        summary: one dict per k: k (None for the whole list), ndcg (mean),
            queries (counted in the mean), no_relevant (queries with IDCG@k = 0).
        per_query: one dict per (query, k): the query id under the user's
            query column name, k, cg, dcg, idcg, ndcg; None unless asked for.
        options, coverage: as :class:`ndcg_sql.Result`.
        sql: the per-query SQL in the warehouse's dialect.
    """

    summary: list[dict]
    per_query: list[dict] | None
    options: dict
    coverage: dict
    dialect: str
    sql: str = field(repr=False, default="")

    def summary_records(self) -> list[dict]:
        """Summary rows as plain dicts."""
        return self.summary

    def per_query_records(self) -> list[dict]:
        """Per-query rows as plain dicts (ask with ``per_query=True``)."""
        if self.per_query is None:
            raise ValueError("per-query rows were not fetched: call evaluate(..., per_query=True)")
        return self.per_query

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas)."""
        import pandas

        return pandas.DataFrame(self.summary, columns=list(SUMMARY_COLUMNS))

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas)."""
        import pandas

        return pandas.DataFrame(self.per_query_records())

    def to_dict(self, per_query: bool = False) -> dict:
        """{"options", "coverage", "summary"[, "per_query"]} with full-precision floats."""
        out = {"options": self.options, "coverage": self.coverage, "summary": self.summary}
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


def evaluate(
    con,
    table: str | Sequence[str],
    *,
    dialect: str | None = None,
    judgments: str | Sequence[str] | None = None,
    k=DEFAULT_CUTOFFS,
    query_col: str = "query_id",
    item_col: str = "item_id",
    score_col: str | None = None,
    rank_col: str | None = None,
    label_col: str = "label",
    gain="exponential",
    ties: str = "average",
    no_relevant: str = "zero",
    missing_queries: str = "ignore",
    item_type: str | None = None,
    per_query: bool = False,
    check: bool = True,
) -> WarehouseResult:
    """NDCG@k of a warehouse table, computed by the warehouse on ``con``.

    Same numbers and conventions as :func:`ndcg_sql.evaluate` (formulas and
    sources there); the SQL is the DuckDB source transpiled by sqlglot
    (:func:`ndcg_sql.sql_text.to_sql`).

    Args:
        con: a DB-API 2.0 connection or a pyspark SparkSession.
        table: the ranking table: "table", "schema.table",
            "db.schema.table" / "project.dataset.table", or a sequence of parts.
        dialect: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb"; default "spark" for a SparkSession, required otherwise.
        judgments: optional judgments table name, with the same column names.
        item_type: "text" or "number"; default: from one fetched item id.
        per_query: also fetch the per-query rows (one more statement).
        check: run the portable input checks first
            (:func:`ndcg_sql.validation.checks_for` with ``portable=True``).
        Other arguments: as :func:`ndcg_sql.evaluate`.

    Returns:
        :class:`WarehouseResult` (summary, coverage, per-query rows if asked).

    Raises:
        OptionError: invalid options or dialect. InputError: a failed input
        check (column and a few query ids named). The driver's own errors
        (a missing table or column, a non-numeric column) pass through.
    """
    if dialect is None:
        if not is_spark(con):
            raise OptionError("give dialect= for a DB-API connection (bigquery, snowflake, postgres, redshift, ...)")
        dialect = "spark"
    arguments = dict(
        judgments_table=judgments, k=k, query_col=query_col, item_col=item_col, score_col=score_col,
        rank_col=rank_col, label_col=label_col, gain=gain, ties=ties, no_relevant=no_relevant,
        missing_queries=missing_queries, dialect=dialect,
    )
    p = sql_text.plan(table, **arguments, item_type=item_type or "text")
    fetch = fetcher(con, dialect)
    if check:
        checks = validation.checks_for(p.options, p.columns.roles(), portable=True)
        validate(fetch, p.context, checks, query_col)
    if item_type is None and p.options.ties != "average":
        probe = templates.render("item_probe.sql.j2", **p.context)
        _, rows = fetch(probe)
        item_type = "text" if rows and isinstance(rows[0][0], str) else "number"
        p = sql_text.plan(table, **arguments, item_type=item_type)
    _, rows = fetch(sql_text.render(p, "summary"))
    summary = [dict(zip(SUMMARY_COLUMNS, map(_plain, row))) for row in rows]
    names, rows = fetch(sql_text.render(p, "coverage"))
    coverage = {name.lower(): _plain(value) for name, value in zip(names, rows[0]) if value is not None}
    records = None
    if per_query:
        _, rows = fetch(sql_text.render(p, "per_query"))
        records = [dict(zip((query_col, *PER_QUERY_VALUES), map(_plain, row))) for row in rows]
    return WarehouseResult(
        summary=summary,
        per_query=records,
        options=p.options.report(),
        coverage=coverage,
        dialect=p.dialect.name,
        sql=sql_text.transpile(sql_text.render(p, "per_query"), p.dialect),
    )
