"""Every (convention x option) combination either reproduces the peer tool, proven here by running
the tool on the bundled data to 1e-9, or is refused with an OptionError that names the convention
and the option (the rule: sql/options/resolve_convention.sql and sql/options/weight_rule.sql,
read by every entry point; the table: ndcg_sql/vocabulary/conventions.py).

The peers and what they take: trec_eval (pytrec_eval) judgments, cutoffs, -c (missing queries
count 0), -J (condensed lists), its measures, no query weights; scikit-learn ``ndcg_score`` /
``dcg_score`` with ``k`` and ``sample_weight``; LightGBM's ``ndcg@k`` with query weights (the
Dataset's weights); XGBoost's ``ndcg@k`` and ``ndcg@k-`` with per-group weights
(``DMatrix.set_weight`` after ``set_group``). A segment is the peer run on that segment's queries;
intervals and the bootstrap add columns and leave the mean the peer's."""

import json
import re
from collections import defaultdict

import lightgbm as lgb
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import xgboost as xgb
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_sql
from ndcg_sql import InputError
from conftest import EXAMPLES

TOL = dict(rel=1e-9, abs=1e-9)
LAMBDARANK = EXAMPLES / "lightgbm_lambdarank" / "rank.test.scored.csv"
DL = EXAMPLES / "trec_dl19_passage"
RUN, QRELS = DL / "run.dl19.bm25.top100.txt", DL / "qrels.dl19-passage.txt"
CUTOFFS = [1, 5, 10, None]
#: k = None (the whole list) as LightGBM's and XGBoost's ndcg@k: a k past every list
WHOLE = 1000


# ----------------------------------------------------------------- data
def lambdarank():
    """768 rows, 50 queries: query weights 0.5 .. 2.5, two queries without a relevant item (one of
    weight 0.5, one of 2.5: the no-relevant rule changes the weighted mean), item ids not in row
    order, and a segment column."""
    data = pd.read_csv(LAMBDARANK).rename(columns={"doc_id": "item"})
    data["w"] = (data["query_id"] * 7 % 5 + 1) * 0.5
    data.loc[data["query_id"].isin([data["query_id"].unique()[0], data["query_id"].unique()[3]]), "label"] = 0
    data["item"] = np.random.default_rng(0).permutation(len(data))
    data["row"] = np.arange(len(data))
    data["arm"] = np.where(data["query_id"] % 3 == 0, "a", "b")
    return data


def trec_run():
    rows = [line.split() for line in open(RUN) if line.strip()]
    run = pd.DataFrame([(f[0], f[2], float(f[4])) for f in rows], columns=["query_id", "item_id", "score"])
    return run.assign(arm=np.where(run["query_id"].astype(int) % 3 == 0, "a", "b"), w=1.0)


def trec_qrels():
    qrels = defaultdict(dict)
    for line in open(QRELS):
        f = line.split()
        qrels[f[0]][f[2]] = int(f[3])
    return dict(qrels)


# ----------------------------------------------------------------- the peers, run
def lightgbm_means(data, cutoffs, weighted):
    """LightGBM's ndcg@k of fixed scores (init_score; features that cannot split, so one constant
    leaf shifts every score equally), with the query weights as the Dataset's weights."""
    sizes = data.groupby("query_id", sort=False).size().to_numpy()
    dataset = lgb.Dataset(np.zeros((len(data), 1)), label=data["label"], group=sizes,
                          init_score=data["score"].to_numpy(), weight=data["w"] if weighted else None)
    ks = [WHOLE if k is None else k for k in cutoffs]
    history = {}
    lgb.train({"objective": "lambdarank", "metric": "ndcg", "eval_at": ks, "verbosity": -1, "num_threads": 1},
              dataset, num_boost_round=1, valid_sets=[dataset], valid_names=["data"],
              callbacks=[lgb.record_evaluation(history)])
    return {k: history["data"][f"ndcg@{WHOLE if k is None else k}"][0] for k in cutoffs}


def xgboost_means(data, cutoffs, weighted, minus):
    """XGBoost's ndcg@k (ndcg@k- when minus) of fixed scores (base_margin, no tree), with one
    weight per group (XGBoost's ranking weights are per query)."""
    matrix = xgb.DMatrix(np.zeros((len(data), 1)), label=data["label"], base_margin=data["score"].to_numpy())
    matrix.set_group(data.groupby("query_id", sort=False).size().to_numpy())
    if weighted:
        matrix.set_weight(data.groupby("query_id", sort=False)["w"].first().to_numpy())
    names = {k: f"ndcg@{WHOLE if k is None else k}{'-' if minus else ''}" for k in cutoffs}
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": list(names.values())}, matrix, num_boost_round=0)
    text = booster.eval(matrix, "data")  # "[0]\tdata-ndcg@5:0.98...\t..."
    values = {part.split(":")[0].removeprefix("data-"): float(part.split(":")[1]) for part in text.split("\t")[1:]}
    return {k: values[name] for k, name in names.items()}


def lightgbm_maps(data, cutoffs, weighted=False):
    """LightGBM's map@k of fixed scores (its metric "map", map_metric.hpp), as lightgbm_means runs ndcg@k."""
    sizes = data.groupby("query_id", sort=False).size().to_numpy()
    dataset = lgb.Dataset(np.zeros((len(data), 1)), label=data["label"], group=sizes,
                          init_score=data["score"].to_numpy(), weight=data["w"] if weighted else None)
    ks = [WHOLE if k is None else k for k in cutoffs]
    history = {}
    lgb.train({"objective": "lambdarank", "metric": "map", "eval_at": ks, "verbosity": -1, "num_threads": 1},
              dataset, num_boost_round=1, valid_sets=[dataset], valid_names=["data"],
              callbacks=[lgb.record_evaluation(history)])
    return {k: history["data"][f"map@{WHOLE if k is None else k}"][0] for k in cutoffs}


def xgboost_metrics(data, names, weighted=False):
    """XGBoost's metrics ``names`` (e.g. "map@5-", "pre@3") of fixed scores, as xgboost_means runs ndcg@k."""
    matrix = xgb.DMatrix(np.zeros((len(data), 1)), label=data["label"], base_margin=data["score"].to_numpy())
    matrix.set_group(data.groupby("query_id", sort=False).size().to_numpy())
    if weighted:
        matrix.set_weight(data.groupby("query_id", sort=False)["w"].first().to_numpy())
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": list(names)}, matrix, num_boost_round=0)
    text = booster.eval(matrix, "data")
    return {part.split(":")[0].removeprefix("data-"): float(part.split(":")[1]) for part in text.split("\t")[1:]}


def binary(data):
    """The data with labels 0 and 1 (label > 0): XGBoost computes map@k and pre@k of those only."""
    return data.assign(label=(data["label"] > 0).astype(int))


def check_peer_ap(convention, data, weighted):
    """AP@k (and XGBoost's P@k) under a convention of LightGBM or XGBoost: the tool's map@k (AP@k divided by
    min(R, k), a query without a relevant item counting the convention's no_relevant) and pre@k (divided by
    min(k, list length)). Per query the values differ from trec_eval's AP@k, so the means do too."""
    minus = "-" if convention == "xgboost-minus" else ""
    if convention == "lightgbm":
        names, expected = ["AP@5", "AP"], dict(zip(["AP@5", "AP"], lightgbm_maps(data, [5, None], weighted).values()))
    else:
        data = binary(data)
        names = ["AP@5", "AP", "P@3", "P@20"]
        theirs = xgboost_metrics(data, [f"map@5{minus}", f"map@{WHOLE}{minus}", "pre@3", "pre@20"], weighted)
        expected = dict(zip(names, [theirs[f"map@5{minus}"], theirs[f"map@{WHOLE}{minus}"], theirs["pre@3"],
                                    theirs["pre@20"]]))
    got = by_measure(lambdarank_means(convention, data, measures=names, weight_col="w" if weighted else None))
    assert got == pytest.approx(expected, **TOL)
    plain = by_measure(ndcg_sql.evaluate(data, item_col="item", ties="input-order", row_col="row", gain="exponential",
                                         measures=["AP@5"], weight_col="w" if weighted else None).summary_records())
    assert plain["AP@5"] != pytest.approx(got["AP@5"], **TOL)


def sklearn_means(data, cutoffs, weighted, score=ndcg_score):
    """scikit-learn's ndcg_score (or dcg_score) of all queries in one call: equal-length rows, each
    list padded with label-0 items scored below every real one; sample_weight the query weights."""
    width = data.groupby("query_id").size().max()
    low = data["score"].min() - 1e6
    truth, scores, weights = [], [], []
    for _, group in data.groupby("query_id", sort=False):
        pad = width - len(group)
        truth.append(list(group["label"]) + [0] * pad)
        scores.append(list(group["score"]) + [low] * pad)
        weights.append(group["w"].iloc[0])
    return {k: score(truth, scores, k=k, sample_weight=weights if weighted else None, ignore_ties=False)
            for k in cutoffs}


def peer_means(convention, data, cutoffs, weighted=False):
    """{k: the peer's mean NDCG@k} on the lambdarank data."""
    if convention == "sklearn":
        return sklearn_means(data, cutoffs, weighted)
    if convention == "lightgbm":
        return lightgbm_means(data, cutoffs, weighted)
    return xgboost_means(data, cutoffs, weighted, minus=convention == "xgboost-minus")


def trec_eval_values(run, measures, judged_only=False):
    """pytrec_eval's per-query values {query: {measure: value}} of the run's double scores."""
    scores = defaultdict(dict)
    for q, d, s in run[["query_id", "item_id", "score"]].itertuples(index=False):
        scores[q][d] = s
    evaluator = pytrec_eval.RelevanceEvaluator(trec_qrels(), set(measures), judged_docs_only_flag=judged_only)
    return evaluator.evaluate(dict(scores))


#: ndcg_sql's measure name -> trec_eval's
TREC = {"nDCG@5": "ndcg_cut_5", "nDCG": "ndcg", "P@5": "P_5", "R@10": "recall_10", "AP": "map",
        "AP@10": "map_cut_10", "RR": "recip_rank", "Success@5": "success_5"}
TREC_CUTOFFS = {1: "ndcg_cut_1", 5: "ndcg_cut_5", 10: "ndcg_cut_10", None: "ndcg"}


# ----------------------------------------------------------------- ndcg_sql
def lambdarank_means(convention, data, **options):
    row = {} if convention == "sklearn" else {"row_col": "row"}
    result = ndcg_sql.evaluate(data, item_col="item", convention=convention, **row, **options)
    return result.summary_records()


def by_k(rows, segment=None):
    return {r["k"]: r["ndcg"] for r in rows if segment is None or r["arm"] == segment}


def by_measure(rows):
    return {r["measure"]: r["mean"] for r in rows}


# ----------------------------------------------------------------- the table
LIST_CONVENTIONS = ["sklearn", "lightgbm", "xgboost", "xgboost-minus"]
PEER = {"sklearn": "scikit-learn", "lightgbm": "LightGBM", "xgboost": "XGBoost", "xgboost-minus": "XGBoost"}


def check_list_convention(convention, option):
    data = lambdarank()
    if option == "k":
        assert by_k(lambdarank_means(convention, data, k=CUTOFFS)) == pytest.approx(
            peer_means(convention, data, CUTOFFS), **TOL)
    elif option == "weight_col":
        got = by_k(lambdarank_means(convention, data, k=CUTOFFS, weight_col="w"))
        assert got == pytest.approx(peer_means(convention, data, CUTOFFS, weighted=True), **TOL)
        # the weights matter here: the unweighted mean is another number
        assert got[5] != pytest.approx(peer_means(convention, data, [5])[5], **TOL)
    elif option in ("measures", "measures, weight_col"):
        weighted = option != "measures"
        names = ["nDCG@5", "nDCG"] + (["DCG@5", "DCG@10"] if convention == "sklearn" else [])
        got = by_measure(lambdarank_means(convention, data, measures=names, weight_col="w" if weighted else None))
        ndcg = peer_means(convention, data, [5, None], weighted)
        assert got["nDCG@5"] == pytest.approx(ndcg[5], **TOL) and got["nDCG"] == pytest.approx(ndcg[None], **TOL)
        if convention == "sklearn":
            dcg = sklearn_means(data, [5, 10], weighted, score=dcg_score)
            assert got["DCG@5"] == pytest.approx(dcg[5], **TOL) and got["DCG@10"] == pytest.approx(dcg[10], **TOL)
        else:
            check_peer_ap(convention, data, weighted)
    elif option in ("segments", "segments, weight_col"):
        weighted = option != "segments"
        rows = lambdarank_means(convention, data, k=[3, None], segments="arm", weight_col="w" if weighted else None)
        for arm in ("a", "b"):
            part = data[data["arm"] == arm].reset_index(drop=True)
            assert by_k(rows, arm) == pytest.approx(peer_means(convention, part, [3, None], weighted), **TOL), arm
    elif option == "intervals, bootstrap":
        rows = lambdarank_means(convention, data, k=[3, None], intervals=True, bootstrap=20)
        assert {"stderr", "bootstrap_low"} <= set(rows[0])
        assert by_k(rows) == pytest.approx(peer_means(convention, data, [3, None]), **TOL)
    else:
        raise AssertionError(option)


def check_trec_eval(option):
    run = trec_run()
    judgments = str(QRELS)
    if option == "k":
        result = ndcg_sql.evaluate(run, judgments=judgments, convention="trec_eval", k=CUTOFFS)
        values = trec_eval_values(run, TREC_CUTOFFS.values())
        expected = {k: np.mean([v[m] for v in values.values()]) for k, m in TREC_CUTOFFS.items()}
        assert by_k(result.summary_records()) == pytest.approx(expected, **TOL)
    elif option == "measures":
        result = ndcg_sql.evaluate(run, judgments=judgments, convention="trec_eval", measures=list(TREC))
        values = trec_eval_values(run, TREC.values())
        got = {(r["query_id"], r["measure"]): r["value"] for r in result.per_query_records()}
        for qid, theirs in values.items():
            for name, measure in TREC.items():
                assert got[(qid, name)] == pytest.approx(theirs[measure], **TOL), (qid, name)
    elif option == "segments":
        result = ndcg_sql.evaluate(run, judgments=judgments, convention="trec_eval", k=[5, None], segments="arm")
        values = trec_eval_values(run, ["ndcg_cut_5", "ndcg"])
        arm = dict(zip(run["query_id"], run["arm"]))
        for segment in ("a", "b"):
            mine = [v for q, v in values.items() if arm[q] == segment]
            expected = {5: np.mean([v["ndcg_cut_5"] for v in mine]), None: np.mean([v["ndcg"] for v in mine])}
            assert by_k(result.summary_records(), segment) == pytest.approx(expected, **TOL), segment
    elif option == "intervals, bootstrap":
        result = ndcg_sql.evaluate(run, judgments=judgments, convention="trec_eval", k=[5], intervals=True,
                                   bootstrap=20)
        values = trec_eval_values(run, ["ndcg_cut_5"])
        assert by_k(result.summary_records())[5] == pytest.approx(np.mean([v["ndcg_cut_5"] for v in values.values()]),
                                                                   **TOL)
    elif option == "missing_queries":
        # trec_eval -c: the mean over every judged query, a query absent from the run counting 0
        kept = run[run["query_id"].astype(int) % 4 != 0]
        assert kept["query_id"].nunique() < len(trec_qrels())
        result = ndcg_sql.evaluate(kept, judgments=judgments, convention="trec_eval", measures=["nDCG@10", "AP"],
                                   missing_queries="zero")
        values = trec_eval_values(kept, ["ndcg_cut_10", "map"])
        expected = {name: sum(v[m] for v in values.values()) / len(trec_qrels())
                    for name, m in (("nDCG@10", "ndcg_cut_10"), ("AP", "map"))}
        assert by_measure(result.summary_records()) == pytest.approx(expected, **TOL)
    elif option == "unjudged":
        # trec_eval -J: unjudged items removed before ranking
        result = ndcg_sql.evaluate(run, judgments=judgments, convention="trec_eval", measures=["nDCG@10", "P@5"],
                                   unjudged="condense")
        values = trec_eval_values(run, ["ndcg_cut_10", "P_5"], judged_only=True)
        expected = {"nDCG@10": np.mean([v["ndcg_cut_10"] for v in values.values()]),
                    "P@5": np.mean([v["P_5"] for v in values.values()])}
        assert by_measure(result.summary_records()) == pytest.approx(expected, **TOL)
    else:
        raise AssertionError(option)


#: (convention, option) -> None (reproduces the peer: proven by running it) or
#: (the options given, the words of the OptionError that refuses it)
TABLE = {}
for _c in LIST_CONVENTIONS:
    _peer = PEER[_c]
    TABLE.update({
        (_c, "k"): None,
        (_c, "weight_col"): None,
        (_c, "measures"): None,
        (_c, "measures, weight_col"): None if _c in ("sklearn", "xgboost-minus") else (
            dict(measures=["nDCG@5"], weight_col="w"),
            rf"convention '{_c}' with weight_col \(--weight-col\) is {_peer}'s weighted ndcg@k: give k, not measures"),
        (_c, "other measures"): (
            dict(measures=["nDCG@5", "RR@5", "AP(rel=2)@5"]),
            rf"convention '{_c}' reproduces {_peer}'s measures only \(nDCG(, DCG|, AP|, AP, P)?\), not RR@5, "
            rf"AP\(rel=2\)@5( \(AP\(rel=2\)@5: {_peer} has no relevance threshold \(rel=\)\))?: drop the convention"),
        (_c, "segments"): None,
        (_c, "segments, weight_col"): None,
        (_c, "intervals, bootstrap"): None,
        (_c, "judgments"): (dict(judgments="JUDGMENTS", k=[5]),
                            rf"convention '{_c}' takes the ideal ranking from the list itself; give labels"),
        (_c, "missing_queries"): (dict(judgments="JUDGMENTS", k=[5], missing_queries="zero"),
                                  rf"convention '{_c}' takes the ideal ranking from the list itself"),
        (_c, "unjudged"): (dict(judgments="JUDGMENTS", k=[5], unjudged="condense"),
                           rf"convention '{_c}' takes the ideal ranking from the list itself"),
    })
_NO_WEIGHTS = (r"convention 'trec_eval' has no query weights: trec_eval does not weight queries; drop weight_col "
               r"\(--weight-col\) or the convention")
TABLE.update({
    ("trec_eval", "k"): None,
    ("trec_eval", "weight_col"): (dict(weight_col="w", k=[5]), _NO_WEIGHTS),
    ("trec_eval", "measures"): None,
    ("trec_eval", "measures, weight_col"): (dict(weight_col="w", measures=["nDCG@5"]), _NO_WEIGHTS),
    ("trec_eval", "other measures"): (
        dict(measures=["nDCG@10", "ERR@10", "Judged@10", "DCG@5"]),
        r"convention 'trec_eval' reproduces trec_eval's measures only \(nDCG, P, R, AP, RR, Success, Bpref, infAP, "
        r"Rprec, IPrec, gm_map, SetP, SetR\), not ERR@10, "
        r"Judged@10, DCG@5: drop the convention"),
    ("trec_eval", "segments"): None,
    ("trec_eval", "segments, weight_col"): (dict(weight_col="w", segments="arm", k=[5]), _NO_WEIGHTS),
    ("trec_eval", "intervals, bootstrap"): None,
    ("trec_eval", "missing_queries"): None,
    ("trec_eval", "unjudged"): None,
    # trec_eval reads a judgment below 0 as not judged (form_res_rels.c): negative_labels="zero" is Sakai's
    # reading (tests/test_condensed.py runs both against pytrec_eval)
    ("trec_eval", "negative_labels"): (dict(negative_labels="zero", k=[5]),
                                       r"convention 'trec_eval' sets negative_labels='unjudged'; got negative_labels='zero'"),
})
# trec_eval's judgments: every trec_eval row above has them (its ideal ranking is all judged items)


@pytest.mark.parametrize("convention, option", list(TABLE), ids=[f"{c}-{o}" for c, o in TABLE])
def test_each_convention_and_option_reproduces_the_peer_or_is_refused(convention, option):
    case = TABLE[(convention, option)]
    if case is None:
        if convention == "trec_eval":
            check_trec_eval(option)
        else:
            check_list_convention(convention, option)
        return
    options, words = case
    if convention == "trec_eval":
        data, given = trec_run(), dict(judgments=str(QRELS))
    else:
        data = lambdarank().rename(columns={"item": "item_id"})
        given = {} if convention == "sklearn" else {"row_col": "row"}
    if options.get("judgments") == "JUDGMENTS":
        options = dict(options, judgments=data[["query_id", "item_id", "label"]])
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.evaluate(data, convention=convention, **given, **options)
    # the SQL text (to_sql: no data read) is refused alike
    if "judgments" not in options:
        sql_options = dict(options, **({"judgments_table": "qrels"} if convention == "trec_eval" else {}),
                           **({} if convention in ("sklearn", "trec_eval") else {"row_col": "row"}))
        with pytest.raises(ndcg_sql.OptionError, match=words):
            ndcg_sql.to_sql("runs", convention=convention, **sql_options)


@pytest.mark.parametrize("convention", ["trec_eval", "sklearn", "lightgbm"])
def test_a_refused_measure_names_every_option_the_convention_sets(convention):
    """The refusal of a measure the tool does not compute says what to give instead of the
    convention: each option it sets with its value, not "(gain, ties, ...)"."""
    from ndcg_sql.vocabulary import conventions, parameters

    preset = conventions.CONVENTIONS[convention]
    ranking = pd.DataFrame({"query_id": [1, 1], "item_id": ["a", "b"], "score": [0.9, 0.5], "label": [1, 0]})
    with pytest.raises(ndcg_sql.OptionError) as error:
        ndcg_sql.evaluate(ranking, convention=convention, measures=["ERR@5"])
    told = str(error.value).split("give the options it sets: ", 1)[1]
    options = [name for name in preset if name in parameters.BY_NAME]
    assert len(options) >= 5
    # each with its command-line spelling, as the other option messages give it; ties='input-order' with
    # the row_col it cannot go without
    row_col = " with row_col (--row-col) naming the column of input row positions"
    assert told == ", ".join(f"{name}={preset[name]!r} ({parameters.BY_NAME[name].flag} {preset[name]})"
                             + (row_col if preset[name] == "input-order" else "") for name in options)


@pytest.mark.parametrize("convention", [c for c in LIST_CONVENTIONS if c != "sklearn"])
def test_following_a_refused_measures_advice_literally_works(convention, tmp_path, capsys):
    """`--convention lightgbm --measures RR` advised "give the options it sets: ..., ties='input-order'
    (--ties input-order), ...", and those flags were refused in turn: input order needs --row-col. The
    advice names it, and the command line given every flag of the advice (--row-col with the file's
    row-number column) runs."""
    import re

    from ndcg_sql.cli import main
    from ndcg_sql.vocabulary import conventions

    assert conventions.CONVENTIONS[convention]["ties"] == "input-order"
    path = tmp_path / "ranking.csv"
    lambdarank().rename(columns={"item": "item_id"}).to_csv(path, index=False)
    command = ["evaluate", str(path), "--measures", "RR", "--no-progress", "--format", "json"]
    with pytest.raises(SystemExit) as stop:
        main([*command, "--convention", convention])
    told = capsys.readouterr().err.split("give the options it sets: ", 1)[1]
    assert stop.value.code == 2 and "(--ties input-order) with row_col (--row-col)" in told
    flags = [flag.split() for flag in re.findall(r"\((--[a-z-]+(?: [^()]+)?)\)", told)]
    assert ["--row-col"] in flags
    advised = [word for flag in flags for word in (flag + ["row"] if flag == ["--row-col"] else flag)]
    with pytest.raises(SystemExit) as stop:  # the advice without --row-col is refused
        main([*command, *[w for f in flags if f != ["--row-col"] for w in f]])
    assert stop.value.code == 2 and "needs row_col (--row-col)" in capsys.readouterr().err
    assert main([*command, *advised]) == 0
    assert json.loads(capsys.readouterr().out)["summary"][0]["measure"] == "RR"


@pytest.mark.parametrize("convention", ["xgboost", "xgboost-minus"])
def test_xgboost_map_and_pre_refuse_labels_other_than_0_and_1(convention):
    """XGBoost stops with "map can only be used with binary labels" (and pre likewise); so does the convention."""
    data = lambdarank()
    with pytest.raises(xgb.core.XGBoostError, match="binary labels"):
        xgboost_metrics(data, ["map@5"])
    with pytest.raises(ndcg_sql.InputError, match=r"labels 2, 3, 4 are not 0 or 1 \(XGBoost's AP@5, P@3: for labels 0 "
                                                  r"and 1 only\)"):
        lambdarank_means(convention, data, measures=["AP@5", "P@3"])
    lambdarank_means(convention, data, measures=["nDCG@5"])  # its ndcg@k takes graded labels


@pytest.mark.parametrize("measure", ["P(rel=0)@5", "AP(rel=0)", "R(rel=-1)@10", "SetP(rel=0)"])
def test_a_relevance_level_below_trec_evals_lowest_is_refused(measure):
    """pytrec_eval refuses a relevance level of 0 or less (it computes no such measure), so under
    its convention a threshold below 1 is refused, not computed."""
    with pytest.raises(TypeError, match="relevance_level should be positive"):
        pytrec_eval.RelevanceEvaluator({"q": {"d": 1}}, {"P_5"}, relevance_level=0)
    with pytest.raises(ndcg_sql.OptionError, match=re.escape(f"{measure}: trec_eval takes relevance levels of 1 or more only")):
        ndcg_sql.to_sql(table="t", convention="trec_eval", measures=[measure])
    ndcg_sql.to_sql(table="t", convention="trec_eval", measures=[measure.replace("rel=0", "rel=1").replace("rel=-1", "rel=2")])


def test_lightgbm_map_reads_fractional_labels_as_lightgbm():
    """LightGBM's map@k counts a label relevant when ``label > 0.5f`` on its float32 labels
    (map_metric.hpp, MapMetric::Init and CalMapAtK; no check that a label is whole, unlike ndcg's
    DCGCalculator::CheckLabel), so 0.7 and 2.5 are relevant, 0.5 is not, nor 0.5 + 2^-26 (float32:
    0.5), and 0.5 + 2^-23 is. AP@k under convention="lightgbm" equals LightGBM's map@k run with a
    regression objective (lambdarank's objective refuses such labels itself)."""
    labels = [0.7, 1.0, 0.5, 1.0, 2.5, 0.0, 0.5 + 2.0 ** -26, 1.0, 0.5 + 2.0 ** -23, 0.0, 0.3, 0.2]
    data = pd.DataFrame({"query_id": np.repeat([1, 2, 3, 4, 5, 6], 2), "item": np.arange(12),
                         "score": [2.0, 1.0] * 6, "label": labels, "row": np.arange(12)})
    dataset = lgb.Dataset(np.zeros((len(data), 1)), label=data["label"], group=[2] * 6,
                          init_score=data["score"].to_numpy())
    history = {}
    lgb.train({"objective": "regression", "metric": "map", "eval_at": [1, 2], "verbosity": -1, "num_threads": 1},
              dataset, num_boost_round=1, valid_sets=[dataset], valid_names=["data"],
              callbacks=[lgb.record_evaluation(history)])
    expected = {f"AP@{k}": history["data"][f"map@{k}"][0] for k in (1, 2)}
    got = by_measure(ndcg_sql.evaluate(data, item_col="item", convention="lightgbm", row_col="row",
                                       measures=["AP@1", "AP@2"]).summary_records())
    assert got == pytest.approx(expected, **TOL)
    # by hand (map_metric.hpp): relevant at rank 1 in queries 1, 3 and 5, query 6 has none (counts 1)
    assert expected["AP@1"] == pytest.approx((1 + 0 + 1 + 0 + 1 + 1) / 6, **TOL)


@pytest.mark.parametrize("convention, peer", [("lightgbm", "LightGBM"), ("xgboost", "XGBoost"), ("xgboost-minus", "XGBoost")])
def test_a_fractional_label_in_ndcg_is_refused_as_the_tools_refuse_it(convention, peer):
    """LightGBM's ndcg stops on a label that is not whole (dcg_calculator.cpp, DCGCalculator::CheckLabel:
    "label should be int type"), XGBoost's too ("label must be either 0 or positive integer"): under
    their conventions nDCG (the NDCG rows, or a named nDCG) refuses it, naming the column and the
    query; LightGBM's map@k reads it (label > 0.5), so AP alone computes."""
    data = pd.DataFrame({"query_id": [1, 1, 2, 2], "item": [0, 1, 2, 3], "score": [2.0, 1.0, 2.0, 1.0],
                         "label": [0.0, 1.5, 2.0, 0.0], "row": [0, 1, 2, 3]})
    if convention == "lightgbm":  # the tool itself refuses it
        dataset = lgb.Dataset(np.zeros((4, 1)), label=data["label"], group=[2, 2], init_score=data["score"].to_numpy())
        with pytest.raises(lgb.basic.LightGBMError, match="int"):
            lgb.train({"objective": "regression", "metric": "ndcg", "eval_at": [2], "verbosity": -1, "num_threads": 1},
                      dataset, num_boost_round=1, valid_sets=[dataset])
    else:
        matrix = xgb.DMatrix(np.zeros((4, 1)), label=data["label"], base_margin=data["score"].to_numpy())
        matrix.set_group([2, 2])
        with pytest.raises(xgb.core.XGBoostError, match="label must be"):
            xgb.train({"objective": "reg:squarederror", "eval_metric": "ndcg@2", "nthread": 1}, matrix,
                      num_boost_round=1, evals=[(matrix, "data")], verbose_eval=False)
    for measures in (None, ["nDCG@2"], ["AP@2", "nDCG@2"]):
        with pytest.raises(InputError, match=rf"column 'label': label 1.5 is not whole \({peer}'s nDCG.*query_id 1\b"):
            ndcg_sql.evaluate(data, item_col="item", convention=convention, row_col="row", measures=measures,
                              **({"k": [2]} if measures is None else {}))
    # a label a rounding error from whole is whole as the tools hold it (float32), and computes
    near = data.assign(label=[0.0, 3.0000000000000004, 2.0, 0.0])
    if convention == "lightgbm":
        dataset = lgb.Dataset(np.zeros((4, 1)), label=near["label"], group=[2, 2], init_score=near["score"].to_numpy())
        history = {}
        lgb.train({"objective": "regression", "metric": "ndcg", "eval_at": [2], "verbosity": -1, "num_threads": 1},
                  dataset, num_boost_round=1, valid_sets=[dataset], valid_names=["data"],
                  callbacks=[lgb.record_evaluation(history)])
        expected = history["data"]["ndcg@2"][0]
    else:
        matrix = xgb.DMatrix(np.zeros((4, 1)), label=near["label"], base_margin=near["score"].to_numpy())
        matrix.set_group([2, 2])
        history = {}
        xgb.train({"objective": "reg:squarederror", "eval_metric": "ndcg@2", "nthread": 1}, matrix,
                  num_boost_round=1, evals=[(matrix, "data")], evals_result=history, verbose_eval=False)
        expected = history["data"]["ndcg@2"][0]
    got = ndcg_sql.evaluate(near, item_col="item", convention=convention, row_col="row", k=[2])
    # q1: its label-3 item second, (7 / log2 3) / 7; q2: ideal, 1 (by hand)
    assert got.summary_records()[0]["ndcg"] == pytest.approx((1 / np.log2(3) + 1) / 2, **TOL)
    assert got.summary_records()[0]["ndcg"] == pytest.approx(expected, rel=1e-6)
    if convention == "lightgbm":  # q1: relevant at rank 2 of one (1/2), q2: at rank 1 (1), by hand
        got = ndcg_sql.evaluate(data, item_col="item", convention=convention, row_col="row", measures=["AP@2"])
        assert got.summary_records()[0]["mean"] == pytest.approx(0.75, **TOL)
