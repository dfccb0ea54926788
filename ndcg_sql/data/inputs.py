"""Getting a ranking or judgments into DuckDB as a view, without exporting a row.

Accepted: a path to a Parquet, CSV or JSON file, or a pattern matching several
(``logs/*/*.parquet``: DuckDB reads them as one table, and adds the columns of a Hive
layout's folder names, such as ``arm`` from ``arm=bm25/``); a TREC run file
(``qid Q0 docid rank score tag``) or qrels file (``qid iter docid rel``); the
name of a table or view in the given connection; a DuckDB relation; a pandas,
polars or Arrow object (read by DuckDB through Arrow, zero-copy where it can).
"""

from __future__ import annotations

import csv
import glob
import gzip
import itertools
import os
import re
import secrets
from pathlib import Path

import duckdb

from .connections import connect, drop as drop_objects, interruptible, opened_here
from ..vocabulary.errors import InputError, OptionError, echoed
from ..vocabulary.identifiers import quote
from ..building.sql_text import file_format, file_relation

#: Column names given to TREC files.
TREC_RUN_COLUMNS = ("query_id", "item_id", "rank", "score")
TREC_QRELS_COLUMNS = ("query_id", "item_id", "label")

_counter = itertools.count()


def new_view_name(kind: str, con: duckdb.DuckDBPyConnection | None = None) -> str:
    """A fresh name for a temporary table or view of ours (never user text):
    ``ndcg_sql_<kind>_<process id>_<n>_<random>``, its last part 16 random hex digits, so no name
    a user picks by accident (or by looking at an earlier name) is ours. With ``con``, also one no
    table or view of ``con`` has (:func:`taken`); what is created under it is created without
    ``OR REPLACE``, so even a name taken in between is never replaced, only refused."""
    while True:
        name = f"ndcg_sql_{kind}_{os.getpid()}_{next(_counter)}_{secrets.token_hex(8)}"
        if con is None or not taken(con, name):
            return name


def taken(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """True when a table or view of ``con`` (in any schema, temporary or not, a registered frame
    too) has the name ``name``, as DuckDB compares names (case aside)."""
    found = con.execute(
        "SELECT (SELECT COUNT(*) FROM duckdb_views() WHERE lower(view_name) = lower($1))"
        " + (SELECT COUNT(*) FROM duckdb_tables() WHERE lower(table_name) = lower($1))", [name]).fetchall()
    return bool(found[0][0])


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
        con: the DuckDB connection to read in (default: a new in-memory one, :func:`ndcg_sql.data.connections.connect`).

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
        data: a file path (str or Path), a table/view name in ``con`` (a name found in no file and
            no table is "no such file" when ``con`` is the package's own,
            :func:`ndcg_sql.data.connections.opened_here`), a DuckDB
            relation (of ``con``; one of another connection is copied in
            as an Arrow table), or a pandas/polars/Arrow object.
        role: "run" or "judgments" (decides how an unknown file ending is read).
        input_format: force one of :data:`FORMATS` for a file.
        atol_labels: read a TREC qrels file's labels as trec_eval does (:func:`_read_trec`; a
            convention's ``label_reading="atol"``, :mod:`ndcg_sql.vocabulary.conventions`).

    Returns:
        (view name, {column name: DuckDB type name}).

    Raises:
        InputError: no such file or table ("no such file: PATH (in the current folder ...)" when
            ``con`` is the package's own, so no table can be meant), a directory, an empty
            (0-byte) file, or an unreadable file.
    """
    name = new_view_name(role, con)
    if isinstance(data, duckdb.DuckDBPyRelation):
        return _relation_view(con, data, name)
    if not isinstance(data, (str, Path)):
        try:  # register replaces a name silently: new_view_name found it free
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
    if os.path.exists(text) and not os.path.isfile(text) and os.path.samefile(text, os.devnull):
        raise InputError(f"{text} is empty (the null device): the {where} {'has' if role == 'run' else 'have'} "
                         "no rows and no columns")
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
            if opened_here(con):  # no connection of the caller's: the name was meant as a file's
                raise InputError(_no_such_file(text)) from None
            raise InputError(f"{echoed(text)} is neither a file nor a table or view in the connection") from None
    else:
        raise InputError(_no_such_file(text))
    # a view of the connection's own (temporary: never stored in a database file), over our SQL
    con.execute(f"CREATE TEMP VIEW {quote(name)} AS {relation.sql_query()}")
    return name, dict(zip(relation.columns, map(str, relation.types)))


def _no_such_file(text: str) -> str:
    return f"no such file: {text} (in the current folder {os.getcwd()})" if not os.path.isabs(text) else f"no such file: {text}"


def _relation_view(con: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation, name: str
                   ) -> tuple[str, dict[str, str]]:
    """A caller's relation under ``name``: a view of it (which holds what it reads), or, for a
    relation of another connection, its rows brought over as an Arrow table."""
    relation.create_view(name, replace=False)  # a name taken meanwhile is refused, never replaced
    try:
        con.view(name)
    except duckdb.ResourceInUseException:
        raise
    except duckdb.Error:
        # the relation belongs to another connection, which now has the view: dropped there (nothing
        # left behind in a connection of yours), the rows brought over as an Arrow table (read more
        # than once: checks, then the metric query)
        relation.query(f"{name}_dropping", f"DROP VIEW {quote(name)}")
        con.register(name, relation.to_arrow_table())
    return name, dict(zip(relation.columns, map(str, relation.types)))


#: The delimiters a CSV file's first line is split at by :func:`csv_problem`.
CSV_DELIMITERS = (",", "\t", ";", "|")


def read_failure(error: BaseException) -> str:
    """DuckDB's failure to read a file in one line: its first line and, for a CSV error on a
    line, what is wrong there ("Expected Number of Columns: 4 Found: 5"; not the line itself)."""
    lines = [line.strip() for line in str(error).strip().splitlines()]
    if not lines:
        return type(error).__name__
    line = lines[0]
    if "CSV Error on Line" in line and len(lines) > 2 and lines[1].startswith("Original Line"):
        line = f"{line}: {lines[2]}"
    # a corrupt file's bytes may reach the message ("don't know what type: \x0e"): shown escaped
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


def unreadable(con: duckdb.DuckDBPyConnection, view: str) -> duckdb.Error | None:
    """DuckDB's error reading every value of the view :func:`load` made (a hash of each row, which
    no statistics answer), or None when every value reads: after a failure that names no file,
    whether the file is at fault (a corrupt Parquet page). Reads the whole file: for a failure only."""
    try:
        interruptible(con, lambda: con.execute(f"SELECT MAX(hash(t)) FROM {quote(view)} AS t").fetchall())
    except (duckdb.ResourceInUseException, duckdb.InterruptException):
        raise
    except duckdb.Error as error:
        return error
    return None


def read_file_named(error: BaseException, data, judgments) -> str | None:
    """The input file (of ``data`` and ``judgments``, those given as paths) that DuckDB's error
    says it failed to read (a corrupt Parquet page, a CSV line with more fields than the header,
    malformed JSON), as DuckDB names it; None when the error names no file, or no input is a file."""
    if not any(isinstance(given, (str, Path)) for given in (data, judgments)):
        return None
    text = str(error)
    for pattern in (r'(?:read|in) file "([^"]+)"', r"^\s*file = (.+?)\s*$"):
        found = re.search(pattern, text, flags=re.MULTILINE)
        if found:
            return found.group(1)
    return None


def _first_line_of(path: str) -> str | None:
    """The first line of a (possibly gzip-compressed) text file, None when it cannot be read."""
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace", newline="") as file:
            return file.readline().rstrip("\r\n")
    except OSError:
        return None


def csv_problem(con: duckdb.DuckDBPyConnection, data, role: str, input_format: str | None,
                columns: list[str]) -> str | None:
    """Why DuckDB's CSV sniffer read ``data`` (given to :func:`load` with ``role`` and
    ``input_format``) as ``columns``, which lack those asked for, when it is one CSV file: the file
    read strictly with the layout its first line shows (the delimiter of :data:`CSV_DELIMITERS`
    that splits it into most fields, a header, double quotes), DuckDB's error in one line, e.g.
    rows with more or fewer fields than the header; None when that read finds nothing wrong (the
    columns are then simply not there), or ``data`` is no single CSV file, or the columns read are
    the first line's fields (then the file is not read again: a misspelt column of a large file
    costs no second read)."""
    if not isinstance(data, (str, Path)) or not os.path.isfile(data):
        return None
    path = str(data)
    if file_format(path, role, input_format) != "csv":
        return None
    first = _first_line_of(path)
    if not first:
        return None
    delimiter, header = max(((d, next(csv.reader([first], delimiter=d))) for d in CSV_DELIMITERS),
                            key=lambda pair: len(pair[1]))
    if len(header) < 2 or set(columns) <= set(header):
        return None  # the sniffer read the first line's fields as the columns: they are what the file has
    layout = {f"column_{index}": "VARCHAR" for index in range(len(header))}
    try:
        interruptible(con, lambda: con.execute(
            "SELECT COUNT(*) FROM read_csv($1, auto_detect = false, header = true, delim = $2, quote = '\"', "
            "escape = '\"', columns = $3)", [path, delimiter, layout]).fetchall())
    except (duckdb.ResourceInUseException, duckdb.InterruptException):
        raise
    except duckdb.Error as error:
        read = ", ".join(columns[:5]) + (", ..." if len(columns) > 5 else "")
        return (f"cannot read {path} as CSV: {read_failure(error)} (its first line has {len(header)} fields split "
                f"at {delimiter!r}; DuckDB's CSV sniffer found no layout that reads every line, and read the "
                f"column(s) {echoed(read)})")
    return None


def expression_type(con: duckdb.DuckDBPyConnection, relation: str, label, where: str) -> str:
    """The DuckDB type of a label expression over ``relation`` (quoted SQL), computed from the
    column types alone (no row is read).

    Args:
        label: a :class:`ndcg_sql.building.labels.LabelExpression` (its ``sql`` is sqlglot's text).
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
        raise InputError(f"the label expression {echoed(label.shown)} cannot be computed from the {where}'s "
                         f"columns: {message}{hint}") from None


def drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove a view made by :func:`load` (registered objects and views alike)."""
    drop_objects(con, [("VIEW", name)])
