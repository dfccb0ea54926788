"""The options: every option of every entry point declared once (:class:`Given`: name, type,
default, documentation, allowed values and how the command line spells it), the options as a
caller gives them (:class:`Request`), and the conventions they resolve to (:class:`Options`).

The declarations are data only. The rules that check options against each other and
turn them into the templates' context are written once, as Jinja macros in
``sql/options/`` that both the Python runner and the dbt package render
(:mod:`ndcg_sql.building.context`); they read the choices, defaults and limits from
:func:`option_table`. Each Python entry point writes the options it takes in its signature,
with the type declared here and the default from :data:`DEFAULTS` (tests/test_signatures.py
checks every name, type and default against :data:`PARAMETERS`), and the "Keyword Args" of
its docstring are written from the documentation here (``python -m tools.option_docs``). The
command line gets its flags, choices, defaults and help from the table (:mod:`ndcg_sql.cli`),
and the dbt package the same table as a generated macro (``ndcg_sql._option_table()``).

Each Python entry point gathers the keyword arguments of its signature into a :class:`Request`
(:meth:`Request.of`); nothing is checked there: :func:`ndcg_sql.building.context.resolve` checks the
options against each other and decides an :class:`Options`, which the SQL templates in ``sql/``
apply (gain in ``sql/gain.sql.j2``, discount in ``sql/discount.sql.j2``, ties in
``sql/ranked_items.sql.j2``, the ideal ranking in ``sql/ideal_items.sql.j2``, queries with no
relevant item in ``sql/per_query.sql.j2``). Every number the package reports comes with
:meth:`Options.report`, so a reader always knows which convention produced it.
"""

from __future__ import annotations

import os
import re
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from .dialects import DialectName
from .errors import OptionError
from .measures import ERR_MAX_GRADE

# ----------------------------------------------------------------- declarations
# The shape of an option's declaration in PARAMETERS: a Parameter, how the command line takes
# it (a Cli), and how one Python entry point takes it otherwise than the table says (a Variant).

@dataclass(frozen=True)
class Cli:
    """How the command line takes an option: the subcommands that have it, and argparse's
    metavar, nargs, a text-to-value function, or a flag (store True)."""

    commands: tuple[str, ...]
    metavar: str | None = None
    nargs: str | None = None
    parse: Callable[[str], object] | None = None
    flag: bool = False
    #: per subcommand: another help text
    helps: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    """An option as one Python entry point takes it otherwise: its default and type there
    (the function's signature says the same), and its documentation there (None: the table's)."""

    default: object
    annotation: object
    doc: str | None = None


@dataclass(frozen=True)
class Parameter:
    """One option: name, default, type (the annotation every signature taking it writes),
    documentation as written in :class:`Given` (with its marks, :func:`spoken`), allowed values
    (those of a ``Literal`` type), its command-line spelling (None: Python only) and its variants
    by entry point (``{"plot": Variant(...)}``)."""

    name: str
    default: object
    annotation: object
    text: str
    choices: tuple[str, ...] | None = None
    cli: Cli | None = None
    variants: Mapping[str, Variant] = field(default_factory=dict)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def doc(self) -> str:
        """The documentation for a Python reader (docstrings, the options reference, dbt)."""
        return spoken(self.text, "python")

    def help(self, command: str) -> str:
        """The documentation in ``ndcg-sql COMMAND --help``: the subcommand's own text, or the
        option's, spelled for the command line (:func:`spoken`)."""
        helps = self.cli.helps if self.cli is not None else {}
        return spoken(helps.get(command, self.text), "cli")

    def taken_by(self, entry_point: str) -> Variant:
        """The option's default, type and documentation in ``entry_point`` (a function's name)."""
        variant = self.variants.get(entry_point)
        if variant is None:
            return Variant(self.default, self.annotation, self.doc)
        return Variant(variant.default, variant.annotation, spoken(variant.doc, "python") if variant.doc else self.doc)


def literal_choices(annotation: object) -> tuple[str, ...] | None:
    """The values of a ``Literal[...]`` type, or of ``Literal[...] | None``; None for any other type."""
    if get_origin(annotation) is Literal:
        return tuple(get_args(annotation))
    members = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else ()
    literals = [m for m in members if m is not type(None)]
    if len(literals) == 1 and get_origin(literals[0]) is Literal:
        return tuple(get_args(literals[0]))
    return None


# ----------------------------------------------------------------- choices
# Each is a ``Literal`` type, so that a type checker refuses another value; the tuple of its
# values (``get_args``) is what the command line and the resolution macros read.
#: gain(label): "exponential" is 2^label - 1 (Burges et al. 2005; LightGBM, XGBoost), "linear" the label
#: (Jarvelin & Kekalainen 2002; trec_eval, scikit-learn); a mapping {label: gain} is the third kind.
Gain = Literal["exponential", "linear"]
GAINS: tuple[str, ...] = get_args(Gain)
#: discount(rank), rank 1 = top, b = log_base: "log" is 1/log_b(rank + 1) (Burges et al. 2005; with b = 2
#: trec_eval, scikit-learn, LightGBM, XGBoost; scikit-learn's dcg_score(log_base=b)), "jarvelin" the original
#: discount of Jarvelin & Kekalainen (ACM TOIS 2002): 1 for rank < b, 1/log_b(rank) for rank >= b.
Discount = Literal["log", "jarvelin"]
DISCOUNTS: tuple[str, ...] = get_args(Discount)
#: Order inside a group of equal scores: "average" (every item of a tie group gets the group's mean
#: gain; McSherry & Najork 2008, scikit-learn), "item-asc"/"item-desc" (item id, byte order for text;
#: trec_eval: descending), "input-order" (a row-order column ascending; LightGBM's, XGBoost's stable sort).
Ties = Literal["average", "item-asc", "item-desc", "input-order"]
TIES: tuple[str, ...] = get_args(Ties)
#: NDCG of a query whose IDCG@k is 0: "zero" (trec_eval, scikit-learn), "skip" (left out of the mean),
#: "one" (LightGBM).
NoRelevant = Literal["zero", "skip", "one"]
NO_RELEVANT: tuple[str, ...] = get_args(NoRelevant)
#: With judgments, judged queries absent from the run: "ignore" (trec_eval) or "zero" (trec_eval -c).
MissingQueries = Literal["ignore", "zero"]
MISSING_QUERIES: tuple[str, ...] = get_args(MissingQueries)
#: Ranked items without a judgment: "zero" (counted as label 0; trec_eval's default) or "condense" (removed
#: before ranking: Sakai's condensed lists, SIGIR 2007; trec_eval -J, pytrec_eval judged_docs_only_flag).
Unjudged = Literal["zero", "condense"]
UNJUDGED: tuple[str, ...] = get_args(Unjudged)
#: Scores compared as doubles, or rounded to the nearest float32 first (trec_eval, XGBoost).
ScorePrecision = Literal["double", "float32"]
SCORE_PRECISIONS: tuple[str, ...] = get_args(ScorePrecision)
#: Negative labels: an error; counted as label 0, the item judged (Sakai's condensed lists keep it); or
#: counted as label 0, the item not judged (trec_eval's form_res_rels.c: -J drops it).
NegativeLabels = Literal["error", "zero", "unjudged"]
NEGATIVE_LABELS: tuple[str, ...] = get_args(NegativeLabels)
#: The item ids' type where the SQL text is written before any data is read (byte order for text).
ItemType = Literal["text", "number"]
ITEM_TYPES: tuple[str, ...] = get_args(ItemType)
#: File formats (by name; otherwise from the file's ending, see ndcg_sql/data/inputs.py).
Format = Literal["parquet", "csv", "json", "trec-run", "trec-qrels"]
FORMATS: tuple[str, ...] = get_args(Format)
#: The input checks a run makes: "all" (every check of ndcg_sql/building/validation.py), or "trusted" (none: the
#: input was gated upstream, e.g. by the dbt test ndcg_valid_input or a pipeline's own constraints).
Checks = Literal["all", "trusted"]
CHECKS: tuple[str, ...] = get_args(Checks)
#: The multiple-testing correction of compare's p-values (ndcg_sql/vocabulary/corrections.py): Holm's step-down
#: (Holm 1979), Bonferroni's, Benjamini-Hochberg's step-up (1995), or none.
Correction = Literal["holm", "bonferroni", "bh", "none"]
#: The corrections the period test of ``plot(over=...)`` and the dbt gate take (critical values, no p-values).
PeriodCorrection = Literal["bonferroni", "none"]
CORRECTIONS: tuple[str, ...] = get_args(Correction)
#: The test whose (adjusted) p-values mark a comparison table's significant pairs: the sign-flip
#: permutation test, the paired t-test, or the randomized Tukey HSD test (three runs or more).
SignificanceTest = Literal["permutation", "t", "tukey"]
SIGNIFICANCE_TESTS: tuple[str, ...] = get_args(SignificanceTest)
#: The significance level of a comparison table's marks: a pair is significant when its p-value is below it.
ALPHA = 0.05
#: The statements of to_sql / ``ndcg-sql sql --statement``.
Statement = Literal["per_query", "summary", "coverage", "checks"]
STATEMENTS: tuple[str, ...] = get_args(Statement)
#: The gain as resolved (:attr:`Options.gain`): one of :data:`GAINS`, or "mapping" (a mapping {label: gain},
#: :attr:`Options.gain_mapping`).
ResolvedGain = Literal[Gain, "mapping"]
#: How a ranking is given (:attr:`Options.input_kind`): by scores, higher is better (score_col), or by
#: logged ranks, 1 = top (rank_col).
InputKind = Literal["score", "rank"]

# ----------------------------------------------------------------- other types of the signatures
#: One cutoff: a positive integer, or the whole list (None or "all").
Cutoff = int | Literal["all"] | None
#: k: one cutoff or several.
Cutoffs = Cutoff | Sequence[Cutoff]
#: gain: a name, or a mapping {label: gain}.
GainOption = Gain | Mapping[float | str, float]  # labels as numbers, or given as words
#: Names of columns, or of measures: one (a comma-separated string for measures), several, or none.
Names = str | Sequence[str] | None
#: An input: a path, a table or view name (on a warehouse: "schema.table" or a sequence of
#: parts), a DuckDB relation, or a pandas/polars/Arrow object.
Source = object

# ----------------------------------------------------------------- limits and rules
#: Cutoffs used when the caller gives none: these and the whole list (None).
DEFAULT_CUTOFFS: tuple[int | None, ...] = (1, 3, 5, 10, 20, None)
#: Largest cutoff k (in k and in measure names): the largest 64-bit integer, SQL's BIGINT.
MAX_CUTOFF = 2**63 - 1
#: Largest label accepted with exponential gain: 2^1024 overflows a double.
MAX_EXPONENTIAL_LABEL = 1023
#: Largest sum of the gains of one query (its listed items, or with judgments its judged
#: items), as a power of 2: past 2^1023 a sum of doubles may overflow (CG, DCG, IDCG, a tie
#: group's mean), so such a query is refused (every sum below the limit is finite).
MAX_QUERY_GAIN_EXPONENT = 1023
#: Largest finite double, as the input checks write it (sql/input_checks.sql.j2): a larger
#: absolute value is infinite.
MAX_DOUBLE = "1.7976931348623157e308"
#: Gains are summed scaled by 2^-GAIN_SCALE in the input check of a query's gain total
#: (sql/input_checks.sql.j2): a power of two, so the scaling is exact (a linear gain below about
#: 2.4e-7 becomes subnormal, and adds nothing that matters to a sum near the limit) and no
#: scaled gain overflows.
GAIN_SCALE = 1000
#: Largest number of bootstrap replicates accepted (rows = queries x k x replicates).
MAX_REPLICATES = 100_000
#: Largest number of sign patterns of compare's permutation test (rows = queries x patterns).
MAX_PERMUTATIONS = 1_000_000
#: Default bound of a local bootstrap's draws, replicates x per-query values (queries x cutoffs
#: or measures): each draw is a row DuckDB groups, about 36 bytes spilled past the memory limit.
#: 1,000 resamples of 30,000 queries at 6 cutoffs (1.8e8) ran 160 s on 2 cores and spilled 6.6 GiB
#: (1500MB limit, the default then), so this bound is about 3 minutes and 7 GiB there (docs/safety.md, Runaway work).
MAX_BOOTSTRAP_DRAWS = 200_000_000
#: Most DuckDB threads accepted, per CPU core: past the cores a thread adds memory and start-up
#: time, not speed (threads=10,000 took 30 s on a 2,000-row file that 2 threads read in 3 s);
#: a few per core still help DuckDB wait on remote files.
THREADS_PER_CORE = 4
#: Output column names: a query or segment column of one of these names would be ambiguous.
OUTPUT_COLUMNS = ("k", "cg", "dcg", "idcg", "ndcg", "measure", "value", "weight")
SUMMARY_COLUMNS = ("mean", "queries", "no_relevant", "evaluated", "stderr", "ci_low", "ci_high", "ci_method", "population",
                   "bootstrap_low", "bootstrap_high")
#: Positions 1..head of each ranking are summed column-wise (sql/dcg_at_cutoffs.sql.j2): at least
#: the default, at most the maximum (exactly the longest list when it is known and shorter).
#: The package's version (``ndcg_sql.__version__``, ``ndcg-sql --version``, the header of emitted SQL);
#: pyproject.toml's ``version`` is the same (tests/test_layout.py).
VERSION = "0.1.0"
HEAD_LENGTH = {"default": 20, "max": 32}
#: The ideal ranking is counted per label (no sort) when there are at most this many labels.
MAX_COUNTED_LABELS = 16
#: Whole numbers up to this are exact doubles, and so are their sums while they stay below it.
EXACT_WHOLE = 2**53
#: Most entries (positions of the longest list x labels counted) of the ideal ranking's prefix table
#: past the head (sql/ideal_items.sql.j2, tail_sums): 16 bytes a decimal, so at most 64 MiB; a
#: longer list's ideal ranking is sorted instead.
MAX_PREFIX_ENTRIES = 2**22
K_BEYOND_LIST = ("DCG@k sums the items present; IDCG@k comes from the ideal ranking of the "
                 "list (or of all judged items) cut at k")


# ----------------------------------------------------------------- command-line spellings
def gain_from_text(text: str):
    """The command line's gain: 'exponential', 'linear', a mapping '0:0,1:1,2:3', or a mapping
    of labels given as words 'relevant:2,partial:1,irrelevant:0' (each word as written, up to
    its last ':')."""
    if text in GAINS:
        return text
    try:
        split = [pair.rsplit(":", 1) for pair in text.split(",")]
        keys: list[float] | list[str] = [label for label, _ in split]
        try:
            keys = [float(label) for label, _ in split]
        except ValueError:
            pass  # labels given as words
        pairs = [(key, float(gain)) for key, (_, gain) in zip(keys, split)]
    except ValueError:
        raise OptionError(f"gain must be {' or '.join(GAINS)} or a mapping like 0:0,1:1,2:3 "
                          f"(or relevant:2,partial:1 for labels given as words); got {text!r}") from None
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        raise OptionError(f"the gain mapping gives a label twice: {text!r}")
    return dict(pairs)


#: A DuckDB memory limit: a number with a unit (ndcg_sql/data/connections.py checks memory_limit with it).
MEMORY_SIZE = re.compile(r"^[0-9]+(\.[0-9]+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)
#: What a memory limit must be, after the option's name (written for each reader by :func:`spoken`).
MEMORY_LIMIT_RULE = "must be a size such as '1400MB' or '4GB', or {None} for DuckDB's own limit (80% of RAM)"


def size_from_text(text: str) -> str | None:
    """The command line's memory limit: a size, or 'none' for DuckDB's own (OptionError otherwise,
    saying 'none' as the command line spells it; argparse names --memory-limit before it)."""
    if text.strip().lower() == "none":
        return None
    if not MEMORY_SIZE.match(text.strip()):
        raise OptionError(f"{spoken(MEMORY_LIMIT_RULE, 'cli')}; got {text!r}")
    return text


def most_threads() -> int:
    """The most DuckDB threads accepted: THREADS_PER_CORE per CPU core."""
    return THREADS_PER_CORE * (os.cpu_count() or 1)


def threads_problem(threads) -> str | None:
    """What is wrong with ``threads`` (None or a positive int of at most :func:`most_threads`), as
    the end of a sentence naming the option; None when nothing is."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        return f"must be a positive integer; got {threads!r}"
    if threads > most_threads():
        return (f"must be at most {most_threads()} ({THREADS_PER_CORE} per CPU core, {os.cpu_count() or 1} here): "
                f"more only add memory and start-up time; got {threads}")
    return None


def threads_from_text(text: str) -> int:
    """The command line's threads (OptionError as :func:`threads_problem` words it; argparse names
    --threads before it)."""
    try:
        threads = int(text)
    except ValueError:
        raise OptionError(f"must be a positive integer; got {text!r}") from None
    problem = threads_problem(threads)
    if problem:
        raise OptionError(problem)
    return threads


# ----------------------------------------------------------------- the documentation's two readers
#: An option's documentation is written once, for two readers: a Python caller, who passes
#: ``ties="input-order"`` or None and catches an OptionError, and a command-line user, who types
#: ``--ties input-order`` or ``none`` and reads an error message and an exit status. Where the two
#: differ the text holds a mark in braces, which :func:`spoken` writes for each: an option's name
#: (``{row_col}``: row_col, --row-col), an option with a value (``{ties="input-order"}``:
#: ties="input-order", --ties input-order), or a phrase of :data:`PHRASES`. Braces around a text
#: with a colon (a mapping such as {label: gain}) are not marks.
PHRASES: dict[str, tuple[str, str]] = {
    "raises OptionError": ("raises OptionError", "is refused with an error"),
    "raises InputError": ("raises InputError", "is refused with an error"),
    "InputError": ("InputError", "an error"),
    #: the value that means "DuckDB's own" (memory_limit), which the command line takes as 'none'
    "None": ("None", "'none'"),
    #: an option's default that leaves the choice to the code (the command line: the flag not given)
    "Default None": ("Default None", "Not given"),
}
#: A mark that begins with one of these holds words for one reader only (the rest of the mark),
#: nothing for the other: ``{python-only ; a connection given as con= ...}``.
PYTHON_ONLY = "python-only "
CLI_ONLY = "cli-only "
Reader = Literal["python", "cli"]
_MARK = re.compile(r"\{([^{}:]+)\}")
_OPTION_MARK = re.compile(r"([a-z_]+)(?:=(.+))?")


def spoken(text: str, reader: Reader) -> str:
    """An option's documentation (``text``, with its marks) for a Python ``reader`` or a
    command-line one ("cli"); a mark that is neither a phrase nor an option raises ValueError."""
    def one(mark: re.Match) -> str:
        inside = mark.group(1)
        for only, who in ((PYTHON_ONLY, "python"), (CLI_ONLY, "cli")):
            if inside.startswith(only):
                return inside[len(only):] if reader == who else ""
        if inside in PHRASES:
            return PHRASES[inside][reader == "cli"]
        option = _OPTION_MARK.fullmatch(inside)
        if option is None or option.group(1) not in _OPTION_NAMES:
            raise ValueError(f"{{{inside}}} in an option's documentation is neither an option nor one of PHRASES")
        if reader == "python":
            return inside
        name, value = option.groups()
        return "--" + name.replace("_", "-") + ("" if value is None else " " + value.strip("'\""))
    return _MARK.sub(one, text)


ALL = ("evaluate", "compare", "plot", "sql")
RUNS = ("evaluate", "compare", "plot")
#: The options of the ranking and the judgments that ``unjudged`` takes too (it ranks as evaluate does).
RANKING = ALL + ("unjudged",)

#: Cutoffs of ``plot`` when the caller gives none (the k axis); measures of ``compare``.
PLOTTED_CUTOFFS: tuple[int, ...] = tuple(range(1, 21))
COMPARED_MEASURES: tuple[str, ...] = ("nDCG@10",)
#: The Python entry points on a warehouse connection: there dialect and item_type default to None.
ON_A_CONNECTION = {
    "dialect": Variant(None, DialectName | None,
                       'with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" '
                       'or "duckdb" (a SparkSession: "spark" by default).'),
    "item_type": Variant(None, ItemType | None,
                         'with a warehouse connection: the item ids\' type ("text" or "number"; default: from one '
                         "fetched id)."),
}
T = TypeVar("T")


def option(default: T, doc: str, cli: Cli | None = None, **variants: Variant) -> T:
    """One option's declaration in :class:`Given`: its default, documentation, command-line spelling,
    and how an entry point takes it otherwise (``plot=Variant(...)``, by the function's name)."""
    return field(default=default, metadata={"doc": doc, "cli": cli, "variants": variants})


@dataclass(frozen=True)
class Given:
    """Every option of every entry point, declared once, in signature order: its type (the
    annotation: a ``Literal`` lists the allowed values), its default, documentation and
    command-line spelling. :data:`PARAMETERS` is this table as data; :data:`DEFAULTS` the
    defaults, which the public signatures name (``gain: GainOption = DEFAULTS.gain``).

    First the options of the metric SQL (every entry point, dbt too), then those of the
    summary, then those of the runners.
    """

    k: Cutoffs = option(
        DEFAULT_CUTOFFS,
        'cutoff(s): positive int(s); None or "all" is the whole list. Default: 1, 3, 5, 10, 20 and the '
        "whole list. With measures the cutoffs are in the names (giving k too raises OptionError).",
        Cli(("evaluate", "plot", "sql"), metavar="K", nargs="+", helps={
            "evaluate": "cutoffs: positive integers, 'all' for the whole list (default: 1 3 5 10 20 all)",
            "sql": "cutoffs: positive integers, 'all' for the whole list (default: 1 3 5 10 20 all)",
            "plot": "cutoffs on the x axis: positive integers, not 'all' (default: 1 2 ... 20)"}),
        plot=Variant(PLOTTED_CUTOFFS, Sequence[int], "the cutoffs on the x axis: positive integers (default 1 .. 20)."))
    query_col: str = option("query_id", 'query id column name (case-sensitive; default "query_id").',
                            Cli(RANKING, metavar="NAME"))
    item_col: str = option("item_id", 'item id column name (default "item_id").', Cli(RANKING, metavar="NAME"))
    score_col: str | None = option(None, 'score column, higher is better (default "score").',
                                      Cli(RANKING, metavar="NAME"))
    rank_col: str | None = option(
        None, "logged rank column (1 = top; smaller is better), used instead of a score; giving both "
        "{score_col} and {rank_col} {raises OptionError}.", Cli(RANKING, metavar="NAME"))
    label_col: str = option(
        "label", 'relevance label column (number >= 0; of the judgments when they are given; default "label").',
        Cli(RANKING, metavar="NAME"))
    label: str | None = option(
        None, "a relevance label computed from the input's columns, instead of {label_col}: a SQL expression "
        "of column names, numbers, + - * /, comparisons (counting 1 when true, 0 when false), AND, OR, NOT, "
        "CASE, COALESCE, LEAST, GREATEST and CAST, e.g. 'clicked + 2 * purchased' or 'CASE WHEN "
        "watch_seconds >= 180 THEN 2 WHEN watch_seconds >= 60 THEN 1 ELSE 0 END'; over the judgments' "
        "columns when judgments are given. Parsed by sqlglot, names quoted, nothing else accepted "
        "(ndcg_sql/building/labels.py).", Cli(RANKING, metavar="EXPR"))
    gain: GainOption = option(
        "exponential",
        '"exponential" (2^label - 1; Burges et al. 2005), "linear" (label; trec_eval) or a mapping '
        "{label: gain} of finite non-negative numbers (command line: 0:0,1:1,2:3); in Python and on the command line, "
        "for labels given as words (not in the dbt macros), a mapping {word: gain}, e.g. {'relevant': 2, 'partial': 1, 'irrelevant': 0} (command line: "
        "relevant:2,partial:1,irrelevant:0; exact match; a word missing from it {raises InputError}), each item's "
        "label then being its gain (docs/inputs.md).",
        Cli(ALL, metavar="GAIN", parse=gain_from_text))
    discount: Discount = option(
        "log",
        'discount of rank r (1 = top), b = {log_base}: "log" 1/log_b(r + 1) (the usual one; b = 2 in trec_eval, '
        'scikit-learn, LightGBM, XGBoost), or "jarvelin" (Jarvelin & Kekalainen, TOIS 2002): 1 for r < b, '
        "1/log_b(r) for r >= b. Reported with every result.", Cli(RANKING))
    log_base: float = option(
        2.0,
        "b of the discount, a finite number > 1 (default 2): with discount \"log\" it scales DCG by "
        "ln(2)/ln(b) as scikit-learn's dcg_score(log_base=b) does (NDCG is unchanged).",
        Cli(RANKING, metavar="B", parse=float))
    ties: Ties = option(
        "average",
        '"average" (tie-aware, McSherry & Najork 2008), "item-asc" / "item-desc" (item id in byte '
        'order; trec_eval: "item-desc"), or "input-order" ({row_col} ascending; LightGBM, XGBoost).', Cli(RANKING))
    weight_col: str | None = option(
        None,
        "a column of the ranking giving each query a weight (traffic, revenue): a finite number >= 0, the "
        "same on every row of a query, not all 0 (else {InputError}). The mean is then sum(w x) / sum(w) "
        "(scikit-learn's sample_weight, LightGBM's query weights) and the standard error "
        "sqrt(n / (n - 1) * sum(w^2 (x - mean)^2)) / sum(w); per-query rows carry the weight. Not with "
        "{bootstrap}, compare, or {missing_queries='zero'} (a query absent from the run has no weight).",
        Cli(("evaluate", "plot", "sql", "unjudged"), metavar="NAME"))
    no_relevant: NoRelevant = option(
        "zero", 'NDCG of a query with IDCG@k = 0: "zero", "skip" (left out of the mean) or "one".', Cli(ALL))
    missing_queries: MissingQueries = option(
        "ignore",
        'with judgments, judged queries absent from the run: "ignore", or "zero" (count as 0, trec_eval -c).',
        Cli(ALL))
    unjudged: Unjudged = option(
        "zero",
        'with judgments, ranked items without a judgment: "zero" (count as label 0) or "condense" (removed '
        "before ranking, so the judged items move up: Sakai's condensed lists, SIGIR 2007; trec_eval -J, "
        "pytrec_eval's judged_docs_only_flag).", Cli(ALL))
    measures: Names = option(
        None,
        "measure names in ir_measures notation (a list, or one comma-separated string): nDCG@k, CG@k, "
        "DCG@k, P@k, R@k, AP, AP@k, RR, RR@k, Success@k, Judged@k, RBP(p=0.8), RBPResidual(p=0.8) (the most "
        "unjudged items could add), ERR@k (gdeval's), Bpref, infAP, Rprec, IPrec@0.5 (interpolated precision "
        "at recall 0.5), gm_map (the geometric mean of AP), SetP, SetR (precision and recall of the whole list), "
        "with a relevance threshold for the binary ones "
        "as P(rel=2)@5 (label >= 1 by default; MAP, MRR, Hit@k, GMAP, set_P, set_recall are aliases); formulas and sources in "
        'ndcg_sql/vocabulary/measures.py. AP, RR, Success, ERR, Bpref, infAP, IPrec and gm_map need ties "item-asc", '
        '"item-desc" or "input-order". '
        "Per-query rows are then (query, measure, value) and the summary one row per measure.",
        Cli(("evaluate", "compare", "sql"), metavar="NAME", nargs="+",
            helps={"compare": "measures in ir_measures notation (default: nDCG@10)"}),
        compare=Variant(COMPARED_MEASURES, str | Sequence[str]),
        compare_runs=Variant(COMPARED_MEASURES, str | Sequence[str]))
    max_grade: int = option(
        ERR_MAX_GRADE,
        "the top grade of the relevance scale, which ERR reads: R = (2^g - 1) / 2^max_grade for a label g "
        "(Chapelle et al. 2009; default 4, gdeval.pl's MAX_JUDGMENT); an integer from 1 to "
        f"{MAX_EXPONENTIAL_LABEL}. " "With ERR a label above it {raises InputError} (gdeval.pl refuses it too); "
        "without ERR it must be left as it is.",
        Cli(("evaluate", "compare", "sql"), metavar="G", parse=int))
    convention: str | None = option(
        None,
        'set {gain}, {ties}, {no_relevant}, {score_precision} and {negative_labels} as a peer tool does: '
        '"trec_eval" (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), '
        '"xgboost-minus" (ndcg@k-); see ndcg_sql/vocabulary/conventions.py. Giving one of them another '
        "non-default value, or query weights or measures the tool does not have, {raises OptionError}.",
        Cli(RANKING, metavar="NAME"))
    row_col: str | None = option(
        None,
        'with {ties="input-order"} (and only then), the column holding each row\'s input position '
        "(smaller first), e.g. a row number.", Cli(RANKING, metavar="NAME"))
    score_precision: ScorePrecision = option(
        "double",
        '"double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as '
        "trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float).", Cli(RANKING))
    negative_labels: NegativeLabels = option(
        "error",
        '"error" ({raises InputError}), "zero" (count as label 0; with judgments the item is judged, so a condensed '
        'list keeps it, as Sakai\'s condensed lists keep every judged item), or "unjudged" (count as label 0; '
        "with judgments the item is not judged, as trec_eval reads a relevance below 0 (form_res_rels.c: in "
        'the pool, not judged): {unjudged="condense"} drops it, as trec_eval -J does, and Judged@k does not '
        'count it). {convention="trec_eval"} sets "unjudged".', Cli(ALL))
    segments: Names = option(
        None,
        "column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the "
        "query key: every metric per (segment values, query); per-query rows carry the segment "
        "columns and the summary has one row per (segment values, k or measure). Judgments without "
        "the segment columns apply to every segment the query occurs in; judgments with them (same "
        'names) are per (segment, query), and only then may {missing_queries} be "zero".',
        Cli(("evaluate", "compare", "plot", "sql", "unjudged"), metavar="COL", nargs="+", helps={
            "plot": "column name(s) of the rankings (experiment arm, date, ...): one line per (run, segment "
                    "values), labelled arm=bm25"}))
    intervals: bool | None = option(
        None,
        "add stderr, ci_low, ci_high and ci_method to the summary: the standard error s/sqrt(n) and a "
        "95% interval of each mean (NULL below 2 queries) that respects the range of the values, and "
        "its method: 'wilson' (the Wilson score interval) for values 0 or 1 (Success@k, P@1, RR@1), "
        "'normal, clipped to [0, 1]' (mean -/+ 1.96 stderr, clipped) for values in [0, 1] (NDCG, P, R, "
        "AP, RR), 'normal' for CG and DCG. {Default None}: with {measures} or {segments}.",
        Cli(("evaluate", "sql"), flag=True))
    bootstrap: int = option(
        0,
        "with {bootstrap=N} > 0 (at most 100,000), the summary gets bootstrap_low and bootstrap_high: the "
        "95% percentile bootstrap interval of each mean from N resamples of the queries, computed in "
        "SQL (Efron & Tibshirani 1993, ch. 13).", Cli(("evaluate", "plot", "sql"), metavar="N", parse=int))
    sample: float | None = option(
        None,
        "a fraction in (0, 1]: evaluate only a sample of the queries, each (segment values, query) drawn with "
        "this probability by a seeded hash of its key (sql/query_sample.sql.j2: the same queries on every "
        "engine, for a seed), for logs too large to evaluate whole. The summary is then an estimate: it gets "
        "the column population (the queries the sample was drawn from, per segment: each segment is a "
        "stratum) and its standard error and interval carry the finite-population correction sqrt(1 - n/N) "
        "(Cochran, Sampling Techniques, 1977, ch. 2-5), with the normal interval for every measure. Not with "
        "{bootstrap} or {missing_queries='zero'}.",
        Cli(("evaluate", "sql"), metavar="FRACTION", parse=float))
    seed: int = option(
        0,
        "non-negative integer fixing the bootstrap resamples and the sampled permutations (the same on "
        "every engine and version: sql/random_draws.sql.j2).",
        Cli(("evaluate", "plot", "compare", "sql"), metavar="S", parse=int))
    depth: int = option(
        10, "the ranks shown: a run shows the items it ranks at or above depth (a positive integer).",
        Cli(("unjudged",), metavar="K", parse=int))
    judgments: Source = option(
        None,
        "relevance judgments (qrels) with the query, item and label columns: labels and the ideal "
        "ranking come from here.", Cli(RUNS + ("sql", "unjudged"), metavar="FILE"),
        unjudged=Variant(None, Source, "relevance judgments (qrels) with the query, item and label columns "
                         "(required): an item is judged when they have a row for it, whatever its label."))
    input_format: Format | None = option(
        None, "force the ranking file's format (its ending decides otherwise).", Cli(RUNS + ("unjudged",)))
    judgments_format: Format | None = option(None, "force the judgments file's format.", Cli(RUNS + ("unjudged",)))
    threads: int | None = option(
        None, f"DuckDB threads (default: DuckDB's own choice, all cores; at most {THREADS_PER_CORE} per core)"
        "{python-only ; on a connection given as con= they are SET there, and stay set after the result is closed}.",
        Cli(RUNS + ("unjudged",), metavar="N", parse=threads_from_text))
    # 1400MB: large logs spill to disk instead of growing hash tables and sorts up to DuckDB's own
    # default (80 % of RAM); a 100M-row log (10 items a query) peaks at about 1.5 GB resident with
    # it, the limit plus about 0.2 GB outside DuckDB's buffer pool (Python, libraries, DuckDB's
    # own allocations), at the CPU seconds of 1500MB within a few percent (docs/performance.md,
    # DuckDB's memory).
    memory_limit: str | None = option(
        "1400MB",
        "DuckDB memory_limit{python-only  of a connection ndcg_sql opens itself}, past which DuckDB spills to disk, "
        "a size such as 1400MB or 4GB ({None}: DuckDB's own, 80% of RAM); it bounds DuckDB's buffer manager, not "
        "the whole process ({strict_memory_limit}).",
        Cli(RUNS + ("unjudged",), metavar="SIZE", parse=size_from_text))
    temp_directory: str | os.PathLike[str] | None = option(
        None,
        "the folder in which {python-only a connection ndcg_sql opens itself}{cli-only the command} gets a "
        "temp folder of its own for DuckDB to spill to (default: the system's temp dir); that folder is removed "
        "{python-only when the result is closed or collected, on an error, and at exit}{cli-only when the command "
        "ends, on an error or Ctrl-C too}.", Cli(RUNS + ("unjudged",), metavar="DIR"))
    # measured at commit 2100b47 (DuckDB 2.0.1, 2 cores): docs/performance.md, DuckDB's memory,
    # "Memory outside the limit"
    strict_memory_limit: bool = option(
        False,
        "turn off DuckDB's partitioned execution{python-only  on a connection ndcg_sql opens itself} (SET "
        "disabled_optimizers = 'partitioned_execution'), so that the process stays near {memory_limit}. On a log "
        "stored in query order DuckDB splits the ranking into ranges of the query key (about one per 10M rows), "
        "faster but with memory outside its limit that grows with the ranges: a billion-row log under 1GB peaked "
        "at 1.79 GB resident, and 1.24 GB with this option (interpreter included), at 1.8x the time (887 s "
        "against 490 s on 2 cores); up to 100M rows the split stays well inside the limit and is the faster "
        "(docs/performance.md).{python-only  A connection given as con= keeps its own settings, so run SET "
        "disabled_optimizers = 'partitioned_execution' on it yourself.}", Cli(RUNS + ("unjudged",), flag=True))
    max_bootstrap_draws: int = option(
        MAX_BOOTSTRAP_DRAWS,
        "largest bootstrap replicates x per-query values (queries x cutoffs or measures) a local run "
        "draws; more {raises OptionError} before the bootstrap starts (default 200,000,000: about 7 GiB "
        "of temp files and 3 minutes on 2 cores).", Cli(("evaluate", "plot"), metavar="N", parse=int))
    checks: Checks = option(
        "all",
        '"all": every input check (bad input {raises InputError} naming the column); "trusted": none, for '
        "input gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad "
        "input gives wrong numbers, not an error (docs/safety.md). An empty input is still refused, and "
        "every result reports checks=trusted.", Cli(RUNS + ("unjudged",)))
    dialect: DialectName = option(
        "duckdb", "the engine the SQL is for (transpiled by sqlglot).", Cli(("sql",)), **{
            entry: ON_A_CONNECTION["dialect"] for entry in ("evaluate", "compare", "compare_runs", "plot", "unjudged")})
    item_type: ItemType = option(
        "text",
        "the item ids' type, needed for an item-id tie-break when no data is read (text compares in "
        "byte order).", Cli(("sql",)), **{entry: ON_A_CONNECTION["item_type"] for entry in ("evaluate", "compare", "compare_runs", "plot", "unjudged")})
    id_types: Mapping[str, str] | Iterable[str] | None = option(
        None,
        "the id columns' types as the engine writes them, by role (query, item, judgments_query, "
        'judgments_item): a mapping {"query": "INT64", "judgments_query": "STRING"} or texts such as '
        '"query=INT64". Ids are then compared as evaluate compares them (sql/options/id_forms.sql: as text in '
        "TREC form when the two sides differ), and known item ids decide {item_type}. A role not given (or no "
        "{id_types} at all) or a type not listed (ndcg_sql/vocabulary/dialects.py type_names): compared as stored.",
        Cli(("sql",), "ROLE=TYPE", "+"))
    segmented_judgments: bool = option(
        False, "with {segments}: the judgments carry the segment columns (judgments per (segment, query)).",
        Cli(("sql",), flag=True))
    permutations: int = option(
        10_000, f"sign patterns of compare's permutation test (1 .. {MAX_PERMUTATIONS:,}; exact when 2^queries "
        "is fewer), and with three runs or more the permutations of the randomized Tukey HSD test.",
        Cli(("compare",), metavar="N", parse=int))
    correction: Correction | None = option(
        None,
        "the multiple-testing correction of compare's p-values over each segment's family of tests (every "
        'pair of runs x measure): "holm" (Holm 1979, step-down; the family-wise error rate), "bonferroni", '
        '"bh" (Benjamini & Hochberg 1995, step-up; the false discovery rate) or "none". Each row keeps the '
        "raw p-values and adds t_p_value_adjusted, permutation_p_value_adjusted, family_size and correction. "
        '{Default None}: "holm" with more than two runs or more than one measure, else "none".',
        Cli(("compare", "plot"), helps={"plot": "with --over: bonferroni (over the lines of a period; default) or "
                                                "none"}),
        plot=Variant("bonferroni", PeriodCorrection, 'with over: the correction of the period test over the lines (runs and segments) of a period: "bonferroni" (each line at alpha / lines, rounded down to a tabulated level) or "none"; "holm" and "bh" need exact p-values, which the period test\'s table of t critical values does not give (OptionError). Default: \'bonferroni\'.'))


#: The defaults, typed: what the public signatures name as their defaults.
DEFAULTS = Given()
_TYPES = get_type_hints(Given)
_OPTION_NAMES = frozenset(f.name for f in fields(Given))
#: Every option, in signature order (:class:`Given` as data).
PARAMETERS: tuple[Parameter, ...] = tuple(
    Parameter(f.name, f.default, _TYPES[f.name], f.metadata["doc"], literal_choices(_TYPES[f.name]),
              f.metadata["cli"], f.metadata["variants"])
    for f in fields(Given))
BY_NAME = {p.name: p for p in PARAMETERS}
#: The options of the metric SQL and its summary: what every entry point resolves the same way
#: (sql/options/ndcg_context.sql).
METRIC = ("k", "query_col", "item_col", "score_col", "rank_col", "label_col", "label", "gain", "discount", "log_base",
          "ties", "weight_col", "no_relevant",
          "missing_queries", "unjudged", "measures", "max_grade", "convention", "row_col", "score_precision", "negative_labels",
          "segments", "intervals", "bootstrap", "sample", "seed")


def option_table() -> dict:
    """What the resolution macros (sql/options/) read: choices, defaults and limits, as plain data.

    The dbt package has the same dict as the generated macro ``ndcg_sql._option_table()``.
    """
    return {
        "choices": {p.name: list(p.choices) for p in PARAMETERS if p.choices and p.name in METRIC},
        "gains": list(GAINS),
        "item_types": list(ITEM_TYPES),
        "defaults": {name: _plain(BY_NAME[name].default) for name in METRIC},
        "max_exponential_label": MAX_EXPONENTIAL_LABEL, "max_replicates": MAX_REPLICATES, "max_cutoff": MAX_CUTOFF,
        "output_columns": list(OUTPUT_COLUMNS),
        "summary_columns": list(SUMMARY_COLUMNS),
        "head_length": dict(HEAD_LENGTH),
        "max_counted_labels": MAX_COUNTED_LABELS,
        "exact_whole": EXACT_WHOLE,
        "max_prefix_entries": MAX_PREFIX_ENTRIES,
        "check_limits": {"max_double": MAX_DOUBLE, "max_exponential_label": MAX_EXPONENTIAL_LABEL,
                         "max_query_gain_exponent": MAX_QUERY_GAIN_EXPONENT, "gain_scale": GAIN_SCALE},
    }


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


# ----------------------------------------------------------------- as given, and resolved
class Request(Given):
    """The options of one call, as given (one attribute per :data:`ndcg_sql.vocabulary.parameters.PARAMETERS`
    entry, with its default)."""

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Request:
        """The options among ``values`` (e.g. an entry point's ``locals()``): those named in the table."""
        names = {f.name for f in fields(cls)}
        return cls(**{name: value for name, value in values.items() if name in names})

    def metric(self) -> dict[str, object]:
        """The options of the metric SQL and its summary (what sql/options/ resolves)."""
        return {name: getattr(self, name) for name in METRIC}


def discount_text(discount: Discount = DEFAULTS.discount, log_base: float = DEFAULTS.log_base) -> str:
    """The discount as reported with every result, e.g. ``1/log2(rank + 1)`` (the default),
    ``1/log10(rank + 1)``, ``1 for rank < 2, 1/log2(rank) for rank >= 2`` (discount="jarvelin")."""
    base = float(log_base)
    shown = str(int(base)) if base.is_integer() else repr(base)
    log = f"log{shown}" if base.is_integer() else f"log_{shown}"
    if discount == "jarvelin":
        return f"1 for rank < {shown}, 1/{log}(rank) for rank >= {shown}"
    return f"1/{log}(rank + 1)"


@dataclass(frozen=True)
class Options:
    """All conventions of one computation, as resolved (sql/options/ndcg_context.sql), each typed with
    its option's ``Literal`` and defaulting to its option's default in :class:`Given` (read from
    :data:`DEFAULTS`, never written again: tests/test_signatures.py checks both)."""

    cutoffs: tuple[int | None, ...] = DEFAULT_CUTOFFS
    gain: ResolvedGain = cast(Gain, DEFAULTS.gain)
    gain_mapping: tuple[tuple[float, float], ...] = ()
    discount: Discount = DEFAULTS.discount
    log_base: float = DEFAULTS.log_base
    ties: Ties = DEFAULTS.ties
    no_relevant: NoRelevant = DEFAULTS.no_relevant
    missing_queries: MissingQueries = DEFAULTS.missing_queries
    unjudged: Unjudged = DEFAULTS.unjudged
    #: judgments are given (the ideal ranking comes from them)
    judgments: bool = False
    #: by scores unless a rank column is given (sql/options/ndcg_context.sql)
    input_kind: InputKind = "score"
    score_precision: ScorePrecision = DEFAULTS.score_precision
    negative_labels: NegativeLabels = DEFAULTS.negative_labels
    #: with ERR among the measures, its top grade (labels above it are refused); else None
    max_grade: int | None = None
    #: the measures whose tool takes labels 0 and 1 only (e.g. "XGBoost's AP@5"), or None
    binary_labels: str | None = None
    #: the measures whose tool takes whole labels only (e.g. "LightGBM's nDCG"), or None
    integer_labels: str | None = None
    #: the fraction of queries sampled (the summary is an estimate), or None
    sample: float | None = DEFAULTS.sample

    @classmethod
    def of(cls, resolved: dict) -> "Options":
        """The options from the dict the resolution macros return (its 'options')."""
        return cls(
            cutoffs=tuple(resolved["cutoffs"]),
            gain=resolved["gain"],
            gain_mapping=tuple((float(label), float(gain)) for label, gain in resolved["gain_mapping"]),
            discount=resolved["discount"],
            log_base=float(resolved["log_base"]),
            ties=resolved["ties"],
            no_relevant=resolved["no_relevant"],
            missing_queries=resolved["missing_queries"],
            unjudged=resolved["unjudged"],
            judgments=bool(resolved["judgments"]),
            input_kind=resolved["input_kind"],
            score_precision=resolved["score_precision"],
            negative_labels=resolved["negative_labels"],
            max_grade=resolved["max_grade"],
            binary_labels=resolved["binary_labels"],
            integer_labels=resolved["integer_labels"],
            sample=resolved["sample"],
        )

    def report(self) -> dict:
        """The options as a JSON-ready dict, attached to every result."""
        gain: str | dict[str, float] = self.gain
        if self.gain == "mapping":
            gain = {_label_key(label): value for label, value in self.gain_mapping}
        return {
            "k": list(self.cutoffs),
            "gain": gain,
            "discount": discount_text(self.discount, self.log_base),
            "ties": self.ties,
            "ranking_by": self.input_kind,
            "ideal": "judgments" if self.judgments else "list",
            "no_relevant": self.no_relevant,
            "missing_queries": self.missing_queries if self.judgments else None,
            "unjudged": self.unjudged if self.judgments else None,
            "k_beyond_list": K_BEYOND_LIST,
            "score_precision": self.score_precision,
            "negative_labels": self.negative_labels,
            **({"max_grade": self.max_grade} if self.max_grade is not None else {}),
            **({"sample": self.sample} if self.sample is not None else {}),
        }


def _label_key(label: float) -> str:
    return str(int(label)) if label.is_integer() else repr(label)
