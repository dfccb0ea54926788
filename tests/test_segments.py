"""Segment columns act as part of the query key: checked against the numpy
reference run with (segment, query) as the key."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_sql
import reference
from test_reference import SETTINGS, rankings

MEASURES = [("P@2", "P", 2, 1.0), ("AP", "AP", None, 1.0), ("RR", "RR", None, 1.0)]


@st.composite
def segmented(draw):
    rows = draw(rankings())
    arms = [draw(st.sampled_from(["A", "B"])) for _ in rows]
    # an item id appears once per (arm, query): keep the first of duplicates
    seen, out = set(), []
    for (qid, item, score, label), arm in zip(rows, arms):
        if (arm, qid, item) not in seen:
            seen.add((arm, qid, item))
            out.append((arm, qid, item, score, label))
    return out


@SETTINGS
@given(rows=segmented(), cutoffs=st.lists(st.one_of(st.integers(1, 6), st.none()), min_size=1, max_size=3, unique=True))
def test_ndcg_per_segment_matches_reference(rows, cutoffs):
    data = pd.DataFrame(rows, columns=["arm", "query_id", "item_id", "score", "label"])
    result = ndcg_sql.evaluate(data, k=cutoffs, segments=["arm"])
    keyed = [((arm, qid), item, score, label) for arm, qid, item, score, label in rows]
    expected, _ = reference.evaluate(keyed, cutoffs)
    got = {((r["arm"], r["query_id"]), r["k"]): r["ndcg"] for r in result.per_query_records()}
    assert set(got) == set(expected)
    for key, values in expected.items():
        assert reference.close(got[key], values[3]), key
    for row in result.summary_records():
        values = [v[3] for ((arm, _), k), v in expected.items() if arm == row["arm"] and k == row["k"]]
        assert row["queries"] == len(values)
        assert reference.close(row["ndcg"], float(np.mean(values)))
        if len(values) > 1:
            assert reference.close(row["stderr"], float(np.std(values, ddof=1) / np.sqrt(len(values))))


@SETTINGS
@given(rows=segmented())
def test_measures_per_segment_match_reference(rows):
    data = pd.DataFrame(rows, columns=["arm", "query_id", "item_id", "score", "label"])
    result = ndcg_sql.evaluate(data, segments="arm", measures=[m[0] for m in MEASURES], ties="item-desc")
    keyed = [((arm, qid), item, score, label) for arm, qid, item, score, label in rows]
    expected = reference.measures(keyed, MEASURES, ties="item-desc")
    got = {((r["arm"], r["query_id"]), r["measure"]): r["value"] for r in result.per_query_records()}
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert reference.close(got[key], value), key
    assert [r["measure"] for r in result.summary_records()][:3] == [m[0] for m in MEASURES]


def test_two_segment_columns_split_a_query():
    data = pd.DataFrame({
        "query_id": [1, 1, 1, 1], "item_id": [1, 2, 1, 2], "score": [2.0, 1.0, 2.0, 1.0], "label": [0, 1, 1, 0],
        "arm": ["A", "A", "B", "B"], "day": ["mon", "mon", "mon", "mon"],
    })
    result = ndcg_sql.evaluate(data, k=1, segments=["arm", "day"])
    assert [(r["arm"], r["day"], r["ndcg"]) for r in result.summary_records()] == [("A", "mon", 0.0), ("B", "mon", 1.0)]
    assert result.options["segments"] == ["arm", "day"]


@pytest.mark.parametrize("segments, words", [
    (["nope"], "no segment column 'nope'"), (["query_id"], "other than the query column"),
    ([], "one or more column names"), (["arm", "arm"], "distinct"),
])
def test_segment_errors(segments, words):
    data = pd.DataFrame({"query_id": [1], "item_id": [1], "score": [1.0], "label": [1], "arm": ["A"]})
    with pytest.raises((ndcg_sql.OptionError, ndcg_sql.InputError), match=words):
        ndcg_sql.evaluate(data, segments=segments)


def test_segments_with_missing_queries_zero_need_segmented_judgments():
    """Judgments per query give a judged query absent from the run no segment: a clear error."""
    data = pd.DataFrame({"query_id": [1], "item_id": [1], "score": [1.0], "arm": ["A"]})
    qrels = pd.DataFrame({"query_id": [1], "item_id": [1], "label": [1]})
    with pytest.raises(ndcg_sql.InputError, match="a judged query absent from the run has no segment of its own"):
        ndcg_sql.evaluate(data, judgments=qrels, segments="arm", missing_queries="zero")
    partly = pd.DataFrame({"query_id": [1], "item_id": [1], "label": [1], "arm": ["A"]})
    with pytest.raises(ndcg_sql.InputError, match="give all segment columns"):
        ndcg_sql.evaluate(data.assign(day="mon"), judgments=partly, segments=["arm", "day"])


def test_segmented_judgments_with_missing_queries_zero_hand_worked():
    """Judgments per (arm, query): arm B never shows query 2, which counts 0 in arm B only.

    Arm A, query 1: items a (label 1), b (label 0) ranked a, b: NDCG@2 = 1.
    Arm A, query 2: item c (label 2) at rank 1: NDCG@2 = 1.
    Arm B, query 1: ranked b, a: DCG = 1/log2(3), IDCG = 1: NDCG@2 = 0.6309...
    Arm B, query 2: judged for arm B, absent from the run: 0.
    """
    run = pd.DataFrame({"arm": ["A", "A", "A", "B", "B"], "query_id": [1, 1, 2, 1, 1],
                        "item_id": ["a", "b", "c", "b", "a"], "score": [2.0, 1.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"arm": ["A", "A", "A", "B", "B", "B"], "query_id": [1, 1, 2, 1, 1, 2],
                          "item_id": ["a", "b", "c", "a", "b", "c"], "label": [1, 0, 2, 1, 0, 2]})
    result = ndcg_sql.evaluate(run, judgments=qrels, k=2, gain="linear", segments="arm", missing_queries="zero")
    got = {(r["arm"], r["query_id"]): r["ndcg"] for r in result.per_query_records()}
    b1 = 1 / np.log2(3)
    assert got.keys() == {("A", 1), ("A", 2), ("B", 1), ("B", 2)}
    assert [got[("A", 1)], got[("A", 2)], got[("B", 2)]] == [1.0, 1.0, 0.0]
    assert reference.close(got[("B", 1)], b1)
    summary = {r["arm"]: r for r in result.summary_records()}
    assert reference.close(summary["B"]["ndcg"], b1 / 2) and summary["B"]["queries"] == 2
    assert result.coverage["missing_from_run"] == 1
    ignored = ndcg_sql.evaluate(run, judgments=qrels, k=2, gain="linear", segments="arm")
    assert {(r["arm"], r["query_id"]) for r in ignored.per_query_records()} == {("A", 1), ("A", 2), ("B", 1)}


@SETTINGS
@given(rows=segmented(), data=st.data())
def test_segments_with_judgments_match_reference(rows, data):
    judgments = {}
    for _, qid, item, _, label in rows:
        if data.draw(st.booleans()):
            judgments[(qid, item)] = label
    if not judgments:
        return
    first_q, first_item = rows[0][1], rows[0][2]
    judgments[(first_q, "x" if isinstance(first_item, str) else 1000)] = 3  # judged, never retrieved
    run = pd.DataFrame(rows, columns=["arm", "query_id", "item_id", "score", "label"]).drop(columns=["label"])
    qrels = pd.DataFrame([(q, i, l) for (q, i), l in judgments.items()], columns=["query_id", "item_id", "label"])
    qrels["item_id"] = qrels["item_id"].astype(run["item_id"].dtype)
    result = ndcg_sql.evaluate(run, judgments=qrels, k=[3, None], gain="linear", ties="item-desc", segments="arm")
    arms = {(arm, qid) for arm, qid, *_ in rows}
    keyed = [((arm, qid), item, score, 0) for arm, qid, item, score, _ in rows]
    keyed_judgments = [((arm, q), i, l) for (q, i), l in judgments.items() for arm, qq in arms if qq == q]
    expected, _ = reference.evaluate(keyed, [3, None], gain="linear", ties="item-desc", judgments=keyed_judgments)
    got = {((r["arm"], r["query_id"]), r["k"]): r["ndcg"] for r in result.per_query_records()}
    assert set(got) == set(expected)
    for key, values in expected.items():
        assert reference.close(got[key], values[3]), key


def test_cli_segments_csv(tmp_path):
    import csv
    import io

    from test_cli import run_cli

    data = pd.DataFrame({"query_id": [1, 1, 2, 2], "item_id": [1, 2, 1, 2], "score": [2.0, 1.0, 2.0, 1.0],
                         "label": [0, 1, 1, 0], "arm": ["A", "A", "B", "B"]})
    path = tmp_path / "log.csv"
    data.to_csv(path, index=False)
    done = run_cli("evaluate", str(path), "--segments", "arm", "--k", "1", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(r["arm"], float(r["ndcg"])) for r in rows] == [("A", 0.0), ("B", 1.0)]
