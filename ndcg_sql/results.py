"""The outcome of an evaluation: one :class:`Result`, whichever engine computed it."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .report import summary_text


def require_pandas():
    """Import and return pandas (with numpy, which DuckDB's ``.df()`` needs too).

    Raises:
        ImportError: pandas or numpy is not installed; the message names the extra that
            installs them.
    """
    try:
        import numpy  # noqa: F401
        import pandas
    except ImportError as error:
        raise ImportError(
            f"DataFrame results need pandas and numpy ({error}): pip install 'ndcg_sql[dataframes]', "
            "or use summary_records() / per_query_records(), which need neither"
        ) from error
    return pandas


def plain(value):
    """Warehouse numbers as Python numbers: NUMBER/NUMERIC (Decimal) to int or float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def records(rows) -> list[dict]:
    """Rows as plain dicts: a DuckDB relation's, or a list of dicts as it is."""
    if isinstance(rows, list):
        return rows
    names = rows.columns
    return [dict(zip(names, row)) for row in rows.fetchall()]


@dataclass(repr=False)
class Result:
    """The outcome of :func:`ndcg_sql.evaluate`.

    Attributes:
        per_query: the per-query rows: a DuckDB relation computed when read (a local run;
            the same numbers each time, to the bit: a large log's rows are not held in
            memory unless asked for, so the input must still be there when they are read),
            or a list of dicts fetched from a warehouse (``per_query=True``; else None).
            NDCG rows: ([segment columns,] the query column, k (None for the whole list),
            cg, dcg, idcg, ndcg (None for a skipped no-relevant query)); with measures:
            ([segment columns,] query column, measure, value).
        summary: one row per ([segment values,] k or measure), a DuckDB relation (local)
            or a list of dicts (warehouse), the same columns from every entry point
            (sql/summary.sql.j2): k, ndcg (the mean), queries (counted in the mean),
            no_relevant (queries with IDCG@k = 0), evaluated; with measures: measure,
            mean, queries, evaluated; with intervals stderr, ci_low, ci_high and ci_method
            (the interval's method, by the range of the values: 'wilson', 'normal, clipped
            to [0, 1]' or 'normal'); with a bootstrap bootstrap_low, bootstrap_high.
        options: the conventions that produced the numbers.
        coverage: query counts: evaluated; with judgments also unjudged_ignored (run
            queries with no judgment) and missing_from_run.
        sql: the per-query SQL (in the warehouse's dialect on a warehouse).
        definitions: with measures, each measure's formula and source.
        dialect: the engine that computed it.
    """

    per_query: object
    summary: object
    options: dict
    coverage: dict
    sql: str = field(repr=False, default="")
    definitions: list = field(default_factory=list)
    dialect: str = "duckdb"

    def summary_records(self) -> list[dict]:
        """Summary rows as plain dicts (k is None for the whole list)."""
        return records(self.summary)

    def __str__(self) -> str:
        """The options, the query counts and the summary as a table (what ``ndcg-sql evaluate``
        prints; the per-query rows are in :attr:`per_query`)."""
        return summary_text(self.options, self.coverage, self.summary_records())

    __repr__ = __str__

    def per_query_records(self) -> list[dict]:
        """Per-query rows as plain dicts.

        Raises:
            ValueError: a warehouse result without per-query rows (ask with ``per_query=True``).
        """
        if self.per_query is None:
            raise ValueError("per-query rows were not fetched: call evaluate(..., per_query=True)")
        return records(self.per_query)

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        return _frame(self.summary)

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        if self.per_query is None:
            self.per_query_records()
        return _frame(self.per_query)

    def to_dict(self, per_query: bool = False) -> dict:
        """{"options", "coverage", "summary"[, "definitions"][, "per_query"]} with full-precision floats."""
        out = {"options": self.options, "coverage": self.coverage, "summary": self.summary_records()}
        if self.definitions:
            out["definitions"] = self.definitions
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


def _frame(rows):
    pandas = require_pandas()
    if isinstance(rows, list):
        return pandas.DataFrame(rows)
    return rows.df()


#: The name a warehouse result had before there was one class.
WarehouseResult = Result
