"""Getting a ranking or judgments into DuckDB as a view, without exporting a row.

Accepted: a path to a Parquet, CSV or JSON file, or a pattern matching several
(``logs/*/*.parquet``: DuckDB reads them as one table, and adds the columns of a Hive
layout's folder names, such as ``arm`` from ``arm=bm25/``); a TREC run file
(``qid Q0 docid rank score tag``) or qrels file (``qid iter docid rel``); the
name of a table or view in the given connection; a DuckDB relation; a pandas,
polars or Arrow object (read by DuckDB through Arrow, zero-copy where it can).
"""

from __future__ import annotations

import glob
import itertools
import os
from pathlib import Path

import duckdb

from .connections import connect, drop as drop_objects, interruptible
from .errors import InputError, OptionError
from .identifiers import quote
from .sql_text import file_format, file_relation

#: Column names given to TREC files.
TREC_RUN_COLUMNS = ("query_id", "item_id", "rank", "score")
TREC_QRELS_COLUMNS = ("query_id", "item_id", "label")

_counter = itertools.count()


def new_view_name(kind: str) -> str:
    """A fresh name for a temporary view of ours (never user text)."""
    return f"ndcg_sql_{kind}_{os.getpid()}_{next(_counter)}"


def _read_trec(con: duckdb.DuckDBPyConnection, path: str, fmt: str, atol_labels: bool = False) -> duckdb.DuckDBPyRelation:
    """Read a whitespace-separated TREC file; lines starting with '#' are comments.

    Ids stay strings, as trec_eval keeps them; extra words after the last
    used field are ignored (as trec_eval does). With ``atol_labels`` a qrels label is the
    whole number its text starts with, as C's ``atol`` reads it in trec_eval's ``get_qrels.c``
    ("2e1" is 2, "1.5" is 1, ".5" is 0); otherwise the number the text writes ("2e1" is 20).
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
        label = ("COALESCE(CAST(NULLIF(regexp_extract(f[4], '^[+-]?[0-9]+'), '') AS DOUBLE), 0.0)" if atol_labels
                 else "TRY_CAST(f[4] AS DOUBLE)")
        needed, typed = 4, f"f[1] AS query_id, f[3] AS item_id, {label} AS label"
        numeric = "TRY_CAST(f[4] AS DOUBLE) IS NULL"
        what = "qid iter docid rel"
    first_bad = fields.filter(f"len(f) < {needed} OR {numeric}").select("f[1] AS query_id").limit(5)
    bad = interruptible(con, first_bad.fetchall)
    if bad:
        ids = ", ".join(str(row[0]) for row in bad)
        raise InputError(
            f"{path}: lines that are not '{what}' (too few fields or a non-numeric value), e.g. for query ids {ids}"
            " (read as a TREC file because of its name; give input_format / --input-format for CSV, JSON or Parquet)"
        )
    return fields.select(typed)


def read_trec(path, kind: str = "run", con: duckdb.DuckDBPyConnection | None = None) -> duckdb.DuckDBPyRelation:
    """A TREC file as a DuckDB relation, e.g. to store it as Parquet or load it into a warehouse:
    ``ndcg_sql.read_trec("run.txt").write_parquet("run.parquet")``.

    Args:
        path: a run file (``qid Q0 docid rank score tag``; columns query_id, item_id, rank,
            score) or a qrels file (``qid iter docid rel``; columns query_id, item_id, label),
            whitespace-separated, '#' lines ignored (as trec_eval reads them).
        kind: "run" or "qrels".
        con: the DuckDB connection to read in (default: a new in-memory one, :func:`ndcg_sql.connections.connect`).

    Raises:
        InputError: a line that is not a TREC line (too few fields, a non-numeric value).
        OptionError: ``kind`` is neither "run" nor "qrels".
    """
    if kind not in ("run", "qrels"):
        raise OptionError(f"kind must be 'run' or 'qrels'; got {kind!r}")
    return _read_trec(con if con is not None else connect(), str(path), f"trec-{kind}")


def load(
    con: duckdb.DuckDBPyConnection, data, role: str, input_format: str | None = None, atol_labels: bool = False
) -> tuple[str, dict[str, str]]:
    """Make ``data`` readable in ``con`` under a fresh view name.

    Args:
        con: the DuckDB connection that will run the SQL.
        data: a file path (str or Path), a table/view name in ``con``, a DuckDB
            relation (of ``con``; one of another connection is copied in
            as an Arrow table), or a pandas/polars/Arrow object.
        role: "run" or "judgments" (decides how an unknown file ending is read).
        input_format: force one of :data:`FORMATS` for a file.
        atol_labels: read a TREC qrels file's labels as trec_eval does (:func:`_read_trec`; a
            convention's ``label_reading="atol"``, :mod:`ndcg_sql.conventions`).

    Returns:
        (view name, {column name: DuckDB type name}).

    Raises:
        InputError: no such file or table, a directory, an empty (0-byte) file, or an
            unreadable file.
    """
    name = new_view_name(role)
    if isinstance(data, duckdb.DuckDBPyRelation):
        return _relation_view(con, data, name)
    if not isinstance(data, (str, Path)):
        try:
            con.register(name, data)
        except (duckdb.Error, TypeError, ValueError) as error:
            raise InputError(
                f"cannot read a {type(data).__name__} as a table (give a file path, a table name, "
                f"a DuckDB relation or a pandas/polars/Arrow object): {error}"
            ) from None
        relation = con.view(name)
        return name, dict(zip(relation.columns, map(str, relation.types)))
    text = str(data)
    where = "ranking" if role == "run" else "judgments"
    if os.path.isdir(text):
        raise InputError(f"{text} is a directory, not a file: give the {where} file, or a pattern "
                         f"such as {os.path.join(text, '*.parquet')} to read every file in it")
    if os.path.isfile(text) and os.path.getsize(text) == 0:
        raise InputError(f"{text} is empty (0 bytes): the {where} {'has' if role == 'run' else 'have'} no rows")
    if os.path.exists(text) or (any(c in text for c in "*?[") and glob.glob(text)):
        fmt = file_format(text, role, input_format)
        try:
            if fmt.startswith("trec-"):
                relation = _read_trec(con, text, fmt, atol_labels)
            else:  # the table function to_sql writes for a file (Hive folder columns included)
                relation = con.sql(f"SELECT * FROM {file_relation(text, role, fmt)}")
        except duckdb.ResourceInUseException:
            raise
        except duckdb.Error as error:
            raise InputError(f"cannot read {text} as {fmt}: {error}") from None
    elif isinstance(data, str):
        try:
            relation = con.table(text)
        except duckdb.ResourceInUseException:
            raise
        except duckdb.Error:
            raise InputError(f"{text!r} is neither a file nor a table or view in the connection") from None
    else:
        raise InputError(f"no such file: {text}")
    # a view of the connection's own (temporary: never stored in a database file), over our SQL
    con.execute(f"CREATE TEMP VIEW {quote(name)} AS {relation.sql_query()}")
    return name, dict(zip(relation.columns, map(str, relation.types)))


def _relation_view(con: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation, name: str
                   ) -> tuple[str, dict[str, str]]:
    """A caller's relation under ``name``: a view of it (which holds what it reads), or, for a
    relation of another connection, its rows brought over as an Arrow table."""
    relation.create_view(name, replace=True)
    try:
        con.view(name)
    except duckdb.ResourceInUseException:
        raise
    except duckdb.Error:
        # the relation belongs to another connection: bring it over as an Arrow table
        # (read more than once: checks, then the metric query)
        con.register(name, relation.to_arrow_table())
    return name, dict(zip(relation.columns, map(str, relation.types)))


def expression_type(con: duckdb.DuckDBPyConnection, relation: str, label, where: str) -> str:
    """The DuckDB type of a label expression over ``relation`` (quoted SQL), computed from the
    column types alone (no row is read).

    Args:
        label: a :class:`ndcg_sql.labels.LabelExpression` (its ``sql`` is sqlglot's text).
        where: "ranking" or "judgments", for the message.

    Raises:
        InputError: DuckDB cannot compute it from the columns' types (text plus a number,
            a boolean column in arithmetic, ...).
    """
    try:
        return str(con.sql(f"SELECT {label.sql} AS label FROM {relation} LIMIT 0").types[0])
    except duckdb.Error as error:
        message = str(error).strip().splitlines()[0].rstrip(".")
        hint = ("; a boolean column counts as a number only as the whole label or through "
                "CAST(x AS INT) or CASE WHEN x THEN 1 ELSE 0 END") if "BOOLEAN" in message else ""
        raise InputError(f"the label expression {label.shown!r} cannot be computed from the {where}'s "
                         f"columns: {message}{hint}") from None


def drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove a view made by :func:`load` (registered objects and views alike)."""
    drop_objects(con, [("VIEW", name)])
