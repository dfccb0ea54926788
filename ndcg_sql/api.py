"""The public entry points :func:`evaluate` and :func:`to_sql` (and :func:`ndcg_sql.compare`).

Both take the options of :mod:`ndcg_sql.vocabulary.parameters` as keyword arguments (types and defaults
declared there, their documentation written from there by ``python -m tools.option_docs``) and
resolve them once with :func:`ndcg_sql.building.context.resolve`; evaluate then checks the data
(:mod:`ndcg_sql.building.validation`) and runs the plan (:mod:`ndcg_sql.running.runner`) on DuckDB (:mod:`ndcg_sql.running.local`)
or on a warehouse connection, to_sql writes the same statements as text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

import duckdb

from .building import context, plan, templates, validation

from .running import local, warehouse
from .vocabulary.errors import OptionError
from .vocabulary.dialects import DialectName
from .running.executors import Warehouse
from .vocabulary.parameters import (DEFAULTS, STATEMENTS, Checks, Cutoffs, Discount, Format, GainOption, ItemType,
                         MissingQueries, Names, NegativeLabels, NoRelevant, ScorePrecision, Source, Statement, Ties,
                         Unjudged)
from .building.plan import sql_plan
from .vocabulary.parameters import Request
from .running.results import Result
from .building.sql_text import over_ctes, transpile


def evaluate(
    data: Source,
    k: Cutoffs = DEFAULTS.k,
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
    weight_col: str | None = DEFAULTS.weight_col,
    no_relevant: NoRelevant = DEFAULTS.no_relevant,
    missing_queries: MissingQueries = DEFAULTS.missing_queries,
    unjudged: Unjudged = DEFAULTS.unjudged,
    measures: Names = DEFAULTS.measures,
    max_grade: int = DEFAULTS.max_grade,
    convention: str | None = DEFAULTS.convention,
    row_col: str | None = DEFAULTS.row_col,
    score_precision: ScorePrecision = DEFAULTS.score_precision,
    negative_labels: NegativeLabels = DEFAULTS.negative_labels,
    segments: Names = DEFAULTS.segments,
    intervals: bool | None = DEFAULTS.intervals,
    bootstrap: int = DEFAULTS.bootstrap,
    sample: float | None = DEFAULTS.sample,
    seed: int = DEFAULTS.seed,
    input_format: Format | None = DEFAULTS.input_format,
    judgments_format: Format | None = DEFAULTS.judgments_format,
    threads: int | None = DEFAULTS.threads,
    memory_limit: str | None = DEFAULTS.memory_limit,
    temp_directory: str | os.PathLike[str] | None = DEFAULTS.temp_directory,
    strict_memory_limit: bool = DEFAULTS.strict_memory_limit,
    max_bootstrap_draws: int = DEFAULTS.max_bootstrap_draws,
    checks: Checks = DEFAULTS.checks,
    dialect: DialectName | None = None,
    item_type: ItemType | None = None,
    per_query: bool = False,
) -> Result:
    """CG, DCG, IDCG and NDCG@k (or named measures) per query and their mean, computed in SQL.

    NDCG@k = DCG@k / IDCG@k with DCG@k = sum over ranks r <= k of gain(label_r) / log2(r + 1)
    (Jarvelin & Kekalainen, ACM TOIS 2002); exponential gain 2^label - 1 as in Burges et al.
    (ICML 2005), LightGBM and XGBoost; linear gain and judgments as in trec_eval; tie
    averaging as in McSherry & Najork (ECIR 2008) and scikit-learn's ``ndcg_score``. With
    ``judgments`` (same kinds as ``data``, the query, item and label columns under the ranking's
    names), labels come from there (unjudged ranked items: 0), the ideal ranking uses all judged
    items of a query, and run queries with no judgment at all are left out (counted in ``coverage``).

    Args:
        data: the ranking: one row per (query, item) with a query id, an item id, a score
            (higher is better) or a logged rank (1 = top), and, without ``judgments``, a
            relevance label (number >= 0). A path (Parquet, CSV, JSON, or a TREC run file), a
            table or view name in ``con``, a DuckDB relation, or a pandas/polars/Arrow object;
            on a warehouse connection a table name ("table", "schema.table", "db.schema.table"
            or a sequence of parts).
        con: a DuckDB connection to run in (default: a new in-memory one, with ``memory_limit``,
            ``temp_directory`` and ``strict_memory_limit``; a caller's connection keeps its own settings), or a warehouse
            connection (DB-API 2.0, or a pyspark SparkSession) with ``dialect``: then the whole
            computation runs there, nothing is written, and only the summary, the counts and
            (``per_query=True``) the per-query rows come back: one statement for the input
            checks, the summary, the query counts and the per-query rows, naming each input
            table once; with judgments, one before them that reads no row
            gives the id columns' types (compared as :mod:`ndcg_sql.building.id_types` says).
        per_query: with a warehouse connection, also fetch the per-query rows.

    Keyword Args:
        k: cutoff(s): positive int(s); None or "all" is the whole list. Default: 1, 3, 5, 10, 20 and the whole list.
            With measures the cutoffs are in the names (giving k too raises OptionError).
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
        weight_col: a column of the ranking giving each query a weight (traffic, revenue): a finite number >= 0, the
            same on every row of a query, not all 0 (else InputError). The mean is then sum(w x) / sum(w)
            (scikit-learn's sample_weight, LightGBM's query weights) and the standard error sqrt(n / (n - 1) * sum(w^2
            (x - mean)^2)) / sum(w); per-query rows carry the weight. Not with bootstrap, compare, or
            missing_queries='zero' (a query absent from the run has no weight). Default: None.
        no_relevant: NDCG of a query with IDCG@k = 0: "zero", "skip" (left out of the mean) or "one". Default: 'zero'.
        missing_queries: with judgments, judged queries absent from the run: "ignore", or "zero" (count as 0, trec_eval
            -c). Default: 'ignore'.
        unjudged: with judgments, ranked items without a judgment: "zero" (count as label 0) or "condense" (removed
            before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J,
            pytrec_eval's judged_docs_only_flag). Default: 'zero'.
        measures: measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, DCG@k,
            P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most unjudged items
            could add), ERR@k (gdeval's), Bpref, infAP, Rprec, IPrec@0.5 (interpolated precision at recall 0.5), gm_map
            (the geometric mean of AP), SetP, SetR (precision and recall of the whole list), with a relevance threshold
            for the binary ones as P(rel=2)@5 (label >= 1 by default; MAP, MRR, Hit@k, GMAP, set_P, set_recall are
            aliases); formulas and sources in ndcg_sql/vocabulary/measures.py. AP, RR, Success, ERR, Bpref, infAP,
            IPrec and gm_map need ties "item-asc", "item-desc" or "input-order". Per-query rows are then (query,
            measure, value) and the summary one row per measure. Default: None.
        max_grade: the top grade of the relevance scale, which ERR reads: R = (2^g - 1) / 2^max_grade for a label g
            (Chapelle et al. 2009; default 4, gdeval.pl's MAX_JUDGMENT); an integer from 1 to 1023. With ERR a label
            above it raises InputError (gdeval.pl refuses it too); without ERR it must be left as it is.
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
        intervals: add stderr, ci_low, ci_high and ci_method to the summary: the standard error s/sqrt(n) and a 95%
            interval of each mean (NULL below 2 queries) that respects the range of the values, and its method:
            'wilson' (the Wilson score interval) for values 0 or 1 (Success@k, P@1, RR@1), 'normal, clipped to [0, 1]'
            (mean -/+ 1.96 stderr, clipped) for values in [0, 1] (NDCG, P, R, AP, RR), 'normal' for CG and DCG. Default
            None: with measures or segments.
        bootstrap: with bootstrap=N > 0 (at most 100,000), the summary gets bootstrap_low and bootstrap_high: the 95%
            percentile bootstrap interval of each mean from N resamples of the queries, computed in SQL (Efron &
            Tibshirani 1993, ch. 13). Default: 0.
        sample: a fraction in (0, 1]: evaluate only a sample of the queries, each (segment values, query) drawn with
            this probability by a seeded hash of its key (sql/query_sample.sql.j2: the same queries on every engine,
            for a seed), for logs too large to evaluate whole. The summary is then an estimate: it gets the column
            population (the queries the sample was drawn from, per segment: each segment is a stratum) and its standard
            error and interval carry the finite-population correction sqrt(1 - n/N) (Cochran, Sampling Techniques,
            1977, ch. 2-5), with the normal interval for every measure. Not with bootstrap or missing_queries='zero'.
            Default: None.
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
        max_bootstrap_draws: largest bootstrap replicates x per-query values (queries x cutoffs or measures) a local
            run draws; more raises OptionError before the bootstrap starts (default 200,000,000: about 7 GiB of temp
            files and 3 minutes on 2 cores).
        checks: "all": every input check (bad input raises InputError naming the column); "trusted": none, for input
            gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad input gives wrong
            numbers, not an error (docs/safety.md). An empty input is still refused, and every result reports
            checks=trusted. Default: 'all'.
        dialect: with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb" (a SparkSession: "spark" by default). Default: None.
        item_type: with a warehouse connection: the item ids' type ("text" or "number"; default: from one fetched id).

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
        TypeError: a keyword that is not an option of evaluate.
    """
    request = Request.of(locals())  # the arguments the option table names
    options = request.metric()
    validation.checked_option(checks)
    duck = con if isinstance(con, duckdb.DuckDBPyConnection) else None
    remote = Warehouse(con, dialect) if con is not None and duck is None else None
    # the options, once, before any data is read (whether judgments carry the segment columns,
    # and so whether missing_queries="zero" may go with segments, only the data tells)
    resolved = context.resolve(options, judgments is not None,
                               dialect=remote.dialect.name if remote else "duckdb",
                               item_type=(item_type or "text") if remote else "text",
                               segmented_judgments=judgments is not None)
    if remote is not None:
        result = warehouse.evaluate(remote, data, judgments, resolved, options, item_type, per_query, checks)
    else:
        result = local.evaluate(duck, data, judgments, request, resolved, local.Settings(
            input_format, judgments_format, memory_limit, threads, temp_directory, max_bootstrap_draws, checks,
            strict_memory_limit))
    return validation.reported(result, checks)


def to_sql(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    what: Statement = "per_query",
    k: Cutoffs = DEFAULTS.k,
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
    weight_col: str | None = DEFAULTS.weight_col,
    no_relevant: NoRelevant = DEFAULTS.no_relevant,
    missing_queries: MissingQueries = DEFAULTS.missing_queries,
    unjudged: Unjudged = DEFAULTS.unjudged,
    measures: Names = DEFAULTS.measures,
    max_grade: int = DEFAULTS.max_grade,
    convention: str | None = DEFAULTS.convention,
    row_col: str | None = DEFAULTS.row_col,
    score_precision: ScorePrecision = DEFAULTS.score_precision,
    negative_labels: NegativeLabels = DEFAULTS.negative_labels,
    segments: Names = DEFAULTS.segments,
    intervals: bool | None = DEFAULTS.intervals,
    bootstrap: int = DEFAULTS.bootstrap,
    sample: float | None = DEFAULTS.sample,
    seed: int = DEFAULTS.seed,
    dialect: DialectName = DEFAULTS.dialect,
    item_type: ItemType = DEFAULTS.item_type,
    id_types: Mapping[str, str] | Iterable[str] | None = DEFAULTS.id_types,
    segmented_judgments: bool = DEFAULTS.segmented_judgments,
) -> str:
    """The metric SQL over a table, for DuckDB or a warehouse: the statements :func:`evaluate`
    runs there, as text.

    Args:
        table: the ranking table's name: "table", "schema.table", "db.schema.table" /
            "project.dataset.table" (split on dots), or a sequence of parts when a part
            contains a dot. Each part is quoted through sqlglot; plain parts are first folded
            to the engine's case (Snowflake upper, Postgres/Redshift lower; ndcg_sql/vocabulary/dialects.py).
        file: DuckDB only: instead of ``table``, a Parquet, CSV or JSON file that DuckDB reads
            (its path becomes a SQL string literal).
        judgments_table / judgments_file: the judgments, likewise.
        what: "per_query" (default: the per-query rows), "summary" (the summary, the same
            columns as evaluate's, intervals included), "coverage" (query counts) or "checks"
            (the input checks a warehouse evaluation counts, one row per check with the rows
            breaking it: a gate to run first); each one statement.

    Keyword Args:
        k: cutoff(s): positive int(s); None or "all" is the whole list. Default: 1, 3, 5, 10, 20 and the whole list.
            With measures the cutoffs are in the names (giving k too raises OptionError).
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
        weight_col: a column of the ranking giving each query a weight (traffic, revenue): a finite number >= 0, the
            same on every row of a query, not all 0 (else InputError). The mean is then sum(w x) / sum(w)
            (scikit-learn's sample_weight, LightGBM's query weights) and the standard error sqrt(n / (n - 1) * sum(w^2
            (x - mean)^2)) / sum(w); per-query rows carry the weight. Not with bootstrap, compare, or
            missing_queries='zero' (a query absent from the run has no weight). Default: None.
        no_relevant: NDCG of a query with IDCG@k = 0: "zero", "skip" (left out of the mean) or "one". Default: 'zero'.
        missing_queries: with judgments, judged queries absent from the run: "ignore", or "zero" (count as 0, trec_eval
            -c). Default: 'ignore'.
        unjudged: with judgments, ranked items without a judgment: "zero" (count as label 0) or "condense" (removed
            before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J,
            pytrec_eval's judged_docs_only_flag). Default: 'zero'.
        measures: measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, DCG@k,
            P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most unjudged items
            could add), ERR@k (gdeval's), Bpref, infAP, Rprec, IPrec@0.5 (interpolated precision at recall 0.5), gm_map
            (the geometric mean of AP), SetP, SetR (precision and recall of the whole list), with a relevance threshold
            for the binary ones as P(rel=2)@5 (label >= 1 by default; MAP, MRR, Hit@k, GMAP, set_P, set_recall are
            aliases); formulas and sources in ndcg_sql/vocabulary/measures.py. AP, RR, Success, ERR, Bpref, infAP,
            IPrec and gm_map need ties "item-asc", "item-desc" or "input-order". Per-query rows are then (query,
            measure, value) and the summary one row per measure. Default: None.
        max_grade: the top grade of the relevance scale, which ERR reads: R = (2^g - 1) / 2^max_grade for a label g
            (Chapelle et al. 2009; default 4, gdeval.pl's MAX_JUDGMENT); an integer from 1 to 1023. With ERR a label
            above it raises InputError (gdeval.pl refuses it too); without ERR it must be left as it is.
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
        intervals: add stderr, ci_low, ci_high and ci_method to the summary: the standard error s/sqrt(n) and a 95%
            interval of each mean (NULL below 2 queries) that respects the range of the values, and its method:
            'wilson' (the Wilson score interval) for values 0 or 1 (Success@k, P@1, RR@1), 'normal, clipped to [0, 1]'
            (mean -/+ 1.96 stderr, clipped) for values in [0, 1] (NDCG, P, R, AP, RR), 'normal' for CG and DCG. Default
            None: with measures or segments.
        bootstrap: with bootstrap=N > 0 (at most 100,000), the summary gets bootstrap_low and bootstrap_high: the 95%
            percentile bootstrap interval of each mean from N resamples of the queries, computed in SQL (Efron &
            Tibshirani 1993, ch. 13). Default: 0.
        sample: a fraction in (0, 1]: evaluate only a sample of the queries, each (segment values, query) drawn with
            this probability by a seeded hash of its key (sql/query_sample.sql.j2: the same queries on every engine,
            for a seed), for logs too large to evaluate whole. The summary is then an estimate: it gets the column
            population (the queries the sample was drawn from, per segment: each segment is a stratum) and its standard
            error and interval carry the finite-population correction sqrt(1 - n/N) (Cochran, Sampling Techniques,
            1977, ch. 2-5), with the normal interval for every measure. Not with bootstrap or missing_queries='zero'.
            Default: None.
        seed: non-negative integer fixing the bootstrap resamples and the sampled permutations (the same on every
            engine and version: sql/random_draws.sql.j2). Default: 0.
        dialect: the engine the SQL is for (transpiled by sqlglot). Default: 'duckdb'.
        item_type: the item ids' type, needed for an item-id tie-break when no data is read (text compares in byte
            order). Default: 'text'.
        id_types: the id columns' types as the engine writes them, by role (query, item, judgments_query,
            judgments_item): a mapping {"query": "INT64", "judgments_query": "STRING"} or texts such as "query=INT64".
            Ids are then compared as evaluate compares them (sql/options/id_forms.sql: as text in TREC form when the
            two sides differ), and known item ids decide item_type. A role not given (or no id_types at all) or a type
            not listed (ndcg_sql/vocabulary/dialects.py type_names): compared as stored. Default: None.
        segmented_judgments: with segments: the judgments carry the segment columns (judgments per (segment, query)).
            Default: False.

    Returns:
        One SELECT statement in the dialect, opened by comment lines naming the version, the
        engine, what a row is and the options (:func:`ndcg_sql.building.plan.header`). Input checks are
        not part of a metric statement: run ``what="checks"`` first, or :func:`ndcg_sql.evaluate`
        for checked results.

    Raises:
        OptionError: invalid options, an unknown dialect or statement, a bad table name,
            neither/both of table and file, an id_types role not known, or float32 scores on an
            engine without a 32-bit float (BigQuery, Snowflake).
        InputError: id_types gives an id column a type with no text form (an array, a struct).
        sqlglot.errors.UnsupportedError: sqlglot cannot express the SQL in the dialect
            (never silently wrong SQL).
        TypeError: a keyword that is not an option of to_sql.
    """
    request = Request.of(locals())  # the arguments the option table names
    if what not in STATEMENTS:
        raise OptionError(f"what must be one of {', '.join(STATEMENTS)}; got {what!r}")
    resolved, target = sql_plan(table, file=file, judgments_table=judgments_table, judgments_file=judgments_file,
                                dialect=dialect, item_type=item_type, segmented_judgments=segmented_judgments,
                                id_types=id_types, **request.metric())
    return plan.header(resolved, target, what) + _statement(resolved, target, what, request.metric())


def _statement(resolved: context.Rendered, target, what: str, options: dict) -> str:
    """to_sql's statement ``what`` in the dialect ``target``."""
    if what == "checks":
        judged = resolved.context.judgments_relation is not None
        columns = validation.Columns.of(options, resolved.order_col, judged, resolved.label)
        checks = validation.checks_for(resolved.options, columns.roles(), dialect=target.name,
                                       **resolved.label_checks())
        return transpile(validation.listed_sql(resolved.context, checks), target)
    computation = plan.build(resolved)
    if what == "per_query":
        return transpile(computation.per_query_statement, target)
    if what == "summary":
        return transpile(computation.statement(), target)
    per_query = computation.steps[0]  # the coverage reads the per-query rows alone
    coverage = templates.render("coverage.sql.j2", **{**resolved.context, "per_query_relation": per_query.name})
    return transpile(over_ctes([(per_query.name, per_query.sql)], coverage), target)
