"""How query and item ids are compared: the one rule for the types ids arrive in.

Ids are compared, grouped and ordered (the item-id tie-break) in the normalised relation
(``sql/normalised_rows.sql.j2``), never by an engine's implicit cast. The rule, decided here
from the column types the runner inspected and rendered there as explicit casts
(``sql/ids.sql.j2``):

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
  :class:`~ndcg_sql.errors.InputError` naming the columns and their types.

Where the types come from:

* DuckDB (``evaluate`` on data or a DuckDB connection): the inspected column types
  (``inputs.load``).
* A warehouse (``evaluate(table, judgments=..., con=..., dialect=...)``): with judgments, one
  statement that reads no row (``SELECT`` the four id columns and the judgments' columns
  ``FROM`` the two tables ``WHERE 1 = 0``) tells the types through the driver's result
  metadata (a DB-API ``cursor.description`` type code and scale; a SparkSession's schema),
  mapped to the kinds of :func:`kind` by the engine's row of :mod:`ndcg_sql.dialects`
  (``id_types``, :func:`warehouse_kind`). A type code that row does not list (a JSON or
  VARIANT column, a user type, another driver) leaves that role's ids compared as stored,
  as before. Without judgments a column is only compared with itself: as stored. The same
  forms are rendered (``sql/ids.sql.j2``) and transpiled by sqlglot; another engine's JSON
  columns are never read in the ``json_text`` form (its SQL is DuckDB's: only a DuckDB
  connection given as a warehouse reads its JSON and ENUM ids as the DuckDB path does).
* ``to_sql`` and the dbt macros do not inspect types: there the ids are compared as stored
  (``item_type`` tells whether item ids are text, for the byte-order tie-break).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .errors import InputError

#: DuckDB type names of whole-number columns.
INTEGER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
                 "UINTEGER", "UBIGINT", "UHUGEINT")
#: Numbers that may hold a fraction (a whole one is written as an integer).
FRACTION_TYPES = ("FLOAT", "DOUBLE", "DECIMAL")
#: Types whose text (CAST AS VARCHAR) is the id a user sees.
TEXT_LIKE_TYPES = ("BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_NS",
                   "TIMESTAMP_MS", "TIMESTAMP_S", "UUID", "INTERVAL")
#: DuckDB's type names by kind: the one table :func:`kind` reads, and the DuckDB row of the
#: warehouse type codes (:mod:`ndcg_sql.dialects`, a DuckDB connection given as a warehouse).
#: A name not listed is "other" (lists, structs, maps, blobs: no text form).
DUCKDB_KINDS = (
    ("integer", INTEGER_TYPES),
    ("text", ("VARCHAR",)),
    ("fraction", FRACTION_TYPES),
    ("enum", ("ENUM",)),
    ("json", ("JSON",)),
    ("text_like", TEXT_LIKE_TYPES),
)

#: The forms an id column is read in (sql/ids.sql.j2 writes each): as stored, as text, a number
#: as its canonical text, a JSON value as its canonical text.
FORMS = ("native", "text", "number_text", "json_text")


def kind(type_name: str) -> str:
    """'integer', 'text', 'fraction', 'enum', 'json', 'text_like' or 'other' for a DuckDB type name."""
    base = type_name.split("(")[0].strip().upper()
    return next((found for found, names in DUCKDB_KINDS if base in names), "other")


_AS_TEXT = {"integer": "text", "text": "native", "fraction": "number_text", "enum": "text",
            "json": "json_text", "text_like": "text"}


class ColumnType(NamedTuple):
    """A column's type as a warehouse's driver reports it (:mod:`ndcg_sql.dialects`, ``id_types``)."""

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


def item_type(form: str, found_kind: str | None) -> str | None:
    """The item ids' type as the SQL reads them ("number" or "text", for the byte-order
    tie-break), from their form and kind; None when the kind is not known."""
    if found_kind is None:
        return None
    return "number" if form == "native" and found_kind in ("integer", "fraction") else "text"


def forms(run_types: dict[str, str], judgment_types: dict[str, str] | None, columns,
          as_text: bool = False, kind_of: Callable[[object], str | None] = kind) -> dict[str, str]:
    """How each id column is read: {"run_query", "run_item", "j_query", "j_item": a form of :data:`FORMS`}
    (the judgments' only with judgments).

    Args:
        run_types, judgment_types: DuckDB type name by column name (``inputs.load``).
        columns: a :class:`ndcg_sql.checking.Columns` (the user's column names by role).
        as_text: compare every id as text, whatever its type (a convention's ``ids="text"``,
            :mod:`ndcg_sql.conventions`: trec_eval's docnos are strings).
        kind_of: the kind of a column type (default :func:`kind`, of a DuckDB type name; a
            warehouse's: :func:`warehouse_kind`); None (a type not known): that role's ids
            are compared as stored.

    Raises:
        InputError: an id column of a type that has no text form (a list, a struct, a map,
            a blob), named with its type and the other side's column and type.
    """
    found = {}
    pairs = {"query": [("run_query", "ranking", columns.query, run_types)],
             "item": [("run_item", "ranking", columns.item, run_types)]}
    if judgment_types is not None:
        pairs["query"].append(("j_query", "judgments", columns.j_query, judgment_types))
        pairs["item"].append(("j_item", "judgments", columns.j_item, judgment_types))
    for role, sides in pairs.items():
        kinds = [kind_of(types[name]) for _, _, name, types in sides]
        for (key, where, name, types), found_kind in zip(sides, kinds):
            if found_kind == "other":
                described = " and ".join(f"the {w}{chr(39) if w.endswith('s') else chr(39) + 's'} {n!r} is {t[n]}"
                                         for _, w, n, t in sides)
                raise InputError(f"{role} ids must be numbers or text: {described}; "
                                 f"column {name!r} of the {where} has no text form to compare")
        chosen = ["native"] * len(sides) if None in kinds else _forms_of(kinds, as_text)
        for (key, _, _, _), form in zip(sides, chosen):
            found[key] = form
    return found


def _forms_of(kinds: list[str], as_text: bool = False) -> list[str]:
    """The forms of columns compared with each other, by their kinds (:func:`kind`)."""
    same = len(set(kinds)) == 1 and kinds[0] in (("text",) if as_text else ("integer", "text", "fraction"))
    return ["native" if same else _AS_TEXT.get(found, "text") for found in kinds]


def pair_forms(type_a: str, type_b: str) -> tuple[str, str]:
    """The forms of two query columns joined with each other (e.g. two runs' per-query rows in
    :func:`ndcg_sql.compare`): the rule of :func:`forms`."""
    first, second = _forms_of([kind(type_a), kind(type_b)])
    return first, second

