"""The metric options every entry point takes, declared once.

:func:`ndcg_sql.evaluate` (DuckDB), :func:`ndcg_sql.warehouse.evaluate` (a
warehouse connection) and :func:`ndcg_sql.to_sql` / :func:`ndcg_sql.sql_text.plan`
(SQL text) take the same column names and conventions. They are declared here
once (:data:`PARAMETERS`: name, default, type, documentation); the decorator
:func:`takes_options` gives each entry point those keyword parameters (its
``inspect.signature`` and ``help()`` show them all, with their defaults), adds
their documentation to its docstring, and hands it one validated
:class:`Request`. :meth:`Request.resolve` is the one place where the options
are checked against each other (convention, measures and k, score or rank,
row order, segments, bootstrap) and turned into :class:`ndcg_sql.options.Options`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from dataclasses import dataclass, fields

from . import conventions
from .measures import Measure, check_ties, parse_measures
from .options import DEFAULT_CUTOFFS, OptionError, Options

#: Largest number of bootstrap replicates accepted (rows = queries x k x replicates).
MAX_REPLICATES = 100_000
#: Output column names; a query or segment column with one of these names would be ambiguous.
OUTPUT_COLUMNS = ("k", "cg", "dcg", "idcg", "ndcg", "measure", "value")
SUMMARY_COLUMNS = ("mean", "queries", "stderr", "ci_low", "ci_high", "bootstrap_low", "bootstrap_high")


@dataclass(frozen=True)
class Parameter:
    """One option: its name, default, annotation (as text) and documentation line(s)."""

    name: str
    default: object
    annotation: str
    doc: str


#: Every shared option, in signature order.
PARAMETERS: tuple[Parameter, ...] = (
    Parameter("k", DEFAULT_CUTOFFS, "int | None | Sequence[int | None]",
              'cutoff(s): positive int(s); None or "all" is the whole list. Default: 1, 3, 5, 10, 20 '
              "and the whole list. With ``measures`` the cutoffs are in the names (giving k too raises "
              "OptionError)."),
    Parameter("query_col", "query_id", "str", "query id column name (case-sensitive; default \"query_id\")."),
    Parameter("item_col", "item_id", "str", "item id column name (default \"item_id\")."),
    Parameter("score_col", None, "str | None", 'score column, higher is better (default "score").'),
    Parameter("rank_col", None, "str | None",
              "logged rank column (1 = top; smaller is better), used instead of a score; giving both "
              "score_col and rank_col raises OptionError."),
    Parameter("label_col", "label", "str",
              "relevance label column (number >= 0; of the judgments when they are given; default \"label\")."),
    Parameter("gain", "exponential", "str | dict[float, float]",
              '"exponential" (2^label - 1; Burges et al. 2005), "linear" (label; trec_eval) or a mapping '
              "{label: gain} of finite non-negative numbers."),
    Parameter("ties", "average", "str",
              '"average" (tie-aware, McSherry & Najork 2008), "item-asc" / "item-desc" (item id in byte '
              'order; trec_eval: "item-desc"), or "input-order" (``row_col`` ascending; LightGBM, XGBoost).'),
    Parameter("no_relevant", "zero", "str", 'NDCG of a query with IDCG@k = 0: "zero", "skip" (left out of the mean) or "one".'),
    Parameter("missing_queries", "ignore", "str",
              'with judgments, judged queries absent from the run: "ignore", or "zero" (count as 0, '
              "trec_eval -c)."),
    Parameter("measures", None, "str | Sequence[str] | None",
              "measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, "
              "DCG@k, P@k, R@k, AP, AP@k, RR, RR@k, Success@k, with a relevance threshold for the binary "
              "ones as P(rel=2)@5 (label >= 1 by default); formulas and sources in :mod:`ndcg_sql.measures`. "
              "AP, RR and Success need ties \"item-asc\", \"item-desc\" or \"input-order\". Per-query rows "
              "are then (query, measure, value) and the summary one row per measure with mean, queries, "
              "stderr, ci_low, ci_high."),
    Parameter("intervals", False, "bool",
              "without ``measures``, add ndcg_stderr, ndcg_ci_low, ndcg_ci_high (standard error s/sqrt(n), "
              "normal 95% interval of the mean) to the summary."),
    Parameter("convention", None, "str | None",
              'set gain, ties, no_relevant, score_precision and negative_labels as a peer tool does: '
              '"trec_eval" (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), '
              '"xgboost-minus" (ndcg@k-); see :mod:`ndcg_sql.conventions`. A given option with another '
              "non-default value raises OptionError."),
    Parameter("row_col", None, "str | None",
              'with ties="input-order" (and only then), the column holding each row\'s input position '
              "(smaller first), e.g. a row number."),
    Parameter("score_precision", "double", "str",
              '"double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as '
              "trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float: OptionError)."),
    Parameter("negative_labels", "error", "str", '"error" (InputError), or "zero" (count as label 0, as trec_eval).'),
    Parameter("segments", None, "str | Sequence[str] | None",
              "column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the "
              "query key: every metric per (segment values, query); per-query rows carry the segment "
              "columns and the summary has one row per (segment values, k or measure) with mean, queries, "
              "stderr, ci_low, ci_high. Judgments without the segment columns apply to every segment the "
              "query occurs in; judgments with them (same names) are per (segment, query), and only then "
              'may missing_queries be "zero" (a judged (segment, query) absent from the run counts 0 in '
              "its segment)."),
    Parameter("bootstrap", 0, "int",
              "with bootstrap=N > 0 (at most 100,000), the summary gets bootstrap_low and bootstrap_high: the "
              "95% percentile bootstrap interval of each mean (per segment with ``segments``) from N "
              "resamples of the queries, computed in SQL (Efron & Tibshirani 1993, ch. 13)."),
    Parameter("seed", 0, "int",
              "non-negative integer fixing the bootstrap resamples (the same on every engine and version: "
              "the draws come from an arithmetic generator in SQL, sql/random_draws.sql.j2)."),
)
BY_NAME = {p.name: p for p in PARAMETERS}
#: Options that shape the metric SQL text (``to_sql``); the rest shape the summary.
SQL_TEXT = ("k", "query_col", "item_col", "score_col", "rank_col", "label_col", "gain", "ties", "no_relevant",
            "missing_queries", "measures", "convention", "row_col", "score_precision", "negative_labels",
            "segments")


class _RequestMethods:
    """The shared options as given (one attribute per :data:`PARAMETERS`
    entry, with its default); :meth:`resolve` validates them. The class
    :class:`Request` is made from :data:`PARAMETERS` below, so the names and
    defaults are written once."""

    def as_kwargs(self) -> dict:
        """The options by name, values as given (not copied: DEFAULT_CUTOFFS stays itself)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def resolve(self, judged: bool) -> Resolved:
        """Validate the options against each other and build :class:`Options`.

        Args:
            judged: whether judgments are given (decides the ideal ranking).

        Raises:
            OptionError: an option outside its domain or contradicting another
                (a convention's value, k with measures, score_col with rank_col,
                row_col without ties="input-order", bad segments, bootstrap or
                seed, AP/RR/Success with ties="average").
        """
        if self.score_col is not None and self.rank_col is not None:
            raise OptionError("give score_col (--score-col) or rank_col (--rank-col), not both")
        chosen = conventions.resolve(
            self.convention,
            dict(gain=self.gain, ties=self.ties, no_relevant=self.no_relevant,
                 score_precision=self.score_precision, negative_labels=self.negative_labels),
            judged,
        )
        measure_list = parse_measures(self.measures) if self.measures is not None else None
        k = self.k
        if measure_list is not None:
            if k is not DEFAULT_CUTOFFS and k is not None:
                raise OptionError("with measures, give the cutoffs in their names (nDCG@10, P@5), not k")
            k = tuple(dict.fromkeys(m.k for m in measure_list if m.family in ("CG", "DCG", "nDCG"))) or DEFAULT_CUTOFFS
        options = Options.build(
            k=k, gain=chosen["gain"], ties=chosen["ties"], no_relevant=chosen["no_relevant"],
            missing_queries=self.missing_queries, judgments=judged,
            input_kind="rank" if self.rank_col is not None else "score",
            score_precision=chosen["score_precision"], negative_labels=chosen["negative_labels"],
        )
        segments = segment_list(self.segments, self.query_col)
        check_bootstrap(self.bootstrap, self.seed)
        if not isinstance(self.intervals, bool):
            raise OptionError(f"intervals must be True or False; got {self.intervals!r}")
        if (options.ties == "input-order") != (self.row_col is not None):
            raise OptionError("ties='input-order' needs row_col (--row-col), the column of input row positions, "
                              "and row_col needs it")
        if measure_list is not None:
            check_ties(measure_list, options.ties)
        if self.query_col.lower() in OUTPUT_COLUMNS:
            from .validation import InputError

            raise InputError(f"the query column may not be named {self.query_col!r}: the output has a column of that name")
        return Resolved(
            request=self, options=options, measures=measure_list, segments=segments,
            convention=chosen.get("convention"),
            order_col=(self.rank_col if self.rank_col is not None else (self.score_col or "score")),
        )


Request = dataclasses.make_dataclass(
    "Request",
    [(p.name, object, dataclasses.field(default=p.default)) for p in PARAMETERS],
    bases=(_RequestMethods,),
    frozen=True,
)
Request.__module__ = __name__


@dataclass(frozen=True)
class Resolved:
    """Validated options: :class:`Options`, the parsed measures, the segment
    columns, the convention's canonical name and the ordering column."""

    request: "Request"
    options: Options
    measures: tuple[Measure, ...] | None
    segments: tuple[str, ...]
    convention: str | None
    order_col: str

    def report(self) -> dict:
        """The options as reported with every result."""
        report = self.options.report()
        if self.convention is not None:
            report["convention"] = self.convention
        return report


def check_bootstrap(bootstrap, seed) -> None:
    """Raise OptionError unless bootstrap is an int in [0, MAX_REPLICATES] and seed in [0, 2^63)."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or not 0 <= bootstrap <= MAX_REPLICATES:
        raise OptionError(f"bootstrap must be an integer from 0 to {MAX_REPLICATES}; got {bootstrap!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"seed must be a non-negative integer; got {seed!r}")


def segment_list(segments, query_col: str) -> tuple[str, ...]:
    """Validate the segment column names (the columns themselves are checked on the data)."""
    if segments is None:
        return ()
    names = (segments,) if isinstance(segments, str) else tuple(segments)
    if not names or not all(isinstance(name, str) and name for name in names):
        raise OptionError(f"segments must be one or more column names; got {segments!r}")
    if len(set(names)) != len(names) or query_col in names:
        raise OptionError(f"segments must be distinct columns other than the query column; got {list(names)!r}")
    clash = [name for name in names if name.lower() in OUTPUT_COLUMNS + SUMMARY_COLUMNS]
    if clash:
        raise OptionError(f"a segment column may not be named {clash[0]!r}: the output has a column of that name")
    return names


def takes_options(*names: str):
    """Give the decorated function the shared keyword options ``names`` (all when none given).

    The function itself takes its own parameters plus ``request``
    (a :class:`Request`); callers pass the options as keywords. Its
    ``__signature__`` lists them (keyword-only, after its own parameters;
    "k" may stay positional where the function's own signature says so) and
    its docstring gains their documentation under "Options:". An unknown
    keyword raises TypeError, as for any Python function.
    """
    chosen = [BY_NAME[name] for name in (names or BY_NAME)]

    def decorate(function):
        own = inspect.signature(function)
        own_params = [p for p in own.parameters.values() if p.name != "request"]
        present = {p.name for p in own_params}
        extra = [
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=p.annotation)
            for p in chosen if p.name not in present
        ]
        head = [p for p in own_params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        tail = [p for p in own_params if p.kind == p.KEYWORD_ONLY]
        signature = own.replace(parameters=head + tail + extra)
        option_names = {p.name for p in chosen}

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            values = dict(bound.arguments)
            options = {name: values.pop(name) for name in list(values) if name in option_names}
            return function(**values, request=Request(**options))

        wrapper.__signature__ = signature
        lines = "\n".join(
            f"        {p.name} ({p.annotation}; default {p.default!r}): {p.doc}" for p in chosen
        )
        wrapper.__doc__ = (function.__doc__ or "").rstrip() + "\n\n    Options (shared by evaluate, the warehouse runner and to_sql; ndcg_sql/arguments.py):\n" + lines + "\n"
        wrapper.option_names = tuple(p.name for p in chosen)
        return wrapper

    return decorate
