"""What the warehouse runner learns of the input tables without reading a row: their columns
(the ones the options name must exist: :mod:`ndcg_sql.building.validation` words what is missing, as on
DuckDB) and the id columns' types, from the driver's result metadata, hence how the ids are
compared (the rule of :mod:`ndcg_sql.building.id_types`, the engine's type codes in :mod:`ndcg_sql.vocabulary.dialects`).

Before the metric's statement (:func:`before`), where it costs no round trip of its own: with
judgments, one statement naming both tables (the ranking's named columns, then every column of
the judgments, ``WHERE 1 = 0``), which the id columns' types need anyway; on Spark, the tables'
schemas (no statement: pyspark logs the whole plan of a statement whose analysis fails). After
a statement failed (:func:`refuse_missing`): each table's columns, for the message. When the
SQL differs by the item ids' type and nothing else told it (:func:`item_type`): one item id.
Each reads the tables by name (:class:`Tables`) and the resolved options: the templates' context
is rendered once, after, with what these show (:class:`ndcg_sql.building.context.Seen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from ..building import id_types, validation

from ..vocabulary import identifiers
from ..building.context import Resolved
from ..vocabulary.errors import InputError
from .executors import StatementFailed, Warehouse


class Tables(NamedTuple):
    """The input tables: as the DuckDB source quotes them (:func:`ndcg_sql.building.sql_text.table_name`;
    the judgments None without), and as the user named them (for messages)."""

    ranking: str
    judgments: str | None
    given: tuple


@dataclass(frozen=True)
class Found:
    """The columns found: by name as the user writes it (:func:`ndcg_sql.vocabulary.identifiers.as_written`),
    their types; None: that table's columns were not read. The ranking's may be only the ones
    the options name (all there: the probe would have failed otherwise)."""

    ranking: dict[str, id_types.ColumnType] | None
    judgments: dict[str, id_types.ColumnType] | None

    def check(self, resolved: Resolved, columns: validation.Columns) -> bool:
        """The columns the options name exist, as :mod:`ndcg_sql.building.validation` checks them on DuckDB
        (:func:`~ndcg_sql.building.validation.require_columns`, :func:`~ndcg_sql.building.validation.segmented_judgments`),
        on the tables whose columns were read. True when the judgments carry the segment columns.

        Raises:
            InputError: DuckDB's message for a missing column, or for segment columns only partly
                in the judgments (or absent with missing_queries="zero").
        """
        if self.ranking is None:
            return False
        validation.require_columns(self.ranking, self.judgments, columns, resolved.options.input_kind)
        return validation.segmented_judgments(self.ranking, self.judgments, resolved.segments,
                                            resolved.options.missing_queries)

    def id_hints(self, executor: Warehouse, columns: validation.Columns, as_text: bool) -> tuple[dict | None, str | None]:
        """With judgments, after :meth:`check`: how the ids of the ranking and the judgments are
        compared (:func:`ndcg_sql.building.id_types.forms`; :attr:`ndcg_sql.building.context.Seen.id_forms`),
        and the item ids' type as the SQL reads them ("number", "text"; None: not known).
        Without judgments: (None, None).

        Raises:
            InputError: an id column has no text form.
        """
        ranking, judgments = self.ranking, self.judgments
        if ranking is None or judgments is None:
            return None, None
        found = id_types.forms({name: ranking[name] for name in (columns.query, columns.item)},
                               {name: judgments[name] for name in (columns.j_query, columns.j_item) if name is not None},
                               columns,
                               as_text=as_text, kind_of=partial(id_types.warehouse_kind, executor.dialect))
        return found.forms, found.item_type


def _named(resolved: Resolved, columns: validation.Columns) -> list[str]:
    """Every column name the options give, as the user writes it."""
    names = [*columns.roles().values(), *resolved.segments]
    if columns.label_expression is not None:
        names += columns.label_expression.columns
    return [name for name in names if isinstance(name, str) and name]


def _ranking_columns(resolved: Resolved, columns: validation.Columns) -> list[str]:
    """The ranking's columns the options name, each once."""
    ranking, _ = validation.wanted_columns(columns, resolved.options.input_kind, resolved.options.judgments)
    return list(dict.fromkeys([name for _, name in ranking] + list(resolved.segments)))


def statement(tables: Tables, ranking_columns: list[str], fold: str | None = None) -> str:
    """The probe (DuckDB source): the ranking's named columns (under names of ours; ``fold``: the
    engine's case rule), then every column of the judgments, of the two tables joined under a
    condition that is false, so no row is read."""
    named = ", ".join(f"r.{identifiers.quote(name, 'duckdb', fold)} AS ndcg_sql_ranking_{number}"
                      for number, name in enumerate(ranking_columns, 1))
    return f"SELECT {named}, j.* FROM {tables.ranking} AS r CROSS JOIN {tables.judgments} AS j WHERE 1 = 0"


def _table(executor: Warehouse, resolved: Resolved, columns: validation.Columns, relation: str, given,
           judgments: bool) -> dict:
    """One table's columns (the ranking, or the judgments), all of them.

    Raises:
        InputError: the engine cannot read the table, named as the user gave it.
    """
    try:
        names, types = executor.table_columns(relation)
    except StatementFailed as failed:
        shown = given if isinstance(given, str) else list(given)
        raise InputError(f"the {'judgments' if judgments else 'ranking'} {shown!r} is not a table or view "
                         f"{executor.dialect.name} can read: {failed}") from failed.__cause__
    return dict(zip(_written(executor, resolved, columns, names), types))


def _written(executor: Warehouse, resolved: Resolved, columns: validation.Columns, names) -> list[str]:
    target = executor.dialect
    return identifiers.as_written([str(name) for name in names], _named(resolved, columns), target.fold,
                                  target.columns_ignore_case)


def before(executor: Warehouse, resolved: Resolved, columns: validation.Columns, tables: Tables) -> Found:
    """The columns of the inputs, read before the metric's statement where that costs no round
    trip of its own: with judgments, the statement the id columns' types need (:func:`statement`);
    on Spark, the tables' schemas; else nothing (the metric's statement is the first sent).

    Args:
        resolved: the options of the run (:func:`ndcg_sql.building.context.resolve`).
        columns: a :class:`ndcg_sql.building.validation.Columns` of the user's column names.
        tables: the ranking and the judgments (:class:`Tables`).

    Raises:
        InputError: the engine cannot read a table (named as given).
        StatementFailed: the probe's statement failed (a missing column or table:
            :func:`refuse_missing` tells which).
    """
    if executor.reads_schemas:
        return _found(executor, resolved, columns, tables)
    if tables.judgments is None:
        return Found(None, None)
    ranking = _ranking_columns(resolved, columns)
    names, types = executor.column_types(statement(tables, ranking, executor.dialect.fold))
    judgments = dict(zip(_written(executor, resolved, columns, names[len(ranking):]), types[len(ranking):]))
    return Found(dict(zip(ranking, types)), judgments)


def item_statement(tables: Tables, item_col: str, fold: str | None = None) -> str:
    """The item probe (DuckDB source): one item id of the ranking, as stored (``fold``: the
    engine's case rule)."""
    item = identifiers.quote(item_col, "duckdb", fold)
    return f"SELECT {item} FROM {tables.ranking} WHERE {item} IS NOT NULL LIMIT 1"


def item_type(executor: Warehouse, columns: validation.Columns, tables: Tables) -> str:
    """The ranking's item ids' type as the SQL reads them, from one id (a statement reading one
    row, :func:`item_statement`): "text" when it comes as a string, else "number" (no id: "number"). For when the column's
    type tells nothing (:meth:`Found.id_hints`); the ids are then read as stored (the rule of
    :mod:`ndcg_sql.building.id_types` leaves a column of a type not known so), as the SQL reads them.

    Raises:
        StatementFailed: the statement failed (a missing column or table: :func:`refuse_missing`).
    """
    statement = item_statement(tables, columns.item, executor.dialect.fold)
    _, rows = executor.fetch(statement)
    return "text" if rows and isinstance(rows[0][0], str) else "number"


def refuse_missing(executor: Warehouse, resolved: Resolved, columns: validation.Columns, tables: Tables) -> None:
    """After a statement failed: read each input table's columns (a statement reading no row each;
    on Spark, the schemas) and raise DuckDB's message when a column the options name is missing
    (:meth:`Found.check`), or the table cannot be read; return when nothing is missing.

    Raises:
        InputError: as :meth:`Found.check`, or a table the engine cannot read (named as given).
    """
    _found(executor, resolved, columns, tables).check(resolved, columns)


def _found(executor: Warehouse, resolved: Resolved, columns: validation.Columns, tables: Tables) -> Found:
    """Each table's columns, all of them (:func:`_table`)."""
    ranking, judgments = tables.given
    return Found(_table(executor, resolved, columns, tables.ranking, ranking, False),
                 None if tables.judgments is None else
                 _table(executor, resolved, columns, tables.judgments, judgments, True))
