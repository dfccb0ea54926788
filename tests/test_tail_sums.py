"""Whole lists at the cost of one sort (sql/dcg_at_cutoffs.sql.j2, sql/ideal_items.sql.j2, tail_sums):
on long lists with the whole list or a cutoff past the head, the run's DCG past the head is an exact
decimal sum in the per-query group-by and the ideal's is read from a prefix table of the discount per
label (no sort of the ideal ranking, no running sums). Every cutoff within the head keeps its value to
the bit; past the head every value is the numpy reference's within 1e-9, the running sums' within
1e-14, and as close to the exact sum (math.fsum of the same terms) as one rounding allows."""

import math

import duckdb
import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_sql
import reference
from ndcg_sql.building import templates
from ndcg_sql.building.context import Seen, render, resolve
from ndcg_sql.vocabulary.parameters import Request

#: The loaded hypothesis profile (tests/conftest.py).
SETTINGS = settings()
GAINS = st.sampled_from(["exponential", "linear", {0: 0.0, 1: 1.0, 2: 5.0, 3: 5.0, 4: 20.0}])
CUTOFFS = st.lists(st.sampled_from([1, 5, 10, 20, 25, 33, 40, 200, None]), min_size=1, max_size=4, unique=True)


@st.composite
def long_lists(draw):
    """(query, item, score, label) rows: up to 3 queries of 1-60 items (the head holds at most 32),
    scores on a grid of 6 values so that tie groups reach across the head's end."""
    rows = []
    for q in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, 60))
        scores = draw(st.lists(st.integers(0, 5), min_size=size, max_size=size))
        labels = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
        rows += [(q, q * 100 + n, float(s), label) for n, (s, label) in enumerate(zip(scores, labels))]
    return rows


def per_query_rows(con, context):
    sql = templates.render("per_query.sql.j2", **context)
    return con.sql(f"SELECT * FROM ({sql}) AS p ORDER BY 1, k NULLS LAST").fetchall()


def contexts(con, rows, cutoffs, gain="exponential", judged=False, rank=False, dialect="duckdb"):
    data = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    con.register("run", data)
    con.register("qrels", data.iloc[::2])
    options = Request(k=cutoffs, gain=gain, rank_col="score" if rank else None).metric()
    labels = con.sql("SELECT MIN(label), MAX(label), 0 FROM run").fetchall()[0]
    longest = con.sql("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM run GROUP BY query_id)").fetchall()[0][0]
    if judged:
        longest = max(longest, con.sql("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM qrels GROUP BY query_id)").fetchall()[0][0])
    return render(resolve(options, judged, dialect=dialect), '"run"', '"qrels"' if judged else None,
                  Seen(longest_list=longest, labels=labels)).context


@SETTINGS
@given(rows=long_lists(), cutoffs=CUTOFFS, gain=GAINS, judged=st.booleans(), rank=st.booleans())
def test_past_the_head_one_sort_gives_the_references_values(rows, cutoffs, gain, judged, rank):
    con = duckdb.connect()
    context = contexts(con, rows, cutoffs, gain, judged, rank)
    head = context["head_length"]
    assert context["tail_sums"] == bool(context["tail_cutoffs"])
    ours = per_query_rows(con, context)
    running = per_query_rows(con, dict(context, tail_sums=False))  # the running sums in position order
    expected, _ = reference.evaluate(rows, cutoffs, gain=gain, higher_is_better=not rank,
                                     judgments=[(q, i, label) for q, i, _, label in rows[::2]] if judged else None)
    assert len(ours) == len(running) == len(expected)
    for new, old in zip(ours, running):
        query, k = new[0], new[1]
        if k is not None and k <= head or not context["tail_sums"]:
            assert new == old, (query, k)  # within the head: the same sums, to the bit
        else:
            assert all(math.isclose(a, b, rel_tol=1e-14, abs_tol=1e-14) for a, b in zip(new[2:], old[2:])), (query, k)
        assert all(reference.close(a, b) for a, b in zip(new[2:], expected[(query, k)])), (query, k)


def test_an_ideal_long_ranking_scores_one_to_the_bit():
    # 300 items ranked by their label: the run's terms and the ideal's prefix table are the same
    # decimals, so NDCG is 1 at every cutoff, the whole list included
    labels = [4] * 7 + [3] * 40 + [2] * 53 + [1] * 100 + [0] * 100
    rows = [(1, n, float(1000 - n), label) for n, label in enumerate(labels)]
    frame = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    with ndcg_sql.evaluate(frame, k=[5, 20, 50, 150, None]) as result:
        assert "ideal_tail_prefix" in result.sql and "ideal_items" not in result.sql
        values = result.per_query_records()
    assert [row["ndcg"] for row in values] == [1.0] * 5
    assert all(row["dcg"] == row["idcg"] and row["cg"] == sum(2.0 ** min(label, 4) - 1 for label in labels[:row["k"] or 300])
               for row in values)


def test_the_whole_list_is_the_exact_sum_rounded_once():
    # 2,000 items, many tie groups: DCG of the whole list against math.fsum of the reference's terms
    # (the exact sum of the doubles gain * discount, rounded once): within 2 units of the last place
    rng = np.random.default_rng(7)
    size = 2000
    scores = rng.integers(0, 300, size).astype(float)
    labels = rng.integers(0, 5, size)
    frame = pd.DataFrame({"query_id": 1, "item_id": np.arange(size), "score": scores, "label": labels})
    with ndcg_sql.evaluate(frame, k=[None]) as result:
        assert "ideal_tail_prefix" in result.sql
        (row,) = result.per_query_records()
    gains = 2.0 ** labels - 1.0
    order = np.argsort(-scores, kind="stable")
    credited = np.empty(size)
    for value in np.unique(scores):  # the tie group's mean gain at each of its positions
        tied = scores[order] == value
        credited[tied] = gains[order][tied].mean()
    discounts = 1.0 / np.log2(np.arange(2, size + 2))
    exact_dcg = math.fsum(credited * discounts)
    exact_idcg = math.fsum(np.sort(gains)[::-1] * discounts)
    assert abs(row["dcg"] - exact_dcg) <= 2 * math.ulp(exact_dcg)
    assert abs(row["idcg"] - exact_idcg) <= 2 * math.ulp(exact_idcg)
    assert row["cg"] == gains.sum()


def tail_sums(k=(10, None), longest=100, labels=(0, 4, 0), dialect="duckdb", **given) -> bool:
    options = Request(k=list(k), **given).metric()
    resolved = resolve(options, given.get("unjudged") is not None, dialect=dialect)
    return render(resolved, '"run"', '"qrels"' if given.get("unjudged") else None,
                  Seen(longest_list=longest, labels=labels)).context["tail_sums"]


def test_one_sort_where_the_sums_are_exact_and_a_position_lies_past_the_head():
    assert tail_sums()
    assert tail_sums(k=(10, 40))  # a cutoff past the head
    assert tail_sums(gain={0: 0.0, 1: 1.0, 2: 3.0})
    assert not tail_sums(longest=32)  # every list fits the head: the head's columns alone
    assert not tail_sums(k=(1, 5, 10))  # every cutoff within the head: the top positions
    assert not tail_sums(longest=None)  # the longest list not known (to_sql, dbt)
    assert not tail_sums(labels=(0, 4, 1))  # a fractional label: sums of gains not exact
    assert not tail_sums(labels=(0, 30, 0))  # more labels than are counted: the ideal ranking is sorted
    assert not tail_sums(ties="item-asc")
    assert not tail_sums(dialect="bigquery")  # no lists indexed by position
    assert tail_sums(longest=2**20 - 1)  # 4 labels: a prefix table of 2^22 decimals
    assert not tail_sums(longest=2**20)  # past it: the ideal ranking is sorted
