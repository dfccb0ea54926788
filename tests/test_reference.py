"""ndcg_sql against the independent numpy reference on generated tables.

Tables have ties, all-zero queries, single-item queries, k beyond the list,
string and integer ids, and every option; tolerance 1e-9.
"""

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_sql
import reference
from conftest import per_query_map

#: The loaded hypothesis profile (tests/conftest.py): 40 examples a property, 12 in the quick run.
SETTINGS = settings()

ITEM_IDS = st.one_of(
    st.integers(min_value=-50, max_value=50),
    st.text(alphabet="aAbZé_0 ", min_size=0, max_size=3),
)


@st.composite
def rankings(draw, integer_labels=True):
    n_queries = draw(st.integers(1, 5))
    string_queries = draw(st.booleans())
    string_items = draw(st.booleans())
    rows = []
    for q in range(n_queries):
        qid = f"q{q}" if string_queries else q * 7 - 3
        size = draw(st.integers(1, 8))
        if string_items:
            items = draw(st.lists(st.text(alphabet="aAbZé_0 ", max_size=3), min_size=size, max_size=size, unique=True))
        else:
            items = draw(st.lists(st.integers(-50, 50), min_size=size, max_size=size, unique=True))
        all_zero = draw(st.integers(0, 3)) == 0  # a query with no relevant item, often
        for item in items:
            score = draw(st.sampled_from([0.0, 1.0, 2.5, -1.0, 3.0, 1e-3]))
            if all_zero:
                label = 0
            elif integer_labels:
                label = draw(st.integers(0, 4))
            else:
                label = draw(st.sampled_from([0.0, 0.5, 1.0, 2.25, 3.0]))
            rows.append((qid, item, score, label))
    return rows


CUTOFFS = st.lists(st.one_of(st.integers(1, 10), st.none()), min_size=1, max_size=4, unique=True)
GAINS = st.sampled_from(["exponential", "linear", {0: 0.0, 1: 1.0, 2: 5.0, 3: 5.0, 4: 20.0}])


def frame(rows, with_label=True):
    data = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    return data if with_label else data.drop(columns=["label"])


def assert_matches(result, expected_rows, expected_means, cutoffs):
    got = per_query_map(result)
    assert set(got) == set(expected_rows)
    for key, values in expected_rows.items():
        for name, a, b in zip(("cg", "dcg", "idcg", "ndcg"), got[key], values):
            assert reference.close(a, b), (key, name, a, b)
    summary = {row["k"]: row for row in result.summary_records()}
    for k in cutoffs:
        mean, count = expected_means[k]
        assert summary[k]["queries"] == count
        assert reference.close(summary[k]["ndcg"], mean), (k, summary[k]["ndcg"], mean)


@SETTINGS
@given(rows=rankings(), cutoffs=CUTOFFS, gain=GAINS, ties=st.sampled_from(["average", "item-asc", "item-desc"]),
       no_relevant=st.sampled_from(["zero", "skip", "one"]))
def test_list_mode_matches_reference(rows, cutoffs, gain, ties, no_relevant):
    result = ndcg_sql.evaluate(frame(rows), k=cutoffs, gain=gain, ties=ties, no_relevant=no_relevant)
    expected, means = reference.evaluate(rows, cutoffs, gain=gain, ties=ties, no_relevant=no_relevant)
    assert_matches(result, expected, means, cutoffs)


@SETTINGS
@given(rows=rankings(integer_labels=False), cutoffs=CUTOFFS, ties=st.sampled_from(["average", "item-desc"]))
def test_fractional_labels_match_reference(rows, cutoffs, ties):
    result = ndcg_sql.evaluate(frame(rows), k=cutoffs, gain="linear", ties=ties)
    expected, means = reference.evaluate(rows, cutoffs, gain="linear", ties=ties)
    assert_matches(result, expected, means, cutoffs)


@SETTINGS
@given(rows=rankings(), cutoffs=CUTOFFS, ties=st.sampled_from(["average", "item-asc", "item-desc"]))
def test_logged_rank_input_matches_reference(rows, cutoffs, ties):
    # the score column read as a logged rank: smaller is better
    ranked = [(q, i, abs(s) * 2 + 1, l) for q, i, s, l in rows]
    data = frame(ranked).rename(columns={"score": "position"})
    result = ndcg_sql.evaluate(data, k=cutoffs, rank_col="position", ties=ties)
    expected, means = reference.evaluate(ranked, cutoffs, ties=ties, higher_is_better=False)
    assert_matches(result, expected, means, cutoffs)


@st.composite
def judged_rankings(draw):
    rows = draw(rankings())
    judgments = {}
    for qid, item, _, label in rows:
        if draw(st.booleans()):  # about half the ranked items are judged
            judgments[(qid, item)] = label
    queries = sorted({r[0] for r in rows}, key=str)
    example_q = queries[0]
    for extra in range(draw(st.integers(0, 4))):  # judged but not retrieved
        item = f"unretrieved{extra}" if isinstance(rows[0][1], str) else 1000 + extra
        judgments[(example_q, item)] = draw(st.integers(0, 3))
    if draw(st.booleans()):  # a judged query that is absent from the run
        missing = "zz-missing" if isinstance(example_q, str) else 999
        judgments[(missing, rows[0][1])] = draw(st.integers(0, 3))
    return rows, [(q, i, l) for (q, i), l in judgments.items()]


@SETTINGS
@given(data=judged_rankings(), cutoffs=CUTOFFS, ties=st.sampled_from(["average", "item-desc"]),
       missing=st.sampled_from(["ignore", "zero"]), no_relevant=st.sampled_from(["zero", "skip", "one"]))
def test_judgments_mode_matches_reference(data, cutoffs, ties, missing, no_relevant):
    rows, judgments = data
    if not judgments:
        return
    qrels = pd.DataFrame(judgments, columns=["query_id", "item_id", "label"])
    qrels["item_id"] = qrels["item_id"].astype(frame(rows)["item_id"].dtype)
    result = ndcg_sql.evaluate(
        frame(rows, with_label=False), k=cutoffs, judgments=qrels, gain="linear", ties=ties,
        missing_queries=missing, no_relevant=no_relevant,
    )
    expected, means = reference.evaluate(
        rows, cutoffs, gain="linear", ties=ties, judgments=judgments, missing_queries=missing,
        no_relevant=no_relevant,
    )
    assert_matches(result, expected, means, cutoffs)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ties=st.sampled_from(["average", "item-asc", "item-desc"]),
       gain=st.sampled_from(["exponential", "linear"]))
def test_long_lists_match_reference(seed, ties, gain):
    # lists longer than the head of 32 positions summed column-wise: the whole
    # list and k = 40 go through the running sums past the head
    import numpy as np
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(4):
        for item in range(int(rng.integers(1, 90))):
            rows.append((q, item, float(rng.integers(0, 30)) / 4.0, int(rng.integers(0, 4))))
    cutoffs = [1, 10, 40, None]
    result = ndcg_sql.evaluate(frame(rows), k=cutoffs, gain=gain, ties=ties)
    expected, means = reference.evaluate(rows, cutoffs, gain=gain, ties=ties)
    assert_matches(result, expected, means, cutoffs)


def test_sql_text_with_sums_past_the_head_matches_reference(tmp_path):
    # to_sql does not know the longest list, so it always sums past the head
    import duckdb
    from ndcg_sql import to_sql as to_sql_text
    rows = [(q, i, float((i * 7 + q) % 5), (i * 3 + q) % 4) for q in range(3) for i in range(q * 9 + 1)]
    path = tmp_path / "run.parquet"
    frame(rows).to_parquet(path)
    cutoffs = [1, 5, None]
    sql = to_sql_text(file=str(path), k=cutoffs)
    got = {(r[0], r[1]): r[2:] for r in duckdb.sql(sql).fetchall()}
    expected, _ = reference.evaluate(rows, cutoffs)
    assert set(got) == set(expected)
    for key, values in expected.items():
        for a, b in zip(got[key], values):
            assert reference.close(a, b), (key, a, b)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), spread=st.sampled_from([3, 40]), judged=st.booleans())
def test_few_and_many_labels_match_reference(seed, spread, judged):
    # few whole labels: the ideal ranking is counted per label; many: items are numbered
    import numpy as np
    rng = np.random.default_rng(seed)
    rows = [(q, i, float(rng.integers(0, 6)), int(rng.integers(0, spread)) + (5 if q == 1 else 0))
            for q in range(4) for i in range(int(rng.integers(1, 12)))]
    cutoffs = [1, 4, None]
    if judged:
        judgments = [(q, i, label) for q, i, _, label in rows if (i + q) % 3] + [(0, 999, spread)]
        qrels = pd.DataFrame(judgments, columns=["query_id", "item_id", "label"])
        result = ndcg_sql.evaluate(frame(rows, with_label=False), k=cutoffs, judgments=qrels, gain="linear")
        expected, means = reference.evaluate(rows, cutoffs, gain="linear", judgments=judgments)
    else:
        result = ndcg_sql.evaluate(frame(rows), k=cutoffs, gain="linear")
        expected, means = reference.evaluate(rows, cutoffs, gain="linear")
    assert_matches(result, expected, means, cutoffs)


def test_many_cutoffs_sum_the_head_once_and_match_reference(tmp_path):
    # every cutoff at or past the head's end (32 positions) reads the head's CG and DCG, summed
    # once per ranking, so the SQL grows by a few names per cutoff, not by a sum of 32 terms each;
    # the numbers are the reference's at cutoffs before, at and past the ends of the head and lists
    from ndcg_sql import to_sql as to_sql_text
    import numpy as np
    rng = np.random.default_rng(25)
    rows = [(q, i, float(rng.integers(0, 30)) / 4.0, int(rng.integers(0, 4)))
            for q in range(4) for i in range(int(rng.integers(1, 90)))]
    path = tmp_path / "run.parquet"
    frame(rows).to_parquet(path)
    term = "COALESCE(gain_at_32, 0.0)"
    few, many = (to_sql_text(file=str(path), k=list(range(1, n + 1))) for n in (40, 200))
    assert many.count(term) == few.count(term) == 4  # CG and DCG of the run's head and the ideal's
    cutoffs = [1, 5, 31, 32, 33, 60, 89, 90, 120, None]
    result = ndcg_sql.evaluate(frame(rows), k=cutoffs)
    expected, means = reference.evaluate(rows, cutoffs)
    assert_matches(result, expected, means, cutoffs)
