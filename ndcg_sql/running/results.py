"""The outcome of an evaluation: one :class:`Result`, whichever engine computed it; of a
comparison of two runs, a :class:`Comparison`; and both as text (the options line, the query
counts and the summary as an aligned table, and the command line's CSV and JSON).

What ``print(result)`` and ``print(comparison)`` show, and what the command line prints: that
table (numbers in full precision, or rounded by --digits), CSV or JSON (numbers in full
precision; the whole list is null in JSON). Numbers are written in full precision (``repr``
of a float round-trips exactly), or in the table rounded to ``digits`` significant digits.
A comparison's table first names its runs A and B (:func:`run_names`).

**The whole list.** A cutoff of the whole list is k = None: typed outputs carry it as the
absence of a number (None in Python, NULL in SQL and dbt, null in JSON), and text outputs
(this table, CSV, the plot) write it :data:`WHOLE_LIST`, the word the inputs take for it
(``--k all``, ``k="all"``, dbt ``k=[10, 'all']``).
"""

from __future__ import annotations

import csv
import datetime
import json
import os
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Sequence

import duckdb
from sqlglot import exp

from ..data.connections import Leftovers, interruptible, turn
from ..vocabulary.errors import OptionError


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
        source: the per-query SQL as the templates wrote it (DuckDB syntax, before any
            transpiling; on a warehouse naming each input table once): what a comparison on a
            warehouse builds its statements from (:func:`ndcg_sql.compare`).
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
    source: str | exp.Expr | None = field(repr=False, default=None, compare=False)
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
            queries (paired), mean_a, mean_b, mean_difference, contrast ("difference", or
            "ratio" for a measure whose summary is a geometric mean, gm_map: mean_a and mean_b the
            geometric means, mean_difference their ratio a / b, exp of the mean difference of the
            per-query logarithms, ci_low and ci_high exp of its interval, stderr the ratio x the
            standard error of that mean difference; the tests and wins on the logarithms), stderr, ci_low,
            ci_high (t interval, 95%), t, df, t_p_value (two-sided paired t-test,
            as scipy.stats.ttest_rel; t and t_p_value None where every difference is 0, scipy's NaN:
            :func:`no_difference_note`), permutation_p_value, permutation_kind
            ("exact" or "sampled"), wins, ties, losses (queries where a is
            better, equal, worse), only_a, only_b (queries one run lacks),
            t_p_value_adjusted and permutation_p_value_adjusted (by the correction over the
            segment's measures: :mod:`ndcg_sql.vocabulary.corrections`), family_size (the measures with a
            p-value) and correction ("none" for one measure by default, "holm" for more).
        a, b: the two :class:`~ndcg_sql.Result` objects.
        options: the conventions used, plus permutations and seed.
        leftovers: the temp tables the relations read (and the connection compare opened, if
            it did): dropped by :meth:`close` (or ``with compare(...) as comparison:``), or
            once the comparison, its runs and their relations are collected.
        names: what the text and JSON call run A and run B (:func:`ndcg_sql.running.results.run_names`,
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


#: Most significant digits a text table rounds its numbers to: 17 digits tell every double apart.
MAX_DIGITS = 17


def checked_digits(digits) -> int | None:
    """The significant digits of a text table: None (full precision) or an integer 1 .. MAX_DIGITS.

    Raises:
        OptionError: anything else.
    """
    if digits is None:
        return None
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise OptionError(f"digits must be an integer from 1 to {MAX_DIGITS}; got {digits!r}")
    return digits


def digits_from_text(text: str) -> int:
    """The command line's --digits: an integer 1 .. MAX_DIGITS (OptionError otherwise)."""
    value = int(text) if text.strip().isdigit() else 0
    if not 1 <= value <= MAX_DIGITS:
        raise OptionError(f"digits must be an integer from 1 to {MAX_DIGITS}; got {text!r}")
    return value


#: How text outputs write the cutoff of the whole list (k = None).
WHOLE_LIST = "all"
#: Options reported in the JSON but not on the text output's "options:" line: the cutoffs and
#: measures are the table's rows, k_beyond_list is a sentence describing a fixed rule.
_NOT_ON_OPTIONS_LINE = ("k", "measures", "k_beyond_list")
#: Columns of a comparison's text table (after the segment columns).
COMPARISON_COLUMNS = ("measure", "queries", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high", "t_p_value",
                      "permutation_p_value", "wins", "ties", "losses", "only_a", "only_b")


def number(value, digits: int | None = None) -> str:
    """Full precision (repr of a float round-trips exactly), or a float rounded to ``digits``
    significant digits; None is empty."""
    if value is None:
        return ""
    if not isinstance(value, float):
        return str(value)
    return repr(value) if digits is None else f"{value:.{digits}g}"


def cell(name: str, value, digits: int | None = None) -> str:
    """One value as text: k None is :data:`WHOLE_LIST`, other None empty, floats in full (or to
    ``digits`` significant digits)."""
    if name == "k" and value is None:
        return WHOLE_LIST
    return value if isinstance(value, str) else number(value, digits)


def run_labels(paths: list[str]) -> list[str]:
    """The shortest ends of the paths that tell them apart (``bm25.txt``, or
    ``arm=bm25/clicks.parquet`` when the file names are alike)."""
    parts = [Path(path).parts for path in paths]
    for n in range(1, max(len(p) for p in parts) + 1):
        labels = ["/".join(p[-n:]) for p in parts]
        if len(set(labels)) == len(labels):
            return labels
    return list(paths)


def run_names(runs: Sequence[object]) -> list[str]:
    """How text outputs name runs: those given as paths or text (table names) by :func:`run_labels`
    of them, a table name given as parts by its dotted name, other inputs (frames, relations) by
    their kind ("a DataFrame")."""
    runs = [os.fspath(run) if isinstance(run, os.PathLike) else run for run in runs]
    texts = [run for run in runs if isinstance(run, str)]
    labels = iter(run_labels(texts)) if texts else iter(())
    names = []
    for run in runs:
        if isinstance(run, str):
            names.append(next(labels))
        elif isinstance(run, (list, tuple)) and run and all(isinstance(part, str) for part in run):
            names.append(".".join(run))
        else:
            names.append(f"a {type(run).__name__}")
    return names


def options_line(options: dict) -> str:
    """The "options: ..." line of the text output: every reported option that shaped the numbers
    (the same as the JSON "options", less the cutoffs and measures that head the rows)."""
    parts = []
    for name, value in options.items():
        if name in _NOT_ON_OPTIONS_LINE or value is None:
            continue
        if name == "gain" and not isinstance(value, str):
            value = "mapping " + json.dumps(value, separators=(",", ":"))
        elif name == "bootstrap" and isinstance(value, dict):
            parts.append(f"bootstrap={value['replicates']} bootstrap_seed={value['seed']}")
            continue
        elif name == "label":
            value = json.dumps(value)  # an expression has spaces: one quoted word
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = json.dumps(value, separators=(",", ":"))
        parts.append(f"{name}={value}")
    return "options: " + " ".join(parts) + "\n"


def aligned(rows: list[tuple[str, ...]]) -> str:
    """Rows of text cells as right-aligned columns, one line each."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "".join("  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip() + "\n" for row in rows)


def summary_text(options: dict, coverage: dict, records: list[dict], digits: int | None = None) -> str:
    """The options, the query counts and the summary rows as an aligned table (floats in full, or
    to ``digits`` significant digits).

    Raises:
        OptionError: ``digits`` is not None or an integer 1 .. 17.
    """
    digits = checked_digits(digits)
    text = options_line(options)
    text += "queries: " + " ".join(f"{key}={value}" for key, value in coverage.items()) + "\n"
    if not records:
        return text
    names = [name for name in records[0] if name != "evaluated"]
    return text + aligned([tuple(names)] + [tuple(cell(n, record[n], digits) for n in names) for record in records])


def ratios(records: list[dict]) -> list[str]:
    """The measures of a comparison's rows whose runs differ by a ratio (contrast "ratio": gm_map,
    a geometric mean), each once, in order."""
    return list(dict.fromkeys(r["measure"] for r in records if r.get("contrast") == "ratio"))


def with_contrast(columns: tuple[str, ...], records: list[dict]) -> tuple[str, ...]:
    """A comparison's text columns, with contrast after mean_difference when a row is a ratio."""
    if not ratios(records):
        return columns
    return tuple(c for name in columns for c in ((name, "contrast") if name == "mean_difference" else (name,)))


def ratio_note(measures: Sequence[str], a: str = "A", b: str = "B") -> str:
    """What a comparison's text says of the measures whose runs differ by a ratio ("" for none)."""
    if not measures:
        return ""
    return (f" ({', '.join(measures)}: the ratio {a} / {b} of the geometric means, its interval exponentiated; "
            "the tests on the per-query logarithms)")


def no_difference_note(records: list[dict], segments: Sequence[str] = (), pair: Sequence[str] = ()) -> str:
    """What a comparison's text says of its rows whose paired t is undefined; "" for none. Where
    every per-query difference is 0 (ties = queries: the same run twice, or runs with the same
    value on every query) the t is 0 / 0, as scipy.stats.ttest_rel gives NaN, and the sign-flip
    test's p-value is 1 (every sign pattern sums to 0, as scipy.stats.permutation_test gives).
    Where every difference is the same value d, not 0 (stderr 0, no tie), the t is d / 0: scipy
    gives t = +-inf and p = 0, which JSON cannot carry; the sign-flip test's p-value stands. In
    both, t and t_p_value are empty (None in Python, null in JSON, empty in CSV). Each row is
    named by ``pair`` (its run columns), ``segments`` and its measure."""
    def name(r: dict) -> str:
        return " ".join([*(f"{r[c]} -" if i == 0 and len(pair) > 1 else str(r[c]) for i, c in enumerate(pair)),
                         *(f"{c}={r[c]}" for c in segments), str(r["measure"])])
    same = [name(r) for r in records if r.get("queries") and r.get("ties") == r.get("queries")]
    constant = [name(r) for r in records if r.get("queries", 0) >= 2 and r.get("ties") != r.get("queries")
                and r.get("stderr") == 0 and r.get("t") is None]
    note = ""
    if same:
        note += (f"no differences: every per-query difference of {', '.join(same)} is 0, so the paired t is 0/0 and "
                 "t_p_value is empty (scipy.stats.ttest_rel gives NaN); the permutation test's p-value is 1\n")
    if constant:
        note += (f"one difference: every per-query difference of {', '.join(constant)} is the same, not 0, so the "
                 "paired t is d/0 and t_p_value is empty (scipy.stats.ttest_rel gives an infinite t and p 0); "
                 "the permutation test's p-value stands\n")
    return note


def runs_line(names: Sequence[str], ratio_measures: Sequence[str] = ()) -> str:
    """The first line of a comparison's text: which run is A and which is B, and what that makes
    of the differences (ratios for ``ratio_measures``) and the wins."""
    return (f"runs: A = {names[0]}, B = {names[1]}; differences are A - B{ratio_note(ratio_measures)}, "
            "wins are queries where A is better\n")


def comparison_text(options: dict, records: list[dict], segments, names: Sequence[str] = ("A", "B"),
                    digits: int | None = None) -> str:
    """A comparison's runs line, options line and rows as an aligned table (floats in full, or to
    ``digits`` significant digits); with a correction, each p-value followed by its adjusted one.

    Raises:
        OptionError: ``digits`` is not None or an integer 1 .. 17.
    """
    digits = checked_digits(digits)
    columns = with_contrast((*segments, *COMPARISON_COLUMNS), records)
    if options.get("correction", "none") != "none":
        columns = tuple(c for name in columns for c in ((name, name + "_adjusted") if name.endswith("p_value") else (name,)))
    return runs_line(names, ratios(records)) + options_line(options) + aligned(
        [columns] + [tuple(cell(c, r[c], digits) for c in columns) for r in records]) + no_difference_note(records, segments)


def print_table(result: Result, out, digits: int | None = None) -> None:
    """The options, the query counts and the summary as an aligned table (k "all" for the whole
    list; floats in full, or to ``digits`` significant digits)."""
    out.write(result.to_text(digits))


def print_comparison(comparison: Comparison, out, digits: int | None = None) -> None:
    """A comparison's runs (which is A, which B), options line and rows as an aligned table."""
    out.write(comparison.to_text(digits))


def named_comparison_records(comparison: Comparison) -> list[dict]:
    """A comparison's summary rows for CSV, each ending with the names of its runs, run_a and run_b."""
    a, b = comparison.names
    return [{**row, "run_a": a, "run_b": b} for row in comparison.summary_records()]


def write_csv(records: list[dict], out) -> None:
    """Rows as CSV with a header, numbers in full precision, k "all" for the whole list, other
    missing values empty."""
    if not records:
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(records[0].keys())
    for record in records:
        writer.writerow(cell(name, value) for name, value in record.items())


def _json_value(value):
    """What JSON has no type for: a date, time or timestamp (a segment's value) as its ISO text,
    a warehouse's Decimal as a number."""
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return plain(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def write_json(data: dict, out) -> None:
    """One JSON object on a line (no NaN; dates and times as ISO text)."""
    json.dump(data, out, allow_nan=False, default=_json_value)
    out.write("\n")
