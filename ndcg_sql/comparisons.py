"""The outcome of comparing several runs (:func:`ndcg_sql.compare_runs`): a :class:`Comparisons`,
and its table a reader takes in at a glance.

**The table** (as ranx's, Bassani, ECIR 2022): one row per run, lettered a, b, c, ... in the order
given; one column per measure, the run's mean; after a mean, the letters of the runs it is
significantly better than (its mean difference with that run is positive and the pair's p-value
of the chosen test, adjusted by the comparison's correction, is below alpha); the largest mean
of each measure in bold (every one that ties it). Written as aligned text, Markdown, LaTeX
(booktabs) and HTML; with segments, one table per segment's values.
"""

from __future__ import annotations

import html
import string
from dataclasses import dataclass, field

import duckdb

from .data.connections import Leftovers
from .vocabulary.errors import OptionError
from .vocabulary.parameters import ALPHA, SIGNIFICANCE_TESTS
from .running.results import (Result, aligned, cell, checked_digits, no_difference_note, options_line, ratio_note, ratios, records,
                               with_contrast)

#: The formats of :meth:`Comparisons.table`.
TABLE_FORMATS = ("text", "markdown", "latex", "html")
#: The letters of the runs, in order (so at most 26 runs).
LETTERS = string.ascii_lowercase
#: The p-value column each significance test's marks read (the adjusted one where there is one).
P_COLUMNS = {"permutation": "permutation_p_value_adjusted", "t": "t_p_value_adjusted", "tukey": "tukey_p_value"}
#: Columns of the pairs' aligned text (after run_a, run_b and the segment columns).
PAIR_COLUMNS = ("measure", "queries", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high", "t_p_value",
                "t_p_value_adjusted", "permutation_p_value", "permutation_p_value_adjusted", "tukey_p_value",
                "wins", "ties", "losses", "only_a", "only_b")


def checked_alpha(alpha) -> float:
    """A significance level: a number strictly between 0 and 1 (OptionError otherwise)."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise OptionError(f"alpha must be a number between 0 and 1 (exclusive); got {alpha!r}")
    return float(alpha)


@dataclass(repr=False)
class Comparisons:
    """The outcome of :func:`ndcg_sql.compare_runs`.

    Attributes:
        names: the runs' names, in order (the table letters them a, b, c, ...).
        pairs: the pairs compared, as (run a, run b) names: every pair (i < j, in the runs'
            order) or each run against the baseline (the baseline is b).
        per_query: DuckDB relation, one row per (pair, [segment values,] query, measure) both runs
            of the pair evaluated: run_a, run_b, the segment and query columns, measure, a, b,
            difference (= a - b).
        summary: DuckDB relation, one row per (pair, [segment values,] measure): run_a, run_b,
            the segment columns, then the columns of a two-run comparison's summary
            (:class:`ndcg_sql.running.results.Comparison`), tukey_p_value (the randomized Tukey HSD test
            of all the runs on the queries they all have; None below three runs),
            t_p_value_adjusted and permutation_p_value_adjusted (by ``correction`` over the
            segment's family), family_size (the tests of that family with a p-value) and correction.
        means: one dict per (run, [segment values,] measure): run, the segment columns, measure,
            mean, queries, ci_low, ci_high, ci_method (each run's own summary: its mean over the
            queries it has, and the 95% interval of :func:`ndcg_sql.evaluate`).
        runs: the runs' :class:`~ndcg_sql.Result` objects, in order.
        options: the conventions used, plus permutations, seed, correction, alpha, test, baseline.
        leftovers: the temp tables the relations read (and the connection compare_runs opened):
            dropped by :meth:`close` (or ``with``), or once all of it is collected.
    """

    names: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    per_query: duckdb.DuckDBPyRelation
    summary: duckdb.DuckDBPyRelation
    means: list[dict]
    runs: tuple[Result, ...] = field(repr=False)
    options: dict = field(default_factory=dict)
    leftovers: Leftovers | None = field(default=None, repr=False, compare=False)

    def close(self) -> None:
        """Drop the temp tables of the comparison and of its runs (and close the connection
        compare_runs opened); reading rows afterwards raises ValueError."""
        for run in self.runs:
            run.close()
        if self.leftovers is not None:
            self.leftovers.release()

    def __enter__(self) -> "Comparisons":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def summary_records(self) -> list[dict]:
        """The pairs' rows as plain dicts."""
        return records(self.summary, self.leftovers)

    def per_query_records(self) -> list[dict]:
        """Per-query rows (run_a, run_b, query, measure, a, b, difference) as plain dicts."""
        return records(self.per_query, self.leftovers)

    def to_dict(self) -> dict:
        """{"runs": names, "letters": {letter: name}, "options", "means", "summary"} (every pair's
        row, floats in full precision)."""
        return {"runs": list(self.names), "letters": dict(zip(LETTERS, self.names)), "options": self.options,
                "means": self.means, "summary": self.summary_records()}

    def table(self, format: str = "text", digits: int = 4, test: str | None = None,
              alpha: float | None = None) -> str:
        """The table a reader takes in at a glance: one row per run, one column per measure (its
        mean, to ``digits`` decimals), the letters of the runs it is significantly better than
        after the correction, the best mean of each measure bold (text: ``*``), and a line saying
        what the marks mean.

        Args:
            format: "text", "markdown", "latex" (booktabs: needs ``\\usepackage{booktabs}``) or "html".
            digits: decimals of the means, 0 .. 17.
            test: the test whose p-values mark significance: "permutation", "t" (both adjusted by
                the comparison's correction) or "tukey" (the randomized Tukey HSD test, family-wise
                over the pairs of one measure already). Default: the comparison's (``options["test"]``).
            alpha: the significance level (a pair is marked when its p-value is below it). Default:
                the comparison's.

        Raises:
            OptionError: an unknown format or test, a bad digits or alpha, or "tukey" for two runs.
            ValueError: the comparison is closed.
        """
        if format not in TABLE_FORMATS:
            raise OptionError(f"format must be one of {', '.join(TABLE_FORMATS)}; got {format!r}")
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 17:
            raise OptionError(f"digits must be an integer from 0 to 17; got {digits!r}")
        test = self.options.get("test", "permutation") if test is None else test
        if test not in SIGNIFICANCE_TESTS:
            raise OptionError(f"test must be one of {', '.join(SIGNIFICANCE_TESTS)}; got {test!r}")
        if test == "tukey" and len(self.names) < 3:
            raise OptionError("the Tukey HSD test needs three runs or more; use test='permutation' or 't'")
        alpha = checked_alpha(self.options.get("alpha", ALPHA) if alpha is None else alpha)
        return significance_table(self.names, self.means, self.summary_records(), self.options.get("segments", []),
                                  format, digits, test, alpha, self.options.get("correction", "none"))

    def to_text(self, digits: int | None = None) -> str:
        """The runs and their letters, the options, the table (:meth:`table`) and every pair's row
        as an aligned table (floats in full, or to ``digits`` significant digits): what
        ``ndcg-sql compare`` prints for three runs or more."""
        digits = checked_digits(digits)
        segments = self.options.get("segments", [])
        rows = self.summary_records()
        columns = with_contrast(("run_a", "run_b", *segments, *PAIR_COLUMNS), rows)
        text = ("runs: " + ", ".join(f"{letter} = {name}" for letter, name in zip(LETTERS, self.names))
                + f"; differences are run_a - run_b{ratio_note(ratios(rows), 'run_a', 'run_b')}, "
                "wins are queries where run_a is better\n")
        text += options_line(self.options) + "\n" + self.table("text") + "\n"
        return (text + aligned([columns] + [tuple(cell(c, r[c], digits) for c in columns) for r in rows])
                + no_difference_note(rows, segments, ("run_a", "run_b")))

    def __str__(self) -> str:
        return self.to_text()

    __repr__ = __str__


def _marks(names, means, rows, segments, test: str, alpha: float):
    """{(segment values, measure): {run: (mean, letters, best)}} and the measures in order."""
    column = P_COLUMNS[test]
    letter = dict(zip(names, LETTERS))
    measures = list(dict.fromkeys(m["measure"] for m in means))
    cells: dict[tuple, dict[str, list]] = {}
    for m in means:
        key = (tuple(m.get(s) for s in segments), m["measure"])
        cells.setdefault(key, {})[m["run"]] = [m["mean"], set(), False]
    for row in rows:
        p, difference = row.get(column), row.get("mean_difference")
        none = 1.0 if row.get("contrast") == "ratio" else 0.0  # a ratio's "no difference" is 1
        if p is None or difference is None or not p < alpha or difference == none:
            continue
        key = (tuple(row.get(s) for s in segments), row["measure"])
        better, worse = (row["run_a"], row["run_b"]) if difference > none else (row["run_b"], row["run_a"])
        if better in cells.get(key, {}):
            cells[key][better][1].add(letter[worse])
    for by_run in cells.values():
        present = [v[0] for v in by_run.values() if v[0] is not None]
        best = max(present) if present else None
        for value in by_run.values():
            value[2] = best is not None and value[0] == best
    return cells, measures


def significance_table(names, means, rows, segments, format: str, digits: int, test: str, alpha: float,
                       correction: str) -> str:
    """The table of :meth:`Comparisons.table` from its parts (names in order, the runs' means, the
    pairs' rows); one table per segment's values."""
    cells, measures = _marks(names, means, rows, segments, test, alpha)
    adjusted = "" if test == "tukey" or correction == "none" else f", {correction}-adjusted"
    test_name = {"permutation": "sign-flip permutation test", "t": "paired t-test",
                 "tukey": "randomized Tukey HSD test"}[test]
    note = (f"letters: significantly better than that run ({test_name}{adjusted} p < {alpha:g}); "
            "bold: the best mean of the measure")
    segment_values = list(dict.fromkeys(key[0] for key in cells))
    parts = []
    for values in segment_values:
        title = " ".join(f"{s}={v}" for s, v in zip(segments, values))
        body = []
        for i, name in enumerate(names):
            row = []
            for measure in measures:
                mean, letters, best = cells.get((values, measure), {}).get(name, [None, set(), False])
                row.append(("" if mean is None else f"{mean:.{digits}f}", "".join(sorted(letters)), best))
            body.append((LETTERS[i], name, row))
        parts.append(_WRITERS[format](title, measures, body, note))
    return "\n".join(parts)


def _text(title, measures, body, note) -> str:
    rows = [("", "run", *measures)]
    for letter, name, row in body:
        rows.append((f"({letter})", name, *((f"*{v}*" if best else v) + (f" ^{ls}" if ls else "")
                                            for v, ls, best in row)))
    head = f"{title}\n" if title else ""
    note = note.replace("bold:", "*...*:")
    return head + aligned_left(rows) + note + "\n"


def aligned_left(rows: list[tuple[str, ...]]) -> str:
    """Rows of text cells as left-aligned columns, one line each."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n" for row in rows)


def _markdown_escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>|" else c for c in str(text))


def _markdown(title, measures, body, note) -> str:
    lines = [f"**{_markdown_escape(title)}**", ""] if title else []
    lines.append("| | run | " + " | ".join(_markdown_escape(m) for m in measures) + " |")
    lines.append("|---|---|" + "---:|" * len(measures))
    for letter, name, row in body:
        cells = [(f"**{v}**" if best else v) + (f"<sup>{ls}</sup>" if ls else "") for v, ls, best in row]
        lines.append(f"| ({letter}) | {_markdown_escape(name)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n" + _markdown_escape(note) + "\n"


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _latex(title, measures, body, note) -> str:
    lines = [r"\begin{table}", r"\centering"]
    lines.append(r"\begin{tabular}{ll" + "r" * len(measures) + "}")
    lines.append(r"\toprule")
    lines.append(" & run & " + " & ".join(_latex_escape(m) for m in measures) + r" \\")
    lines.append(r"\midrule")
    for letter, name, row in body:
        cells = [(rf"\textbf{{{v}}}" if best else v) + (f"$^{{{ls}}}$" if ls else "") for v, ls, best in row]
        lines.append(f"({letter}) & {_latex_escape(name)} & " + " & ".join(cells) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    caption = (_latex_escape(title) + ". " if title else "") + _latex_escape(note)
    lines.append(rf"\caption{{{caption}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def _html(title, measures, body, note) -> str:
    e = html.escape
    lines = ["<table>"]
    caption = (e(title) + ". " if title else "") + e(note)
    lines.append(f"<caption>{caption}</caption>")
    lines.append("<thead><tr><th></th><th>run</th>" + "".join(f"<th>{e(m)}</th>" for m in measures) + "</tr></thead>")
    lines.append("<tbody>")
    for letter, name, row in body:
        cells = "".join("<td>" + (f"<b>{v}</b>" if best else v) + (f"<sup>{ls}</sup>" if ls else "") + "</td>"
                        for v, ls, best in row)
        lines.append(f"<tr><td>({letter})</td><td>{e(name)}</td>{cells}</tr>")
    lines.append("</tbody>")
    lines.append("</table>")
    return "\n".join(lines) + "\n"


_WRITERS = {"text": _text, "markdown": _markdown, "latex": _latex, "html": _html}
