"""The metric SQL as text, for a named table, in any supported dialect (``ndcg-sql sql``).

The templates in ``sql/`` are rendered as DuckDB SQL, with the few per-engine
pieces of :mod:`ndcg_sql.dialects` in their context, and sqlglot transpiles
the result to the target engine with ``unsupported_level=RAISE``: sqlglot
raises rather than emit SQL it cannot translate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import sqlglot
from sqlglot import ErrorLevel, exp

from . import dialects, identifiers, templates
from .arguments import Request, Resolved, takes_options
from .evaluate import Columns, template_context
from .inputs import file_format
from .measures import Measure
from .options import OptionError, Options
from .suite import measure_context

#: Name of the CTE that holds the per-query rows when the summary or the
#: coverage counts are computed in the same statement.
PER_QUERY_CTE = "per_query_rows"
#: Name of the CTE of the binary measures' rows in the one-statement measure SQL.
BINARY_CTE = "binary_measure_rows"
#: Item id types: only for the item-id tie-break the engine must know it,
#: because a collation applies to strings only.
ITEM_TYPES = ("text", "number")


def table_name(name: str | Sequence[str], dialect: str = "duckdb") -> str:
    """A (possibly qualified) table name as quoted DuckDB source SQL, after ``dialect``'s case rule.

    Args:
        name: "table", "schema.table", "db.schema.table" (split on dots), or a
            sequence of parts when a part itself contains a dot.
        dialect: the engine the SQL is for (decides case folding).

    Raises:
        TypeError: an empty name or part, or too many parts.
    """
    target = dialects.get(dialect)
    return identifiers.table(name, target.fold, len(target.name_parts)).sql(dialect="duckdb")


def _file_relation(path: str, role: str) -> str:
    """A DuckDB table function reading ``path``; the path is a SQL string literal built by sqlglot."""
    fmt = file_format(str(path), role)
    functions = {"parquet": "read_parquet", "csv": "read_csv", "json": "read_json"}
    if fmt not in functions:
        raise OptionError(f"{path}: SQL text can read Parquet, CSV or JSON files; load a {fmt} file into a table first")
    return exp.func(functions[fmt], exp.Literal.string(str(path))).sql(dialect="duckdb")


@dataclass(frozen=True)
class Plan:
    """Validated options and template context for one dialect (see :func:`plan`)."""

    options: Options
    context: dict
    dialect: dialects.Dialect
    columns: Columns
    measures: tuple[Measure, ...] | None = None
    resolved: Resolved | None = None


@takes_options()
def plan(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    dialect: str = "duckdb",
    item_type: str = "text",
    segmented_judgments: bool = False,
    request: Request,
) -> Plan:
    """Validate the arguments of :func:`to_sql` and build the template context.

    Args: as :func:`to_sql`.

    Raises:
        OptionError: as :func:`to_sql`.
    """
    if (table is None) == (file is None):
        raise OptionError("give exactly one of table and file")
    target = dialects.get(dialect)
    if target.name != "duckdb" and (file is not None or judgments_file is not None):
        raise OptionError(f"files can be read by DuckDB only; for {target.name} give table names")
    if item_type not in ITEM_TYPES:
        raise OptionError(f"item_type must be one of {', '.join(ITEM_TYPES)}; got {item_type!r}")
    judged = judgments_table is not None or judgments_file is not None
    resolved = request.resolve(judged)
    options = resolved.options
    if options.score_precision == "float32" and not target.float32:
        raise OptionError(f"score_precision='float32' (convention {resolved.convention!r}): {target.name} has no "
                          "32-bit float type to round scores to; compute it in DuckDB, Spark or Postgres")
    if resolved.segments and options.missing_queries != "ignore" and not segmented_judgments:
        raise OptionError("segments with missing_queries='zero' need judgments per (segment, query) "
                          "(segmented_judgments=True, --segmented-judgments: the judgments carry the segment columns)")
    columns = Columns(request.query_col, request.item_col, resolved.order_col, None if judged else request.label_col,
                      row=request.row_col)
    if judged:
        columns.j_query, columns.j_item, columns.j_label = request.query_col, request.item_col, request.label_col
    try:
        run = table_name(table, target.name) if table is not None else _file_relation(file, "run")
        judgments = None
        if judgments_table is not None:
            judgments = table_name(judgments_table, target.name)
        elif judgments_file is not None:
            judgments = _file_relation(judgments_file, "judgments")
        byte_order = options.ties in ("item-asc", "item-desc", "input-order") and item_type == "text"
        context = template_context(
            options, columns, run, judgments, "duckdb", target.fold,
            item_order=target.byte_order.format(item="item") if byte_order else "item",
            segments=resolved.segments, segmented_judgments=segmented_judgments,
        )
    except TypeError as error:
        raise OptionError(str(error)) from None
    return Plan(options, context, target, columns, resolved.measures, resolved)


def transpile(sql: str | exp.Expression, dialect: dialects.Dialect) -> str:
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


def over_per_query(per_query_sql: str, outer_sql: str) -> exp.Expression:
    """One statement: the per-query query as the CTE ``per_query_rows``, then ``outer_sql`` over it.

    Both are DuckDB source SQL; CTEs of ``outer_sql`` that the per-query
    query already defines (the normalised rows) are taken once.
    """
    inner = sqlglot.parse_one(per_query_sql, read="duckdb")
    outer = sqlglot.parse_one(outer_sql, read="duckdb")
    ctes = list(inner.args["with_"].expressions)
    body = inner.copy()
    body.set("with_", None)
    body.set("order", None)
    ctes.append(exp.CTE(this=body, alias=exp.TableAlias(this=exp.to_identifier(PER_QUERY_CTE))))
    names = {cte.alias for cte in ctes}
    if outer.args.get("with_"):
        ctes += [cte for cte in outer.args["with_"].expressions if cte.alias not in names]
    outer.set("with_", exp.With(expressions=ctes))
    return outer


def over_ctes(parts: list[tuple[str, str]], outer_sql: str) -> exp.Expression:
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
    seen: dict[str, exp.Expression] = {}

    def take(cte: exp.CTE) -> None:
        text = cte.this  # sqlglot trees compare by structure
        if cte.alias in seen:
            if seen[cte.alias] != text:
                raise ValueError(f"two steps define the CTE {cte.alias!r} differently")
            return
        seen[cte.alias] = text
        ctes.append(cte)

    def hoist(tree: exp.Expression) -> exp.Expression:
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
        body = hoist(sqlglot.parse_one(sql, read="duckdb"))
        body.set("order", None)
        take(exp.CTE(this=body, alias=exp.TableAlias(this=exp.to_identifier(name))))
    outer = hoist(sqlglot.parse_one(outer_sql, read="duckdb"))
    outer.set("with_", exp.With(expressions=ctes))
    return outer


def measure_statement(context: dict, measures: tuple[Measure, ...]) -> exp.Expression:
    """The long rows (query, measure, value) of the named measures as one
    statement (DuckDB source SQL tree), over the input relations of ``context``."""
    context = {**context, **measure_context(measures, context["ties"])}
    parts = []
    if context["graded_measures"]:
        parts.append((PER_QUERY_CTE, templates.render("per_query.sql.j2", **context)))
    if context["binary_measures"]:
        parts.append((BINARY_CTE, templates.render("measures_per_query.sql.j2", **context)))
    outer = templates.render(
        "measure_rows.sql.j2",
        **{**context, "per_query_relation": PER_QUERY_CTE if context["graded_measures"] else None,
           "binary_relation": BINARY_CTE if context["binary_measures"] else None},
    )
    return over_ctes(parts, outer)


def render(p: Plan, what: str = "per_query") -> str | exp.Expression:
    """The DuckDB source of ``what``: "per_query" (text), "summary" or "coverage" (sqlglot trees).

    Each is one statement.
    """
    if p.measures is not None:
        if what != "per_query":
            raise OptionError("with measures, SQL text is the per-query rows (query, measure, value) only")
        return measure_statement(p.context, p.measures)
    if what == "per_query":  # on its own: ordered by query and k
        return templates.render("per_query.sql.j2", ordered=True, **p.context)
    per_query = templates.render("per_query.sql.j2", **p.context)
    relation = PER_QUERY_CTE  # our own plain name, unquoted like the CTE it names
    if what == "summary":
        outer = templates.render("summary.sql.j2", **{**p.context, "per_query_relation": relation})
    elif what == "coverage":
        outer = templates.render("coverage.sql.j2", **{**p.context, "per_query_relation": relation})
    else:
        raise ValueError(f"unknown statement {what!r}")
    return over_per_query(per_query, outer)


@takes_options()
def to_sql(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    dialect: str = "duckdb",
    item_type: str = "text",
    what: str = "per_query",
    segmented_judgments: bool = False,
    request: Request,
) -> str:
    """The metric SQL over a table, for DuckDB or a warehouse.

    Args:
        table: the ranking table's name: "table", "schema.table",
            "db.schema.table" / "project.dataset.table" (split on dots), or a
            sequence of parts when a part contains a dot. Each part is quoted
            through sqlglot; plain parts are first folded to the engine's case
            (Snowflake upper, Postgres/Redshift lower; :mod:`ndcg_sql.dialects`).
        file: DuckDB only: instead of ``table``, a Parquet, CSV or JSON file
            that DuckDB reads (its path becomes a SQL string literal).
        judgments_table / judgments_file: the judgments, likewise.
        dialect: "duckdb" (default), "bigquery", "snowflake", "spark"
            (Databricks), "postgres" or "redshift".
        item_type: "text" (default) or "number": the item ids' type, needed
            with ``ties="item-asc"/"item-desc"/"input-order"`` only, where
            string ids are compared in byte order by the engine's own expression.
        what: "per_query" (query column, k, cg, dcg, idcg, ndcg; default),
            "summary" (k, ndcg, queries, no_relevant, evaluated; per segment
            with ``segments``) or "coverage" (query counts); each one statement.
            With ``measures``, "per_query" only: (query, measure, value) rows.
        segmented_judgments: with ``segments``, whether the judgments carry
            the segment columns (judgments per (segment, query)).
        The options (k, column names, gain, ties, measures, segments, ...):
            as :func:`ndcg_sql.evaluate`, listed below; intervals, bootstrap
            and seed shape the summary of :func:`ndcg_sql.evaluate` and
            are not part of this SQL.

    Returns:
        One SELECT statement in the dialect. Input checks are not part of it:
        run :func:`ndcg_sql.evaluate` for checked results.

    Raises:
        OptionError: invalid options, an unknown dialect, a bad table name,
            neither/both of score_col and rank_col, or float32 scores on an
            engine without a 32-bit float (BigQuery, Snowflake).
        sqlglot.errors.UnsupportedError: sqlglot cannot express the SQL in the
            dialect (never silently wrong SQL).
    """
    if request.intervals or request.bootstrap:
        raise OptionError("intervals and bootstrap are part of evaluate's summary, not of this SQL text")
    p = plan(
        table, file=file, judgments_table=judgments_table, judgments_file=judgments_file, dialect=dialect,
        item_type=item_type, segmented_judgments=segmented_judgments, **request.as_kwargs(),
    )
    return transpile(render(p, what), p.dialect)
