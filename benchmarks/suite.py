"""The measurements in the performance page (docs/performance.md), in one command:

    python -m benchmarks.suite            # about 15 minutes on 2 cores; needs ~3 GB of disk in benchmarks/data/

Runs ``benchmarks.run`` for: 1M rows without tied scores with numpy, polars and
ranx (ranx does not average ties; its time includes numba's compilation); 1M and 10M rows with the numpy and polars peers
(10M also with checks="trusted"); 10M rows as 1,000 items per query (long lists) with the peers and checks="trusted"; judgments mode
at 10M; 100M rows; 100M rows in judgments mode; 100M rows under a DuckDB
memory_limit of 1 GB. The peers stop at 10M rows: at 100M they need about 18 GB
(numpy) and 16 GB (polars), more than this shared machine may use.
"""

from __future__ import annotations

import subprocess
import sys

RUNS = [
    ["--rows", "1_000_000", "--ties", "0", "--peers", "numpy", "polars", "ranx"],
    ["--rows", "1_000_000", "--peers", "numpy", "polars"],
    ["--rows", "10_000_000", "--trusted", "--peers", "numpy", "polars"],
    ["--rows", "10_000_000", "--items", "1000", "--trusted", "--peers", "numpy", "polars"],
    ["--rows", "1_000_000", "--judgments"],
    ["--rows", "10_000_000", "--judgments"],
    ["--rows", "100_000_000"],
    ["--rows", "100_000_000", "--judgments"],
    ["--rows", "100_000_000", "--memory-limit", "1GB"],
]


def main() -> None:
    failed = False
    for arguments in RUNS:
        done = subprocess.run([sys.executable, "-m", "benchmarks.run", *arguments])
        failed |= done.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
