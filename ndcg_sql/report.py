"""Results as text: the options line, the query counts and the summary as an aligned table,
and the command line's CSV and JSON.

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
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from .errors import OptionError

if TYPE_CHECKING:  # results.py renders its text here: only its types are named
    from .results import Comparison, Result

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


def runs_line(names: Sequence[str]) -> str:
    """The first line of a comparison's text: which run is A and which is B, and what that makes
    of the differences and the wins."""
    return f"runs: A = {names[0]}, B = {names[1]}; differences are A - B, wins are queries where A is better\n"


def comparison_text(options: dict, records: list[dict], segments, names: Sequence[str] = ("A", "B"),
                    digits: int | None = None) -> str:
    """A comparison's runs line, options line and rows as an aligned table (floats in full, or to
    ``digits`` significant digits).

    Raises:
        OptionError: ``digits`` is not None or an integer 1 .. 17.
    """
    digits = checked_digits(digits)
    columns = (*segments, *COMPARISON_COLUMNS)
    return runs_line(names) + options_line(options) + aligned(
        [columns] + [tuple(cell(c, r[c], digits) for c in columns) for r in records])


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


def write_json(data: dict, out) -> None:
    """One JSON object on a line (no NaN)."""
    json.dump(data, out, allow_nan=False)
    out.write("\n")
