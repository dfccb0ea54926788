"""The dbt macros speak every engine's SQL: rendered for an adapter type, executed on that engine.

For each engine of tests/engines.py (BigQuery as ZetaSQL, Snowflake as fakesnow,
Spark, Postgres, Redshift as Postgres with the C collation), the package's macros
are rendered by the dbt stand-in (tests/dbt_standin.py) with that adapter type -
so ``adapter.dispatch`` picks the engine's variants generated from
ndcg_sql/vocabulary/dialects.py - and the SQL runs on the engine. The statement is the one the
Python side emits for the engine (``to_sql(dialect=...)``, transpiled by sqlglot; equal
syntax trees, as tests/test_one_source.py checks for more cases), and its numbers on the
engine equal the Python runner's in DuckDB (to 1e-12). Running to_sql's statement on the
engine as well would prove nothing more (the same tree) and doubled the time on Spark.
dbt itself runs the integration project on dbt-duckdb, dbt-postgres, dbt-spark and
dbt-snowflake (tests/test_dbt.py, tests/test_dbt_adapters.py).
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import dbt_standin
import ndcg_sql
from conftest import ROOT
from ndcg_sql.vocabulary import dialects, identifiers
from test_one_source import canonical
from test_warehouses import INT_RUN, TEXT_JUDGMENTS, TEXT_RUN, engine  # noqa: F401 (engine is a fixture)

TOLERANCE = 1e-12
FILES = dbt_standin.package_files(ROOT / "dbt_macros")

#: per-query cases: (options of ndcg_per_query and to_sql, integer ids?, judgments?)
PER_QUERY = {
    "average-exponential": (dict(k=[1, 3, 5, 10, None]), False, False),
    "item-asc-byte-order-linear-skip": (dict(k=[1, 2, 4, None], ties="item-asc", gain="linear", no_relevant="skip"), False, False),
    "item-desc-mapping-one": (dict(k=[2, 3, 20], ties="item-desc", gain={0: 0, 1: 1, 2: 2.5, 3: 7}, no_relevant="one"), False, False),
    "integer-ids-item-desc": (dict(k=[1, 3, 10, None], ties="item-desc", gain="linear", item_type="number"), True, False),
    "judgments-trec-missing-zero": (dict(k=[1, 5, 10, None], ties="item-desc", gain="linear", missing_queries="zero"), False, True),
    "judgments-average-skip": (dict(k=[3, 10], no_relevant="skip"), False, True),
}
MEASURES = ["nDCG@3", "P@2", "P(rel=2)@3", "R@4", "AP", "AP@2", "RR", "Success@1", "CG@2"]


def run_sql(engine, sql: str) -> tuple[list[str], list[tuple]]:
    connection = engine.connection()
    if hasattr(connection, "cursor"):  # DB-API
        cursor = connection.cursor()
        cursor.execute(sql)
        rows = cursor.fetchall()
        return [d[0] for d in cursor.description], rows
    frame = connection.sql(sql)  # a SparkSession
    return list(frame.columns), [tuple(row) for row in frame.collect()]


@pytest.fixture(scope="module")
def tables(engine):  # noqa: F811
    """The run, judgments and integer-id tables on the engine: {role: name as the engine's SQL}."""
    fold = dialects.get(engine.dialect).fold
    columns = [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score", "label")]
    names = {}
    for role, rows, cols in (
        ("run", TEXT_RUN, columns),
        ("qrels", TEXT_JUDGMENTS, [columns[0], columns[1], columns[3]]),
        ("ints", INT_RUN, columns),
    ):
        table = identifiers.table([f"dbt_{role}"], fold)
        engine.load(table, cols, rows)
        names[role] = (f"dbt_{role}", table.sql(dialect=dialects.get(engine.dialect).sqlglot))
    return names


def macros_for(engine):  # noqa: F811
    return dbt_standin.load(FILES, adapter=engine.dialect)


def keyed(columns, rows, key_count):
    lowered = [c.lower() for c in columns]
    return {tuple(row[:key_count]): dict(zip(lowered, row)) for row in rows}


def assert_same_statement(dbt_sql: str, emitted: str, engine):  # noqa: F811
    """The dbt macro rendered the statement to_sql emits for the engine (equal syntax trees)."""
    dialect = dialects.get(engine.dialect).name
    assert canonical(dbt_sql, dialect) == canonical(emitted, dialect)


def runner_rows(result, keys) -> dict:
    """The Python runner's per-query records, keyed as :func:`keyed` keys the engine's rows."""
    return {tuple(record[key] for key in keys): record for record in result.per_query_records()}


def assert_same(got: dict, want: dict, fields):
    assert set(got) == set(want)
    for key, row in want.items():
        for field in fields:
            a, b = got[key][field], row[field]
            assert (a is None) == (b is None), (key, field, a, b)
            if a is not None:
                assert math.isclose(float(a), float(b), rel_tol=TOLERANCE, abs_tol=TOLERANCE), (key, field, a, b)


@pytest.mark.parametrize("case", sorted(PER_QUERY))
def test_dbt_per_query_sql_runs_on_engine_as_to_sql(engine, tables, case):  # noqa: F811
    options, integer_ids, judged = PER_QUERY[case]
    run_name, run_relation = tables["ints" if integer_ids else "run"]
    qrels_name, qrels_relation = tables["qrels"]
    macro_options = dict(options)
    emit_options = {key: value for key, value in options.items()}
    dbt_sql = macros_for(engine).ndcg_per_query(
        run_relation, judgments=qrels_relation if judged else None, rank_col="score" if integer_ids else None,
        **macro_options,
    )
    emitted = ndcg_sql.to_sql(
        run_name, judgments_table=qrels_name if judged else None, dialect=engine.dialect,
        rank_col="score" if integer_ids else None, **emit_options,
    )
    assert_same_statement(dbt_sql, emitted, engine)
    run = pd.DataFrame([r[:3] if judged else r for r in (INT_RUN if integer_ids else TEXT_RUN)],
                       columns=["query_id", "item_id", "score"] + ([] if judged else ["label"]))
    qrels = pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"]) if judged else None
    runner_options = {key: value for key, value in options.items() if key != "item_type"}
    if integer_ids:
        runner_options["rank_col"] = "score"
    result = ndcg_sql.evaluate(run, judgments=qrels, **runner_options)
    got = keyed(*run_sql(engine, dbt_sql), 2)
    want = runner_rows(result, ("query_id", "k"))
    assert len(want) > 0
    assert_same(got, want, ("cg", "dcg", "idcg", "ndcg"))

    # and the summary macro over the dbt per-query rows gives the Python runner's means
    k = options["k"]
    summary_sql = macros_for(engine).ndcg_summary(f"({dbt_sql}) AS per_query_rows", k=k)
    columns, rows = run_sql(engine, summary_sql)
    summary = {row["k"]: row for row in (dict(zip([c.lower() for c in columns], r)) for r in rows)}
    for record in result.summary_records():
        row = summary[record["k"]]
        assert (row["queries"], row["no_relevant"]) == (record["queries"], record["no_relevant"])
        assert (row["ndcg"] is None) == (record["ndcg"] is None)
        if record["ndcg"] is not None:
            assert math.isclose(float(row["ndcg"]), record["ndcg"], rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def test_dbt_measures_sql_runs_on_engine_as_to_sql(engine, tables):  # noqa: F811
    run_name, run_relation = tables["run"]
    qrels_name, qrels_relation = tables["qrels"]
    options = dict(ties="item-desc", gain="linear", missing_queries="zero")
    dbt_sql = macros_for(engine).ndcg_measures(run_relation, MEASURES, judgments=qrels_relation, **options)
    emitted = ndcg_sql.to_sql(run_name, judgments_table=qrels_name, dialect=engine.dialect, measures=MEASURES, **options)
    assert_same_statement(dbt_sql, emitted, engine)
    run = pd.DataFrame([r[:3] for r in TEXT_RUN], columns=["query_id", "item_id", "score"])
    qrels = pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"])
    result = ndcg_sql.evaluate(run, judgments=qrels, measures=MEASURES, **options)
    got = keyed(*run_sql(engine, dbt_sql), 2)
    want = runner_rows(result, ("query_id", "measure"))
    assert len(want) == 5 * len(MEASURES)  # 4 judged queries in the run + 1 judged query missing from it
    assert_same(got, want, ("value",))

    # the measures' summary (mean, standard error, interval) over those rows, as the Python runner's
    columns, rows = run_sql(engine, macros_for(engine).ndcg_measures_summary(f"({dbt_sql}) AS measure_rows", MEASURES))
    summary = {row["measure"]: row for row in (dict(zip([c.lower() for c in columns], r)) for r in rows)}
    records = result.summary_records()
    assert [r["measure"] for r in records] == list(summary)
    for record in records:
        row = summary[record["measure"]]
        assert row["queries"] == record["queries"]
        for field in ("mean", "stderr", "ci_low", "ci_high"):
            assert math.isclose(float(row[field]), record[field], rel_tol=TOLERANCE, abs_tol=TOLERANCE), (record, row)
        assert row["ci_method"] == record["ci_method"], (record, row)


@pytest.mark.parametrize("convention", ["trec_eval", "sklearn"])
def test_dbt_conventions_on_engine_match_the_runner(engine, tables, convention):  # noqa: F811
    """A peer convention in the dbt macros gives the Python runner's numbers (float32 scores where
    the engine has a 4-byte float; elsewhere a compiler error, never a silently different number)."""
    run_name, run_relation = tables["run"]
    macros = macros_for(engine)
    run = pd.DataFrame(TEXT_RUN, columns=["query_id", "item_id", "score", "label"])
    if convention == "trec_eval" and not dialects.get(engine.dialect).float32:
        with pytest.raises(dbt_standin.CompilerError, match="float32"):
            macros.ndcg_measures(run_relation, ["nDCG@3", "AP"], convention=convention)
        return
    names = ["nDCG@3", "nDCG", "P@2" if convention == "trec_eval" else "DCG@2"]  # measures of the peer
    dbt_sql = macros.ndcg_measures(run_relation, names, convention=convention)
    got = keyed(*run_sql(engine, dbt_sql), 2)
    result = ndcg_sql.evaluate(run, convention=convention, measures=names)
    want = {(r["query_id"], r["measure"]): r for r in result.per_query_records()}
    assert_same(got, want, ("value",))


def test_dbt_input_check_runs_on_engine(engine):  # noqa: F811
    """ndcg_valid_input's SQL on the engine returns the offending rows (the portable checks)."""
    fold = dialects.get(engine.dialect).fold
    rows = [("q1", "a", 1.0, 1), ("q1", "a", 0.5, 2), ("q2", "b", 1.0, None), ("q3", "c", 2.0, -1), ("q4", "d", None, 1)]
    table = identifiers.table(["dbt_bad_input"], fold)
    engine.load(table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score", "label")], rows)
    macros = macros_for(engine)
    columns, found = run_sql(engine, macros.test_ndcg_valid_input(table.sql(dialect=dialects.get(engine.dialect).sqlglot)))
    problems = {(row[1], row[2]) for row in found}
    assert problems == {
        ("duplicate (query, item) rows in the ranking", "q1"),
        ("NULL labels", "q2"),
        ("negative labels", "q3"),
        ("NULL scores", "q4"),
    }
    clean = identifiers.table(["dbt_run"], fold).sql(dialect=dialects.get(engine.dialect).sqlglot)
    assert run_sql(engine, macros.test_ndcg_valid_input(clean))[1] == []


def test_dbt_segments_and_gate_run_on_engine(engine):  # noqa: F811
    """segment_cols (each arm evaluated on its own rows) and the generic test ndcg_at_least, in the
    engine's SQL: per-arm values equal the Python runner's on that arm; the gate returns no row at
    a threshold below every arm's mean and one row per arm above it."""
    fold = dialects.get(engine.dialect).fold
    arms = [("a", *row) for row in TEXT_RUN] + [("b", q, item, -score, label % 2) for q, item, score, label in TEXT_RUN]
    table = identifiers.table(["dbt_arms"], fold)
    engine.load(table, [identifiers.folded(c, fold) for c in ("arm", "query_id", "item_id", "score", "label")], arms)
    relation = table.sql(dialect=dialects.get(engine.dialect).sqlglot)
    macros = macros_for(engine)
    options = dict(k=[1, 3, None], ties="item-asc", gain="linear")
    got = keyed(*run_sql(engine, macros.ndcg_per_query(relation, segment_cols=["arm"], **options)), 3)
    means = {}
    for arm in ("a", "b"):
        frame = pd.DataFrame([row[1:] for row in arms if row[0] == arm], columns=["query_id", "item_id", "score", "label"])
        result = ndcg_sql.evaluate(frame, **options)
        want = {(arm, r["query_id"], r["k"]): r for r in result.per_query_records()}
        assert_same({key: got[key] for key in want}, want, ("cg", "dcg", "idcg", "ndcg"))
        means[arm] = next(r["ndcg"] for r in result.summary_records() if r["k"] == 3)
    assert len(got) == 2 * 5 * 3
    ranking = dict(options, k=None)
    passing = macros.test_ndcg_at_least(relation, min(means.values()) - 1e-9, 3, "query_id", ["arm"], ranking)
    assert run_sql(engine, passing)[1] == []
    failing = macros.test_ndcg_at_least(relation, max(means.values()) + 1e-9, 3, "query_id", ["arm"], ranking)
    assert sorted(row[0] for row in run_sql(engine, failing)[1]) == ["a", "b"]
    # a per-query model without rows for the cutoff under test fails the gate (one row, NULL mean)
    per_query_at_1 = macros.ndcg_per_query(relation, segment_cols=["arm"], **dict(options, k=[1]))
    missing = macros.test_ndcg_at_least(f"({per_query_at_1}) AS per_query_at_1", 0.0, 3, "query_id", [], None)
    rows = run_sql(engine, missing)[1]
    assert len(rows) == 1 and rows[0][1] is None


def test_dbt_measures_per_segment_run_on_engine_as_to_sql(engine):  # noqa: F811
    """ndcg_measures and ndcg_measures_summary with segment_cols, in the engine's SQL: the rows of
    the SQL the package emits for the engine (to_sql(measures=..., segments=...)), with the Python
    runner's rows and summary per (arm, measure)."""
    fold = dialects.get(engine.dialect).fold
    arms = [("a", *row) for row in TEXT_RUN] + [("b", q, item, -score, label % 2) for q, item, score, label in TEXT_RUN]
    table = identifiers.table(["dbt_measure_arms"], fold)
    engine.load(table, [identifiers.folded(c, fold) for c in ("arm", "query_id", "item_id", "score", "label")], arms)
    relation = table.sql(dialect=dialects.get(engine.dialect).sqlglot)
    macros = macros_for(engine)
    options = dict(ties="item-asc", gain="linear")
    dbt_sql = macros.ndcg_measures(relation, MEASURES, segment_cols=["arm"], **options)
    emitted = ndcg_sql.to_sql("dbt_measure_arms", dialect=engine.dialect, measures=MEASURES, segments=["arm"], **options)
    assert_same_statement(dbt_sql, emitted, engine)
    frame = pd.DataFrame(arms, columns=["arm", "query_id", "item_id", "score", "label"])
    result = ndcg_sql.evaluate(frame, measures=MEASURES, segments="arm", **options)
    got = keyed(*run_sql(engine, dbt_sql), 3)
    want = runner_rows(result, ("arm", "query_id", "measure"))
    assert len(want) == 2 * 5 * len(MEASURES)
    assert_same(got, want, ("value",))

    summary_sql = macros.ndcg_measures_summary(f"({dbt_sql}) AS measure_rows", MEASURES, segment_cols=["arm"])
    columns, rows = run_sql(engine, summary_sql)
    summary = keyed(columns, rows, 2)
    records = result.summary_records()
    assert sorted(summary) == sorted((r["arm"], r["measure"]) for r in records)
    for record in records:
        row = summary[(record["arm"], record["measure"])]
        assert row["queries"] == record["queries"]
        for field in ("mean", "stderr", "ci_low", "ci_high"):
            assert math.isclose(float(row[field]), record[field], rel_tol=TOLERANCE, abs_tol=TOLERANCE), (record, row)
        assert row["ci_method"] == record["ci_method"], (record, row)
