"""The Python runner: load the input into DuckDB, check it, run the metric SQL.

Nothing is computed here: every number comes from the SQL in ``sql/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb

from . import identifiers, inputs, templates, validation
from .identifiers import quote
from .options import DEFAULT_CUTOFFS, Options, OptionError
from .validation import InputError

#: Output column names; a query column with one of these names would be ambiguous.
OUTPUT_COLUMNS = ("k", "cg", "dcg", "idcg", "ndcg")


@dataclass
class Columns:
    """User column names by role (the run's, and the judgments')."""

    query: str
    item: str
    order: str
    label: str | None
    j_query: str | None = None
    j_item: str | None = None
    j_label: str | None = None

    def roles(self) -> dict[str, str]:
        return {key: value for key, value in self.__dict__.items() if value is not None}


def template_context(
    options: Options,
    columns: Columns,
    run_relation: str,
    judgments_relation: str | None = None,
    dialect: str = "duckdb",
    fold: str | None = None,
    item_order: str = "item",
) -> dict:
    """Everything the templates need; names quoted for ``dialect``, numbers validated.

    ``fold`` is the target engine's case rule for plain names and
    ``item_order`` the item-id tie-break expression (both from
    :mod:`ndcg_sql.dialects`; the defaults are DuckDB's).
    """
    mapping = [(repr(label), repr(value)) for label, value in options.gain_mapping]

    def quote(name: str) -> str:
        return identifiers.quote(name, dialect, fold)

    return {
        "run_relation": run_relation,
        "judgments_relation": judgments_relation,
        "judgments": options.judgments,
        "query_col": quote(columns.query),
        "item_col": quote(columns.item),
        "order_col": quote(columns.order),
        "label_col": quote(columns.label) if columns.label else None,
        "j_query_col": quote(columns.j_query) if columns.j_query else None,
        "j_item_col": quote(columns.j_item) if columns.j_item else None,
        "j_label_col": quote(columns.j_label) if columns.j_label else None,
        "output_query_col": quote(columns.query),
        "item_order": item_order,
        "input_kind": options.input_kind,
        "gain": options.gain,
        "gain_mapping": mapping,
        "ties": options.ties,
        "no_relevant": options.no_relevant,
        "missing_queries": options.missing_queries,
        "cutoffs": [{"id": index + 1, "k": k} for index, k in enumerate(options.cutoffs)],
        # summary.sql.j2 groups by these besides k (the dbt package's segments); none here
        "segment_cols": [],
    }


@dataclass
class Result:
    """The outcome of :func:`evaluate`.

    Attributes:
        per_query: DuckDB relation, one row per (query, k): the query id under
            its input column name, k (NULL for the whole list), cg, dcg, idcg,
            ndcg (DOUBLE; ndcg NULL for a skipped no-relevant query).
        summary: DuckDB relation, one row per k: k, ndcg (mean), queries
            (counted in the mean), no_relevant (queries with IDCG@k = 0).
        options: the conventions that produced the numbers (:meth:`Options.report`).
        coverage: query counts: evaluated; with judgments also
            unjudged_ignored (run queries with no judgment) and missing_from_run.
        sql: the per-query SQL that was run.
    """

    per_query: duckdb.DuckDBPyRelation
    summary: duckdb.DuckDBPyRelation
    options: dict
    coverage: dict
    sql: str = field(repr=False, default="")

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas)."""
        return self.per_query.df()

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas)."""
        return self.summary.df()

    def summary_records(self) -> list[dict]:
        """Summary rows as plain dicts (k is None for the whole list)."""
        return _records(self.summary)

    def per_query_records(self) -> list[dict]:
        """Per-query rows as plain dicts."""
        return _records(self.per_query)

    def to_dict(self, per_query: bool = False) -> dict:
        """{"options", "coverage", "summary"[, "per_query"]} with full-precision floats."""
        out = {"options": self.options, "coverage": self.coverage, "summary": self.summary_records()}
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


def _records(relation: duckdb.DuckDBPyRelation) -> list[dict]:
    names = relation.columns
    return [dict(zip(names, row)) for row in relation.fetchall()]


def _columns(
    run_types: dict[str, str],
    judgment_types: dict[str, str] | None,
    query_col: str,
    item_col: str,
    score_col: str | None,
    rank_col: str | None,
    label_col: str,
    options_kind: str,
) -> Columns:
    order = rank_col if options_kind == "rank" else score_col
    columns = Columns(query_col, item_col, order, None if judgment_types is not None else label_col)
    wanted = {"query": query_col, "item": item_col, options_kind: order}
    if judgment_types is None:
        wanted["label"] = label_col
    _require(run_types, wanted, "ranking")
    if judgment_types is not None:
        columns.j_query, columns.j_item, columns.j_label = query_col, item_col, label_col
        _require(judgment_types, {"query": query_col, "item": item_col, "label": label_col}, "judgments")
        validation.check_types(judgment_types, {label_col: "label"}, "judgments")
        roles = {order: options_kind}
    else:
        roles = {order: options_kind, label_col: "label"}
    validation.check_types(run_types, roles, "ranking")
    if query_col.lower() in OUTPUT_COLUMNS:
        raise InputError(
            f"the query column may not be named {query_col!r}: the output has a column of that name"
        )
    return columns


def _require(types: dict[str, str], wanted: dict[str, str], where: str) -> None:
    missing = [f"{role} column {name!r}" for role, name in wanted.items() if name not in types]
    if missing:
        raise InputError(
            f"the {where} has no {', no '.join(missing)}; its columns are: {', '.join(types)}"
        )


def duckdb_fetch(con: duckdb.DuckDBPyConnection):
    """A fetch function for :func:`validate`: run DuckDB SQL, return (column names, rows)."""

    def fetch(sql: str) -> tuple[list[str], list[tuple]]:
        rows = con.execute(sql).fetchall()
        return [d[0] for d in con.description], rows

    return fetch


def validate(fetch, context: dict, checks: list[validation.Check], query_col: str, render=None) -> None:
    """Run the input checks; raise :class:`InputError` listing every failed one.

    Args:
        fetch: runs one DuckDB-source SQL statement and returns (column
            names, rows) (:func:`duckdb_fetch`, or a warehouse's).
        context: the template context; checks: from :func:`validation.checks_for`.
        query_col: the user's query column name, for the message.
    """
    relations: dict[str, list[dict]] = {}
    for index, check in enumerate(checks):
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition})
    sql = templates.render(
        "validate_counts.sql.j2",
        relations=[{"name": name, "checks": items} for name, items in relations.items()],
        **context,
    )
    names, rows = fetch(sql)
    counts = {name.lower(): value for name, value in zip(names, rows[0])}
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if counts.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))
    problems = []
    for index, check in enumerate(checks):
        failing = int(counts[f"check_{index}"] or 0)
        if failing:
            examples = []
            if check.query_ids_known:
                _, rows = fetch(
                    templates.render(
                        "validate_examples.sql.j2",
                        relation=check.relation,
                        condition=check.condition,
                        limit=validation.EXAMPLES + 1,
                        **context,
                    )
                )
                examples = [r[0] for r in rows]
            problems.append(validation.describe_failure(check, failing, query_col, examples))
    if problems:
        raise InputError("bad input:\n  " + "\n  ".join(problems))


def evaluate(
    data,
    k=DEFAULT_CUTOFFS,
    *,
    judgments=None,
    query_col: str = "query_id",
    item_col: str = "item_id",
    score_col: str | None = None,
    rank_col: str | None = None,
    label_col: str = "label",
    gain="exponential",
    ties: str = "average",
    no_relevant: str = "zero",
    missing_queries: str = "ignore",
    con: duckdb.DuckDBPyConnection | None = None,
    threads: int | None = None,
    input_format: str | None = None,
    judgments_format: str | None = None,
    dialect: str | None = None,
    per_query: bool = False,
) -> Result:
    """CG, DCG, IDCG and NDCG@k per query and their mean per cutoff, computed in DuckDB.

    NDCG@k = DCG@k / IDCG@k with DCG@k = sum over ranks r <= k of
    gain(label_r) / log2(r + 1) (Jarvelin & Kekalainen, ACM TOIS 2002);
    exponential gain 2^label - 1 as in Burges et al. (ICML 2005), LightGBM and
    XGBoost; linear gain and judgments as in trec_eval; tie averaging as in
    McSherry & Najork (ECIR 2008) and scikit-learn's ``ndcg_score``.

    Args:
        data: the ranking: one row per (query, item) with a query id, an item
            id, a score (higher is better) or a logged rank (1 = top), and,
            without ``judgments``, a relevance label (number >= 0). A path
            (Parquet, CSV, JSON, or a TREC run file), a table or view name in
            ``con``, a DuckDB relation, or a pandas/polars/Arrow object.
        k: cutoff(s): positive int(s); None or "all" is the whole list.
            Default: 1, 3, 5, 10, 20 and the whole list.
        judgments: optional relevance judgments (qrels), same kinds as ``data``
            (a TREC qrels file for unknown file endings), with the query,
            item and label columns under the same names as the ranking's.
            Then labels come from here (unjudged ranked items: 0), the ideal
            ranking uses all judged items of a query, and run queries with no
            judgment at all are left out (counted in ``coverage``).
        query_col, item_col, label_col: column names (case-sensitive).
        score_col: score column (higher is better); default "score".
        rank_col: logged rank column (1 = top), used instead of a score.
        gain: "exponential" (2^label - 1), "linear" (label) or {label: gain}.
        ties: "average" (tie-aware), "item-asc" or "item-desc" (trec_eval).
        no_relevant: NDCG of a query with IDCG@k = 0: "zero", "skip", "one".
        missing_queries: with judgments, judged queries absent from the run:
            "ignore" or "zero" (trec_eval -c).
        con: DuckDB connection to run in (default: a new in-memory one); or
            a warehouse connection (DB-API 2.0, or a pyspark SparkSession) with
            ``dialect``: then ``data`` and ``judgments`` are table names there,
            the whole computation runs in the warehouse and a
            :class:`ndcg_sql.warehouse.WarehouseResult` comes back
            (:func:`ndcg_sql.warehouse.evaluate`).
        dialect: with a warehouse connection: "bigquery", "snowflake",
            "spark", "postgres" or "redshift" (a SparkSession: "spark").
        per_query: with a warehouse connection, also fetch per-query rows.
        threads: DuckDB threads (default: DuckDB's own choice).
        input_format, judgments_format: force a file format
            ("parquet", "csv", "json", "trec-run", "trec-qrels").

    Returns:
        :class:`Result` with ``per_query`` and ``summary`` relations, pandas
        and dict accessors, the options used and query coverage counts.

    Raises:
        OptionError: an option outside its domain (k <= 0, unknown gain, ...).
        InputError: unknown columns, wrong column types, empty input, NULL or
            NaN scores/ranks, NULL, NaN, negative, non-numeric or overflowing
            labels, duplicate (query, item) rows; the message names the column
            and a few offending query ids.
    """
    if con is not None and not isinstance(con, duckdb.DuckDBPyConnection):
        from . import warehouse

        return warehouse.evaluate(
            con, data, dialect=dialect, judgments=judgments, k=k, query_col=query_col, item_col=item_col,
            score_col=score_col, rank_col=rank_col, label_col=label_col, gain=gain, ties=ties,
            no_relevant=no_relevant, missing_queries=missing_queries, per_query=per_query,
        )
    if score_col is not None and rank_col is not None:
        raise OptionError("give score_col (--score-col) or rank_col (--rank-col), not both")
    options = Options.build(
        k=k,
        gain=gain,
        ties=ties,
        no_relevant=no_relevant,
        missing_queries=missing_queries,
        judgments=judgments is not None,
        input_kind="rank" if rank_col is not None else "score",
    )
    if score_col is None and rank_col is None:
        score_col = "score"
    if con is None:
        con = duckdb.connect()
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise OptionError(f"threads must be a positive integer; got {threads!r}")
        con.execute(f"SET threads = {int(threads)}")

    run_view, run_types = inputs.load(con, data, "run", input_format)
    views = [run_view]
    try:
        judgment_types = None
        judgments_view = None
        if judgments is not None:
            judgments_view, judgment_types = inputs.load(con, judgments, "judgments", judgments_format)
            views.append(judgments_view)
        columns = _columns(
            run_types, judgment_types, query_col, item_col, score_col, rank_col, label_col, options.input_kind
        )
        context = template_context(
            options, columns, quote(run_view), quote(judgments_view) if judgments_view else None
        )
        validate(duckdb_fetch(con), context, validation.checks_for(options, columns.roles()), query_col)

        per_query_sql = templates.render("per_query.sql.j2", **context)
        per_query_table = inputs.new_view_name("per_query")
        con.execute(f"CREATE TEMP TABLE {quote(per_query_table)} AS {per_query_sql}")
        coverage = _coverage(con, context, per_query_table)
    finally:
        for view in views:
            inputs.drop(con, view)
    summary_table = inputs.new_view_name("summary")
    summary_sql = templates.render(
        "summary.sql.j2", per_query_relation=quote(per_query_table), **context
    )
    con.execute(f"CREATE TEMP TABLE {quote(summary_table)} AS {summary_sql}")
    return Result(
        per_query=con.table(per_query_table),
        summary=con.table(summary_table),
        options=options.report(),
        coverage=coverage,
        sql=per_query_sql,
    )


def _coverage(con, context: dict, per_query_table: str) -> dict:
    sql = templates.render("coverage.sql.j2", per_query_relation=quote(per_query_table), **context)
    row = con.execute(sql).fetchone()
    names = [d[0] for d in con.description]
    return {name: value for name, value in zip(names, row) if value is not None}
