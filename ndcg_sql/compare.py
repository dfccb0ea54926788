"""Comparing two runs on the same queries: paired differences and tests.

Every number except the t distribution's p-value and quantile is computed in
SQL (``sql/paired_differences.sql.j2``, ``sql/paired_tests.sql.j2``); those two
come from scipy (``pip install scipy``, the ``stats`` extra), the well-kept library for
Student's t distribution.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import duckdb

from . import activity, context, id_types, templates
from .api import evaluate
from .connections import Leftovers, connect, drop, interruptible, turn
from .dialects import DialectName
from .errors import MissingDependency, OptionError
from .identifiers import quote
from .inputs import new_view_name
from .parameters import (Checks, COMPARED_MEASURES, DEFAULTS, MAX_PERMUTATIONS, Discount, Format, GainOption, ItemType,
                         MissingQueries, Names, NegativeLabels, NoRelevant, ScorePrecision, Source, Ties, Unjudged)
from .plan import RANDOM_PRIME
from .results import run_names
from .results import Comparison, Result, records as _records

#: compare's own arguments; the others are evaluate's options, passed for both runs.
_OWN = ("run_a", "run_b", "measures", "con", "seed", "permutations", "memory_limit", "temp_directory", "names")


def _t_distribution():
    try:
        from scipy import stats
    except ImportError:  # pragma: no cover - the test extra installs scipy
        raise MissingDependency(
            "compare needs scipy for the t distribution: pip install scipy (ndcg_sql's 'stats' extra)"
        ) from None
    return stats.t


#: DuckDB types of a comparison's summary columns (after the segment columns).
SUMMARY_TYPES = {
    "measure": "VARCHAR", "queries": "BIGINT", "mean_a": "DOUBLE", "mean_b": "DOUBLE", "mean_difference": "DOUBLE",
    "stderr": "DOUBLE", "ci_low": "DOUBLE", "ci_high": "DOUBLE", "t": "DOUBLE", "df": "BIGINT",
    "t_p_value": "DOUBLE", "permutation_p_value": "DOUBLE", "permutation_kind": "VARCHAR",
    "wins": "BIGINT", "ties": "BIGINT", "losses": "BIGINT", "only_a": "BIGINT", "only_b": "BIGINT",
}


def _summary_table(con, rows: list[dict], segment_types: dict[str, str], leftovers: Leftovers) -> duckdb.DuckDBPyRelation:
    """The summary rows as a DuckDB temp table (in their order, listed in ``leftovers``), read as a relation."""
    name = new_view_name("comparison_summary", con)
    columns = {**segment_types, **SUMMARY_TYPES}
    con.execute(f"CREATE TEMP TABLE {quote(name)} (" + ", ".join(f"{quote(c)} {t}" for c, t in columns.items()) + ")")
    leftovers.add("TABLE", name)
    if rows:
        con.executemany(f"INSERT INTO {quote(name)} VALUES ({', '.join('?' for _ in columns)})",
                        [[row.get(c) for c in columns] for row in rows])
    return con.table(name)


def _query_ids_alike(con, a_table: str, b_table: str, query_col: str, made: list) -> tuple[str, str]:
    """The two runs' per-query relations with their query ids in one type, by the id rule of
    :mod:`ndcg_sql.id_types` (an integer run against a TREC file's text ids: both as text in
    TREC form), so that pairing them is never an engine's implicit cast."""
    types = [dict(zip(r.columns, map(str, r.types))) for r in (con.sql(f"SELECT * FROM {t} LIMIT 0")
                                                                for t in (a_table, b_table))]
    if query_col not in types[0] or query_col not in types[1]:
        return a_table, b_table
    forms = id_types.pair_forms(types[0][query_col], types[1][query_col])
    if forms == ("native", "native"):
        return a_table, b_table
    out = []
    for table, form in zip((a_table, b_table), forms):
        name = new_view_name("query_ids_as_text", con)
        cast = templates.sql_macros()._id_of(quote(query_col), form)
        con.execute(f"CREATE TEMP VIEW {quote(name)} AS SELECT * REPLACE ({cast} AS {quote(query_col)}) FROM {table}")
        made.append(("VIEW", name))
        out.append(quote(name))
    return out[0], out[1]


def compare(
    run_a: Source,
    run_b: Source,
    measures: str | Sequence[str] = COMPARED_MEASURES,
    *,
    judgments: Source = DEFAULTS.judgments,
    con: object = None,
    query_col: str = DEFAULTS.query_col,
    item_col: str = DEFAULTS.item_col,
    score_col: str | None = DEFAULTS.score_col,
    rank_col: str | None = DEFAULTS.rank_col,
    label_col: str = DEFAULTS.label_col,
    label: str | None = DEFAULTS.label,
    gain: GainOption = DEFAULTS.gain,
    discount: Discount = DEFAULTS.discount,
    log_base: float = DEFAULTS.log_base,
    ties: Ties = DEFAULTS.ties,
    no_relevant: NoRelevant = DEFAULTS.no_relevant,
    missing_queries: MissingQueries = DEFAULTS.missing_queries,
    unjudged: Unjudged = DEFAULTS.unjudged,
    convention: str | None = DEFAULTS.convention,
    row_col: str | None = DEFAULTS.row_col,
    score_precision: ScorePrecision = DEFAULTS.score_precision,
    negative_labels: NegativeLabels = DEFAULTS.negative_labels,
    segments: Names = DEFAULTS.segments,
    seed: int = DEFAULTS.seed,
    input_format: Format | None = DEFAULTS.input_format,
    judgments_format: Format | None = DEFAULTS.judgments_format,
    threads: int | None = DEFAULTS.threads,
    memory_limit: str | None = DEFAULTS.memory_limit,
    temp_directory: str | os.PathLike[str] | None = DEFAULTS.temp_directory,
    checks: Checks = DEFAULTS.checks,
    dialect: DialectName | None = None,
    item_type: ItemType | None = None,
    permutations: int = DEFAULTS.permutations,
    names: tuple[str, str] | None = None,
) -> Comparison:
    """Compare two runs on the queries both evaluated, per measure (and per segment).

    For each measure, with d_i = a_i - b_i over the n paired queries: mean
    difference, standard error s_d / sqrt(n), the 95% t interval
    dbar -/+ t_{0.975, n-1} SE, the paired t-test (Student 1908; equal to
    scipy.stats.ttest_rel), a two-sided sign-flip permutation test (Fisher
    1935; Smucker, Allan & Carterette, CIKM 2007; exact when 2^n <=
    permutations, else ``permutations`` patterns fixed by ``seed``), and
    wins / ties / losses. Each run is evaluated by :func:`ndcg_sql.evaluate` with
    the options given here; with ``segments``, one summary row per (segment values,
    measure), pairing each run's (segment, query) rows.

    Args:
        run_a, run_b: two rankings, any input :func:`ndcg_sql.evaluate` takes
            (table names on a warehouse connection).
        con: DuckDB connection (default: a new in-memory one with ``memory_limit`` and
            ``temp_directory``, as :func:`ndcg_sql.evaluate` opens it), or a warehouse
            connection with ``dialect``: each run's per-query values are computed there
            (:func:`ndcg_sql.evaluate` with ``con=``), only those rows come back, and the
            paired statistics are computed by the same SQL in a local DuckDB.
        names: what the text and JSON outputs call A and B, two strings (default: runs given as
            paths or table names by the shortest ends that tell them apart, as ``ndcg-sql plot``'s
            legend; others by their kind, "a DataFrame": :func:`ndcg_sql.results.run_names`).

    Keyword Args:
        measures: measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, DCG@k,
            P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most unjudged items
            could add), ERR@k (gdeval's), with a relevance threshold for the binary ones as P(rel=2)@5 (label >= 1 by
            default; MAP, MRR, Hit@k are aliases); formulas and sources in ndcg_sql/measures.py. AP, RR, Success and
            ERR need ties "item-asc", "item-desc" or "input-order". Per-query rows are then (query, measure, value) and
            the summary one row per measure. Default: ('nDCG@10',).
        judgments: relevance judgments (qrels) with the query, item and label columns: labels and the ideal ranking
            come from here. Default: None.
        query_col: query id column name (case-sensitive; default "query_id").
        item_col: item id column name (default "item_id").
        score_col: score column, higher is better (default "score").
        rank_col: logged rank column (1 = top; smaller is better), used instead of a score; giving both score_col and
            rank_col raises OptionError. Default: None.
        label_col: relevance label column (number >= 0; of the judgments when they are given; default "label").
        label: a relevance label computed from the input's columns, instead of label_col: a SQL expression of column
            names, numbers, + - * /, comparisons (counting 1 when true, 0 when false), AND, OR, NOT, CASE, COALESCE,
            LEAST, GREATEST and CAST, e.g. 'clicked + 2 * purchased' or 'CASE WHEN watch_seconds >= 180 THEN 2 WHEN
            watch_seconds >= 60 THEN 1 ELSE 0 END'; over the judgments' columns when judgments are given. Parsed by
            sqlglot, names quoted, nothing else accepted (ndcg_sql/labels.py). Default: None.
        gain: "exponential" (2^label - 1; Burges et al. 2005), "linear" (label; trec_eval) or a mapping {label: gain}
            of finite non-negative numbers (command line: 0:0,1:1,2:3). Default: 'exponential'.
        discount: discount of rank r (1 = top), b = log_base: "log" 1/log_b(r + 1) (the usual one; b = 2 in trec_eval,
            scikit-learn, LightGBM, XGBoost), or "jarvelin" (Jarvelin & Kekalainen, TOIS 2002): 1 for r < b, 1/log_b(r)
            for r >= b. Reported with every result. Default: 'log'.
        log_base: b of the discount, a finite number > 1 (default 2): with discount "log" it scales DCG by ln(2)/ln(b)
            as scikit-learn's dcg_score(log_base=b) does (NDCG is unchanged).
        ties: "average" (tie-aware, McSherry & Najork 2008), "item-asc" / "item-desc" (item id in byte order;
            trec_eval: "item-desc"), or "input-order" (row_col ascending; LightGBM, XGBoost). Default: 'average'.
        no_relevant: NDCG of a query with IDCG@k = 0: "zero", "skip" (left out of the mean) or "one". Default: 'zero'.
        missing_queries: with judgments, judged queries absent from the run: "ignore", or "zero" (count as 0, trec_eval
            -c). Default: 'ignore'.
        unjudged: with judgments, ranked items without a judgment: "zero" (count as label 0) or "condense" (removed
            before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J, pytrec_eval
            judged_docs_only_flag=True). Default: 'zero'.
        convention: set gain, ties, no_relevant, score_precision and negative_labels as a peer tool does: "trec_eval"
            (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), "xgboost-minus" (ndcg@k-); see
            ndcg_sql/conventions.py. A given option with another non-default value raises OptionError, and so do query
            weights or measures the tool does not have. Default: None.
        row_col: with ties="input-order" (and only then), the column holding each row's input position (smaller first),
            e.g. a row number. Default: None.
        score_precision: "double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as
            trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float). Default: 'double'.
        negative_labels: "error" (InputError), or "zero" (count as label 0, as trec_eval). Default: 'error'.
        segments: column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the query key:
            every metric per (segment values, query); per-query rows carry the segment columns and the summary has one
            row per (segment values, k or measure). Judgments without the segment columns apply to every segment the
            query occurs in; judgments with them (same names) are per (segment, query), and only then may
            missing_queries be "zero". Default: None.
        seed: non-negative integer fixing the bootstrap resamples and the sampled permutations (the same on every
            engine and version: sql/random_draws.sql.j2). Default: 0.
        input_format: force the ranking file's format (its ending decides otherwise). Default: None.
        judgments_format: force the judgments file's format. Default: None.
        threads: DuckDB threads (default: DuckDB's own choice, all cores; at most 4 per core).
        memory_limit: DuckDB memory_limit of a connection ndcg_sql opens itself, past which DuckDB spills to disk
            (None, command line 'none': DuckDB's own, 80% of RAM). Default: '1500MB'.
        temp_directory: the folder in which a connection ndcg_sql opens itself gets a temp folder of its own for DuckDB
            to spill to (default: the system's temp dir); that folder is removed when the result is closed or
            collected, on an error, and at exit.
        checks: "all": every input check (bad input raises InputError naming the column); "trusted": none, for input
            gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad input gives wrong
            numbers, not an error (docs/safety.md). An empty input is still refused, and every result reports
            checks=trusted. Default: 'all'.
        dialect: with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb" (a SparkSession: "spark" by default). Default: None.
        item_type: with a warehouse connection: the item ids' type ("text" or "number"; default: from one fetched id).
        permutations: sign patterns of compare's permutation test (1 .. 1,000,000; exact when 2^queries is fewer).
            Default: 10000.

    Returns:
        :class:`Comparison`: ``close()`` it (or use ``with``) to drop its temp tables.

    Raises:
        OptionError: bad options, permutations, seed or names.
        MissingDependency: scipy is not installed (an ImportError naming the extra).
        InputError: bad input in either run.
        TypeError: a keyword that is not an option of compare (k, intervals, bootstrap and
            weight_col are not: its paired tests weigh every query alike).
    """
    # the options of evaluate, for both runs: every argument but compare's own
    options = {name: value for name, value in locals().items() if name not in _OWN}
    if isinstance(permutations, bool) or not isinstance(permutations, int) or not 1 <= permutations <= MAX_PERMUTATIONS:
        raise OptionError(f"permutations must be an integer from 1 to {MAX_PERMUTATIONS}; got {permutations!r}")
    seed = context.option_macros()._checked_seed(context.plain(seed))
    if names is None:
        first, second = run_names([run_a, run_b])
        names = (first, second)
    elif not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise OptionError(f"names must be two strings, the names of A and B; got {names!r}")
    t_dist = _t_distribution()
    on_warehouse = con is not None and not isinstance(con, duckdb.DuckDBPyConnection)
    local = con if isinstance(con, duckdb.DuckDBPyConnection) else connect(memory_limit, temp_directory=temp_directory)
    leftovers = Leftovers(local, owned=local is not con)
    runs: list[Result] = []
    made: list[tuple[str, str]] = []  # what only the computation reads, dropped before returning
    try:
        with turn(local):
            comparison = _compare(local, con if on_warehouse else local, on_warehouse, run_a, run_b, measures,
                                  permutations, seed, options, t_dist, runs, made, leftovers)
            drop(local, list(reversed(made)))
            comparison.names = names
            return comparison
    except BaseException:
        drop(local, list(reversed(made)))
        for run in runs:
            run.close()
        leftovers.release()
        raise


def _compare(con, runs_on, on_warehouse: bool, run_a, run_b, measures, permutations: int, seed: int,
             options: dict, t_dist, runs: list, made: list, leftovers: Leftovers) -> Comparison:
    """:func:`compare` on the local connection ``con`` (each run evaluated on ``runs_on``);
    appends the runs' results to ``runs``, what it creates to ``made`` (or to ``leftovers``,
    what the comparison reads)."""
    with activity.doing(runs_on, "run A"):
        runs.append(evaluate(run_a, measures=measures, con=runs_on, per_query=on_warehouse, **options))
    with activity.doing(runs_on, "run B"):
        runs.append(evaluate(run_b, measures=measures, con=runs_on, per_query=on_warehouse, **options))
    a, b = runs
    if on_warehouse:
        a_table, b_table = (quote(_local_table(con, r, made)) for r in (a, b))
    else:
        a_table, b_table = (quote(_view(con, r, made)) for r in (a, b))
    query_col = quote(options["query_col"])
    a_table, b_table = _query_ids_alike(con, a_table, b_table, options["query_col"], made)
    segments = [quote(s) for s in a.options.get("segments", [])]
    differences = new_view_name("paired_differences", con)
    statement = (f"CREATE TEMP TABLE {quote(differences)} AS "
                 + templates.render("paired_differences.sql.j2", a_relation=a_table, b_relation=b_table,
                                    output_query_col=query_col, segment_cols=segments))
    interruptible(con, lambda: con.execute(statement))
    leftovers.add("TABLE", differences)
    with activity.doing(con, f"paired tests, up to {permutations} sign patterns"):
        tests = _fetched(con, templates.render(
            "paired_tests.sql.j2", differences_relation=quote(differences), output_query_col=query_col,
            permutations=int(permutations), exact_max_queries=int(permutations).bit_length() - 1,
            seed_state=int(seed) % RANDOM_PRIME, group_cols=[*segments, "measure"],
            segment_cols=segments,
        ))
    names = a.options.get("segments", [])
    key = lambda row: (*(row[n] for n in names), row["measure"])  # noqa: E731
    by_group = {key(row): row for row in tests}
    unpaired = {key(row): row for row in _fetched(con, templates.render(
        "unpaired_counts.sql.j2", a_relation=a_table, b_relation=b_table, output_query_col=query_col,
        segment_cols=segments,
    ))}
    segment_values = sorted({k[:-1] for k in (*by_group, *unpaired)}, key=_none_last)
    summary = []
    for values in segment_values:
        for name in a.options["measures"]:
            row = by_group.get((*values, name)) or {"measure": name, "queries": 0}
            counts = unpaired.get((*values, name), {})
            out = _with_t(row, t_dist, counts.get("only_a", 0), counts.get("only_b", 0))
            summary.append({**dict(zip(names, values)), **out})
    report = {**a.options, "permutations": permutations, "seed": seed}
    paired = con.table(differences)
    types = dict(zip(paired.columns, map(str, paired.types)))
    summary_relation = _summary_table(con, summary, {n: types.get(n, "VARCHAR") for n in names}, leftovers)
    # the connection compare opened goes once the comparison's relations and the runs' are collected
    leftovers.watch(paired, summary_relation, a.per_query, a.summary, b.per_query, b.summary)
    return Comparison(paired, summary_relation, a, b, report, leftovers)


def _fetched(con, sql: str) -> list[dict]:
    """The rows of a statement as dicts (interruptible by Ctrl-C)."""
    return interruptible(con, lambda: _records(con.sql(sql)))


def _view(con, result: Result, made: list) -> str:
    """A temp view over a local result's per-query rows (listed in ``made``); returns its name."""
    name = new_view_name("per_query", con)
    relation = result.per_query
    assert isinstance(relation, duckdb.DuckDBPyRelation)  # a local result's rows
    con.execute(f"CREATE TEMP VIEW {quote(name)} AS {relation.sql_query()}")
    made.append(("VIEW", name))
    return name


def _none_last(values: tuple) -> tuple:
    return tuple((value is None, value) for value in values)


#: DuckDB column type by the Python type of a fetched value.
_LOCAL_TYPES = {bool: "BOOLEAN", int: "BIGINT", float: "DOUBLE", str: "VARCHAR"}


def _local_table(con, result, made: list) -> str:
    """A warehouse result's per-query rows (query, measure, value; segment
    columns first) as a local DuckDB temp table (listed in ``made``); returns its name."""
    table = new_view_name("warehouse_per_query", con)
    made.append(("TABLE", table))
    rows = result.per_query_records()
    query_col = next(iter(rows[0])) if rows else "query_id"
    columns = [*result.options.get("segments", []), *(list(rows[0]) if rows else [query_col, "measure", "value"])]
    columns = list(dict.fromkeys(columns))
    types = []
    for column in columns:
        kinds = {type(row.get(column)) for row in rows if row.get(column) is not None}
        kind = float if kinds == {int, float} else (kinds.pop() if len(kinds) == 1 else str)
        types.append("DOUBLE" if column == "value" else _LOCAL_TYPES.get(kind, "VARCHAR"))
    con.execute(f"CREATE TEMP TABLE {quote(table)} ("
                + ", ".join(f"{quote(c)} {t}" for c, t in zip(columns, types)) + ")")
    if rows:
        # one statement: each column a list parameter, unnested side by side (row by row, an
        # INSERT per row, took about 10 minutes a million rows)
        make = {local: python for python, local in _LOCAL_TYPES.items()}
        values = [[None if row.get(c) is None else make[t](row.get(c)) for row in rows] for c, t in zip(columns, types)]
        con.execute(f"INSERT INTO {quote(table)} SELECT "
                    + ", ".join(f"UNNEST(CAST(${i} AS {t}[]))" for i, t in enumerate(types, 1)), values)
    return table


def _with_t(row: dict, t_dist, only_a: int, only_b: int) -> dict:
    """Add the t p-value and interval (scipy's t distribution) to one SQL row."""
    n = row.get("queries", 0)
    out = {
        "measure": row["measure"], "queries": n, "mean_a": row.get("mean_a"), "mean_b": row.get("mean_b"),
        "mean_difference": row.get("mean_difference"), "stderr": row.get("stderr"),
        "ci_low": None, "ci_high": None, "t": row.get("t"), "df": row.get("df"), "t_p_value": None,
        "permutation_p_value": row.get("permutation_p_value"), "permutation_kind": row.get("permutation_kind"),
        "wins": row.get("wins", 0), "ties": row.get("ties", 0), "losses": row.get("losses", 0),
        "only_a": only_a, "only_b": only_b,
    }
    if out["stderr"] is not None:
        half = float(t_dist.ppf(0.975, n - 1)) * out["stderr"]
        out["ci_low"], out["ci_high"] = out["mean_difference"] - half, out["mean_difference"] + half
    if out["t"] is not None:
        out["t_p_value"] = float(2.0 * t_dist.sf(abs(out["t"]), n - 1))
    return out
