"""Discount variants: log_base (scikit-learn's dcg_score(log_base=b)) and the original Jarvelin &
Kekalainen (2002) discount, against scikit-learn, the numpy reference and the paper's own example,
on the bundled real data; every result reports its discount; bad bases are refused everywhere."""

import json
import subprocess
import sys

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import dcg_score

import dbt_standin
import ndcg_sql
import reference
from conftest import EXAMPLES, ROOT, per_query_map

TOL = dict(rel=1e-9, abs=1e-9)
LGB = EXAMPLES / "lightgbm_lambdarank" / "rank.test.scored.csv"
DL_RUN = EXAMPLES / "trec_dl19_passage" / "run.dl19.bm25.top100.txt"
DL_QRELS = EXAMPLES / "trec_dl19_passage" / "qrels.dl19-passage.txt"


@pytest.mark.parametrize("base", [10, np.e, 1.5])
def test_log_base_is_scikit_learns_dcg_score(base):
    data = pd.read_csv(LGB)
    result = ndcg_sql.evaluate(str(LGB), k=[5, None], item_col="doc_id", gain="linear", log_base=base)
    got = per_query_map(result)
    default = per_query_map(ndcg_sql.evaluate(str(LGB), k=[5, None], item_col="doc_id", gain="linear"))
    for qid, group in data.groupby("query_id"):
        for k in (5, None):
            labels, scores = group["label"].to_numpy(), group["score"].to_numpy()
            if len(group) < 2:  # scikit-learn refuses a one-item list: gain / log_b(2)
                expected = labels[0] * np.log(base) / np.log(2.0)
            else:
                expected = dcg_score([labels], [scores], k=k, log_base=base, ignore_ties=False)
            assert got[(qid, k)][1] == pytest.approx(expected, **TOL), (qid, k)
            # NDCG does not depend on the base
            assert got[(qid, k)][3] == pytest.approx(default[(qid, k)][3], **TOL), (qid, k)
    assert result.to_dict()["options"]["discount"] == (
        "1/log10(rank + 1)" if base == 10 else f"1/log_{float(base)!r}(rank + 1)")


def test_jarvelin_discount_is_the_papers_example():
    """Jarvelin & Kekalainen, ACM TOIS 20(4) 2002, section 2.2: G' = <3, 2, 3, 0, 0, 1, 2, 2, 3, 0>
    gives, with b = 2, DCG' = <3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61> (two decimals)."""
    gains = [3, 2, 3, 0, 0, 1, 2, 2, 3, 0]
    data = pd.DataFrame({"query_id": 1, "item_id": range(10), "score": range(10, 0, -1), "label": gains})
    result = ndcg_sql.evaluate(data, k=list(range(1, 11)), gain="linear", discount="jarvelin")
    dcg = [row["dcg"] for row in result.per_query_records()]
    assert [round(x, 2) for x in dcg] == [3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61]
    assert result.to_dict()["options"]["discount"] == "1 for rank < 2, 1/log2(rank) for rank >= 2"


@pytest.mark.parametrize("base", [2, 3.5])
def test_jarvelin_discount_against_the_reference_on_trec_dl(base):
    run = ndcg_sql.read_trec(str(DL_RUN), "run").df()
    qrels = ndcg_sql.read_trec(str(DL_QRELS), "qrels").df()
    cutoffs = [1, 3, 10, None]
    result = ndcg_sql.evaluate(run, judgments=qrels, k=cutoffs, gain="linear", ties="item-desc",
                               discount="jarvelin", log_base=base)
    rows = [(r.query_id, r.item_id, r.score, 0) for r in run.itertuples()]
    expected, means = reference.evaluate(rows, cutoffs, gain="linear", ties="item-desc",
                                         judgments=list(qrels[["query_id", "item_id", "label"]].itertuples(index=False)),
                                         discount_kind="jarvelin", log_base=base)
    got = per_query_map(result)
    assert set(got) == set(expected)
    for key, values in expected.items():
        for a, b in zip(got[key], values):
            assert reference.close(a, b), (key, a, b)
    for row in result.summary_records():
        assert reference.close(row["ndcg"], means[row["k"]][0])


def test_jarvelin_discount_against_the_reference_with_tie_averaging():
    data = pd.read_csv(LGB)
    cutoffs = [1, 5, None]
    result = ndcg_sql.evaluate(data, k=cutoffs, item_col="doc_id", discount="jarvelin", log_base=3)
    rows = list(data[["query_id", "doc_id", "score", "label"]].itertuples(index=False))
    expected, _ = reference.evaluate(rows, cutoffs, discount_kind="jarvelin", log_base=3)
    got = per_query_map(result)
    for key, values in expected.items():
        for a, b in zip(got[key], values):
            assert reference.close(a, b), (key, a, b)


def test_the_command_line_and_to_sql_take_the_discount():
    done = subprocess.run([sys.executable, "-m", "ndcg_sql.cli", "evaluate", str(LGB), "--item-col", "doc_id",
                           "--k", "5", "--discount", "jarvelin", "--log-base", "3", "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    direct = ndcg_sql.evaluate(str(LGB), k=[5], item_col="doc_id", discount="jarvelin", log_base=3)
    assert out["summary"] == direct.summary_records()
    assert out["options"]["discount"] == "1 for rank < 3, 1/log3(rank) for rank >= 3"
    con = duckdb.connect()
    con.execute(f"CREATE TABLE runs AS SELECT * FROM read_csv_auto('{LGB}')")
    sql = ndcg_sql.to_sql("runs", k=[5], item_col="doc_id", discount="jarvelin", log_base=3, what="summary")
    assert con.sql(sql).fetchall()[0][1] == pytest.approx(direct.summary_records()[0]["ndcg"], **TOL)


@pytest.mark.parametrize("bad", [1, 0.5, -2, float("nan"), float("inf"), "two", True, None])
def test_a_base_of_one_or_less_is_refused_everywhere(bad):
    with pytest.raises(ndcg_sql.OptionError, match="log_base must be a finite number greater than 1"):
        ndcg_sql.to_sql("runs", log_base=bad)
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    with pytest.raises(dbt_standin.CompilerError, match="log_base must be a finite number greater than 1"):
        macros.ndcg_per_query('"runs"', log_base=bad)


def test_unknown_discount_and_conventions_that_fix_the_discount():
    with pytest.raises(ndcg_sql.OptionError, match="discount must be one of log, jarvelin"):
        ndcg_sql.to_sql("runs", discount="cosine")
    with pytest.raises(ndcg_sql.OptionError, match="convention 'lightgbm' sets log_base=2.0"):
        ndcg_sql.to_sql("runs", convention="lightgbm", row_col="rn", log_base=10)
    # scikit-learn's dcg_score takes a base: its convention leaves it free
    assert "LN(10.0)" in ndcg_sql.to_sql("runs", convention="sklearn", log_base=10)
