"""Results as text: the options line, the query counts and the summary as an aligned table.

What ``print(result)`` and ``print(comparison)`` show, and what the command line prints
(:mod:`ndcg_sql.output` adds CSV and JSON). Numbers are written in full precision (``repr``
of a float round-trips exactly).

**The whole list.** A cutoff of the whole list is k = None: typed outputs carry it as the
absence of a number (None in Python, NULL in SQL and dbt, null in JSON), and text outputs
(this table, CSV, the plot) write it :data:`WHOLE_LIST`, the word the inputs take for it
(``--k all``, ``k="all"``, dbt ``k=[10, 'all']``).
"""

from __future__ import annotations

import json

#: How text outputs write the cutoff of the whole list (k = None).
WHOLE_LIST = "all"
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


def cell(name: str, value) -> str:
    """One value as text: k None is :data:`WHOLE_LIST`, other None empty, floats in full."""
    if name == "k" and value is None:
        return WHOLE_LIST
    return value if isinstance(value, str) else number(value)


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


def summary_text(options: dict, coverage: dict, records: list[dict]) -> str:
    """The options, the query counts and the summary rows as an aligned table."""
    text = options_line(options)
    text += "queries: " + " ".join(f"{key}={value}" for key, value in coverage.items()) + "\n"
    if not records:
        return text
    names = [name for name in records[0] if name != "evaluated"]
    return text + aligned([tuple(names)] + [tuple(cell(n, record[n]) for n in names) for record in records])


def comparison_text(options: dict, records: list[dict], segments) -> str:
    """A comparison's options line and rows as an aligned table."""
    columns = (*segments, *COMPARISON_COLUMNS)
    return options_line(options) + aligned([columns] + [tuple(cell(c, r[c]) for c in columns) for r in records])
