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


def log_ap(run, qrels):
    """{query: ln(max(AP, 1e-5))} from pytrec_eval's AP (trec_eval's gm_map per query, in numpy)."""
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    ap = pytrec_eval.RelevanceEvaluator(dict(qrels), {"map"}).evaluate(dict(run_dict))
    return {q: float(np.log(max(v["map"], 1e-5))) for q, v in ap.items()}


def ratio_expected(a_logs, b_logs):
    """The ratio row of gm_map, from scipy's paired t-test on the logarithms."""
    from scipy import stats

    paired = sorted(set(a_logs) & set(b_logs))
    a, b = np.array([a_logs[q] for q in paired]), np.array([b_logs[q] for q in paired])
    d, n = a - b, len(paired)
    test = stats.ttest_rel(a, b)
    se = d.std(ddof=1) / math.sqrt(n)
    half = stats.t.ppf(0.975, n - 1) * se
    return {"queries": n, "mean_a": math.exp(a.mean()), "mean_b": math.exp(b.mean()),
            "mean_difference": math.exp(d.mean()), "contrast": "ratio", "stderr": math.exp(d.mean()) * se,
            "ci_low": math.exp(d.mean() - half), "ci_high": math.exp(d.mean() + half), "t": test.statistic,
            "df": n - 1, "t_p_value": test.pvalue, "wins": int((d > 0).sum()), "ties": int((d == 0).sum()),
            "losses": int((d < 0).sum())}


def assert_row(row, want, where=""):
    for column, value in want.items():
        if isinstance(value, (float, np.floating)):
            assert row[column] == pytest.approx(float(value), **TOL), (where, column)
        else:
            assert row[column] == value, (where, column)


def test_gm_map_compared_as_a_ratio():
    """compare and compare_runs test gm_map on its per-query logarithms ln(max(AP, 1e-5)) (scipy's
    ttest_rel on numpy logs of pytrec_eval's AP) and report the ratio of the geometric means with its
    interval exponentiated; AP beside it stays a difference."""
    paths = {name: str(EXAMPLES / f"trec_dl19_passage/run.dl19.{name}.top100.txt")
             for name in ("bm25", "tasb", "splade_pp_ed")}
    qrels = str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt")
    judged = read_qrels(qrels)
    logs = {name: log_ap(read_trec_run(path), judged) for name, path in paths.items()}
    comparison = ndcg_sql.compare(paths["bm25"], paths["tasb"], judgments=qrels, convention="trec_eval",
                                  measures=["AP", "gm_map"], permutations=2000, seed=3)
    rows = {row["measure"]: row for row in comparison.summary_records()}
    assert_row(rows["gm_map"], ratio_expected(logs["bm25"], logs["tasb"]), "compare")
    assert 0 < rows["gm_map"]["permutation_p_value"] <= 1
    assert rows["AP"]["contrast"] == "difference"
    assert rows["AP"]["mean_difference"] == pytest.approx(rows["AP"]["mean_a"] - rows["AP"]["mean_b"], **TOL)
    # the per-query rows of gm_map are its logarithms, the difference the log ratio
    for row in comparison.per_query_records():
        if row["measure"] == "gm_map":
            assert row["a"] == pytest.approx(logs["bm25"][row["query_id"]], **TOL)
            assert row["difference"] == pytest.approx(logs["bm25"][row["query_id"]] - logs["tasb"][row["query_id"]],
                                                      **TOL)
    text = comparison.to_text()
    assert "gm_map: the ratio A / B of the geometric means" in text and " contrast " in text.splitlines()[2]
    # the geometric mean of a run is evaluate's gm_map summary
    own = ndcg_sql.evaluate(paths["bm25"], judgments=qrels, convention="trec_eval", measures=["gm_map"])
    assert rows["gm_map"]["mean_a"] == pytest.approx(own.summary_records()[0]["mean"], **TOL)
    many = ndcg_sql.compare_runs(paths, judgments=qrels, convention="trec_eval", measures=["gm_map", "AP"],
                                 permutations=200, seed=3)
    for row in many.summary_records():
        if row["measure"] == "gm_map":
            assert_row(row, ratio_expected(logs[row["run_a"]], logs[row["run_b"]]), (row["run_a"], row["run_b"]))
            assert 0 < row["tukey_p_value"] <= 1
    assert "gm_map: the ratio run_a / run_b" in many.to_text()
    # the table's letters read a ratio against 1: the better run of gm_map is the one with the larger geometric mean
    better = {row["run_a"] if row["mean_difference"] > 1 else row["run_b"] for row in many.summary_records()
              if row["measure"] == "gm_map" and row["permutation_p_value_adjusted"] < 0.05}
    means = {m["run"]: m["mean"] for m in many.means if m["measure"] == "gm_map"}
    assert better <= {max(means, key=means.get), sorted(means, key=means.get)[1]}


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


def test_regression_gates_test_gm_map_on_its_logarithms():
    """The regression gates (plot --over, dbt's ndcg_compare_arms and ndcg_no_regression) test gm_map's
    per-query logarithms and report the geometric means and their ratio: the arms' paired t against
    scipy's ttest_rel on the logs, the ratio and the relative drop held against min_effect."""
    from scipy import stats

    from ndcg_sql.building import templates
    from ndcg_sql.building.context import option_macros

    options = dict(per_query_relation="x", query_col="query_id", segment_cols=[], group_col="day", k=None,
                   alpha=0.05, correction="bonferroni", min_effect=0, window=7)
    ctx = option_macros()._regression_context(dict(options, measures=["AP", "gm_map"]))
    assert ctx["tested_measures"] == ["'AP'", "'gm_map'"] and ctx["geometric_measures"] == ["'gm_map'"]
    ap = {"A": [0.5, 0.25, 0.08, 0.8, 0.4, 0.3], "B": [0.6, 0.4, 0.1, 0.9, 0.5, 0.5]}
    rows = [(arm, f"q{i}", "gm_map", math.log(max(v, 1e-5))) for arm, values in ap.items() for i, v in enumerate(values)]
    rows += [(arm, f"q{i}", "AP", v) for arm, values in ap.items() for i, v in enumerate(values)]
    con = __import__("duckdb").connect()
    con.execute("CREATE TABLE per_query (arm VARCHAR, query_id VARCHAR, measure VARCHAR, value DOUBLE)")
    con.executemany("INSERT INTO per_query VALUES (?, ?, ?, ?)", rows)
    for min_effect in (0.0, 0.99):
        ctx = option_macros()._regression_context(dict(options, per_query_relation="per_query", group_col="arm",
                                                       measures=["AP", "gm_map"], baseline="A", min_effect=min_effect))
        result = con.sql(templates.render("arm_changes.sql.j2", **ctx))
        out = {row[result.columns.index("measure")]: dict(zip(result.columns, row)) for row in result.fetchall()}
        logs = {arm: np.log(np.maximum(values, 1e-5)) for arm, values in ap.items()}
        d = logs["B"] - logs["A"]
        row = out["gm_map"]
        assert row["mean"] == pytest.approx(np.exp(logs["B"].mean()), **TOL)
        assert row["baseline_mean"] == pytest.approx(np.exp(logs["A"].mean()), **TOL)
        assert row["change"] == pytest.approx(np.exp(d.mean()), **TOL)
        assert row["stderr"] == pytest.approx(np.exp(d.mean()) * d.std(ddof=1) / math.sqrt(6), **TOL)
        assert row["t"] == pytest.approx(stats.ttest_rel(logs["B"], logs["A"]).statistic, **TOL)
        assert out["AP"]["change"] == pytest.approx(np.mean(np.array(ap["B"]) - np.array(ap["A"])), **TOL)
        assert row["significant_drop"] is False  # B's ratio to A is above 1: no drop
    # against B, A's ratio is below 1: min_effect reads the relative drop 1 - ratio
    ratio = float(np.exp((np.log(np.maximum(ap["A"], 1e-5)) - np.log(np.maximum(ap["B"], 1e-5))).mean()))
    for min_effect, can_drop in ((0.0, True), ((1 - ratio) * 0.999, True), ((1 - ratio) * 1.001, False)):
        ctx = option_macros()._regression_context(dict(options, per_query_relation="per_query", group_col="arm",
                                                       measures=["gm_map"], baseline="B", min_effect=min_effect))
        result = con.sql(templates.render("arm_changes.sql.j2", **ctx))
        row = dict(zip(result.columns, result.fetchall()[0]))
        assert row["change"] == pytest.approx(ratio, **TOL)
        below = row["p_value_below"] is not None and row["p_value_below"] <= row["decision_level"]
        assert below and row["significant_drop"] is can_drop


def test_weighted_geometric_mean():
    """With query weights gm_map's summary is exp(sum(w ln v) / sum(w)), the weighted geometric mean."""
    data = pd.DataFrame({"query_id": [1, 1, 2, 2, 3, 3], "item_id": ["a", "b"] * 3, "score": [2.0, 1.0] * 3,
                         "label": [0, 1, 1, 0, 0, 0], "w": [1.0, 1.0, 3.0, 3.0, 2.0, 2.0]})
    row = ndcg_sql.evaluate(data, measures=["gm_map"], ties="item-asc", weight_col="w").summary_records()[0]
    ap, w = np.array([1 / 2, 1.0, 1e-5]), np.array([1.0, 3.0, 2.0])
    assert row["mean"] == pytest.approx(np.exp((w * np.log(ap)).sum() / w.sum()), rel=1e-12)
