"""The transpiled SQL, run by real engines on a user-style connection, gives DuckDB's numbers.

Every engine runs :func:`ndcg_sql.evaluate` with ``con=`` its connection (the
warehouse runner: checks, summary, coverage, per-query rows all computed by the
engine) on fixtures with ties, an all-zero query, k beyond the list, judgments
(unretrieved judged items, an unjudged run query, a judged query missing from
the run), string ids whose byte order differs from collation order, integer
ids, and hostile column names. Per-query values and means must equal DuckDB's
to 1e-12. A missing engine fails the test (see ``engines.py``).
"""

from __future__ import annotations

import contextlib
import logging
import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

import ndcg_sql
from ndcg_sql.vocabulary import dialects, identifiers
from engines import ENGINES, shared
from test_reference import rankings

TOLERANCE = 1e-12

# Items whose byte order (B < Z < _x < a < a b < é) differs from ICU/locale order.
TEXT_ITEMS = ["a", "B", "é", "Z", "_x", "a b"]
TEXT_RUN = [
    # query 'q "1"': ties at score 2.0 across gains; 6 items
    ('q "1"', "a", 2.0, 3), ('q "1"', "B", 2.0, 0), ('q "1"', "é", 1.5, 2),
    ('q "1"', "Z", 1.5, 2), ('q "1"', "_x", 0.5, 1), ('q "1"', "a b", -1.0, 0),
    # all-zero query
    ("q;2", "a", 1.0, 0), ("q;2", "é", 1.0, 0), ("q;2", "B", 0.0, 0),
    # a single item: k beyond the list
    ("Ab", "Z", 0.25, 1),
    # everything tied, mixed labels
    ("ab", "a", 1.0, 1), ("ab", "B", 1.0, 3), ("ab", "é", 1.0, 0), ("ab", "Z", 1.0, 2),
    # unjudged in the judgments cases
    ("é--q", "a", 3.0, 2), ("é--q", "_x", 2.0, 0),
]
TEXT_JUDGMENTS = [
    ('q "1"', "a", 3), ('q "1"', "é", 2), ('q "1"', "never shown", 3), ('q "1"', "B", 0),
    ("q;2", "a", 0),
    ("Ab", "Z", 1), ("Ab", "other", 2),
    ("ab", "B", 3), ("ab", "Z", 2), ("ab", "a", 1),
    ("missing from run", "a", 1),
]
INT_RUN = [
    (7, 10, 1, 2), (7, 9, 2, 0), (7, 100, 3, 1), (7, -5, 4, 3),
    (-3, 1, 1, 0), (-3, 2, 2, 0),
    (40, 11, 1, 1), (40, 2, 2, 1), (40, 30, 3, 0),
]

PLAIN = {"query_col": "query_id", "item_col": "item_id", "score_col": "score", "label_col": "label"}
HOSTILE = {"query_col": 'Q "id";--', "item_col": "it`em /*x*/", "score_col": "sc'ore", "label_col": "Label"}

CASES = {
    "ties-average-exponential-hostile-names": dict(
        run=TEXT_RUN, names=HOSTILE, options=dict(k=[1, 3, 5, 10, None])),
    "item-asc-byte-order-linear-skip": dict(
        run=TEXT_RUN, names=PLAIN, options=dict(k=[1, 2, 4, None], ties="item-asc", gain="linear", no_relevant="skip")),
    "item-desc-byte-order-mapping-one": dict(
        run=TEXT_RUN, names=PLAIN,
        options=dict(k=[2, 3, 20], ties="item-desc", gain={0: 0, 1: 1, 2: 2.5, 3: 7}, no_relevant="one")),
    "integer-ids-logged-rank-item-desc": dict(
        run=INT_RUN, names={**PLAIN, "score_col": "position"}, rank=True,
        options=dict(k=[1, 3, 10, None], ties="item-desc", gain="linear")),
    "judgments-trec-item-desc-missing-zero": dict(
        run=TEXT_RUN, judgments=TEXT_JUDGMENTS, names=PLAIN, qualified=True,
        options=dict(k=[1, 5, 10, None], ties="item-desc", gain="linear", missing_queries="zero")),
    "judgments-average-exponential-skip": dict(
        run=TEXT_RUN, judgments=TEXT_JUDGMENTS, names=PLAIN,
        options=dict(k=[3, 10], no_relevant="skip")),
}


@pytest.fixture(scope="module", params=sorted(ENGINES))
def engine(request):
    return shared(request.param)


def _arguments(case):
    names = case["names"]
    args = dict(query_col=names["query_col"], item_col=names["item_col"], label_col=names["label_col"], **case["options"])
    args["rank_col" if case.get("rank") else "score_col"] = names["score_col"]
    return args


def _duckdb(case):
    names = case["names"]
    columns = [names["query_col"], names["item_col"], names["score_col"], names["label_col"]]
    judgments = None
    run = pd.DataFrame(case["run"], columns=columns)
    if case.get("judgments"):
        run = run.drop(columns=[names["label_col"]])
        judgments = pd.DataFrame(case["judgments"], columns=[columns[0], columns[1], columns[3]])
    return ndcg_sql.evaluate(run, judgments=judgments, **_arguments(case))


def _table(engine, base: str, qualified: bool) -> tuple[str | list[str], exp.Table]:
    """The name the user passes, and the table as the engine stores it (plain names folded)."""
    fold = dialects.get(engine.dialect).fold
    parts = ["ndcg_tests", base] if qualified and engine.dialect != "bigquery" else [base]
    return ".".join(parts), identifiers.table(parts, fold)


@pytest.mark.parametrize("case_name", sorted(CASES))
def test_engine_matches_duckdb(engine, case_name):
    case = CASES[case_name]
    fold = dialects.get(engine.dialect).fold
    names = case["names"]
    stored = [identifiers.folded(names[key], fold) for key in ("query_col", "item_col", "score_col", "label_col")]
    run_name, run_table = _table(engine, f"runs_{sorted(CASES).index(case_name)}", case.get("qualified", False))
    judgments_name = None
    if case.get("judgments"):
        engine.load(run_table, stored[:3], [row[:3] for row in case["run"]])
        judgments_name, judgments_table = _table(engine, f"qrels_{sorted(CASES).index(case_name)}", case.get("qualified", False))
        engine.load(judgments_table, [stored[0], stored[1], stored[3]], case["judgments"])
    else:
        engine.load(run_table, stored, case["run"])

    got = ndcg_sql.evaluate(
        run_name, judgments=judgments_name, con=engine.connection(), dialect=engine.dialect,
        per_query=True, **_arguments(case),
    )
    want = _duckdb(case)

    query_col = names["query_col"]
    want_rows = {(r[query_col], r["k"]): r for r in want.per_query_records()}
    got_rows = {(r[query_col], r["k"]): r for r in got.per_query_records()}
    assert set(got_rows) == set(want_rows)
    for key, row in want_rows.items():
        for value in ("cg", "dcg", "idcg", "ndcg"):
            a, b = got_rows[key][value], row[value]
            assert (a is None) == (b is None), (key, value, a, b)
            if a is not None:
                assert math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE), (key, value, a, b)
    want_summary = {r["k"]: r for r in want.summary_records()}
    assert [r["k"] for r in got.summary_records()] == list(want_summary)
    for row in got.summary_records():
        expected = want_summary[row["k"]]
        assert row["queries"] == expected["queries"] and row["no_relevant"] == expected["no_relevant"]
        assert (row["ndcg"] is None) == (expected["ndcg"] is None)
        if row["ndcg"] is not None:
            assert math.isclose(row["ndcg"], expected["ndcg"], rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    assert got.coverage == want.coverage


def test_engine_reports_bad_input(engine):
    """The portable input checks run in the engine: duplicate rows and NULL labels are named."""
    rows = [("q1", "a", 1.0, 1), ("q1", "a", 0.5, 2), ("q2", "b", 1.0, None)]
    name, table = _table(engine, "bad_input", False)
    fold = dialects.get(engine.dialect).fold
    engine.load(table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score", "label")], rows)
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect)
    message = str(error.value)
    assert "duplicate (query, item) rows in the ranking (1 duplicated (query, item) pair, 2 rows)" in message
    assert "q1" in message and "NULL labels" in message and "q2" in message
    with pytest.raises(ndcg_sql.InputError) as error:  # the offending labels are named on the engine too
        ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect, gain={0: 0, 1: 1})
    assert "column 'label': label 2 is missing from the gain mapping (1 row), e.g. in query_id q1" in str(error.value)
    big = [("q1", "a", 1.0, 1023), ("q1", "b", 0.5, 1023), ("q2", "c", 1.0, 1022)]
    name, table = _table(engine, "gain_overflow", False)
    engine.load(table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score", "label")], big)
    with pytest.raises(ndcg_sql.InputError) as error:  # a query's gains past 2^1023: refused, never inf
        ndcg_sql.evaluate(name, con=engine.connection(), dialect=engine.dialect)
    assert "queries whose gains add up past 2^1023" in str(error.value) and "q1" in str(error.value)


@pytest.fixture(scope="module")
def postgres():
    return shared("postgres")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    rows=rankings(),
    cutoffs=st.lists(st.one_of(st.integers(1, 10), st.none()), min_size=1, max_size=3, unique=True),
    ties=st.sampled_from(["average", "item-asc", "item-desc"]),
    gain=st.sampled_from(["exponential", "linear"]),
    no_relevant=st.sampled_from(["zero", "skip", "one"]),
)
def test_postgres_matches_duckdb_on_generated_tables(postgres, rows, cutoffs, ties, gain, no_relevant):
    """Generated tables (ties, all-zero queries, k beyond the list, string ids with 'é', ' ', 'A'/'a')."""
    case = dict(run=rows, names=PLAIN, options=dict(k=cutoffs, ties=ties, gain=gain, no_relevant=no_relevant))
    postgres.load(identifiers.table("generated"), ["query_id", "item_id", "score", "label"], rows)
    got = ndcg_sql.evaluate("generated", con=postgres.connection(), dialect="postgres", per_query=True, **_arguments(case))
    want = _duckdb(case)
    want_rows = {(r["query_id"], r["k"]): r for r in want.per_query_records()}
    got_rows = {(r["query_id"], r["k"]): r for r in got.per_query_records()}
    assert set(got_rows) == set(want_rows)
    for key, row in want_rows.items():
        for value in ("cg", "dcg", "idcg", "ndcg"):
            a, b = got_rows[key][value], row[value]
            assert (a is None) == (b is None) and (a is None or math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)), (key, value, a, b)


@pytest.mark.on_engine("bigquery")
@pytest.mark.parametrize("what", ["per_query", "summary", "coverage"])
def test_bigquery_qualified_names_resolve_in_zetasql(what):
    """project.dataset.table names, quoted part by part, resolve in GoogleSQL's analyzer."""
    columns = [("query_id", "VARCHAR"), ("item_id", "VARCHAR"), ("score", "DOUBLE"), ("label", "BIGINT")]
    sql = ndcg_sql.to_sql(
        "my-project.search_logs.runs", judgments_table="my-project.search_logs.qrels", dialect="bigquery",
        ties="item-desc", k=[10, None], what=what,
    )
    shared("bigquery").analyze(sql, ["my-project", "search_logs"], {"runs": columns[:3], "qrels": [columns[0], columns[1], columns[3]]})
    with pytest.raises(Exception, match="not found"):
        shared("bigquery").analyze(sql, ["other-project", "search_logs"], {"runs": columns[:3], "qrels": columns})


#: integer query and item ids in the ranking; the judgments' ids as text: '07' is not 7, 'q1' is
#: not 1, and items 9 and 10 of query 3 tie, so item-asc takes '10' (byte order of the text) first
MIXED_RUN = [(7, 10, 2.0), (7, 11, 1.0), (1, 10, 2.0), (1, 11, 1.0), (3, 9, 1.0), (3, 10, 1.0)]
MIXED_JUDGMENTS = [("07", "10", 1), ("07", "11", 0), ("1", "10", 0), ("1", "11", 1), ("q1", "10", 1),
                   ("3", "9", 2), ("3", "10", 0)]
#: the same judgments with integer ids (7 is then query 7, and 9 ranks before 10)
SAME_JUDGMENTS = [(7, 10, 1), (7, 11, 0), (1, 10, 0), (1, 11, 1), (3, 9, 2), (3, 10, 0)]


def _ids_case(engine, base, judgments):
    fold = dialects.get(engine.dialect).fold
    run, run_table = _table(engine, f"{base}_run", False)
    qrels, qrels_table = _table(engine, f"{base}_qrels", False)
    engine.load(run_table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score")], MIXED_RUN)
    engine.load(qrels_table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "label")], judgments)
    options = dict(k=[10], ties="item-asc")
    got = ndcg_sql.evaluate(run, judgments=qrels, con=engine.connection(), dialect=engine.dialect, per_query=True,
                            **options)
    want = ndcg_sql.evaluate(pd.DataFrame(MIXED_RUN, columns=["query_id", "item_id", "score"]),
                             judgments=pd.DataFrame(judgments, columns=["query_id", "item_id", "label"]), **options)
    values = {r["query_id"]: r["ndcg"] for r in got.per_query_records()}
    assert values == pytest.approx({r["query_id"]: r["ndcg"] for r in want.per_query_records()}, rel=TOLERANCE)
    assert got.coverage == want.coverage
    assert got.summary_records()[0]["ndcg"] == pytest.approx(want.summary_records()[0]["ndcg"], rel=TOLERANCE)
    return values, got.coverage


def test_ids_of_different_types_on_engine_are_compared_as_text(engine):
    """Integer ids in the ranking, text ids in the judgments: the warehouse reads the id columns'
    types (a statement reading no row) and compares both sides as text in TREC form, as DuckDB
    does (tests/test_id_types.py): the same per-query values. Before: refused by Postgres
    (an InputError), compared by an implicit cast elsewhere."""
    values, coverage = _ids_case(engine, "mixed_ids", MIXED_JUDGMENTS)
    # by hand: query 7 has no judgment ('07' is another id); query 1: its relevant item at rank 2;
    # query 3: '10' (label 0) before '9' (label 2) in byte order: 3 / log2(3) of an ideal 3
    assert values == pytest.approx({"1": 1 / math.log2(3), "3": 1 / math.log2(3)}, rel=TOLERANCE)
    assert coverage == {"evaluated": 2, "unjudged_ignored": 1, "missing_from_run": 2}


def test_ids_of_one_type_on_engine_are_compared_as_stored(engine):
    """Integer ids on both sides: compared as stored (numbers: 9 ranks before 10 in a tie, and
    7 is query 7), the query ids come back as numbers."""
    values, coverage = _ids_case(engine, "same_ids", SAME_JUDGMENTS)
    assert values == pytest.approx({7: 1.0, 1: 1 / math.log2(3), 3: 1.0}, rel=TOLERANCE)
    assert coverage == {"evaluated": 3, "unjudged_ignored": 0, "missing_from_run": 0}


def test_ids_without_a_text_form_on_a_warehouse_are_refused(postgres):
    """An id column of a type with no text form (a Postgres array) is refused before the metric's
    statement, naming both columns, as DuckDB refuses a list."""
    run, run_table = _table(postgres, "array_ids_run", False)
    qrels, qrels_table = _table(postgres, "array_ids_qrels", False)
    postgres.load(qrels_table, ["query_id", "item_id", "label"], [("7", "a", 1)])
    with postgres.con.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS array_ids_run")
        cursor.execute("CREATE TABLE array_ids_run AS SELECT ARRAY[7] AS query_id, 'a' AS item_id, 1.0 AS score")
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(run, judgments=qrels, con=postgres.connection(), dialect="postgres")
    assert str(error.value).startswith("query ids must be numbers or text: the ranking's 'query_id' is int4[] "
                                       "and the judgments' 'query_id' is text")


# Postgres column types, each with a value; a user type (an enum) is listed by neither table
POSTGRES_COLUMNS = {
    "i4": ("int4", "1"), "i8": ("int8", "1"), "tx": ("text", "'x'"), "vc": ("varchar(10)", "'x'"),
    "ch": ("char(3)", "'x'"), "f8": ("float8", "1.5"), "n0": ("numeric(12,0)", "1"), "n2": ("numeric(10,2)", "1.5"),
    "nu": ("numeric", "1"), "dt": ("date", "DATE '2020-01-01'"), "ts": ("timestamptz", "now()"),
    "uu": ("uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"), "bo": ("bool", "true"), "ar": ("int4[]", "ARRAY[1]"),
    "by": ("bytea", "'x'"), "en": ("ndcg_sql_mood", "'ok'"),
}


def test_postgres_catalog_type_names_give_the_kinds_of_the_driver_codes(postgres):
    """The Postgres row of type names (ndcg_sql/vocabulary/dialects.py type_names: what dbt's adapter and
    to_sql's id_types= give) and of driver type codes (the warehouse runner's probe) read every
    column of a real Postgres table as one kind (dbt's Column.data_type: "numeric(12,0)",
    "character varying(10)"); a numeric without scale is a fraction on both."""
    from dbt.adapters.base.column import Column

    from ndcg_sql.building import id_types
    from ndcg_sql.building.id_types import ColumnType

    with postgres.con.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS catalog_kinds")
        cursor.execute("DROP TYPE IF EXISTS ndcg_sql_mood")
        cursor.execute("CREATE TYPE ndcg_sql_mood AS ENUM ('ok')")
        cursor.execute("CREATE TABLE catalog_kinds AS SELECT " + ", ".join(
            f"CAST({value} AS {kind}) AS {name}" for name, (kind, value) in POSTGRES_COLUMNS.items()))
        cursor.execute("SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale "
                       "FROM information_schema.columns WHERE table_name = 'catalog_kinds'")
        catalog = {row[0]: row[1:] for row in cursor.fetchall()}
        cursor.execute("SELECT * FROM catalog_kinds WHERE 1 = 0")
        codes = {d.name: ColumnType(d.type_code, d.scale) for d in cursor.description}
    target = dialects.get("postgres")
    rule = id_types._rule("postgres")
    kinds = {}
    for name in POSTGRES_COLUMNS:
        dtype, size, precision, scale = catalog[name]
        kinds[name] = {id_types.warehouse_kind(target, codes[name]),
                       rule._id_kind(Column(name, dtype, size, precision, scale).data_type)}
        # information_schema's data_type alone ("numeric", without its scale): a whole number at
        # scale 0 is not known to be whole, read as a fraction (its text form is a whole one's too)
        assert rule._id_kind(dtype) == ("fraction" if name == "n0" else kinds[name].copy().pop()), name
    assert kinds == {"i4": {"integer"}, "i8": {"integer"}, "tx": {"text"}, "vc": {"text"}, "ch": {"text"},
                     "f8": {"fraction"}, "n0": {"integer"}, "n2": {"fraction"}, "nu": {"fraction"},
                     "dt": {"text_like"}, "ts": {"text_like"}, "uu": {"text_like"}, "bo": {"text_like"},
                     "ar": {"other"}, "by": {"other"}, "en": {None}}


def test_to_sql_with_the_catalogs_id_types_on_postgres(postgres):
    """Integer run ids and text judgments on Postgres: the statement to_sql writes with the types
    the catalog gives (id_types=) runs and gives the hand-worked values of the mixed-ids case (no
    '07' = 7, no 'q1' = 1); without id_types Postgres refuses bigint = text."""
    import psycopg

    run, run_table = _table(postgres, "catalog_ids_run", False)
    qrels, qrels_table = _table(postgres, "catalog_ids_qrels", False)
    postgres.load(run_table, ["query_id", "item_id", "score"], MIXED_RUN)
    postgres.load(qrels_table, ["query_id", "item_id", "label"], MIXED_JUDGMENTS)
    with postgres.con.cursor() as cursor:
        cursor.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                       "WHERE table_name IN ('catalog_ids_run', 'catalog_ids_qrels')")
        catalog = {(table, column): data_type for table, column, data_type in cursor.fetchall()}
        given = {"query": catalog["catalog_ids_run", "query_id"], "item": catalog["catalog_ids_run", "item_id"],
                 "judgments_query": catalog["catalog_ids_qrels", "query_id"],
                 "judgments_item": catalog["catalog_ids_qrels", "item_id"]}
        assert given["query"] != given["judgments_query"]
        cursor.execute(ndcg_sql.to_sql(run, judgments_table=qrels, dialect="postgres", k=[10], ties="item-asc",
                                       id_types=given))
        values = {row[0]: row[-1] for row in cursor.fetchall()}
    assert values == pytest.approx({"1": 1 / math.log2(3), "3": 1 / math.log2(3)}, rel=TOLERANCE)
    with pytest.raises(psycopg.errors.UndefinedFunction), postgres.con.cursor() as cursor:
        cursor.execute(ndcg_sql.to_sql(run, judgments_table=qrels, dialect="postgres", k=[10]))


#: a ranking (with labels, and without for the judgments) and judgments, for a wrong name of
#: each kind: (judgments given, the options of evaluate)
EDGE_RUN = [("q1", "a", 2.0, 1), ("q1", "b", 1.0, 0), ("q2", "a", 1.0, 2), ("q2", "c", 0.5, 0)]
EDGE_JUDGMENTS = [("q1", "a", 1), ("q2", "a", 2), ("q2", "d", 1)]
WRONG_NAMES = {
    "query column": (False, dict(query_col="qid")),
    "label column": (False, dict(label_col="rel")),
    "segment column": (False, dict(segments="device")),
    "item column, read first by the item probe": (False, dict(item_col="doc", ties="item-asc")),
    "the judgments' label column": (True, dict(label_col="rel")),
    "segment column, with judgments": (True, dict(segments="device")),
    "query column, with judgments": (True, dict(query_col="qid")),
}


@contextlib.contextmanager
def _spark_plans_logged(engine):
    """The records pyspark's SQLQueryContextLogger logs meanwhile (a failed analysis's whole plan,
    some kilobytes each) on Spark; nothing elsewhere."""
    logged: list = []
    if engine.dialect != "spark":
        yield logged
        return
    from pyspark.logger import PySparkLogger

    handler = logging.Handler()
    handler.emit = logged.append
    logger = PySparkLogger.getLogger("SQLQueryContextLogger")
    logger.addHandler(handler)
    try:
        yield logged
    finally:
        logger.removeHandler(handler)


def test_wrong_names_on_engine_get_duckdbs_message_and_leave_the_connection_usable(engine):
    """A wrong column name (a query, item, label or segment column, of the ranking or of the
    judgments) gets DuckDB's message word for word, the existing columns named as the user
    writes them (Snowflake stores them upper-cased); a missing table an InputError naming it as
    given, the engine's error as its cause. Never a raw driver exception, no Spark plan logged,
    and every valid call on the same connection then succeeds: on Postgres and Redshift the
    connection is outside autocommit, where a failed statement aborts the transaction. Before:
    psycopg's UndefinedColumn (and the next call refused: the transaction stayed aborted),
    Spark's AnalysisException naming the package's own columns (``segment_1``) after logging
    its plan."""
    fold = dialects.get(engine.dialect).fold
    names = ["query_id", "item_id", "score", "label"]
    stored = [identifiers.folded(c, fold) for c in names]
    run, run_table = _table(engine, "edge_runs", False)
    ranked, ranked_table = _table(engine, "edge_ranked", False)
    qrels, qrels_table = _table(engine, "edge_qrels", False)
    engine.load(run_table, stored, EDGE_RUN)
    engine.load(ranked_table, stored[:3], [row[:3] for row in EDGE_RUN])
    engine.load(qrels_table, [stored[0], stored[1], stored[3]], EDGE_JUDGMENTS)
    frames = {run: pd.DataFrame(EDGE_RUN, columns=names),
              ranked: pd.DataFrame([row[:3] for row in EDGE_RUN], columns=names[:3]),
              qrels: pd.DataFrame(EDGE_JUDGMENTS, columns=[names[0], names[1], names[3]])}
    want = ndcg_sql.evaluate(frames[run], k=[2]).summary_records()[0]["ndcg"]
    transactional = hasattr(engine, "transaction")
    connection = engine.transaction() if transactional else engine.connection()

    def still_usable():
        got = ndcg_sql.evaluate(run, con=connection, dialect=engine.dialect, k=[2]).summary_records()[0]["ndcg"]
        assert got == pytest.approx(want, rel=TOLERANCE)

    try:
        with _spark_plans_logged(engine) as logged:
            for case, (judged, options) in WRONG_NAMES.items():
                data, judgments = (ranked, qrels) if judged else (run, None)
                with pytest.raises(ndcg_sql.InputError) as local:
                    ndcg_sql.evaluate(frames[data], judgments=frames[judgments] if judged else None, **options)
                with pytest.raises(ndcg_sql.InputError) as error:
                    ndcg_sql.evaluate(data, judgments=judgments, con=connection, dialect=engine.dialect, **options)
                assert str(error.value) == str(local.value), case
                if transactional:
                    still_usable()
            for judged in (False, True):
                data, judgments = (ranked, "edge_nowhere") if judged else ("edge_nowhere", None)
                with pytest.raises(ndcg_sql.InputError) as error:
                    ndcg_sql.evaluate(data, judgments=judgments, con=connection, dialect=engine.dialect)
                where = "judgments" if judged else "ranking"
                assert str(error.value).startswith(
                    f"the {where} 'edge_nowhere' is not a table or view {engine.dialect} can read: "), str(error.value)
                assert error.value.__cause__ is not None and not isinstance(error.value.__cause__, ndcg_sql.InputError)
                if transactional:
                    still_usable()
        assert logged == []
        still_usable()
    finally:
        if transactional:
            connection.close()
