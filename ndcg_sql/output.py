"""How the command line prints results: a text table, CSV or JSON, numbers in full precision."""

from __future__ import annotations

import csv
import json

from .results import Result

#: Options reported in the JSON but not on the text output's "options:" line: the cutoffs and
#: measures are the table's rows, k_beyond_list is a sentence describing a fixed rule.
_NOT_ON_OPTIONS_LINE = ("k", "measures", "k_beyond_list")
#: Columns of a comparison's text table (after the segment columns).
COMPARISON_COLUMNS = ("measure", "queries", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high", "t_p_value",
                      "permutation_p_value", "wins", "ties", "losses", "only_a", "only_b")


def number(value) -> str:
    """Full precision: repr of a float round-trips exactly; None is empty."""
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


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
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = json.dumps(value, separators=(",", ":"))
        parts.append(f"{name}={value}")
    return "options: " + " ".join(parts) + "\n"


def _aligned(rows: list[tuple[str, ...]], out) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.rjust(width) for cell, width in zip(row, widths)).rstrip() + "\n")


def print_table(result: Result, out) -> None:
    """The options, the query counts and the summary as an aligned table (k "all" for the whole list)."""
    out.write(options_line(result.options))
    out.write("queries: " + " ".join(f"{key}={value}" for key, value in result.coverage.items()) + "\n")
    records = result.summary_records()
    if not records:
        return
    names = [name for name in records[0] if name != "evaluated"]
    header = tuple(name for name in names)
    rows = [header]
    for record in records:
        rows.append(tuple(
            ("all" if record[name] is None else str(record[name])) if name == "k"
            else (record[name] if isinstance(record[name], str) else number(record[name]))
            for name in names))
    _aligned(rows, out)


def print_comparison(summary: list[dict], segments, out) -> None:
    """A comparison's rows as an aligned table."""
    columns = (*segments, *COMPARISON_COLUMNS)
    rows = [columns] + [tuple(number(r[c]) if not isinstance(r[c], str) else r[c] for c in columns) for r in summary]
    _aligned(rows, out)


def write_csv(records: list[dict], out) -> None:
    """Rows as CSV with a header, numbers in full precision."""
    if not records:
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(records[0].keys())
    for record in records:
        writer.writerow(number(value) for value in record.values())


def write_json(data: dict, out) -> None:
    """One JSON object on a line (no NaN)."""
    json.dump(data, out, allow_nan=False)
    out.write("\n")
