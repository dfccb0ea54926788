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



def _logged(con) -> list[str]:
    """Every statement the connection ran, in order: DuckDB's own query log, a witness apart from
    the package's executors."""
    return [message for (message,) in con.execute(
        "SELECT message FROM duckdb_logs WHERE type = 'QueryLog' ORDER BY context_id").fetchall()]


def _logging_connection():
    con = duckdb.connect()
    con.execute("CALL enable_logging('QueryLog')").fetchall()
    return con


def _computations(logged: list[str], first: str) -> list[str]:
    """The statements from ``first`` on, each as the SQL it runs: a step stored as a temp table or
    view gives its query; left out are the names of temp objects looked up (the executor's
    naming, :meth:`ndcg_sql.running.executors.DuckDB.named`), the reads of a stored table whole and
    the drops of temp objects."""
    import re

    found = []
    for statement in logged[logged.index(first):]:
        if "duckdb_views()" in statement or statement.startswith("DROP ") or re.fullmatch(r'SELECT \* FROM "\w+"', statement):
            continue
        stored = re.match(r'CREATE TEMP (?:TABLE|VIEW) "\w+" AS ', statement)
        found.append(statement[stored.end():] if stored else statement)
    return found


def _watching_plans(monkeypatch) -> list:
    """The plans the executor is handed, in order: the input checks' and the computation's."""
    handed: list = []
    run_checks, run_plan = executors.Executor.run_checks, executors.DuckDB.run_plan
    monkeypatch.setattr(executors.Executor, "run_checks",
                        lambda self, checking: handed.append(checking) or run_checks(self, checking))
    monkeypatch.setattr(executors.DuckDB, "run_plan",
                        lambda self, computation, per_query=True: handed.append(computation)
                        or run_plan(self, computation, per_query))
    return handed


def test_every_statement_of_an_evaluation_after_reading_the_input_is_in_its_plans(monkeypatch):
    """With the input checks on: the checks' first pass, then the steps, the bootstrap's guard, the
    summary and the query counts; every statement DuckDB logs from the first pass on is one the
    plans hold, in order, and nothing else (the temp objects' names looked up, a stored table read
    whole and the drops aside)."""
    handed = _watching_plans(monkeypatch)
    con = _logging_connection()
    judgments = RUN[["query_id", "item_id", "label"]]
    with ndcg_sql.evaluate(RUN[["query_id", "item_id", "score"]], judgments=judgments, con=con, k=[1, 2],
                           bootstrap=5) as result:
        logged = _logged(con)
        # q1: its relevant item second at k=1 -> 0; q2: ideal -> 1 (hand-worked)
        assert [row["ndcg"] for row in result.summary_records()][:1] == pytest.approx([0.5])
    profile, computation = handed  # the pass found nothing: no count of each check, no listing
    assert [read.name for read in profile.reads] == [plan.INPUT_PROFILE]
    assert isinstance(computation, plan.Plan) and computation.guard is not None
    held = ([read.sql for read in profile.reads] + [step.sql for step in computation.steps]
            + [computation.guard.sql, computation.summary] + [count.sql for count in computation.counts])
    assert _computations(logged, profile.reads[0].sql) == held


def test_bad_input_runs_the_checks_plans_and_then_the_listing_plan(monkeypatch):
    """A duplicated (query, item) pair in q1 and a NULL label in q2: the first pass, the counts, then
    the statements of the listing plan (a few query ids of each failed check), in order, and no
    other; the message words what they found."""
    from ndcg_sql.building import validation

    handed = _watching_plans(monkeypatch)
    con = _logging_connection()
    bad = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q2"], "item_id": ["x", "x", "z", "w"],
                        "score": [2.0, 1.0, 1.0, 0.5], "label": [0, 1, None, 0]})
    with pytest.raises(ndcg_sql.InputError) as raised:
        ndcg_sql.evaluate(bad, con=con, k=[1, 2])
    logged = _logged(con)
    profile, counts, listing = handed
    assert [read.name for read in profile.reads] == [plan.INPUT_PROFILE]
    assert [read.name for read in counts.reads] == [plan.INPUT_CHECKS]
    failed = {entry["check"]: entry for entry in raised.value.failed}
    assert set(failed) == {"duplicate_pairs", "null_label"}
    assert {entry["check"]: entry["query_ids"] for entry in raised.value.failed} == {
        "duplicate_pairs": ["q1"], "null_label": ["q2"]}
    # one listing of query ids per failed check, named by the check's place among the checks
    assert len(listing.reads) == 2 and all(read.name.startswith("examples_") for read in listing.reads)
    held = [read.sql for checking in handed for read in checking.reads]
    assert _computations(logged, profile.reads[0].sql) == held
    assert "(1 duplicated (query, item) pair, 2 rows), e.g. in query_id q1" in str(raised.value)
    assert "NULL labels (1 row), e.g. in query_id q2" in str(raised.value)
    assert validation.listing_plan({}, [], {"run_rows_count": 4}).reads == ()  # no failed check: no listing


def test_the_validation_module_runs_no_statement():
    """validation.py plans the checks' statements and words what they found: it calls no executor,
    connection or fetch (the executor runs the plans: Executor.run_checks)."""
    import ast
    import inspect

    from ndcg_sql.building import validation

    tree = ast.parse(inspect.getsource(validation))
    # (``.sql(...)`` is sqlglot writing text, which runs nothing: not among them)
    running = {"fetch", "execute", "fetchall", "fetchone", "run_checks", "run_plan", "table", "cursor", "relation",
               "store", "interruptible"}
    called = {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
              for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert not running & called
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {"duckdb", "executors", "running"} & {part for name in imported for part in name.split(".")}
    parameters = {arg.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for arg in node.args.args}
    assert "fetch" not in parameters
