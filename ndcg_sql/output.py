"""How the command line prints results: a text table (:mod:`ndcg_sql.report`; numbers in full
precision, or rounded by --digits), CSV or JSON (numbers in full precision). The whole list is
k = ``all`` in the table and in CSV, null in JSON (:data:`ndcg_sql.report.WHOLE_LIST`)."""

from __future__ import annotations

import csv
import json

from .report import cell
from .results import Comparison, Result


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
