"""SetP, the precision of the whole ranked list (trec_eval's set_P, ir_measures SetP), against
pytrec_eval per query (to 1e-9) on trec_eval's own test data (with judgments below 0) and the
bundled DL19 runs, at relevance levels 1 and 2; its name and mean against ir_measures; a
hand-worked list; tie averaging (its value does not depend on the order) and a query missing
from the run (trec_eval -c: 0); every engine of tests/engines.py against pytrec_eval."""

from collections import defaultdict

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import ndcg_sql
from conftest import EXAMPLES
from test_peers import read_qrels, read_trec_run
from test_warehouses import engine  # noqa: F401 (engine is a fixture)

TOL = dict(rel=1e-9, abs=1e-9)
CASES = [
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test"),
    ("trec_eval_test/results.test", "trec_eval_test/qrels.rel_level"),  # judgments of -1: not relevant
    ("trec_dl19_passage/run.dl19.bm25.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
    ("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
]
#: trec_eval's reading of the input: scores as given, ties by item id descending, a judgment below 0
#: in the pool but not relevant (the trec_eval convention's options; convention="trec_eval" is tested too)
TREC = dict(ties="item-desc", negative_labels="unjudged")


def per_query(result):
    return {(row["query_id"], row["measure"]): row["value"] for row in result.per_query_records()}


def set_p(run, qrels, level):
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    evaluator = pytrec_eval.RelevanceEvaluator(dict(qrels), {"set_P"}, relevance_level=level)
    return {q: values["set_P"] for q, values in evaluator.evaluate(dict(run_dict)).items()}


@pytest.mark.parametrize("options", [TREC, {"convention": "trec_eval"}], ids=["options", "convention"])
@pytest.mark.parametrize("run_file, qrels_file", CASES)
@pytest.mark.parametrize("level", [1, 2])
def test_per_query_equal_to_pytrec_eval(run_file, qrels_file, level, options):
    run = read_trec_run(EXAMPLES / run_file)
    expected = set_p(run, read_qrels(EXAMPLES / qrels_file), level)
    name = "SetP" if level == 1 else f"SetP(rel={level})"
    result = ndcg_sql.evaluate(run, judgments=str(EXAMPLES / qrels_file), measures=[name], **options)
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, value in expected.items():
        assert got[(qid, name)] == pytest.approx(value, **TOL), qid
    summary = result.summary_records()[0]
    values = np.array(list(expected.values()))
    assert summary["mean"] == pytest.approx(values.mean(), **TOL)
    assert summary["stderr"] == pytest.approx(values.std(ddof=1) / np.sqrt(len(values)), **TOL)


def test_ir_measures_names_and_means_on_dl19():
    names = ["SetP", "SetP(rel=2)", "SetP(rel=3)"]
    run_path = EXAMPLES / "trec_dl19_passage/run.dl19.tasb.top100.txt"
    qrels_path = EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"
    run = read_trec_run(run_path)
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names],
                                          list(ir_measures.read_trec_qrels(str(qrels_path))), scored)
    expected = {str(measure): value for measure, value in expected.items()}
    result = ndcg_sql.evaluate(run, judgments=str(qrels_path), measures=names, **TREC)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    assert set(summary) == set(expected)  # ir_measures writes the names as we do
    for name in names:
        assert summary[name] == pytest.approx(expected[name], **TOL), name


def test_hand_worked_lists_ties_and_a_missing_query():
    """Query 1 ranks labels [0, 2, 1, 0] (SetP 2/4; rel=2: 1/4), query 2 [1] with a tie of scores
    in query 1 (no order inside it changes the whole list's count); query 3 is judged but not
    ranked: left out, or 0 with missing_queries="zero" (trec_eval -c)."""
    run = pd.DataFrame({"query_id": [1, 1, 1, 1, 2], "item_id": ["a", "b", "c", "d", "e"],
                        "score": [4.0, 3.0, 3.0, 1.0, 1.0]})
    judgments = pd.DataFrame({"query_id": [1, 1, 1, 2, 3], "item_id": ["a", "b", "c", "e", "f"],
                              "label": [0, 2, 1, 1, 1]})
    want = {(1, "SetP"): 2 / 4, (1, "SetP(rel=2)"): 1 / 4, (2, "SetP"): 1.0, (2, "SetP(rel=2)"): 0.0}
    for ties in ("average", "item-asc", "item-desc"):
        got = per_query(ndcg_sql.evaluate(run, judgments=judgments, measures=["SetP", "set_p(rel=2)"], ties=ties))
        assert got == pytest.approx(want, rel=1e-12)
    zero = per_query(ndcg_sql.evaluate(run, judgments=judgments, measures=["SetP"], missing_queries="zero"))
    assert zero == pytest.approx({(1, "SetP"): 0.5, (2, "SetP"): 1.0, (3, "SetP"): 0.0}, rel=1e-12)


def test_takes_no_cutoff():
    with pytest.raises(ndcg_sql.OptionError, match="takes no cutoff"):
        ndcg_sql.evaluate(pd.DataFrame({"query_id": [1], "item_id": ["a"], "score": [1.0], "label": [1]}),
                          measures=["SetP@5"])


def test_per_query_on_engine_equal_to_pytrec_eval(engine):  # noqa: F811
    """On every engine of tests/engines.py (trec_eval's test data, judgments of -1 included)."""
    from test_incomplete_judgments import engine_data
    from test_measures_warehouses import _load

    run, qrels = engine_data()
    judgments = [(q, d, label) for q, docs in qrels.items() for d, label in docs.items()]
    run_name = _load(engine, "setp_runs", ["query_id", "item_id", "score"], list(run.itertuples(index=False, name=None)))
    qrels_name = _load(engine, "setp_qrels", ["query_id", "item_id", "label"], judgments)
    got = per_query(ndcg_sql.evaluate(run_name, judgments=qrels_name, con=engine.connection(), dialect=engine.dialect,
                                      per_query=True, measures=["SetP", "SetP(rel=2)"], item_type="text", **TREC))
    for level, name in ((1, "SetP"), (2, "SetP(rel=2)")):
        expected = set_p(run, qrels, level)
        assert {q for q, n in got if n == name} == set(expected)
        for qid, value in expected.items():
            assert float(got[(qid, name)]) == pytest.approx(value, **TOL), (engine.dialect, qid, name)
