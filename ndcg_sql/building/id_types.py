"""How query and item ids are compared: the one rule for the types ids arrive in.

Ids are compared, grouped and ordered (the item-id tie-break) in the normalised relation
(``sql/normalised_rows.sql.j2``), never by an engine's implicit cast. The rule is written once,
as the macros of ``sql/options/id_forms.sql`` that the Python runner, ``to_sql`` and the dbt
macros render alike; it decides from the id columns' types, and the forms it chooses are
rendered as explicit casts (``sql/ids.sql.j2``):

* Both sides of a role (the ranking's and the judgments' query ids; their item ids) of the
  same kind, whole numbers or text: compared as they are.
* Otherwise, or when a column is categorical (pandas ``Categorical``, an Arrow/Parquet
  dictionary, a DuckDB ``ENUM``: DuckDB reads all three as ENUM), JSON, a fractional number,
  a date, a time or a UUID: both sides are compared as text in the form a TREC file would
  hold, as trec_eval reads every id as a string (trec_eval, ``get_qrels.c``/``get_trec_results.c``):
  a whole number as its decimal digits (``7``, and ``1.0`` as ``1``), a text as it is (so
  ``"07"`` is not ``7`` and ``"q1"`` is not ``1``), a JSON string as its text and a JSON number
  as a number (one JSON column holding ``1``, ``"1"`` and ``1.0`` holds one id, ``1``).
  Item ids compared as text tie-break in the byte order of their text, never in a category order.
* Ids of other types (lists, structs, maps, blobs) are refused with an
  :class:`~ndcg_sql.vocabulary.errors.InputError` naming the columns and their types.

Where the types come from:

* DuckDB (``evaluate`` on data or a DuckDB connection): the inspected column types
  (``inputs.load``).
* A warehouse (``evaluate(table, judgments=..., con=..., dialect=...)``): with judgments, one
  statement that reads no row (``SELECT`` the four id columns and the judgments' columns
  ``FROM`` the two tables ``WHERE 1 = 0``) tells the types through the driver's result
  metadata (a DB-API ``cursor.description`` type code and scale; a SparkSession's schema),
  mapped to the kinds of :func:`kind` by the engine's row of :mod:`ndcg_sql.vocabulary.dialects`
  (``id_types``, :func:`warehouse_kind`). A type code that row does not list (a JSON or
  VARIANT column, a user type, another driver) leaves that role's ids compared as stored,
  as before. Without judgments a column is only compared with itself: as stored. The same
  forms are rendered (``sql/ids.sql.j2``) and transpiled by sqlglot; another engine's JSON
  columns are never read in the ``json_text`` form (its SQL is DuckDB's: only a DuckDB
  connection given as a warehouse reads its JSON and ENUM ids as the DuckDB path does).
* ``to_sql(id_types=...)``: the columns' types as the engine writes them ("INT64",
  "NUMBER(38,0)", "character varying"), read by the engine's row of type names
  (:mod:`ndcg_sql.vocabulary.dialects`, ``type_names``); without them ids are compared as stored.
* The dbt macros: with judgments given as relations (``ref()``, ``source()``), the types dbt's
  adapter reads (``adapter.get_columns_in_relation``) when the model is executed, by the same row
  of type names; a CTE's name, or ``dbt compile --no-introspect``, leaves ids compared as stored.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple

from .context import option_macros
from ..vocabulary.errors import OptionError

#: The id columns whose types ``to_sql(id_types=...)`` takes (sql/options/id_forms.sql, _id_sides).
ROLES = ("query", "item", "judgments_query", "judgments_item")

#: The forms an id column is read in (sql/ids.sql.j2 writes each): as stored, as text, a number
#: as its canonical text, a JSON value as its canonical text.
FORMS = ("native", "text", "number_text", "json_text")


def _rule(dialect: str = "duckdb"):
    """The macros of the rule (``sql/options/id_forms.sql``), rendered for ``dialect``'s type names."""
    return option_macros(dialect)


def kind(type_name: str) -> str:
    """'integer', 'text', 'fraction', 'enum', 'json', 'text_like' or 'other' for a DuckDB type name
    (``_id_kind`` of ``sql/options/id_forms.sql`` with DuckDB's row of type names)."""
    return _rule()._id_kind(type_name)


class ColumnType(NamedTuple):
    """A column's type as a warehouse's driver reports it (:mod:`ndcg_sql.vocabulary.dialects`, ``id_types``)."""

    code: object  # a DB-API type code, or Spark's type name
    scale: object = None  # a fixed-point number's scale, when the driver tells it
    shown: str | None = None  # the type as the engine writes it, when known

    def __str__(self) -> str:
        return self.shown or f"of type code {self.code!r}"


def warehouse_kind(dialect, column: ColumnType) -> str | None:
    """The kind (:func:`kind`) of a warehouse column, by the engine's type codes (``dialect.id_types``);
    None for a code not listed (then ids are compared as stored)."""
    code, scale = column.code, column.scale
    if isinstance(code, str) and "(" in code:  # a type name with its parameters: DECIMAL(18,3)
        code, parameters = code.split("(", 1)[0].strip(), code.split("(", 1)[1].rstrip(")").split(",")
        if scale is None and len(parameters) == 2 and parameters[1].strip().isdigit():
            scale = int(parameters[1])
    for found, codes in dialect.id_types:
        if code in codes:
            if found == "decimal":
                return "integer" if scale == 0 else "fraction"
            return found
    return None


class Forms(NamedTuple):
    """What the rule decided: how each id column is read, and the item ids' type as the SQL reads them."""

    forms: dict[str, str]  # {"run_query", "run_item", "j_query", "j_item": a form of FORMS}
    item_type: str | None  # "number" or "text" (the byte-order tie-break); None: not known


def forms(run_types: Mapping[str, Any], judgment_types: Mapping[str, Any] | None, columns,
          as_text: bool = False, kind_of: Callable[[Any], str | None] = kind) -> Forms:
    """How each id column is read (``_id_forms`` of ``sql/options/id_forms.sql``, the one rule),
    and the item ids' type as the SQL then reads them.

    Args:
        run_types, judgment_types: DuckDB type name by column name (``inputs.load``), or a
            warehouse driver's :class:`ColumnType`.
        columns: a :class:`ndcg_sql.building.validation.Columns` (the user's column names by role).
        as_text: compare every id as text, whatever its type (a convention's ``ids="text"``,
            :mod:`ndcg_sql.vocabulary.conventions`: trec_eval's docnos are strings).
        kind_of: the kind of a column type (default :func:`kind`, of a DuckDB type name; a
            warehouse's: :func:`warehouse_kind`); None (a type not known): that role's ids
            are compared as stored.

    Returns:
        :class:`Forms`: {"run_query", "run_item", "j_query", "j_item" (the judgments' only with
        judgments): a form of :data:`FORMS`}, and "number", "text" or None.

    Raises:
        InputError: an id column of a type that has no text form (a list, a struct, a map,
            a blob), named with its type and the other side's column and type.
    """
    sides = {"query": [("run_query", "ranking", columns.query, run_types)],
             "item": [("run_item", "ranking", columns.item, run_types)]}
    if judgment_types is not None:
        sides["query"].append(("j_query", "judgments", columns.j_query, judgment_types))
        sides["item"].append(("j_item", "judgments", columns.j_item, judgment_types))
    given = {role: [{"key": key, "where": where, "name": name, "type": str(types[name]), "kind": kind_of(types[name])}
                    for key, where, name, types in columns_of_role]
             for role, columns_of_role in sides.items()}
    found = _rule()._id_forms(given, as_text)
    return Forms(found["forms"], found["item_type"])


def pair_forms(type_a: str, type_b: str) -> tuple[str, str]:
    """The forms of two query columns (DuckDB type names) joined with each other (e.g. two runs'
    per-query rows in :func:`ndcg_sql.compare`): the rule of :func:`forms`."""
    given = {"query": [{"key": key, "where": key, "name": key, "type": type_name, "kind": kind(type_name)}
                       for key, type_name in (("a", type_a), ("b", type_b))]}
    found = _rule()._id_forms(given)["forms"]
    return found["a"], found["b"]


def type_names(given: Mapping[str, str] | Iterable[str]) -> dict[str, str]:
    """``to_sql``'s id_types as {role: type name}: a mapping, or texts "role=TYPE" (the command line).

    Raises:
        OptionError: a role not in :data:`ROLES`, or a type name that is not a non-empty text.
    """
    try:
        pairs = dict(given.items() if isinstance(given, Mapping) else
                     (text.split("=", 1) for text in ([given] if isinstance(given, str) else given)))
    except (AttributeError, TypeError, ValueError):
        raise OptionError(f"id_types must give id columns' types, e.g. {{'query': 'INT64'}} or "
                          f"['query=INT64']; got {given!r}") from None
    for role, type_name in pairs.items():
        if role not in ROLES:
            raise OptionError(f"id_types takes the roles {', '.join(ROLES)}; got {role!r}")
        if not isinstance(type_name, str) or not type_name.strip():
            raise OptionError(f"id_types[{role!r}] must be a type name as the engine writes it; got {type_name!r}")
    return pairs
