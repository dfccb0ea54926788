"""Query weights (weight_col): the weighted mean sum(w x) / sum(w) and its standard error, against
scikit-learn's ndcg_score(sample_weight=...), LightGBM's query-weighted ndcg@k (run by LightGBM) and
numpy, on the bundled LightGBM lambdarank data; bad weights are refused by name."""

import json
import subprocess
import sys

import duckdb
import lightgbm
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score

import dbt_standin
import ndcg_sql
from conftest import EXAMPLES, ROOT

TOL = dict(rel=1e-9, abs=1e-9)
LGB = EXAMPLES / "lightgbm_lambdarank" / "rank.test.scored.csv"


def weighted_data():
    data = pd.read_csv(LGB)
    data["w"] = (data["query_id"] * 7 % 5 + 1) * 0.5  # 0.5 .. 2.5, the same on every row of a query
    return data


def test_weighted_mean_and_stderr_against_numpy():
    data = weighted_data()
    result = ndcg_sql.evaluate(data, item_col="doc_id", k=[3, None], weight_col="w", intervals=True)
    rows = result.per_query_records()
    for k in (3, None):
        x = np.array([r["ndcg"] for r in rows if r["k"] == k])
        w = np.array([r["weight"] for r in rows if r["k"] == k])
        mean = (w * x).sum() / w.sum()
        n = len(x)
        stderr = np.sqrt(n / (n - 1) * (w ** 2 * (x - mean) ** 2).sum()) / w.sum()
        row = next(r for r in result.summary_records() if r["k"] == k)
        assert row["ndcg"] == pytest.approx(mean, **TOL)
        assert row["stderr"] == pytest.approx(stderr, **TOL)
    weights = data.groupby("query_id")["w"].first()
    assert {r["query_id"]: r["weight"] for r in rows} == weights.to_dict()
    # equal weights give the unweighted mean and standard error
    equal = ndcg_sql.evaluate(data.assign(w=3.0), item_col="doc_id", k=[3], weight_col="w", intervals=True)
    plain = ndcg_sql.evaluate(data, item_col="doc_id", k=[3], intervals=True)
    for key in ("ndcg", "stderr", "ci_low", "ci_high"):
        assert equal.summary_records()[0][key] == pytest.approx(plain.summary_records()[0][key], **TOL)


@pytest.mark.parametrize("k", [1, 5, None])
def test_scikit_learn_sample_weight(k):
    data = weighted_data()
    result = ndcg_sql.evaluate(data, item_col="doc_id", k=[k], weight_col="w", convention="sklearn")
    # scikit-learn takes equal-length lists: pad each with label-0 items scored below every real one
    width = data.groupby("query_id").size().max()
    low = data["score"].min() - 1e6
    truth, scores, weights = [], [], []
    for _, group in data.groupby("query_id"):
        pad = width - len(group)
        truth.append(list(group["label"]) + [0] * pad)
        scores.append(list(group["score"]) + [low] * pad)
        weights.append(group["w"].iloc[0])
    expected = ndcg_score(truth, scores, k=k, sample_weight=weights, ignore_ties=False)
    assert result.summary_records()[0]["ndcg"] == pytest.approx(expected, **TOL)


def test_lightgbm_query_weighted_ndcg_run_by_lightgbm():
    data = weighted_data()
    # a query with no relevant item: LightGBM counts it 1, with its weight
    first = data["query_id"].iloc[0]
    data.loc[data["query_id"] == first, "label"] = 0
    data = data.sort_values("query_id", kind="stable").reset_index(drop=True)
    data["row"] = range(len(data))
    sizes = data.groupby("query_id", sort=False).size().to_list()
    features = data[["score"]].to_numpy() + np.random.default_rng(0).normal(size=(len(data), 1))
    train = lightgbm.Dataset(features, label=data["label"], group=sizes, weight=data["w"])
    evals = {}
    booster = lightgbm.train(
        {"objective": "lambdarank", "metric": "ndcg", "eval_at": [1, 3, 10], "verbosity": -1, "num_threads": 1,
         "deterministic": True, "min_data_in_leaf": 5},
        train, num_boost_round=3, valid_sets=[train], valid_names=["train"],
        callbacks=[lightgbm.record_evaluation(evals)])
    data["prediction"] = booster.predict(features)
    result = ndcg_sql.evaluate(data, item_col="doc_id", score_col="prediction", k=[1, 3, 10], weight_col="w",
                               convention="lightgbm", row_col="row")
    got = {r["k"]: r["ndcg"] for r in result.summary_records()}
    for k in (1, 3, 10):
        assert got[k] == pytest.approx(evals["train"][f"ndcg@{k}"][-1], **TOL), k
    assert next(r for r in result.summary_records() if r["k"] == 1)["no_relevant"] == 1


def test_weights_from_the_command_line_and_to_sql():
    data = weighted_data()
    con = duckdb.connect()
    con.register("runs", data)
    sql = ndcg_sql.to_sql("runs", item_col="doc_id", k=[5], weight_col="w", what="summary")
    direct = ndcg_sql.evaluate(data, item_col="doc_id", k=[5], weight_col="w")
    assert con.sql(sql).fetchall()[0][1] == pytest.approx(direct.summary_records()[0]["ndcg"], **TOL)


def test_weights_on_the_command_line(tmp_path):
    path = tmp_path / "weighted.csv"
    weighted_data().to_csv(path, index=False)
    done = subprocess.run([sys.executable, "-m", "ndcg_sql.cli", "evaluate", str(path), "--item-col", "doc_id",
                           "--k", "5", "--weight-col", "w", "--format", "json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["options"]["weight_col"] == "w"
    direct = ndcg_sql.evaluate(str(path), item_col="doc_id", k=[5], weight_col="w")
    assert out["summary"] == direct.summary_records()


@pytest.mark.parametrize("change, words", [
    (lambda d: d.assign(w=np.where(d.index % 2 == 0, 1.0, 2.0)), "weights that differ within a query"),
    (lambda d: d.assign(w=np.where(d["query_id"] == 3, np.inf, d["w"])), "NaN or infinite weights"),
    (lambda d: d.assign(w=d["w"].where(d["query_id"] != 3, None)), "NULL weights"),
    (lambda d: d.assign(w=np.where(d["query_id"] == 3, -1.0, d["w"])), "negative weights"),
    (lambda d: d.assign(w=0.0), "weights that are all 0"),
])
def test_bad_weights_are_refused(change, words):
    data = change(weighted_data())
    with pytest.raises(ndcg_sql.InputError, match=words) as raised:
        ndcg_sql.evaluate(data, item_col="doc_id", k=[5], weight_col="w")
    assert "'w'" in str(raised.value)
    if words not in ("weights that are all 0",):
        assert "e.g. in query_id" in str(raised.value)


def test_weight_options_refused():
    data = weighted_data()
    with pytest.raises(ndcg_sql.InputError, match="no weight column 'traffic'"):
        ndcg_sql.evaluate(data, item_col="doc_id", k=[5], weight_col="traffic")
    with pytest.raises(ndcg_sql.OptionError, match="bootstrap"):
        ndcg_sql.to_sql("runs", weight_col="w", bootstrap=10)
    with pytest.raises(ndcg_sql.OptionError, match="missing_queries='zero'"):
        ndcg_sql.to_sql("runs", weight_col="w", judgments_table="qrels", missing_queries="zero")
    with pytest.raises(TypeError, match="unexpected keyword argument 'weight_col'"):
        ndcg_sql.compare(data, data, item_col="doc_id", weight_col="w")


@pytest.mark.parametrize("convention", ["lightgbm", "xgboost"])
def test_dbt_summary_applies_the_no_relevant_weight_rule_in_duckdb(convention):
    """dbt's ndcg_per_query and ndcg_summary (rendered by the stand-in, run by DuckDB) under
    convention='lightgbm' or 'xgboost' with weights give the tool's weighted ndcg@k (LightGBM
    rank_metric.hpp, NDCGMetric::Eval; XGBoost rank_metric.cc, EvalNDCG::Eval): sum over queries
    of (w * ndcg, or 1 for a query with no relevant item) divided by the sum of all weights.
    Expected values computed by hand below."""
    runs = pd.DataFrame({
        "query_id": [1, 1, 2, 2, 3, 3],
        "item_id": ["a", "b", "c", "d", "e", "f"],
        "score": [3.0, 2.0, 5.0, 1.0, 1.0, 2.0],
        "label": [0, 1, 2, 1, 0, 0],
        "rn": [0, 1, 2, 3, 4, 5],
        "w": [2.0, 2.0, 1.0, 1.0, 4.0, 4.0],
    })
    # gain 2^label - 1, discount 1 / log2(rank + 1):
    # q1 (w 2): a (0), b (1): DCG@1 0, NDCG@all = (1 / log2 3) / 1
    # q2 (w 1): c (2), d (1): the ideal order, NDCG 1 at every k
    # q3 (w 4): no relevant item: NDCG 1 (both conventions), adds 1, not 4
    ndcg = {1: np.array([0.0, 1.0, 1.0]), None: np.array([1 / np.log2(3), 1.0, 1.0])}
    w = np.array([2.0, 1.0, 4.0])
    term = {k: np.array([w[0] * x[0], w[1] * x[1], 1.0]) for k, x in ndcg.items()}
    expected = {1: 2 / 7, None: (2 / np.log2(3) + 2) / 7}
    for k in (1, None):
        assert term[k].sum() / w.sum() == pytest.approx(expected[k], **TOL)
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    con = duckdb.connect()
    con.register("runs", runs)
    per_query = macros.ndcg_per_query('"runs"', k=[1, "all"], convention=convention, row_col="rn", weight_col="w")
    con.sql(f"CREATE TABLE per_query_rows AS {per_query}")
    summary = con.sql(macros.ndcg_summary("per_query_rows", k=[1, "all"], weighted=True, convention=convention,
                                          intervals=True))
    rows = {r["k"]: r for r in (dict(zip(summary.columns, row)) for row in summary.fetchall())}
    n = len(w)
    for k in (1, None):
        assert rows[k]["ndcg"] == pytest.approx(expected[k], **TOL), k
        assert rows[k]["no_relevant"] == 1 and rows[k]["queries"] == n
        # the linearised standard error of the ratio mean, with LightGBM's terms (sql/summary.sql.j2)
        stderr = np.sqrt(n / (n - 1) * ((term[k] - w * expected[k]) ** 2).sum()) / w.sum()
        assert rows[k]["stderr"] == pytest.approx(stderr, **TOL), k
    # the plain weighted mean (every query adds w * ndcg) is another number: the rule is applied
    plain = con.sql(macros.ndcg_summary("per_query_rows", k=[1, "all"], weighted=True)).fetchall()
    assert {row[0]: row[1] for row in plain}[None] == pytest.approx((2 / np.log2(3) + 1 + 4) / 7, **TOL)
    # and the Python runner agrees
    runner = ndcg_sql.evaluate(runs, k=[1, None], convention=convention, row_col="rn", weight_col="w")
    assert {r["k"]: r["ndcg"] for r in runner.summary_records()} == pytest.approx(expected, **TOL)


def test_dbt_summaries_refuse_what_the_convention_refuses():
    """dbt's summary macros take convention= and refuse what the runner refuses (the one rule,
    sql/options/weight_rule.sql and resolve_convention.sql): weights under trec_eval, measures
    with weights under XGBoost's rule, measures the tool does not compute."""
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    with pytest.raises(dbt_standin.CompilerError, match="convention 'trec_eval' has no query weights"):
        macros.ndcg_summary("per_query_rows", k=[5], weighted=True, convention="trec_eval")
    with pytest.raises(dbt_standin.CompilerError, match="'xgboost' with weight_col is XGBoost's weighted ndcg@k"):
        macros.ndcg_measures_summary("per_query_rows", ["nDCG@5"], weighted=True, convention="xgboost")
    with pytest.raises(dbt_standin.CompilerError, match=r"reproduces XGBoost's measures only \(nDCG, AP, P\), not RR@5"):
        macros.ndcg_measures_summary("per_query_rows", ["nDCG@5", "RR@5"], convention="xgboost")
    # unweighted, nDCG only: accepted
    assert "WITH" in macros.ndcg_measures_summary("per_query_rows", ["nDCG@5"], convention="xgboost")
