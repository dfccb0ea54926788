"""The hand-worked example of the core issue: one list labelled 3, 2, 0, 1, 2."""

import math

import pandas as pd
import pytest

import ndcg_sql

LABELS = [3, 2, 0, 1, 2]


def hand_dcg(labels):
    # exponential gain 2^l - 1, discount 1/log2(rank + 1), written out term by term
    return sum((2**label - 1) / math.log2(rank + 1) for rank, label in enumerate(labels, start=1))


@pytest.mark.parametrize(
    "k, about",
    [(3, 0.856), (4, 0.861), (5, 0.969)],
)
def test_worked_example(k, about):
    frame = pd.DataFrame(
        {"query_id": [1] * 5, "item_id": list("abcde"), "score": [5.0, 4, 3, 2, 1], "label": LABELS}
    )
    result = ndcg_sql.evaluate(frame, k=[3, 4, 5])
    row = next(r for r in result.per_query_records() if r["k"] == k)
    ideal = sorted(LABELS, reverse=True)
    # DCG@3 = 7 + 3/log2(3) + 0 = 8.8928, IDCG@3 = 7 + 3/log2(3) + 3/2 = 10.3928
    assert row["dcg"] == pytest.approx(hand_dcg(LABELS[:k]), rel=1e-12, abs=1e-12)
    assert row["idcg"] == pytest.approx(hand_dcg(ideal[:k]), rel=1e-12, abs=1e-12)
    assert row["ndcg"] == pytest.approx(hand_dcg(LABELS[:k]) / hand_dcg(ideal[:k]), rel=1e-12, abs=1e-12)
    assert round(row["ndcg"], 3) == about
    assert row["cg"] == sum(2**label - 1 for label in LABELS[:k])


def test_ties_average_hand_worked():
    # items b and c tie at rank 2-3 with gains 3 and 0: each is credited 1.5
    frame = pd.DataFrame(
        {"query_id": ["q"] * 3, "item_id": ["a", "b", "c"], "score": [2.0, 1.0, 1.0], "label": [1, 2, 0]}
    )
    result = ndcg_sql.evaluate(frame, k=[2, 3], ties="average")
    rows = {r["k"]: r for r in result.per_query_records()}
    assert rows[2]["dcg"] == pytest.approx(1 + 1.5 / math.log2(3), rel=1e-12)
    assert rows[3]["dcg"] == pytest.approx(1 + 1.5 / math.log2(3) + 1.5 / 2, rel=1e-12)
    assert rows[2]["idcg"] == pytest.approx(3 + 1 / math.log2(3), rel=1e-12)
    by_item_desc = {r["k"]: r for r in ndcg_sql.evaluate(frame, k=[2], ties="item-desc").per_query_records()}
    assert by_item_desc[2]["dcg"] == pytest.approx(1 + 0.0, rel=1e-12)  # c (label 0) before b
    by_item_asc = {r["k"]: r for r in ndcg_sql.evaluate(frame, k=[2], ties="item-asc").per_query_records()}
    assert by_item_asc[2]["dcg"] == pytest.approx(1 + 3 / math.log2(3), rel=1e-12)


@pytest.mark.parametrize("policy, value, mean, counted", [("zero", 0.0, 0.5, 2), ("skip", None, 1.0, 1), ("one", 1.0, 1.0, 2)])
def test_no_relevant_policies_hand_worked(policy, value, mean, counted):
    # query 1 has only label 0 (IDCG = 0); query 2 is ranked ideally (NDCG 1)
    frame = pd.DataFrame(
        {"query_id": [1, 1, 2, 2], "item_id": ["a", "b", "a", "b"], "score": [2.0, 1.0, 2.0, 1.0], "label": [0, 0, 2, 1]}
    )
    result = ndcg_sql.evaluate(frame, k=[5], no_relevant=policy)
    rows = {r["query_id"]: r for r in result.per_query_records()}
    assert rows[1]["ndcg"] == value and rows[1]["idcg"] == 0.0
    assert rows[2]["ndcg"] == 1.0
    summary = result.summary_records()[0]
    assert (summary["ndcg"], summary["queries"], summary["no_relevant"]) == (mean, counted, 1)
