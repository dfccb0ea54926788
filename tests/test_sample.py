"""Estimates from a sample of the queries (sample=fraction): the queries drawn are those of the seeded
hash of sql/query_sample.sql.j2, recomputed here in Python (the generator of tests/test_statistics.py),
and the summary's standard error carries the finite-population correction sqrt(1 - f) (Cochran,
Sampling Techniques, 1977, eq. 2.12), each segment a stratum, against numpy on the per-query values."""

import numpy as np
import pandas as pd
import pytest

import ndcg_sql
from conftest import EXAMPLES
from test_statistics import P, draw_state3, key_hash, query_key

TOL = dict(rel=1e-9, abs=1e-12)
Z = 1.959963984540054
DL = EXAMPLES / "trec_dl19_passage"
QRELS = str(DL / "qrels.dl19-passage.txt")


def dl19_run() -> pd.DataFrame:
    rows = [line.split() for line in open(DL / "run.dl19.bm25.top100.txt") if line.strip()]
    run = pd.DataFrame([(f[0], f[2], float(f[4])) for f in rows], columns=["query_id", "item_id", "score"])
    return run.assign(arm=np.where(run["query_id"].astype(int) % 3 == 0, "a", "b"))


def drawn(keys, fraction: float, seed: int) -> set:
    """The keys whose draw, keyed by (seed, 2^31 - 2, hash_31, hash_37) of the key's text, is below
    round(fraction (2^31 - 1))."""
    threshold = round(fraction * P)
    return {key for key in keys if draw_state3(seed, P - 1, key_hash(key, 31), key_hash(key, 37)) < threshold}


@pytest.mark.parametrize("fraction, seed", [(0.5, 3), (0.25, 7)])
def test_the_sample_is_the_seeded_hash_of_the_query_key(fraction, seed):
    run = dl19_run()
    result = ndcg_sql.evaluate(run, judgments=QRELS, measures=["nDCG@10"], sample=fraction, seed=seed, per_query=True)
    got = {r["query_id"] for r in result.per_query_records()}
    queries = set(run["query_id"])
    want = {q for q in queries if query_key(q) in drawn({query_key(q) for q in queries}, fraction, seed)}
    assert got == want and 0 < len(got) < len(queries)
    assert result.options["sample"] == fraction


def fpc_summary(values: np.ndarray, drawn_count: int, population: int):
    """mean, the standard error s/sqrt(n) sqrt(1 - f) with f = drawn / population, and the normal interval clipped."""
    mean, n = values.mean(), len(values)
    stderr = values.std(ddof=1) / np.sqrt(n) * np.sqrt(1.0 - drawn_count / population)
    return mean, stderr, max(mean - Z * stderr, 0.0), min(mean + Z * stderr, 1.0)


def test_the_interval_carries_the_finite_population_correction():
    run = dl19_run()
    names = ["nDCG@10", "AP", "P@1"]
    result = ndcg_sql.evaluate(run, judgments=QRELS, measures=names, ties="item-desc", sample=0.4, seed=1,
                               per_query=True)
    rows = pd.DataFrame(result.per_query_records())
    population = run["query_id"].nunique()
    drawn_count = len(drawn({query_key(q) for q in set(run["query_id"])}, 0.4, 1))
    for row in result.summary_records():
        values = rows.loc[rows["measure"] == row["measure"], "value"].to_numpy()
        mean, stderr, low, high = fpc_summary(values, drawn_count, population)
        assert row["population"] == population and row["queries"] == len(values) == drawn_count
        assert row["mean"] == pytest.approx(mean, **TOL) and row["stderr"] == pytest.approx(stderr, **TOL)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), **TOL)
        # P@1's values are 0 or 1: the normal interval, not Wilson's (which is for n independent draws)
        assert row["ci_method"] == "normal, clipped to [0, 1]"


def test_each_segment_is_a_stratum():
    run = dl19_run()
    result = ndcg_sql.evaluate(run, judgments=QRELS, measures=["nDCG@10"], segments="arm", sample=0.5, seed=2,
                               per_query=True)
    rows = pd.DataFrame(result.per_query_records())
    summary = {r["arm"]: r for r in result.summary_records()}
    assert set(summary) == {"a", "b"}
    for arm, row in summary.items():
        queries = set(run.loc[run["arm"] == arm, "query_id"])
        keys = drawn({query_key(arm, q) for q in queries}, 0.5, 2)
        values = rows.loc[rows["arm"] == arm, "value"].to_numpy()
        assert {query_key(arm, q) for q in rows.loc[rows["arm"] == arm, "query_id"]} == keys
        mean, stderr, low, high = fpc_summary(values, len(keys), len(queries))
        assert row["population"] == len(queries)
        assert (row["mean"], row["stderr"], row["ci_low"], row["ci_high"]) == pytest.approx((mean, stderr, low, high),
                                                                                            **TOL)


def test_a_sample_of_every_query_is_the_whole_evaluation_with_no_sampling_error():
    run = dl19_run()
    whole = ndcg_sql.evaluate(run, judgments=QRELS, measures=["nDCG@10"]).summary_records()[0]
    every = ndcg_sql.evaluate(run, judgments=QRELS, measures=["nDCG@10"], sample=1.0).summary_records()[0]
    assert every["mean"] == pytest.approx(whole["mean"], **TOL) and every["queries"] == whole["queries"]
    assert every["stderr"] == 0.0 and every["population"] == whole["queries"]


@pytest.mark.parametrize("options, words", [
    (dict(sample=0), r"sample \(--sample\) must be a fraction of the queries, greater than 0 and at most 1; got 0"),
    (dict(sample=1.5), r"sample \(--sample\) must be a fraction of the queries, greater than 0 and at most 1; got 1.5"),
    (dict(sample=True), r"sample \(--sample\) must be a fraction of the queries, greater than 0 and at most 1; got True"),
    (dict(sample=1e-12), r"sample \(--sample\) must be at least 1 / \(2\^31 - 1\)"),
    (dict(sample=0.5, bootstrap=10), r"sample \(--sample\) with bootstrap \(--bootstrap\): the bootstrap interval"),
    (dict(sample=0.5, intervals=False), r"sample \(--sample\) gives an estimate, which comes with its interval"),
    (dict(sample=0.5, judgments_table="qrels", missing_queries="zero"), r"sample \(--sample\) with missing_queries='zero'"),
])
def test_sample_option_errors(options, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.to_sql("runs", k=[10], **options)


def test_the_command_line_samples_alike(tmp_path):
    import subprocess
    import sys

    run = dl19_run()
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    done = subprocess.run([sys.executable, "-m", "ndcg_sql.cli", "evaluate", str(path), "--judgments", QRELS,
                           "--measures", "nDCG@10", "--sample", "0.5", "--seed", "3", "--format", "json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    python = ndcg_sql.evaluate(run, judgments=QRELS, measures=["nDCG@10"], sample=0.5, seed=3).summary_records()[0]
    assert f'"population": {python["population"]}' in done.stdout and f'"queries": {python["queries"]}' in done.stdout
