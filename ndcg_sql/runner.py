"""Running a resolved computation on an executor: the plan's statements, the counts, the result.

The same for DuckDB and every warehouse: :mod:`ndcg_sql.plan` decides the statements,
the executor (:mod:`ndcg_sql.executors`) where their steps live. Nothing is computed
here: every number comes from the SQL in ``sql/``.
"""

from __future__ import annotations

from . import activity, dialects, identifiers, plan, templates
from .context import Resolved
from .executors import DuckDB, Executor
from .results import Result, plain
from .sql_text import transpile


def per_query_sql(resolved: Resolved, dialect: dialects.Dialect) -> str:
    """The per-query rows as one statement in ``dialect`` (what ``Result.sql`` and ``to_sql`` give)."""
    return transpile(plan.per_query_statement(resolved, ordered=True), dialect)


def output_names(names: list[str], resolved: Resolved, dialect: dialects.Dialect) -> list[str]:
    """The user's names of fetched columns: the segment and query columns as the user spells
    them (an engine returns them as it stores them, e.g. upper case on Snowflake), ours in
    lower case."""
    users = {identifiers.folded(name, dialect.fold): name for name in (*resolved.segments, resolved.query_col)}
    return [users.get(str(name), str(name).lower()) for name in names]


def _records(names, rows, resolved: Resolved, dialect) -> list[dict]:
    names = output_names(names, resolved, dialect)
    return [dict(zip(names, map(plain, row))) for row in rows]


def run(executor: Executor, resolved: Resolved, per_query: bool = True) -> Result:
    """Compute the per-query rows, the summary and the query counts of ``resolved``.

    Args:
        executor: where it runs.
        resolved: the options and the templates' context (:func:`ndcg_sql.context.resolve`).
        per_query: a warehouse fetches the per-query rows only when asked (DuckDB gives a
            relation computed when read).

    Returns:
        :class:`ndcg_sql.results.Result`.
    """
    steps = executor.steps()
    key = getattr(executor, "con", None)
    values = "per-query values" if resolved.measures is None else "measures per query"
    with activity.doing(key, f"{values} and their means" if resolved.bootstrap else values):
        per_query_relation, summary_sql = plan.build(steps, resolved)
    local = isinstance(executor, DuckDB)
    # a step is computed where the plan keeps it (DuckDB temp tables); else within the summary
    final = (f"bootstrap interval, {resolved.bootstrap} resamples of the queries" if resolved.bootstrap
             else "means" if local and plan.keeps_per_query(resolved) else f"{values} and means")
    with activity.doing(key, final):
        if local:
            steps.add("summary", summary_sql, keep=True)
            summary = executor.con.table(steps.tables[-1])
            summary_rows = [dict(zip(summary.columns, row)) for row in summary.fetchall()]
        else:
            summary = summary_rows = _records(*executor.run(steps, summary_sql), resolved, executor.dialect)
    if local:
        if plan.keeps_per_query(resolved):
            rows = executor.relation(f"SELECT * FROM {per_query_relation} ORDER BY {plan.per_query_order(resolved)}")
        else:
            rows = executor.relation(per_query_sql(resolved, executor.dialect))
    else:
        rows = None
        if per_query:
            with activity.doing(key, "per-query rows"):
                rows = _records(*executor.run(steps, f"SELECT * FROM {per_query_relation} "
                                                    f"ORDER BY {plan.per_query_order(resolved)}"),
                                resolved, executor.dialect)
    coverage = {"evaluated": plan.evaluated(summary_rows, resolved)}
    if resolved.options.judgments:
        with activity.doing(key, "query counts"):
            names, counts = executor.fetch(templates.render("coverage.sql.j2", **resolved.context))
        coverage.update({str(n).lower(): plain(v) for n, v in zip(names, counts[0]) if v is not None})
    return Result(
        per_query=rows,
        summary=summary,
        options=resolved.report(),
        coverage=coverage,
        sql=per_query_sql(resolved, executor.dialect),
        definitions=resolved.definitions(),
        dialect=executor.dialect.name,
    )
