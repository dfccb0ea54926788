"""What the warehouse runner learns of a ranking and its judgments before its statement, from one
statement that reads no row (``WHERE 1 = 0``): the judgments' columns (whether they carry the
segment columns) and the id columns' types, from the driver's result metadata, hence how the ids
are compared (the rule of :mod:`ndcg_sql.id_types`, the engine's type codes in
:mod:`ndcg_sql.dialects`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from . import id_types
from .errors import InputError, first_line


@dataclass(frozen=True)
class Judged:
    """What the probe found."""

    judgment_columns: list[str]  # the judgments' columns as the engine stores them
    id_forms: dict[str, str]  # by id_types.forms
    item_type: str | None  # "number" or "text" as the SQL reads item ids; None: not known


def statement(context: dict) -> str:
    """The probe (DuckDB source): the four id columns, then every column of the judgments,
    of the two tables joined under a condition that is false, so no row is read."""
    return (f"SELECT r.{context['query_col']} AS run_query, r.{context['item_col']} AS run_item, "
            f"j.{context['j_query_col']} AS judged_query, j.{context['j_item_col']} AS judged_item, j.* "
            f"FROM {context['run_relation']} AS r CROSS JOIN {context['judgments_relation']} AS j WHERE 1 = 0")


def judged(executor, context: dict, columns, as_text: bool = False) -> Judged:
    """Probe a ranking and its judgments on a warehouse (:class:`ndcg_sql.executors.Warehouse`).

    Args:
        context: the templates' context of the run (its relations and quoted id columns).
        columns: a :class:`ndcg_sql.checking.Columns` with the judgments' columns.
        as_text: the convention compares ids as text (``ids="text"``).

    Raises:
        InputError: the engine refused the probe (an unknown table or column), or an id column
            has no text form (:func:`ndcg_sql.id_types.forms`).
    """
    try:
        names, types = executor.column_types(statement(context))
    except Exception as failure:  # the engine's own error, as its first line
        executor.recover()
        raise InputError(
            f"{executor.dialect.name} could not read the id columns ({columns.query!r}, {columns.item!r}) of the "
            f"ranking and the judgments: {first_line(failure)}") from failure
    kind_of = partial(id_types.warehouse_kind, executor.dialect)
    found = id_types.forms({columns.query: types[0], columns.item: types[1]},
                           {columns.j_query: types[2], columns.j_item: types[3]}, columns,
                           as_text=as_text, kind_of=kind_of)
    return Judged([str(name) for name in names[4:]], found.forms, found.item_type)
