"""The public entry points :func:`evaluate` and :func:`to_sql` (and :func:`ndcg_sql.compare`).

Both take the options of :mod:`ndcg_sql.parameters` (the signature and help come from
there) and resolve them with :func:`ndcg_sql.context.resolve`; evaluate then checks the
data (:mod:`ndcg_sql.checking`) and runs the plan (:mod:`ndcg_sql.runner`) on DuckDB
(:mod:`ndcg_sql.local`) or on a warehouse connection, to_sql writes the same statements as text.
"""

from __future__ import annotations

from functools import partial
from typing import Iterable, Mapping, Sequence

import duckdb

from . import checking, context, conventions, dialects, local, plan, probe, runner, templates, validation
from .errors import InputError, OptionError
from .executors import DEFAULT_MEMORY_LIMIT, StatementFailed, Warehouse
from .id_types import type_names as id_type_names
from .parameters import DEFAULT_CUTOFFS, MAX_BOOTSTRAP_DRAWS, STATEMENTS
from .request import Request, takes_options
from .results import Result
from .sql_text import file_relation, table_name, transpile


@takes_options()
def evaluate(
    data,
    k=DEFAULT_CUTOFFS,  # its place only: the value comes in ``request``
    *,
    judgments=None,
    con=None,
    threads: int | None = None,
    input_format: str | None = None,
    judgments_format: str | None = None,
    dialect: str | None = None,
    per_query: bool = False,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    item_type: str | None = None,
    check: bool = True,
    temp_directory: str | None = None,
    max_bootstrap_draws: int = MAX_BOOTSTRAP_DRAWS,
    request: Request,
) -> Result:
    """CG, DCG, IDCG and NDCG@k (or named measures) per query and their mean, computed in SQL.

    NDCG@k = DCG@k / IDCG@k with DCG@k = sum over ranks r <= k of gain(label_r) / log2(r + 1)
    (Jarvelin & Kekalainen, ACM TOIS 2002); exponential gain 2^label - 1 as in Burges et al.
    (ICML 2005), LightGBM and XGBoost; linear gain and judgments as in trec_eval; tie
    averaging as in McSherry & Najork (ECIR 2008) and scikit-learn's ``ndcg_score``.

    Args:
        data: the ranking: one row per (query, item) with a query id, an item id, a score
            (higher is better) or a logged rank (1 = top), and, without ``judgments``, a
            relevance label (number >= 0). A path (Parquet, CSV, JSON, or a TREC run file), a
            table or view name in ``con``, a DuckDB relation, or a pandas/polars/Arrow object;
            on a warehouse connection a table name ("table", "schema.table", "db.schema.table"
            or a sequence of parts).
        k: cutoff(s) (see Options below).
        judgments: optional relevance judgments (qrels), same kinds as ``data``, with the
            query, item and label columns under the ranking's names. Labels then come from
            here (unjudged ranked items: 0), the ideal ranking uses all judged items of a
            query, and run queries with no judgment at all are left out (counted in
            ``coverage``).
        con: a DuckDB connection to run in (default: a new in-memory one), or a warehouse
            connection (DB-API 2.0, or a pyspark SparkSession) with ``dialect``: then the whole
            computation runs there, nothing is written, and only the summary, the counts and
            (``per_query=True``) the per-query rows come back: one statement for the input
            checks, the summary, the query counts and the per-query rows, naming each input
            table once; with judgments, one before them that reads no row
            gives the id columns' types (compared as :mod:`ndcg_sql.id_types` says).
        dialect: with a warehouse connection: "bigquery", "snowflake", "spark", "postgres",
            "redshift" or "duckdb" (a SparkSession: "spark" by default).
        per_query: with a warehouse connection, also fetch the per-query rows.
        item_type, check: with a warehouse connection: the item ids' type ("text" or
            "number"; default: from one fetched id), and whether to run the input checks.
        threads: DuckDB threads (default: DuckDB's own choice).
        memory_limit: DuckDB memory_limit of the connection evaluate opens when ``con`` is not
            given (default 1500MB; None: DuckDB's default, 80 % of RAM).
        temp_directory: where that connection gets the temp folder DuckDB spills to (default:
            the system's temp dir); a caller's connection keeps its own setting.
        max_bootstrap_draws: the most bootstrap replicates x per-query values on DuckDB.
        input_format, judgments_format: force a file format ("parquet", "csv", "json",
            "trec-run", "trec-qrels").

    Returns:
        :class:`ndcg_sql.Result`: per-query rows, summary, the options used and query counts.
        On DuckDB it holds temp tables (and the connection evaluate opened): ``close()`` it,
        or use ``with``; they also go once it and its relations are collected.

    Raises:
        OptionError: an option outside its domain (k <= 0, unknown gain, more threads than
            4 per core, ...) or contradicting another; a local bootstrap of more than
            ``max_bootstrap_draws`` draws (before it starts).
        InputError: unknown columns, wrong column types, empty input, NULL or NaN
            scores/ranks, NULL, NaN, negative, non-numeric or overflowing labels, duplicate
            (query, item) rows, segment columns missing or only partly in the judgments; the
            message names the column and a few offending query ids.
    """
    options = request.metric()
    warehouse = Warehouse(con, dialect) if con is not None and not isinstance(con, duckdb.DuckDBPyConnection) else None
    # the options first, before any data is read (whether judgments carry the segment columns,
    # and so whether missing_queries="zero" may go with segments, only the data tells)
    early = context.resolve(options, "run", "judgments" if judgments is not None else None,
                            dialect=warehouse.dialect.name if warehouse else "duckdb",
                            segmented_judgments=judgments is not None)
    if warehouse is not None:
        return _on_warehouse(warehouse, data, judgments, options, item_type, per_query, check)
    return local.evaluate(con, data, judgments, request, early, local.Settings(
        input_format, judgments_format, memory_limit, threads, temp_directory, max_bootstrap_draws))


def _on_warehouse(executor: Warehouse, table, judgments, options: dict, item_type, per_query, check) -> Result:
    """:func:`evaluate` on a warehouse connection (table names there). The named columns are checked
    as on DuckDB from what :mod:`ndcg_sql.probe` reads (no row); an engine's failure is worded, the
    connection usable again (:class:`ndcg_sql.executors.StatementFailed`)."""
    target = executor.dialect
    relations = (table_name(table, target.name), table_name(judgments, target.name) if judgments is not None else None)
    first = context.resolve(options, *relations, dialect=target.name, item_type=item_type or "text",
                            segmented_judgments=judgments is not None)
    columns = checking.Columns.of(options, first.order_col, judgments is not None, first.label)
    # after a failed statement: a missing table or column, in DuckDB's words
    refuse_missing = partial(probe.refuse_missing, executor, first, columns, (table, judgments))
    try:
        found = probe.before(executor, first, columns, (table, judgments))
        segmented = found.check(first, columns)
        hints, seen_item_type = found.id_hints(executor, columns, as_text=conventions.ids_as_text(first.convention))
        item_type = item_type or seen_item_type
        resolved = context.resolve(options, *relations, dialect=target.name, item_type=item_type or "text",
                                   segmented_judgments=segmented, hints=hints)
        if item_type is None and resolved.context["item_order"] != "item":
            # the SQL differs by the ids' type (the byte-order tie-break of Postgres and Snowflake): one id tells
            _, rows = executor.fetch(plan.item_probe(plan.reading_input_once(resolved)))
            if not (rows and isinstance(rows[0][0], str)):
                resolved = context.resolve(options, *relations, dialect=target.name, item_type="number",
                                           segmented_judgments=segmented, hints=hints)
        checks = validation.checks_for(resolved.options, columns.roles(), dialect=target.name,
                                       label_expression=resolved.label is not None) if check else None
        return runner.run(executor, plan.reading_input_once(resolved), per_query=per_query, checks=checks,
                          diagnose=refuse_missing)
    except StatementFailed as failed:  # a statement besides the metric's (the probes, the checks' own)
        refuse_missing()
        raise InputError(local.engine_failure(target.name, table, judgments, options, failed.__cause__)) from failed.__cause__


@takes_options()
def sql_plan(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    dialect: str = "duckdb",
    item_type: str = "text",
    segmented_judgments: bool = False,
    id_types: Mapping[str, str] | Iterable[str] | None = None,
    request: Request,
) -> tuple[context.Resolved, dialects.Dialect]:
    """The options of :func:`to_sql` resolved for its dialect: (resolved options and context, dialect).

    Raises:
        OptionError: as :func:`to_sql`.
    """
    if (table is None) == (file is None):
        raise OptionError("give exactly one of table and file")
    target = dialects.get(dialect)
    if target.name != "duckdb" and (file is not None or judgments_file is not None):
        raise OptionError(f"files can be read by DuckDB only; for {target.name} give table names")
    run = table_name(table, target.name) if table is not None else file_relation(file, "run")
    judged = None
    if judgments_table is not None:
        judged = table_name(judgments_table, target.name)
    elif judgments_file is not None:
        judged = file_relation(judgments_file, "judgments")
    hints = {"id_types": id_type_names(id_types)} if id_types is not None else None
    resolved = context.resolve(request.metric(), run, judged, dialect=target.name, item_type=item_type,
                               segmented_judgments=segmented_judgments, hints=hints)
    return resolved, target


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
    id_types: Mapping[str, str] | Iterable[str] | None = None,
    request: Request,
) -> str:
    """The metric SQL over a table, for DuckDB or a warehouse: the statements :func:`evaluate`
    runs there, as text.

    Args:
        table: the ranking table's name: "table", "schema.table", "db.schema.table" /
            "project.dataset.table" (split on dots), or a sequence of parts when a part
            contains a dot. Each part is quoted through sqlglot; plain parts are first folded
            to the engine's case (Snowflake upper, Postgres/Redshift lower; ndcg_sql/dialects.py).
        file: DuckDB only: instead of ``table``, a Parquet, CSV or JSON file that DuckDB reads
            (its path becomes a SQL string literal).
        judgments_table / judgments_file: the judgments, likewise.
        dialect: "duckdb" (default), "bigquery", "snowflake", "spark" (Databricks),
            "postgres" or "redshift".
        item_type: "text" (default) or "number": the item ids' type, needed with
            ``ties="item-asc"/"item-desc"/"input-order"`` only, where text ids are compared in
            byte order by the engine's own expression.
        what: "per_query" (default: the per-query rows), "summary" (the summary, the same
            columns as evaluate's, intervals included) or "coverage" (query counts); each one
            statement.
        segmented_judgments: with ``segments``, whether the judgments carry the segment
            columns (judgments per (segment, query)).
        id_types: the id columns' types as the engine writes them by role, "query", "item",
            "judgments_query", "judgments_item" (``{"query": "INT64", "judgments_query": "STRING"}``
            or texts "query=INT64"): ids are compared by the rule :func:`evaluate` applies to the
            types it inspects (``sql/options/id_forms.sql``: as text in TREC form when the two sides
            differ), and known item ids decide ``item_type``. A role not given, a type not listed
            (ndcg_sql/dialects.py ``type_names``), or None (default): compared as stored.
        The options: as :func:`ndcg_sql.evaluate`, listed below.

    Returns:
        One SELECT statement in the dialect. Input checks are not part of it: run
        :func:`ndcg_sql.evaluate` for checked results.

    Raises:
        OptionError: invalid options, an unknown dialect or statement, a bad table name,
            neither/both of table and file, an id_types role not known, or float32 scores on an
            engine without a 32-bit float (BigQuery, Snowflake).
        InputError: id_types gives an id column a type with no text form (an array, a struct).
        sqlglot.errors.UnsupportedError: sqlglot cannot express the SQL in the dialect
            (never silently wrong SQL).
    """
    if what not in STATEMENTS:
        raise OptionError(f"what must be one of {', '.join(STATEMENTS)}; got {what!r}")
    resolved, target = sql_plan(table, file=file, judgments_table=judgments_table, judgments_file=judgments_file,
                                dialect=dialect, item_type=item_type, segmented_judgments=segmented_judgments,
                                id_types=id_types, **request.metric())
    if what == "per_query":
        return runner.per_query_sql(resolved, target)
    steps = plan.Steps()
    if what == "summary":
        _, statement = plan.build(steps, resolved)
    else:
        per_query = plan.per_query_rows(steps, resolved, keep=False)
        statement = templates.render("coverage.sql.j2", **{**resolved.context, "per_query_relation": per_query})
    return transpile(steps.statement(statement), target)
