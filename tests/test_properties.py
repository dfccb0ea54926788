"""Invariants: row order and thread count do not change a single bit of any
result, NDCG lies in [0, 1], and the ideal ranking scores exactly 1."""

import duckdb
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_sql
from test_reference import CUTOFFS, GAINS, rankings, frame

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TIES = st.sampled_from(["average", "item-asc", "item-desc"])


def everything(result):
    return result.per_query_records(), result.summary_records()


@SETTINGS
@given(rows=rankings(integer_labels=False), cutoffs=CUTOFFS, ties=TIES, seed=st.integers(0, 2**32 - 1))
def test_row_order_and_threads_do_not_change_results(rows, cutoffs, ties, seed):
    data = frame(rows)
    shuffled = data.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    one = ndcg_sql.evaluate(data, k=cutoffs, ties=ties, gain="linear", con=duckdb.connect(), threads=1)
    many = ndcg_sql.evaluate(shuffled, k=cutoffs, ties=ties, gain="linear", con=duckdb.connect(), threads=4)
    assert everything(one) == everything(many)


def test_threads_do_not_change_results_on_a_larger_table():
    # enough rows that DuckDB really splits the work across threads
    rng = __import__("numpy").random.default_rng(7)
    n = 200_000
    data = pd.DataFrame({
        "query_id": rng.integers(0, 5_000, n),
        "item_id": range(n),
        "score": rng.integers(0, 20, n).astype(float) / 7.0,  # many ties
        "label": rng.integers(0, 5, n) / 2.0,
    })
    single = ndcg_sql.evaluate(data, gain="linear", con=duckdb.connect(), threads=1)
    parallel = ndcg_sql.evaluate(data.iloc[::-1], gain="linear", con=duckdb.connect(), threads=8)
    assert everything(single) == everything(parallel)


@SETTINGS
@given(rows=rankings(), cutoffs=CUTOFFS, gain=GAINS, ties=TIES, no_relevant=st.sampled_from(["zero", "one", "skip"]))
def test_ndcg_is_between_zero_and_one(rows, cutoffs, gain, ties, no_relevant):
    result = ndcg_sql.evaluate(frame(rows), k=cutoffs, gain=gain, ties=ties, no_relevant=no_relevant)
    for row in result.per_query_records():
        assert row["ndcg"] is None or 0.0 <= row["ndcg"] <= 1.0
        assert 0.0 <= row["dcg"] <= row["idcg"] or row["idcg"] == 0.0


@SETTINGS
@given(rows=rankings(integer_labels=False), cutoffs=CUTOFFS, ties=TIES)
def test_ideal_ranking_scores_one(rows, cutoffs, ties):
    # score every item by its own label, with no ties: the run is the ideal ranking
    ideal = [(q, i, label * 1000 + n, label) for n, (q, i, _, label) in enumerate(rows)]
    result = ndcg_sql.evaluate(frame(ideal), k=cutoffs, gain="linear", ties=ties)
    for row in result.per_query_records():
        if row["idcg"] > 0:
            assert row["ndcg"] == 1.0
