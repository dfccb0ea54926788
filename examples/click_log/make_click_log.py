"""Write the bundled click log: a synthetic A/B test log made from TREC DL 2019 (not a real log).

Two experiment arms show the top 10 passages of the bundled TREC 2019 Deep Learning runs
(arm bm25: run.dl19.bm25.top100.txt; arm splade: run.dl19.splade_pp_ed.top100.txt) for each of
the 43 judged queries, at the run's own rank. The users are simulated from NIST's judgments
(qrels.dl19-passage.txt; an unjudged passage counts as 0): a passage judged 1 or more is
clicked, and the time spent on it encodes the judgment -- grade 1: 5 to 55 s, grade 2: 60 to
175 s, grade 3: 180 to 600 s, the place in the band a hash of (arm, query, passage). So the
README's label, CASE WHEN dwell_seconds >= 180 THEN 3 WHEN dwell_seconds >= 60 THEN 2 WHEN
clicked THEN 1 ELSE 0 END, gives back NIST's grade of every shown passage.

Written as one Parquet file per arm in the Hive layout analysts' exports use
(``arm=bm25/clicks.parquet``, ``arm=splade/clicks.parquet``; DuckDB adds the ``arm`` column
from the folder name): query_id, item_id, position, clicked, dwell_seconds.

    python examples/click_log/make_click_log.py      # from the repository root
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
DL19 = HERE.parent / "trec_dl19_passage"
ARMS = {"bm25": "run.dl19.bm25.top100.txt", "splade": "run.dl19.splade_pp_ed.top100.txt"}
SHOWN = 10
#: seconds spent on a passage of each grade: the band's start and width
DWELL = {1: (5.0, 50.0), 2: (60.0, 115.0), 3: (180.0, 420.0)}


def _fraction(*parts: str) -> float:
    """A number in [0, 1) fixed by ``parts`` (no random generator: the same on every machine)."""
    digest = hashlib.sha256("|".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def qrels() -> dict[tuple[str, str], int]:
    grades = {}
    for line in (DL19 / "qrels.dl19-passage.txt").read_text().splitlines():
        query, _, passage, grade = line.split()
        grades[(query, passage)] = int(grade)
    return grades


def rows(arm: str) -> list[tuple]:
    """(query_id, item_id, position, clicked, dwell_seconds) of one arm, by query and position."""
    grades = qrels()
    judged = {query for query, _ in grades}
    out = []
    for line in (DL19 / ARMS[arm]).read_text().splitlines():
        query, _, passage, rank, _score, _tag = line.split()
        if query not in judged or int(rank) > SHOWN:
            continue
        grade = grades.get((query, passage), 0)
        dwell = 0.0
        if grade > 0:
            start, width = DWELL[grade]
            dwell = round(start + width * _fraction(arm, query, passage), 1)
        out.append((query, passage, int(rank), grade > 0, dwell))
    return sorted(out, key=lambda row: (int(row[0]), row[2]))


def main() -> None:
    con = duckdb.connect()
    for arm in ARMS:
        folder = HERE / f"arm={arm}"
        folder.mkdir(exist_ok=True)
        con.execute("CREATE OR REPLACE TABLE clicks (query_id VARCHAR, item_id VARCHAR, position INTEGER, "
                    "clicked BOOLEAN, dwell_seconds DOUBLE)")
        con.executemany("INSERT INTO clicks VALUES (?, ?, ?, ?, ?)", rows(arm))
        con.execute(f"COPY (SELECT * FROM clicks ORDER BY CAST(query_id AS INTEGER), position) "
                    f"TO '{folder / 'clicks.parquet'}' (FORMAT parquet)")


if __name__ == "__main__":
    main()
