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


#: Positions 1..HEAD_LENGTH of each ranking get a column each in the DCG sums
#: (sql/dcg_at_cutoffs.sql.j2); at least the default cutoffs, at most this many.
DEFAULT_HEAD_LENGTH = 20
MAX_HEAD_LENGTH = 32


def head_length(cutoffs, longest_list: int | None = None) -> int:
    """How many top positions are summed column-wise (sql/dcg_at_cutoffs.sql.j2).

    When ``longest_list`` (the most items any ranking or ideal ranking of the
    input has) is known and at most :data:`MAX_HEAD_LENGTH`, exactly that: no
    position lies past the head. Otherwise the largest finite cutoff, at least
    :data:`DEFAULT_HEAD_LENGTH` and at most :data:`MAX_HEAD_LENGTH`.
    """
    if longest_list is not None and longest_list <= MAX_HEAD_LENGTH:
        return max(1, longest_list)
    finite = [k for k in cutoffs if k is not None]
    return min(MAX_HEAD_LENGTH, max([DEFAULT_HEAD_LENGTH, *finite]))


#: The ideal ranking is built by counting items per label when there are at most this many labels.
MAX_COUNTED_LABELS = 16


def ideal_labels(options: Options, labels: tuple | None) -> list[float] | None:
    """The labels with a positive gain that may occur, by gain descending, when few and known.

    ``labels`` is (lowest, highest, count of non-whole labels) of the input;
    whole-number labels between lowest and highest are all listed (a label that
    does not occur is counted 0 times). With a gain mapping its labels are
    known. None when there are too many labels or they are not known.
    """
    if options.gain == "mapping":
        positive = sorted((pair for pair in options.gain_mapping if pair[1] > 0), key=lambda pair: -pair[1])
        return [label for label, _ in positive] if len(positive) <= MAX_COUNTED_LABELS else None
    if labels is None or labels[0] is None or labels[2]:
        return None
    lowest, highest = int(labels[0]), int(labels[1])
    if highest - lowest >= MAX_COUNTED_LABELS:
        return None
    # exponential (2^label - 1) and linear (label) gains grow with the label and are 0 at label 0
    return [float(label) for label in range(highest, lowest - 1, -1) if label > 0]


def template_context(
    options: Options,
    columns: Columns,
    run_relation: str,
    judgments_relation: str | None = None,
    dialect: str = "duckdb",
    fold: str | None = None,
    item_order: str = "item",
    longest_list: int | None = None,
    labels: tuple | None = None,
) -> dict:
    """Everything the templates need; names quoted for ``dialect``, numbers validated.

    ``fold`` is the target engine's case rule for plain names and
    ``item_order`` the item-id tie-break expression (both from
    :mod:`ndcg_sql.dialects`; the defaults are DuckDB's).
    ``longest_list``: the most items of any ranked list or judged query, when
    known (it lets the SQL skip the sums past the head); ``labels``: (lowest,
    highest, count of non-whole labels) of the labels the ideal ranking is
    built from, when known (it lets the SQL count items per label instead of
    sorting them). Results are the same with or without them.
    """
    mapping = [(repr(label), repr(value)) for label, value in options.gain_mapping]
    cutoffs = [{"id": index + 1, "k": k} for index, k in enumerate(options.cutoffs)]
    head = head_length(options.cutoffs, longest_list)
    known_labels = ideal_labels(options, labels)
    beyond_head = longest_list is None or longest_list > head

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
        "cutoffs": cutoffs,
        "head_length": head,
        "ideal_labels": None if known_labels is None else [{"label": repr(label)} for label in known_labels],
        "tail_cutoffs": [
            cutoff for cutoff in cutoffs if beyond_head and (cutoff["k"] is None or cutoff["k"] > head)
        ],
        # summary.sql.j2 groups by these besides k (the dbt package's segments); none here
        "segment_cols": [],
    }


@dataclass
class Result:
    """The outcome of :func:`evaluate`.

    Attributes:
        per_query: DuckDB relation, one row per (query, k), ordered by query
            and k (the whole list last): the query id under
            its input column name, k (NULL for the whole list), cg, dcg, idcg,
            ndcg (DOUBLE; ndcg NULL for a skipped no-relevant query).
            Computed by DuckDB each time it is read (the same numbers, to the
            bit): a large log's per-query rows are not held in memory unless
            asked for, so the input must still be there when they are read.
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



def profile_input(fetch, context: dict, checks: list[validation.Check], query_col: str) -> dict:
    """The input checks in one pass per relation (``sql/validate_lists.sql.j2``), for DuckDB.

    Only when something is wrong does :func:`validate` count each check and
    raise its message. Returns what the metric SQL may use to skip work (the
    results are the same): "longest_list", the items of the longest list
    (ranked list, or judged query with judgments), and "labels": (lowest,
    highest, how many are not whole numbers) of the labels the ideal ranking
    is built from.

    Raises:
        InputError: as :func:`validate`.
    """
    row_checks: dict[str, list[dict]] = {}
    for index, check in enumerate(checks):
        if not check.relation.endswith("_duplicate_pairs"):
            row_checks.setdefault(check.relation, []).append({"id": index, "condition": check.condition})
    sql = templates.render(
        "validate_lists.sql.j2",
        relations=[{"name": name, "checks": items} for name, items in row_checks.items()],
        **context,
    )
    names, rows = fetch(sql)
    profile = {name.lower(): value for name, value in zip(names, rows[0])}
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if profile.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))
    if any(profile[f"{name}_problems"] for name in row_checks):
        validate(fetch, context, checks, query_col)
    labelled = "judgment_rows" if "judgment_rows" in row_checks else "run_rows"
    return {
        "longest_list": max(profile[f"{name}_longest"] for name in row_checks),
        "labels": tuple(profile[f"{labelled}_{key}"] for key in ("lowest_label", "highest_label", "fractional_labels")),
    }


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
        profile = profile_input(duckdb_fetch(con), context, validation.checks_for(options, columns.roles()), query_col)
        context = template_context(
            options, columns, quote(run_view), quote(judgments_view) if judgments_view else None,
            longest_list=profile["longest_list"], labels=profile["labels"],
        )
        per_query_sql = templates.render("per_query.sql.j2", **context)
        # the summary is computed from the per-query rows in the same statement; the
        # per-query rows are not kept (on a large log they outweigh everything else)
        # but computed again when read: the same numbers, to the bit
        summary_table = inputs.new_view_name("summary")
        summary_sql = templates.render(
            "summary.sql.j2", per_query_relation=f"({per_query_sql}) AS per_query_rows", cutoffs=context["cutoffs"],
            segment_cols=[],
        )
        con.execute(f"CREATE TEMP TABLE {quote(summary_table)} AS {summary_sql}")
        evaluated = con.execute(f"SELECT COALESCE(MAX(evaluated), 0) FROM {quote(summary_table)}").fetchall()[0][0]
        coverage = {"evaluated": evaluated, **_coverage(con, context)}
    except BaseException:
        for view in views:
            inputs.drop(con, view)
        raise
    return Result(
        per_query=con.sql(
            f"SELECT * FROM ({per_query_sql}) AS per_query_rows "
            f"ORDER BY {quote(query_col)} ASC NULLS LAST, k ASC NULLS LAST"
        ),
        summary=con.sql(f"SELECT k, ndcg, queries, no_relevant FROM {quote(summary_table)}"),
        options=options.report(),
        coverage=coverage,
        sql=per_query_sql,
    )


def _coverage(con, context: dict) -> dict:
    """With judgments: run queries left out for want of judgments, judged queries missing from the run."""
    if not context["judgments"]:
        return {}
    sql = templates.render("coverage.sql.j2", **context)
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    row = cursor.fetchall()[0]
    return {name: value for name, value in zip(names, row) if value is not None}
