"""convention=... reproduces each peer tool, proven by running the tool itself."""

import lightgbm as lgb
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import xgboost as xgb
from sklearn.metrics import ndcg_score

import ndcg_sql
from conftest import EXAMPLES
from test_measures import by_key, pytrec_run
from test_peers import read_qrels

TOL = dict(rel=1e-9, abs=1e-9)
LAMBDARANK = ["rank.train.scored.csv", "rank.test.scored.csv"]


def read_trec_run_raw(path):
    """Scores as written (double); the trec_eval convention rounds them to float32 itself."""
    rows = [line.split() for line in open(path) if line.strip()]
    return pd.DataFrame([(f[0], f[2], float(f[4])) for f in rows], columns=["query_id", "item_id", "score"])


TREC_CASES = [
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test"),
    ("trec_eval_test/results.test", "trec_eval_test/qrels.rel_level"),  # negative judgments
    ("trec_dl19_passage/run.dl19.bm25.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
    ("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
]
TREC_MEASURES = {"nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "P@10": "P_10",
                 "R@100": "recall_100", "AP": "map", "RR": "recip_rank", "Success@5": "success_5"}


@pytest.mark.parametrize("run_file, qrels_file", TREC_CASES)
def test_trec_eval_convention_matches_pytrec_eval(run_file, qrels_file):
    run = read_trec_run_raw(EXAMPLES / run_file)
    qrels = read_qrels(EXAMPLES / qrels_file)
    # pytrec_eval is given the same double scores; it stores them as C floats
    expected = pytrec_eval.RelevanceEvaluator(dict(qrels), set(TREC_MEASURES.values())).evaluate(pytrec_run(run))
    result = ndcg_sql.evaluate(run, judgments=str(EXAMPLES / qrels_file), convention="trec_eval",
                               measures=list(TREC_MEASURES))
    got = by_key(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, measure in TREC_MEASURES.items():
            assert got[(qid, name)] == pytest.approx(values[measure], **TOL), (qid, name)
    assert result.options["convention"] == "trec_eval"


@pytest.mark.parametrize("name", LAMBDARANK)
@pytest.mark.parametrize("k", [1, 5, 10, None])
def test_sklearn_convention_matches_ndcg_score(name, k):
    data = pd.read_csv(EXAMPLES / "lightgbm_lambdarank" / name)
    result = ndcg_sql.evaluate(data, k=[k], item_col="doc_id", convention="sklearn")
    groups = [g for _, g in data.groupby("query_id") if len(g) > 1]  # scikit-learn refuses one-item lists
    got = {r["query_id"]: r["ndcg"] for r in result.per_query_records()}
    for group in groups:
        expected = ndcg_score([group["label"].to_numpy()], [group["score"].to_numpy()], k=k)
        assert got[group["query_id"].iloc[0]] == pytest.approx(expected, **TOL)
    many = [g for g in groups if len(g) == len(groups[0])]  # equal lengths: one ndcg_score call, its mean
    expected_mean = ndcg_score(np.stack([g["label"].to_numpy() for g in many]),
                               np.stack([g["score"].to_numpy() for g in many]), k=k)
    assert np.mean([got[g["query_id"].iloc[0]] for g in many]) == pytest.approx(expected_mean, **TOL)


def shuffled_ids(data, seed):
    """Item ids not in row order, so that ties by item id and by row order differ."""
    out = data.copy()
    out["item"] = np.random.default_rng(seed).permutation(len(out))
    out["row"] = np.arange(len(out))
    return out


def lightgbm_ndcg(data, cutoffs):
    """LightGBM's own ndcg@k of fixed scores: init_score, features that cannot split (one constant leaf
    shifts every score equally, so no order or tie changes), evaluated by LightGBM's metric."""
    groups = data.groupby("query_id", sort=False).size().to_numpy()
    dataset = lgb.Dataset(np.zeros((len(data), 1)), label=data["label"], group=groups,
                          init_score=data["score"].to_numpy(), free_raw_data=False)
    params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": cutoffs, "verbosity": -1, "num_threads": 1}
    history = {}
    lgb.train(params, dataset, num_boost_round=1, valid_sets=[dataset], valid_names=["data"],
              callbacks=[lgb.record_evaluation(history)])
    return {k: history["data"][f"ndcg@{k}"][0] for k in cutoffs}


@pytest.mark.parametrize("name", LAMBDARANK)
@pytest.mark.parametrize("reverse", [False, True])
def test_lightgbm_convention_matches_lightgbm(name, reverse):
    data = shuffled_ids(pd.read_csv(EXAMPLES / "lightgbm_lambdarank" / name), 0)
    if reverse:  # the same rows in the opposite order within each query: tied rows swap
        data = data.iloc[::-1].sort_values("query_id", kind="stable").reset_index(drop=True)
        data["row"] = np.arange(len(data))
    cutoffs = [1, 3, 5, 10, 20]
    expected = lightgbm_ndcg(data, cutoffs)
    result = ndcg_sql.evaluate(data, k=cutoffs, item_col="item", convention="lightgbm", row_col="row")
    for row in result.summary_records():
        assert row["ndcg"] == pytest.approx(expected[row["k"]], **TOL), row["k"]


def test_lightgbm_ties_follow_row_order_not_item_ids():
    data = shuffled_ids(pd.read_csv(EXAMPLES / "lightgbm_lambdarank" / "rank.train.scored.csv"), 0)
    expected = lightgbm_ndcg(data, [1, 3, 5])
    by_item = ndcg_sql.evaluate(data, k=[1, 3, 5], item_col="item", ties="item-asc", no_relevant="one")
    differs = [r for r in by_item.summary_records() if abs(r["ndcg"] - expected[r["k"]]) > 1e-9]
    assert differs  # the data's tied rows matter: only input order reproduces LightGBM


def xgboost_ndcg(data, metrics):
    groups = data.groupby("query_id", sort=False).size().to_numpy()
    matrix = xgb.DMatrix(np.zeros((len(data), 1)), label=data["label"], base_margin=data["score"].to_numpy())
    matrix.set_group(groups)
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": metrics}, matrix, num_boost_round=0)
    text = booster.eval(matrix, "data")  # "[0]\tdata-ndcg@5:0.98...\t..."
    return {part.split(":")[0].removeprefix("data-"): float(part.split(":")[1]) for part in text.split("\t")[1:]}


def long_tied_lists(seed):
    """Lists of 35-70 items (past XGBoost's default 32), scores with ties and scores that differ
    only beyond float32 precision, one all-zero query."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(6):
        for i in range(int(rng.integers(35, 70))):
            score = float(rng.integers(0, 5)) + (1e-9 if rng.random() < 0.3 else 0.0)
            rows.append((q, score, int(rng.integers(0, 4)) if q else 0))
    data = pd.DataFrame(rows, columns=["query_id", "score", "label"])
    return shuffled_ids(data, seed + 1)


@pytest.mark.parametrize("source", LAMBDARANK + ["long-tied"])
def test_xgboost_conventions_match_xgboost(source):
    if source == "long-tied":
        data = long_tied_lists(3)
    else:
        data = shuffled_ids(pd.read_csv(EXAMPLES / "lightgbm_lambdarank" / source), 1)
    expected = xgboost_ndcg(data, ["ndcg@1", "ndcg@5", "ndcg@10", "ndcg@5-", "ndcg@10-", "ndcg", "ndcg-"])
    plus = {r["k"]: r["ndcg"] for r in ndcg_sql.evaluate(
        data, k=[1, 5, 10, 32], item_col="item", convention="xgboost", row_col="row").summary_records()}
    minus = {r["k"]: r["ndcg"] for r in ndcg_sql.evaluate(
        data, k=[5, 10, 32], item_col="item", convention="xgboost-minus", row_col="row").summary_records()}
    for k in (1, 5, 10):
        assert plus[k] == pytest.approx(expected[f"ndcg@{k}"], **TOL), k
    for k in (5, 10):
        assert minus[k] == pytest.approx(expected[f"ndcg@{k}-"], **TOL), k
    assert plus[32] == pytest.approx(expected["ndcg"], **TOL)  # XGBoost's plain "ndcg" is ndcg@32
    assert minus[32] == pytest.approx(expected["ndcg-"], **TOL)


@pytest.mark.parametrize("kwargs, words", [
    (dict(convention="trec_eval", gain="exponential"), None),  # the default: the convention's linear gain wins
    (dict(convention="trec_eval", ties="item-asc"), "sets ties='item-desc'"),
    (dict(convention="galago"), "convention must be one of"),
    (dict(convention="lightgbm"), "needs row_col"),
    (dict(ties="input-order"), r"ties='input-order' needs row_col \(--row-col\): the column of input row positions"),
    (dict(row_col="row"), r"row_col \(--row-col\) is only used with ties='input-order' \(ties is 'average'\)"),
    (dict(row_col="row", convention="trec_eval"), r"only used with ties='input-order' \(ties is 'item-desc'\)"),
])
def test_convention_option_errors(kwargs, words):
    data = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [1.0, 1.0], "label": [1, 0], "row": [0, 1]})
    if words is None:
        assert ndcg_sql.evaluate(data, k=2, **kwargs).options["gain"] == "linear"
        return
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.evaluate(data, k=2, **kwargs)


def test_list_conventions_refuse_judgments():
    data = pd.DataFrame({"query_id": [1], "item_id": [1], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": [1], "item_id": [1], "label": [1]})
    with pytest.raises(ndcg_sql.OptionError, match="ideal ranking from the list"):
        ndcg_sql.evaluate(data, judgments=qrels, convention="sklearn")


def test_negative_labels_are_errors_unless_counted_as_zero():
    data = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [2.0, 1.0], "label": [-1, 2]})
    with pytest.raises(ndcg_sql.InputError, match="negative labels"):
        ndcg_sql.evaluate(data, k=2)
    # label -1 counts as 0: DCG@2 = 2 / log2(3), IDCG@2 = 2
    row = ndcg_sql.evaluate(data, k=2, gain="linear", negative_labels="zero").per_query_records()[0]
    assert row["ndcg"] == pytest.approx((2 / np.log2(3)) / 2, **TOL)


def test_negative_labels_counted_as_zero_with_a_gain_mapping():
    data = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [2.0, 1.0], "label": [-2, 1]})
    row = ndcg_sql.evaluate(data, k=2, gain={0: 0, 1: 5}, negative_labels="zero").per_query_records()[0]
    assert row["dcg"] == pytest.approx(5 / np.log2(3), **TOL) and row["idcg"] == pytest.approx(5.0, **TOL)


def _atol(text: str) -> int:
    """C's atol, as trec_eval's get_qrels.c reads a relevance level: the leading whole number."""
    import re

    match = re.match(r"\s*([-+]?\d+)", text)
    return int(match.group(1)) if match else 0


def test_trec_eval_convention_reads_numeric_docnos_as_strings_and_labels_with_atol():
    """Integer query and item ids, every score tied: trec_eval orders tied docnos by strcmp,
    descending ("9" before "10" before "100"); fractional qrels labels count with their whole part
    (1.5 is 1, 0.7 is 0). pytrec_eval takes ids as strings and levels as the atol of the text."""
    items = [9, 10, 100, 2, 21, 3]
    run = pd.DataFrame({"query_id": [1] * 6 + [2] * 6, "item_id": items * 2, "score": [1.0] * 12})
    labels = {(1, 9): "0.7", (1, 10): "2.5", (1, 100): "1", (1, 21): "3.9",
              (2, 2): "1.5", (2, 3): "2", (2, 100): "0.2", (2, 7): "4.01"}
    qrels = pd.DataFrame([(q, d, float(rel)) for (q, d), rel in labels.items()],
                         columns=["query_id", "item_id", "label"])
    cuts = [1, 3, 5, 10]
    got = ndcg_sql.evaluate(run, judgments=qrels, convention="trec_eval", k=cuts).per_query_records()
    trec_qrels = {}
    for (q, d), rel in labels.items():
        trec_qrels.setdefault(str(q), {})[str(d)] = _atol(rel)
    trec_run = {str(q): {str(d): 1.0 for d in items} for q in (1, 2)}
    evaluator = pytrec_eval.RelevanceEvaluator(trec_qrels, {"ndcg_cut." + ",".join(map(str, cuts))})
    expected = evaluator.evaluate(trec_run)
    assert len(got) == 2 * len(cuts)
    for row in got:
        assert row["ndcg"] == pytest.approx(expected[row["query_id"]][f"ndcg_cut_{row['k']}"], **TOL), row
    # numeric order would differ: 100 > 21 > 10 > 9 puts the label-1 item first at k=1 in query 1
    assert {(r["query_id"], r["k"]): r["ndcg"] for r in got}[("1", 1)] == pytest.approx(0.0)


def test_trec_eval_convention_reads_a_qrels_files_labels_with_atol(tmp_path):
    """A qrels file's label text as trec_eval's atol reads it: "2e1" is 2 (not 20), "1.5" is 1,
    ".5" is 0, "+3" is 3; checked with pytrec_eval given the atol of each text. Without the
    convention the same file's labels are the numbers they write (20, 1.5, 0.5, 3)."""
    labels = {"a": "2e1", "b": "1.5", "c": ".5", "d": "+3"}
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"1 0 {doc} {rel}\n" for doc, rel in labels.items()))
    scores = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    run = pd.DataFrame({"query_id": ["1"] * 4, "item_id": list(scores), "score": list(scores.values())})
    got = ndcg_sql.evaluate(run, judgments=str(qrels), convention="trec_eval", k=[10]).per_query_records()
    evaluator = pytrec_eval.RelevanceEvaluator({"1": {doc: _atol(rel) for doc, rel in labels.items()}}, {"ndcg_cut.10"})
    assert got[0]["ndcg"] == pytest.approx(evaluator.evaluate({"1": scores})["1"]["ndcg_cut_10"], **TOL)
    # hand-worked: gains 2, 1, 0, 3 at ranks 1-4; ideal 3, 2, 1
    assert got[0]["dcg"] == pytest.approx(2 + 1 / np.log2(3) + 3 / np.log2(5), **TOL)
    plain = ndcg_sql.evaluate(run, judgments=str(qrels), gain="linear", ties="item-desc", k=[10]).per_query_records()
    assert plain[0]["dcg"] == pytest.approx(20 + 1.5 / np.log2(3) + 0.5 / 2 + 3 / np.log2(5), **TOL)


@pytest.mark.parametrize("given, canonical", [
    ("ir_measures", "trec_eval"), ("ir-measures", "trec_eval"), ("IR_Measures", "trec_eval"),
    ("pytrec_eval", "trec_eval"), ("pytrec-eval", "trec_eval"), ("trec-eval", "trec_eval"),
    ("scikit-learn", "sklearn"), ("scikit_learn", "sklearn"), ("xgboost_minus", "xgboost-minus")])
def test_every_spelling_of_a_peers_name_is_its_convention(given, canonical):
    """The names the docs give for a peer (its package's name as imported or as installed, any case)
    resolve to that peer's convention: ir_measures was refused once, its alias written with '_'
    where names are looked up with '-'."""
    from ndcg_sql.building import context
    from ndcg_sql.vocabulary import parameters

    row_col = "row_position" if canonical.startswith("xgboost") else None  # XGBoost orders ties by input row
    options = parameters.Request(convention=given, row_col=row_col).metric()
    assert context.resolve(options, judged=False).convention == canonical
