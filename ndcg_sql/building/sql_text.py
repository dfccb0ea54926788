"""SQL text: DuckDB source (the templates' SQL) as one statement, and in any supported dialect.

The templates in ``sql/`` are rendered as DuckDB SQL, with the few per-engine pieces of
:mod:`ndcg_sql.vocabulary.dialects` in their context (:mod:`ndcg_sql.building.context`), and sqlglot
transpiles the result to the target engine with ``unsupported_level=RAISE``: sqlglot
raises rather than emit SQL it cannot translate. :func:`over_ctes` joins the steps of a
computation (:mod:`ndcg_sql.building.plan`) into one statement, as a warehouse and ``to_sql`` need.
A file is read in its format (:func:`file_format`: by name, or from its ending; a TREC file
otherwise), in SQL by :func:`file_relation`.
"""

from __future__ import annotations

from typing import Sequence

import sqlglot
from sqlglot import ErrorLevel, exp

from ..vocabulary import dialects, identifiers
from ..vocabulary.errors import InputError, OptionError
from ..vocabulary.parameters import FORMATS

#: The formats read from a file's ending.
SUFFIXES = {
    ".parquet": "parquet", ".pq": "parquet",
    ".csv": "csv", ".tsv": "csv", ".csv.gz": "csv", ".tsv.gz": "csv",
    ".json": "json", ".jsonl": "json", ".ndjson": "json", ".json.gz": "json",
}


def file_format(path: str, role: str, given: str | None = None) -> str:
    """The format of ``path``: ``given`` if set, else from its ending.

    Files with another ending (``.txt``, ``.run``, ``.qrels``, none) are read as TREC run
    files when ``role`` is "run" and as TREC qrels for "judgments".

    Raises:
        InputError: ``given`` is not one of :data:`ndcg_sql.vocabulary.parameters.FORMATS`.
    """
    if given is not None:
        if given not in FORMATS:
            raise InputError(f"unknown input format {given!r}; use one of {', '.join(FORMATS)}")
        return given
    name = path.lower()
    for suffix, fmt in sorted(SUFFIXES.items(), key=lambda item: -len(item[0])):
        if name.endswith(suffix):
            return fmt
    return "trec-run" if role == "run" else "trec-qrels"


def table_name(name: str | Sequence[str], dialect: str = "duckdb") -> str:
    """A (possibly qualified) table name as quoted DuckDB source SQL, after ``dialect``'s case rule.

    Args:
        name: "table", "schema.table", "db.schema.table" (split on dots), or a
            sequence of parts when a part itself contains a dot.
        dialect: the engine the SQL is for (decides case folding).

    Raises:
        OptionError: an empty name or part, or too many parts.
    """
    target = dialects.get(dialect)
    try:
        return identifiers.table(name, target.fold, len(target.name_parts)).sql(dialect="duckdb")
    except TypeError as error:
        raise OptionError(str(error)) from None


def file_relation(path: str, role: str, fmt: str | None = None) -> str:
    """A DuckDB table function reading ``path`` (a file, or a pattern such as ``logs/*/*.parquet``;
    DuckDB adds the columns of Hive-style folder names); the path is a SQL string literal built
    by sqlglot. ``fmt``: the format, else from the file's ending. Parquet is read with
    ``can_have_nan = true``: its statistics never stand for the absence of NaN.

    Raises:
        OptionError: a TREC file, which no SQL reads (load it into a table first).
    """
    fmt = fmt or file_format(str(path), role)
    functions = {"parquet": "read_parquet", "csv": "read_csv", "json": "read_json"}
    if fmt not in functions:
        raise OptionError(f"{path}: SQL text can read Parquet, CSV or JSON files; load a {fmt} file into a table first")
    arguments: list[exp.Expr] = [exp.Literal.string(str(path))]
    if fmt == "parquet":
        # a Parquet file's min/max statistics leave NaN out; without this DuckDB trusts them and may
        # answer a NaN test from them (no NaN seen), so a NaN label would pass the input checks
        arguments.append(exp.EQ(this=exp.column("can_have_nan"), expression=exp.true()))
    return exp.func(functions[fmt], *arguments).sql(dialect="duckdb")


def transpile(sql: str | exp.Expr, dialect: dialects.Dialect) -> str:
    """DuckDB source SQL (text or sqlglot tree) in ``dialect``.

    Raises:
        sqlglot.errors.UnsupportedError: sqlglot cannot express it in ``dialect``.
    """
    if isinstance(sql, str):
        if dialect.name == "duckdb":
            return sql
        sql = sqlglot.parse_one(sql, read="duckdb")
    text = sql.sql(dialect=dialect.sqlglot, unsupported_level=ErrorLevel.RAISE, pretty=True)
    return text + "\n"


def over_ctes(parts: Sequence[tuple[str, str | exp.Expr]], outer_sql: str) -> exp.Expr:
    """One statement: each (name, query) of ``parts`` as a CTE of that name,
    then ``outer_sql``. Every CTE the parts and ``outer_sql`` define, nested
    in subqueries too, is hoisted to the one WITH (before the CTE whose body
    held it), each name taken once: they are rendered from one context, so
    equal names hold equal queries. Engines such as Spark refuse a CTE name
    defined twice, even in nested scopes.

    Raises:
        ValueError: two parts define a CTE of the same name differently.
    """
    ctes: list[exp.CTE] = []
    seen: dict[str, exp.Expr] = {}

    def take(cte: exp.CTE) -> None:
        text = cte.this  # sqlglot trees compare by structure
        if cte.alias in seen:
            if seen[cte.alias] != text:
                raise ValueError(f"two steps define the CTE {cte.alias!r} differently")
            return
        seen[cte.alias] = text
        ctes.append(cte)

    def hoist(tree: exp.Expr) -> exp.Expr:
        """Move every WITH inside ``tree`` (its own first) out to ``ctes``; return ``tree`` without them."""
        own = tree.args.get("with_")
        if own is not None:
            tree.set("with_", None)
            for cte in own.expressions:
                cte.set("this", hoist(cte.this))
                take(cte)
        for nested in list(tree.find_all(exp.With)):
            parent = nested.parent
            if parent is None:
                continue
            parent.set("with_", None)
            for cte in nested.expressions:
                cte.set("this", hoist(cte.this))
                take(cte)
        return tree

    for name, sql in parts:
        body = hoist(sql.copy() if isinstance(sql, exp.Expr) else sqlglot.parse_one(sql, read="duckdb"))
        body.set("order", None)
        take(exp.CTE(this=body, alias=exp.TableAlias(this=exp.to_identifier(name))))
    outer = hoist(sqlglot.parse_one(outer_sql, read="duckdb"))
    outer.set("with_", exp.With(expressions=ctes))
    return outer


def prefixed_ctes(statement: str | exp.Expr, prefix: str) -> exp.Expr:
    """``statement`` (DuckDB source) with every CTE it defines renamed ``prefix`` + its name, so
    that several statements built from one set of templates (each run of a comparison: their CTEs
    share names) can be CTEs of one statement (:func:`over_ctes`). A reference to a renamed CTE
    keeps its old name as its alias, so the columns qualified by that name still resolve; a table
    with a schema, or no CTE's name, is left as it is. Returns the tree (DuckDB source), not its
    text: written as DuckDB text and read again, a piece of another dialect's SQL in the source
    (Snowflake's ``COLLATE(x, 'utf8')``) would lose its form."""
    tree = statement.copy() if isinstance(statement, exp.Expr) else sqlglot.parse_one(statement, read="duckdb")
    names = {cte.alias for cte in tree.find_all(exp.CTE)}
    for cte in list(tree.find_all(exp.CTE)):
        cte.set("alias", exp.TableAlias(this=exp.to_identifier(prefix + cte.alias)))
    for table in list(tree.find_all(exp.Table)):
        if not table.args.get("db") and table.name in names:
            original = table.name
            table.set("this", exp.to_identifier(prefix + original))
            if not table.alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(original)))
    return tree
