"""The measurements in the performance page (docs/performance.md), in one command:

    python -m benchmarks.suite                        # about 40 minutes on 2 cores; ~4 GB of Parquet in benchmarks/data/
    python -m benchmarks.suite --max-rows 10_000_000  # the runs up to 10M rows (a few minutes)

Runs ``benchmarks.run`` for: 1M rows without tied scores with numpy, polars and
ranx (ranx does not average ties; its time includes numba's compilation); 1M rows with the
numpy and polars peers; then 10M and 100M rows, each at 10 and at 1,000 items per query, in
list and in judgments mode, with the default options and checks="trusted", each also with
numeric cutoffs only (1, 3, 5, 10, 20: no whole list); the 10M list-mode runs with the numpy and
polars peers; 1M rows in judgments mode; 100M rows under a DuckDB memory_limit of 1 GB. The peers
stop at 10M rows: at 100M they need about 18 GB (numpy) and 16 GB (polars), more than this
shared machine may use.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

#: Every ndcg_sql variant of the matrix: defaults and trusted, all cutoffs and numeric cutoffs only.
VARIANTS = ["--trusted", "--numeric-cutoffs"]

RUNS = [
    ["--rows", "1_000_000", "--ties", "0", "--peers", "numpy", "polars", "ranx"],
    ["--rows", "1_000_000", "--peers", "numpy", "polars"],
    ["--rows", "1_000_000", "--judgments"],
    *[["--rows", rows, "--items", items, *mode, *VARIANTS, *(peers if rows == "10_000_000" and not mode else [])]
      for rows in ("10_000_000", "100_000_000")
      for items in ("10", "1000")
      for mode in ([], ["--judgments"])
      for peers in [["--peers", "numpy", "polars"]]],
    ["--rows", "100_000_000", "--memory-limit", "1GB"],
]


def _rows(text: str) -> int:
    return int(text.replace("_", ""))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-rows", type=_rows, help="only the runs of at most this many rows")
    args = parser.parse_args(argv)
    failed = False
    for arguments in RUNS:
        if args.max_rows is not None and _rows(arguments[arguments.index("--rows") + 1]) > args.max_rows:
            continue
        done = subprocess.run([sys.executable, "-m", "benchmarks.run", *arguments])
        failed |= done.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
