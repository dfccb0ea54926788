"""Measures beyond the peers' common set: Judged@k (ir_measures Judged), against ir_measures and
the numpy reference on the bundled TREC DL 2019 runs and LightGBM lambdarank data."""

from collections import defaultdict

import ir_measures
import pandas as pd
import pytest

import ndcg_sql
import reference
from conftest import EXAMPLES
from ndcg_sql.context import parse_measure

TOL = dict(rel=1e-9, abs=1e-9)
DL = EXAMPLES / "trec_dl19_passage"
QRELS = DL / "qrels.dl19-passage.txt"
LGB = EXAMPLES / "lightgbm_lambdarank" / "rank.test.scored.csv"
RUNS = ["run.dl19.bm25.top100.txt", "run.dl19.splade_pp_ed.top100.txt"]


def read_run(path):
    rows = [line.split() for line in open(path) if line.strip()]
    return pd.DataFrame([(f[0], f[2], float(f[4])) for f in rows], columns=["query_id", "item_id", "score"])


def per_query(result):
    return {(r["query_id"], r["measure"]): r["value"] for r in result.per_query_records()}


@pytest.mark.parametrize("run_name", RUNS)
def test_judged_is_ir_measures_judged(run_name):
    names = ["Judged@1", "Judged@10", "Judged@20", "Judged@1000", "Judged"]
    run = read_run(DL / run_name)
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = defaultdict(dict)
    for metric in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names], qrels, scored):
        expected[metric.query_id][str(metric.measure)] = metric.value
    # ir_measures orders by score descending, then document id ascending
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-asc", measures=names)
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name in names:
            assert got[(qid, name)] == pytest.approx(values[name], **TOL), (qid, name)
    aggregate = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qrels, scored)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    for measure, value in aggregate.items():
        assert summary[str(measure)] == pytest.approx(value, **TOL), measure


@pytest.mark.parametrize("ties", ["average", "item-desc"])
def test_judged_against_the_reference(ties):
    run = read_run(DL / RUNS[0])
    qrels = pd.read_csv(QRELS, sep=" ", header=None, names=["query_id", "iter", "item_id", "label"], dtype={"query_id": str, "item_id": str})
    judged = defaultdict(set)
    for q, d in zip(qrels["query_id"], qrels["item_id"]):
        judged[q].add(d)
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties=ties, measures=["Judged@5", "Judged@30"])
    got = per_query(result)
    items = defaultdict(list)
    for q, d, s in run.itertuples(index=False):
        items[q].append((d, s, 0))
    for (qid, name), value in got.items():
        k = parse_measure(name).k
        assert value == pytest.approx(reference.judged_share(items[qid], judged[qid], k, ties), **TOL), (qid, name)


def test_judged_without_judgments_is_one_and_missing_queries_count_zero():
    result = ndcg_sql.evaluate(str(LGB), item_col="doc_id", measures=["Judged@5", "Judged"])
    assert {row["value"] for row in result.per_query_records()} == {1.0}
    run = read_run(DL / RUNS[0])
    dropped = run[run["query_id"] != "1037798"]
    result = ndcg_sql.evaluate(dropped, judgments=str(QRELS), ties="item-asc", measures=["Judged@10"],
                               missing_queries="zero")
    assert per_query(result)[("1037798", "Judged@10")] == 0.0


def test_judged_names_and_errors():
    assert parse_measure("judged@10").name == "Judged@10"
    assert parse_measure("Judged").definition()["source"].startswith("ir_measures Judged")
    with pytest.raises(ndcg_sql.OptionError, match="Judged has no relevance threshold"):
        parse_measure("Judged(rel=2)@10")
