"""ndcg_sql against established tools, run on the bundled real data.

- scikit-learn ndcg_score: linear gain, tie-averaged, ideal from the list.
- pytrec_eval (trec_eval 9.x/10 inside): linear gain, ideal from all judgments,
  ties by docno descending; it stores scores as float32, so the same float32
  values are given to ndcg_sql.
"""

from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

import ndcg_sql
from conftest import EXAMPLES, per_query_map

TOL = dict(rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", ["rank.train.scored.csv", "rank.test.scored.csv"])
@pytest.mark.parametrize("k", [1, 3, 5, 10, None])
def test_scikit_learn_ndcg_score(name, k):
    path = EXAMPLES / "lightgbm_lambdarank" / name
    data = pd.read_csv(path)
    result = ndcg_sql.evaluate(str(path), k=[k], item_col="doc_id", gain="linear", ties="average")
    got = {q: v[3] for (q, _), v in per_query_map(result).items()}
    compared = 0
    for qid, group in data.groupby("query_id"):
        if len(group) < 2:
            # scikit-learn refuses a single-item list; its NDCG is 1 when the item is relevant, else 0
            expected = 1.0 if group["label"].iloc[0] > 0 else 0.0
        else:
            expected = ndcg_score([group["label"].to_numpy()], [group["score"].to_numpy()], k=k, ignore_ties=False)
        assert got[qid] == pytest.approx(expected, **TOL), qid
        compared += 1
    assert compared == data["query_id"].nunique()
    mean = next(r["ndcg"] for r in result.summary_records())
    assert mean == pytest.approx(np.mean(list(got.values())), **TOL)


def read_trec_run(path):
    rows = []
    for line in open(path):
        f = line.split()
        if f:
            rows.append((f[0], f[2], float(np.float32(float(f[4])))))
    return pd.DataFrame(rows, columns=["query_id", "item_id", "score"])


def read_qrels(path):
    qrels = defaultdict(dict)
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith("#"):
            qrels[f[0]][f[2]] = int(f[3])
    return qrels


TREC_CASES = [
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test"),
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test.with-comments"),
    ("trec_eval_test/results.trunc", "trec_eval_test/qrels.test"),
    ("trec_dl19_passage/run.dl19.bm25.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
    ("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
]
CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]


@pytest.mark.parametrize("run_file, qrels_file", TREC_CASES)
def test_pytrec_eval(run_file, qrels_file):
    run = read_trec_run(EXAMPLES / run_file)
    qrels = read_qrels(EXAMPLES / qrels_file)
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    evaluator = pytrec_eval.RelevanceEvaluator(dict(qrels), {"ndcg", "ndcg_cut." + ",".join(map(str, CUTS))})
    expected = evaluator.evaluate(dict(run_dict))

    result = ndcg_sql.evaluate(
        run, k=CUTS + [None], judgments=str(EXAMPLES / qrels_file), gain="linear", ties="item-desc"
    )
    got = per_query_map(result)
    assert {q for q, _ in got} == set(expected)
    for qid, measures in expected.items():
        assert got[(qid, None)][3] == pytest.approx(measures["ndcg"], **TOL), qid
        for k in CUTS:
            assert got[(qid, k)][3] == pytest.approx(measures[f"ndcg_cut_{k}"], **TOL), (qid, k)
    summary = {r["k"]: r for r in result.summary_records()}
    assert summary[10]["ndcg"] == pytest.approx(np.mean([m["ndcg_cut_10"] for m in expected.values()]), **TOL)


def test_dl19_bm25_matches_published_baseline():
    # trec_eval's nDCG@10 of the Anserini BM25 baseline on DL19 passage is 0.5058
    result = ndcg_sql.evaluate(
        str(EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt"),
        k=10,
        judgments=str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"),
        gain="linear",
        ties="item-desc",
    )
    assert round(result.summary_records()[0]["ndcg"], 4) == 0.5058


def test_missing_queries_counted_as_zero_like_trec_eval_c():
    # results.trunc lacks query 302; trec_eval -c counts it as 0 in the mean
    run = read_trec_run(EXAMPLES / "trec_eval_test/results.trunc")
    qrels = read_qrels(EXAMPLES / "trec_eval_test/qrels.test")
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    per_query = pytrec_eval.RelevanceEvaluator(dict(qrels), {"ndcg_cut.10"}).evaluate(dict(run_dict))
    expected_mean = sum(m["ndcg_cut_10"] for m in per_query.values()) / len(qrels)
    result = ndcg_sql.evaluate(
        run, k=10, judgments=str(EXAMPLES / "trec_eval_test/qrels.test"), gain="linear", ties="item-desc",
        missing_queries="zero",
    )
    summary = result.summary_records()[0]
    assert summary["queries"] == len(qrels) == 3
    assert summary["ndcg"] == pytest.approx(expected_mean, **TOL)
    assert result.coverage["missing_from_run"] == 1
