"""One approach, timed in its own process: ``python -m benchmarks.approaches NAME RUN OUT [JUDGMENTS] [MEMORY_LIMIT] [strict]``.

OUT "-" writes nothing (then the peak memory is that of the computation alone); "-" for JUDGMENTS or
MEMORY_LIMIT: none. "strict": DuckDB's partitioned execution off (``run.py --strict-memory-limit``):
ndcg_sql through ``evaluate(..., strict_memory_limit=True)`` on the connection it opens itself, the
floors with ``SET disabled_optimizers = 'partitioned_execution'``.
Prints one JSON line: seconds (reading the file and computing, not writing the
result), CPU seconds of this process over the same span, peak resident memory of this process in GB, and the number of
per-query rows written to OUT (Parquet: query_id, k, ndcg; k -1 for the whole list).
All approaches compute the defaults of ``ndcg_sql.evaluate``: cutoffs 1, 3, 5,
10, 20 and the whole list, exponential gain 2^label - 1, tie-averaged DCG,
NDCG 0 for queries without a relevant item.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


class Timer:
    """Wall and CPU seconds (all threads of this process) between start and stop."""

    def __init__(self):
        self.wall = time.perf_counter()
        self.cpu = _cpu()

    def stop(self):
        return time.perf_counter() - self.wall, _cpu() - self.cpu


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

CUTOFFS = (1, 3, 5, 10, 20, None)


def floor(run, out, judgments=None, memory_limit=None, strict=False):
    """The floor: DuckDB reads the four columns and does one hash group-by per query, no sort."""
    con = _connect(memory_limit, strict)
    timer = Timer()
    con.execute(
        "CREATE TEMP TABLE per_query AS SELECT query_id, COUNT(item_id) AS n, MAX(score) AS s, SUM(label) AS l "
        "FROM read_parquet(?) GROUP BY query_id", [run]
    )
    timing = timer.stop()
    return timing


def sort_floor(run, out, judgments=None, memory_limit=None, strict=False):
    """The sort floor: one ``ROW_NUMBER() OVER (PARTITION BY query ORDER BY score DESC)`` over the
    log (the ranking window of every exact whole-list measure, carrying the label), its ranks read by
    one ungrouped sum (nothing stored): the least any exact ranking of every item needs."""
    con = _connect(memory_limit, strict)
    timer = Timer()
    con.execute(
        "SELECT SUM(rank * label) FROM (SELECT label, ROW_NUMBER() OVER (PARTITION BY query_id ORDER BY score DESC) "
        "AS rank FROM read_parquet(?))", [run]
    ).fetchall()
    return timer.stop()


def _ndcg_sql(run, out, judgments=None, memory_limit=None, strict=False, **options):
    """``ndcg_sql.evaluate`` with the default options (validation included) and ``options``;
    without a memory limit given here, on the connection evaluate opens itself (its default
    memory_limit). With ``strict``, always on the connection evaluate opens itself, as a user
    gets it: ``memory_limit=`` (when given), ``strict_memory_limit=True``, spilling next to the data."""
    import ndcg_sql

    if strict:
        con = None
        options = {**options, "strict_memory_limit": True, "temp_directory": spill_folder(),
                   **({"memory_limit": memory_limit} if memory_limit else {})}
    else:
        con = _connect(memory_limit) if memory_limit else None
    timer = Timer()
    result = ndcg_sql.evaluate(run, judgments=judgments, con=con, **options)
    result.summary.fetchall()
    timing = timer.stop()
    if out != "-":  # per-query rows are computed again when read: only when a peer needs them
        result.per_query.select("query_id, COALESCE(k, -1) AS k, ndcg").write_parquet(out)
    return timing


def ndcg_sql_evaluate(run, out, judgments=None, memory_limit=None, strict=False):
    """``ndcg_sql.evaluate`` with the default options."""
    return _ndcg_sql(run, out, judgments, memory_limit, strict)


def ndcg_sql_trusted(run, out, judgments=None, memory_limit=None, strict=False):
    """``ndcg_sql.evaluate`` with the default options and ``checks="trusted"`` (no input check)."""
    return _ndcg_sql(run, out, judgments, memory_limit, strict, checks="trusted")


#: Numeric cutoffs only: the default cutoffs without the whole list (the top positions of
#: sql/top_items.sql.j2 on lists longer than 20).
NUMERIC_CUTOFFS = [k for k in CUTOFFS if k is not None]


def ndcg_sql_numeric(run, out, judgments=None, memory_limit=None, strict=False):
    """``ndcg_sql.evaluate`` with cutoffs 1, 3, 5, 10, 20 (no whole list), every check."""
    return _ndcg_sql(run, out, judgments, memory_limit, strict, k=NUMERIC_CUTOFFS)


def ndcg_sql_numeric_trusted(run, out, judgments=None, memory_limit=None, strict=False):
    """``ndcg_sql.evaluate`` with cutoffs 1, 3, 5, 10, 20 (no whole list) and ``checks="trusted"``."""
    return _ndcg_sql(run, out, judgments, memory_limit, strict, k=NUMERIC_CUTOFFS, checks="trusted")


def numpy_vectorised(run, out, judgments=None, memory_limit=None, strict=False):
    """numpy: lexsort by (query, score desc, item), tie groups by reduceat, ideal by a second lexsort."""
    import numpy as np
    import pyarrow.parquet as pq

    timer = Timer()
    table = pq.read_table(run, columns=["query_id", "item_id", "score", "label"])
    qid = table["query_id"].to_numpy()
    item = table["item_id"].to_numpy()
    score = table["score"].to_numpy()
    gain = np.exp2(table["label"].to_numpy().astype(np.float64)) - 1.0
    del table
    order = np.lexsort((item, -score, qid))
    qid, score, gain_sorted = qid[order], score[order], gain[order]
    del order, item
    n = len(qid)
    new_query = np.empty(n, dtype=bool)
    new_query[0] = True
    new_query[1:] = qid[1:] != qid[:-1]
    query_starts = np.flatnonzero(new_query)
    position = np.arange(n) - np.repeat(query_starts, np.diff(np.append(query_starts, n))) + 1
    new_tie = new_query.copy()
    new_tie[1:] |= score[1:] != score[:-1]
    tie_starts = np.flatnonzero(new_tie)
    tie_sizes = np.diff(np.append(tie_starts, n))
    tie_mean = np.add.reduceat(gain_sorted, tie_starts) / tie_sizes
    uniform = np.minimum.reduceat(gain_sorted, tie_starts) == np.maximum.reduceat(gain_sorted, tie_starts)
    credited = np.where(np.repeat(uniform, tie_sizes), gain_sorted, np.repeat(tie_mean, tie_sizes))
    discount = 1.0 / np.log2(position + 1.0)
    # the ideal ranking: the query's gains sorted descending (qid is already sorted)
    ideal = gain_sorted[np.lexsort((-gain_sorted, qid))]
    results = {}
    for k in CUTOFFS:
        inside = position <= k if k is not None else np.ones(n, dtype=bool)
        dcg = np.add.reduceat(np.where(inside, credited * discount, 0.0), query_starts)
        idcg = np.add.reduceat(np.where(inside, ideal * discount, 0.0), query_starts)
        with np.errstate(invalid="ignore", divide="ignore"):
            results[k] = np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), 0.0)
    timing = timer.stop()
    _write(out, qid[query_starts], results)
    return timing


def polars_expressions(run, out, judgments=None, memory_limit=None, strict=False):
    """polars (lazy): sort by (query, score desc, item), tie means over (query, score), ideal by sorted gains."""
    import polars as pl

    timer = Timer()
    frame = (
        pl.scan_parquet(run)
        .select("query_id", "item_id", "score", (pl.lit(2.0).pow(pl.col("label").cast(pl.Float64)) - 1.0).alias("gain"))
        .sort(["query_id", "score", "item_id"], descending=[False, True, False])
        .with_columns(
            position=pl.int_range(1, pl.len() + 1).over("query_id"),
            credited=pl.when(pl.col("gain").min().over(["query_id", "score"]) == pl.col("gain").max().over(["query_id", "score"]))
            .then(pl.col("gain"))
            .otherwise(pl.col("gain").mean().over(["query_id", "score"])),
            ideal=pl.col("gain").sort(descending=True).over("query_id"),
        )
        .with_columns(discount=1.0 / (pl.col("position").cast(pl.Float64) + 1.0).log(2))
    )
    aggregations = []
    for k in CUTOFFS:
        inside = pl.col("position") <= k if k is not None else pl.lit(True)
        name = "all" if k is None else str(k)
        aggregations += [
            pl.when(inside).then(pl.col("credited") * pl.col("discount")).otherwise(0.0).sum().alias(f"dcg_{name}"),
            pl.when(inside).then(pl.col("ideal") * pl.col("discount")).otherwise(0.0).sum().alias(f"idcg_{name}"),
        ]
    per_query = frame.group_by("query_id").agg(aggregations).collect()
    results = {}
    for k in CUTOFFS:
        name = "all" if k is None else str(k)
        idcg = per_query[f"idcg_{name}"].to_numpy()
        dcg = per_query[f"dcg_{name}"].to_numpy()
        results[k] = (dcg / (idcg + (idcg == 0))) * (idcg > 0)
    timing = timer.stop()
    _write(out, per_query["query_id"].to_numpy(), results)
    return timing


def ranx_numba(run, out, judgments=None, memory_limit=None, strict=False):
    """ranx (numba): Qrels from the relevant items' labels, Run from the scores, ``ndcg_burges``
    (2^label - 1 gain, log2 discount). ranx leaves out queries without a relevant item (ndcg_sql
    gives them 0) and does not average ties: compare on a log without tied scores (--ties 0)."""
    import numpy as np
    import pyarrow.parquet as pq
    from ranx import Qrels, Run, evaluate

    timer = Timer()
    frame = pq.read_table(run, columns=["query_id", "item_id", "score", "label"]).to_pandas()
    frame["q"] = frame["query_id"].astype(str).astype(object)
    frame["d"] = frame["item_id"].astype(str).astype(object)
    relevant = frame[frame["label"] > 0].astype({"label": "int64"})
    qrels = Qrels.from_df(relevant, q_id_col="q", doc_id_col="d", score_col="label")
    ranking = Run.from_df(frame, q_id_col="q", doc_id_col="d", score_col="score")
    del frame
    metrics = {k: f"ndcg_burges@{k}" if k is not None else "ndcg_burges" for k in CUTOFFS}
    evaluate(qrels, ranking, list(metrics.values()), make_comparable=True)
    timing = timer.stop()
    per_metric = {k: ranking.scores[name] for k, name in metrics.items()}
    queries = list(per_metric[CUTOFFS[0]].keys())
    _write(out, np.array([int(q) for q in queries]),
           {k: np.array([values[q] for q in queries]) for k, values in per_metric.items()})
    return timing


def _write(out, queries, results):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = []
    for k, values in results.items():
        parts.append(pa.table({"query_id": queries, "k": np.full(len(queries), -1 if k is None else k), "ndcg": values}))
    pq.write_table(pa.concat_tables(parts), out)


def _connect(memory_limit, strict=False):
    """A plain DuckDB connection with ``memory_limit`` (spilling to :func:`spill_folder`) and, with
    ``strict``, partitioned execution off, as ``strict_memory_limit=True`` turns it off."""
    import duckdb

    con = duckdb.connect()
    if memory_limit:
        con.execute(f"SET memory_limit = '{memory_limit}'")
        con.execute(f"SET temp_directory = '{spill_folder()}'")
    if strict:
        con.execute("SET disabled_optimizers = 'partitioned_execution'")
    return con


def spill_folder() -> str:
    """Where DuckDB spills in the benchmarks: next to the data (git-ignored), not in the working
    directory. Made here: DuckDB makes only the last folder of the path, and the log may be elsewhere."""
    spill = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "spill")
    os.makedirs(spill, exist_ok=True)
    return spill


APPROACHES = {
    "floor": floor,
    "sort_floor": sort_floor,
    "ndcg_sql": ndcg_sql_evaluate,
    "ndcg_sql_trusted": ndcg_sql_trusted,
    "ndcg_sql_numeric": ndcg_sql_numeric,
    "ndcg_sql_numeric_trusted": ndcg_sql_numeric_trusted,
    "numpy": numpy_vectorised,
    "polars": polars_expressions,
    "ranx": ranx_numba,
}


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    name, run, out = argv[:3]
    judgments = argv[3] if len(argv) > 3 and argv[3] != "-" else None
    memory_limit = argv[4] if len(argv) > 4 and argv[4] != "-" else None
    strict = len(argv) > 5 and argv[5] == "strict"
    seconds, cpu_seconds = APPROACHES[name](run, out, judgments, memory_limit, strict)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024  # KiB -> GiB
    print(json.dumps({"approach": name, "seconds": seconds, "cpu_seconds": cpu_seconds, "peak_gb": peak}))


if __name__ == "__main__":
    main()
