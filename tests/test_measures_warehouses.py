"""The named-measure SQL (to_sql(measures=..., dialect=...)), run by every real
engine of tests/engines.py, gives DuckDB's numbers (to 1e-12)."""

import math

import pandas as pd
import pytest

import ndcg_sql
from ndcg_sql.vocabulary import dialects, identifiers
from test_warehouses import TEXT_JUDGMENTS, TEXT_RUN, _table, engine  # noqa: F401 (engine is a fixture)

MEASURES = ["nDCG@3", "P@2", "P(rel=2)@3", "R@4", "AP", "AP@2", "RR", "Success@1"]


@pytest.mark.parametrize("measures", [None, ["nDCG@2", "nDCG", "DCG@3"]], ids=["binary-and-graded", "graded-only"])
def test_measure_sql_runs_on_engine(engine, measures):  # noqa: F811
    """The measures' one statement (to_sql) on the engine equals the runner's values; with graded
    measures only it has no binary part (BigQuery refused the empty part's WHERE without FROM)."""
    fold = dialects.get(engine.dialect).fold
    columns = [identifiers.folded(name, fold) for name in ("query_id", "item_id", "score", "label")]
    run_name, run_table = _table(engine, "measure_runs", False)
    judgments_name, judgments_table = _table(engine, "measure_qrels", False)
    engine.load(run_table, columns[:3], [row[:3] for row in TEXT_RUN])
    engine.load(judgments_table, [columns[0], columns[1], columns[3]], TEXT_JUDGMENTS)
    options = dict(measures=measures or MEASURES, ties="item-desc", gain="linear", missing_queries="zero")
    sql = ndcg_sql.to_sql(run_name, judgments_table=judgments_name, dialect=engine.dialect, item_type="text", **options)
    connection = engine.connection()
    if hasattr(connection, "cursor"):  # DB-API
        cursor = connection.cursor()
        cursor.execute(sql)
        rows = cursor.fetchall()
    else:  # a SparkSession
        rows = [tuple(row) for row in connection.sql(sql).collect()]
    got = {(row[0], row[1]): row[2] for row in rows}

    run = pd.DataFrame([row[:3] for row in TEXT_RUN], columns=["query_id", "item_id", "score"])
    qrels = pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"])
    want = {(r["query_id"], r["measure"]): r["value"]
            for r in ndcg_sql.evaluate(run, judgments=qrels, **options).per_query_records()}
    assert set(got) == set(want)
    for key, value in want.items():
        assert math.isclose(float(got[key]), value, rel_tol=1e-12, abs_tol=1e-12), (key, got[key], value)


# ------------------------------------------------------------------ the whole suite on every engine
#
# evaluate(con=engine) with measures, conventions, segments, intervals and
# bootstrap, and compare(con=engine), give DuckDB's numbers to 1e-12 (the
# bootstrap too: its draws come from the portable generator of
# sql/random_draws.sql.j2, the same on every engine).

ARMS_RUN = (
    [("A", *row) for row in TEXT_RUN]
    # arm B: other scores, no query "ab", and a NULL-free copy of the rest
    + [("B", q, item, -score if q != "Ab" else score, label) for q, item, score, label in TEXT_RUN if q != "ab"]
)
ARMS_JUDGMENTS = [("A", *row) for row in TEXT_JUDGMENTS] + [("B", *row) for row in TEXT_JUDGMENTS]


def _load(engine, base, columns, rows):
    fold = dialects.get(engine.dialect).fold
    name, table = _table(engine, base, False)
    engine.load(table, [identifiers.folded(c, fold) for c in columns], rows)
    return name


def _same(got, want, where):
    if isinstance(want, float) or isinstance(got, float):
        assert got is not None and want is not None, (where, got, want)
        assert math.isclose(float(got), float(want), rel_tol=1e-12, abs_tol=1e-12), (where, got, want)
    else:
        assert got == want, (where, got, want)


def _same_records(got: list[dict], want: list[dict], keys: list[str]):
    assert len(got) == len(want)
    index = {tuple(r[k] for k in keys): r for r in got}
    assert set(index) == {tuple(r[k] for k in keys) for r in want}
    for row in want:
        mine = index[tuple(row[k] for k in keys)]
        assert set(mine) == set(row), (set(mine), set(row))
        for column, value in row.items():
            _same(mine[column], value, (row, column))


SUITE_CASES = {
    "measures-intervals-bootstrap-judgments-zero": dict(
        judged=True, options=dict(measures=MEASURES, ties="item-desc", gain="linear", missing_queries="zero",
                                  bootstrap=60, seed=7)),
    "segments-ndcg-bootstrap": dict(
        segments=True, options=dict(segments="arm", k=[1, 3, None], bootstrap=40, seed=3)),
    "segmented-judgments-missing-zero-measures": dict(
        segments=True, judged=True, options=dict(segments=["arm"], measures=["nDCG@3", "AP", "P@2"],
                                                  ties="item-desc", missing_queries="zero")),
    "segments-per-query-judgments": dict(
        segments=True, judged="per query", options=dict(segments="arm", k=[2, 10], gain="linear", ties="item-asc")),
    "intervals-sklearn-convention": dict(options=dict(k=[1, 3, None], intervals=True, convention="sklearn")),
    "beyond-measures-discount": dict(
        judged=True, options=dict(measures=["Judged@3", "Judged", "nDCG@3", "DCG@2", "RBP(p=0.5)", "RBPResidual(p=0.5)@4",
                                            "ERR@2", "ERR"], ties="item-desc",
                                  discount="jarvelin", log_base=3, missing_queries="zero")),
    "condensed-lists": dict(
        judged=True, options=dict(measures=["nDCG@3", "AP", "Judged@3", "RBPResidual(p=0.5)"], ties="item-desc",
                                  unjudged="condense")),
    "query-weights": dict(weight=True, options=dict(k=[1, 3, None], weight_col="traffic", intervals=True)),
    "lightgbm-convention-input-order": dict(row=True, options=dict(k=[2, 5], convention="lightgbm", row_col="row_number")),
    # the same sampled queries (sql/query_sample.sql.j2) and strata on every engine
    "sampled-queries-segments": dict(
        segments=True, judged="per query", options=dict(segments="arm", measures=["nDCG@3", "AP"], ties="item-desc",
                                                        sample=0.5, seed=11)),
    "sampled-queries": dict(options=dict(k=[1, 3], sample=0.6, seed=4)),
}


def _suite_inputs(case):
    rows = ARMS_RUN if case.get("segments") else TEXT_RUN
    columns = (["arm"] if case.get("segments") else []) + ["query_id", "item_id", "score", "label"]
    if case.get("row"):
        rows = [(*row, place) for place, row in enumerate(rows)]
        columns = [*columns, "row_number"]
    if case.get("weight"):  # one weight per query
        rows = [(*row, 1.0 + len(str(row[0]))) for row in rows]
        columns = [*columns, "traffic"]
    judgments = None
    if case.get("judged"):
        width = len(columns) - (1 if case.get("row") else 0)
        rows = [row[: width - 1] for row in rows]
        columns = columns[: width - 1]
        if case["judged"] == "per query":
            judgments = (["query_id", "item_id", "label"], TEXT_JUDGMENTS)
        else:
            judgments = ((["arm"] if case.get("segments") else []) + ["query_id", "item_id", "label"],
                         ARMS_JUDGMENTS if case.get("segments") else TEXT_JUDGMENTS)
    return columns, rows, judgments


@pytest.mark.parametrize("case_name", sorted(SUITE_CASES))
def test_suite_on_engine_matches_duckdb(engine, case_name):  # noqa: F811
    case = SUITE_CASES[case_name]
    columns, rows, judgments = _suite_inputs(case)
    number = sorted(SUITE_CASES).index(case_name)
    run_name = _load(engine, f"suite_runs_{number}", columns, rows)
    judgments_name = _load(engine, f"suite_qrels_{number}", *judgments) if judgments else None
    got = ndcg_sql.evaluate(run_name, judgments=judgments_name, con=engine.connection(), dialect=engine.dialect,
                            per_query=True, **case["options"])
    want = ndcg_sql.evaluate(pd.DataFrame(rows, columns=columns),
                             judgments=pd.DataFrame(judgments[1], columns=judgments[0]) if judgments else None,
                             **case["options"])
    segments = ["arm"] if case.get("segments") else []
    group = "measure" if "measures" in case["options"] else "k"
    _same_records(got.summary_records(), want.summary_records(), [*segments, group])
    assert [tuple(r[c] for c in [*segments, group]) for r in got.summary_records()] == \
        [tuple(r[c] for c in [*segments, group]) for r in want.summary_records()]
    _same_records(got.per_query_records(), want.per_query_records(), [*segments, "query_id", group])
    assert got.coverage == want.coverage
    assert got.options == want.options


def test_intervals_in_range_on_engine_match_scipy(engine):  # noqa: F811
    """The interval follows the range of the values on every engine: on arm A 19 of 20 queries
    succeed (the normal interval would reach 1.048), on arm B all 20 (Wilson's upper end exactly
    1): Success@10 and P@1 get scipy's Wilson interval, nDCG@10 and RR the normal one clipped to
    [0, 1], DCG@5 the normal one as it is; the same rows as DuckDB's."""
    from scipy import stats

    columns = ["arm", "query_id", "item_id", "score", "label"]
    hits = {"A": 19, "B": 20}
    rows = [(arm, f"q{q}", item, score, int(item == "a" and q < hits[arm]))
            for arm in hits for q in range(20) for item, score in (("a", 2.0), ("b", 1.0))]
    name = _load(engine, "interval_ranges", columns, rows)
    options = dict(measures=["Success@10", "P@1", "nDCG@10", "RR", "DCG@5"], segments="arm", ties="item-asc")
    got = ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect, **options).summary_records()
    for row in got:
        values = [1.0] * hits[row["arm"]] + [0.0] * (20 - hits[row["arm"]])
        if row["measure"] in ("Success@10", "P@1"):
            method, interval = "wilson", stats.binomtest(hits[row["arm"]], 20).proportion_ci(method="wilson")
            low, high = interval.low, interval.high
        else:
            scale = stats.sem(values)
            low, high = stats.norm.interval(0.95, loc=sum(values) / 20, scale=scale) if scale else (1.0, 1.0)
            method = "normal" if row["measure"] == "DCG@5" else "normal, clipped to [0, 1]"
            if method != "normal":
                low, high = max(low, 0.0), min(high, 1.0)
        assert row["ci_method"] == method, row
        assert math.isclose(float(row["ci_low"]), low, rel_tol=1e-9, abs_tol=1e-9), (row, low)
        assert math.isclose(float(row["ci_high"]), high, rel_tol=1e-9, abs_tol=1e-9), (row, high)
    assert [float(r["ci_high"]) for r in got if r["arm"] == "B" and r["ci_method"] == "wilson"] == [1.0, 1.0]
    want = ndcg_sql.evaluate(pd.DataFrame(rows, columns=columns), **options).summary_records()
    _same_records(got, want, ["arm", "measure"])


def test_float32_scores_refused_where_the_engine_has_no_float32(engine):  # noqa: F811
    """trec_eval compares scores as float32: BigQuery and Snowflake have no 32-bit float."""
    run_name = _load(engine, "float32_runs", ["query_id", "item_id", "score"], [row[:3] for row in TEXT_RUN])
    qrels_name = _load(engine, "float32_qrels", ["query_id", "item_id", "label"], TEXT_JUDGMENTS)
    options = dict(measures=["nDCG@3", "AP"], convention="trec_eval")
    if engine.dialect in ("bigquery", "snowflake"):
        with pytest.raises(ndcg_sql.OptionError, match="no 32-bit float"):
            ndcg_sql.evaluate(run_name, judgments=qrels_name, con=engine.connection(), dialect=engine.dialect, **options)
        return
    got = ndcg_sql.evaluate(run_name, judgments=qrels_name, con=engine.connection(), dialect=engine.dialect,
                            per_query=True, **options)
    want = ndcg_sql.evaluate(pd.DataFrame([row[:3] for row in TEXT_RUN], columns=["query_id", "item_id", "score"]),
                             judgments=pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"]), **options)
    _same_records(got.summary_records(), want.summary_records(), ["measure"])
    _same_records(got.per_query_records(), want.per_query_records(), ["query_id", "measure"])


#: Statements a run's evaluation sends when compared with ties item-desc: one, and on Postgres
#: and Snowflake (their byte-order tie-break is for text only) one more fetching an item id.
def _evaluation_statements(engine) -> int:
    return 1 + (dialects.get(engine.dialect).byte_order != "{item}")


#: Statements a comparison adds in the warehouse per run: on Spark each run's values are kept in
#: the session first (Warehouse.kept); elsewhere they are CTEs of the pairs' statements.
def _kept_statements(engine) -> int:
    return 1 if engine.dialect == "spark" else 0


def test_compare_per_segment_on_engine_matches_duckdb(engine):  # noqa: F811
    """compare(con=engine): the paired statistics computed by the engine (one statement for the
    pair after each run's own), only one summary row per (segment, measure) sent back, give
    DuckDB's numbers; the per-query differences stay in the warehouse."""
    from benchmarks.counting import counted

    columns = ["arm", "query_id", "item_id", "score", "label"]
    other = [(arm, q, item, score * 0.5 + (1.0 if item in ("B", "Z") else 0.0), label)
             for arm, q, item, score, label in ARMS_RUN]
    a_name = _load(engine, "compare_a", columns, ARMS_RUN)
    b_name = _load(engine, "compare_b", columns, other)
    options = dict(segments="arm", ties="item-desc", permutations=64, seed=5)
    measures = ["nDCG@3", "P@2", "RR"]
    connection = counted(engine.connection(), engine.dialect, [a_name, b_name])
    got = ndcg_sql.compare(a_name, b_name, measures, con=connection, dialect=engine.dialect, **options)
    want = ndcg_sql.compare(pd.DataFrame(ARMS_RUN, columns=columns), pd.DataFrame(other, columns=columns), measures,
                            **options)
    got_rows, want_rows = got.summary_records(), want.summary_records()
    assert [(r["arm"], r["measure"]) for r in got_rows] == [(r["arm"], r["measure"]) for r in want_rows]
    _same_records(got_rows, want_rows, ["arm", "measure"])
    runs = 2 * (_evaluation_statements(engine) + _kept_statements(engine))
    assert connection.statements == runs + 1, connection.texts
    if engine.dialect != "spark":  # the pair's statement: 2 arms x 3 measures, no per-query row
        assert connection.fetched[-1] == 2 * len(measures), connection.fetched
    assert got.per_query_records() == []


def _reference_values(rows) -> dict:
    """{(query, measure): value} of nDCG@3 and RR by the numpy reference (tests/reference.py)."""
    import reference

    ndcg, _ = reference.evaluate(rows, [3], ties="item-desc")
    values = {(q, "nDCG@3"): v[3] for (q, _), v in ndcg.items()}
    values.update(reference.measures(rows, [("RR", "RR", None, 1.0)], ties="item-desc"))
    return values


def test_compare_on_engine_matches_scipy(engine):  # noqa: F811
    """compare(con=engine) of two runs: mean difference, t, df, the t p-value and interval
    (scipy.stats.ttest_rel and scipy's t), wins / ties / losses, the unpaired counts and the exact
    sign-flip p-value (every sign pattern enumerated in numpy) of per-query values from the numpy
    reference; one more statement than the runs' own, sending back one row per measure."""
    import itertools

    import numpy as np
    from scipy import stats

    from benchmarks.counting import counted

    columns = ["query_id", "item_id", "score", "label"]
    a_rows = [row[:4] for row in TEXT_RUN]
    b_rows = [(q, item, -score if q != "Ab" else score, label) for q, item, score, label in TEXT_RUN
              if q != "q;2"] + [("only in b", "a", 1.0, 1)]
    a_name, b_name = _load(engine, "scipy_a", columns, a_rows), _load(engine, "scipy_b", columns, b_rows)
    measures = ["nDCG@3", "RR"]
    connection = counted(engine.connection(), engine.dialect, [a_name, b_name])
    got = ndcg_sql.compare(a_name, b_name, measures, con=connection, dialect=engine.dialect, ties="item-desc",
                           permutations=64, correction="none")
    assert connection.statements == 2 * (_evaluation_statements(engine) + _kept_statements(engine)) + 1
    if engine.dialect != "spark":
        assert connection.fetched[-1] == len(measures), connection.fetched
    a_values, b_values = _reference_values(a_rows), _reference_values(b_rows)
    rows = {row["measure"]: row for row in got.summary_records()}
    for measure in measures:
        paired = sorted(q for (q, m) in a_values if m == measure and (q, m) in b_values)
        a = np.array([a_values[(q, measure)] for q in paired])
        b = np.array([b_values[(q, measure)] for q in paired])
        d = a - b
        row, n = rows[measure], len(paired)
        test = stats.ttest_rel(a, b)
        half = stats.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)
        flipped = [abs(np.dot(signs, d)) for signs in itertools.product((1.0, -1.0), repeat=n)]
        exact = np.mean([f >= abs(d.sum()) * (1 - 1e-9) for f in flipped])
        want = {"queries": n, "mean_a": a.mean(), "mean_b": b.mean(), "mean_difference": d.mean(),
                "stderr": d.std(ddof=1) / np.sqrt(n), "t": test.statistic, "df": n - 1, "t_p_value": test.pvalue,
                "ci_low": d.mean() - half, "ci_high": d.mean() + half, "permutation_p_value": exact,
                "permutation_kind": "exact", "wins": int((d > 0).sum()), "ties": int((d == 0).sum()),
                "losses": int((d < 0).sum()), "only_a": 1, "only_b": 1}
        for column, value in want.items():
            _same(row[column], float(value) if isinstance(value, np.floating) else value, (measure, column))


def test_three_runs_compared_on_engine_match_duckdb(engine):  # noqa: F811
    """compare_runs(con=engine): the pairs' tests and unpaired counts (a statement per pair) and the
    randomized Tukey HSD test (one statement reading every run) computed by the engine, only summary
    rows sent back, give DuckDB's numbers and its corrected table."""
    from benchmarks.counting import counted

    columns = ["arm", "query_id", "item_id", "score", "label"]
    second = [(arm, q, item, score * 0.5 + (1.0 if item in ("B", "Z") else 0.0), label)
              for arm, q, item, score, label in ARMS_RUN]
    third = [(arm, q, item, -score, label) for arm, q, item, score, label in ARMS_RUN]
    runs = (("a", ARMS_RUN), ("b", second), ("c", third))
    tables = {name: _load(engine, f"compare_runs_{name}", columns, rows) for name, rows in runs}
    options = dict(segments="arm", ties="item-desc", permutations=16, seed=5)
    measures = ["nDCG@3", "RR"]
    connection = counted(engine.connection(), engine.dialect, list(tables.values()))
    got = ndcg_sql.compare_runs(tables, measures, con=connection, dialect=engine.dialect, **options)
    want = ndcg_sql.compare_runs({name: pd.DataFrame(rows, columns=columns) for name, rows in runs}, measures,
                                 **options)
    _same_records(got.summary_records(), want.summary_records(), ["run_a", "run_b", "arm", "measure"])
    assert all(row["tukey_p_value"] is not None for row in got.summary_records() if row["queries"])
    assert got.table("text") == want.table("text")
    assert got.per_query_records() == []
    # each run's own statements, then one per pair (3) and Tukey's
    assert connection.statements == 3 * (_evaluation_statements(engine) + _kept_statements(engine)) + 3 + 1
    if engine.dialect != "spark":  # 2 arms x 2 measures a pair; Tukey's: x 3 pairs
        assert connection.fetched[-4:] == [4, 4, 4, 12], connection.fetched


def test_engine_names_nan_infinite_and_non_numeric_values(engine):  # noqa: F811
    """Text columns holding NaN, infinity and words: InputError naming the column and query ids."""
    rows = [("q1", "a", "1.5", "1"), ("q1", "b", "NaN", "2"), ("q2", "a", "2", "Infinity"),
            ("q3", "a", "0.5", "high"), ("q4", "a", "x", "0")]
    name = _load(engine, "bad_text_input", ["query_id", "item_id", "score", "label"], rows)
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect, gain="linear")
    message = str(error.value)
    assert "column 'score': non-numeric scores (1 row), e.g. in query_id q4" in message, message
    assert "column 'score': NaN scores (1 row), e.g. in query_id q1" in message, message
    assert "column 'label': non-numeric labels (1 row), e.g. in query_id q3" in message, message
    assert "column 'label': NaN or infinite labels (1 row), e.g. in query_id q2" in message, message
    local = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    with pytest.raises(ndcg_sql.InputError) as duck:
        ndcg_sql.evaluate(local, gain="linear")
    assert str(duck.value) == message


# ------------------------------------------------------------------ label expressions on every engine

LABEL_COLUMNS = ["query_id", "item_id", "score", "clicks", "Watch Time", "bonus", "event"]
LABEL_ROWS = [
    ("q1", "a", 0.9, 1, 200.0, None, "view"), ("q1", "b", 0.8, 0, 0.0, 1, "none"),
    ("q1", "c", 0.8, 2, 75.0, None, "purchase"), ("q1", "d", 0.1, 1, 30.0, 2, "view"),
    ("q2", "a", 0.5, 0, 10.0, None, "none"), ("q2", "e", 0.4, 0, 5.0, None, "none"),
    ("q3", "b", 3.0, 1, 400.0, 1, "purchase"), ("q3", "f", 2.0, 1, 61.0, None, "view"),
    ("q3", "g", 1.0, 3, 181.0, 3, "purchase"), ("q3", "h", 1.0, 0, 0.0, None, "none"),
]
#: The label expression in each engine's quoting of "Watch Time", and the same label in Python.
LABEL_EXPRESSION = ("CASE WHEN {watch} / 60 >= 3 THEN 3 ELSE GREATEST(clicks - 1, 0) + LEAST(COALESCE(bonus, 0), 1) END"
                    " + ({watch} > 60) + (event = 'purchase')")


def _python_label(r):
    base = 3 if r["Watch Time"] / 60 >= 3 else max(r["clicks"] - 1, 0) + min(r["bonus"] or 0, 1)
    return base + (r["Watch Time"] > 60) + (r["event"] == "purchase")


def test_label_expression_on_engine_equals_the_reference(engine):  # noqa: F811
    """Label expressions (label=) on the engine equal the numpy reference fed with labels computed
    in Python: NULLs, true division, GREATEST/LEAST, comparisons counted 1/0, a text comparison and
    a column name that needs quoting; a NULL label is named as DuckDB names it."""
    import reference

    target = dialects.get(engine.dialect)
    stored = [identifiers.folded(name, target.fold) for name in LABEL_COLUMNS]
    name, table = _table(engine, "label_log", False)
    engine.load(table, stored, LABEL_ROWS)
    # "Watch Time" is no plain name: kept exactly, quoted as the engine quotes
    expression = LABEL_EXPRESSION.format(watch=identifiers.quote("Watch Time", target.sqlglot))
    got = ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect, label=expression, gain="linear",
                            k=[1, 3, None], per_query=True)
    labelled = [(r[0], r[1], r[2], float(_python_label(dict(zip(LABEL_COLUMNS, r))))) for r in LABEL_ROWS]
    want, means = reference.evaluate(labelled, [1, 3, None], gain="linear")
    rows = {(r["query_id"], r["k"]): r for r in got.per_query_records()}
    assert set(rows) == set(want)
    for key, values in want.items():
        for column, value in zip(("cg", "dcg", "idcg", "ndcg"), values):
            assert math.isclose(float(rows[key][column]), value, rel_tol=1e-12, abs_tol=1e-12), (key, column)
    for row in got.summary_records():
        assert math.isclose(float(row["ndcg"]), means[row["k"]][0], rel_tol=1e-12, abs_tol=1e-12), row
    with pytest.raises(ndcg_sql.InputError, match="label expression 'bonus \\+ 1': NULL labels \\(6 rows\\)"):
        ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect, label="bonus + 1")


# ------------------------------------------------------------------ one scan of the input (issue 14)

#: name -> (judged, segments, options, (statements, input-table references) on an engine whose
#: SQL is the same for text and number item ids; Postgres and Snowflake look at one item id
#: first (their byte-order tie-break is for text only): one more statement naming the ranking)
SCAN_CASES = {
    "default": (False, False, dict(), (1, 1)),
    "judgments-per-query": (True, False, dict(per_query=True, ties="item-desc", missing_queries="zero"), (1, 2)),
    "segments-measures": (False, True, dict(segments="arm", measures=["nDCG@3", "AP"], ties="item-asc"), (1, 1)),
    "segments-bootstrap-per-query": (False, True, dict(segments="arm", k=[1, 3], bootstrap=20, seed=3,
                                                       per_query=True), (1, 1)),
}


def test_one_statement_names_each_input_once_on_engine(engine):  # noqa: F811
    """evaluate(con=engine) sends one statement for the input checks, the summary and the query
    counts (and the per-query rows when asked), naming each input table once, with DuckDB's numbers."""
    from benchmarks.counting import counted

    target = dialects.get(engine.dialect)
    for number, (name, (judged, segmented, options, sent)) in enumerate(SCAN_CASES.items()):
        columns = (["arm"] if segmented else []) + ["query_id", "item_id", "score"] + ([] if judged else ["label"])
        rows = [row[: len(columns)] for row in (ARMS_RUN if segmented else TEXT_RUN)]
        run_name = _load(engine, f"scan_runs_{number}", columns, rows)
        qrels_name = _load(engine, f"scan_qrels_{number}", ["query_id", "item_id", "label"], TEXT_JUDGMENTS) if judged else None
        connection = counted(engine.connection(), engine.dialect, [run_name] + ([qrels_name] if judged else []))
        got = ndcg_sql.evaluate(run_name, judgments=qrels_name, con=connection, dialect=engine.dialect, **options)
        # with judgments, the probe of the id columns' types (no row read: WHERE 1 = 0) names both
        # tables and tells the item ids' type (on Spark the tables' schemas do: no statement);
        # without, one item id is fetched where the SQL needs it
        probe = not judged and options.get("ties", "average") != "average" and target.byte_order != "{item}"
        typed = (1, 2) if judged and engine.dialect != "spark" else (0, 0)
        assert connection.counts == (sent[0] + probe + typed[0], sent[1] + probe + typed[1]), (name, connection.texts)
        local = {key: value for key, value in options.items() if key != "per_query"}
        want = ndcg_sql.evaluate(pd.DataFrame(rows, columns=columns),
                                 judgments=pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"])
                                 if judged else None, **local)
        group = ["arm"] if segmented else []
        group += ["measure" if "measures" in options else "k"]
        _same_records(got.summary_records(), want.summary_records(), group)
        assert got.coverage == want.coverage, name
        if options.get("per_query"):
            _same_records(got.per_query_records(), want.per_query_records(), ["query_id", *group])


def test_bad_text_on_postgres_outside_autocommit_gets_the_message(engine):  # noqa: F811
    """A word in a text label column fails the metric's statement, which aborts a Postgres
    transaction: the runner rolls it back and the checks name the column (DuckDB's message)."""
    if engine.dialect != "postgres":
        return  # a failed statement aborts the transaction on Postgres (Redshift's stand-in is Postgres too)
    import psycopg

    rows = [("q1", "a", "1.5", "1"), ("q1", "b", "0.5", "high"), ("q2", "a", "2", "0")]
    name = _load(engine, "bad_text_transaction", ["query_id", "item_id", "score", "label"], rows)
    with psycopg.connect(engine.con.info.dsn, autocommit=False) as connection:
        with pytest.raises(ndcg_sql.InputError) as error:
            ndcg_sql.evaluate(name, con=connection, dialect="postgres", gain="linear")
        assert str(error.value) == ("bad input:\n  column 'label': non-numeric labels (1 row), e.g. in query_id q1 - "
                                    "labels given as words: map them with gain={'relevant': 2, ...} "
                                    "(--gain relevant:2,...)")
        with connection.cursor() as cursor:  # the connection takes statements again
            cursor.execute("SELECT 1")
            assert cursor.fetchall() == [(1,)]


def test_incomplete_judgment_measures_on_engine_equal_pytrec_eval(engine):  # noqa: F811
    """Bpref, infAP, Rprec, IPrec@x and gm_map per query on the engine equal pytrec_eval's (trec_eval's
    test data with judgments of -1), and the summary (intervals, a bootstrap) DuckDB's."""
    from test_incomplete_judgments import TOL, engine_data, names_at, per_query, pytrec

    run, qrels = engine_data()
    expected = pytrec(run, qrels, 1)
    judgments = [(q, d, label) for q, docs in qrels.items() for d, label in docs.items()]
    run_name = _load(engine, "pool_runs", ["query_id", "item_id", "score"], list(run.itertuples(index=False, name=None)))
    qrels_name = _load(engine, "pool_qrels", ["query_id", "item_id", "label"], judgments)
    names = {name: measure for name, measure in names_at(1).items()
             if not name.startswith("IPrec") or name in ("IPrec@0.0", "IPrec@0.5", "IPrec@1.0")}
    # trec_eval's options but its float32 scores (BigQuery and Snowflake have none; these scores are float32 already)
    options = dict(measures=list(names), ties="item-desc", gain="linear", negative_labels="zero", item_type="text",
                   intervals=True, bootstrap=30, seed=2)
    got = ndcg_sql.evaluate(run_name, judgments=qrels_name, con=engine.connection(), dialect=engine.dialect,
                            per_query=True, **options)
    values = per_query(got)
    for qid, measured in expected.items():
        for name, measure in names.items():
            assert float(values[(qid, name)]) == pytest.approx(measured[measure], **TOL), (engine.dialect, qid, name)
    want = ndcg_sql.evaluate(run, judgments=pd.DataFrame(judgments, columns=["query_id", "item_id", "label"]), **options)
    _same_records(got.summary_records(), want.summary_records(), ["measure"])


def test_gm_map_compared_on_engine_as_a_ratio(engine):  # noqa: F811
    """compare(con=engine) of gm_map: the warehouse's paired statistics of the per-query logarithms
    ln(max(AP, 1e-5)) give scipy's ttest_rel on numpy logs of pytrec_eval's AP, and the ratio of the
    geometric means with its interval exponentiated (trec_eval's test data, a second run its reverse)."""
    from test_incomplete_judgments import assert_row, engine_data, log_ap, ratio_expected

    run, qrels = engine_data()
    other = run.assign(score=-run["score"])
    other = other[other["query_id"] != "303"].reset_index(drop=True)  # query 303 only in the first run
    judgments = [(q, d, label) for q, docs in qrels.items() for d, label in docs.items()]
    columns = ["query_id", "item_id", "score"]
    a_name = _load(engine, "gm_a", columns, list(run.itertuples(index=False, name=None)))
    b_name = _load(engine, "gm_b", columns, list(other.itertuples(index=False, name=None)))
    qrels_name = _load(engine, "gm_qrels", ["query_id", "item_id", "label"], judgments)
    got = ndcg_sql.compare(a_name, b_name, ["AP", "gm_map"], judgments=qrels_name, con=engine.connection(),
                           dialect=engine.dialect, ties="item-desc", gain="linear", negative_labels="zero",
                           item_type="text", permutations=64, correction="none")
    rows = {row["measure"]: row for row in got.summary_records()}
    want = ratio_expected(log_ap(run, qrels), log_ap(other, qrels))
    assert_row(rows["gm_map"], want, engine.dialect)
    assert rows["gm_map"]["only_a"] == 1 and rows["AP"]["contrast"] == "difference"
