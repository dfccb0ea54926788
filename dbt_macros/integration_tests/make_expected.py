"""Write the expected-value seeds of this dbt project: seeds/expected/expected_<model>.csv.

One file per model of models/ that computes numbers, holding the rows the model must
produce; the generic test equals_expected (macros/test_equals_expected.sql, attached in
models/schema.yml) compares model and seed, so `dbt build` alone proves the numbers.

The values are computed here, independently of ndcg_sql (nothing of ndcg_sql is
imported, no SQL is run): by the numpy reference tests/reference.py, and where
tests/test_dbt.py compares a model with a peer tool, by that tool (pytrec_eval for the
trec_eval convention, scikit-learn's ndcg_score for the sklearn one, scipy for standard
errors and intervals). Inputs are the seed files themselves (seeds/*.csv, from
make_seeds.py). Floats are written with repr (full precision), NULL as an empty field.
tests/test_dbt_expected.py regenerates the files in memory and fails while the
committed ones differ. Run from anywhere: python make_expected.py
"""

from __future__ import annotations

import csv
import importlib.util
import io
import math
import numbers
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "seeds"
EXPECTED = SEEDS / "expected"
REFERENCE = HERE.parent.parent / "tests" / "reference.py"
#: the levels and df of the critical-value table (tools/t_table.py, which imports scipy only)
T_TABLE = HERE.parent.parent / "tools" / "t_table.py"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_reference():
    return _load(REFERENCE, "ndcg_sql_numpy_reference")


reference = _load_reference()


# ---------------------------------------------------------------- the seeds, as plain Python values


def _read(name: str) -> list[dict]:
    with open(SEEDS / f"{name}.csv", newline="", encoding="utf-8") as source:
        return list(csv.DictReader(source))


def lambdarank_rows() -> list[tuple]:
    """(query_id, doc_id, score, label) of lambdarank_test (query ids are integers there)."""
    return [(int(r["query_id"]), r["doc_id"], float(r["score"]), int(r["label"])) for r in _read("lambdarank_test")]


def run_rows(arm: str, order: str = "score") -> list[tuple]:
    """(query_id, item_id, score or rank, 0) of one arm of dl19_runs (labels come from the judgments)."""
    cast = float if order == "score" else int
    return [(r["query_id"], r["item_id"], cast(r[order]), 0) for r in _read("dl19_runs") if r["arm"] == arm]


def judgments() -> list[tuple]:
    """(query_id, item_id, label) of dl19_qrels, NIST's judgments."""
    return [(r["query_id"], r["item_id"], int(r["label"])) for r in _read("dl19_qrels")]


ARMS = ("bm25", "splade_pp_ed")


def daily_rows(log: str = "daily_log") -> dict:
    """{(day, arm): [(query_id, item_id, score, label)]} of daily_log, the daily log (or of another log)."""
    found = {}
    for r in _read(log):
        found.setdefault((r["day"], r["arm"]), []).append((r["query_id"], r["item_id"], float(r["score"]), int(r["label"])))
    return found


# ---------------------------------------------------------------- per-query NDCG and its summary

PER_QUERY_VALUES = ["cg", "dcg", "idcg", "ndcg"]
SUMMARY_VALUES = ["ndcg", "queries", "no_relevant", "evaluated"]


def per_query_rows(values: dict, prefix: tuple = ()) -> list[tuple]:
    """Rows (prefix..., query_id, k, cg, dcg, idcg, ndcg) of reference.evaluate's {(qid, k): values}."""
    return [(*prefix, qid, k, *v) for (qid, k), v in values.items()]


def summary_rows(values: dict, cutoffs: list, prefix: tuple = ()) -> list[tuple]:
    """Per cutoff (ndcg_summary's columns): mean NDCG over the queries with a value, how many had
    one, how many had no relevant item (IDCG@k = 0), how many were evaluated."""
    rows = []
    for k in cutoffs:
        at_k = [v for (_, kk), v in values.items() if kk == k]
        counted = [v[3] for v in at_k if v[3] is not None]
        mean = sum(counted) / len(counted) if counted else None
        rows.append((*prefix, k, mean, len(counted), sum(1 for v in at_k if v[2] == 0), len(at_k)))
    return rows


LAMBDARANK_CUTOFFS = [1, 3, 5, 10, None]
LAMBDARANK_OPTIONS_CUTOFFS = [2, 5, None]
BM25_CUTOFFS = [10, None]
BY_RANK_CUTOFFS = [1, 5, 20]
ARMS_CUTOFFS = [1, 3, 10, None]


def lambdarank_ndcg() -> dict:
    # exponential gain, tie-averaged: the macros' defaults
    return reference.evaluate(lambdarank_rows(), LAMBDARANK_CUTOFFS)[0]


def lambdarank_per_query():
    return per_query_rows(lambdarank_ndcg())


def lambdarank_summary():
    return summary_rows(lambdarank_ndcg(), LAMBDARANK_CUTOFFS)


def lambdarank_options_per_query():
    values, _ = reference.evaluate(
        lambdarank_rows(), LAMBDARANK_OPTIONS_CUTOFFS, gain={0: 0, 1: 1, 2: 3, 3: 7, 4: 15.5},
        ties="item-desc", no_relevant="one",
    )
    return per_query_rows(values)


def bm25_ndcg() -> dict:
    # trec_eval's conventions: linear gain, ties by item id descending, NIST's judgments
    return reference.evaluate(run_rows("bm25"), BM25_CUTOFFS, gain="linear", ties="item-desc", judgments=judgments())[0]


def dl19_bm25_per_query():
    return per_query_rows(bm25_ndcg())


def dl19_bm25_summary():
    return summary_rows(bm25_ndcg(), BM25_CUTOFFS)


def dl19_bm25_by_rank_per_query():
    # ordered by the logged rank (lower first), judged queries missing from the run count,
    # queries with no relevant item get no value (NULL)
    values, _ = reference.evaluate(
        run_rows("bm25", order="rank"), BY_RANK_CUTOFFS, ties="item-asc", judgments=judgments(),
        missing_queries="zero", no_relevant="skip", higher_is_better=False,
    )
    return per_query_rows(values)


def arms_ndcg(arm: str) -> dict:
    # each arm evaluated on its own (segment_cols=['arm'])
    return reference.evaluate(run_rows(arm), ARMS_CUTOFFS, gain="linear", ties="item-desc", judgments=judgments())[0]


def dl19_arms_per_query():
    return [row for arm in ARMS for row in per_query_rows(arms_ndcg(arm), (arm,))]


def dl19_arms_summary():
    return [row for arm in ARMS for row in summary_rows(arms_ndcg(arm), ARMS_CUTOFFS, (arm,))]


DAILY_CUTOFFS = [1, 5, 10, None]


def daily_ndcg() -> dict:
    # each (day, arm) on its own (segment_cols=['day', 'arm']), with the defaults
    return {segment: reference.evaluate(rows, DAILY_CUTOFFS)[0] for segment, rows in daily_rows().items()}


def daily_per_query():
    return [row for segment, values in daily_ndcg().items() for row in per_query_rows(values, segment)]


def daily_summary():
    return [row for segment, values in daily_ndcg().items() for row in summary_rows(values, DAILY_CUTOFFS, segment)]


# ---------------------------------------------------------------- arms against the baseline arm

ARM_CHANGE_VALUES = ["queries", "mean", "baseline_mean", "change", "stderr", "t", "df", "p_value_below", "tests",
                     "adjusted_p_value_below", "decision_level"]


def steady_arms():
    """Per day of steady_log, NDCG@5 (the numpy reference) of the treatment arm against the control
    arm on the queries both served: means, mean difference, its standard error (scipy.stats.sem)
    and the paired t (scipy.stats.ttest_rel), df = n - 1; the one-sided p-value's bracket is the
    smallest tabulated level a with t <= -scipy.stats.t.isf(a, the largest tabulated df <= n - 1),
    the family the 10 days, decided at 0.05 / 10 rounded down to a tabulated level."""
    import numpy as np
    from scipy import stats

    table = _load(T_TABLE, "ndcg_sql_t_table")
    values = {}
    for (day, arm), rows in daily_rows("steady_log").items():
        per_query, _ = reference.evaluate(rows, [5])
        values.update({(day, arm, q): v[3] for (q, _), v in per_query.items()})
    days = sorted({day for day, _, _ in values})
    tests = len(days)
    level = max(a for a in table.LEVELS if a * tests <= 0.05 * (1 + 1e-12))
    out = []
    for day in days:
        queries = sorted(q for d, a, q in values if (d, a) == (day, "control") and (day, "treatment", q) in values)
        x = np.array([values[(day, "treatment", q)] for q in queries])
        y = np.array([values[(day, "control", q)] for q in queries])
        n = len(queries)
        t = float(stats.ttest_rel(x, y).statistic)
        df = max(d for d in table.DFS if d <= n - 1)
        reached = [a for a in table.LEVELS if t <= -stats.t.isf(a, df)]
        p = min(reached) if reached else None
        out.append((day, "nDCG@5", "treatment", n, x.mean(), y.mean(), (x - y).mean(), float(stats.sem(x - y)), t,
                    n - 1, p, tests, None if p is None else min(1.0, p * tests), level))
    return out


# ---------------------------------------------------------------- named measures and their summary

MEASURE_SUMMARY_VALUES = ["mean", "queries", "stderr", "ci_low", "ci_high"]

# (name, (family, k, relevance level)) as the models ask for them; nDCG@10 from reference.evaluate
LAMBDARANK_MEASURES = [("nDCG@10", None), ("P@5", ("P", 5, 1.0)), ("R@10", ("R", 10, 1.0)), ("AP", ("AP", None, 1.0)),
                       ("RR", ("RR", None, 1.0)), ("P(rel=2)@5", ("P", 5, 2.0)), ("Success@1", ("Success", 1, 1.0))]
ARMS_MEASURES = [("nDCG@10", None), ("P@10", ("P", 10, 1.0)), ("R@100", ("R", 100, 1.0)), ("AP", ("AP", None, 1.0)),
                 ("RR(rel=2)", ("RR", None, 2.0)), ("Success@1", ("Success", 1, 1.0))]


def named_measures(rows, asked, *, gain, ties, qrels=None) -> dict:
    """{(qid, name): value}: the binary measures by reference.measures, nDCG@10 by reference.evaluate."""
    binary = [(name, *spec) for name, spec in asked if spec is not None]
    values = reference.measures(rows, binary, ties=ties, judgments=qrels)
    ndcg, _ = reference.evaluate(rows, [10], gain=gain, ties=ties, judgments=qrels)
    values.update({(qid, "nDCG@10"): v[3] for (qid, _), v in ndcg.items()})
    return values


def measure_rows(values: dict, asked, prefix: tuple = ()) -> list[tuple]:
    """Rows (prefix..., query_id, measure, value), queries in order, measures in the order asked."""
    return [(*prefix, qid, name, values[(qid, name)]) for qid in sorted({q for q, _ in values}) for name, _ in asked]


#: The interval of each measure of the models, by the range of its per-query values: 0 or 1 (the
#: Wilson score interval), in [0, 1] (the normal one clipped to [0, 1]); the models have no
#: unbounded measure (CG, DCG: the normal interval)
CI_METHODS = {"Success@1": "wilson", **dict.fromkeys(
    ["nDCG@10", "P@5", "P@10", "R@10", "R@100", "AP", "RR", "RR(rel=2)", "P(rel=2)@5"], "normal, clipped to [0, 1]")}


def measure_summary_rows(values: dict, asked, prefix: tuple = ()) -> list[tuple]:
    """Per measure: its interval's method, mean, count, standard error (scipy.stats.sem: sample
    standard deviation over sqrt(n)) and 95% interval, NULL for n < 2: the Wilson interval of
    scipy.stats.binomtest for values 0 or 1, else the normal one (scipy.stats.norm.interval),
    clipped to [0, 1]."""
    from scipy import stats

    rows = []
    for name, _ in asked:
        sample = [value for (_, measure), value in values.items() if measure == name and value is not None]
        n = len(sample)
        mean = sum(sample) / n if n else None
        method = CI_METHODS[name]
        stderr = low = high = None
        if n >= 2:
            stderr = float(stats.sem(sample))
            if method == "wilson":
                assert set(sample) <= {0, 1}, name
                interval = stats.binomtest(int(sum(sample)), n).proportion_ci(0.95, method="wilson")
                low, high = interval.low, interval.high
            else:
                low, high = (mean, mean) if stderr == 0 else stats.norm.interval(0.95, loc=mean, scale=stderr)
                low, high = max(low, 0.0), min(high, 1.0)
        rows.append((*prefix, name, method, mean, n, stderr, low, high))
    return rows


def lambdarank_measure_values() -> dict:
    return named_measures(lambdarank_rows(), LAMBDARANK_MEASURES, gain="exponential", ties="item-asc")


def lambdarank_measures():
    return measure_rows(lambdarank_measure_values(), LAMBDARANK_MEASURES)


def lambdarank_measures_summary():
    return measure_summary_rows(lambdarank_measure_values(), LAMBDARANK_MEASURES)


def arms_measure_values(arm: str) -> dict:
    return named_measures(run_rows(arm), ARMS_MEASURES, gain="linear", ties="item-desc", qrels=judgments())


def dl19_arms_measures():
    return [row for arm in ARMS for row in measure_rows(arms_measure_values(arm), ARMS_MEASURES, (arm,))]


def dl19_arms_measures_summary():
    return [row for arm in ARMS for row in measure_summary_rows(arms_measure_values(arm), ARMS_MEASURES, (arm,))]


# ---------------------------------------------------------------- a sample of the queries
#: the sample of the models dl19_sampled_measures, dl19_sample_strata and dl19_sampled_measures_summary
SAMPLE, SAMPLE_SEED = 0.5, 3
SAMPLED_MEASURES = [("nDCG@10", None), ("AP", ("AP", None, 1.0)), ("Success@1", ("Success", 1, 1.0))]


def sampled_values(arm: str) -> tuple[dict, int, int]:
    """The per-query values of one arm's sampled queries (each (arm, query) key drawn by the seeded
    hash of reference.in_sample), its queries in the ranking (N) and those drawn (n)."""
    rows = run_rows(arm)
    queries = {q for q, *_ in rows}
    drawn = {q for q in queries if reference.in_sample((arm, q), SAMPLE, SAMPLE_SEED)}
    values = named_measures([r for r in rows if r[0] in drawn], SAMPLED_MEASURES, gain="linear", ties="item-desc",
                            qrels=judgments())
    return values, len(queries), len(drawn)


def dl19_sampled_measures():
    return [row for arm in ARMS for row in measure_rows(sampled_values(arm)[0], SAMPLED_MEASURES, (arm,))]


def dl19_sample_strata():
    return [(arm, *sampled_values(arm)[1:]) for arm in ARMS]


def dl19_sampled_measures_summary():
    """Per arm and measure: the mean of the sampled queries' values, its standard error s/sqrt(n)
    times the finite-population correction sqrt(1 - n/N) (Cochran 1977, eq. 2.12; each arm a
    stratum), the normal interval clipped to [0, 1] for every measure, and N (population)."""
    from scipy import stats

    rows = []
    for arm in ARMS:
        values, population, drawn = sampled_values(arm)
        for name, _ in SAMPLED_MEASURES:
            sample = [v for (_, measure), v in values.items() if measure == name and v is not None]
            mean, n = sum(sample) / len(sample), len(sample)
            stderr = float(stats.sem(sample)) * math.sqrt(1.0 - drawn / population)
            low, high = stats.norm.interval(0.95, loc=mean, scale=stderr)
            rows.append((arm, name, "normal, clipped to [0, 1]", mean, n, stderr, max(low, 0.0), min(high, 1.0),
                         population))
    return rows


# ---------------------------------------------------------------- what to judge next

UNJUDGED_DEPTH = 15


def dl19_unjudged():
    """The unjudged passages each arm of dl19_runs shows in its top 15 (ties averaged: the tie
    groups of equal scores), what shows them named "dl19_runs arm=<arm>", joined by "; " in text
    order, highest exposure first."""
    runs = {f"dl19_runs arm={arm}": [(q, d, s) for q, d, s, _ in run_rows(arm)] for arm in ARMS}
    judged = {(q, d) for q, d, _ in judgments()}
    found = reference.unjudged_worklist(runs, judged, UNJUDGED_DEPTH)
    rows = [(query, item, "; ".join(sorted(names)), rank, exposure)
            for (query, item), (rank, names, exposure) in found.items()]
    return sorted(rows, key=lambda row: (-row[4], row[0], row[3], row[1]))


# ---------------------------------------------------------------- the peer tools' conventions

TREC_MEASURES = {"nDCG@10": "ndcg_cut_10", "P@10": "P_10", "R@100": "recall_100", "AP": "map", "RR": "recip_rank"}


def dl19_bm25_trec_eval():
    """trec_eval's own numbers (pytrec_eval) on the BM25 run; P(rel=2)@10 (trec_eval -l 2,
    which pytrec_eval's measures do not take) from the numpy reference with trec_eval's order."""
    import pytrec_eval

    run, qrels = {}, {}
    for qid, item, score, _ in run_rows("bm25"):
        run.setdefault(qid, {})[item] = score
    for qid, item, label in judgments():
        qrels.setdefault(qid, {})[item] = label
    trec = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES.values())).evaluate(run)
    level2 = reference.measures(run_rows("bm25"), [("P(rel=2)@10", "P", 10, 2.0)], ties="item-desc", judgments=judgments())
    rows = []
    for qid in sorted(trec):
        rows += [(qid, name, trec[qid][measure]) for name, measure in TREC_MEASURES.items()]
        rows.append((qid, "P(rel=2)@10", level2[(qid, "P(rel=2)@10")]))
    return rows


def lambdarank_sklearn():
    """scikit-learn's ndcg_score per query (linear gain, tie-averaged), at 5 and over the whole list."""
    from sklearn.metrics import ndcg_score

    queries = {}
    for qid, _, score, label in lambdarank_rows():
        labels, scores = queries.setdefault(qid, ([], []))
        labels.append(label)
        scores.append(score)
    rows = []
    for qid in sorted(queries):
        labels, scores = queries[qid]
        # scikit-learn refuses one-item lists; the seed has none (a new seed with one would stop here)
        assert len(labels) > 1, f"query {qid}: scikit-learn's ndcg_score needs two items or more"
        rows += [(qid, name, ndcg_score([labels], [scores], k=k)) for name, k in (("nDCG@5", 5), ("nDCG", None))]
    return rows


# ---------------------------------------------------------------- the files

#: model -> (key columns, value columns, rows): the seed's header is keys + values, and
#: models/schema.yml compares the model with it on the same columns (text columns, such as a
#: summary's ci_method, are keys: equals_expected compares values as numbers)
MODELS = {
    "lambdarank_per_query": (["query_id", "k"], PER_QUERY_VALUES, lambdarank_per_query),
    "lambdarank_summary": (["k"], SUMMARY_VALUES, lambdarank_summary),
    "lambdarank_options_per_query": (["query_id", "k"], PER_QUERY_VALUES, lambdarank_options_per_query),
    "lambdarank_measures": (["query_id", "measure"], ["value"], lambdarank_measures),
    "lambdarank_measures_summary": (["measure", "ci_method"], MEASURE_SUMMARY_VALUES, lambdarank_measures_summary),
    "lambdarank_sklearn": (["query_id", "measure"], ["value"], lambdarank_sklearn),
    "dl19_bm25_per_query": (["query_id", "k"], PER_QUERY_VALUES, dl19_bm25_per_query),
    "dl19_bm25_summary": (["k"], SUMMARY_VALUES, dl19_bm25_summary),
    "dl19_bm25_by_rank_per_query": (["query_id", "k"], PER_QUERY_VALUES, dl19_bm25_by_rank_per_query),
    "dl19_bm25_trec_eval": (["query_id", "measure"], ["value"], dl19_bm25_trec_eval),
    "dl19_arms_per_query": (["arm", "query_id", "k"], PER_QUERY_VALUES, dl19_arms_per_query),
    "dl19_arms_summary": (["arm", "k"], SUMMARY_VALUES, dl19_arms_summary),
    "dl19_arms_measures": (["arm", "query_id", "measure"], ["value"], dl19_arms_measures),
    "dl19_arms_measures_summary": (["arm", "measure", "ci_method"], MEASURE_SUMMARY_VALUES, dl19_arms_measures_summary),
    "daily_per_query": (["day", "arm", "query_id", "k"], PER_QUERY_VALUES, daily_per_query),
    "daily_summary": (["day", "arm", "k"], SUMMARY_VALUES, daily_summary),
    "steady_arms": (["day", "measure", "arm"], ARM_CHANGE_VALUES, steady_arms),
    "dl19_unjudged": (["query_id", "item_id", "runs"], ["best_rank", "exposure"], dl19_unjudged),
    "dl19_sampled_measures": (["arm", "query_id", "measure"], ["value"], dl19_sampled_measures),
    "dl19_sample_strata": (["arm"], ["population", "sampled"], dl19_sample_strata),
    "dl19_sampled_measures_summary": (["arm", "measure", "ci_method"], MEASURE_SUMMARY_VALUES + ["population"],
                                      dl19_sampled_measures_summary),
}


def cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):  # numpy integers too
        return str(int(value))
    value = float(value)  # numpy floats too: repr of the Python float, full precision
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    return repr(value)


def render(header: list[str], rows: list[tuple]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        assert len(row) == len(header), (header, row)
        writer.writerow([cell(value) for value in row])
    return out.getvalue()


def expected_files() -> dict[str, str]:
    """{file name: CSV text} of every expected seed, computed now."""
    return {f"expected_{model}.csv": render(keys + values, make()) for model, (keys, values, make) in MODELS.items()}


def write_expected(folder: Path = EXPECTED) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in expected_files().items():
        (folder / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_expected()
