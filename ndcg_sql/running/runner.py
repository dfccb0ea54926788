"""Running a resolved computation on an executor: the plan's statements, the counts, the result.

The same for DuckDB and every warehouse: :mod:`ndcg_sql.building.plan` decides the statements,
the executor (:mod:`ndcg_sql.running.executors`) where their steps live. Nothing is computed
here: every number comes from the SQL in ``sql/``.
"""

from __future__ import annotations

from typing import Callable, Mapping, NoReturn

import sqlglot
from sqlglot import exp

from ..building import plan, validation

from ..vocabulary import dialects, identifiers
from ..data.connections import Leftovers
from ..building.context import Rendered
from ..vocabulary.errors import InputError
from .executors import Executor, StatementFailed
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
    (:func:`ndcg_sql.building.plan.build`, which runs nothing) run by ``executor``
    (:meth:`ndcg_sql.running.executors.Executor.run_plan`: DuckDB stores the steps, a warehouse
    folds them into one statement).

    Args:
        executor: where it runs.
        resolved: the options and the templates' context (:func:`ndcg_sql.building.context.render`).
        per_query: a warehouse fetches the per-query rows only when asked (DuckDB gives a
            relation computed when read).
        checks: the input checks to count beside the summary (:func:`ndcg_sql.building.validation.checks_for`;
            a warehouse's: DuckDB checks before, apart, since what it finds shapes the SQL).
        leftovers: where the temp objects the result reads are listed (dropped when it is
            closed; DuckDB's); the executor drops the rest, and everything on an error.
        max_bootstrap_draws: the most bootstrap replicates x per-query rows (the plan's guard,
            checked where steps are stored: DuckDB).
        diagnose: called when a statement failed, before the checks count: raises InputError
            for a missing table or column (:func:`ndcg_sql.running.probe.refuse_missing`).

    Returns:
        :class:`ndcg_sql.running.results.Result`, its ``sql`` the plan's per-query statement (what
        DuckDB runs for the per-query rows when it keeps none).

    Raises:
        InputError: a check failed (the message as :func:`ndcg_sql.building.validation.refuse` words it);
            a warehouse's statement failed (the engine's first line, its error as the cause).
        OptionError: a bootstrap of more than ``max_bootstrap_draws`` draws (DuckDB; raised
            once the per-query rows are known, before the bootstrap starts).
        StatementFailed: a statement of the checks failed after the metric's did.
    """
    computation = plan.build(resolved, executor.named, counts=_counts(resolved, checks), most_draws=max_bootstrap_draws)
    try:
        ran = executor.run_plan(computation, per_query)
    except StatementFailed as failed:  # the connection has recovered (executors.Warehouse)
        _refuse(executor, resolved, checks, diagnose, failed)
    if leftovers is not None:  # the temp objects the result reads (DuckDB's), dropped when it is closed
        for kind, name in ran.kept:
            leftovers.add(kind, name)
        leftovers.watch(ran.per_query, ran.summary)
    if checks is not None:
        check_input(executor, resolved.context, checks, resolved.query_col, counts=ran.counts.get(plan.INPUT_CHECKS))
    summary = _records(ran.summary_names, ran.summary_rows, resolved, executor.dialect)
    coverage = {"evaluated": plan.evaluated(summary, resolved)}
    if plan.QUERY_COVERAGE in ran.counts:
        coverage.update({name: plain(value) for name, value in ran.counts[plan.QUERY_COVERAGE].items() if value is not None})
    # fetched rows are named as the user spells them; a relation (DuckDB's) is given as it is
    rows = _records(*ran.per_query, resolved, executor.dialect) if isinstance(ran.per_query, tuple) else ran.per_query
    return Result(per_query=rows, summary=ran.summary if ran.summary is not None else summary,
                  options=resolved.report(), coverage=coverage,
                  sql=transpile(computation.per_query_statement, executor.dialect),
                  source=computation.per_query_statement, definitions=resolved.definitions(),
                  dialect=executor.dialect.name, leftovers=leftovers)


def check_input(executor: Executor, context: Mapping, checks: list[validation.Check], query_col: str,
                counts: Mapping | None = None, revealed: Mapping[int, float] | None = None,
                must_find: bool = False) -> None:
    """Count the input checks and raise :class:`InputError` listing every failed one: the plans of
    :mod:`ndcg_sql.building.validation` run by ``executor``
    (:meth:`ndcg_sql.running.executors.Executor.run_checks`): the counts
    (:func:`~ndcg_sql.building.validation.counts_plan`) unless given, then the listings of the
    failed checks (:func:`~ndcg_sql.building.validation.listing_plan`, none when all pass),
    worded by :func:`~ndcg_sql.building.validation.refuse`.

    Args:
        context: the template context; checks: from :func:`ndcg_sql.building.validation.checks_for`.
        query_col: the user's query column name, for the message.
        counts: the checks' counts when another statement fetched them (a warehouse's summary
            carries them): only a failed check then costs more statements.
        revealed, must_find: what DuckDB's first pass found
            (:func:`ndcg_sql.building.validation.read_profile`).

    Raises:
        InputError: as :func:`ndcg_sql.building.validation.refuse`; an empty ranking or judgments.
        StatementFailed: a warehouse's statement of the checks failed.
    """
    if counts is None:
        counts = validation.read_counts(executor.run_checks(validation.counts_plan(context, checks)))
    listed = executor.run_checks(validation.listing_plan(context, checks, counts, revealed))
    validation.refuse(checks, query_col, counts, listed, revealed, must_find)


def _refuse(executor: Executor, resolved: Rendered, checks: list[validation.Check] | None,
            diagnose: Callable[[], None] | None, failed: StatementFailed) -> NoReturn:
    """After a failed statement: a missing table or column (``diagnose``), a failing check
    (:func:`check_input`, which :mod:`ndcg_sql.building.validation` words), else the engine's words."""
    if diagnose is not None:
        diagnose()
    if checks is not None:
        check_input(executor, resolved.context, checks, resolved.query_col)
    raise InputError(
        f"{executor.dialect.name} could not compute on {_tables(resolved, executor.dialect)} (columns "
        f"{resolved.query_col!r}, {resolved.order_col!r}): {failed}" + (
            ". The input checks found nothing wrong; ids of a type the engine's driver does not "
            "report (ndcg_sql/vocabulary/dialects.py, id_types) are compared as stored: give both sides one type"
            if checks is not None
            else " (checks='trusted': the input was not checked)")
    ) from failed.__cause__


def warehouse_statement(resolved: Rendered, checks: list[validation.Check] | None = None,
                        per_query: bool = False) -> plan.WarehouseStatement:
    """A warehouse's one statement: the summary with the counts of the input checks (when
    ``checks``) and of the queries' coverage (with judgments) beside it, and with ``per_query``
    the per-query rows after it (:func:`ndcg_sql.building.plan.one_statement`)."""
    return plan.one_statement(plan.build(resolved, counts=_counts(resolved, checks)), per_query)


def _counts(resolved: Rendered, checks: list[validation.Check] | None) -> tuple[plan.Count, ...]:
    """The plan's one-row counts (:func:`ndcg_sql.building.plan.counts`): the input checks' when
    ``checks`` (:func:`ndcg_sql.building.validation.counts_sql`), the coverage with judgments."""
    counted = None if checks is None else (validation.counts_sql(resolved.context, checks), validation.count_columns(checks))
    return plan.counts(resolved, counted)


def _tables(resolved: Rendered, dialect: dialects.Dialect) -> str:
    """The input tables as the engine names them, for a message."""
    names = [sqlglot.parse_one(relation, into=exp.Table, read="duckdb").sql(dialect=dialect.sqlglot)
             for relation in (resolved.context.run_relation, resolved.context.judgments_relation) if relation]
    return " with judgments ".join(names)
