"""Standard errors, intervals and paired comparisons against scipy and numpy."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ndcg_sql
from conftest import EXAMPLES
from test_cli import run_cli

TOL = dict(rel=1e-9, abs=1e-9)
DL = EXAMPLES / "trec_dl19_passage"
BM25 = str(DL / "run.dl19.bm25.top100.txt")
SPLADE = str(DL / "run.dl19.splade_pp_ed.top100.txt")
QRELS = str(DL / "qrels.dl19-passage.txt")
TREC = dict(judgments=QRELS, gain="linear", ties="item-desc")
Z = stats.norm.ppf(0.975)


def test_summary_intervals_match_scipy():
    result = ndcg_sql.evaluate(BM25, k=[5, 10, None], intervals=True, **TREC)
    per_query = pd.DataFrame(result.per_query_records())
    for row in result.summary_records():
        values = per_query.loc[per_query["k"].isna() if row["k"] is None else per_query["k"] == row["k"], "ndcg"]
        se = stats.sem(values)
        assert row["ndcg_stderr"] == pytest.approx(se, **TOL)
        assert row["ndcg_ci_low"] == pytest.approx(values.mean() - Z * se, **TOL)
        assert row["ndcg_ci_high"] == pytest.approx(values.mean() + Z * se, **TOL)


def test_measure_summary_intervals_match_scipy():
    result = ndcg_sql.evaluate(BM25, measures=["AP", "P@10"], **TREC)
    per_query = pd.DataFrame(result.per_query_records())
    for row in result.summary_records():
        values = per_query.loc[per_query["measure"] == row["measure"], "value"]
        interval = stats.norm.interval(0.95, loc=values.mean(), scale=stats.sem(values))
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(interval, **TOL)


def test_one_query_has_no_interval():
    data = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [2.0, 1.0], "label": [0, 1]})
    row = ndcg_sql.evaluate(data, k=1, intervals=True).summary_records()[0]
    assert row["queries"] == 1 and row["ndcg_stderr"] is None and row["ndcg_ci_low"] is None


@pytest.mark.parametrize("measure", ["nDCG@10", "AP", "RR", "P(rel=2)@5"])
def test_compare_matches_scipy_paired_t_test(measure):
    result = ndcg_sql.compare(SPLADE, BM25, [measure], **TREC)
    a = {r["query_id"]: r["value"] for r in ndcg_sql.evaluate(SPLADE, measures=[measure], **TREC).per_query_records()}
    b = {r["query_id"]: r["value"] for r in ndcg_sql.evaluate(BM25, measures=[measure], **TREC).per_query_records()}
    queries = sorted(a)
    x, y = np.array([a[q] for q in queries]), np.array([b[q] for q in queries])
    expected = stats.ttest_rel(x, y)
    interval = expected.confidence_interval(0.95)
    row = result.summary[0]
    assert row["queries"] == len(queries) and row["df"] == len(queries) - 1
    assert row["mean_a"] == pytest.approx(x.mean(), **TOL) and row["mean_b"] == pytest.approx(y.mean(), **TOL)
    assert row["mean_difference"] == pytest.approx((x - y).mean(), **TOL)
    assert row["t"] == pytest.approx(expected.statistic, **TOL)
    assert row["t_p_value"] == pytest.approx(expected.pvalue, **TOL)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((interval.low, interval.high), **TOL)
    d = x - y
    assert (row["wins"], row["ties"], row["losses"]) == ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())
    diffs = {r["query_id"]: r["difference"] for r in result.per_query.fetchdf().to_dict("records")}
    assert diffs == {q: a[q] - b[q] for q in queries}


def paired_frames(rng, n):
    """Two runs over n queries, 3 items each, labels drawn so differences often tie or repeat."""
    rows_a, rows_b = [], []
    for q in range(n):
        labels = rng.integers(0, 3, size=3)
        for i, label in enumerate(labels):
            rows_a.append((q, i, float(rng.integers(0, 3)), int(label)))
            rows_b.append((q, i, float(rng.integers(0, 3)), int(label)))
    columns = ["query_id", "item_id", "score", "label"]
    return pd.DataFrame(rows_a, columns=columns), pd.DataFrame(rows_b, columns=columns)


def scipy_exact_permutation_p(d):
    return stats.permutation_test(
        (d, np.zeros_like(d)), lambda x, y: np.mean(x - y), permutation_type="samples",
        n_resamples=np.inf, alternative="two-sided",
    ).pvalue


@pytest.mark.parametrize("seed", range(8))
def test_exact_permutation_test_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    a, b = paired_frames(rng, int(rng.integers(3, 11)))
    result = ndcg_sql.compare(a, b, ["nDCG@3", "P@2"], ties="item-asc", permutations=5000)
    per_query = result.per_query.fetchdf()
    for row in result.summary:
        d = per_query.loc[per_query["measure"] == row["measure"], "difference"].to_numpy()
        assert row["permutation_kind"] == "exact"
        assert row["permutation_p_value"] == pytest.approx(scipy_exact_permutation_p(d), **TOL)


def test_sampled_permutation_test_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(42)
    a, b = paired_frames(rng, 15)  # 2^15 sign patterns > 4000: sampled
    first = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=4000, seed=7).summary[0]
    again = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=4000, seed=7).summary[0]
    assert first["permutation_kind"] == "sampled"
    assert first["permutation_p_value"] == again["permutation_p_value"]
    d = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=1).per_query.fetchdf()["difference"].to_numpy()
    exact = scipy_exact_permutation_p(d)
    # 4000 draws: the standard error of the estimate is at most 0.008
    assert abs(first["permutation_p_value"] - exact) < 0.04


def test_queries_only_one_run_has_are_counted_not_paired():
    a = pd.DataFrame({"query_id": [1, 1, 2, 2, 3], "item_id": [1, 2, 1, 2, 1], "score": [2.0, 1, 2, 1, 1],
                      "label": [1, 0, 0, 1, 1]})
    b = a[a["query_id"] != 3]
    row = ndcg_sql.compare(a, b, ["nDCG@1"]).summary[0]
    assert (row["queries"], row["only_a"], row["only_b"]) == (2, 1, 0)
    assert (row["wins"], row["ties"], row["losses"]) == (0, 2, 0)
    assert row["t"] is None and row["t_p_value"] is None  # all differences 0: t undefined (scipy: nan)
    assert row["permutation_p_value"] == 1.0


@pytest.mark.parametrize("kwargs, words", [
    (dict(permutations=0), "permutations must be"), (dict(seed=-1), "seed must be"),
    (dict(k=10), "not k"),
])
def test_compare_option_errors(kwargs, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.compare(BM25, BM25, **TREC, **kwargs)


def test_cli_compare_json_equals_python():
    done = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--gain", "linear", "--ties", "item-desc",
                   "--measures", "nDCG@10", "AP", "--format", "json")
    assert done.returncode == 0, done.stderr
    direct = ndcg_sql.compare(SPLADE, BM25, ["nDCG@10", "AP"], **TREC)
    assert json.loads(done.stdout)["summary"] == direct.summary


def test_cli_compare_table_and_per_query_csv(tmp_path):
    import csv

    path = tmp_path / "pairs.csv"
    done = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--convention", "trec_eval",
                   "--measures", "nDCG@10", "--per-query", str(path))
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()[:2]
    assert header.split()[:3] == ["measure", "queries", "mean_a"] and row.split()[:2] == ["nDCG@10", "43"]
    rows = list(csv.DictReader(open(path)))
    assert len(rows) == 43
    assert all(float(r["difference"]) == float(r["a"]) - float(r["b"]) for r in rows)
    bad = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--k", "10")
    assert bad.returncode == 2 and "not --k" in bad.stderr
