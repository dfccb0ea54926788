""":func:`ndcg_sql.evaluate` on a warehouse connection (DB-API or Spark; :mod:`ndcg_sql.running.local` is
the DuckDB path): the named tables probed (:mod:`ndcg_sql.running.probe`: their columns and id types,
reading no row; one item id when its type changes the SQL and nothing else told it), the
templates' context rendered once with what they show, the plan run in the warehouse
(:mod:`ndcg_sql.running.runner`).
"""

from __future__ import annotations

from functools import partial
from typing import Callable, TypeVar

from ..building import context, plan, validation

from . import local, probe, runner

from ..vocabulary import conventions
from ..vocabulary.errors import InputError
from .executors import StatementFailed, Warehouse
from .results import Result

from ..building.sql_text import table_name

T = TypeVar("T")
#: What runs once the tables are probed: (executor, rendered, the checks to count or None, what
#: raises InputError for a missing table or column after a failed statement) -> what it returns.
Compute = Callable[[Warehouse, context.Rendered, "list[validation.Check] | None", Callable[[], None]], T]


def evaluate(executor: Warehouse, table, judgments, resolved: context.Resolved, options: dict, item_type,
             per_query: bool, checks: str) -> Result:
    """:func:`ndcg_sql.evaluate` on a warehouse connection (table names there). The named columns are checked
    as on DuckDB from what :mod:`ndcg_sql.running.probe` reads (no row); an engine's failure is worded, the
    connection usable again (:class:`ndcg_sql.running.executors.StatementFailed`)."""
    def planned(executor: Warehouse, rendered: context.Rendered, counted, diagnose) -> Result:
        return runner.run(executor, rendered, per_query=per_query, checks=counted, diagnose=diagnose)

    return computed(executor, table, judgments, resolved, options, item_type, checks, planned)


def computed(executor: Warehouse, table, judgments, resolved: context.Resolved, options: dict, item_type,
             checks: str, compute: Compute[T]) -> T:
    """The tables probed and the context rendered as :func:`evaluate` does, then
    ``compute(executor, rendered, counted, diagnose)``: evaluate's plan, or another computation
    over the same tables (:func:`ndcg_sql.unjudged`), which counts the input checks ``counted``
    (None with checks="trusted") and calls ``diagnose`` when a statement failed. A failure of a
    statement becomes an InputError as evaluate words it."""
    target = executor.dialect
    tables = probe.Tables(table_name(table, target.name),
                          table_name(judgments, target.name) if judgments is not None else None, (table, judgments))
    columns = validation.Columns.of(options, resolved.order_col, judgments is not None, resolved.label)
    counted = validation.checks_for(resolved.options, columns.roles(), dialect=target.name,
                                    **resolved.label_checks()) if checks == "all" else None
    # after a failed statement: a missing table or column, in DuckDB's words
    refuse_missing = partial(probe.refuse_missing, executor, resolved, columns, tables)
    with executor.own_work():  # a failure undoes only our statements: the caller's transaction goes on
        try:
            found = probe.before(executor, resolved, columns, tables)
            segmented = found.check(resolved, columns)
            as_text = conventions.ids_as_text(resolved.convention)
            id_forms, seen_item_type = found.id_hints(executor, columns, as_text=as_text)
            item_type = item_type or seen_item_type
            if item_type is None and resolved.item_type_matters:  # the byte-order tie-break of Postgres and Snowflake
                item_type = probe.item_type(executor, columns, tables)
            seen = context.Seen(segmented_judgments=segmented, item_type=item_type, id_forms=id_forms)
            rendered = plan.reading_input_once(context.render(resolved, tables.ranking, tables.judgments, seen))
            return compute(executor, rendered, counted, refuse_missing)
        except StatementFailed as failed:  # a statement besides the metric's (the probes, the checks' own)
            refuse_missing()
            cause = failed.__cause__ or failed
            raise InputError(local.engine_failure(target.name, table, judgments, options, cause, checks)) from failed.__cause__
