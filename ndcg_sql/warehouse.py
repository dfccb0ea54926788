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


from . import dialects, identifiers, sql_text, suite, templates, validation
from .arguments import Request, takes_options
from .evaluate import validate
from .options import OptionError, Options

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
            queries (counted in the mean), no_relevant (queries with IDCG@k = 0);
            with measures, segments, intervals or bootstrap the same rows as
            :class:`ndcg_sql.Result`'s summary (e.g. measure, mean, queries,
            stderr, ci_low, ci_high; segment columns first).
        per_query: one dict per (query, k): the query id under the user's
            query column name, k, cg, dcg, idcg, ndcg (with measures: query,
            measure, value; segment columns first); None unless asked for.
        options, coverage: as :class:`ndcg_sql.Result`.
        sql: the per-query SQL in the warehouse's dialect.
        definitions: with measures, each measure's formula and source.
    """

    summary: list[dict]
    per_query: list[dict] | None
    options: dict
    coverage: dict
    dialect: str
    sql: str = field(repr=False, default="")
    definitions: list = field(default_factory=list)

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

        return pandas.DataFrame(self.summary, columns=list(self.summary[0]) if self.summary else list(SUMMARY_COLUMNS))

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas)."""
        import pandas

        return pandas.DataFrame(self.per_query_records())

    def to_dict(self, per_query: bool = False) -> dict:
        """{"options", "coverage", "summary"[, "per_query"]} with full-precision floats."""
        out = {"options": self.options, "coverage": self.coverage, "summary": self.summary}
        if self.definitions:
            out["definitions"] = self.definitions
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


@takes_options()
def evaluate(
    con,
    table: str | Sequence[str],
    *,
    dialect: str | None = None,
    judgments: str | Sequence[str] | None = None,
    item_type: str | None = None,
    per_query: bool = False,
    check: bool = True,
    request: Request,
) -> WarehouseResult:
    """NDCG@k (and every other option of :func:`ndcg_sql.evaluate`) of a warehouse table, computed there.

    Same numbers and conventions as :func:`ndcg_sql.evaluate` (formulas and
    sources there); the SQL is the DuckDB source transpiled by sqlglot
    (:func:`ndcg_sql.sql_text.to_sql`). Measures, segments, intervals and
    bootstrap run as one statement each for the summary, the query count
    and the per-query rows: the steps DuckDB keeps in temp tables are CTEs
    here (:class:`ndcg_sql.suite.Ctes`), so nothing is written to the warehouse.

    Args:
        con: a DB-API 2.0 connection or a pyspark SparkSession.
        table: the ranking table: "table", "schema.table",
            "db.schema.table" / "project.dataset.table", or a sequence of parts.
        dialect: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb"; default "spark" for a SparkSession, required otherwise.
        judgments: optional judgments table name, with the same column names
            (and, for judgments per segment, the segment columns).
        item_type: "text" or "number"; default: from one fetched item id.
        per_query: also fetch the per-query rows (one more statement).
        check: run the input checks first (:func:`ndcg_sql.validation.checks_for`
            for the dialect: NULLs, non-numeric text, NaN and infinite values,
            negative or overflowing labels, duplicates).

    Returns:
        :class:`WarehouseResult` (summary, coverage, per-query rows if asked).

    Raises:
        OptionError: invalid options or dialect; float32 scores on BigQuery or
        Snowflake. InputError: a failed input check (column and a few query ids
        named). The driver's own errors (a missing table or column) pass through.
    """
    if dialect is None:
        if not is_spark(con):
            raise OptionError("give dialect= for a DB-API connection (bigquery, snowflake, postgres, redshift, ...)")
        dialect = "spark"
    fetch = fetcher(con, dialect)
    resolved = request.resolve(judgments is not None)
    segmented = False
    if resolved.segments and judgments is not None:
        segmented = _judgments_have(fetch, table, judgments, dialect, request, resolved.segments)
    arguments = dict(judgments_table=judgments, dialect=dialect, segmented_judgments=segmented,
                     **request.as_kwargs())
    p = sql_text.plan(table, **arguments, item_type=item_type or "text")
    if check:
        checks = validation.checks_for(p.options, p.columns.roles(), dialect=dialect)
        validate(fetch, p.context, checks, request.query_col)
    if item_type is None and p.options.ties != "average":
        probe = templates.render("item_probe.sql.j2", **p.context)
        _, rows = fetch(probe)
        item_type = "text" if rows and isinstance(rows[0][0], str) else "number"
        p = sql_text.plan(table, **arguments, item_type=item_type)
    report = resolved.report()
    if p.measures is None and not resolved.segments and not request.intervals and not request.bootstrap:
        _, rows = fetch(sql_text.render(p, "summary"))
        summary = [dict(zip(SUMMARY_COLUMNS, map(_plain, row))) for row in rows]
        names, rows = fetch(sql_text.render(p, "coverage"))
        coverage = {name.lower(): _plain(value) for name, value in zip(names, rows[0]) if value is not None}
        records = None
        if per_query:
            _, rows = fetch(sql_text.render(p, "per_query"))
            records = [dict(zip((request.query_col, *PER_QUERY_VALUES), map(_plain, row))) for row in rows]
    else:
        if request.bootstrap:
            # resamples draw queries by their place in query order: byte order for text ids, as DuckDB
            _, rows = fetch(f"SELECT {p.context['query_col']} FROM {p.context['run_relation']} LIMIT 1")
            if rows and isinstance(rows[0][0], str):
                p.context["query_order"] = p.dialect.byte_order.format(item=p.context["output_query_col"])
        steps = suite.Ctes(fetch)
        per_query_relation, summary_sql, shape = suite.plan_all(
            steps, p.context, p.measures, request.bootstrap, request.seed)
        suite.report_options(report, p.measures, resolved.segments, request.bootstrap, request.seed)
        names = _output_names(shape.summary_columns, resolved.segments, request.query_col)
        summary = [dict(zip(names, map(_plain, row))) for row in steps.fetch(summary_sql)[1]]
        _, rows = steps.fetch(suite.evaluated_sql(p.context, per_query_relation, p.measures))
        coverage = {"evaluated": _plain(rows[0][0])}
        if p.options.judgments:
            names_, rows = fetch(templates.render("coverage.sql.j2", **p.context))
            coverage.update({n.lower(): _plain(v) for n, v in zip(names_, rows[0]) if v is not None})
        records = None
        if per_query:
            columns = ", ".join(shape.per_query_columns)
            _, rows = steps.fetch(f"SELECT {columns} FROM {per_query_relation} ORDER BY {shape.per_query_order}")
            names = _output_names(shape.per_query_columns, resolved.segments, request.query_col)
            records = [dict(zip(names, map(_plain, row))) for row in rows]
    return WarehouseResult(
        summary=summary,
        per_query=records,
        options=report,
        coverage=coverage,
        dialect=p.dialect.name,
        sql=sql_text.transpile(sql_text.render(p, "per_query"), p.dialect),
        definitions=suite.definitions(p.measures) if p.measures is not None else [],
    )


def _output_names(quoted: tuple[str, ...], segments: tuple[str, ...], query_col: str) -> list[str]:
    """The user's names of output columns: quoted segment and query columns
    (in the order the SQL gives them) back to the names given; our own names as they are."""
    users = iter([*segments, query_col])
    return [next(users) if name.startswith(('"', "`")) else name for name in quoted]


def _judgments_have(fetch, table, judgments, dialect: str, request: Request, segments: tuple[str, ...]) -> bool:
    """Whether the judgments table has all segment columns (then judgments are
    per (segment, query)): the column names of a query that reads no row.

    Raises:
        InputError: some but not all segment columns, or none with missing_queries="zero".
    """
    from .evaluate import _check_segments

    target = dialects.get(dialect)
    names, _ = fetch(f"SELECT * FROM {sql_text.table_name(judgments, target.name)} WHERE 1 = 0")
    stored = {str(name) for name in names}
    types = {s: "?" for s in segments if identifiers.folded(s, target.fold) in stored}
    options = Options.build(missing_queries=request.missing_queries, judgments=True)
    return _check_segments({s: "?" for s in segments}, types, segments, options)
