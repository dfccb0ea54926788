"""The outcome of an evaluation: one :class:`Result`, whichever engine computed it; and of a
comparison of two runs, a :class:`Comparison`."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import duckdb

from .connections import Leftovers, interruptible, turn
from .report import comparison_text, summary_text


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
            f"DataFrame results need pandas and numpy ({error}): pip install pandas (ndcg_sql's 'dataframes' extra), "
            "or use summary_records() / per_query_records(), which need neither"
        ) from error
    return pandas


def plain(value):
    """Warehouse numbers as Python numbers: NUMBER/NUMERIC (Decimal) to int or float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def records(rows, leftovers: Leftovers | None = None) -> list[dict]:
    """Rows as plain dicts: a DuckDB relation's, or a list of dicts as it is."""
    if isinstance(rows, list):
        return rows
    return read(leftovers, lambda: [dict(zip(rows.columns, row)) for row in rows.fetchall()])


def read(leftovers: Leftovers | None, reading):
    """``reading()`` on a result's connection: in its turn, interruptible by Ctrl-C.

    Raises:
        ValueError: the result is closed (its tables are dropped).
    """
    if leftovers is None:
        return reading()
    if leftovers.released:
        raise ValueError("the result is closed: its temp tables were dropped (read it before close())")
    with turn(leftovers.con):
        return interruptible(leftovers.con, reading)


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
        leftovers: a local result's temp tables (and the connection evaluate opened, if it did):
            dropped by :meth:`close` (or ``with evaluate(...) as result:``), or once the result
            and its relations are collected. The relations read them: close the result when
            done with them.
    """

    per_query: object
    summary: object
    options: dict
    coverage: dict
    sql: str = field(repr=False, default="")
    definitions: list = field(default_factory=list)
    dialect: str = "duckdb"
    leftovers: Leftovers | None = field(default=None, repr=False, compare=False)

    def close(self) -> None:
        """Drop the temp tables and views the result reads (and close the connection evaluate
        opened for it); reading its rows afterwards raises ValueError. A second call does nothing."""
        if self.leftovers is not None:
            self.leftovers.release()

    def __enter__(self) -> "Result":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def summary_records(self) -> list[dict]:
        """Summary rows as plain dicts (k is None for the whole list). Raises ValueError once closed."""
        return records(self.summary, self.leftovers)

    def __str__(self) -> str:
        """The options, the query counts and the summary as a table (what ``ndcg-sql evaluate``
        prints; the per-query rows are in :attr:`per_query`)."""
        return self.to_text()

    def to_text(self, digits: int | None = None) -> str:
        """What ``str(result)`` gives, with floats in full precision or rounded to ``digits``
        significant digits (``ndcg-sql evaluate --digits N``).

        Raises:
            OptionError: ``digits`` is not None or an integer 1 .. 17.
            ValueError: the result is closed.
        """
        return summary_text(self.options, self.coverage, self.summary_records(), digits)

    __repr__ = __str__

    def per_query_records(self) -> list[dict]:
        """Per-query rows as plain dicts.

        Raises:
            ValueError: a warehouse result without per-query rows (ask with ``per_query=True``),
                or a closed result.
        """
        if self.per_query is None:
            raise ValueError("per-query rows were not fetched: call evaluate(..., per_query=True)")
        return records(self.per_query, self.leftovers)

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        return _frame(self.summary, self.leftovers)

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        if self.per_query is None:
            self.per_query_records()
        return _frame(self.per_query, self.leftovers)

    def to_dict(self, per_query: bool = False) -> dict:
        """``{"options", "coverage", "summary"[, "definitions"][, "per_query"]}`` with full-precision floats."""
        out = {"options": self.options, "coverage": self.coverage, "summary": self.summary_records()}
        if self.definitions:
            out["definitions"] = self.definitions
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


@dataclass
class Comparison:
    """The outcome of :func:`compare`.

    Attributes:
        per_query: DuckDB relation, one row per (query, measure) both runs
            evaluated: query id, measure, a, b, difference (= a - b).
        summary: DuckDB relation, as ``evaluate(...).summary``: one row per
            ([segment values,] measure), measures in the order asked: measure,
            queries (paired), mean_a, mean_b, mean_difference, stderr, ci_low,
            ci_high (t interval, 95%), t, df, t_p_value (two-sided paired t-test,
            as scipy.stats.ttest_rel), permutation_p_value, permutation_kind
            ("exact" or "sampled"), wins, ties, losses (queries where a is
            better, equal, worse), only_a, only_b (queries one run lacks).
        a, b: the two :class:`~ndcg_sql.Result` objects.
        options: the conventions used, plus permutations and seed.
        leftovers: the temp tables the relations read (and the connection compare opened, if
            it did): dropped by :meth:`close` (or ``with compare(...) as comparison:``), or
            once the comparison, its runs and their relations are collected.
        names: what the text and JSON call run A and run B (:func:`ndcg_sql.report.run_names`,
            or compare's ``names``).
    """

    per_query: duckdb.DuckDBPyRelation
    summary: duckdb.DuckDBPyRelation
    a: Result = field(repr=False)
    b: Result = field(repr=False)
    options: dict = field(default_factory=dict)
    leftovers: Leftovers | None = field(default=None, repr=False, compare=False)
    names: tuple[str, str] = ("A", "B")

    def close(self) -> None:
        """Drop the temp tables of the comparison and of its two runs (and close the connection
        compare opened); reading rows afterwards raises ValueError."""
        self.a.close()
        self.b.close()
        if self.leftovers is not None:
            self.leftovers.release()

    def __enter__(self) -> "Comparison":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def summary_records(self) -> list[dict]:
        """Summary rows as plain dicts."""
        return records(self.summary, self.leftovers)

    def per_query_records(self) -> list[dict]:
        """Per-query rows (query, measure, a, b, difference) as plain dicts."""
        return records(self.per_query, self.leftovers)

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        return _frame(self.summary, self.leftovers)

    def to_dict(self) -> dict:
        """{"runs": {"a": name, "b": name}, "options", "summary"} with full-precision floats."""
        return {"runs": {"a": self.names[0], "b": self.names[1]}, "options": self.options,
                "summary": self.summary_records()}

    def __str__(self) -> str:
        """Which run is A and which B, the options and the summary as a table (what ``ndcg-sql
        compare`` prints)."""
        return self.to_text()

    def to_text(self, digits: int | None = None) -> str:
        """What ``str(comparison)`` gives, with floats in full precision or rounded to ``digits``
        significant digits (``ndcg-sql compare --digits N``).

        Raises:
            OptionError: ``digits`` is not None or an integer 1 .. 17.
            ValueError: the comparison is closed.
        """
        return comparison_text(self.options, self.summary_records(), self.options.get("segments", []), self.names,
                               digits)

    __repr__ = __str__


def _frame(rows, leftovers: Leftovers | None = None):
    pandas = require_pandas()
    if isinstance(rows, list):
        return pandas.DataFrame(rows)
    return read(leftovers, rows.df)


#: The name a warehouse result had before there was one class.
WarehouseResult = Result
