"""The Python runner: load the input into DuckDB, check it, run the metric SQL.

Nothing is computed here: every number comes from the SQL in ``sql/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import duckdb

from . import identifiers, inputs, suite, templates, validation
from .arguments import MAX_REPLICATES, OUTPUT_COLUMNS, Request, takes_options  # noqa: F401 (re-exported)
from .identifiers import quote
from .options import DEFAULT_CUTOFFS, Options, OptionError
from .validation import InputError


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
    row: str | None = None

    def roles(self) -> dict[str, str]:
        return {key: value for key, value in self.__dict__.items() if value is not None}


#: DuckDB memory_limit of a connection this package opens itself: large logs then
#: spill to disk instead of growing hash tables and sorts up to DuckDB's own
#: default (80 % of RAM). A 100M-row log peaks at about 1.6 GB with it and runs
#: as fast as without (README, Performance).
DEFAULT_MEMORY_LIMIT = "1500MB"
_MEMORY_SIZE = re.compile(r"^[0-9]+(\.[0-9]+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)


def connect(memory_limit: str | None = DEFAULT_MEMORY_LIMIT) -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB connection with ``memory_limit`` (e.g. "4GB"; None: DuckDB's default).

    Raises:
        OptionError: a memory limit that is not a number with a unit (B, KB, MB, GB, TB, KiB, ...).
    """
    con = duckdb.connect()
    if memory_limit is not None:
        if not isinstance(memory_limit, str) or not _MEMORY_SIZE.match(memory_limit.strip()):
            raise OptionError(f"memory_limit must be a size such as '1500MB' or '4GB'; got {memory_limit!r}")
        con.execute(f"SET memory_limit = '{memory_limit.strip()}'")
    return con


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


#: Whole numbers up to this are exact doubles, and so are their sums while they stay below it.
EXACT_WHOLE = 2**53


def exact_gains(options: Options, labels: tuple | None, longest_list: int | None) -> bool:
    """Whether every gain of the input is a whole number and no list's gains add up past 2^53.

    Then every sum of gains a query has is exact in doubles, whatever order its
    terms come in (sql/ranked_items.sql.j2 uses it to average tie groups without
    ordering their items). ``labels`` is (lowest, highest, count of non-whole
    labels) of the labels gains are taken from; ``longest_list`` the most items
    of any list. False when either is unknown.
    """
    if longest_list is None:
        return False
    if options.gain == "mapping":
        gains = [value for _, value in options.gain_mapping]
        if not all(float(value).is_integer() for value in gains):
            return False
        largest = max(abs(value) for value in gains)
    else:
        if labels is None or labels[0] is None or labels[2]:
            return False
        lowest, highest = float(labels[0]), float(labels[1])
        if options.negative_labels == "zero":
            lowest, highest = max(lowest, 0.0), max(highest, 0.0)
        if options.gain == "exponential":
            if lowest < 0 or highest > 52:
                return False
            largest = 2.0**highest
        else:
            largest = max(abs(lowest), abs(highest))
    return max(1, longest_list) * largest <= EXACT_WHOLE


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
    segments: tuple[str, ...] = (),
    segmented_judgments: bool = False,
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
    ``segments``: segment column names (user names, quoted here);
    ``segmented_judgments``: the judgments carry them too.
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
        "row_col": quote(columns.row) if columns.row else None,
        "score_precision": options.score_precision,
        "negative_labels": options.negative_labels,
        "no_relevant": options.no_relevant,
        "missing_queries": options.missing_queries,
        "cutoffs": cutoffs,
        "head_length": head,
        "ideal_labels": None if known_labels is None else [{"label": repr(label)} for label in known_labels],
        "tail_cutoffs": [
            cutoff for cutoff in cutoffs if beyond_head and (cutoff["k"] is None or cutoff["k"] > head)
        ],
        "exact_gains": options.ties == "average" and exact_gains(options, labels, longest_list),
        # the query key is (segments, query) (sql/normalised_rows.sql.j2)
        "segment_cols": [quote(s) for s in segments],
        # judgments per (segment, query); absent without segments (the templates default it to false)
        **({"segmented_judgments": bool(segmented_judgments)} if segments else {}),
    }


def require_pandas():
    """Import and return pandas (with numpy, which DuckDB's ``.df()`` needs too).

    Raises:
        ImportError: pandas or numpy is not installed; the message names the
            extra that installs them.
    """
    try:
        import numpy  # noqa: F401
        import pandas
    except ImportError as error:
        raise ImportError(
            f"DataFrame results need pandas and numpy ({error}): pip install 'ndcg_sql[dataframes]', "
            "or use summary_records() / per_query_records(), which need neither"
        ) from error
    return pandas


@dataclass
class Result:
    """The outcome of :func:`evaluate`.

    With ``measures=``, ``per_query`` is one row per (query, measure): the
    query id, measure (its name, e.g. "P@5") and value (DOUBLE); ``summary``
    one row per measure in the order asked: measure, mean, queries, stderr,
    ci_low, ci_high; ``definitions`` gives each measure's formula and source.

    Attributes:
        per_query: DuckDB relation, one row per (query, k), ordered by query
            and k (the whole list last): the query id under
            its input column name, k (NULL for the whole list), cg, dcg, idcg,
            ndcg (DOUBLE; ndcg NULL for a skipped no-relevant query).
            Computed by DuckDB each time it is read (the same numbers, to the
            bit): a large log's per-query rows are not held in memory unless
            asked for, so the input must still be there when they are read.
        summary: DuckDB relation, one row per k: k, ndcg (mean), queries
            (counted in the mean), no_relevant (queries with IDCG@k = 0),
            and with ``intervals=True`` ndcg_stderr, ndcg_ci_low, ndcg_ci_high
            (standard error and normal 95% interval of the mean; NULL below
            2 queries).
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
    definitions: list = field(default_factory=list)

    def per_query_df(self):
        """Per-query rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        require_pandas()
        return self.per_query.df()

    def summary_df(self):
        """Summary rows as a pandas DataFrame (needs pandas: ImportError naming the extra otherwise)."""
        require_pandas()
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
        if self.definitions:
            out["definitions"] = self.definitions
        if per_query:
            out["per_query"] = self.per_query_records()
        return out


def _records(relation: duckdb.DuckDBPyRelation) -> list[dict]:
    names = relation.columns
    return [dict(zip(names, row)) for row in relation.fetchall()]


def _columns(
    run_types: dict[str, str],
    judgment_types: dict[str, str] | None,
    request: Request,
    options_kind: str,
) -> Columns:
    """The user's columns by role, checked to exist with usable types.

    Raises:
        InputError: a column missing, or of a type that is neither number nor text.
    """
    query_col, item_col, label_col = request.query_col, request.item_col, request.label_col
    order = request.rank_col if options_kind == "rank" else (request.score_col or "score")
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
    if request.row_col is not None:
        _require(run_types, {"row order": request.row_col}, "ranking")
        if run_types[request.row_col].split("(")[0].upper() not in validation.NUMERIC_TYPES:
            raise InputError(f"column {request.row_col!r} of the ranking has type {run_types[request.row_col]}; "
                             "row numbers must be numbers")
        columns.row = request.row_col
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
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition, "rows": check.rows})
    sql = templates.render(
        "validate_counts.sql.j2",
        relations=[{"name": name, "checks": items} for name, items in relations.items()],
        **context,
    )
    names, rows = fetch(sql)
    counts = {name.lower(): value for name, value in zip(names, rows[0])}
    _refuse_empty_inputs(counts)
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
            values = None
            if check.values:
                _, rows = fetch(templates.render(
                    "validate_values.sql.j2", relation=check.relation, condition=check.condition,
                    value=check.values, limit=validation.EXAMPLES + 1, **context,
                ))
                values = [r[0] for r in rows]
            input_rows = int(counts[f"rows_{index}"] or 0) if check.rows else None
            problems.append(validation.describe_failure(check, failing, query_col, examples, input_rows, values))
    if problems:
        raise InputError("bad input:\n  " + "\n  ".join(problems))



def _refuse_empty_inputs(counts: dict) -> None:
    """Raise InputError when the ranking or the judgments have no rows.

    ``counts`` holds "run_rows_count" and, with judgments, "judgment_rows_count"
    (from ``validate_counts.sql.j2`` or ``validate_lists.sql.j2``).
    """
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if counts.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))


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
    _refuse_empty_inputs(profile)
    if any(profile[f"{name}_problems"] for name in row_checks):
        validate(fetch, context, checks, query_col)
    labelled = "judgment_rows" if "judgment_rows" in row_checks else "run_rows"
    return {
        "longest_list": max(profile[f"{name}_longest"] for name in row_checks),
        "labels": tuple(profile[f"{labelled}_{key}"] for key in ("lowest_label", "highest_label", "fractional_labels")),
    }


@takes_options()
def evaluate(
    data,
    k=DEFAULT_CUTOFFS,  # its place only: the value comes in ``request`` (ndcg_sql/arguments.py)
    *,
    judgments=None,
    con: duckdb.DuckDBPyConnection | None = None,
    threads: int | None = None,
    input_format: str | None = None,
    judgments_format: str | None = None,
    dialect: str | None = None,
    per_query: bool = False,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    request: Request,
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
        k: cutoff(s) (see Options below).
        judgments: optional relevance judgments (qrels), same kinds as ``data``
            (a TREC qrels file for unknown file endings), with the query,
            item and label columns under the same names as the ranking's.
            Then labels come from here (unjudged ranked items: 0), the ideal
            ranking uses all judged items of a query, and run queries with no
            judgment at all are left out (counted in ``coverage``).
        con: DuckDB connection to run in (default: a new in-memory one); or
            a warehouse connection (DB-API 2.0, or a pyspark SparkSession) with
            ``dialect``: then ``data`` and ``judgments`` are table names there,
            the whole computation runs in the warehouse and a
            :class:`ndcg_sql.warehouse.WarehouseResult` comes back
            (:func:`ndcg_sql.warehouse.evaluate`; every option works there).
        dialect: with a warehouse connection: "bigquery", "snowflake",
            "spark", "postgres" or "redshift" (a SparkSession: "spark").
        per_query: with a warehouse connection, also fetch per-query rows.
        threads: DuckDB threads (default: DuckDB's own choice).
        memory_limit: DuckDB memory_limit of the connection evaluate opens
            when ``con`` is not given (default :data:`DEFAULT_MEMORY_LIMIT`,
            1500MB; None: DuckDB's default, 80 % of RAM); past it DuckDB
            spills to disk. A given ``con`` keeps its own setting.
        input_format, judgments_format: force a file format
            ("parquet", "csv", "json", "trec-run", "trec-qrels").

    Returns:
        :class:`Result` with ``per_query`` and ``summary`` relations, pandas
        and dict accessors, the options used and query coverage counts.

    Raises:
        OptionError: an option outside its domain (k <= 0, unknown gain, ...)
            or contradicting another.
        InputError: unknown columns, wrong column types, empty input, NULL or
            NaN scores/ranks, NULL, NaN, negative, non-numeric or overflowing
            labels, duplicate (query, item) rows, segments with
            missing_queries="zero" and judgments without the segment columns;
            the message names the column and a few offending query ids.
    """
    if con is not None and not isinstance(con, duckdb.DuckDBPyConnection):
        from . import warehouse

        return warehouse.evaluate(con, data, dialect=dialect, judgments=judgments, per_query=per_query,
                                  **request.as_kwargs())
    resolved = request.resolve(judgments is not None)
    options, measure_list, segment_list = resolved.options, resolved.measures, resolved.segments
    if con is None:
        con = connect(memory_limit)
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
        columns = _columns(run_types, judgment_types, request, options.input_kind)
        segmented_judgments = _check_segments(run_types, judgment_types, segment_list, options)
        context = template_context(
            options, columns, quote(run_view), quote(judgments_view) if judgments_view else None,
            segments=segment_list, segmented_judgments=segmented_judgments,
        )
        profile = profile_input(duckdb_fetch(con), context, validation.checks_for(options, columns.roles()), request.query_col)
        context = template_context(
            options, columns, quote(run_view), quote(judgments_view) if judgments_view else None,
            longest_list=profile["longest_list"], labels=profile["labels"],
            segments=segment_list, segmented_judgments=segmented_judgments,
        )
        per_query_sql = templates.render("per_query.sql.j2", **context)
        report = resolved.report()
        if measure_list is None and not segment_list and not request.intervals and not request.bootstrap:
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
            per_query = con.sql(
                f"SELECT * FROM ({per_query_sql}) AS per_query_rows "
                f"ORDER BY {quote(request.query_col)} ASC NULLS LAST, k ASC NULLS LAST"
            )
            summary = con.sql(f"SELECT k, ndcg, queries, no_relevant FROM {quote(summary_table)}")
        else:
            # measures, segments, intervals, bootstrap: the per-query rows are kept in a table
            per_query_table, summary_table, coverage = suite.run_all(
                con, context, measure_list, segment_list, request.bootstrap, request.seed, report,
            )
            coverage.update(_coverage(con, context))
            for view in views:
                inputs.drop(con, view)
            per_query, summary = con.table(per_query_table), con.table(summary_table)
    except BaseException:
        for view in views:
            inputs.drop(con, view)
        raise
    return Result(
        per_query=per_query,
        summary=summary,
        options=report,
        coverage=coverage,
        sql=_measure_sql(context, measure_list) if measure_list is not None else per_query_sql,
        definitions=suite.definitions(measure_list) if measure_list is not None else [],
    )


def _check_segments(run_types: dict, judgment_types: dict | None, segments: tuple[str, ...], options) -> bool:
    """Check the segment columns on the data; True when the judgments carry them all
    (then judgments are per (segment, query)).

    Raises:
        InputError: a segment column missing from the ranking; some but not
            all segment columns in the judgments; missing_queries="zero"
            with judgments that do not carry the segment columns.
    """
    if not segments:
        return False
    _require(run_types, {f"segment {i}": s for i, s in enumerate(segments, 1)}, "ranking")
    if judgment_types is None:
        return False
    present = [s for s in segments if s in judgment_types]
    if present and len(present) != len(segments):
        raise InputError(
            f"the judgments have the segment column(s) {', '.join(map(repr, present))} but not "
            f"{', '.join(repr(s) for s in segments if s not in judgment_types)}: give all segment columns "
            "(judgments per (segment, query)) or none (judgments per query, for every segment)"
        )
    if not present and options.missing_queries != "ignore":
        raise InputError(
            "segments with missing_queries='zero' need the segment columns "
            f"({', '.join(map(repr, segments))}) on the judgments too: a judged query absent from the run "
            "has no segment of its own. Give judgments per (segment, query) (e.g. the judgments repeated "
            "for each experiment arm), or use missing_queries='ignore'"
        )
    return bool(present)


def _measure_sql(context: dict, measures) -> str:
    """The measures as one DuckDB statement, for Result.sql (ndcg_sql/sql_text.py builds it)."""
    from .sql_text import measure_statement  # sql_text imports this module

    return measure_statement(context, measures).sql(dialect="duckdb", pretty=True) + "\n"


def _coverage(con, context: dict) -> dict:
    """With judgments: run queries left out for want of judgments, judged queries missing from the run."""
    if not context["judgments"]:
        return {}
    sql = templates.render("coverage.sql.j2", **context)
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    row = cursor.fetchall()[0]
    return {name: value for name, value in zip(names, row) if value is not None}
