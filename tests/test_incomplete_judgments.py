"""The measures built for incomplete judgments (Bpref, infAP, Rprec, IPrec@x, gm_map) against
pytrec_eval per query (to 1e-9) on the bundled DL19 runs and trec_eval's own test data (with
its judgments below 0: pooled but unjudged), their names against ir_measures, a hand-worked
list without judgments, the geometric mean's summary against numpy, their refusals, the command
line (every engine of tests/engines.py: tests/test_measures_warehouses.py)."""

import json
import math
from collections import defaultdict

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import ndcg_sql
from conftest import EXAMPLES
from ndcg_sql.building.context import parse_measure, parse_measures
from ndcg_sql.vocabulary.measures import Measure
from test_peers import read_qrels, read_trec_run

TOL = dict(rel=1e-9, abs=1e-9)
Z = 1.959963984540054
CASES = [
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test"),
    ("trec_eval_test/results.test", "trec_eval_test/qrels.rel_level"),  # 304 judgments of -1 in query 303
    ("trec_dl19_passage/run.dl19.bm25.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
    ("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
]
#: trec_eval's eleven recall levels (iprec_at_recall's default)
LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def names_at(level):
    """ndcg_sql name -> pytrec_eval measure at relevance level ``level``."""
    rel = "" if level == 1 else f"(rel={level})"
    names = {f"Bpref{rel}": "bpref", f"infAP{rel}": "infAP", f"Rprec{rel}": "Rprec", f"gm_map{rel}": "gm_map"}
    names.update({f"IPrec{rel}@{x!r}": f"iprec_at_recall_{x:.2f}" for x in LEVELS})
    return names


def pytrec(run, qrels, level, **flags):
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    return pytrec_eval.RelevanceEvaluator(dict(qrels), {"bpref", "infAP", "Rprec", "gm_map", "iprec_at_recall"},
                                          relevance_level=level, **flags).evaluate(dict(run_dict))


def per_query(result):
    return {(row["query_id"], row["measure"]): row["value"] for row in result.per_query_records()}


@pytest.mark.parametrize("run_file, qrels_file", CASES)
@pytest.mark.parametrize("level", [1, 2])
def test_per_query_equal_to_pytrec_eval(run_file, qrels_file, level):
    run = read_trec_run(EXAMPLES / run_file)
    expected = pytrec(run, read_qrels(EXAMPLES / qrels_file), level)
    names = names_at(level)
    result = ndcg_sql.evaluate(run, judgments=str(EXAMPLES / qrels_file), convention="trec_eval", measures=list(names))
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, measure in names.items():
            assert got[(qid, name)] == pytest.approx(values[measure], **TOL), (qid, name)
    summary = {row["measure"]: row for row in result.summary_records()}
    for name, measure in names.items():
        values = np.array([v[measure] for v in expected.values()])
        if measure == "gm_map":  # trec_eval's summary: exp of the mean of its per-query logarithms
            mean_log, se_log = values.mean(), values.std(ddof=1) / math.sqrt(len(values))
            assert summary[name]["mean"] == pytest.approx(math.exp(mean_log), **TOL)
            assert summary[name]["stderr"] == pytest.approx(math.exp(mean_log) * se_log, **TOL)
            assert summary[name]["ci_low"] == pytest.approx(min(1.0, math.exp(mean_log - Z * se_log)), **TOL)
            assert summary[name]["ci_high"] == pytest.approx(min(1.0, math.exp(mean_log + Z * se_log)), **TOL)
            assert summary[name]["ci_method"] == "normal of the mean log, exponentiated, clipped to [0, 1]"
        else:
            assert summary[name]["mean"] == pytest.approx(values.mean(), **TOL), name
            assert summary[name]["stderr"] == pytest.approx(values.std(ddof=1) / math.sqrt(len(values)), **TOL)
            assert summary[name]["ci_method"] == "normal, clipped to [0, 1]"


def test_condensed_lists_equal_to_trec_eval_minus_j():
    """unjudged="condense" is trec_eval -J (pytrec_eval judged_docs_only_flag) for these measures too,
    on judgments with no label below 0."""
    run_file, qrels_file = CASES[0]
    run = read_trec_run(EXAMPLES / run_file)
    expected = pytrec(run, read_qrels(EXAMPLES / qrels_file), 1, judged_docs_only_flag=True)
    names = names_at(1)
    got = per_query(ndcg_sql.evaluate(run, judgments=str(EXAMPLES / qrels_file), convention="trec_eval",
                                      unjudged="condense", measures=list(names)))
    for qid, values in expected.items():
        for name, measure in names.items():
            assert got[(qid, name)] == pytest.approx(values[measure], **TOL), (qid, name)


def test_ir_measures_names_and_means_on_dl19():
    names = ["Bpref", "infAP", "Rprec", "IPrec@0.5", "Bpref(rel=2)", "Rprec(rel=2)", "IPrec(rel=2)@0.3", "IPrec@1.0"]
    run_path = EXAMPLES / "trec_dl19_passage/run.dl19.tasb.top100.txt"
    qrels_path = EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"
    run = read_trec_run(run_path)
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names],
                                          list(ir_measures.read_trec_qrels(str(qrels_path))), scored)
    expected = {str(measure): value for measure, value in expected.items()}
    result = ndcg_sql.evaluate(run, judgments=str(qrels_path), convention="trec_eval", measures=names)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    assert set(summary) == set(expected)  # ir_measures writes the names as we do
    for name in names:
        assert summary[name] == pytest.approx(expected[name], **TOL), name


def test_hand_worked_list_without_judgments():
    """The list's labels are the judgments: ranks a (0), b (2), c (-1: pooled, unjudged), d (1); rel 1:
    R = 2 (b, d), N = 1 (a)."""
    data = pd.DataFrame({"query_id": [1] * 4, "item_id": ["a", "b", "c", "d"], "score": [4.0, 3.0, 2.0, 1.0],
                         "label": [0, 2, -1, 1]})
    e = 1e-5
    want = {
        # b at 2 and d at 4 each have the one non-relevant item above: 1 - min(1, 2) / min(1, 2) = 0
        "Bpref": 0.0,
        # b: 1/2 + (1/2) (0 + e) / (0 + 1 + 2e); d: 1/4 + (3/4) (1 + e) / (1 + 1 + 2e)
        "infAP": (1 / 2 + (1 / 2) * e / (1 + 2 * e) + 1 / 4 + (3 / 4) * (1 + e) / (2 + 2 * e)) / 2,
        "Rprec": 1 / 2,  # a, b at ranks <= R = 2
        "IPrec@0.5": max(1 / 2, 1 / 3, 2 / 4),  # c = floor(0.5 * 2 + 0.9) = 1: P@j for j >= 2
        "IPrec@0.0": 1 / 2,  # every rank
        "IPrec@1.0": 2 / 4,  # c = 2: P@4
        "gm_map": math.log((1 / 2 + 2 / 4) / 2),
    }
    result = ndcg_sql.evaluate(data, measures=list(want), ties="item-asc", negative_labels="zero")
    got = per_query(result)
    for name, value in want.items():
        assert got[(1, name)] == pytest.approx(value, rel=1e-12, abs=1e-15), name
    assert result.summary_records()[-1]["mean"] == pytest.approx(1 / 2, rel=1e-12)  # exp(ln AP), one query


def test_gm_map_floor_and_missing_queries():
    """A query with AP 0 counts ln(1e-5) (trec_eval's MIN_GEO_MEAN), as does one missing from the run
    with missing_queries="zero" (trec_eval -c)."""
    run = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "item_id": ["a", "b", "a"], "score": [2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q1", "q2", "q3"], "item_id": ["b", "z", "a"], "label": [1, 1, 1]})
    result = ndcg_sql.evaluate(run, judgments=qrels, measures=["gm_map", "AP"], ties="item-desc",
                               missing_queries="zero")
    got = per_query(result)
    assert got[("q1", "gm_map")] == pytest.approx(math.log(0.5), rel=1e-12)
    assert got[("q2", "gm_map")] == pytest.approx(math.log(1e-5), rel=1e-12)
    assert got[("q3", "gm_map")] == pytest.approx(math.log(1e-5), rel=1e-12)
    mean = result.summary_records()[0]["mean"]
    assert mean == pytest.approx((0.5 * 1e-5 * 1e-5) ** (1 / 3), rel=1e-12)


def test_summary_is_order_independent_and_exact():
    """The geometric mean is exp of an exact decimal sum: the same bits whatever the rows' order."""
    run = read_trec_run(EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt")
    qrels = str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt")
    means = {ndcg_sql.evaluate(frame, judgments=qrels, convention="trec_eval",
                               measures=["gm_map"]).summary_records()[0]["mean"]
             for frame in (run, run.iloc[::-1].reset_index(drop=True), run.sample(frac=1.0, random_state=3))}
    assert len(means) == 1


@pytest.mark.parametrize(
    "text, measure",
    [("Bpref", Measure("Bpref")), ("BPREF(rel=2)", Measure("Bpref", rel=2.0)), ("infap", Measure("infAP")),
     ("RPrec", Measure("Rprec")), ("IPrec@0.5", Measure("IPrec", recall=0.5)), ("iprec@.25", Measure("IPrec", recall=0.25)),
     ("IPrec(rel=2)@1", Measure("IPrec", rel=2.0, recall=1.0)), ("gm_map", Measure("gm_map")), ("GMAP", Measure("gm_map"))],
)
def test_names(text, measure):
    assert parse_measure(text) == measure


def test_canonical_names():
    assert [m.name for m in parse_measures("bpref INFAP(rel=2) rprec IPrec@.5 IPrec@1.0 iprec@0 gmap")] == [
        "Bpref", "infAP(rel=2)", "Rprec", "IPrec@0.5", "IPrec@1.0", "IPrec@0.0", "gm_map"]


@pytest.mark.parametrize(
    "text, words",
    [("Bpref@10", "Bpref takes no cutoff"), ("infAP@5", "infAP takes no cutoff"), ("Rprec@5", "takes no cutoff"),
     ("gm_map@10", "gm_map takes no cutoff"), ("IPrec", "needs a recall level"), ("IPrec@1.5", "from 0 to 1"),
     ("IPrec@x", "from 0 to 1"), ("IPrec@-0.1", "from 0 to 1")],
)
def test_bad_names(text, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        parse_measure(text)


def test_tie_orders_and_refusals():
    data = pd.DataFrame({"query_id": [1, 1, 1], "item_id": ["a", "b", "c"], "score": [1.0, 1.0, 0.5],
                         "label": [1, 0, 1]})
    with pytest.raises(ndcg_sql.OptionError, match="Bpref, infAP, IPrec@0.5, gm_map need a tie order"):
        ndcg_sql.evaluate(data, measures=["Bpref", "infAP", "Rprec", "IPrec@0.5", "gm_map"])
    # Rprec is linear in each rank's relevance: tie averaging gives its expected value, (1/2 + 0) / 2 at R = 2
    assert ndcg_sql.evaluate(data, measures=["Rprec"]).summary_records()[0]["mean"] == pytest.approx(0.5)
    run = EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt"
    other = EXAMPLES / "trec_dl19_passage/run.dl19.tasb.top100.txt"
    qrels = EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"
    for compare in (ndcg_sql.compare, lambda a, b, **o: ndcg_sql.compare_runs([a, b], **o)):
        with pytest.raises(ndcg_sql.OptionError, match="gm_map is a geometric mean"):
            compare(str(run), str(other), judgments=str(qrels), convention="trec_eval", measures=["AP", "gm_map"])


def test_compare_and_bootstrap():
    """compare's means are evaluate's (pytrec_eval's, tested above); a bootstrap interval of gm_map lies
    around its mean, on its scale."""
    run = str(EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt")
    other = str(EXAMPLES / "trec_dl19_passage/run.dl19.tasb.top100.txt")
    qrels = str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt")
    names = ["Bpref", "infAP", "Rprec", "IPrec@0.5"]
    a, b = (pytrec(read_trec_run(path), read_qrels(qrels), 1) for path in (run, other))
    comparison = ndcg_sql.compare(run, other, judgments=qrels, convention="trec_eval", measures=names)
    for row in comparison.summary_records():
        measure = names_at(1)[row["measure"]]
        assert row["mean_a"] == pytest.approx(np.mean([v[measure] for v in a.values()]), **TOL)
        assert row["mean_b"] == pytest.approx(np.mean([v[measure] for v in b.values()]), **TOL)
    row = ndcg_sql.evaluate(run, judgments=qrels, convention="trec_eval", measures=["gm_map"],
                            bootstrap=200, seed=5).summary_records()[0]
    assert 0 < row["bootstrap_low"] < row["mean"] < row["bootstrap_high"] <= 1


def test_command_line(tmp_path):
    from test_cli import run_cli

    run = str(EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt")
    qrels = str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt")
    rows = tmp_path / "per_query.csv"
    done = run_cli("evaluate", run, "--judgments", qrels, "--convention", "trec_eval", "--format", "json",
                   "--per-query", str(rows), "--measures", "Bpref", "infAP", "Rprec", "IPrec@0.5", "gm_map")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [row["measure"] for row in out["summary"]] == ["Bpref", "infAP", "Rprec", "IPrec@0.5", "gm_map"]
    expected = pytrec(read_trec_run(run), read_qrels(qrels), 1)
    names = names_at(1)
    written = pd.read_csv(rows, dtype={"query_id": str})
    assert len(written) == 5 * len(expected)
    for row in written.itertuples(index=False):
        assert row.value == pytest.approx(expected[row.query_id][names[row.measure]], **TOL)
    done = run_cli("evaluate", run, "--judgments", qrels, "--convention", "trec_eval", "--measures", "Bpref@10")
    assert done.returncode == 2 and "Bpref takes no cutoff" in done.stderr


def engine_data():
    """Queries 301-303 of trec_eval's test data, each run cut to its first 60 rows, with the judgments
    of qrels.rel_level (query 303 has judgments of -1): tests/test_measures_warehouses.py runs them on
    every engine."""
    run = read_trec_run(EXAMPLES / "trec_eval_test/results.test")
    run = run[run["query_id"].isin(["301", "302", "303"])].groupby("query_id").head(60).reset_index(drop=True)
    qrels = {q: v for q, v in read_qrels(EXAMPLES / "trec_eval_test/qrels.rel_level").items() if q in ("301", "302", "303")}
    return run, qrels


def test_regression_gates_refuse_gm_map():
    """The regression gates (plot --over, dbt's ndcg_compare_arms) test differences of arithmetic means too."""
    from ndcg_sql.building.context import option_macros

    options = dict(per_query_relation="x", query_col="query_id", segment_cols=[], group_col="day", k=None,
                   alpha=0.05, correction="bonferroni", min_effect=0, window=7)
    with pytest.raises(ndcg_sql.OptionError, match="the regression gate tests differences of arithmetic means"):
        option_macros()._regression_context(dict(options, measures=["AP", "gm_map"]))
    assert option_macros()._regression_context(dict(options, measures=["AP", "Bpref"]))["tested_measures"] == [
        "'AP'", "'Bpref'"]


def test_weighted_geometric_mean():
    """With query weights gm_map's summary is exp(sum(w ln v) / sum(w)), the weighted geometric mean."""
    data = pd.DataFrame({"query_id": [1, 1, 2, 2, 3, 3], "item_id": ["a", "b"] * 3, "score": [2.0, 1.0] * 3,
                         "label": [0, 1, 1, 0, 0, 0], "w": [1.0, 1.0, 3.0, 3.0, 2.0, 2.0]})
    row = ndcg_sql.evaluate(data, measures=["gm_map"], ties="item-asc", weight_col="w").summary_records()[0]
    ap, w = np.array([1 / 2, 1.0, 1e-5]), np.array([1.0, 3.0, 2.0])
    assert row["mean"] == pytest.approx(np.exp((w * np.log(ap)).sum() / w.sum()), rel=1e-12)
