"""An incremental per-query model of a daily log, run by dbt itself on dbt-duckdb and dbt-postgres.

dbt_macros/integration_tests/models/daily_per_query.sql is materialised `incremental`
(delete+insert on the day) and reads only the days ndcg_sql.ndcg_partitions_to_compute names:
on a first build or --full-refresh every day, on an incremental run the days after the latest
one in the table, or those the var ndcg_partitions lists. Each row carries the invocation_id of
the dbt run that computed it. The log (seeds/daily_log.csv, the TREC DL 2019 runs spread over
three days) arrives a day at a time: the project is built with days 1-2 in the seed, then day 3
is added and the model run again. Then:
- only day 3 was computed: its rows carry the new run's invocation_id, the rows of days 1-2 are
  the first run's, unchanged to the bit, and the compiled SQL read `day > (SELECT MAX(day) ...)`;
- the table equals a --full-refresh build and the numpy reference (tests/reference.py) to
  1e-12, and the build's own equals_expected tests (seeds/expected/) pass;
- a late row of day 2 is not picked up by a plain incremental run (the documented limit) and is
  by `--vars '{ndcg_partitions: [2019-11-02]}'`, which replaces day 2 only;
- a copy of the model with lookback=1 recomputes the latest day already there, with the new one;
- the generic test ndcg_one_partition_per_query fails on a query found on two days and on a
  row without a day.
On dbt-postgres against a throwaway server (tests/engines.py), as tests/test_dbt.py does.
"""

import csv
from datetime import date
from pathlib import Path

import duckdb
import pytest

pytest.importorskip("dbt.cli.main", reason="install '.[test]' (it brings dbt-core and dbt-duckdb)")

import reference
from test_dbt import SEEDS, copy_project, environment, invoke, postgres_variables

#: slow (half a minute or more of a worker): dbt builds, run after run
pytestmark = pytest.mark.slow

DAYS = ("2019-11-01", "2019-11-02", "2019-11-03")
CUTOFFS = [1, 5, 10, None]
TOL = 1e-12
#: the integration model with lookback=1, written into the test's copy of the project only
LOOKBACK_MODEL = """\
{{ config(materialized='incremental', unique_key='day', incremental_strategy='delete+insert') }}
with new_days as (
  select * from {{ ref('daily_log') }} where {{ ndcg_sql.ndcg_partitions_to_compute('day', lookback=1) }}
), per_query as (
  {{ ndcg_sql.ndcg_per_query('new_days', segment_cols=['day', 'arm'], k=[1, 5, 10, 'all']) }}
)
select *, '{{ invocation_id }}' as invocation_id from per_query
"""
MODELS = ("daily_per_query", "daily_lookback_per_query")


class Target:
    """A copy of the integration project on one adapter: dbt(*args) runs a dbt command on it,
    read(name) gives a table's rows as dicts."""

    def __init__(self, project: Path, target: list[str], read):
        self.project, self.target, self.read = project, target, read

    def dbt(self, *args: str):
        return invoke(self.project, *args, *self.target)

    def write_log(self, rows: list[list[str]]) -> None:
        with open(self.project / "seeds" / "daily_log.csv", "w", newline="") as out:
            csv.writer(out, lineterminator="\n").writerows([LOG_HEADER, *rows])


def log_rows() -> tuple[list[str], list[list[str]]]:
    with open(SEEDS / "daily_log.csv", newline="") as source:
        rows = list(csv.reader(source))
    return rows[0], rows[1:]


LOG_HEADER, LOG = log_rows()


@pytest.fixture(scope="module", params=["duckdb", pytest.param("postgres", marks=pytest.mark.engines)])
def target(request, tmp_path_factory):
    project = copy_project(tmp_path_factory)
    (project / "models" / "daily_lookback_per_query.sql").write_text(LOOKBACK_MODEL)
    if request.param == "duckdb":
        database = project / "incremental.duckdb"

        def read(name):
            with duckdb.connect(str(database)) as con:
                relation = con.table(name)
                return [dict(zip(relation.columns, row)) for row in relation.fetchall()]

        with environment(NDCG_SQL_DBT_DUCKDB=str(database)):
            deps = invoke(project, "deps")
            assert deps.success, deps.exception
            yield Target(project, [], read)
        return
    from engines import Postgres

    server = Postgres()
    try:
        def read(name):
            with server.con.cursor() as cursor:
                cursor.execute(f'SELECT * FROM "ndcg_sql_it"."{name}"')
                names = [d.name for d in cursor.description]
                return [dict(zip(names, row)) for row in cursor.fetchall()]

        with environment(**postgres_variables(server)):
            deps = invoke(project, "deps")
            assert deps.success, deps.exception
            yield Target(project, ["--target", "postgres"], read)
    finally:
        server.close()


def expected(rows: list[list[str]]) -> dict:
    """{(day, arm, query, k): (cg, dcg, idcg, ndcg)}: the numpy reference, each (day, arm) on its own."""
    groups = {}
    for day, arm, query, item, score, label in rows:
        groups.setdefault((date.fromisoformat(day), arm), []).append((query, item, float(score), int(label)))
    values = {}
    for (day, arm), part in groups.items():
        found, _ = reference.evaluate(part, CUTOFFS)
        values.update({(day, arm, query, k): v for (query, k), v in found.items()})
    return values


def per_query(rows: list[dict]) -> dict:
    found = {(r["day"], r["arm"], r["query_id"], r["k"]): (r["cg"], r["dcg"], r["idcg"], r["ndcg"]) for r in rows}
    assert len(found) == len(rows)  # one row per (day, arm, query, k): nothing inserted twice
    return found


def assert_close(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for key, values in want.items():
        assert all(reference.close(a, b, TOL) for a, b in zip(got[key], values)), (key, got[key], values)


def by_key(rows: list[dict], leave_out: date | None = None) -> dict:
    """{(day, arm, query, k): the whole row} of the rows whose day is not leave_out."""
    return {(r["day"], r["arm"], r["query_id"], r["k"]): r for r in rows if r["day"] != leave_out}


def computed_by(rows: list[dict]) -> dict:
    """{day: the invocation ids of the dbt runs that computed its rows}."""
    found = {}
    for row in rows:
        found.setdefault(row["day"], set()).add(row["invocation_id"])
    return found


def compiled(result, model: str) -> str:
    return next(r.node.compiled_code for r in result.result.results if r.node.name == model)


def assert_passed(result, nodes: int) -> None:
    assert result.success, result.exception
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert len(statuses) == nodes and set(statuses.values()) <= {"success", "pass"}, statuses


def day(index: int) -> date:
    return date.fromisoformat(DAYS[index])


def test_adding_a_day_computes_only_that_day_and_equals_a_full_refresh(target):
    # days 1 and 2 have arrived: the first build (a full refresh, whatever the schema held) computes both
    first_two = [row for row in LOG if row[0] != DAYS[2]]
    target.write_log(first_two)
    # cautious: without the equals_expected tests, whose seeds hold all three days
    built = target.dbt("build", "--full-refresh", "--indirect-selection", "cautious", "--select", "daily_log", *MODELS)
    assert_passed(built, 4)  # the seed, its ndcg_one_partition_per_query test, the two models
    assert "(1 = 1)" in compiled(built, "daily_per_query")
    before = target.read("daily_per_query")
    (first_run,) = {row["invocation_id"] for row in before}
    assert computed_by(before) == {day(0): {first_run}, day(1): {first_run}}
    assert_close(per_query(before), expected(first_two))

    # day 3 arrives; the build runs the models incrementally, then the summary and the expected-value tests
    target.write_log(LOG)
    built = target.dbt("build", "--select", "daily_log", *MODELS, "daily_summary", "expected_daily_per_query",
                       "expected_daily_summary")
    assert_passed(built, 9)  # 3 seeds, 3 models, the partition test, 2 equals_expected
    sql = compiled(built, "daily_per_query")
    assert '"day" > (SELECT MAX("day") FROM ' in sql and "(1 = 1)" not in sql
    after = target.read("daily_per_query")
    (second_run,) = {row["invocation_id"] for row in after} - {first_run}
    # only day 3 was computed: the rows of days 1-2 are the first run's, as they were
    assert computed_by(after) == {day(0): {first_run}, day(1): {first_run}, day(2): {second_run}}
    assert by_key(after, leave_out=day(2)) == by_key(before)
    assert_close(per_query(after), expected(LOG))
    # lookback=1: the latest day already there (day 2) is computed again with the new one
    lookback = target.read("daily_lookback_per_query")
    assert computed_by(lookback) == {day(0): {first_run}, day(1): {second_run}, day(2): {second_run}}
    assert_close(per_query(lookback), expected(LOG))

    # a full refresh computes every day again, in one run: the same rows
    refreshed = target.dbt("run", "--full-refresh", "--select", "daily_per_query")
    assert_passed(refreshed, 1)
    assert "(1 = 1)" in compiled(refreshed, "daily_per_query")
    full = target.read("daily_per_query")
    (third_run,) = {row["invocation_id"] for row in full}
    assert third_run not in (first_run, second_run)
    assert_close(per_query(full), per_query(after))
    assert_close(per_query(full), expected(LOG))


def test_a_late_row_is_computed_when_its_day_is_named(target):
    """A row of day 2 arrives after day 2 was computed: a plain incremental run leaves day 2 as
    it was (it computes days after the latest one only); naming the day recomputes that day."""
    built = target.dbt("build", "--full-refresh", "--indirect-selection", "cautious", "--select", "daily_log",
                       "daily_per_query")
    assert_passed(built, 3)
    before = target.read("daily_per_query")
    query = next(row[2] for row in LOG if row[:2] == [DAYS[1], "bm25"])
    late = LOG + [[DAYS[1], "bm25", query, "late_item", "1000.0", "3"]]  # a relevant item at the top
    target.write_log(late)
    built = target.dbt("build", "--indirect-selection", "cautious", "--select", "daily_log", "daily_per_query")
    assert_passed(built, 3)
    assert by_key(target.read("daily_per_query")) == by_key(before)  # no day after day 3: nothing computed
    assert per_query(before)[(day(1), "bm25", query, None)] != expected(late)[(day(1), "bm25", query, None)]

    run = target.dbt("run", "--select", "daily_per_query", "--vars", "{ndcg_partitions: [2019-11-02]}")
    assert_passed(run, 1)
    assert "\"day\" IN ('2019-11-02')" in compiled(run, "daily_per_query")
    after = target.read("daily_per_query")
    (first_run,) = {row["invocation_id"] for row in before}
    (late_run,) = {row["invocation_id"] for row in after} - {first_run}
    assert computed_by(after) == {day(0): {first_run}, day(1): {late_run}, day(2): {first_run}}
    assert by_key(after, leave_out=day(1)) == by_key(before, leave_out=day(1))
    assert_close(per_query(after), expected(late))


def test_a_query_on_two_days_fails_the_partition_test(target):
    """ndcg_one_partition_per_query: an (arm, query) with rows on two days, and a row with no
    day, are the test's failing rows (the rows are put back after)."""
    moved = [list(row) for row in LOG]
    moved[0][0] = DAYS[1]  # the first row of the first day-1 ranking, moved to day 2
    moved[-1][0] = ""  # the last row of the log: no day (NULL)
    target.write_log(moved)
    try:
        built = target.dbt("build", "--select", "daily_log")
        assert not built.success
        outcome = {r.node.name: (str(r.status), r.failures) for r in built.result.results}
        assert outcome.pop("daily_log") == ("success", None)
        assert list(outcome.values()) == [("fail", 2)], outcome
    finally:
        target.write_log(LOG)
    assert_passed(target.dbt("build", "--select", "daily_log"), 2)
