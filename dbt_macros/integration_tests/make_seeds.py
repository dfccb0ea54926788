"""Write the seeds of this dbt project from the repository's bundled real data (examples/).

- lambdarank_test.csv: examples/lightgbm_lambdarank/rank.test.scored.csv as is
  (LightGBM's lambdarank example, test part, scored by a LightGBM model).
- dl19_runs.csv: the BM25 and SPLADE++ runs of TREC DL 2019 passage, top 100,
  one arm each (columns arm, query_id, item_id, rank, score).
- dl19_qrels.csv: NIST's judgments of TREC DL 2019 passage (query_id, item_id, label).
- daily_log.csv: a daily log for the incremental model (daily_per_query): the top 20 of both
  runs with NIST's labels (0 for an unjudged item), the 43 queries spread over three days in the
  order of their ids (15, 14, 14), each query served on one day (columns day, arm, query_id,
  item_id, score, label).
- regression_log.csv and steady_log.csv: a synthetic daily log for the regression test
  ndcg_no_regression (write_regression_logs): 10 days x 2 arms (control, treatment) x 30 queries
  x 5 items, labels 0-3 drawn per (day, query, item) and shared by both arms, scores label + a
  uniform [0, 2) draw (a good ranking, with swaps of adjacent labels); in regression_log the
  treatment arm's scores on the last day are the draw alone (a random order: its NDCG really
  drops), steady_log is the same log without that. Drawn by Python's random.Random(SEED).random(),
  whose sequence Python keeps the same across versions.
- bad_ranking.csv: the first 3 lambdarank test queries with three faults put in, for the
  input test ndcg_valid_input to find: query 1 lists an item twice, query 2 has a
  NULL (empty) label, query 3 a negative label.
Sources and licences: examples/SOURCE.md. Run from anywhere: python make_seeds.py
"""

import csv
import random
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent / "examples"
RUNS = {"bm25": "run.dl19.bm25.top100.txt", "splade_pp_ed": "run.dl19.splade_pp_ed.top100.txt"}
#: the days of daily_log.csv, and how many items of each ranking it keeps
DAYS, DAILY_TOP = ("2019-11-01", "2019-11-02", "2019-11-03"), 20
#: the synthetic logs of the regression test: days, arms, queries a day, items a query, the seed
REGRESSION_DAYS = tuple(f"2026-11-{day:02d}" for day in range(1, 11))
REGRESSION_ARMS, REGRESSION_QUERIES, REGRESSION_ITEMS, SEED = ("control", "treatment"), 30, 5, 32


def write_seeds(seeds: Path = HERE / "seeds", examples: Path = EXAMPLES) -> None:
    seeds.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(examples / "lightgbm_lambdarank" / "rank.test.scored.csv", seeds / "lambdarank_test.csv")
    with open(seeds / "dl19_runs.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["arm", "query_id", "item_id", "rank", "score"])
        for arm, name in RUNS.items():
            for line in open(examples / "trec_dl19_passage" / name):
                fields = line.split()  # qid Q0 docid rank score tag
                if fields:
                    writer.writerow([arm, fields[0], fields[2], fields[3], fields[4]])
    with open(seeds / "dl19_qrels.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["query_id", "item_id", "label"])
        for line in open(examples / "trec_dl19_passage" / "qrels.dl19-passage.txt"):
            fields = line.split()  # qid iter docid rel
            if fields:
                writer.writerow([fields[0], fields[2], fields[3]])
    write_daily_log(seeds, examples)
    write_regression_logs(seeds)
    with open(examples / "lightgbm_lambdarank" / "rank.test.scored.csv", newline="") as source:
        rows = [row for row in csv.reader(source)]
    header, body = rows[0], [row for row in rows[1:] if row[0] in ("1", "2", "3")]
    firsts = {}
    for index, row in enumerate(body):
        firsts.setdefault(row[0], index)
    body.append(list(body[firsts["1"]]))  # query 1: a (query, item) row twice
    body[firsts["2"]][2] = ""  # query 2: a NULL label
    body[firsts["3"]][2] = "-1"  # query 3: a negative label
    with open(seeds / "bad_ranking.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(body)


def write_daily_log(seeds: Path, examples: Path) -> None:
    labels = {}
    for line in open(examples / "trec_dl19_passage" / "qrels.dl19-passage.txt"):
        fields = line.split()  # qid iter docid rel
        if fields:
            labels[(fields[0], fields[2])] = fields[3]
    rankings = {}  # (arm, query) -> [(rank, item, score)]
    for arm, name in RUNS.items():
        for line in open(examples / "trec_dl19_passage" / name):
            fields = line.split()  # qid Q0 docid rank score tag
            if fields:
                rankings.setdefault((arm, fields[0]), []).append((int(fields[3]), fields[2], fields[4]))
    queries = sorted({query for _, query in rankings}, key=int)
    day_of = {query: DAYS[index * len(DAYS) // len(queries)] for index, query in enumerate(queries)}
    with open(seeds / "daily_log.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["day", "arm", "query_id", "item_id", "score", "label"])
        for day in DAYS:
            for arm in RUNS:
                for query in (q for q in queries if day_of[q] == day):
                    for _, item, score in sorted(rankings[(arm, query)])[:DAILY_TOP]:
                        writer.writerow([day, arm, query, item, score, labels.get((query, item), "0")])


def write_regression_logs(seeds: Path) -> None:
    draw = random.Random(SEED).random
    steady, regressed = [], []
    for day in REGRESSION_DAYS:
        for query in range(1, REGRESSION_QUERIES + 1):
            labels = [int(draw() * 4) for _ in range(REGRESSION_ITEMS)]
            for arm in REGRESSION_ARMS:
                for item, label in enumerate(labels, start=1):
                    noise = draw() * 2.0
                    row = [day, arm, f"q{query:02d}", f"d{item}", label]
                    steady.append(row[:4] + [f"{label + noise:.4f}", label])
                    degraded = arm == "treatment" and day == REGRESSION_DAYS[-1]
                    regressed.append(row[:4] + [f"{noise if degraded else label + noise:.4f}", label])
    for name, rows in (("steady_log", steady), ("regression_log", regressed)):
        with open(seeds / f"{name}.csv", "w", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(["day", "arm", "query_id", "item_id", "score", "label"])
            writer.writerows(rows)


if __name__ == "__main__":
    write_seeds()
