"""Measures beyond the peers' common set: Judged@k (ir_measures Judged), against ir_measures and
the numpy reference on the bundled TREC DL 2019 runs and LightGBM lambdarank data."""

from collections import defaultdict

import ir_measures
import numpy as np
import pandas as pd
import pytest

import ndcg_sql
import reference
from conftest import EXAMPLES
from ndcg_sql.building.context import parse_measure

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


# ------------------------------------------------------------------ RBP and its residual


def run_with_rows(path):
    run = read_run(path)
    run["row"] = range(len(run))
    return run


@pytest.mark.parametrize("rel, p", [(1, 0.8), (2, 0.9), (1, 0.5)])
def test_rbp_is_cwl_evals_through_ir_measures(rel, p):
    run = run_with_rows(DL / RUNS[0])
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s, _ in run.itertuples(index=False)]
    theirs = ir_measures.parse_measure(f"RBP(rel={rel},p={p})")
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([theirs], qrels, scored)}
    # cwl_eval orders by score descending, tied documents in run order (a stable sort)
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="input-order", row_col="row",
                               measures=[f"RBP(rel={rel},p={p})"])
    name = parse_measure(f"RBP(rel={rel},p={p})").name
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, value in expected.items():
        assert got[(qid, name)] == pytest.approx(value, **TOL), qid


def test_rbp_and_residual_against_the_reference_on_trec_dl():
    run = read_run(DL / RUNS[1])
    qrels = pd.read_csv(QRELS, sep=" ", header=None, names=["query_id", "iter", "item_id", "label"],
                        dtype={"query_id": str, "item_id": str})
    labels = defaultdict(dict)
    for q, d, label in zip(qrels["query_id"], qrels["item_id"], qrels["label"]):
        labels[q][d] = label
    names = ["RBP", "RBP(rel=2,p=0.95)@10", "RBPResidual", "RBPResidual(p=0.95)@10", "RBPResidual(p=0.5)@1000"]
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-desc", measures=names)
    got = per_query(result)
    items = defaultdict(list)
    for q, d, s in run.itertuples(index=False):
        items[q].append((d, s, labels[q].get(d, 0)))
    for (qid, name), value in got.items():
        m = parse_measure(name)
        ordered = sorted(items[qid], key=lambda x: x[0], reverse=True)
        ordered = sorted(ordered, key=lambda x: -x[1])
        rbp, residual = reference.rank_biased_precision([x[2] for x in ordered], [x[0] in labels[qid] for x in ordered],
                                                        m.p, m.k, m.threshold)
        want = rbp if m.family == "RBP" else residual
        assert value == pytest.approx(want, **TOL), (qid, name)
    # the run leaves items unjudged: a residual inside the top 10 (every list is longer than 10)
    assert max(v for (q, n), v in got.items() if n == "RBPResidual(p=0.95)@10") > 0.1


def test_rbp_residual_by_hand():
    """Labels 2, unjudged, 0, 1 (ranks 1..4), p = 0.5:
    RBP = 0.5 * (1 + 0.125) = 0.5625; residual = 0.5 * 0.5 (rank 2) + 0.5^4 (past the list) = 0.3125;
    @2: RBP = 0.5, residual = 0.25 + 0.5^2 - 0.5^2 = 0.25; @6: residual 0.25 + 0.5^4 - 0.5^6 = 0.296875."""
    run = pd.DataFrame({"query_id": 1, "item_id": ["a", "b", "c", "d"], "score": [4.0, 3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": 1, "item_id": ["a", "c", "d", "z"], "label": [2, 0, 1, 3]})
    names = ["RBP(p=0.5)", "RBPResidual(p=0.5)", "RBP(p=0.5)@2", "RBPResidual(p=0.5)@2", "RBPResidual(p=0.5)@6"]
    got = per_query(ndcg_sql.evaluate(run, judgments=qrels, measures=names))
    assert [got[(1, n)] for n in names] == pytest.approx([0.5625, 0.3125, 0.5, 0.25, 0.296875], **TOL)
    # tie-averaged: a and b tied at the top share their relevance (1 and 0) at ranks 1 and 2
    tied = run.assign(score=[4.0, 4.0, 2.0, 1.0])
    got = per_query(ndcg_sql.evaluate(tied, judgments=qrels, measures=["RBP(p=0.5)", "RBPResidual(p=0.5)"]))
    assert got[(1, "RBP(p=0.5)")] == pytest.approx(0.5 * (0.5 * 1 + 0.5 * 0.5 + 0.125), **TOL)
    assert got[(1, "RBPResidual(p=0.5)")] == pytest.approx(0.5 * (0.5 * 1 + 0.5 * 0.5) + 0.5 ** 4, **TOL)


def test_rbp_without_judgments_on_lambdarank():
    data = pd.read_csv(LGB)
    result = ndcg_sql.evaluate(data, item_col="doc_id", ties="item-asc", measures=["RBP(p=0.9)@5", "RBPResidual(p=0.9)"])
    got = per_query(result)
    for qid, group in data.groupby("query_id"):
        ordered = group.sort_values("doc_id").sort_values("score", ascending=False, kind="stable")
        rbp, _ = reference.rank_biased_precision(list(ordered["label"]), [True] * len(group), 0.9, 5)
        assert got[(qid, "RBP(p=0.9)@5")] == pytest.approx(rbp, **TOL)
        assert got[(qid, "RBPResidual(p=0.9)")] == pytest.approx(0.9 ** len(group), **TOL)


@pytest.mark.parametrize("text, words", [
    ("RBP(p=1)", "p (the persistence) must be between 0 and 1"), ("RBP(p=0)", "between 0 and 1"),
    ("RBP(p=1.5)", "between 0 and 1"), ("RBP(p=x)", "p must be a number"), ("RBP(p=nan)", "p must be a finite number"),
    ("RBP(q=0.5)", "the parameters are rel=<label> and p="), ("P(p=0.5)@5", "the only parameter is rel"),
    ("RBPResidual(rel=2)", "RBPResidual has no relevance threshold"),
])
def test_rbp_parameter_errors(text, words):
    with pytest.raises(ndcg_sql.OptionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_measure(text)


def test_rbp_names():
    assert parse_measure("RBP(p=0.8)").name == "RBP"  # ir_measures leaves the default out
    assert parse_measure("rbp(p=0.9,rel=2)@10").name == "RBP(rel=2,p=0.9)@10"
    assert parse_measure("RBP(rel=2,p=0.9)").definition()["persistence"] == 0.9


# ------------------------------------------------------------------ ERR (gdeval.pl)


@pytest.mark.engines  # perl runs gdeval.pl
@pytest.mark.parametrize("run_name", RUNS)
def test_err_is_gdevals_through_ir_measures(run_name):
    names = ["ERR@5", "ERR@10", "ERR@20"]
    run = read_run(DL / run_name)
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = defaultdict(dict)
    for metric in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names], qrels, scored):
        expected[metric.query_id][str(metric.measure)] = metric.value
    # gdeval orders by score descending, then document id descending; it prints 5 decimals
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-desc", measures=names)
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name in names:
            assert got[(qid, name)] == pytest.approx(values[name], abs=5.1e-6), (qid, name)


def test_err_against_the_reference_on_trec_dl():
    run = read_run(DL / RUNS[0])
    qrels = pd.read_csv(QRELS, sep=" ", header=None, names=["query_id", "iter", "item_id", "label"],
                        dtype={"query_id": str, "item_id": str})
    labels = defaultdict(dict)
    for q, d, label in zip(qrels["query_id"], qrels["item_id"], qrels["label"]):
        labels[q][d] = label
    # trec_eval's ties and float32 scores (its convention gives trec_eval's measures only)
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-desc", gain="linear", score_precision="float32",
                               measures=["ERR@10", "ERR"])
    items = defaultdict(list)
    for q, d, s in run.itertuples(index=False):
        items[q].append((d, float(np.float32(s)), labels[q].get(d, 0)))
    for (qid, name), value in per_query(result).items():
        ordered = reference.ordered_labels(items[qid], "item-desc")
        want = reference.expected_reciprocal_rank(ordered, parse_measure(name).k)
        assert value == pytest.approx(want, **TOL), (qid, name)


def test_err_refuses_a_label_above_the_top_grade_and_names_the_option():
    """gdeval.pl refuses a judgment above its MAX_JUDGMENT (4); so does ERR, naming max_grade."""
    data = pd.DataFrame({"query_id": 1, "item_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0], "label": [5, 0, 2]})
    with pytest.raises(ndcg_sql.InputError, match=r"label 5 is above the top grade 4 .* max_grade=G \(--max-grade G\)"):
        ndcg_sql.evaluate(data, ties="item-asc", measures=["ERR"])
    with pytest.raises(ndcg_sql.InputError, match="label 5 is above the top grade 3"):
        ndcg_sql.evaluate(data, ties="item-asc", measures=["ERR@2"], max_grade=3)
    # a label in the judgments, where ERR reads them
    qrels = data[["query_id", "item_id", "label"]]
    with pytest.raises(ndcg_sql.InputError, match="label 5 is above the top grade 4 in the judgments"):
        ndcg_sql.evaluate(data.drop(columns="label"), judgments=qrels, ties="item-asc", measures=["ERR"])


def test_err_by_hand_with_a_top_grade_of_five():
    """Labels 5, 0, 2 with max_grade=5: R = 31/32, 0, 3/32; ERR = 31/32 + 0 + (3/32) / 3 * (1/32) * 1."""
    data = pd.DataFrame({"query_id": 1, "item_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0], "label": [5, 0, 2]})
    result = ndcg_sql.evaluate(data, ties="item-asc", measures=["ERR", "ERR@1", "ERR@2"], max_grade=5)
    got = per_query(result)
    assert [got[(1, n)] for n in ("ERR", "ERR@1", "ERR@2")] == pytest.approx([0.9697265625, 0.96875, 0.96875], **TOL)
    assert result.options["max_grade"] == 5


@pytest.mark.parametrize("value, words", [
    (0, r"max_grade \(--max-grade\) must be an integer from 1 to 1023; got 0"),
    (2.5, r"max_grade \(--max-grade\) must be an integer from 1 to 1023; got 2.5"),
    (True, r"max_grade \(--max-grade\) must be an integer from 1 to 1023; got True"),
    (1024, r"max_grade \(--max-grade\) must be an integer from 1 to 1023; got 1024"),
])
def test_max_grade_must_be_a_grade(value, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.to_sql("runs", ties="item-asc", measures=["ERR@5"], max_grade=value)


def test_max_grade_without_err_is_refused():
    with pytest.raises(ndcg_sql.OptionError, match=r"max_grade \(--max-grade\) is the top grade ERR reads"):
        ndcg_sql.to_sql("runs", measures=["nDCG@5"], max_grade=3)
    with pytest.raises(ndcg_sql.OptionError, match=r"max_grade \(--max-grade\) is the top grade ERR reads"):
        ndcg_sql.to_sql("runs", k=[5], max_grade=3)


def gdeval_per_query(run: pd.DataFrame, k: int, max_judgment: int) -> dict:
    """gdeval.pl (ir_measures' copy) with its MAX_JUDGMENT set to ``max_judgment``, run by perl on the
    DL19 qrels and ``run``: {query: ERR@k} (it prints 5 decimals)."""
    import pkgutil
    import re
    import subprocess
    import tempfile
    from pathlib import Path

    script = pkgutil.get_data("ir_measures", "bin/gdeval.pl").decode()
    script, replaced = re.subn(r"\$MAX_JUDGMENT = 4;", f"$MAX_JUDGMENT = {max_judgment};", script)
    assert replaced == 1
    with tempfile.TemporaryDirectory() as folder:
        path, run_path = Path(folder) / "gdeval.pl", Path(folder) / "run.txt"
        path.write_text(script)
        ranked = run.sort_values(["query_id", "score"], ascending=[True, False])
        run_path.write_text("".join(f"{q} Q0 {d} {i} {s!r} run\n" for i, (q, d, s) in
                                    enumerate(ranked.itertuples(index=False), start=1)))
        output = subprocess.run(["perl", str(path), str(QRELS), str(run_path), str(k)], check=True,
                                capture_output=True, text=True).stdout
    rows = [line.split(",") for line in output.splitlines()[1:] if line.strip()]
    return {topic: float(err) for _, topic, _, err in rows if topic != "amean"}


@pytest.mark.engines  # perl runs gdeval.pl
def test_err_with_a_top_grade_of_three_is_gdevals_with_max_judgment_three():
    """DL19's grades are 0..3: with max_grade=3, R = (2^g - 1) / 8, gdeval.pl's ERR with MAX_JUDGMENT = 3."""
    run = read_run(DL / RUNS[0])
    expected = gdeval_per_query(run, 10, 3)
    result = ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-desc", measures=["ERR@10"], max_grade=3)
    got = per_query(result)
    assert {q for q, _ in got} == set(expected)
    for qid, value in expected.items():
        assert got[(qid, "ERR@10")] == pytest.approx(value, abs=5.1e-6), qid
    # and the top grade matters: gdeval's own 4 gives other numbers
    default = per_query(ndcg_sql.evaluate(run, judgments=str(QRELS), ties="item-desc", measures=["ERR@10"]))
    assert sum(abs(default[key] - got[key]) > 1e-3 for key in got) > 10


def test_err_on_lambdarank_against_the_reference():
    data = pd.read_csv(LGB)
    data["row"] = range(len(data))
    result = ndcg_sql.evaluate(data, item_col="doc_id", ties="input-order", row_col="row", measures=["ERR@3", "ERR"])
    got = per_query(result)
    for qid, group in data.groupby("query_id"):
        ordered = list(group.sort_values("score", ascending=False, kind="stable")["label"])
        for k in (3, None):
            name = "ERR@3" if k else "ERR"
            assert got[(qid, name)] == pytest.approx(reference.expected_reciprocal_rank(ordered, k), **TOL)


def test_err_needs_a_tie_order_and_takes_no_threshold():
    data = pd.DataFrame({"query_id": 1, "item_id": ["a", "b"], "score": [1.0, 1.0], "label": [1, 0]})
    with pytest.raises(ndcg_sql.OptionError, match="ERR@10 needs a tie order: trec_eval's ties="):
        ndcg_sql.evaluate(data, measures=["ERR@10"])
    with pytest.raises(ndcg_sql.OptionError, match="ERR has no relevance threshold"):
        parse_measure("ERR(rel=2)@10")
