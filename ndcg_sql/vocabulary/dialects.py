"""What differs per SQL engine, as data: one row per dialect, no if/else elsewhere.

The metric SQL is written once, for DuckDB, in ``sql/``; sqlglot transpiles it
to the other engines with ``unsupported_level=RAISE``. Only the few things that
sqlglot cannot know are listed here and handed to the templates through their
context (``ndcg_sql.building.sql_text``):

* ``byte_order`` - how to make string item ids compare in byte order for the
  item-id tie-break (``ties="item-asc"/"item-desc"``). Written in DuckDB syntax
  (sqlglot parses it into a ``Collate`` node and writes each engine's form).
  DuckDB, BigQuery and Spark compare strings by their UTF-8 bytes already;
  Postgres uses the database collation (often ICU or glibc ``en_US``), so the
  "C" collation is forced; Snowflake may have a default collation set on the
  account, database or table, so ``COLLATE(item, 'utf8')`` (byte order) is
  forced. Redshift compares VARCHAR by bytes and has no COLLATE clause.
* ``fold`` - what the engine does to an unquoted name: Snowflake upper-cases
  it, Postgres and Redshift lower-case it. A plain name given by the user
  (letters, digits, underscores) is folded the same way before it is quoted, so
  ``query_id`` finds the Snowflake column created as ``query_id`` (stored
  ``QUERY_ID``); any other name is kept exactly as given.
* ``columns_ignore_case`` - whether a quoted column name finds a column whatever its case:
  BigQuery, Spark (``spark.sql.caseSensitive`` is off by default), DuckDB, and Redshift (which
  folds quoted names too unless ``enable_case_sensitive_identifier`` is on); on Snowflake and
  Postgres a quoted name is exact. The warehouse runner matches the user's names to the columns
  it finds (:mod:`ndcg_sql.running.probe`) by this rule after ``fold``.
* ``name_parts`` - the parts of a qualified table name, outermost first
  (BigQuery ``project.dataset.table``, Snowflake/Postgres ``db.schema.table``,
  Spark ``catalog.schema.table``). Every part is quoted separately.
* ``float32`` - whether the engine has a 4-byte float type (what sqlglot writes
  for DuckDB's ``FLOAT``), needed to compare scores as float32 (trec_eval's and
  XGBoost's conventions). BigQuery has none, and Snowflake's ``FLOAT`` is a double.
* ``nan`` - how to test a DOUBLE for NaN, in DuckDB syntax: ``x = NaN`` is
  true on DuckDB, Snowflake, Spark and Postgres (NaN equals itself there),
  false on BigQuery, which has IS_NAN. Redshift's DOUBLE PRECISION takes no NaN
  in practice, and the Postgres form is harmless there.
* ``try_double`` - the number a text value holds, NULL when it holds none,
  in DuckDB syntax ("{x}" is the value cast to text): TRY_CAST where the
  engine has it (sqlglot writes SAFE_CAST for BigQuery), a regular-expression
  guard on Postgres and Redshift, which have no TRY_CAST.
* ``text`` - the text type values are cast to for ``try_double`` (sqlglot
  writes VARCHAR(MAX) for Redshift, whose plain VARCHAR holds 256 bytes).
* ``top_n`` - the engine has a top-N aggregate, DuckDB's ``MAX(x, n)`` (the n largest values of
  a group as a list): with numeric cutoffs and long lists the metric SQL ranks only each query's
  top tie groups (``sql/top_items.sql.j2``); elsewhere every item is ranked by a window.
* ``position_lists`` - the engine has lists indexed by position, built by an ordered aggregate
  (DuckDB's ``LIST(x ORDER BY n)[i]``) over a generated range: with the whole list (or a cutoff past
  the top positions) on long lists, whole-number gains and few labels, the ideal ranking's DCG past
  the top positions is read from one prefix table of the discount per label, and the run's is a
  conditional exact sum in the per-query group-by (``sql/ideal_items.sql.j2``,
  ``sql/dcg_at_cutoffs.sql.j2``: one sort in all); elsewhere both rankings' positions past the top
  are summed by a running sum in position order.
* ``aborts_transaction`` - a failed statement aborts the connection's open transaction, which
  then refuses every statement until it is rolled back, and a rollback discards the caller's
  uncommitted work with ours (Postgres, Redshift, DuckDB; Snowflake rolls back the failed
  statement only, BigQuery's and Spark's statements are each their own).
* ``savepoints`` - the engine has ``SAVEPOINT`` / ``ROLLBACK TO SAVEPOINT`` (Postgres). Where a
  failure aborts the transaction, the package's statements on a caller's connection run inside a
  savepoint of their own, so that a failure undoes only them and the caller's transaction goes
  on; an engine that aborts but has no savepoint (Redshift, DuckDB) refuses to run inside an open
  transaction instead of discarding it (``executors.own_work``; docs/safety.md).
* ``id_types`` - what the engine's driver reports as a column's type (a DB-API
  ``cursor.description`` type code; a SparkSession's ``DataType.typeName()``), by the kind
  of id it holds (:func:`ndcg_sql.building.id_types.kind`): the warehouse runner reads the id
  columns' types from a statement that reads no row (``WHERE 1 = 0``) and compares ids by
  the rule of :mod:`ndcg_sql.building.id_types`. "decimal" is a whole number at scale 0 (the
  description's ``scale``), else a fraction. A code not listed (a JSON, VARIANT or user
  type, or another driver's codes) leaves those ids compared as stored.
* ``type_names`` - the same kinds by the engine's type names as its SQL and catalog write them
  (``information_schema``, ``DESCRIBE``; what dbt's ``adapter.get_columns_in_relation`` gives and
  ``to_sql(id_types=...)`` takes), read by ``_id_kind`` in ``sql/options/id_forms.sql``: the base
  name before ``(`` or ``<``, upper case ("NUMBER(38,0)" is NUMBER at scale 0, "array<int>" is
  ARRAY); a name ending in ``[]`` is a list (no text form). A name not listed is not known
  (compared as stored), except on DuckDB, which names every type it has: "other" there.

The dbt macros cannot call sqlglot: ``tools/dbt_gen.py`` (a build tool) turns this table
(with sqlglot's spelling of each type and expression) into per-engine dbt
macros (``dbt_macros/macros/generated/tmpl_dialects.sql``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import OptionError


@dataclass(frozen=True)
class Dialect:
    """One engine's differences (see the module docstring for each field)."""

    name: str
    sqlglot: str
    byte_order: str  # DuckDB-syntax template, "{item}" is the item column
    fold: str | None  # "upper", "lower" or None (names kept as given)
    name_parts: tuple[str, ...]
    columns_ignore_case: bool = False
    float32: bool = True
    nan: str = "{x} = CAST('NaN' AS DOUBLE)"
    try_double: str = "TRY_CAST({x} AS DOUBLE)"
    text: str = "VARCHAR"  # a text type any value casts to (sqlglot writes Redshift's as VARCHAR(MAX))
    aborts_transaction: bool = False
    savepoints: bool = False
    top_n: bool = False
    position_lists: bool = False
    id_types: tuple[tuple[str, tuple], ...] = ()  # (kind, the driver's type codes of that kind)
    type_names: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (kind, the engine's type names of that kind)


#: Postgres/Redshift: a text holding a number as their float8 input accepts it
#: (decimal or exponent notation, NaN, Infinity), then cast; else NULL.
_POSTGRES_NUMBER = (
    "CASE WHEN REGEXP_MATCHES(TRIM({x}), '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?"
    "|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$') THEN CAST(TRIM({x}) AS DOUBLE) END"
)


#: DuckDB type names of whole-number columns.
INTEGER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
                 "UINTEGER", "UBIGINT", "UHUGEINT")
#: Numbers that may hold a fraction (a whole one is written as an integer).
FRACTION_TYPES = ("FLOAT", "DOUBLE", "DECIMAL")
#: Types whose text (CAST AS VARCHAR) is the id a user sees.
TEXT_LIKE_TYPES = ("BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_NS",
                   "TIMESTAMP_MS", "TIMESTAMP_S", "UUID", "INTERVAL")
#: DuckDB's type names by kind: the one table of DuckDB's row of type names (``_DUCKDB_NAMES``,
#: what :func:`ndcg_sql.building.id_types.kind` reads) and of its type codes (``_DUCKDB_TYPES``, a DuckDB
#: connection given as a warehouse).
#: A name not listed is "other" (lists, structs, maps, blobs: no text form).
DUCKDB_KINDS = (
    ("integer", INTEGER_TYPES),
    ("text", ("VARCHAR", "CHARACTER VARYING", "TEXT", "STRING", "CHAR", "BPCHAR")),  # VARCHAR and its aliases
    ("fraction", FRACTION_TYPES),
    ("enum", ("ENUM",)),
    ("json", ("JSON",)),
    ("text_like", TEXT_LIKE_TYPES),
)


#: Postgres type OIDs (pg_type), as psycopg, psycopg2 and redshift_connector report them.
_POSTGRES_TYPES = (
    ("integer", (20, 21, 23, 26)),  # int8, int2, int4, oid
    ("text", (18, 19, 25, 1042, 1043)),  # "char", name, text, bpchar, varchar
    ("fraction", (700, 701)),  # float4, float8
    ("decimal", (1700,)),  # numeric
    ("text_like", (16, 1082, 1083, 1114, 1184, 1186, 1266, 2950)),  # bool, date, time(tz), timestamp(tz), interval, uuid
    ("other", (17, 1000, 1001, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1231)),  # bytea, arrays
)
#: snowflake.connector's type codes (``snowflake.connector.constants.FIELD_TYPES``; fakesnow's too).
_SNOWFLAKE_TYPES = (
    ("decimal", (0,)),  # FIXED: NUMBER(p, s)
    ("fraction", (1,)),  # REAL
    ("text", (2,)),  # TEXT
    ("text_like", (3, 4, 6, 7, 8, 12, 13)),  # DATE, TIMESTAMP(_LTZ/_TZ/_NTZ), TIME, BOOLEAN
    ("other", (9, 10, 11, 14, 15, 16, 17)),  # OBJECT, ARRAY, BINARY, GEOGRAPHY, GEOMETRY, VECTOR, MAP
)
#: google.cloud.bigquery.dbapi's type codes: the result schema's field types (legacy and standard names).
_BIGQUERY_TYPES = (
    ("integer", ("INTEGER", "INT64")),
    ("text", ("STRING",)),
    ("fraction", ("FLOAT", "FLOAT64")),
    ("decimal", ("NUMERIC", "BIGNUMERIC", "DECIMAL", "BIGDECIMAL")),
    ("text_like", ("BOOLEAN", "BOOL", "DATE", "TIME", "DATETIME", "TIMESTAMP", "INTERVAL")),
    ("other", ("BYTES", "RECORD", "STRUCT", "GEOGRAPHY", "RANGE")),
)
#: pyspark's ``DataType.typeName()``, and databricks-sql-connector's type codes (Hive type names).
_SPARK_TYPES = (
    ("integer", ("byte", "short", "integer", "long", "tinyint", "smallint", "int", "bigint")),
    ("text", ("string", "varchar", "char")),
    ("fraction", ("float", "double")),
    ("decimal", ("decimal",)),
    ("text_like", ("boolean", "date", "timestamp", "timestamp_ntz")),
    ("other", ("binary", "array", "map", "struct")),
)
#: DuckDB's own DB-API cursor (a DuckDB connection given as a warehouse, dialect "duckdb"):
#: DuckDB's type names as :mod:`ndcg_sql.building.id_types` reads them (``DUCKDB_KINDS``), after what
#: only the cursor tells: "DECIMAL(18,3)" is "DECIMAL" at scale 3 (a whole number at scale 0),
#: and DuckDB before 1.1 told only "NUMBER" (read as a fraction: its text form is right for
#: whole numbers too) and "STRING". The first row naming a code decides.
_DUCKDB_TYPES = (
    ("decimal", ("DECIMAL",)),
    ("text", ("STRING",)),
    ("fraction", ("NUMBER",)),
) + DUCKDB_KINDS + (("other", ("BLOB", "BIT")),)


#: Type names (upper case, before any "(" or "<") by kind, as each engine's catalog writes them.
#: Postgres's information_schema writes "ARRAY" for every array and "USER-DEFINED" for an enum
#: (not listed: compared as stored); Redshift's SUPER likewise.
_POSTGRES_NAMES = (
    ("integer", ("SMALLINT", "INTEGER", "BIGINT", "INT", "INT2", "INT4", "INT8", "OID", "SMALLSERIAL",
                 "SERIAL", "BIGSERIAL")),
    ("text", ("TEXT", "CHARACTER VARYING", "VARCHAR", "CHARACTER", "CHAR", "BPCHAR", "NAME", '"CHAR"')),
    ("fraction", ("REAL", "DOUBLE PRECISION", "FLOAT4", "FLOAT8", "FLOAT")),
    ("decimal", ("NUMERIC", "DECIMAL")),
    ("text_like", ("BOOLEAN", "BOOL", "DATE", "TIME", "TIME WITHOUT TIME ZONE", "TIME WITH TIME ZONE", "TIMETZ",
                   "TIMESTAMP", "TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ",
                   "INTERVAL", "UUID")),
    ("other", ("BYTEA", "ARRAY", "VARBYTE", "BINARY VARYING", "GEOMETRY", "GEOGRAPHY", "HLLSKETCH")),
)
#: Snowflake: INTEGER and its synonyms are NUMBER(38,0) in the catalog; VARIANT is not listed.
_SNOWFLAKE_NAMES = (
    ("integer", ("INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "BYTEINT")),
    ("decimal", ("NUMBER", "DECIMAL", "NUMERIC", "FIXED")),
    ("fraction", ("FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "DOUBLE PRECISION", "REAL")),
    ("text", ("VARCHAR", "TEXT", "STRING", "CHAR", "CHARACTER", "NCHAR", "NVARCHAR", "CHAR VARYING",
              "CHARACTER VARYING")),
    ("text_like", ("DATE", "TIME", "DATETIME", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ", "TIMESTAMP_TZ",
                   "BOOLEAN")),
    ("other", ("BINARY", "VARBINARY", "ARRAY", "OBJECT", "MAP", "GEOGRAPHY", "GEOMETRY", "VECTOR")),
)
#: BigQuery: the driver's field types, and "ARRAY<...>" (a repeated column as dbt writes it).
_BIGQUERY_NAMES = _BIGQUERY_TYPES[:-1] + (("other", _BIGQUERY_TYPES[-1][1] + ("ARRAY",)),)
#: Spark/Databricks: the type names of DESCRIBE ("int", "decimal(10,0)", "array<string>"), upper case.
_SPARK_NAMES = tuple((found, tuple(name.upper() for name in names)) for found, names in _SPARK_TYPES)
#: DuckDB names every type it has: a name not listed (a STRUCT, MAP, UNION) has no text form.
_DUCKDB_NAMES = DUCKDB_KINDS + (("other", ("*",)),)


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("duckdb", "duckdb", "{item}", None, ("database", "schema", "table"), nan="ISNAN({x})",
                id_types=_DUCKDB_TYPES, type_names=_DUCKDB_NAMES, columns_ignore_case=True, top_n=True,
                position_lists=True, aborts_transaction=True),
        Dialect("bigquery", "bigquery", "{item}", None, ("project", "dataset", "table"), float32=False,
                nan="ISNAN({x})", id_types=_BIGQUERY_TYPES, type_names=_BIGQUERY_NAMES, columns_ignore_case=True),
        Dialect("snowflake", "snowflake", "COLLATE({item}, 'utf8')", "upper", ("database", "schema", "table"),
                float32=False, id_types=_SNOWFLAKE_TYPES, type_names=_SNOWFLAKE_NAMES),
        Dialect("spark", "spark", "{item}", None, ("catalog", "schema", "table"), id_types=_SPARK_TYPES,
                type_names=_SPARK_NAMES, columns_ignore_case=True),
        Dialect("postgres", "postgres", '{item} COLLATE "C"', "lower", ("database", "schema", "table"),
                try_double=_POSTGRES_NUMBER, aborts_transaction=True, savepoints=True, id_types=_POSTGRES_TYPES,
                type_names=_POSTGRES_NAMES),
        Dialect("redshift", "redshift", "{item}", "lower", ("database", "schema", "table"),
                try_double=_POSTGRES_NUMBER, aborts_transaction=True, id_types=_POSTGRES_TYPES,
                type_names=_POSTGRES_NAMES, columns_ignore_case=True),
    )
}

#: Names accepted for ``dialect=``: ours, plus sqlglot's spelling of Databricks.
ALIASES = {"databricks": "spark", "spark2": "spark"}
#: The type of ``dialect=``: the names of DIALECTS and ALIASES (tests/test_signatures.py checks).
DialectName = Literal["duckdb", "bigquery", "snowflake", "spark", "postgres", "redshift", "databricks", "spark2"]


def get(name: str) -> Dialect:
    """The :class:`Dialect` called ``name`` (case-insensitive).

    Raises:
        ValueError (``OptionError``): an unknown dialect.
    """
    key = str(name).lower()
    key = ALIASES.get(key, key)
    if key not in DIALECTS:
        raise OptionError(f"dialect must be one of {', '.join(DIALECTS)}; got {name!r}")
    return DIALECTS[key]
