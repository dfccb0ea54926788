"""How the command line prints results: a text table (:mod:`ndcg_sql.report`), CSV or JSON,
numbers in full precision. The whole list is k = ``all`` in the table and in CSV, null in
JSON (:data:`ndcg_sql.report.WHOLE_LIST`)."""

from __future__ import annotations

import csv
import json

from .report import cell, comparison_text, summary_text
from .results import Result


def print_table(result: Result, out) -> None:
    """The options, the query counts and the summary as an aligned table (k "all" for the whole list)."""
    out.write(summary_text(result.options, result.coverage, result.summary_records()))


def print_comparison(options: dict, summary: list[dict], segments, out) -> None:
    """A comparison's options line and rows as an aligned table."""
    out.write(comparison_text(options, summary, segments))


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
