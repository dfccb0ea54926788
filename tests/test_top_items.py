"""The top positions found by DuckDB's top-N aggregate (sql/top_items.sql.j2): with numeric
cutoffs within the head and lists longer than it, only each query's top tie groups are ranked.
Every value must be the full ranking's to the bit (a tie group at the threshold reaches past the
head), and the numpy reference's within 1e-9."""

import duckdb
import pandas as pd
import pytest
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


@st.composite
def long_lists(draw):
    """(query, item, score, label) rows: up to 4 queries of 1-30 items, scores on a grid of 5
    values so that tie groups reach across the largest cutoff (the head's end)."""
    rows = []
    for q in range(draw(st.integers(1, 4))):
        size = draw(st.integers(1, 30))
        scores = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
        labels = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
        rows += [(q, q * 100 + n, float(s), label) for n, (s, label) in enumerate(zip(scores, labels))]
    return rows


def per_query_rows(con, context):
    sql = templates.render("per_query.sql.j2", **context)
    return con.sql(f"SELECT * FROM ({sql}) AS p ORDER BY 1, k NULLS LAST").fetchall()


@SETTINGS
@given(rows=long_lists(), cutoffs=st.lists(st.integers(1, 20), min_size=1, max_size=3, unique=True),
       gain=GAINS, judged=st.booleans(), rank=st.booleans())
def test_top_positions_are_the_full_rankings_to_the_bit(rows, cutoffs, gain, judged, rank):
    con = duckdb.connect()
    data = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    con.register("run", data)
    con.register("qrels", data.iloc[::2])
    options = Request(k=cutoffs, gain=gain, rank_col="score" if rank else None).metric()
    labels = con.sql("SELECT MIN(label), MAX(label), 0 FROM run").fetchall()[0]
    longest = con.sql("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM run GROUP BY query_id)").fetchall()[0][0]
    context = render(resolve(options, judged), '"run"', '"qrels"' if judged else None,
                     Seen(longest_list=longest, labels=labels)).context
    assert context["top_items"] == (longest > max(cutoffs))
    top = per_query_rows(con, context)
    assert top == per_query_rows(con, dict(context, top_items=False))
    expected, _ = reference.evaluate(rows, cutoffs, gain=gain, judgments=[(q, i, label) for q, i, _, label in rows[::2]] if judged else None,
                                     higher_is_better=not rank)
    assert len(top) == len(expected)
    for query, k, cg, dcg, idcg, ndcg in top:
        assert all(reference.close(a, b) for a, b in zip((cg, dcg, idcg, ndcg), expected[(query, k)])), (query, k)


def test_a_tie_group_across_the_heads_end_counts_every_item_of_it():
    # 30 items: the best 17 score 9 down to 1.x; 13 tie at 0.5, 3 of them in the head (18-20), and
    # only the last, past the head, relevant: each tied position is credited 1/13 of its gain
    rows = [(1, n, 10.0 - n * 0.5, 0) for n in range(17)] + [(1, 17 + n, 0.5, 4 if n == 12 else 0) for n in range(13)]
    with ndcg_sql.evaluate(pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"]), k=[20]) as result:
        assert "top_thresholds" in result.sql
        (row,) = result.per_query_records()
    discounts = sum(1 / __import__("math").log2(p + 1) for p in (18, 19, 20))
    assert row["dcg"] == pytest.approx(15.0 / 13 * discounts, rel=1e-12)
    assert row["ndcg"] == pytest.approx(row["dcg"] / 15.0, rel=1e-12)


def top_items(k=(1, 5, 10), longest=30, labels=(0, 4, 0), dialect="duckdb", **given) -> bool:
    options = Request(k=list(k), **given).metric()
    resolved = resolve(options, given.get("unjudged") is not None, dialect=dialect)
    return render(resolved, '"run"', '"qrels"' if given.get("unjudged") else None,
                  Seen(longest_list=longest, labels=labels)).context["top_items"]


def test_the_top_positions_only_where_they_are_exact_and_save_work():
    assert top_items()
    assert top_items(k=(1, 32), longest=33)  # a cutoff past the default head widens it
    assert top_items(longest=11)
    assert not top_items(longest=10)  # every list fits within the largest cutoff: nothing to leave out
    assert not top_items(longest=None)
    assert not top_items(k=(10, None))  # the whole list
    assert not top_items(k=(10, 40), longest=50)  # a cutoff past the head's longest
    assert not top_items(labels=(0, 4, 1))  # a fractional label: sums of gains not exact
    assert not top_items(ties="item-asc")
    assert not top_items(unjudged="condense")  # only judged items ranked
    assert not top_items(dialect="bigquery")  # no top-N aggregate
