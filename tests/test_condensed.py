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


# ------------------------------------------------------------------ judgments below 0
# trec_eval reads a relevance below 0 as "in the pool, not judged" (form_res_rels.c: RELVALUE_UNJUDGED),
# so -J drops such a document with the ones never judged: negative_labels="unjudged", which
# convention="trec_eval" sets. Sakai's condensed lists keep every judged item: negative_labels="zero".
NEGATIVE = ("trec_eval_test/results.test", "trec_eval_test/qrels.rel_level")  # 304 judgments of -1
ALL_NAMES = dict(NAMES, **{"AP@10": "map_cut_10", "Success@5": "success_5", "nDCG@5": "ndcg_cut_5"})


def per_query_values(result):
    return {(r["query_id"], r["measure"]): r["value"] for r in result.per_query_records()}


@pytest.mark.parametrize("judged_only", [True, False], ids=["condensed", "unjudged-zero"])
def test_negative_judgments_are_read_as_trec_eval_reads_them(judged_only):
    run_file, qrels_file = NEGATIVE
    qrels, run = read(EXAMPLES / qrels_file, "qrels"), read(EXAMPLES / run_file, "run")
    assert any(label < 0 for labels in qrels.values() for label in labels.values())
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(ALL_NAMES.values()),
                                              judged_docs_only_flag=judged_only).evaluate(run)
    result = ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file), convention="trec_eval",
                               unjudged="condense" if judged_only else "zero", measures=list(ALL_NAMES))
    assert result.options["negative_labels"] == "unjudged"
    got = per_query_values(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, theirs in ALL_NAMES.items():
            assert got[(qid, name)] == pytest.approx(values[theirs], **TOL), (qid, name)


def test_sakai_condensed_lists_keep_negative_judgments_as_judged():
    """negative_labels="zero": a negative judgment is a judged item of label 0, kept in the condensed
    list; that is trec_eval -J on the qrels whose negative levels are written 0, and another number
    than trec_eval's reading where a negative judgment was ranked above a judged item."""
    run_file, qrels_file = NEGATIVE
    qrels, run = read(EXAMPLES / qrels_file, "qrels"), read(EXAMPLES / run_file, "run")
    as_zero = {q: {d: max(label, 0) for d, label in labels.items()} for q, labels in qrels.items()}
    expected = pytrec_eval.RelevanceEvaluator(as_zero, set(ALL_NAMES.values()), judged_docs_only_flag=True).evaluate(run)
    # trec_eval's other options, given one by one (the convention sets negative_labels="unjudged")
    options = dict(gain="linear", ties="item-desc", score_precision="float32", unjudged="condense",
                   measures=list(ALL_NAMES))
    sakai = per_query_values(ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file),
                                               negative_labels="zero", **options))
    for qid, values in expected.items():
        for name, theirs in ALL_NAMES.items():
            assert sakai[(qid, name)] == pytest.approx(values[theirs], **TOL), (qid, name)
    trec = per_query_values(ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file),
                                              negative_labels="unjudged", **options))
    assert {q for (q, name) in sakai if sakai[(q, name)] != pytest.approx(trec[(q, name)], **TOL)} == {"303"}


def test_a_negative_judgment_is_not_judged_under_unjudged():
    """Judged@10 counts the judged items of the top 10 (trec_eval's order: score, then docno
    descending): a negative judgment counts under negative_labels="zero", not under "unjudged"."""
    run_file, qrels_file = NEGATIVE
    qrels, run = read(EXAMPLES / qrels_file, "qrels"), read(EXAMPLES / run_file, "run")
    for reading, judged in (("zero", lambda label: True), ("unjudged", lambda label: label >= 0)):
        result = ndcg_sql.evaluate(str(EXAMPLES / run_file), judgments=str(EXAMPLES / qrels_file), ties="item-desc",
                                   score_precision="float32", negative_labels=reading, measures=["Judged@10"])
        for (qid, _), value in per_query_values(result).items():
            by_docno = sorted(run[qid].items(), key=lambda pair: pair[0].encode(), reverse=True)
            top = sorted(by_docno, key=lambda pair: -pair[1])[:10]  # stable: ties keep docno descending
            want = sum(d in qrels[qid] and judged(qrels[qid][d]) for d, _ in top) / len(top)
            assert value == pytest.approx(want, **TOL), (reading, qid)


def test_trec_eval_refuses_the_other_reading_of_negative_judgments():
    with pytest.raises(ndcg_sql.OptionError, match="convention 'trec_eval' sets negative_labels='unjudged'; got "
                                                   "negative_labels='zero'"):
        ndcg_sql.to_sql("runs", judgments_table="qrels", convention="trec_eval", negative_labels="zero",
                        unjudged="condense")
