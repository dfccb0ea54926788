"""Getting a ranking or judgments into DuckDB as a view, without exporting a row.

Accepted: a path to a Parquet, CSV or JSON file; a TREC run file
(``qid Q0 docid rank score tag``) or qrels file (``qid iter docid rel``); the
name of a table or view in the given connection; a DuckDB relation; a pandas,
polars or Arrow object (read by DuckDB through Arrow, zero-copy where it can).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import duckdb

from .errors import InputError
from .files import file_format

#: Column names given to TREC files.
TREC_RUN_COLUMNS = ("query_id", "item_id", "rank", "score")
TREC_QRELS_COLUMNS = ("query_id", "item_id", "label")

_counter = itertools.count()


def new_view_name(kind: str) -> str:
    """A fresh name for a temporary view of ours (never user text)."""
    return f"ndcg_sql_{kind}_{os.getpid()}_{next(_counter)}"


def _read_trec(con: duckdb.DuckDBPyConnection, path: str, fmt: str) -> duckdb.DuckDBPyRelation:
    """Read a whitespace-separated TREC file; lines starting with '#' are comments.

    Ids stay strings, as trec_eval keeps them; extra words after the last
    used field are ignored (as trec_eval does).
    """
    lines = con.read_csv(
        path, header=False, sep="\x1f", quotechar="", escapechar="", names=["line"], dtype=["VARCHAR"]
    )
    fields = lines.filter("trim(line) <> '' AND NOT starts_with(ltrim(line), '#')").select(
        "regexp_split_to_array(trim(line), '\\s+') AS f"
    )
    if fmt == "trec-run":
        needed, typed = 6, "f[1] AS query_id, f[3] AS item_id, TRY_CAST(f[4] AS BIGINT) AS rank, TRY_CAST(f[5] AS DOUBLE) AS score"
        numeric = "TRY_CAST(f[4] AS BIGINT) IS NULL OR TRY_CAST(f[5] AS DOUBLE) IS NULL"
        what = "qid Q0 docid rank score tag"
    else:
        needed, typed = 4, "f[1] AS query_id, f[3] AS item_id, TRY_CAST(f[4] AS DOUBLE) AS label"
        numeric = "TRY_CAST(f[4] AS DOUBLE) IS NULL"
        what = "qid iter docid rel"
    bad = fields.filter(f"len(f) < {needed} OR {numeric}").select("f[1] AS query_id").limit(5).fetchall()
    if bad:
        ids = ", ".join(str(row[0]) for row in bad)
        raise InputError(
            f"{path}: lines that are not '{what}' (too few fields or a non-numeric value), e.g. for query ids {ids}"
            " (read as a TREC file because of its name; give input_format / --input-format for CSV, JSON or Parquet)"
        )
    return fields.select(typed)


def load(
    con: duckdb.DuckDBPyConnection, data, role: str, input_format: str | None = None
) -> tuple[str, dict[str, str]]:
    """Make ``data`` readable in ``con`` under a fresh view name.

    Args:
        con: the DuckDB connection that will run the SQL.
        data: a file path (str or Path), a table/view name in ``con``, a DuckDB
            relation (of ``con``; one of another connection is copied in
            as an Arrow table), or a pandas/polars/Arrow object.
        role: "run" or "judgments" (decides how an unknown file ending is read).
        input_format: force one of :data:`FORMATS` for a file.

    Returns:
        (view name, {column name: DuckDB type name}).

    Raises:
        InputError: no such file or table, or an unreadable file.
    """
    name = new_view_name(role)
    if isinstance(data, duckdb.DuckDBPyRelation):
        relation = data
    elif isinstance(data, (str, Path)):
        text = str(data)
        if os.path.exists(text):
            fmt = file_format(text, role, input_format)
            try:
                if fmt == "parquet":
                    relation = con.read_parquet(text)
                elif fmt == "csv":
                    relation = con.read_csv(text)
                elif fmt == "json":
                    relation = con.read_json(text)
                else:
                    relation = _read_trec(con, text, fmt)
            except duckdb.Error as error:
                raise InputError(f"cannot read {text} as {fmt}: {error}") from None
        elif isinstance(data, str):
            try:
                relation = con.table(text)
            except duckdb.Error:
                raise InputError(f"{text!r} is neither a file nor a table or view in the connection") from None
        else:
            raise InputError(f"no such file: {text}")
    else:
        try:
            con.register(name, data)
        except (duckdb.Error, TypeError, ValueError) as error:
            raise InputError(
                f"cannot read a {type(data).__name__} as a table (give a file path, a table name, "
                f"a DuckDB relation or a pandas/polars/Arrow object): {error}"
            ) from None
        relation = con.view(name)
        return name, dict(zip(relation.columns, map(str, relation.types)))
    relation.create_view(name, replace=True)
    try:
        con.view(name)
    except duckdb.Error:
        # the relation belongs to another connection: bring it over as an Arrow table
        # (read more than once: checks, then the metric query)
        con.register(name, relation.to_arrow_table())
    return name, dict(zip(relation.columns, map(str, relation.types)))


def drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove a view made by :func:`load` (registered objects and views alike)."""
    try:
        con.unregister(name)
    except duckdb.Error:
        pass
    con.execute(f'DROP VIEW IF EXISTS "{name}"')
