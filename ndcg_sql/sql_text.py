"""The metric SQL as text, for a named table, to run elsewhere (``ndcg-sql sql``)."""

from __future__ import annotations

from typing import Sequence

from sqlglot import exp

from . import templates
from .evaluate import Columns, template_context
from .identifiers import quote
from .inputs import file_format
from .options import DEFAULT_CUTOFFS, OptionError, Options


def table_name(name: str | Sequence[str], dialect: str = "duckdb") -> str:
    """A (possibly qualified) table name as quoted SQL.

    Args:
        name: "table", "schema.table", "db.schema.table" (split on dots), or a
            sequence of parts when a part itself contains a dot.

    Raises:
        TypeError: an empty name or part.
    """
    parts = name.split(".") if isinstance(name, str) else list(name)
    return ".".join(quote(part, dialect) for part in parts)


def _file_relation(path: str, role: str) -> str:
    """A DuckDB table function reading ``path``; the path is a SQL string literal built by sqlglot."""
    fmt = file_format(str(path), role)
    functions = {"parquet": "read_parquet", "csv": "read_csv", "json": "read_json"}
    if fmt not in functions:
        raise OptionError(f"{path}: SQL text can read Parquet, CSV or JSON files; load a {fmt} file into a table first")
    return exp.func(functions[fmt], exp.Literal.string(str(path))).sql(dialect="duckdb")


def to_sql(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    k=DEFAULT_CUTOFFS,
    query_col: str = "query_id",
    item_col: str = "item_id",
    score_col: str | None = None,
    rank_col: str | None = None,
    label_col: str = "label",
    gain="exponential",
    ties: str = "average",
    no_relevant: str = "zero",
    missing_queries: str = "ignore",
) -> str:
    """The per-query SQL (query id, k, cg, dcg, idcg, ndcg) over a table, as DuckDB SQL.

    Args:
        table: the ranking table's name (quoted through sqlglot).
        file: instead of ``table``, a Parquet, CSV or JSON file that DuckDB
            reads (its path becomes a SQL string literal).
        judgments_table / judgments_file: the judgments, likewise.
        Other arguments: as :func:`ndcg_sql.evaluate`.

    Returns:
        One SELECT statement. Input checks are not part of it: run
        :func:`ndcg_sql.evaluate` for checked results.

    Raises:
        OptionError: invalid options, or neither/both of score_col and rank_col.
    """
    if score_col is not None and rank_col is not None:
        raise OptionError("give score_col (--score-col) or rank_col (--rank-col), not both")
    if (table is None) == (file is None):
        raise OptionError("give exactly one of table and file")
    judged = judgments_table is not None or judgments_file is not None
    options = Options.build(
        k=k, gain=gain, ties=ties, no_relevant=no_relevant, missing_queries=missing_queries,
        judgments=judged, input_kind="rank" if rank_col else "score",
    )
    order = rank_col or score_col or "score"
    columns = Columns(query_col, item_col, order, None if judged else label_col)
    if judged:
        columns.j_query, columns.j_item, columns.j_label = query_col, item_col, label_col
    run = table_name(table) if table is not None else _file_relation(file, "run")
    judgments = None
    if judgments_table is not None:
        judgments = table_name(judgments_table)
    elif judgments_file is not None:
        judgments = _file_relation(judgments_file, "judgments")
    return templates.render("per_query.sql.j2", **template_context(options, columns, run, judgments))
