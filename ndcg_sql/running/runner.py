"""Running a resolved computation on an executor: the plan's statements, the counts, the result.

The same for DuckDB and every warehouse: :mod:`ndcg_sql.building.plan` decides the statements,
the executor (:mod:`ndcg_sql.running.executors`) where their steps live. Nothing is computed
here: every number comes from the SQL in ``sql/``.
"""

from __future__ import annotations

from typing import Callable

import sqlglot
from sqlglot import exp

from ..building import plan, validation

from ..vocabulary import activity, dialects, identifiers
from ..data.connections import Leftovers, drop
from ..building.context import Rendered
from ..vocabulary.errors import InputError, OptionError
from .executors import DuckDB, Executor, StatementFailed
from ..vocabulary.parameters import MAX_BOOTSTRAP_DRAWS
from .results import Result, plain
from ..building.sql_text import transpile


def output_names(names: list[str], resolved: Rendered, dialect: dialects.Dialect) -> list[str]:
    """The user's names of fetched columns: the segment and query columns as the user spells
    them (an engine returns them as it stores them, e.g. upper case on Snowflake), ours in
    lower case."""
    users = {identifiers.folded(name, dialect.fold): name for name in (*resolved.segments, resolved.query_col)}
    return [users.get(str(name), str(name).lower()) for name in names]


def _records(names, rows, resolved: Rendered, dialect) -> list[dict]:
    names = output_names(names, resolved, dialect)
    return [dict(zip(names, map(plain, row))) for row in rows]


def run(executor: Executor, resolved: Rendered, per_query: bool = True,
        checks: list[validation.Check] | None = None, leftovers: Leftovers | None = None,
        max_bootstrap_draws: int = MAX_BOOTSTRAP_DRAWS, diagnose: Callable[[], None] | None = None) -> Result:
    """Compute the per-query rows, the summary and the query counts of ``resolved``: its plan
    (:func:`ndcg_sql.building.plan.build`, which runs nothing) run on ``executor``.

    Args:
        executor: where it runs.
        resolved: the options and the templates' context (:func:`ndcg_sql.building.context.render`).
        per_query: a warehouse fetches the per-query rows only when asked (DuckDB gives a
            relation computed when read).
        checks: a warehouse's input checks (:func:`ndcg_sql.building.validation.checks_for`), counted
            by the summary's statement itself (DuckDB checks before, apart: what it finds
            shapes the SQL).
        leftovers: on DuckDB, where the temp tables the result reads are listed (dropped when
            it is closed); the steps only the computation reads are dropped before returning,
            and every step on an error.
        max_bootstrap_draws: on DuckDB, the most bootstrap replicates x per-query rows.
        diagnose: on a warehouse, called when its statement failed, before the checks count:
            raises InputError for a missing table or column (:func:`ndcg_sql.running.probe.refuse_missing`).

    Returns:
        :class:`ndcg_sql.running.results.Result`, its ``sql`` the plan's per-query statement (what
        DuckDB runs for the per-query rows when it keeps none).

    Raises:
        InputError: a check failed (the message as :func:`ndcg_sql.building.validation.validate` words it);
            on a warehouse, its statement failed (the engine's first line, its error as the cause).
        OptionError: on DuckDB, a bootstrap of more than ``max_bootstrap_draws`` draws (raised
            once the per-query rows are known, before the bootstrap starts).
        StatementFailed: on a warehouse, a statement of the checks failed after the metric's did.
    """
    if isinstance(executor, DuckDB):
        computation = plan.build(resolved, executor.named)
        sql = transpile(computation.per_query_statement, executor.dialect)
        leftovers = leftovers if leftovers is not None else Leftovers(executor.con)
        rows, summary, coverage = _stored_steps(executor, computation, sql, resolved, leftovers, max_bootstrap_draws)
        leftovers.watch(rows, summary)
    else:
        computation = plan.build(resolved, counts=_counts(resolved, checks))
        sql = transpile(computation.per_query_statement, executor.dialect)
        rows, summary, coverage = _one_statement(executor, computation, resolved, per_query, checks, diagnose)
        leftovers = None
    return Result(per_query=rows, summary=summary, options=resolved.report(), coverage=coverage, sql=sql,
                  source=computation.per_query_statement, definitions=resolved.definitions(), dialect=executor.dialect.name, leftovers=leftovers)


def _stored_steps(executor: DuckDB, computation: plan.Plan, sql: str, resolved: Rendered, leftovers: Leftovers,
                  max_bootstrap_draws: int) -> tuple:
    """:func:`run` on DuckDB, each step a temp table or view: (the per-query relation, the summary
    relation, the query counts). What the result reads is listed in ``leftovers``, the rest dropped."""
    key = executor.con
    created: list[tuple[str, str]] = []
    values = "per-query values" if resolved.measures is None else "measures per query"
    try:
        with activity.doing(key, f"{values} and their means" if resolved.bootstrap else values):
            for step in computation.steps:
                created.append(executor.store(step))
        if computation.bootstrap:
            check_bootstrap(executor, computation.per_query, computation.bootstrap, max_bootstrap_draws)
        # a step is computed where the plan keeps it (DuckDB temp tables); else within the summary
        final = (f"bootstrap interval, {computation.bootstrap} resamples of the queries" if computation.bootstrap
                 else "means" if computation.keeps_per_query else f"{values} and means")
        with activity.doing(key, final):
            created.append(executor.store(plan.Step(executor.named("summary"), computation.summary, keep=True)))
            summary = executor.con.table(created[-1][1])
            summary_rows = [dict(zip(summary.columns, row)) for row in summary.fetchall()]
        if computation.keeps_per_query:
            rows = executor.relation(f"SELECT * FROM {computation.per_query} ORDER BY {computation.order}")
        else:
            rows = executor.relation(sql)
        coverage = {"evaluated": plan.evaluated(summary_rows, resolved)}
        if resolved.options.judgments:
            with activity.doing(key, "query counts"):
                coverage.update(_coverage(*executor.fetch(plan.coverage_sql(resolved))))
    except BaseException:
        drop(executor.con, list(reversed(created)))
        raise
    # what the result reads: the summary (the last step) and, where kept, the per-query rows (the first)
    read = {created[-1][1]} | ({created[0][1]} if computation.keeps_per_query else set())
    drop(executor.con, [(kind, name) for kind, name in reversed(created) if name not in read])
    for kind, name in created:
        if name in read:
            leftovers.add(kind, name)
    return rows, summary, coverage


def check_bootstrap(executor: DuckDB, per_query_relation: str, replicates: int, most: int) -> None:
    """Raise OptionError when ``replicates`` x the per-query rows (each a group of the
    bootstrap's draws, sql/bootstrap_intervals.sql.j2) is more than ``most``."""
    _, counted = executor.fetch(f"SELECT COUNT(*) FROM {per_query_relation}")
    rows = int(counted[0][0])
    if replicates * rows > most:
        raise OptionError(
            f"bootstrap={replicates} (--bootstrap) resamples of {rows:,} per-query values is {replicates * rows:,} "
            f"draws, more than max_bootstrap_draws={most:,} (each draw is a row DuckDB groups, spilled to temp "
            "files past the memory limit): lower bootstrap, ask fewer cutoffs (k, --k) or measures, use "
            "intervals=True (--intervals; no resampling), or raise max_bootstrap_draws (--max-bootstrap-draws)")


def _coverage(names, rows) -> dict:
    return {str(n).lower(): plain(v) for n, v in zip(names, rows[0]) if v is not None}


def _counts(resolved: Rendered, checks: list[validation.Check] | None) -> list[tuple[str, str, list[str]]]:
    """The one-row counts a warehouse's statement carries (:func:`ndcg_sql.building.plan.with_counts`): of the input
    checks (when ``checks``) and of the queries' coverage (with judgments)."""
    counts = []
    if checks is not None:
        counts.append((plan.INPUT_CHECKS, validation.counts_sql(resolved.context, checks), validation.count_columns(checks)))
    if resolved.options.judgments:
        counts.append((plan.QUERY_COVERAGE, plan.coverage_sql(resolved), list(plan.COVERAGE_COLUMNS)))
    return counts


def warehouse_statement(resolved: Rendered, checks: list[validation.Check] | None = None,
                        per_query: bool = False) -> plan.WarehouseStatement:
    """A warehouse's one statement: the summary with the counts of the input checks (when
    ``checks``) and of the queries' coverage (with judgments) beside it, and with ``per_query``
    the per-query rows after it (:func:`ndcg_sql.building.plan.one_statement`)."""
    return plan.one_statement(plan.build(resolved, counts=_counts(resolved, checks)), per_query)


def _tables(resolved: Rendered, dialect: dialects.Dialect) -> str:
    """The input tables as the engine names them, for a message."""
    names = [sqlglot.parse_one(resolved.context[key], into=exp.Table, read="duckdb").sql(dialect=dialect.sqlglot)
             for key in ("run_relation", "judgments_relation") if resolved.context.get(key)]
    return " with judgments ".join(names)


def _one_statement(executor: Executor, computation: plan.Plan, resolved: Rendered, per_query: bool,
                   checks: list[validation.Check] | None, diagnose: Callable[[], None] | None) -> tuple:
    """:func:`run` on a warehouse: one statement for the input checks, the summary, the query
    counts and, when asked, the per-query rows (:func:`ndcg_sql.building.plan.one_statement`): (the per-query
    records or None, the summary records, the query counts). Only a failed check (or a statement
    failing: on a missing column, or on bad input such as a text that is no number) costs more
    statements: ``diagnose``'s, then those of :func:`ndcg_sql.building.validation.validate`, which words the message."""
    key = getattr(executor, "con", None)
    values = "per-query values" if resolved.measures is None else "measures per query"
    statement, count_names, summary_names, per_query_names = plan.one_statement(computation, per_query)
    final = (f"bootstrap interval, {resolved.bootstrap} resamples of the queries" if resolved.bootstrap
             else f"{values} and means")
    checked = "checking the input, " if checks is not None else ""
    with activity.doing(key, checked + final + (", fetching the per-query rows" if per_query else "")):
        try:
            names, rows = executor.fetch(statement)
        except StatementFailed as failed:  # the connection has recovered (executors.Warehouse)
            if diagnose is not None:
                diagnose()
            if checks is not None:
                validation.validate(executor.fetch, resolved.context, checks, resolved.query_col)
            raise InputError(
                f"{executor.dialect.name} could not compute on {_tables(resolved, executor.dialect)} (columns "
                f"{resolved.query_col!r}, {resolved.order_col!r}): {failed}" + (
                    ". The input checks found nothing wrong; ids of a type the engine's driver does not "
                    "report (ndcg_sql/vocabulary/dialects.py, id_types) are compared as stored: give both sides one type"
                    if checks is not None
                    else " (checks='trusted': the input was not checked)")
            ) from failed.__cause__
    per_query_rows = None
    if per_query_names is not None and summary_names is not None:
        # row_part 0: summary rows, 1: per-query rows (plan.with_per_query_rows)
        parts: dict[int, list[tuple]] = {0: [], 1: []}
        for row in rows:
            parts[int(row[0])].append(row[1:])
        names, rows = summary_names, [row[:len(summary_names)] for row in parts[0]]
        per_query_rows = [row[len(row) - len(per_query_names):] for row in parts[1]]
    width = len(count_names)
    counts = dict(zip(count_names, rows[0][:width])) if rows else None
    if checks is not None:
        # no row (with segments, nothing evaluated): the counts are fetched apart
        validation.validate(executor.fetch, resolved.context, checks, resolved.query_col, counts=counts)
    summary = _records(names[width:], [row[width:] for row in rows], resolved, executor.dialect)
    coverage = {"evaluated": plan.evaluated(summary, resolved)}
    if resolved.options.judgments:
        if counts is None:
            with activity.doing(key, "query counts"):
                coverage.update(_coverage(*executor.fetch(plan.coverage_sql(resolved))))
        else:
            coverage.update(_coverage(plan.COVERAGE_COLUMNS, [[counts[n] for n in plan.COVERAGE_COLUMNS]]))
    per_query_records = None
    if per_query_rows is not None:
        per_query_records = _records(per_query_names, per_query_rows, resolved, executor.dialect)
    return per_query_records, summary, coverage
