"""Write ``sql/options/t_critical_values.sql``: the one-sided critical values of Student's t
distribution that the regression tests read (``sql/period_changes.sql.j2``,
``sql/arm_changes.sql.j2``), since no engine has a t distribution in SQL.

A build tool, not part of the installed package (it needs scipy): ``python -m tools.t_table``
from the repository root (``--check``: exit 1 when the committed file differs). The file is an
option macro, so the Python runner and the dbt package (``python -m tools.dbt_gen`` copies it)
read the same numbers.

The table: for each one-sided level a in :data:`LEVELS` and each degrees of freedom df in
:data:`DFS`, c(a, df) = scipy.stats.t.isf(a, df), the value a t statistic must reach (at
or below -c for a drop) to be significant at level a, written with repr (17 significant
digits). A test reads a row by the largest tabulated df at or below its own (Welch's df is
fractional): a critical value falls as df grows, so the row read is never smaller than the
exact one and the test is conservative; past the last row (df = 100,000) it reads that row,
which lies above the normal limit by less than 3e-4 (2e-5 at level 0.05): the normal limit
itself is never used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: One-sided levels, largest first: 1, 2.5 and 5 times the powers of ten from 0.1 to 1e-6.
LEVELS = (0.1, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001, 0.0005, 0.00025, 0.0001,
          5e-05, 2.5e-05, 1e-05, 5e-06, 2.5e-06, 1e-06)
#: Degrees of freedom of the rows: every one to 30, then sparser up to 100,000.
DFS = tuple(range(1, 31)) + (35, 40, 45, 50, 60, 70, 80, 90, 100, 120, 150, 200, 300, 500, 1000, 2000, 5000,
                             10000, 100000)
OUT = Path("sql") / "options" / "t_critical_values.sql"


def table() -> dict:
    """{'levels': LEVELS, 'df': DFS, 'critical': one list per df of c(a, df) for each level}."""
    from scipy import stats

    return {"levels": list(LEVELS), "df": list(DFS),
            "critical": [[float(stats.t.isf(level, df)) for level in LEVELS] for df in DFS]}


def text() -> str:
    """The option macro ``_t_critical_values()`` returning :func:`table`."""
    values = table()
    rows = ",\n      ".join("[" + ", ".join(repr(c) for c in row) + "]" for row in values["critical"])
    return (
        "{#- Written by `python -m tools.t_table` (scipy.stats.t.isf): do not edit. One-sided critical values\n"
        "    c(level, df) of Student's t: a row per df, a column per level. Read by the largest tabulated\n"
        "    df at or below a test's df (conservative); past the last row, that row. -#}\n"
        "{% macro _t_critical_values() -%}\n"
        "  {{ return({\n"
        f"    'levels': [{', '.join(repr(a) for a in values['levels'])}],\n"
        f"    'df': [{', '.join(str(d) for d in values['df'])}],\n"
        "    'critical': [\n"
        f"      {rows}]}}) }}}}\n"
        "{%- endmacro %}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.t_table", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when the file differs")
    args = parser.parse_args(argv)
    fresh = text()
    if args.check:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != fresh:
            print(f"{OUT} is out of date; run python -m tools.t_table", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(fresh, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
