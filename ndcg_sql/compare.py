"""Comparing two runs on the same queries: paired differences and tests.

Every number except the t distribution's p-value and quantile is computed in
SQL (``sql/paired_differences.sql.j2``, ``sql/paired_tests.sql.j2``); those two
come from scipy (``pip install scipy``, the ``stats`` extra), the well-kept library for
Student's t distribution.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import duckdb

from .building import context
from .building import comparison_plan
from .building import plan as plans

from .vocabulary import activity, corrections
from .api import evaluate
from .data.connections import Leftovers, check_connection_options, connect, drop, turn
from .vocabulary.dialects import DialectName
from .vocabulary.errors import InputError, MissingDependency, OptionError
from .running.executors import DuckDB, StatementFailed, Warehouse
from .vocabulary.parameters import (ALPHA, Checks, COMPARED_MEASURES, Correction, DEFAULTS, MAX_PERMUTATIONS, Discount, Format,
                         GainOption, ItemType, MissingQueries, Names, NegativeLabels, NoRelevant, ScorePrecision,
                         SIGNIFICANCE_TESTS, SignificanceTest, Source, Ties, Unjudged)
from .comparisons import LETTERS, Comparisons, checked_alpha
from .running.results import run_names
from .running.results import Comparison, Result, plain

#: compare's own arguments; the others are evaluate's options, passed for both runs.
_OWN = ("run_a", "run_b", "runs", "measures", "con", "seed", "permutations", "memory_limit", "temp_directory",
        "strict_memory_limit", "names",
        "correction", "baseline", "alpha", "test")


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
    "contrast": "VARCHAR", "stderr": "DOUBLE", "ci_low": "DOUBLE", "ci_high": "DOUBLE", "t": "DOUBLE", "df": "BIGINT",
    "t_p_value": "DOUBLE", "permutation_p_value": "DOUBLE", "permutation_kind": "VARCHAR",
    "wins": "BIGINT", "ties": "BIGINT", "losses": "BIGINT", "only_a": "BIGINT", "only_b": "BIGINT",
    "t_p_value_adjusted": "DOUBLE", "permutation_p_value_adjusted": "DOUBLE", "family_size": "BIGINT",
    "correction": "VARCHAR",
}
#: DuckDB types of a comparison of several runs' summary columns: run_a, run_b, the segment
#: columns, then these.
PAIR_TYPES = {
    "measure": "VARCHAR", "queries": "BIGINT", "mean_a": "DOUBLE", "mean_b": "DOUBLE", "mean_difference": "DOUBLE",
    "contrast": "VARCHAR", "stderr": "DOUBLE", "ci_low": "DOUBLE", "ci_high": "DOUBLE", "t": "DOUBLE", "df": "BIGINT",
    "t_p_value": "DOUBLE", "t_p_value_adjusted": "DOUBLE", "permutation_p_value": "DOUBLE",
    "permutation_p_value_adjusted": "DOUBLE", "permutation_kind": "VARCHAR", "tukey_p_value": "DOUBLE",
    "family_size": "BIGINT", "correction": "VARCHAR", "wins": "BIGINT", "ties": "BIGINT", "losses": "BIGINT",
    "only_a": "BIGINT", "only_b": "BIGINT",
}


def _corrected(rows: list[dict], segments: Sequence[str], correction: str) -> None:
    """Add t_p_value_adjusted, permutation_p_value_adjusted, family_size and correction to each
    row, the family being the rows of one segment's values (every pair x measure):
    :func:`ndcg_sql.vocabulary.corrections.adjusted` of the t and the permutation p-values apart."""
    families: dict[tuple, list[dict]] = {}
    for row in rows:
        families.setdefault(tuple(row.get(s) for s in segments), []).append(row)
    for family in families.values():
        for raw in ("t_p_value", "permutation_p_value"):
            values = [row.get(raw) for row in family]
            for row, value in zip(family, corrections.adjusted(values, correction)):
                row[raw + "_adjusted"] = value
        size = corrections.family_size([row.get("permutation_p_value") for row in family])
        for row in family:
            row["family_size"], row["correction"] = size, correction


def _run(executor: DuckDB, program: comparison_plan.Program, made: list, leftovers: Leftovers) -> dict[str, list[dict]]:
    """Run a comparison's ``program`` on the local connection (:meth:`DuckDB.run_program`): what the
    result reads goes to ``leftovers``, what only the work reads to ``made`` (dropped once it is
    done). Returns the fetched rows by name."""
    done = executor.run_program(program)
    for kind, name in done.kept:
        leftovers.add(kind, name)
    made.extend(done.made)
    return done.rows


def _per_query_rows(result: Result) -> duckdb.DuckDBPyRelation:
    """A local result's per-query rows (their SQL is what a comparison's view of the run reads)."""
    relation = result.per_query
    assert isinstance(relation, duckdb.DuckDBPyRelation)  # a local result's rows
    return relation


def compare(
    run_a: Source,
    run_b: Source,
    measures: str | Sequence[str] = COMPARED_MEASURES,
    max_grade: int = DEFAULTS.max_grade,
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
    strict_memory_limit: bool = DEFAULTS.strict_memory_limit,
    checks: Checks = DEFAULTS.checks,
    dialect: DialectName | None = None,
    item_type: ItemType | None = None,
    permutations: int = DEFAULTS.permutations,
    correction: Correction | None = DEFAULTS.correction,
    names: tuple[str, str] | None = None,
) -> Comparison:
    """Compare two runs on the queries both evaluated, per measure (and per segment).

    For each measure, with d_i = a_i - b_i over the n paired queries: mean
    difference, standard error s_d / sqrt(n), the 95% t interval
    dbar -/+ t_{0.975, n-1} SE, the paired t-test (Student 1908; equal to
    scipy.stats.ttest_rel), a two-sided sign-flip permutation test (Fisher
    1935; Smucker, Allan & Carterette, CIKM 2007; exact when 2^n <=
    permutations, else ``permutations`` patterns fixed by ``seed``), and
    wins / ties / losses; with more than one measure, both p-values adjusted for multiple
    testing over each segment's measures (``correction``; :func:`compare_runs` compares more
    than two runs). Each run is evaluated by :func:`ndcg_sql.evaluate` with
    the options given here; with ``segments``, one summary row per (segment values,
    measure), pairing each run's (segment, query) rows. A geometric measure (``gm_map``) is compared
    on its per-query values, which are logarithms (ln max(AP, 1e-5), trec_eval's): its row reports
    the ratio A / B of the geometric means, exp(dbar), with the interval exponentiated and the
    standard error by the delta method (``contrast`` "ratio"; "difference" for every other measure).

    Args:
        run_a, run_b: two rankings, any input :func:`ndcg_sql.evaluate` takes
            (table names on a warehouse connection).
        con: DuckDB connection (default: a new in-memory one with ``memory_limit``,
            ``temp_directory`` and ``strict_memory_limit``, as :func:`ndcg_sql.evaluate` opens it), or a warehouse
            connection with ``dialect``: each run is evaluated there (:func:`ndcg_sql.evaluate`
            with ``con=``, its input checked), and the paired statistics are computed there by the
            same SQL (per-query values, differences, t, df, the permutation counts, wins / ties /
            losses; one statement for the pair); only the summary rows come back, so the
            comparison's ``per_query`` holds no rows (the differences stay in the warehouse).
        names: what the text and JSON outputs call A and B, two strings (default: runs given as
            paths or table names by the shortest ends that tell them apart, as ``ndcg-sql plot``'s
            legend; others by their kind, "a DataFrame": :func:`ndcg_sql.running.results.run_names`).

    Keyword Args:
        measures: measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, DCG@k,
            P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most unjudged items
            could add), ERR@k (gdeval's), Bpref, infAP, Rprec, IPrec@0.5 (interpolated precision at recall 0.5), gm_map
            (the geometric mean of AP), SetP, SetR (precision and recall of the whole list), with a relevance threshold
            for the binary ones as P(rel=2)@5 (label >= 1 by default; MAP, MRR, Hit@k, GMAP, set_P, set_recall are
            aliases); formulas and sources in ndcg_sql/vocabulary/measures.py. AP, RR, Success, ERR, Bpref, infAP,
            IPrec and gm_map need ties "item-asc", "item-desc" or "input-order". Per-query rows are then (query,
            measure, value) and the summary one row per measure. Default: ('nDCG@10',).
        max_grade: the top grade of the relevance scale, which ERR reads: R = (2^g - 1) / 2^max_grade for a label g
            (Chapelle et al. 2009; default 4, gdeval.pl's MAX_JUDGMENT); an integer from 1 to 1023. With ERR a label
            above it raises InputError (gdeval.pl refuses it too); without ERR it must be left as it is.
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
            sqlglot, names quoted, nothing else accepted (ndcg_sql/building/labels.py). Default: None.
        gain: "exponential" (2^label - 1; Burges et al. 2005), "linear" (label; trec_eval) or a mapping {label: gain}
            of finite non-negative numbers (command line: 0:0,1:1,2:3); in Python and on the command line, for labels
            given as words (not in the dbt macros), a mapping {word: gain}, e.g. {'relevant': 2, 'partial': 1,
            'irrelevant': 0} (command line: relevant:2,partial:1,irrelevant:0; exact match; a word missing from it
            raises InputError), each item's label then being its gain (docs/inputs.md). Default: 'exponential'.
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
            before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J,
            pytrec_eval's judged_docs_only_flag). Default: 'zero'.
        convention: set gain, ties, no_relevant, score_precision and negative_labels as a peer tool does: "trec_eval"
            (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), "xgboost-minus" (ndcg@k-); see
            ndcg_sql/vocabulary/conventions.py. Giving one of them another non-default value, or query weights or
            measures the tool does not have, raises OptionError. Default: None.
        row_col: with ties="input-order" (and only then), the column holding each row's input position (smaller first),
            e.g. a row number. Default: None.
        score_precision: "double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as
            trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float). Default: 'double'.
        negative_labels: "error" (raises InputError), "zero" (count as label 0; with judgments the item is judged, so a
            condensed list keeps it, as Sakai's condensed lists keep every judged item), or "unjudged" (count as label
            0; with judgments the item is not judged, as trec_eval reads a relevance below 0 (form_res_rels.c: in the
            pool, not judged): unjudged="condense" drops it, as trec_eval -J does, and Judged@k does not count it).
            convention="trec_eval" sets "unjudged". Default: 'error'.
        segments: column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the query key:
            every metric per (segment values, query); per-query rows carry the segment columns and the summary has one
            row per (segment values, k or measure). Judgments without the segment columns apply to every segment the
            query occurs in; judgments with them (same names) are per (segment, query), and only then may
            missing_queries be "zero". Default: None.
        seed: non-negative integer fixing the bootstrap resamples and the sampled permutations (the same on every
            engine and version: sql/random_draws.sql.j2). Default: 0.
        input_format: force the ranking file's format (its ending decides otherwise). Default: None.
        judgments_format: force the judgments file's format. Default: None.
        threads: DuckDB threads (default: DuckDB's own choice, all cores; at most 4 per core); on a connection given as
            con= they are SET there, and stay set after the result is closed.
        memory_limit: DuckDB memory_limit of a connection ndcg_sql opens itself, past which DuckDB spills to disk, a
            size such as 1400MB or 4GB (None: DuckDB's own, 80% of RAM); it bounds DuckDB's buffer manager, not the
            whole process (strict_memory_limit). Default: '1400MB'.
        temp_directory: the folder in which a connection ndcg_sql opens itself gets a temp folder of its own for DuckDB
            to spill to (default: the system's temp dir); that folder is removed when the result is closed or
            collected, on an error, and at exit.
        strict_memory_limit: turn off DuckDB's partitioned execution on a connection ndcg_sql opens itself (SET
            disabled_optimizers = 'partitioned_execution'), so that the process stays near memory_limit. On a log
            stored in query order DuckDB splits the ranking into ranges of the query key (about one per 10M rows),
            faster but with memory outside its limit that grows with the ranges: a billion-row log under 1GB peaked at
            1.79 GB resident, and 1.24 GB with this option (interpreter included), at 1.8x the time (887 s against 490
            s on 2 cores); up to 100M rows the split stays well inside the limit and is the faster
            (docs/performance.md). A connection given as con= keeps its own settings, so run SET disabled_optimizers =
            'partitioned_execution' on it yourself. Default: False.
        checks: "all": every input check (bad input raises InputError naming the column); "trusted": none, for input
            gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad input gives wrong
            numbers, not an error (docs/safety.md). An empty input is still refused, and every result reports
            checks=trusted. Default: 'all'.
        dialect: with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb" (a SparkSession: "spark" by default). Default: None.
        item_type: with a warehouse connection: the item ids' type ("text" or "number"; default: from one fetched id).
        permutations: sign patterns of compare's permutation test (1 .. 1,000,000; exact when 2^queries is fewer), and
            with three runs or more the permutations of the randomized Tukey HSD test. Default: 10000.
        correction: the multiple-testing correction of compare's p-values over each segment's family of tests (every
            pair of runs x measure): "holm" (Holm 1979, step-down; the family-wise error rate), "bonferroni", "bh"
            (Benjamini & Hochberg 1995, step-up; the false discovery rate) or "none". Each row keeps the raw p-values
            and adds t_p_value_adjusted, permutation_p_value_adjusted, family_size and correction. Default None: "holm"
            with more than two runs or more than one measure, else "none".

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
    geometric = _geometric_measures(measures)
    if correction is not None:
        corrections.checked(correction)
    if names is None:
        first, second = run_names([run_a, run_b])
        names = (first, second)
    elif not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise OptionError(f"names must be two strings, the names of A and B; got {names!r}")
    t_dist = _t_distribution()
    on_warehouse = con is not None and not isinstance(con, duckdb.DuckDBPyConnection)
    check_connection_options(memory_limit, strict_memory_limit)  # refused on a caller's connection too
    local = con if isinstance(con, duckdb.DuckDBPyConnection) else connect(
        memory_limit, temp_directory=temp_directory, strict_memory_limit=strict_memory_limit)
    leftovers = Leftovers(local, owned=local is not con)
    runs: list[Result] = []
    made: list[tuple[str, str]] = []  # what only the computation reads, dropped before returning
    try:
        with turn(local):
            comparison = _compare(local, con if on_warehouse else local, on_warehouse, run_a, run_b, measures,
                                  permutations, seed, options, t_dist, runs, made, leftovers, correction, geometric,
                                  names)
            drop(local, list(reversed(made)))
            comparison.names = names
            return comparison
    except BaseException:
        drop(local, list(reversed(made)))
        for run in runs:
            run.close()
        leftovers.release()
        raise


def compare_runs(
    runs: Sequence[Source] | Mapping[str, Source],
    measures: str | Sequence[str] = COMPARED_MEASURES,
    max_grade: int = DEFAULTS.max_grade,
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
    strict_memory_limit: bool = DEFAULTS.strict_memory_limit,
    checks: Checks = DEFAULTS.checks,
    dialect: DialectName | None = None,
    item_type: ItemType | None = None,
    permutations: int = DEFAULTS.permutations,
    correction: Correction | None = DEFAULTS.correction,
    names: Sequence[str] | None = None,
    baseline: str | None = None,
    alpha: float = ALPHA,
    test: SignificanceTest = "permutation",
) -> Comparisons:
    """Compare two runs or more on the same queries: every pair, or each run against a baseline,
    per measure (and per segment), with the family's p-values corrected for multiple testing.

    Each run is evaluated once by :func:`ndcg_sql.evaluate`; each pair (a, b) gets what
    :func:`compare` gives two runs (the same SQL, ``sql/run_pairs.sql.j2`` running
    ``sql/paired_differences.sql.j2`` for every pair in one statement, then
    ``sql/paired_tests.sql.j2``): mean difference a - b with its 95% t interval, the paired
    t-test, the sign-flip permutation test (the same sign patterns for every pair: a pair's
    p-value is the one :func:`compare` gives those two runs), wins / ties / losses. Then:

    - the correction (:mod:`ndcg_sql.vocabulary.corrections`) over each segment's family, every
      (pair, measure) row: t_p_value_adjusted and permutation_p_value_adjusted beside the raw
      p-values, family_size and correction in every row;
    - with three runs or more, the randomized Tukey HSD test (Carterette, ACM TOIS 2012; Sakai
      2014; ``sql/tukey_hsd.sql.j2``): the runs' values permuted within each query by the seeded
      draws, each pair's observed difference of means compared with the largest difference of
      every permutation, on the queries every run has (tukey_p_value: family-wise over the pairs
      of one measure, so not corrected again; with a baseline it still counts every pair, which
      makes it conservative for the baseline's pairs).

    On a warehouse connection (``con`` and ``dialect``) all of this but the t distribution and the
    correction is computed there: one statement per pair over the two runs' per-query statements
    and one for Tukey's test over every run's, each sending back only summary rows (on a
    SparkSession each run's values are kept in the session first); the comparison's ``per_query``
    then holds no rows (docs/warehouses.md, "Comparisons on a warehouse").

    Args:
        runs: two rankings or more, any input :func:`ndcg_sql.evaluate` takes: a sequence, or a
            mapping {name: ranking} (the names in the tables and JSON).
        names: with a sequence of runs, their names (default: as :func:`compare` names runs,
            :func:`ndcg_sql.running.results.run_names`, numbered 1, 2, ... when that gives two runs one
            name); distinct strings.
        baseline: the name of the run every other is compared with (each pair is (run, baseline),
            differences run - baseline); default None: every pair (i, j), i before j in the order
            given, differences run i - run j.
        alpha: the significance level of :meth:`Comparisons.table`'s letters, in (0, 1)
            (default 0.05: marked when p < 0.05).
        test: the p-values of the table's letters: "permutation" (default), "t" (both after the
            correction) or "tukey" (three runs or more).

    Keyword Args:
        measures: measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, DCG@k,
            P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most unjudged items
            could add), ERR@k (gdeval's), Bpref, infAP, Rprec, IPrec@0.5 (interpolated precision at recall 0.5), gm_map
            (the geometric mean of AP), SetP, SetR (precision and recall of the whole list), with a relevance threshold
            for the binary ones as P(rel=2)@5 (label >= 1 by default; MAP, MRR, Hit@k, GMAP, set_P, set_recall are
            aliases); formulas and sources in ndcg_sql/vocabulary/measures.py. AP, RR, Success, ERR, Bpref, infAP,
            IPrec and gm_map need ties "item-asc", "item-desc" or "input-order". Per-query rows are then (query,
            measure, value) and the summary one row per measure. Default: ('nDCG@10',).
        max_grade: the top grade of the relevance scale, which ERR reads: R = (2^g - 1) / 2^max_grade for a label g
            (Chapelle et al. 2009; default 4, gdeval.pl's MAX_JUDGMENT); an integer from 1 to 1023. With ERR a label
            above it raises InputError (gdeval.pl refuses it too); without ERR it must be left as it is.
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
            sqlglot, names quoted, nothing else accepted (ndcg_sql/building/labels.py). Default: None.
        gain: "exponential" (2^label - 1; Burges et al. 2005), "linear" (label; trec_eval) or a mapping {label: gain}
            of finite non-negative numbers (command line: 0:0,1:1,2:3); in Python and on the command line, for labels
            given as words (not in the dbt macros), a mapping {word: gain}, e.g. {'relevant': 2, 'partial': 1,
            'irrelevant': 0} (command line: relevant:2,partial:1,irrelevant:0; exact match; a word missing from it
            raises InputError), each item's label then being its gain (docs/inputs.md). Default: 'exponential'.
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
            before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J,
            pytrec_eval's judged_docs_only_flag). Default: 'zero'.
        convention: set gain, ties, no_relevant, score_precision and negative_labels as a peer tool does: "trec_eval"
            (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), "xgboost-minus" (ndcg@k-); see
            ndcg_sql/vocabulary/conventions.py. Giving one of them another non-default value, or query weights or
            measures the tool does not have, raises OptionError. Default: None.
        row_col: with ties="input-order" (and only then), the column holding each row's input position (smaller first),
            e.g. a row number. Default: None.
        score_precision: "double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as
            trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float). Default: 'double'.
        negative_labels: "error" (raises InputError), "zero" (count as label 0; with judgments the item is judged, so a
            condensed list keeps it, as Sakai's condensed lists keep every judged item), or "unjudged" (count as label
            0; with judgments the item is not judged, as trec_eval reads a relevance below 0 (form_res_rels.c: in the
            pool, not judged): unjudged="condense" drops it, as trec_eval -J does, and Judged@k does not count it).
            convention="trec_eval" sets "unjudged". Default: 'error'.
        segments: column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the query key:
            every metric per (segment values, query); per-query rows carry the segment columns and the summary has one
            row per (segment values, k or measure). Judgments without the segment columns apply to every segment the
            query occurs in; judgments with them (same names) are per (segment, query), and only then may
            missing_queries be "zero". Default: None.
        seed: non-negative integer fixing the bootstrap resamples and the sampled permutations (the same on every
            engine and version: sql/random_draws.sql.j2). Default: 0.
        input_format: force the ranking file's format (its ending decides otherwise). Default: None.
        judgments_format: force the judgments file's format. Default: None.
        threads: DuckDB threads (default: DuckDB's own choice, all cores; at most 4 per core); on a connection given as
            con= they are SET there, and stay set after the result is closed.
        memory_limit: DuckDB memory_limit of a connection ndcg_sql opens itself, past which DuckDB spills to disk, a
            size such as 1400MB or 4GB (None: DuckDB's own, 80% of RAM); it bounds DuckDB's buffer manager, not the
            whole process (strict_memory_limit). Default: '1400MB'.
        temp_directory: the folder in which a connection ndcg_sql opens itself gets a temp folder of its own for DuckDB
            to spill to (default: the system's temp dir); that folder is removed when the result is closed or
            collected, on an error, and at exit.
        strict_memory_limit: turn off DuckDB's partitioned execution on a connection ndcg_sql opens itself (SET
            disabled_optimizers = 'partitioned_execution'), so that the process stays near memory_limit. On a log
            stored in query order DuckDB splits the ranking into ranges of the query key (about one per 10M rows),
            faster but with memory outside its limit that grows with the ranges: a billion-row log under 1GB peaked at
            1.79 GB resident, and 1.24 GB with this option (interpreter included), at 1.8x the time (887 s against 490
            s on 2 cores); up to 100M rows the split stays well inside the limit and is the faster
            (docs/performance.md). A connection given as con= keeps its own settings, so run SET disabled_optimizers =
            'partitioned_execution' on it yourself. Default: False.
        checks: "all": every input check (bad input raises InputError naming the column); "trusted": none, for input
            gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad input gives wrong
            numbers, not an error (docs/safety.md). An empty input is still refused, and every result reports
            checks=trusted. Default: 'all'.
        dialect: with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb" (a SparkSession: "spark" by default). Default: None.
        item_type: with a warehouse connection: the item ids' type ("text" or "number"; default: from one fetched id).
        permutations: sign patterns of compare's permutation test (1 .. 1,000,000; exact when 2^queries is fewer), and
            with three runs or more the permutations of the randomized Tukey HSD test. Default: 10000.
        correction: the multiple-testing correction of compare's p-values over each segment's family of tests (every
            pair of runs x measure): "holm" (Holm 1979, step-down; the family-wise error rate), "bonferroni", "bh"
            (Benjamini & Hochberg 1995, step-up; the false discovery rate) or "none". Each row keeps the raw p-values
            and adds t_p_value_adjusted, permutation_p_value_adjusted, family_size and correction. Default None: "holm"
            with more than two runs or more than one measure, else "none".

    Returns:
        :class:`~ndcg_sql.comparisons.Comparisons`: ``close()`` it (or use ``with``) to drop its temp tables.

    Raises:
        OptionError: bad options, fewer than two runs or more than 26, names that are not distinct
            strings, a baseline that is not one of them, a bad alpha, test or correction.
        MissingDependency: scipy is not installed (an ImportError naming the extra).
        InputError: bad input in a run.
        TypeError: a keyword that is not an option of compare_runs.
    """
    options = {name: value for name, value in locals().items() if name not in _OWN}
    if isinstance(permutations, bool) or not isinstance(permutations, int) or not 1 <= permutations <= MAX_PERMUTATIONS:
        raise OptionError(f"permutations must be an integer from 1 to {MAX_PERMUTATIONS}; got {permutations!r}")
    seed = context.option_macros()._checked_seed(context.plain(seed))
    geometric = _geometric_measures(measures)
    if correction is not None:
        corrections.checked(correction)
    alpha = checked_alpha(alpha)
    if test not in SIGNIFICANCE_TESTS:
        raise OptionError(f"test must be one of {', '.join(SIGNIFICANCE_TESTS)}; got {test!r}")
    run_names_, sources = _named_runs(runs, names)
    if test == "tukey" and len(sources) < 3:
        raise OptionError("the Tukey HSD test needs three runs or more; use test='permutation' or 't'")
    if baseline is not None and baseline not in run_names_:
        raise OptionError(f"baseline must be the name of one of the runs ({', '.join(map(repr, run_names_))}); "
                          f"got {baseline!r}")
    if baseline is None:
        pairs = [(i, j) for i in range(len(sources)) for j in range(i + 1, len(sources))]
    else:
        base = run_names_.index(baseline)
        pairs = [(i, base) for i in range(len(sources)) if i != base]
    t_dist = _t_distribution()
    on_warehouse = con is not None and not isinstance(con, duckdb.DuckDBPyConnection)
    check_connection_options(memory_limit, strict_memory_limit)  # refused on a caller's connection too
    local = con if isinstance(con, duckdb.DuckDBPyConnection) else connect(
        memory_limit, temp_directory=temp_directory, strict_memory_limit=strict_memory_limit)
    leftovers = Leftovers(local, owned=local is not con)
    results: list[Result] = []
    made: list[tuple[str, str]] = []
    try:
        with turn(local):
            for name, source in zip(run_names_, sources):
                with activity.doing(local if not on_warehouse else con, f"run {name}"), _naming_run(f"run {name}"):
                    results.append(evaluate(source, measures=measures, con=con if on_warehouse else local,
                                            **options))
            comparisons = _compare_many(local, Warehouse(con, options["dialect"]) if on_warehouse else None, results,
                                        run_names_, pairs, permutations, seed, options["query_col"], t_dist, made,
                                        leftovers, correction, geometric)
            comparisons.options.update(alpha=alpha, test=test, baseline=baseline)
            drop(local, list(reversed(made)))
            return comparisons
    except BaseException:
        drop(local, list(reversed(made)))
        for result in results:
            result.close()
        leftovers.release()
        raise


def _named_runs(runs, names, fewest: int = 2, most: int | None = len(LETTERS),
                what: str = "compare_runs") -> tuple[list[str], list]:
    """The runs' names and sources, from a mapping {name: source} or a sequence (and ``names``):
    ``fewest`` to ``most`` runs (None: no most; OptionError otherwise, naming the function ``what``)."""
    if isinstance(runs, Mapping):
        if names is not None:
            raise OptionError("give the runs' names either as the mapping's keys or as names, not both")
        names, sources = list(runs.keys()), list(runs.values())
    elif isinstance(runs, (list, tuple)):
        sources = list(runs)
        if names is None:
            names = run_names(sources)
            if len(set(names)) != len(names):  # frames, relations: "a DataFrame 1", "a DataFrame 2", ...
                names = [f"{name} {i}" for i, name in enumerate(names, 1)]
    else:
        raise OptionError(f"runs must be a sequence of rankings or a mapping {{name: ranking}}; got {type(runs).__name__}")
    if len(sources) < fewest or (most is not None and len(sources) > most):
        upto = f" to {most}" if most is not None else " or more"
        raise OptionError(f"{what} takes {fewest}{upto} runs; got {len(sources)}")
    if (isinstance(names, str) or not isinstance(names, (list, tuple)) or len(names) != len(sources)
            or not all(isinstance(n, str) and n for n in names)):
        raise OptionError(f"names must be {len(sources)} non-empty strings, one per run; got {names!r}")
    if len(set(names)) != len(names):
        raise OptionError(f"the runs' names must be distinct; got {list(names)!r}")
    return list(names), sources


def _query_ids_alike_all(con, tables: list[str], query_col: str, made: list) -> list[str]:
    """The runs' relations (``tables``, quoted names) with their query ids in one type
    (:func:`ndcg_sql.building.comparison_plan.ids_alike`), the views that recast them run by the DuckDB
    executor and listed in ``made``."""
    executor = DuckDB(con)
    relations, steps = comparison_plan.ids_alike(tables, [executor.column_types(t) for t in tables], query_col, executor.named)
    made.extend(executor.run_program(comparison_plan.Program(tuple(steps))).made)
    return relations


def _compare_many(con, warehouse: Warehouse | None, results: list[Result], names: list[str],
                  pairs: list[tuple[int, int]], permutations: int, seed: int, query_col_name: str, t_dist, made: list,
                  leftovers: Leftovers, correction: str | None, geometric: frozenset[str] = frozenset()) -> Comparisons:
    """:func:`compare_runs` once the runs are evaluated: the pairs' tests, Tukey's, the correction;
    computed in the local DuckDB ``con``, or with ``warehouse`` in the warehouse
    (:func:`_warehouse_statistics`: only the summary rows come back)."""
    first = results[0]
    segment_names = list(first.options.get("segments", []))
    if "pair_index" in segment_names or "run" in segment_names:
        raise OptionError("compare_runs names its own columns pair_index and run: a segment column cannot be named so")
    executor = DuckDB(con)
    differences: str | None = None  # the pairs' per-query differences (empty: on a warehouse they stay there)
    if warehouse is not None:
        with activity.doing(warehouse.con, f"paired tests of {len(pairs)} pairs in the warehouse"):
            tests, unpaired_rows, tukey_rows = _warehouse_statistics(
                warehouse, results, pairs, segment_names, query_col_name, permutations, seed, geometric)
        segment_types = comparison_plan.fetched_types(segment_names, [*tests, *unpaired_rows])
        empty = comparison_plan.no_differences(segment_types, query_col_name, executor.named, pair_index=True, kept=False)
        _run(executor, empty, made, leftovers)
        differences = empty.items[0].name
    else:
        rows = [_per_query_rows(r) for r in results]
        statistics = comparison_plan.comparison_statistics(
            [r.sql_query() for r in rows], [executor.column_types(r) for r in rows], pairs, query_col_name,
            segment_names, permutations, seed, executor.named, pair_index=True, geometric=geometric)
        fetched = _run(executor, statistics, made, leftovers)
        tests, unpaired_rows = fetched[comparison_plan.TESTS], fetched[comparison_plan.UNPAIRED]
        tukey_rows = fetched.get(comparison_plan.TUKEY, [])  # three runs or more
        differences = next(step.name for step in statistics.items if isinstance(step, plans.Step) and step.keep)
        paired_types = executor.column_types(differences)
        segment_types = {n: paired_types.get(n, "VARCHAR") for n in segment_names}
    key = lambda row: (row["pair_index"], *(row[n] for n in segment_names), row["measure"])  # noqa: E731
    by_group = {key(row): row for row in tests}
    unpaired = {key(row): row for row in unpaired_rows}
    tukey: dict[tuple, float] = {}
    for row in tukey_rows:
        group = (*(row[n] for n in segment_names), row["measure"])
        tukey[(row["run_i"], row["run_j"], *group)] = row["tukey_p_value"]
    segment_values = sorted({k[1:-1] for k in (*by_group, *unpaired)}, key=_none_last)
    measures = first.options["measures"]
    summary = []
    for values in segment_values:
        for index, (i, j) in enumerate(pairs):
            for name in measures:
                row = by_group.get((index, *values, name)) or {"measure": name, "queries": 0}
                counts = unpaired.get((index, *values, name), {})
                out = _with_t(row, t_dist, counts.get("only_a", 0), counts.get("only_b", 0), name in geometric)
                out["tukey_p_value"] = tukey.get((min(i, j), max(i, j), *values, name))
                summary.append({"run_a": names[i], "run_b": names[j], **dict(zip(segment_names, values)), **out})
    correction = correction or corrections.default_correction(len(results), len(measures))
    _corrected(summary, segment_names, correction)
    report = {**first.options, "runs": list(names), "permutations": permutations, "seed": seed,
              "correction": correction}
    tables = comparison_plan.comparison_tables(summary, {"run_a": "VARCHAR", "run_b": "VARCHAR", **segment_types, **PAIR_TYPES},
                                     executor.named, [(names[i], names[j]) for i, j in pairs], differences)
    _run(executor, tables, made, leftovers)
    summary_relation, per_query = (executor.table(item.name) for item in (tables.items[0], tables.items[-1]))
    means = []
    for name, result in zip(names, results):
        for row in result.summary_records():
            means.append({"run": name, **{n: row.get(n) for n in segment_names}, "measure": row["measure"],
                          "mean": row.get("mean"), "queries": row.get("queries"), "ci_low": row.get("ci_low"),
                          "ci_high": row.get("ci_high"), "ci_method": row.get("ci_method")})
    leftovers.watch(per_query, summary_relation, *(r.per_query for r in results), *(r.summary for r in results))
    return Comparisons(tuple(names), tuple((names[i], names[j]) for i, j in pairs), per_query, summary_relation,
                       means, tuple(results), report, leftovers)


@contextmanager
def _naming_run(run: str) -> Iterator[None]:
    """An InputError of evaluating one run, its message opened by the run's name (which of the runs
    holds the bad rows), its failed checks kept."""
    try:
        yield
    except InputError as error:
        raise InputError(f"{run}: {error}", failed=error.failed) from error


def _compare(con, runs_on, on_warehouse: bool, run_a, run_b, measures, permutations: int, seed: int,
             options: dict, t_dist, runs: list, made: list, leftovers: Leftovers,
             correction: str | None = None, geometric: frozenset[str] = frozenset(),
             run_labels: tuple[str, str] = ("A", "B")) -> Comparison:
    """:func:`compare` on the local connection ``con`` (each run evaluated on ``runs_on``; on a
    warehouse the paired statistics computed there too, :func:`_warehouse_statistics`); appends
    the runs' results to ``runs``, what it creates to ``made`` (or to ``leftovers``, what the
    comparison reads)."""
    with activity.doing(runs_on, "run A"), _naming_run(f"run A ({run_labels[0]})"):
        runs.append(evaluate(run_a, measures=measures, con=runs_on, **options))
    with activity.doing(runs_on, "run B"), _naming_run(f"run B ({run_labels[1]})"):
        runs.append(evaluate(run_b, measures=measures, con=runs_on, **options))
    a, b = runs
    names = list(a.options.get("segments", []))
    executor = DuckDB(con)
    empty = comparison_plan.Program(())  # on a warehouse: the empty table of the differences, which stay there
    if on_warehouse:
        with activity.doing(runs_on, f"paired tests in the warehouse, up to {permutations} sign patterns"):
            tests, unpaired_rows, _ = _warehouse_statistics(Warehouse(runs_on, options["dialect"]), [a, b], [(0, 1)],
                                                            names, options["query_col"], permutations, seed, geometric)
        segment_types = comparison_plan.fetched_types(names, [*tests, *unpaired_rows])
        empty = comparison_plan.no_differences(segment_types, options["query_col"], executor.named)
        differences = empty.items[0].name
    else:
        rows = [_per_query_rows(r) for r in (a, b)]
        statistics = comparison_plan.comparison_statistics(
            [r.sql_query() for r in rows], [executor.column_types(r) for r in rows], [(0, 1)], options["query_col"],
            names, permutations, seed, executor.named, pair_index=False, geometric=geometric)
        fetched = _run(executor, statistics, made, leftovers)
        tests, unpaired_rows = fetched[comparison_plan.TESTS], fetched[comparison_plan.UNPAIRED]
        [differences] = statistics.kept
        paired_types = executor.column_types(differences)
        segment_types = {n: paired_types.get(n, "VARCHAR") for n in names}
    key = lambda row: (*(row[n] for n in names), row["measure"])  # noqa: E731
    by_group = {key(row): row for row in tests}
    unpaired = {key(row): row for row in unpaired_rows}
    segment_values = sorted({k[:-1] for k in (*by_group, *unpaired)}, key=_none_last)
    summary = []
    for values in segment_values:
        for name in a.options["measures"]:
            row = by_group.get((*values, name)) or {"measure": name, "queries": 0}
            counts = unpaired.get((*values, name), {})
            out = _with_t(row, t_dist, counts.get("only_a", 0), counts.get("only_b", 0), name in geometric)
            summary.append({**dict(zip(names, values)), **out})
    correction = correction or corrections.default_correction(2, len(a.options["measures"]))
    _corrected(summary, names, correction)
    report = {**a.options, "permutations": permutations, "seed": seed}
    if correction != "none":  # one test: its rows say correction "none", the report keeps its two-run form
        report["correction"] = correction
    tables = empty + comparison_plan.comparison_tables(summary, {**segment_types, **SUMMARY_TYPES}, executor.named)
    _run(executor, tables, made, leftovers)
    paired, summary_relation = executor.table(differences), executor.table(tables.items[-1].name)
    # the connection compare opened goes once the comparison's relations and the runs' are collected
    leftovers.watch(paired, summary_relation, a.per_query, a.summary, b.per_query, b.summary)
    return Comparison(paired, summary_relation, a, b, report, leftovers)


def _none_last(values: tuple) -> tuple:
    return tuple((value is None, value) for value in values)


def _warehouse_statistics(executor: Warehouse, results: list[Result], pairs: list[tuple[int, int]],
                          segment_names: list[str], query_col_name: str, permutations: int,
                          seed: int, geometric: frozenset[str] = frozenset()) -> tuple[list[dict], list[dict], list[dict]]:
    """The paired statistics of ``pairs`` of ``results`` (evaluated on the warehouse) computed by
    the warehouse: the plan :func:`ndcg_sql.building.comparison_plan.warehouse_comparison` (one statement per
    pair over the two runs' per-query statements, :attr:`Result.source`; with three runs or more one
    more for the randomized Tukey HSD test), run by the executor (:meth:`Warehouse.run_program`: on a
    SparkSession each run's values kept in the session first). The per-query rows never leave the
    warehouse; the caller's transaction is kept (:meth:`Warehouse.own_work`).

    Returns:
        (the tests' rows, the unpaired counts' rows, both with pair_index; Tukey's rows), as the
        local SQL gives them.

    Raises:
        InputError: the warehouse failed a statement (its first line; its error the cause).
    """
    shown = {name.lower(): name for name in segment_names}  # an engine may return names folded
    sources = [result.source for result in results]
    assert all(source is not None for source in sources)  # every runner's result keeps its per-query statement
    program = comparison_plan.warehouse_comparison([s for s in sources if s is not None], pairs, query_col_name, segment_names,
                                         permutations, seed, geometric)
    try:
        fetched = executor.run_program(program).rows
    except StatementFailed as failed:
        raise InputError(f"{executor.dialect.name} could not compute the comparison: {failed}") from failed.__cause__

    def named(rows: list[dict]) -> list[dict]:
        """Rows with the local SQL's column names (segments as given, others in lower case) and plain numbers."""
        return [{(str(c) if str(c) in segment_names else shown.get(str(c).lower(), str(c).lower())): plain(v)
                 for c, v in row.items()} for row in rows]

    tests: list[dict] = []
    unpaired: list[dict] = []
    for index in range(len(pairs)):
        for row in named(fetched[f"pair_{index}"]):
            group = {"pair_index": index, **{n: row[n] for n in segment_names}, "measure": row["measure"]}
            unpaired.append({**group, **{c: row[c] for c in comparison_plan.UNPAIRED_COLUMNS}})
            if row["queries"] is not None:  # a query paired
                tests.append({**group, **{c: v for c, v in row.items()
                                          if c not in group and c not in comparison_plan.UNPAIRED_COLUMNS}})
    return tests, unpaired, named(fetched.get(comparison_plan.TUKEY, []))


def _local_rows_table(con, rows: list[dict], columns: list[str], made: list, name: str = "warehouse_rows",
                      doubles: Sequence[str] = ()) -> str:
    """Rows fetched from a warehouse as a local DuckDB temp table (listed in ``made``), each column
    typed by its values' Python type (those named in ``doubles`` DOUBLE), its values bound as one
    list parameter a column (:func:`ndcg_sql.building.comparison_plan.rows_table`); returns its name."""
    executor = DuckDB(con)
    fetched = comparison_plan.fetched_types(columns, rows)
    types = {column: "DOUBLE" if column in doubles else fetched[column] for column in columns}
    done = executor.run_program(comparison_plan.Program((comparison_plan.rows_table(executor.named(name), types, rows, by_row=False),)))
    made.extend(done.made)
    return done.made[0][1]


def _geometric_measures(measures) -> frozenset[str]:
    """The names of ``measures`` whose summary is a geometric mean (gm_map), parsed by
    sql/options/parse_measures.sql's ``_compared_measures`` (OptionError for a bad name)."""
    return frozenset(m["name"] for m in context.option_macros()._compared_measures(context.plain(measures))
                     if m["geometric"])


def _with_t(row: dict, t_dist, only_a: int, only_b: int, geometric: bool = False) -> dict:
    """Add the t p-value and interval (scipy's t distribution) to one SQL row.

    For a measure whose summary is a geometric mean (``geometric``: gm_map, whose per-query values
    are ln(max(AP, 1e-5)), trec_eval's) the SQL's statistics are those of the logarithms: t, its
    p-value, the permutation test and the wins are theirs; the row reports mean_a and mean_b as the
    geometric means exp(mean log), mean_difference as their ratio exp(mean d) (contrast "ratio"),
    ci_low and ci_high as exp of the t interval of mean d, and stderr as exp(mean d) x SE(mean d)
    (the delta method, as evaluate's summary of gm_map)."""
    n = row.get("queries", 0)
    out = {
        "measure": row["measure"], "queries": n, "mean_a": row.get("mean_a"), "mean_b": row.get("mean_b"),
        "mean_difference": row.get("mean_difference"), "contrast": "ratio" if geometric else "difference",
        "stderr": row.get("stderr"),
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
    if geometric:
        for column in ("mean_a", "mean_b", "ci_low", "ci_high"):
            out[column] = None if out[column] is None else math.exp(out[column])
        if out["mean_difference"] is not None:
            out["mean_difference"] = math.exp(out["mean_difference"])
            if out["stderr"] is not None:
                out["stderr"] = out["mean_difference"] * out["stderr"]
    return out
