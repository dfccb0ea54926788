"""Invariants: row order and thread count do not change a single bit of any
result, NDCG lies in [0, 1], and the ideal ranking scores exactly 1."""

import dataclasses

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_sql
from ndcg_sql.building import templates
from ndcg_sql.building.context import Seen, render, resolve
from ndcg_sql.vocabulary.parameters import Request
from test_reference import CUTOFFS, GAINS, rankings, frame

#: slow (half a minute or more of a worker): property tests (hypothesis)
pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@SETTINGS
@given(rows=rankings(), cutoffs=CUTOFFS, gain=GAINS, ties=st.just("average"), seed=st.integers(0, 2**32 - 1))
def test_row_order_and_threads_do_not_change_results_with_whole_gains(rows, cutoffs, gain, ties, seed):
    # whole-number labels: the tie groups are averaged without ordering their items (exact_gains)
    data = frame(rows)
    shuffled = data.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    one = ndcg_sql.evaluate(data, k=cutoffs, ties=ties, gain=gain, con=duckdb.connect(), threads=1)
    many = ndcg_sql.evaluate(shuffled, k=cutoffs, ties=ties, gain=gain, con=duckdb.connect(), threads=4)
    assert everything(one) == everything(many)


def per_query_rows(con, context):
    sql = templates.render("per_query.sql.j2", **context)
    return con.sql(f"SELECT * FROM ({sql}) AS p ORDER BY 1, k NULLS LAST").fetchall()


@SETTINGS
@given(rows=rankings(), cutoffs=CUTOFFS, gain=GAINS, judged=st.booleans(), negative=st.booleans(),
       head=st.sampled_from([None, 1, 2, 3]))
def test_shortcuts_give_the_general_sqls_numbers_to_the_bit(rows, cutoffs, gain, judged, negative, head):
    # what the input profile lets the SQL skip, against the general SQL on the same data, every
    # value equal (not just close): exact_gains (sql/ranked_items.sql.j2: no item order inside
    # tie groups, no MIN/MAX guard) and known labels (ideal_labels: the ideal ranking counted
    # per label instead of numbered by a sort), the top positions without a full sort (top_items);
    # head: fewer positions summed column-wise, so that the running sums past them are used
    con = duckdb.connect()
    data = frame(rows)
    if negative:
        data["label"] = data["label"] - 1  # negative labels, counted as 0 (negative_labels="zero")
    con.register("run", data)
    con.register("qrels", data.iloc[::2])
    options = Request(k=cutoffs, gain=gain, negative_labels="zero" if negative else "error").metric()
    labels = con.sql("SELECT MIN(label), MAX(label), 0 FROM run").fetchall()[0]
    longest = con.sql("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM run GROUP BY query_id)").fetchall()[0][0]
    context = render(resolve(options, judged), '"run"', '"qrels"' if judged else None,
                     Seen(longest_list=longest, labels=labels)).context
    assert context["exact_gains"] and context["ideal_labels"] is not None
    if head is not None:
        # the top positions (sql/top_items.sql.j2) take the largest cutoff as their head: a
        # shorter head is the full ranking's
        context = dataclasses.replace(context, top_items=False, head_length=head,
                                      tail_cutoffs=[c for c in context.cutoffs if c["k"] is None or c["k"] > head])
    # the general SQL: every item ranked by the window, items ordered inside tie groups, the
    # ideal ranking numbered by a sort (top_items needs exact_gains)
    general = per_query_rows(con, dict(context, exact_gains=False, ideal_labels=None, top_items=False))
    assert per_query_rows(con, context) == general
    assert per_query_rows(con, dict(context, exact_gains=False, top_items=False)) == general
    assert per_query_rows(con, dict(context, ideal_labels=None)) == general


def exact_gains(gain, labels, longest_list) -> bool:
    """Whether the resolved context (sql/options/ranking_context.sql) finds every gain sum exact."""
    seen = Seen(longest_list=longest_list, labels=labels)
    return render(resolve(Request(gain=gain).metric(), False), '"run"', seen=seen).context["exact_gains"]


def test_exact_gains_only_when_every_sum_of_gains_is_exact():
    exponential, linear = "exponential", "linear"
    assert exact_gains(exponential, (0, 4, 0), 10)
    assert not exact_gains(exponential, (0, 4, 1), 10)  # a fractional label
    assert not exact_gains(exponential, (0, 4, 0), None)  # list lengths unknown
    assert not exact_gains(exponential, None, 10)
    assert exact_gains(exponential, (0, 40, 0), 2**13) and not exact_gains(exponential, (0, 40, 0), 2**13 + 1)
    assert not exact_gains(exponential, (0, 60, 0), 1)  # 2^60 - 1 is not a double
    assert exact_gains(linear, (-3, 7, 0), 10)
    assert exact_gains({0: 0.0, 1: 3.0}, None, 10)
    assert not exact_gains({0: 0.0, 1: 0.5}, None, 10)
