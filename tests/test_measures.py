"""Named measures (P@k, R@k, AP, AP@k, RR, Success@k, nDCG@k, thresholds) against
the numpy reference on generated tables, and against pytrec_eval and ir_measures
on the bundled TREC data; parsing and option errors."""

from collections import defaultdict

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st

import ndcg_sql
import reference
from conftest import EXAMPLES
from ndcg_sql.building.context import parse_measure, parse_measures
from ndcg_sql.vocabulary.measures import Measure
from test_peers import read_qrels, read_trec_run
from test_reference import SETTINGS, frame, judged_rankings, rankings

TOL = dict(rel=1e-9, abs=1e-9)

# (name given, family, k, rel) -- names as the summary reports them
BINARY = [
    ("P@1", "P", 1, 1.0), ("P@3", "P", 3, 1.0), ("P@10", "P", 10, 1.0), ("R@2", "R", 2, 1.0),
    ("R@10", "R", 10, 1.0), ("AP", "AP", None, 1.0), ("AP@3", "AP", 3, 1.0), ("RR", "RR", None, 1.0),
    ("RR@2", "RR", 2, 1.0), ("Success@1", "Success", 1, 1.0), ("Success@4", "Success", 4, 1.0),
    ("P(rel=2)@3", "P", 3, 2.0), ("AP(rel=3)", "AP", None, 3.0), ("R(rel=0.5)@5", "R", 5, 0.5),
]
LINEAR = [m for m in BINARY if m[1] in ("P", "R")]


def by_key(result, query_col="query_id"):
    return {(row[query_col], row["measure"]): row["value"] for row in result.per_query_records()}


def check_against(result, expected):
    got = by_key(result)
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert reference.close(got[key], value), (key, got[key], value)
    summary = {row["measure"]: row for row in result.summary_records()}
    for name in {n for _, n in expected}:
        values = [v for (_, n), v in expected.items() if n == name]
        assert summary[name]["queries"] == len(values)
        assert reference.close(summary[name]["mean"], float(np.mean(values)))
        if len(values) > 1:
            assert reference.close(summary[name]["stderr"], float(np.std(values, ddof=1) / np.sqrt(len(values))))


@SETTINGS
@given(rows=rankings(integer_labels=False), ties=st.sampled_from(["item-asc", "item-desc"]))
def test_binary_measures_match_reference(rows, ties):
    result = ndcg_sql.evaluate(frame(rows), ties=ties, measures=[m[0] for m in BINARY])
    check_against(result, reference.measures(rows, BINARY, ties=ties))


@SETTINGS
@given(rows=rankings(integer_labels=False))
def test_tie_averaged_precision_and_recall_match_reference(rows):
    result = ndcg_sql.evaluate(frame(rows), ties="average", measures=[m[0] for m in LINEAR])
    check_against(result, reference.measures(rows, LINEAR, ties="average"))


@SETTINGS
@given(data=judged_rankings(), ties=st.sampled_from(["item-asc", "item-desc"]),
       missing=st.sampled_from(["ignore", "zero"]))
def test_binary_measures_with_judgments_match_reference(data, ties, missing):
    rows, judgments = data
    if not judgments:
        return
    qrels = pd.DataFrame(judgments, columns=["query_id", "item_id", "label"])
    qrels["item_id"] = qrels["item_id"].astype(frame(rows)["item_id"].dtype)
    result = ndcg_sql.evaluate(
        frame(rows, with_label=False), judgments=qrels, ties=ties, missing_queries=missing,
        measures=[m[0] for m in BINARY],
    )
    check_against(result, reference.measures(rows, BINARY, ties=ties, judgments=judgments, missing_queries=missing))


@SETTINGS
@given(rows=rankings(), k=st.one_of(st.none(), st.integers(1, 6)))
def test_graded_measures_equal_the_ndcg_rows(rows, k):
    suffix = "" if k is None else f"@{k}"
    result = ndcg_sql.evaluate(frame(rows), measures=[f"nDCG{suffix}", f"DCG{suffix}", f"CG{suffix}", "P@2"])
    expected, _ = reference.evaluate(rows, [k])
    got = by_key(result)
    for (qid, _), (cg, dcg, _, ndcg) in expected.items():
        assert reference.close(got[(qid, f"nDCG{suffix}")], ndcg)
        assert reference.close(got[(qid, f"DCG{suffix}")], dcg)
        assert reference.close(got[(qid, f"CG{suffix}")], cg)


TREC_CASES = [
    ("trec_eval_test/results.test", "trec_eval_test/qrels.test"),
    ("trec_dl19_passage/run.dl19.bm25.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
    ("trec_dl19_passage/run.dl19.splade_pp_ed.top100.txt", "trec_dl19_passage/qrels.dl19-passage.txt"),
]
# ndcg_sql name -> pytrec_eval measure (at relevance level 1 or 2)
PYTREC = {
    "P@5": "P_5", "P@10": "P_10", "R@100": "recall_100", "R@5": "recall_5", "AP": "map", "AP@10": "map_cut_10",
    "RR": "recip_rank", "Success@1": "success_1", "Success@10": "success_10", "nDCG@10": "ndcg_cut_10",
    "nDCG": "ndcg",
}


def pytrec_run(run):
    run_dict = defaultdict(dict)
    for q, d, s in run.itertuples(index=False):
        run_dict[q][d] = s
    return dict(run_dict)


@pytest.mark.parametrize("run_file, qrels_file", TREC_CASES)
@pytest.mark.parametrize("level", [1, 2])
def test_pytrec_eval_measures(run_file, qrels_file, level):
    run = read_trec_run(EXAMPLES / run_file)
    qrels = read_qrels(EXAMPLES / qrels_file)
    wanted = {"P_5", "P_10", "recall_5", "recall_100", "map", "map_cut_10", "recip_rank", "success_1", "success_10",
              "ndcg_cut_10", "ndcg"}
    expected = pytrec_eval.RelevanceEvaluator(dict(qrels), wanted, relevance_level=level).evaluate(pytrec_run(run))
    names = {(name if level == 1 or name.startswith("nDCG") else name.replace("@", f"(rel={level})@")
              if "@" in name else f"{name}(rel={level})"): measure for name, measure in PYTREC.items()}
    result = ndcg_sql.evaluate(
        run, judgments=str(EXAMPLES / qrels_file), gain="linear", ties="item-desc", measures=list(names)
    )
    got = by_key(result)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, measure in names.items():
            assert got[(qid, name)] == pytest.approx(values[measure], **TOL), (qid, name)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    for name, measure in names.items():
        assert summary[name] == pytest.approx(np.mean([v[measure] for v in expected.values()]), **TOL), name


def test_ir_measures_names_and_values_on_dl19():
    names = ["nDCG@10", "P@5", "R@100", "AP", "RR", "P(rel=2)@5", "Success@10", "AP(rel=2)", "RR(rel=2)@10"]
    run_path = EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt"
    qrels_path = EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt"
    run = read_trec_run(run_path)
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    scored = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    expected = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qrels, scored)
    expected = {str(measure): value for measure, value in expected.items()}
    result = ndcg_sql.evaluate(run, judgments=str(qrels_path), gain="linear", ties="item-desc", measures=names)
    summary = {row["measure"]: row["mean"] for row in result.summary_records()}
    assert set(summary) == set(expected)  # ir_measures writes the names as we do
    for name in names:
        assert summary[name] == pytest.approx(expected[name], **TOL), name


@pytest.mark.parametrize(
    "text, measure",
    [
        ("nDCG@10", Measure("nDCG", 10)), ("NDCG@10", Measure("nDCG", 10)), ("ndcg", Measure("nDCG")),
        ("P@5", Measure("P", 5)), ("P(rel=2)@5", Measure("P", 5, 2.0)), ("MAP", Measure("AP")),
        ("MRR@10", Measure("RR", 10)), ("Hit@3", Measure("Success", 3)), ("R(rel=1)@100", Measure("R", 100, 1.0)),
    ],
)
def test_parse_names(text, measure):
    assert parse_measure(text) == measure


def test_canonical_names_and_lists():
    assert [m.name for m in parse_measures("nDCG@10, P(rel=2)@5 AP MAP RR(rel=1)")] == [
        "nDCG@10", "P(rel=2)@5", "AP", "RR"
    ]
    assert parse_measure("MRR").definition()["source"].startswith("trec_eval recip_rank")


@pytest.mark.parametrize(
    "text, words",
    [
        ("F1@5", "unknown measure 'F1@5'"), ("P", "needs a cutoff"), ("P@0", "positive integer"),
        ("P@x", "positive integer"), ("P(lvl=2)@5", "only parameter is rel"), ("nDCG(rel=2)@5", "gain option"),
        ("P(rel=a)@5", "rel must be a number"), ("", "unknown measure"),
    ],
)
def test_bad_names_raise_option_errors(text, words):
    with pytest.raises(ndcg_sql.OptionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_measure(text)


def test_nonlinear_measures_refuse_tie_averaging():
    data = frame([(1, "a", 1.0, 1), (1, "b", 1.0, 0)])
    with pytest.raises(ndcg_sql.OptionError, match="AP, RR need a tie order: trec_eval's ties='item-desc'"):
        ndcg_sql.evaluate(data, measures=["AP", "RR", "P@1"])
    result = ndcg_sql.evaluate(data, measures=["P@1"])  # P is linear: expected value 0.5
    assert result.summary_records()[0]["mean"] == 0.5


def test_cli_measures_json_and_per_query(tmp_path):
    import csv
    import json

    from test_cli import run_cli

    run_path = str(EXAMPLES / "trec_dl19_passage/run.dl19.bm25.top100.txt")
    qrels_path = str(EXAMPLES / "trec_dl19_passage/qrels.dl19-passage.txt")
    per_query = tmp_path / "pq.csv"
    done = run_cli("evaluate", run_path, "--judgments", qrels_path, "--convention", "trec_eval", "--measures",
                   "nDCG@10", "P(rel=2)@5", "AP", "--format", "json", "--per-query", str(per_query))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    direct = ndcg_sql.evaluate(run_path, judgments=qrels_path, convention="trec_eval",
                               measures=["nDCG@10", "P(rel=2)@5", "AP"])
    assert out["summary"] == direct.summary_records()
    assert [d["measure"] for d in out["definitions"]] == ["nDCG@10", "P(rel=2)@5", "AP"]
    rows = list(csv.DictReader(open(per_query)))
    assert {float(r["value"]) for r in rows if r["measure"] == "AP"} == {
        r["value"] for r in direct.per_query_records() if r["measure"] == "AP"}
    bad = run_cli("evaluate", run_path, "--judgments", qrels_path, "--measures", "AP")
    # the message names each order's Python spelling and its flag
    assert bad.returncode == 2 and "AP needs a tie order" in bad.stderr
    for spelled in ("ties='item-desc' (--ties item-desc)", "'item-asc' (--ties item-asc)",
                    "'input-order' (--ties input-order) with row_col (--row-col) naming the column of input row "
                    "positions", "convention='trec_eval' (--convention trec_eval)"):
        assert spelled in bad.stderr, bad.stderr
    # the input-order advice followed: --ties input-order alone is refused, with --row-col (a TREC run's rank
    # column gives its rows' order) it runs
    alone = run_cli("evaluate", run_path, "--judgments", qrels_path, "--measures", "AP", "--ties", "input-order")
    assert alone.returncode == 2 and "needs row_col (--row-col)" in alone.stderr
    followed = run_cli("evaluate", run_path, "--judgments", qrels_path, "--measures", "AP", "--ties", "input-order",
                       "--row-col", "rank", "--format", "json")
    assert followed.returncode == 0, followed.stderr


def test_sql_text_of_measures_runs_to_the_same_rows():
    from test_cli import run_cli

    path = str(EXAMPLES / "lightgbm_lambdarank/rank.test.scored.csv")
    names = ["nDCG@5", "P@3", "AP", "RR@10", "R(rel=2)@10"]
    done = run_cli("sql", path, "--item-col", "doc_id", "--ties", "item-asc", "--measures", *names)
    assert done.returncode == 0, done.stderr
    import duckdb

    rows = duckdb.connect().sql(done.stdout).fetchall()
    direct = ndcg_sql.evaluate(path, item_col="doc_id", ties="item-asc", measures=names).per_query.fetchall()
    assert rows == direct


@SETTINGS
@given(rows=rankings(integer_labels=False), seed=st.integers(0, 2**32 - 1))
@pytest.mark.slow
def test_measures_do_not_depend_on_row_order_or_threads(rows, seed):
    names = ["P@3", "AP", "RR", "nDCG@5", "Success@2", "R(rel=2)@4"]
    first = ndcg_sql.evaluate(frame(rows), ties="item-desc", measures=names, threads=1)
    shuffled = frame(rows).sample(frac=1.0, random_state=seed % 2**32)
    again = ndcg_sql.evaluate(shuffled, ties="item-desc", measures=names, threads=4)
    assert first.per_query_records() == again.per_query_records()
    assert first.summary_records()[0]["mean"] == again.summary_records()[0]["mean"]


def test_text_row_numbers_are_refused():
    data = frame([(1, "a", 1.0, 1), (1, "b", 1.0, 0)])
    data["row"] = ["10", "9"]
    with pytest.raises(ndcg_sql.InputError, match="row numbers must be numbers"):
        ndcg_sql.evaluate(data, ties="input-order", row_col="row")


def test_cutoffs_go_in_the_measure_names():
    with pytest.raises(ndcg_sql.OptionError, match="give the cutoffs in their names"):
        ndcg_sql.evaluate(frame([(1, "a", 1.0, 1)]), k=[5], measures=["P@5"])


def test_result_sql_of_measures_is_one_statement():
    import sqlglot

    path = str(EXAMPLES / "lightgbm_lambdarank/rank.test.scored.csv")
    result = ndcg_sql.evaluate(path, item_col="doc_id", ties="item-desc", measures=["AP", "nDCG@3"])
    statements = sqlglot.parse(result.sql, read="duckdb")
    assert len(statements) == 1 and "'nDCG@3'" in result.sql and "'AP'" in result.sql


# ----------------------------------------------------------------- the families' records
#: Every family at @4 on one query ranked [label 0, label 2, label 1] (scores 3, 2, 1), no judgments,
#: exponential gain, worked by hand: rel(r) = [0, 1, 1], R = 2, n = 3, p = 0.8, ERR's
#: R_r = (2^label - 1) / 16. A new record without its value here fails test_every_family_is_whole.
L3 = np.log2(3.0)
HAND = {
    "CG": 3 + 1, "DCG": 3 / L3 + 1 / 2, "nDCG": (3 / L3 + 1 / 2) / (3 + 1 / L3),
    "P": 2 / 4, "R": 2 / 2, "AP": (1 / 2 + 2 / 3) / 2, "RR": 1 / 2, "Success": 1.0,
    "Judged": 3 / 3, "RBP": 0.2 * (0.8 + 0.8 ** 2), "RBPResidual": 0.8 ** 3 - 0.8 ** 4,
    "ERR": (3 / 16) / 2 + (1 / 16) / 3 * (1 - 3 / 16),
    # N = 1 (a, above both relevant items): each term 1 - min(1, 2) / min(1, 2) = 0
    "Bpref": 0.0,
    # e = 1e-5: at r = 2 one judged item above (non-relevant), at r = 3 two (one relevant)
    "infAP": (1 / 2 + (1 / 2) * 1e-5 / (1 + 2e-5) + 1 / 3 + (2 / 3) * (1 + 1e-5) / (2 + 2e-5)) / 2,
    "Rprec": 1 / 2, "IPrec": max(1 / 2, 2 / 3),  # IPrec@0.5: c = floor(0.5 * 2 + 0.9) = 1, P@j for j >= 2
    "gm_map": np.log((1 / 2 + 2 / 3) / 2),
    "SetP": 2 / 3,  # the whole list: 2 relevant of n = 3
    "SetR": 2 / 2,  # the whole list: both of R = 2
}
#: What follows @ in each family's name in test_every_family_is_whole, by Family.at.
AT = {"cutoff": ("@4", "@1"), "recall": ("@0.5", "@1.0"), "none": ("", "")}
#: The interval each range of values picks (docs/statistics.md).
CI_METHOD = {"zero_one": "wilson", "unit": "normal, clipped to [0, 1]", "unbounded": "normal",
             "log": "normal of the mean log, exponentiated, clipped to [0, 1]"}


def test_every_family_is_whole():
    """Each record of measures.FAMILIES reaches the parser, the docs' table, the range of its
    values (the summary's interval) and has SQL computing its hand-worked value."""
    from ndcg_sql.vocabulary import measures
    from test_docs import load_generator

    assert set(HAND) == set(measures.BY_NAME)
    table = load_generator().measures_table()
    data = pd.DataFrame({"query_id": [1, 1, 1, 2, 2, 2], "item_id": ["a", "b", "c"] * 2,
                         "score": [3.0, 2.0, 1.0] * 2, "label": [0, 2, 1] * 2})
    names = [f"{family.name}{AT[family.at][0]}" for family in measures.FAMILIES]
    result = ndcg_sql.evaluate(data, measures=names, gain="exponential", ties="item-asc", intervals=True)
    values = by_key(result)
    summary = {row["measure"]: row for row in result.summary_records()}
    for family in measures.FAMILIES:
        at = AT[family.at][0]
        name = f"{family.name}{at}"
        assert parse_measure(name) == Measure(family.name, 4 if family.at == "cutoff" else None, None,
                                              0.8 if family.persistence else None,
                                              0.5 if family.at == "recall" else None)
        for alias in family.aliases:
            assert parse_measure(f"{alias.upper()}{at}").family == family.name
        if family.needs_cutoff:
            with pytest.raises(ndcg_sql.OptionError, match="needs a (cutoff|recall level)"):
                parse_measure(family.name)
        else:
            assert parse_measure(family.name) == Measure(family.name, None, None, 0.8 if family.persistence else None)
        if family.at == "none":
            with pytest.raises(ndcg_sql.OptionError, match="takes no cutoff"):
                parse_measure(f"{family.name}@4")
        if family.takes_threshold:
            assert parse_measure(f"{family.name}(rel=2){at}").rel == 2.0
        else:
            with pytest.raises(ndcg_sql.OptionError, match="gain option|no relevance threshold"):
                parse_measure(f"{family.name}(rel=2){at}")
        written = {"cutoff": "@k", "recall": "@x", "none": ""}[family.at]
        assert f"| <code>{family.name}{written}</code>" in table and f"- **{family.name}**: `{family.formula}`" in table
        assert values[(1, name)] == pytest.approx(HAND[family.name], rel=1e-12), name
        assert summary[name]["ci_method"] == CI_METHOD[family.values], name
        if not family.linear:
            with pytest.raises(ndcg_sql.OptionError, match="need"):
                ndcg_sql.evaluate(data, measures=[name], ties="average")
    at_1 = ndcg_sql.evaluate(data, measures=[f"{f.name}{AT[f.at][1]}" for f in measures.FAMILIES], ties="item-asc",
                             intervals=True).summary_records()
    assert [row["ci_method"] == "wilson" for row in at_1] == [
        f.values == "zero_one" or f.zero_one_at_1 for f in measures.FAMILIES]


def test_each_family_is_its_record_and_its_macro_file():
    """A family's SQL is its macro file, sql/measures/<sql>.sql.j2, which defines exactly the macros its
    record names (docs/architecture.md, "Adding a measure"); no other SQL file names a family (the
    frame, sql/measures_per_query.sql.j2, calls the macros by the names the records give)."""
    import re

    from ndcg_sql.building import templates
    from ndcg_sql.vocabulary import measures

    files = templates.sql_macro_files()
    assert {name for name in files if name.startswith("measures/")} == {
        family.macro_file for family in measures.FAMILIES if not family.graded}
    for family in measures.FAMILIES:
        if not family.graded:
            assert set(re.findall(r"\{%-?\s*macro\s+(\w+)\s*\(", files[family.macro_file])) == set(family.macros)
    branches = re.compile(r"\.family\b|\['family'\]")
    assert [name for name, text in files.items() if not name.startswith("measures/") and branches.search(text)] == []


def test_a_half_declared_family_is_refused():
    from ndcg_sql.vocabulary.measures import Family

    with pytest.raises(ValueError, match="column"):
        Family("XDCG", "f", "s", relevance="gain", linear=True)
    with pytest.raises(ValueError, match="values must be one of"):
        Family("X", "f", "s", relevance="threshold", linear=True, values="percent")
    with pytest.raises(ValueError, match="relevance must be one of"):
        Family("X", "f", "s", relevance="binary", linear=True)
    with pytest.raises(ValueError, match="geometric mean is the mean of logarithms"):
        Family("X", "f", "s", relevance="threshold", linear=False, mean="geometric")
    with pytest.raises(ValueError, match="geometric mean is the mean of logarithms"):
        Family("X", "f", "s", relevance="threshold", linear=False, values="log")
    with pytest.raises(ValueError, match="at must be one of"):
        Family("X", "f", "s", relevance="threshold", linear=True, at="rank")
    with pytest.raises(ValueError, match="macro file"):
        Family("X", "f", "s", relevance="threshold", linear=True)
    with pytest.raises(ValueError, match="macro file"):
        Family("XDCG", "f", "s", relevance="gain", linear=True, column="xdcg", sql="xdcg")
    with pytest.raises(ValueError, match="lower case"):
        Family("X", "f", "s", relevance="threshold", linear=True, sql="X-1")
    with pytest.raises(ValueError, match="numerator must be one of"):
        Family("X", "f", "s", relevance="threshold", linear=True, sql="x", numerator="rows")


def test_the_measures_option_names_every_family_alias_and_tie_need():
    """The --measures help (and the measures= docstrings) lists the families by hand: a family, an
    alias or a family needing a tie order added to measures.FAMILIES and not to the help fails here."""
    import re

    from ndcg_sql.vocabulary import measures
    from ndcg_sql.vocabulary.parameters import BY_NAME

    text = " ".join(str(BY_NAME["measures"].doc).split())
    listed = set(re.findall(r"\b([A-Za-z_]+)(?:\(p=[0-9.]+\))?(?:@k|@[0-9.]+)?\b", text.split(" with a relevance")[0]))
    assert {family.name for family in measures.FAMILIES} <= listed
    aliases = re.search(r"; (.*) are aliases\)", text).group(1).replace("@k", "").replace(",", "").split()
    assert sorted(a.lower() for a in aliases) == sorted(a for f in measures.FAMILIES for a in f.aliases)
    need = re.search(r"\. ([A-Za-z_, ]+) need ties", text).group(1).replace(" and", ",").split(", ")
    assert need == [family.name for family in measures.FAMILIES if not family.linear]
