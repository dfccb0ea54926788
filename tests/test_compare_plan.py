"""A comparison is a plan too (ndcg_sql/building/plan.py: ``comparison_statistics``,
``comparison_tables``, ``Program``): every statement DuckDB runs for compare and compare_runs once
the runs are evaluated is one the plan holds, in order, run by the executor
(``DuckDB.run_program``); compare.py itself sends no SQL. The numbers are checked against scipy on
a hand-worked example."""

from __future__ import annotations

import ast
import inspect

import duckdb
import pandas as pd
import pytest
from scipy import stats

import ndcg_sql
from benchmarks.counting import CountedConnection
from ndcg_sql import compare as compare_module
from ndcg_sql.building import comparison_plan, plan
from ndcg_sql.running import executors

#: (query, item, label) and each run's scores: P@1 is the label (0/1) of each query's top item.
ITEMS = [("q1", "x", 1), ("q1", "y", 0), ("q2", "z", 0), ("q2", "w", 1),
         ("q3", "u", 1), ("q3", "v", 0), ("q4", "s", 0), ("q4", "r", 1)]
SCORES = {"A": [2, 1, 1, 2, 3, 1, 1, 2],  # top items x, w, u, r
          "B": [1, 2, 1, 2, 1, 3, 2, 1],  # top items y, w, v, s
          "C": [2, 1, 2, 1, 1, 3, 1, 2]}  # top items x, z, v, r
#: P@1 per query (q1..q4), read off the top items above by hand.
P_AT_1 = {"A": [1, 1, 1, 1], "B": [0, 1, 0, 0], "C": [1, 0, 0, 1]}


def run(name: str) -> pd.DataFrame:
    return pd.DataFrame({"query_id": [q for q, _, _ in ITEMS], "item_id": [i for _, i, _ in ITEMS],
                         "score": [float(s) for s in SCORES[name]], "label": [label for _, _, label in ITEMS]})


def watch_run_program(monkeypatch, executor: type) -> tuple[list, list]:
    """Record each program ``executor`` runs: (the programs, a list that is non-empty while one runs)."""
    programs, running = [], []
    run_program = executor.run_program

    def watched(self, program):
        programs.append(program)
        running.append(True)
        try:
            return run_program(self, program)
        finally:
            running.pop()

    monkeypatch.setattr(executor, "run_program", watched)
    return programs, running


def watched_programs(monkeypatch) -> tuple[list, list]:
    """Record each program the DuckDB executor runs and every statement it sends while running one
    (its statement entry points: fetch, store, fill)."""
    ran: list = []
    programs, running = watch_run_program(monkeypatch, executors.DuckDB)

    def noting(name, texts):
        method = getattr(executors.DuckDB, name)

        def call(self, argument):
            if running:  # the runs' evaluations are test_plan.py's
                ran.extend(texts(argument))
            return method(self, argument)
        monkeypatch.setattr(executors.DuckDB, name, call)

    noting("fetch", lambda sql: [sql])
    noting("store", lambda step: [step.sql])
    noting("fill", lambda rows: [rows.create, *([rows.insert] if rows.insert else [])])
    return programs, ran


def held(programs) -> list[str]:
    return [statement for program in programs for statement in program.statements()]


def test_every_statement_duckdb_runs_for_compare_is_in_its_plan(monkeypatch):
    programs, ran = watched_programs(monkeypatch)
    with ndcg_sql.compare(run("A"), run("C"), ["P@1"]) as comparison:
        [row] = comparison.summary_records()
        differences = [a - c for a, c in zip(P_AT_1["A"], P_AT_1["C"])]
        assert row["mean_difference"] == pytest.approx(sum(differences) / 4)
        want = stats.ttest_rel(P_AT_1["A"], P_AT_1["C"])
        assert row["t"] == pytest.approx(want.statistic) and row["t_p_value"] == pytest.approx(want.pvalue)
        assert sorted(r["difference"] for r in comparison.per_query_records()) == sorted(differences)
    # the statistics (views of the runs, differences, tests, unpaired counts), then the summary table
    assert len(programs) == 2
    kinds = [type(item).__name__ for item in programs[0].items]
    assert kinds == ["Step", "Step", "Step", "Fetch", "Fetch"]
    assert [type(item).__name__ for item in programs[1].items] == ["Rows"]
    assert ran == held(programs)


def test_every_statement_duckdb_runs_for_compare_runs_of_three_is_in_its_plan(monkeypatch):
    programs, ran = watched_programs(monkeypatch)
    with ndcg_sql.compare_runs({"A": run("A"), "B": run("B"), "C": run("C")}, ["P@1"], correction="none") as found:
        rows = {(r["run_a"], r["run_b"]): r for r in found.summary_records()}
        for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
            want = stats.ttest_rel(P_AT_1[a], P_AT_1[b])
            got = rows[(a, b)]
            assert got["mean_difference"] == pytest.approx(sum(P_AT_1[a]) / 4 - sum(P_AT_1[b]) / 4)
            assert got["t"] == pytest.approx(want.statistic) and got["t_p_value"] == pytest.approx(want.pvalue)
            assert got["tukey_p_value"] is not None
        assert {(r["run_a"], r["run_b"]) for r in found.per_query_records()} == {("A", "B"), ("A", "C"), ("B", "C")}
    statistics, tables = programs
    fetched = [item.name for item in statistics.items if isinstance(item, comparison_plan.Fetch)]
    assert fetched == [comparison_plan.TESTS, comparison_plan.UNPAIRED, comparison_plan.TUKEY]
    assert [type(item).__name__ for item in tables.items] == ["Rows", "Rows", "Step"]
    assert ran == held(programs)


def test_a_comparison_on_a_warehouse_stores_its_local_tables_by_a_plan(monkeypatch):
    """On a warehouse the statistics are computed there; what is stored locally (the empty table of
    the differences, the summary) is a program the DuckDB executor runs."""
    con = duckdb.connect()
    for name in ("A", "C"):
        con.register(f"{name}_frame", run(name))
        con.execute(f"CREATE TABLE run_{name.lower()} AS SELECT * FROM {name}_frame")
    counted = CountedConnection(con, "duckdb", ["run_a", "run_c"])
    programs, ran = watched_programs(monkeypatch)
    with ndcg_sql.compare("run_a", "run_c", ["P@1"], con=counted, dialect="duckdb") as comparison:
        [row] = comparison.summary_records()
        want = stats.ttest_rel(P_AT_1["A"], P_AT_1["C"])
        assert row["t"] == pytest.approx(want.statistic) and row["t_p_value"] == pytest.approx(want.pvalue)
        assert comparison.per_query_records() == []
    [tables] = programs
    assert [type(item).__name__ for item in tables.items] == ["Rows", "Rows"]
    assert ran == held(programs)


def test_every_statement_a_warehouse_runs_for_compare_runs_is_one_its_plan_folds(monkeypatch):
    """On a warehouse the paired statistics are a plan too (comparison_plan.warehouse_comparison): one statement
    a pair and one for Tukey's test, each the plan's fetch with the runs' CTEs it reads folded in;
    the numbers are the local ones."""
    con = duckdb.connect()
    for name in ("A", "B", "C"):
        con.register(f"{name}_frame", run(name))
        con.execute(f"CREATE TABLE run_{name.lower()} AS SELECT * FROM {name}_frame")
    counted = CountedConnection(con, "duckdb", ["run_a", "run_b", "run_c"])
    sent: list = []
    fetch = executors.Warehouse.fetch
    programs, running = watch_run_program(monkeypatch, executors.Warehouse)
    monkeypatch.setattr(executors.Warehouse, "fetch",
                        lambda self, sql: (sent.append(sql) if running else None) or fetch(self, sql))
    runs = {"A": "run_a", "B": "run_b", "C": "run_c"}
    with ndcg_sql.compare_runs(runs, ["P@1"], con=counted, dialect="duckdb", correction="none") as found:
        rows = {(r["run_a"], r["run_b"]): r for r in found.summary_records()}
        for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
            want = stats.ttest_rel(P_AT_1[a], P_AT_1[b])
            assert rows[(a, b)]["t"] == pytest.approx(want.statistic)
            assert rows[(a, b)]["t_p_value"] == pytest.approx(want.pvalue)
            assert rows[(a, b)]["tukey_p_value"] is not None
    [program] = programs
    fetches = [item for item in program.items if isinstance(item, comparison_plan.Fetch)]
    assert [f.name for f in fetches] == ["pair_0", "pair_1", "pair_2", comparison_plan.TUKEY]
    held = {item.name: list(item.ctes) for item in program.items if isinstance(item, comparison_plan.Shared)}
    assert [s.sql(dialect="duckdb") for s in sent] == [
        executors.Executor._folded(f, held).sql(dialect="duckdb") for f in fetches]
    # each pair's statement reads its two runs' tables only; Tukey's every run's
    assert [len([t for t in ("run_a", "run_b", "run_c") if f'"{t}"' in s.sql(dialect="duckdb")]) for s in sent] == [
        2, 2, 2, 3]


def test_building_a_comparison_plan_runs_nothing():
    """The builders take SQL text and types, no connection: a plan is data."""
    for builder in (comparison_plan.comparison_statistics, comparison_plan.comparison_tables, comparison_plan.no_differences, comparison_plan.rows_table,
                    comparison_plan.ids_alike, comparison_plan.warehouse_comparison):
        assert not {"con", "executor", "connection"} & set(inspect.signature(builder).parameters)
    program = comparison_plan.comparison_statistics(["SELECT 1"] * 3, [{"query_id": "VARCHAR"}] * 3, [(0, 1), (0, 2), (1, 2)],
                                         "query_id", [], 10, 0)
    assert [item.name for item in program.items if isinstance(item, comparison_plan.Fetch)] == [comparison_plan.TESTS, comparison_plan.UNPAIRED,
                                                                                      comparison_plan.TUKEY]
    assert program.kept == frozenset()  # several pairs: the result reads the named rows instead


def test_values_are_bound_never_pasted():
    odd = "x'); DROP TABLE t; --"
    rows = comparison_plan.rows_table('"t"', {"run_a": "VARCHAR", "n": "BIGINT"}, [{"run_a": odd, "n": 1}])
    assert odd not in rows.create + str(rows.insert) and rows.parameters == ((odd, 1),)
    columns = comparison_plan.rows_table('"t"', {"run_a": "VARCHAR", "n": "DOUBLE"}, [{"run_a": odd, "n": 1}], by_row=False)
    assert odd not in columns.create + str(columns.insert) and columns.parameters == ([odd], [1.0])


def test_compare_sends_no_sql_of_its_own():
    """compare.py runs no statement itself (every one goes through an executor) and holds no SQL
    that stores anything: that is the plan's and the templates'."""
    source = inspect.getsource(compare_module)
    tree = ast.parse(source)
    calls = [ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute)
             and node.func.attr in ("execute", "executemany", "sql", "table", "fetchall", "fetchone")]
    assert not [call for call in calls if not call.startswith("executor.")], calls
    texts = [node.value.upper() for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str)]
    for sql in ("CREATE TEMP", "INSERT INTO", "SELECT * REPLACE", "CREATE TABLE", "CREATE VIEW"):
        assert not [text for text in texts if sql in text], sql
