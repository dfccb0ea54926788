"""``ndcg-sql plot``: mean NDCG@k against k for one or more runs, as a PNG; or, with ``over``,
mean NDCG@k per period (a day) with the periods whose drop against the trailing window is
significant marked.

Needs matplotlib (``pip install matplotlib``, the ``plot`` extra). The means come from
:func:`ndcg_sql.evaluate`; the optional band is a percentile bootstrap
interval computed in SQL (``evaluate(bootstrap=N, seed=S)``,
``sql/bootstrap_intervals.sql.j2``), fixed by a seed. The changes per period are the SQL of
the dbt test ``ndcg_no_regression`` (``sql/period_changes.sql.j2``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
import textwrap

from .building import templates

from .data import writing
from .data.connections import check_threads

from .vocabulary import activity
from .api import evaluate
from .building.context import option_macros, plain
from .running.results import records, run_names
from .vocabulary.dialects import DialectName
from .vocabulary.errors import MissingDependency, OptionError
from .vocabulary.parameters import (Checks, DEFAULTS, PeriodCorrection, PLOTTED_CUTOFFS, Discount, Format, GainOption, ItemType, MissingQueries,
                         Names, NegativeLabels, NoRelevant, ScorePrecision, Source, Ties, Unjudged)

#: The box plots' own colours, none of which is a run's line colour (matplotlib's cycle):
#: the median line and the mean marker, explained on the panel.
MEDIAN_COLOUR = "black"
MEAN_MARKER = dict(marker="^", markerfacecolor="white", markeredgecolor="black", markersize=7)
#: plot's own arguments; the others are evaluate's options, passed for every run.
_OWN = ("runs", "output", "k", "distribution", "title", "names", "over", "window", "alpha", "correction", "min_effect")
#: The cutoff of a series over periods when k is left at its default.
OVER_CUTOFF = 10
#: What a series over periods marks: a significant drop.
DROP_MARKER = dict(marker="v", color="red", markersize=9, linestyle="none")
#: Characters of a title line: a longer label expression is wrapped onto more lines, never cut.
TITLE_WIDTH = 90


def ticks(cutoffs: Sequence[int]) -> list[int]:
    """The k axis ticks: every cutoff when there are few, else the first (k = 1 by default)
    and every multiple of a step giving about ten ticks."""
    if len(cutoffs) <= 12:
        return sorted(cutoffs)
    step = max(1, round(max(cutoffs) / 10))
    return sorted({min(cutoffs), *(c for c in cutoffs if c % step == 0)})


def plot(
    runs: Mapping[str, Source] | Sequence[Source],
    output: str | os.PathLike[str],
    k: Sequence[int] = PLOTTED_CUTOFFS,
    *,
    judgments: Source = DEFAULTS.judgments,
    con: object = None,
    distribution: int | None = None,
    title: str | None = None,
    names: Sequence[str] | None = None,
    over: str | None = None,
    window: int = 7,
    alpha: float = 0.05,
    correction: PeriodCorrection = "bonferroni",
    min_effect: float = 0.0,
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
    convention: str | None = DEFAULTS.convention,
    row_col: str | None = DEFAULTS.row_col,
    score_precision: ScorePrecision = DEFAULTS.score_precision,
    negative_labels: NegativeLabels = DEFAULTS.negative_labels,
    segments: Names = DEFAULTS.segments,
    bootstrap: int = DEFAULTS.bootstrap,
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
) -> dict[str, list[dict[str, object]]]:
    """Write a PNG of mean NDCG@k against k, one line per run.

    Each run is evaluated by :func:`ndcg_sql.evaluate` with the options given here; with
    weight_col the lines are weighted means (the title says so; not with bootstrap), with
    bootstrap=N a shaded 95% percentile bootstrap band from N resamples of the queries (fixed
    by ``seed``). The y axis runs from 0 to 1, the whole range of NDCG, so that the heights of
    two runs compare as ratios; the k axis labels k = 1 (the first cutoff) and about ten others.

    Args:
        runs: {name: ranking} or a list of rankings (named by ``names``, else as
            :func:`ndcg_sql.compare` names runs: :func:`ndcg_sql.running.results.run_names`, numbered 1, 2, ...
            when that gives two runs one name); each as :func:`ndcg_sql.evaluate` takes. A line's
            legend label is the run's name, followed with segments by the segment values
            ("bm25.txt arm=a"): the run's part is the same with and without segments.
        output: the PNG path; an existing file is replaced (atomically: :func:`ndcg_sql.data.writing.atomic`),
            never one of the runs or the judgments.
        con: as :func:`ndcg_sql.evaluate`'s (default: a new connection per run).
        distribution: with a cutoff d, a second panel shows the per-query
            NDCG@d of each run (box plot in the run's colour: quartiles, the
            median as a black line, whiskers at 1.5 IQR, the mean as a white
            triangle; the panel's title says so); d must be among ``k``.
        title: the plot title (default: the options used).
        names: with a list of runs, their names in the legend and the returned dict: one
            non-empty string per run, distinct (else OptionError).
        over: a period column of the rankings (a day, any column with an order): mean NDCG@k
            per period instead of against k, for one cutoff k (default 10), one line per (run,
            segment values) with its 95% interval (the summary's, ``sql/summary.sql.j2``); a
            period whose drop against the ``window`` periods before it is significant (Welch's
            t-test at the one-sided level ``alpha``, ``correction`` "bonferroni" over the
            lines of that period or "none", a drop of at least ``min_effect``) is marked with
            a red triangle: the numbers of :func:`period_changes` and of the dbt test
            ``ndcg_no_regression`` (docs/statistics.md). Local runs only.

    Keyword Args:
        k: the cutoffs on the x axis: positive integers (default 1 .. 20).
        judgments: relevance judgments (qrels) with the query, item and label columns: labels and the ideal ranking
            come from here. Default: None.
        correction: with over: the correction of the period test over the lines (runs and segments) of a period:
            "bonferroni" (each line at alpha / lines, rounded down to a tabulated level) or "none"; "holm" and "bh"
            need exact p-values, which the period test's table of t critical values does not give (OptionError).
            Default: 'bonferroni'.
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
        bootstrap: with bootstrap=N > 0 (at most 100,000), the summary gets bootstrap_low and bootstrap_high: the 95%
            percentile bootstrap interval of each mean from N resamples of the queries, computed in SQL (Efron &
            Tibshirani 1993, ch. 13). Default: 0.
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
        {label: [{"k", "ndcg", "low", "high"}, ...]} -- the plotted numbers; with ``over``
        {label: [{"period", "ndcg", "low", "high", and the columns of :func:`period_changes`}, ...]}.

    Raises:
        MissingDependency: matplotlib is not installed (an ImportError naming the extra).
        OptionError: no run, a k that is not a positive integer, ``output`` is one of the inputs;
            with ``over``: more than one k, distribution or bootstrap, a bad window, alpha,
            correction or min_effect, a warehouse connection.
        OSError: ``output`` cannot be written (the message names it and the cause).
        TypeError: a keyword that is not an option of plot.
    """
    # the options of evaluate, for every run: every argument but plot's own
    options = {name: value for name, value in locals().items() if name not in _OWN}
    # the arguments first: a bad one is named whether or not matplotlib is installed
    runs = named_runs(runs, names)
    cutoffs = list(k)
    if not cutoffs or any(isinstance(c, bool) or not isinstance(c, int) or c <= 0 for c in cutoffs):
        raise OptionError(f"plot needs positive integer cutoffs; got {cutoffs!r}")
    if distribution is not None and distribution not in cutoffs:
        raise OptionError(f"the distribution cutoff {distribution!r} must be one of the plotted k")
    check_threads(threads)
    writing.refuse_inputs({"output": output}, [*runs.values(), judgments])
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependency("plot needs matplotlib: pip install matplotlib (ndcg_sql's 'plot' extra)") from None
    if over is not None:
        return _plot_over(runs, output, over, [OVER_CUTOFF] if tuple(cutoffs) == PLOTTED_CUTOFFS else cutoffs,
                          dict(window=window, alpha=alpha, correction=correction, min_effect=min_effect),
                          distribution, title, options, plt)
    plotted = {}
    spread = {}
    if distribution is None:
        figure, axes = plt.subplots(figsize=(7, 4.5))
    else:
        figure, (axes, box_axes) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 2]})
    colours = {}
    for label, run in runs.items():
        with activity.doing(con, f"run {label}"):
            result = evaluate(run, k=cutoffs, **options)
        with result:  # its temp tables go once read
            lines = _lines(result, label, distribution)
        for name, (points, values) in lines.items():
            plotted[name] = points
            if distribution is not None:
                spread[name] = values
            xs = [p["k"] for p in points]
            line, = axes.plot(xs, [p["ndcg"] for p in points], marker="o", markersize=3, label=str(name))
            colours[name] = line.get_color()
            if bootstrap:
                axes.fill_between(xs, [p["low"] for p in points], [p["high"] for p in points],
                                  color=line.get_color(), alpha=0.2, linewidth=0)
        options_used = result.options
    axes.set_xticks(ticks(cutoffs))
    axes.set_ylim(0.0, 1.02)  # NDCG lies in [0, 1]; a little room for points at 1
    axes.set_xlabel("k")
    axes.set_ylabel("mean NDCG@k")
    gain_shown = options_used["gain"] if isinstance(options_used["gain"], str) else "mapping"
    label_used = options_used.get("label")
    weighted = f" weighted by {options_used['weight_col']}" if options_used.get("weight_col") else ""
    weighted += " checks=trusted" if options_used.get("checks") == "trusted" else ""
    axes.set_title(title or f"gain={gain_shown} ties={options_used['ties']} ideal={options_used['ideal']}{weighted}"
                   + ("".join("\n" + line for line in textwrap.wrap(f"label: {label_used}", TITLE_WIDTH))
                      if label_used else "")
                   + (f"\nbands: 95% bootstrap, {bootstrap} resamples, seed {seed}" if bootstrap else ""), fontsize=9)
    axes.grid(True, alpha=0.3)
    axes.legend()
    if distribution is not None:
        boxes = box_axes.boxplot(list(spread.values()), showmeans=True, patch_artist=True, meanprops=MEAN_MARKER,
                                 medianprops=dict(color=MEDIAN_COLOUR), flierprops=dict(markersize=3))
        for box, label in zip(boxes["boxes"], spread):
            box.set_facecolor(colours[label])
            box.set_alpha(0.45)
        box_axes.set_xticks(range(1, len(spread) + 1), [str(label) for label in spread], rotation=15, fontsize=8)
        box_axes.set_ylabel(f"per-query NDCG@{distribution}")
        box_axes.set_ylim(0.0, 1.02)
        box_axes.set_title("box: quartiles, black line: median, whiskers: 1.5 IQR,\n"
                           "white triangle: mean (the line's value at k = " + f"{distribution})", fontsize=8)
        box_axes.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    try:
        with writing.atomic(output, binary=True) as handle:
            figure.savefig(handle, format="png", dpi=120)
    finally:
        plt.close(figure)
    return plotted


def named_runs(runs: Mapping[str, Source] | Sequence[Source], names: Sequence[str] | None = None) -> dict:
    """{name: run} of :func:`plot`'s runs: a mapping's keys, else ``names``, else the names
    :func:`ndcg_sql.running.results.run_names` gives (numbered 1, 2, ... when two runs get one name).

    Raises:
        OptionError: no run; names with a mapping, or not one distinct non-empty string per run.
    """
    if isinstance(runs, Mapping):
        if names is not None:
            raise OptionError("give the runs' names either as the mapping's keys or as names, not both")
        named = dict(runs)
    else:
        sources: list = [runs] if isinstance(runs, (str, os.PathLike)) else list(runs)
        if names is None:
            names = run_names(sources)
            if len(set(names)) != len(names):  # frames, relations: "a DataFrame 1", "a DataFrame 2", ...
                names = [f"{name} {i}" for i, name in enumerate(names, 1)]
        if (isinstance(names, str) or not isinstance(names, (list, tuple)) or len(names) != len(sources)
                or not all(isinstance(n, str) and n for n in names)):
            raise OptionError(f"names must be {len(sources)} non-empty strings, one per run; got {names!r}")
        if len(set(names)) != len(names):
            raise OptionError(f"the runs' names must be distinct; got {list(names)!r}")
        named = dict(zip(names, sources))
    if not named:
        raise OptionError("plot needs at least one run")
    return named


def _line_name(run_label: str, segments: Sequence[str], values: Sequence[object]) -> str:
    """A line's legend label: the run's name, then its segment values ("bm25.txt arm=a")."""
    return " ".join([str(run_label), *(f"{s}={'NULL' if v is None else v}" for s, v in zip(segments, values))])


def _lines(result, run_label, distribution: int | None) -> dict:
    """{line label: (points, per-query NDCG@distribution)} of one run's result: one line, or with
    segments one per segment values, labelled "<run> arm=bm25" (:func:`_line_name`)."""
    segments = result.options.get("segments") or []

    def key(row: dict) -> tuple:
        return tuple(row[s] for s in segments)

    lines: dict[tuple, tuple[list, list]] = {}
    for r in result.summary_records():
        lines.setdefault(key(r), ([], []))[0].append(
            {"k": r["k"], "ndcg": r["ndcg"], "low": r.get("bootstrap_low"), "high": r.get("bootstrap_high")})
    if distribution is not None:
        for r in result.per_query_records():
            if r["k"] == distribution and r["ndcg"] is not None and key(r) in lines:
                lines[key(r)][1].append(r["ndcg"])
    return {_line_name(run_label, segments, values): line for values, line in lines.items()}


def period_changes(per_query, over: str, k: int | None, *, segments: Sequence[str] = (),
                   query_col: str = DEFAULTS.query_col, window: int = 7, alpha: float = 0.05,
                   correction: str = "bonferroni", min_effect: float = 0.0) -> list[dict]:
    """Each period's mean NDCG@k against the ``window`` periods before it, from per-query rows:
    the SQL of the dbt test ``ndcg_no_regression`` (``sql/period_changes.sql.j2``, its options
    checked by ``sql/options/regression_context.sql``).

    Args:
        per_query: a local result's per-query relation (a DuckDB relation with the columns of
            ``evaluate(..., segments=[*segments, over])``'s per-query rows).
        over: the period column (one of the result's segment columns).
        k: the cutoff tested (None: the whole list).
        segments: the other segment columns: a series per segment values.
        window, alpha, correction, min_effect: as :func:`plot`'s.

    Returns:
        One dict per (segment values, measure, period), in that order: the segment columns,
        measure ('nDCG@k'), the period column, queries, mean, stderr, window_periods,
        window_queries, window_mean, change (mean - window_mean), Welch's t and df, p_value_below
        (the one-sided p-value of a drop is at most this; from the critical-value table),
        tests (the family: the series with a t in that period), adjusted_p_value_below,
        decision_level, significant_drop.

    Raises:
        OptionError: a bad window, alpha, correction or min_effect, or column names.
    """
    context = _period_context(over, k, segments, query_col, dict(window=window, alpha=alpha, correction=correction,
                                                                 min_effect=min_effect))
    return records(per_query.query("per_query_rows", templates.render("period_changes.sql.j2", **context)))


def _period_context(over: str, k: int | None, segments: Sequence[str], query_col: str, test: dict) -> dict:
    """The context of sql/period_changes.sql.j2, its options checked (sql/options/regression_context.sql)."""
    return option_macros()._regression_context(plain(dict(
        per_query_relation="per_query_rows", query_col=query_col, segment_cols=list(segments), group_col=over,
        k=[k], measures=None, **test)))


def _plot_over(runs, output, over: str, cutoffs, test: dict, distribution, title, options: dict, plt) -> dict:
    """plot(over=...): mean NDCG@k per period, one line per (run, segment values), drops marked."""
    import duckdb

    if len(cutoffs) != 1:
        raise OptionError(f"plot over a period column takes one cutoff k; got {list(cutoffs)!r}")
    if distribution is not None or options["bootstrap"]:
        raise OptionError("plot over a period column shows the summary's 95% interval: not with distribution or bootstrap")
    if options["con"] is not None and not isinstance(options["con"], duckdb.DuckDBPyConnection):
        raise OptionError("plot over a period column runs on DuckDB, not on a warehouse connection")
    k = cutoffs[0]
    segments = [options["segments"]] if isinstance(options["segments"], str) else list(options["segments"] or [])
    if over in segments:
        raise OptionError(f"the period column {over!r} is already among the segments")
    _period_context(over, k, segments, options["query_col"], test)  # the test's options, checked before any run
    evaluated = dict(options, segments=[*segments, over], intervals=True)
    figure, axes = plt.subplots(figsize=(8, 4.5))
    plotted: dict = {}
    for label, run in runs.items():
        with activity.doing(options["con"], f"run {label}"):
            result = evaluate(run, k=[k], **evaluated)
        with result:
            summary = {tuple(r[s] for s in [*segments, over]): r for r in result.summary_records()}
            changes = period_changes(result.per_query, over, k, segments=segments, query_col=options["query_col"],
                                     **test)
            options_used = result.options
        series: dict = {}
        for change in changes:
            row = summary[tuple(change[s] for s in [*segments, over])]
            key = tuple(change[s] for s in segments)
            series.setdefault(key, []).append(dict(change, period=change[over], ndcg=row["ndcg"], low=row["ci_low"],
                                                   high=row["ci_high"]))
        for key, points in series.items():
            name = _line_name(label, segments, key)
            plotted[name] = points
            xs = [p["period"] for p in points]
            line, = axes.plot(xs, [p["ndcg"] for p in points], marker="o", markersize=3, label=str(name))
            axes.fill_between(xs, [p["low"] for p in points], [p["high"] for p in points], color=line.get_color(),
                              alpha=0.2, linewidth=0)
            drops = [p for p in points if p["significant_drop"]]
            if drops:
                axes.plot([p["period"] for p in drops], [p["ndcg"] for p in drops], **DROP_MARKER)
    axes.set_ylim(0.0, 1.02)
    axes.set_xlabel(over)
    axes.set_ylabel(f"mean NDCG@{'all' if k is None else k}")
    axes.set_title(title or f"gain={options_used['gain'] if isinstance(options_used['gain'], str) else 'mapping'} "
                   f"ties={options_used['ties']}; bands: 95% interval of the mean\n"
                   f"red triangle: a significant drop against the {test['window']} periods before "
                   f"(Welch's t, one-sided alpha={test['alpha']}, correction={test['correction']}, "
                   f"min_effect={test['min_effect']})", fontsize=8)
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.autofmt_xdate()
    figure.tight_layout()
    try:
        with writing.atomic(output, binary=True) as handle:
            figure.savefig(handle, format="png", dpi=120)
    finally:
        plt.close(figure)
    return plotted


def plot_comparison(comparison, output: str | os.PathLike[str], title: str | None = None) -> dict:
    """A PNG of a comparison of several runs (:func:`ndcg_sql.compare_runs`): on the left each
    run's mean per measure with its 95% interval (evaluate's, by the range of the values:
    docs/statistics.md), on the right, per measure, the per-query differences of each other run
    against the baseline (the comparison's ``baseline``, else its first run) as box plots, the
    mean difference marked, with a line at 0.

    Args:
        comparison: a :class:`~ndcg_sql.comparisons.Comparisons` (not closed), without segments.
        output: the PNG path; an existing file is replaced (atomically), never an input.
        title: the figure's title (default: the baseline and the correction).

    Returns:
        {"means": [{"run", "measure", "mean", "ci_low", "ci_high"}, ...],
        "differences": {run: {measure: [per-query run - baseline, ...]}}}: the plotted numbers.

    Raises:
        MissingDependency: matplotlib is not installed.
        OptionError: the comparison has segments, or was computed on a warehouse (its per-query
            differences stayed there).
        OSError: ``output`` cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependency("plot needs matplotlib: pip install matplotlib (ndcg_sql's 'plot' extra)") from None
    if comparison.options.get("segments"):
        raise OptionError("the comparison plot draws one set of queries: compare without segments to plot it")
    rows = comparison.per_query_records()
    if not rows and any(row.get("queries") for row in comparison.summary_records()):
        raise OptionError("the comparison was computed on a warehouse, where its per-query differences stayed (only "
                          "summary rows came back): compare on DuckDB to plot them")
    names = list(comparison.names)
    baseline = comparison.options.get("baseline") or names[0]
    measures = list(dict.fromkeys(m["measure"] for m in comparison.means))
    # a geometric measure's per-query values are logarithms: its differences are of ln AP
    geometric = {row["measure"] for row in comparison.summary_records() if row.get("contrast") == "ratio"}
    differences: dict[str, dict[str, list[float]]] = {n: {m: [] for m in measures} for n in names if n != baseline}
    for row in rows:
        if row["run_b"] == baseline:
            differences[row["run_a"]][row["measure"]].append(row["difference"])
        elif row["run_a"] == baseline:
            differences[row["run_b"]][row["measure"]].append(-row["difference"])
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    width = 0.8 / len(names)
    colours = {}
    for i, name in enumerate(names):
        rows = [next(m for m in comparison.means if m["run"] == name and m["measure"] == measure) for measure in measures]
        xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(measures))]
        means = [r["mean"] for r in rows]
        low = [r["mean"] - r["ci_low"] if r.get("ci_low") is not None else 0.0 for r in rows]
        high = [r["ci_high"] - r["mean"] if r.get("ci_high") is not None else 0.0 for r in rows]
        bars = left.errorbar(xs, means, yerr=[low, high], fmt="o", capsize=4, label=name)
        colours[name] = bars.lines[0].get_color()
    left.set_xticks(range(len(measures)), measures)
    left.set_ylabel("mean, with its 95% interval")
    left.set_title("each run's mean per measure", fontsize=9)
    left.grid(True, axis="y", alpha=0.3)
    left.legend(fontsize=8)
    others = [n for n in names if n != baseline]
    width = 0.8 / max(1, len(others))
    handles = []
    for i, name in enumerate(others):
        positions = [j + (i - (len(others) - 1) / 2) * width for j in range(len(measures))]
        boxes = right.boxplot([differences[name][m] for m in measures], positions=positions, widths=width * 0.8,
                              showmeans=True, patch_artist=True, meanprops=MEAN_MARKER,
                              medianprops=dict(color=MEDIAN_COLOUR), flierprops=dict(markersize=3),
                              manage_ticks=False)
        for box in boxes["boxes"]:
            box.set_facecolor(colours[name])
            box.set_alpha(0.45)
        handles.append(boxes["boxes"][0])
    right.axhline(0.0, color="grey", linewidth=1)
    right.set_xticks(range(len(measures)), [f"{m}\n(of ln AP)" if m in geometric else m for m in measures])
    right.set_ylabel(f"per-query difference against {baseline}")
    right.set_title("box: quartiles, black line: median, white triangle: mean difference", fontsize=9)
    right.grid(True, axis="y", alpha=0.3)
    if handles:
        right.legend(handles, [f"{n} - {baseline}" for n in others], fontsize=8)
    figure.suptitle(title or f"baseline {baseline}; correction {comparison.options.get('correction')}", fontsize=10)
    figure.tight_layout()
    try:
        with writing.atomic(output, binary=True) as handle:
            figure.savefig(handle, format="png", dpi=120)
    finally:
        plt.close(figure)
    return {"means": [{k: m[k] for k in ("run", "measure", "mean", "ci_low", "ci_high")} for m in comparison.means],
            "differences": differences}
