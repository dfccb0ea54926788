"""SetR, the recall of the whole ranked list (trec_eval's set_recall, ir_measures SetR), against
pytrec_eval per query (to 1e-9) on trec_eval's own test data (with judgments below 0) and the
bundled DL19 runs, at relevance levels 1 and 2; its name and mean against ir_measures; a
hand-worked list with a tie and a query missing from the run (trec_eval -c: 0)."""

from collections import defaultdict

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import ndcg_sql
from conftest import EXAMPLES
from test_peers import read_qrels, read_trec_run
from test_set_precision import CASES, TOL, TREC, per_query


def set_recall(run, qrels, level):
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    evaluator = pytrec_eval.RelevanceEvaluator(dict(qrels), {"set_recall"}, relevance_level=level)
    return {q: values["set_recall"] for q, values in evaluator.evaluate(dict(run_dict)).items()}


@pytest.mark.parametrize("options", [TREC, {"convention": "trec_eval"}], ids=["options", "convention"])
@pytest.mark.parametrize("run_file, qrels_file", CASES)
@pytest.mark.parametrize("level", [1, 2])
def test_per_query_equal_to_pytrec_eval(run_file, qrels_file, level, options):
    run = read_trec_run(EXAMPLES / run_file)
    expected = set_recall(run, read_qrels(EXAMPLES / qrels_file), level)
    name = "SetR" if level == 1 else f"SetR(rel={level})"
    result = ndcg_sql.evaluate(run, judgments=str(EXAMPLES / qrels_file), measures=[name], **options)
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, value in expected.items():
        assert got[(qid, name)] == pytest.approx(value, **TOL), qid
    assert result.summary_records()[0]["mean"] == pytest.approx(np.mean(list(expected.values())), **TOL)


def test_ir_measures_names_and_means_on_dl19():
    names = ["SetR", "SetR(rel=2)", "SetR(rel=3)"]
    run_path = EXAMPLES / "trec_dl19_passage/run.dl19.tasb.top100.txt"
    qrels_path = EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"
    run = read_trec_run(run_path)
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names],
                                          list(ir_measures.read_trec_qrels(str(qrels_path))), scored)
    expected = {str(measure): value for measure, value in expected.items()}
    result = ndcg_sql.evaluate(run, judgments=str(qrels_path), measures=names, **TREC)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    assert set(summary) == set(expected)
    for name in names:
        assert summary[name] == pytest.approx(expected[name], **TOL), name


def test_hand_worked_lists_ties_and_a_missing_query():
    """Query 1 ranks labels [0, 2, 1, 0] of R = 3 judged relevant (g unranked): SetR 2/3, rel=2: 1/1;
    query 2 [1]: 1, rel=2: R = 0, so 0; query 3 is judged but not ranked: 0 with missing_queries="zero"."""
    run = pd.DataFrame({"query_id": [1, 1, 1, 1, 2], "item_id": ["a", "b", "c", "d", "e"],
                        "score": [4.0, 3.0, 3.0, 1.0, 1.0]})
    judgments = pd.DataFrame({"query_id": [1, 1, 1, 1, 2, 3], "item_id": ["a", "b", "c", "g", "e", "f"],
                              "label": [0, 2, 1, 1, 1, 1]})
    want = {(1, "SetR"): 2 / 3, (1, "SetR(rel=2)"): 1.0, (2, "SetR"): 1.0, (2, "SetR(rel=2)"): 0.0}
    for ties in ("average", "item-asc", "item-desc"):
        got = per_query(ndcg_sql.evaluate(run, judgments=judgments, measures=["SetR", "set_recall(rel=2)"], ties=ties))
        assert got == pytest.approx(want, rel=1e-12)
    zero = per_query(ndcg_sql.evaluate(run, judgments=judgments, measures=["SetR"], missing_queries="zero"))
    assert zero == pytest.approx({(1, "SetR"): 2 / 3, (2, "SetR"): 1.0, (3, "SetR"): 0.0}, rel=1e-12)
