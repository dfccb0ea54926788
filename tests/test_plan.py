"""A plan is data (ndcg_sql/building/plan.py ``build``): building it runs no statement on any engine, and
the per-query statement it holds is built once and is what ``Result.sql`` gives and DuckDB runs."""

from __future__ import annotations

import math

import duckdb
import pandas as pd
import pytest

import ndcg_sql
from benchmarks.counting import CountedConnection
from ndcg_sql.building import plan
from ndcg_sql.running import executors

RUN = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q2"], "item_id": ["x", "y", "z", "w"],
                    "score": [2.0, 1.0, 1.0, 0.5], "label": [0, 1, 2, 0]})


def _warehouse():
    """DuckDB behind the DB-API warehouse path (every statement goes through ``Warehouse.fetch``)."""
    con = duckdb.connect()
    con.register("run_frame", RUN)
    con.execute("CREATE TABLE run AS SELECT * FROM run_frame")
    return CountedConnection(con, "duckdb", ["run"])


CALLS = {
    "duckdb": lambda: ndcg_sql.evaluate(RUN, k=[1, 2]),
    "duckdb, kept steps": lambda: ndcg_sql.evaluate(RUN, k=[1, 2], bootstrap=5),
    "a warehouse": lambda: ndcg_sql.evaluate("run", con=_warehouse(), dialect="duckdb", k=[1, 2], bootstrap=5,
                                             per_query=True),
}


@pytest.mark.parametrize("call", CALLS)
def test_building_a_plan_runs_no_statement(monkeypatch, call):
    building, sent = [], []
    build = plan.build

    def watched_build(*args, **kwargs):
        building.append(True)
        try:
            return build(*args, **kwargs)
        finally:
            building.pop()

    def noting(function):
        def call(*args, **kwargs):
            sent.append(bool(building))
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(plan, "build", watched_build)
    monkeypatch.setattr(executors, "interruptible", noting(executors.interruptible))  # DuckDB's statements
    monkeypatch.setattr(executors.Warehouse, "fetch", noting(executors.Warehouse.fetch))  # a warehouse's
    with CALLS[call]() as result:
        assert result.summary_records()[0]["ndcg"] == pytest.approx(0.5)  # q1: 0/1, q2: 3/3 at k=1
    assert sent and not any(sent), "a statement ran while the plan was built"


def test_the_per_query_statement_is_built_once_and_is_the_one_run(monkeypatch):
    built = []
    statement = plan.per_query_statement
    monkeypatch.setattr(plan, "per_query_statement", lambda *a, **k: built.append(1) or statement(*a, **k))
    run, relation = [], executors.DuckDB.relation
    monkeypatch.setattr(executors.DuckDB, "relation", lambda self, sql: run.append(sql) or relation(self, sql))
    with ndcg_sql.evaluate(RUN, k=[2]) as result:  # per-query rows not kept: DuckDB runs the statement when read
        assert len(built) == 1
        assert run == [result.sql]
        # q1: its one relevant item second, 1 / log2(3); q2: ideal order, 1
        assert [row["ndcg"] for row in result.per_query_records()] == pytest.approx([1 / math.log2(3), 1.0])


def test_the_runner_has_no_branch_on_the_executors_type():
    """Each executor runs a plan its own way (DuckDB stores the steps, a warehouse folds them into
    one statement): the runner only builds the plan and names what comes back."""
    import ast
    import inspect

    from ndcg_sql.running import runner

    tree = ast.parse(inspect.getsource(runner))
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not {"DuckDB", "Warehouse"} & named
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"]
    assert all("executor" not in ast.unparse(call) for call in calls)


def test_every_statement_duckdb_runs_for_the_plan_is_in_the_plan(monkeypatch):
    """The steps, the bootstrap's guard, the summary and the query counts: DuckDB runs what the plan
    holds and nothing else (the per-query statement when its rows are read)."""
    judgments = RUN[["query_id", "item_id", "label"]]
    ran, plans, run_plan = [], [], executors.DuckDB.run_plan

    def watched(self, computation, per_query=True):
        plans.append(computation)
        fetch, store = self.fetch, self.store
        monkeypatch.setattr(self, "fetch", lambda sql: ran.append(sql) or fetch(sql))
        monkeypatch.setattr(self, "store", lambda step: ran.append(step.sql) or store(step))
        return run_plan(self, computation, per_query)

    monkeypatch.setattr(executors.DuckDB, "run_plan", watched)
    with ndcg_sql.evaluate(RUN[["query_id", "item_id", "score"]], judgments=judgments, k=[1, 2], bootstrap=5) as result:
        # q1: its relevant item second at k=1 -> 0; q2: ideal -> 1 (hand-worked)
        assert [row["ndcg"] for row in result.summary_records()][:1] == pytest.approx([0.5])
        assert result.coverage["missing_from_run"] == 0
    [computation] = plans
    assert computation.guard is not None and computation.guard.replicates == 5
    assert [count.name for count in computation.counts] == [plan.QUERY_COVERAGE]
    held = [step.sql for step in computation.steps] + [computation.guard.sql, computation.summary] + [
        count.sql for count in computation.counts]
    assert ran == held

