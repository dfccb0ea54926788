"""One scan of the input per evaluation on a warehouse (issue 14): evaluate(con=...) sends one
statement for the input checks, the summary, the query counts and, when asked, the per-query
rows, naming each input table once; a failed check still gets DuckDB's
message. Here the warehouse is DuckDB behind a DB-API connection (dialect "duckdb": the
runner treats it as any warehouse), so the counts and the numbers are checked without the
engines; tests/test_measures_warehouses.py counts on every engine too."""

from __future__ import annotations

import math

import duckdb
import pandas as pd
import pytest
import sqlglot

import ndcg_sql
from benchmarks.counting import CountedConnection, table_references
from ndcg_sql.building import plan, templates, validation
from ndcg_sql.running import runner
from ndcg_sql.vocabulary import dialects
from ndcg_sql.api import sql_plan
from ndcg_sql.building.sql_text import transpile
from test_portable_sql import lint

#: slow (half a minute or more of a worker): statement counts over many option sets
pytestmark = pytest.mark.slow

RUN = [
    ("A", "q1", "a", 2.0, 3), ("A", "q1", "b", 2.0, 0), ("A", "q1", "c", 1.0, 1), ("A", "q2", "a", 1.0, 0),
    ("A", "q2", "d", 0.5, 2), ("B", "q1", "f", 0.1, 3), ("B", "q1", "g", 0.9, 0), ("B", "q3", "e", 1.0, 1),
]
JUDGMENTS = [("q1", "a", 3), ("q1", "c", 1), ("q1", "z", 2), ("q2", "d", 2), ("q9", "a", 1)]

#: name -> (judged, options of evaluate, (statements, references to the input tables)) on an
#: engine whose SQL does not depend on the item ids' type (no item probe: DuckDB, BigQuery,
#: Spark, Redshift). Before issue 14 (same cases): default 2 / 4, per_query 3 / 6,
#: judgments 3 / 9 and 4 / 12, segments 2 / 6 and 3 / 9, measures 3 / 6 and 4 / 8.
#: With judgments, one more statement names both tables once: the probe of the judgments'
#: columns and the id columns' types (ndcg_sql/running/probe.py), which reads no row (WHERE 1 = 0).
#: per_query=True took one more statement (and scan) until the per-query rows joined the summary's
#: statement (plan.with_per_query_rows).
CASES = {
    "default": (False, dict(), (1, 1)),
    "default, per_query": (False, dict(per_query=True), (1, 1)),
    "judgments": (True, dict(), (2, 4)),
    "judgments, per_query": (True, dict(per_query=True), (2, 4)),
    "segments": (False, dict(segments="arm", k=[1, 3]), (1, 1)),
    "segments, per_query": (False, dict(segments="arm", k=[1, 3], per_query=True), (1, 1)),
    "measures": (False, dict(measures=["nDCG@3", "AP"], ties="item-asc"), (1, 1)),
    "measures, per_query": (False, dict(measures=["nDCG@3", "AP"], ties="item-asc", per_query=True), (1, 1)),
    "bootstrap, per_query": (False, dict(k=[3], bootstrap=20, seed=1, per_query=True), (1, 1)),
    "measures, segments, bootstrap, per_query": (False, dict(measures=["nDCG@3", "AP"], ties="item-asc", segments="arm",
                                                             bootstrap=20, seed=1, per_query=True), (1, 1)),
    "bootstrap": (False, dict(k=[3], bootstrap=20, seed=1), (1, 1)),
    "no checks": (False, dict(checks="trusted"), (1, 1)),
    # the probe (no row read) also tells whether the judgments carry the segment column
    "segments, judgments per query": (True, dict(segments="arm", k=[2]), (2, 4)),
}


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    frame = pd.DataFrame(RUN, columns=["arm", "query_id", "item_id", "score", "label"])
    con.register("frame", frame)
    con.execute("CREATE TABLE ranking AS SELECT * FROM frame")
    con.execute("CREATE TABLE run AS SELECT arm, query_id, item_id, score FROM frame")
    con.register("qrels_frame", pd.DataFrame(JUDGMENTS, columns=["query_id", "item_id", "label"]))
    con.execute("CREATE TABLE qrels AS SELECT * FROM qrels_frame")
    return con


def _same(got, want):
    if isinstance(got, float) or isinstance(want, float):
        return (got is None) == (want is None) and (got is None or math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12))
    return got == want


def _same_records(got: list[dict], want: list[dict]):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert set(a) == set(b) and all(_same(a[key], b[key]) for key in b), (a, b)


@pytest.mark.parametrize("case", list(CASES))
def test_one_statement_names_each_input_once_and_gives_duckdbs_numbers(con, case):
    judged, options, expected = CASES[case]
    counted = CountedConnection(con, "duckdb", ["ranking", "run", "qrels"])
    table = "run" if judged else "ranking"
    judgments = "qrels" if judged else None
    got = ndcg_sql.evaluate(table, judgments=judgments, con=counted, dialect="duckdb", **options)
    assert counted.counts == expected, counted.texts
    local = {key: value for key, value in options.items() if key not in ("per_query", "checks")}
    want = ndcg_sql.evaluate(table, judgments=judgments, con=con, **local)
    _same_records(got.summary_records(), want.summary_records())
    assert got.coverage == want.coverage
    if options.get("per_query"):
        _same_records(got.per_query_records(), want.per_query_records())


#: compare's statements and references on a DB-API connection (DuckDB's as a warehouse): each run's
#: one, then one per pair naming both runs' tables (Tukey's: one more naming every run's).
#: Before issue 32 item 4: 2 / 2, and every per-query row sent back to a local DuckDB.
COMPARE_CASES = {"two runs, segments": (2, (3, 4)), "three runs (pairs and Tukey)": (3, (3 + 3 + 1, 3 + 6 + 3))}


@pytest.mark.parametrize("case", list(COMPARE_CASES))
def test_compare_on_a_warehouse_computes_there_and_sends_back_summaries(con, case):
    """compare and compare_runs on a warehouse connection: the paired statistics computed by its
    SQL, each statement sending back only summary rows (a pair: one row per (segment, measure);
    Tukey's: one per (segment, measure, pair)), with the local numbers."""
    runs, expected = COMPARE_CASES[case]
    names = ["ranking", "ranking_b", "ranking_c"][:runs]
    con.execute("CREATE OR REPLACE TABLE ranking_b AS SELECT arm, query_id, item_id, -score AS score, label FROM ranking")
    con.execute("CREATE OR REPLACE TABLE ranking_c AS SELECT arm, query_id, item_id, score * score AS score, label "
                "FROM ranking WHERE query_id <> 'q2'")
    counted = CountedConnection(con, "duckdb", names)
    options = dict(segments="arm", ties="item-asc", permutations=16, seed=3)
    measures = ["nDCG@3", "RR"]
    if runs == 2:
        got = ndcg_sql.compare(*names, measures, con=counted, dialect="duckdb", **options)
        want = ndcg_sql.compare(*names, measures, con=con, **options)
        assert counted.fetched[-1:] == [2 * len(measures)], counted.fetched  # arms A and B x 2 measures
    else:
        got = ndcg_sql.compare_runs(names, measures, con=counted, dialect="duckdb", **options)
        want = ndcg_sql.compare_runs(names, measures, con=con, **options)
        assert counted.fetched[-4:] == [4, 4, 4, 12], counted.fetched  # 3 pairs, then Tukey's x 3 pairs
    assert counted.counts == expected, counted.texts
    _same_records(got.summary_records(), want.summary_records())
    assert got.per_query_records() == [] and want.per_query_records()  # the differences stay in the warehouse
    got.close()
    want.close()


def test_the_comparison_plot_of_a_warehouse_comparison_says_why_not(con, tmp_path):
    """A comparison computed on a warehouse kept its per-query differences there: its plot is
    refused with the reason, not drawn with empty boxes."""
    from ndcg_sql.plot import plot_comparison

    con.execute("CREATE OR REPLACE TABLE ranking_b AS SELECT arm, query_id, item_id, -score AS score, label FROM ranking")
    counted = CountedConnection(con, "duckdb", ["ranking", "ranking_b"])
    comparison = ndcg_sql.compare_runs(["ranking", "ranking_b"], ["nDCG@3"], con=counted, dialect="duckdb",
                                       permutations=16)
    with pytest.raises(ndcg_sql.OptionError, match="computed on a warehouse"):
        plot_comparison(comparison, tmp_path / "plot.png")
    assert not (tmp_path / "plot.png").exists()


BAD = {
    # a cast of a word fails the statement: the checks then run apart and word the message
    "words": (["query_id", "item_id", "score", "label"],
              [("q1", "a", "1.5", "1"), ("q1", "b", "NaN", "2"), ("q2", "a", "2", "Infinity"),
               ("q3", "a", "0.5", "high"), ("q4", "a", "x", "0")], dict(gain="linear")),
    # the statement runs; its counts show the failed checks
    "duplicates and NULL labels": (["query_id", "item_id", "score", "label"],
                                   [("q1", "a", 1.0, 1), ("q1", "a", 0.5, 2), ("q2", "b", 1.0, None)], dict()),
    "labels missing from a mapping": (["query_id", "item_id", "score", "label"],
                                      [("q1", "a", 1.0, 1), ("q1", "b", 0.5, 2)], dict(gain={0: 0, 1: 1})),
    "label overflowing 2^label": (["query_id", "item_id", "score", "label"], [("q1", "a", 1.0, 5000)], dict()),
    "NULL query ids with segments": (["arm", "query_id", "item_id", "score", "label"],
                                     [("A", None, "a", 1.0, 1), ("A", "q", "a", 1.0, 1)], dict(segments="arm")),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_gets_duckdbs_message(con, case):
    columns, rows, options = BAD[case]
    con.register("bad_frame", pd.DataFrame(rows, columns=columns))
    con.execute("CREATE OR REPLACE TABLE bad_input AS SELECT * FROM bad_frame")
    with pytest.raises(ndcg_sql.InputError) as warehouse:
        ndcg_sql.evaluate("bad_input", con=CountedConnection(con, "duckdb", ["bad_input"]), dialect="duckdb", **options)
    with pytest.raises(ndcg_sql.InputError) as local:
        ndcg_sql.evaluate(con.table("bad_input"), **options)
    assert str(warehouse.value) == str(local.value)


@pytest.mark.parametrize("segments", [None, "arm"])
def test_empty_input_is_refused(con, segments):
    """No row (with segments the summary then has no row to carry the counts: they come apart)."""
    con.execute("CREATE OR REPLACE TABLE empty_input AS SELECT * FROM ranking WHERE score > 100")
    with pytest.raises(ndcg_sql.InputError, match="the ranking has no rows"):
        ndcg_sql.evaluate("empty_input", con=CountedConnection(con, "duckdb", []), dialect="duckdb",
                          segments=segments)


def test_a_statement_failing_on_good_input_raises_its_own_error(con):
    """The columns are read and the checks run when the statement fails; on good input the engine's
    error is wrapped in an InputError with its first line and the table (never the raw engine
    exception), the engine's error as its cause."""
    counted = CountedConnection(con, "duckdb", ["ranking"])
    failing = counted.cursor

    def cursor():
        inner = failing()
        if counted.statements == 0:
            class Refusing:
                def execute(self, sql):
                    counted.count(sql)
                    raise RuntimeError("the engine refused")

                def close(self):
                    pass
            return Refusing()
        return inner

    counted.cursor = cursor
    with pytest.raises(ndcg_sql.InputError, match='duckdb could not compute on "ranking" .*: the engine refused') as error:
        ndcg_sql.evaluate("ranking", con=counted, dialect="duckdb")
    assert isinstance(error.value.__cause__, RuntimeError)
    # the statement, the ranking's columns (all there: ndcg_sql/running/probe.py), the checks' counts (all passed)
    assert counted.statements == 3


#: a wrong column name: (judged, options, statements sent). Without judgments the metric's statement
#: fails, then the ranking's columns are read (WHERE 1 = 0); with them the probe reads every column
#: of the judgments (refused before the metric's statement), or fails on the ranking's and each
#: table's columns are then read.
WRONG_NAMES = {
    "label column": (False, dict(label_col="rel"), 2),
    "segment column": (False, dict(segments="device"), 2),
    "the judgments' label column": (True, dict(label_col="rel"), 1),
    "segment column, with judgments": (True, dict(segments="device"), 3),
}


@pytest.mark.parametrize("case", list(WRONG_NAMES))
def test_a_wrong_column_name_gets_duckdbs_message(con, case):
    """A column the options name that the table lacks: DuckDB's message word for word (the
    columns the table has), from statements that read no row. Before: DuckDB's own BinderException."""
    judged, options, sent = WRONG_NAMES[case]
    table, judgments = ("run", "qrels") if judged else ("ranking", None)
    counted = CountedConnection(con, "duckdb", ["ranking", "run", "qrels"])
    with pytest.raises(ndcg_sql.InputError) as warehouse:
        ndcg_sql.evaluate(table, judgments=judgments, con=counted, dialect="duckdb", **options)
    with pytest.raises(ndcg_sql.InputError) as local:
        ndcg_sql.evaluate(table, judgments=judgments, con=con, **options)
    assert str(warehouse.value) == str(local.value)
    assert counted.statements == sent, counted.texts


OPTIONS = [
    dict(),
    dict(judgments_table="qrels", ties="item-desc", missing_queries="zero", measures=["nDCG@5", "AP"]),
    dict(segments=["arm", "day"], judgments_table="qrels", segmented_judgments=True, ties="input-order",
         row_col="rn", bootstrap=10),
    dict(segments=["arm"], judgments_table="qrels", k=[1, None], label="clicks + 2 * bought", intervals=True),
    dict(rank_col="position", gain={0: 0, 1: 1, 2: 3}, negative_labels="zero", segments="arm"),
]


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
@pytest.mark.parametrize("number", range(len(OPTIONS)))
def test_the_warehouse_statement_is_portable_and_names_each_table_once(dialect, number):
    """The statement a warehouse runs (checks, summary, query counts) passes the portable-subset
    lint, transpiles, and names the ranking and the judgments once each."""
    options = dict(OPTIONS[number])
    resolved, target = sql_plan("db.sch.runs", dialect=dialect, **options)
    resolved = plan.reading_input_once(resolved)
    names = {"query_col": "query_id", "item_col": "item_id", "label_col": "label", "row_col": options.get("row_col")}
    columns = validation.Columns.of(names, resolved.order_col, resolved.options.judgments, resolved.label)
    checks = validation.checks_for(resolved.options, columns.roles(), dialect=target.name,
                                   label_expression=resolved.label is not None)
    statement, count_names, _, _ = runner.warehouse_statement(resolved, checks)
    metric = "per_query.sql.j2" if resolved.measures is None else "measure_rows.sql.j2"
    pieces = [templates.render(metric, **resolved.context), validation.counts_sql(resolved.context, checks)]
    if resolved.options.judgments:
        pieces.append(plan.coverage_sql(resolved))
    for piece in pieces:  # its parts' DuckDB source (sqlglot writing DuckDB drops the default NULLS LAST)
        assert not lint(piece), piece
    text = transpile(statement, target)
    assert table_references(text, dialect, ["runs"]) == 1
    assert table_references(text, dialect, ["qrels"]) == (1 if "judgments_table" in options else 0)
    assert len(sqlglot.parse(text, read=target.sqlglot)) == 1
    assert count_names[0] == "run_rows_count" and count_names[-1] == (
        "missing_from_run" if "judgments_table" in options else count_names[-1])
    # with the per-query rows (per_query=True): still one statement naming each table once
    combined, count_names_too, summary_names, per_query_names = runner.warehouse_statement(resolved, checks, True)
    per_query = transpile(combined, target)
    assert len(sqlglot.parse(per_query, read=target.sqlglot)) == 1
    assert table_references(per_query, dialect, ["runs"]) == 1
    assert table_references(per_query, dialect, ["qrels"]) == (1 if "judgments_table" in options else 0)
    assert count_names_too == count_names and summary_names[:len(count_names)] == count_names
    shown = runner.output_names(per_query_names, resolved, target)  # as the user spells them
    assert shown[:len(resolved.segments) + 1] == [*resolved.segments, "query_id"]
