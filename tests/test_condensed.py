"""Condensed lists (unjudged="condense"): unjudged items removed before ranking (Sakai, SIGIR 2007),
against pytrec_eval's judged_docs_only_flag=True (trec_eval -J) on the bundled TREC data."""

from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import ndcg_sql
from conftest import EXAMPLES

TOL = dict(rel=1e-9, abs=1e-9)
CASES = [("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
         ("trec_eval_test/results.test", "trec_eval_test/qrels.test")]
NAMES = {"nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "P@5": "P_5", "AP": "map", "RR": "recip_rank", "R@10": "recall_10"}


def read(path, kind):
    out = defaultdict(dict)
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith("#"):
            out[f[0]][f[2]] = int(f[3]) if kind == "qrels" else float(np.float32(float(f[4])))
    return dict(out)


@pytest.mark.parametrize("run_file, qrels_file", CASES)
def test_condensed_lists_are_trec_eval_dash_j(run_file, qrels_file):
    qrels, run = read(EXAMPLES / qrels_file, "qrels"), read(EXAMPLES / run_file, "run")
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(NAMES.values()), judged_docs_only_flag=True).evaluate(run)
    result = ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file), convention="trec_eval",
                               unjudged="condense", measures=list(NAMES))
    got = {(r["query_id"], r["measure"]): r["value"] for r in result.per_query_records()}
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, theirs in NAMES.items():
            assert got[(qid, name)] == pytest.approx(values[theirs], **TOL), (qid, name)
    # condensing changes the numbers where unjudged items were ranked above judged ones
    plain = ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file), ties="item-desc",
                              measures=["nDCG", "Judged"])  # Judged is not trec_eval's: no convention
    assert any(r["value"] < 1 for r in plain.per_query_records() if r["measure"] == "Judged")
    assert result.options["unjudged"] == "condense" and plain.options["unjudged"] == "zero"


def test_condensed_ndcg_summary_and_empty_lists():
    run = pd.DataFrame({"query_id": ["a", "a", "a", "b"], "item_id": ["x", "u", "y", "v"], "score": [3.0, 2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["a", "a", "b"], "item_id": ["x", "y", "w"], "label": [0, 1, 1]})
    result = ndcg_sql.evaluate(run, judgments=qrels, k=[2], gain="linear", unjudged="condense")
    got = {r["query_id"]: r for r in result.per_query_records()}
    # a: condensed x (0), y (1): DCG@2 = 1/log2(3); the ideal y, x: 1. b: nothing judged retrieved: 0, still counted
    assert got["a"]["dcg"] == pytest.approx(1 / np.log2(3), **TOL) and got["a"]["idcg"] == 1.0
    assert got["b"]["ndcg"] == 0.0 and result.summary_records()[0]["queries"] == 2
    plain = ndcg_sql.evaluate(run, judgments=qrels, k=[2], gain="linear")
    assert {r["query_id"]: r["dcg"] for r in plain.per_query_records()}["a"] == 0.0


def test_condense_needs_judgments():
    with pytest.raises(ndcg_sql.OptionError, match="unjudged='condense' .*needs judgments"):
        ndcg_sql.to_sql("runs", unjudged="condense")
    with pytest.raises(ndcg_sql.OptionError, match="unjudged must be one of zero, condense"):
        ndcg_sql.to_sql("runs", judgments_table="qrels", unjudged="drop")
