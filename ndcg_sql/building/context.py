"""The one context builder: options as given -> resolved options (:func:`resolve`, once per
computation), and those with the relations and what the data shows -> the SQL templates' context
(:func:`render`).

The rules live in one place, the Jinja macros of ``sql/options/`` (entries:
``_resolve_options`` and ``_ranking_context``, which dbt calls as one, ``_ndcg_context`` in
``sql/options/ndcg_context.sql``), which the dbt package loads unchanged. This module renders
them for the Python runner, ``to_sql`` and the warehouse runner, with the pieces dbt gets as generated macros: the option tables
(:mod:`ndcg_sql.vocabulary.parameters`, :mod:`ndcg_sql.vocabulary.conventions`, :mod:`ndcg_sql.vocabulary.measures`),
and the target engine's quoting, case rule and byte-order expression
(:mod:`ndcg_sql.vocabulary.dialects`). The templates are written in DuckDB SQL, so names are
quoted as DuckDB writes them (after the target's case rule) and sqlglot transpiles.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, fields
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Iterable, Iterator, Mapping, NamedTuple

from sqlglot import exp

from . import labels, templates

from ..vocabulary import conventions, dialects, identifiers, measures, parameters
from ..vocabulary.errors import InputError, OptionError
from ..vocabulary.measures import Measure
from ..vocabulary.parameters import Options


def _raise(kind):
    def fail(message):
        raise kind(message)

    return fail


def _spelled(name: str) -> str:
    parameter = parameters.BY_NAME.get(name)
    return f"{name} ({parameter.flag})" if parameter is not None and parameter.cli else name


def _flag(name: str, value: str = "") -> str:
    parameter = parameters.BY_NAME.get(name)
    if parameter is None or parameter.cli is None:
        return ""
    return f" ({parameter.flag}{' ' + value if value else ''})"


def _quote_for(fold):
    def quote(name) -> str:
        try:
            return identifiers.quote(name, "duckdb", fold)
        except TypeError:
            raise OptionError(f"a column name must be a non-empty string; got {name!r}") from None

    return quote


@lru_cache(maxsize=None)
def option_macros(dialect: str = "duckdb") -> SimpleNamespace:
    """The macros of ``sql/options/`` for an engine, with the Python pieces beside them."""
    target = dialects.get(dialect)
    return templates.macros({
        "_option_table": parameters.option_table,
        "_convention_table": conventions.convention_table,
        "_measure_grammar": measures.grammar,
        "_engine": lambda: {"name": target.name, "float32": target.float32, "top_n": target.top_n,
                            "position_lists": target.position_lists},
        "_id_type_names": lambda: target.type_names,
        "quote_identifier": _quote_for(target.fold),
        "item_byte_order": lambda: target.byte_order.format(item="item"),
        "string_literal": lambda text: exp.Literal.string(str(text)).sql(dialect="duckdb"),
        "name_fold": lambda: target.fold,
        "_option_error": _raise(OptionError),
        "_engine_error": _raise(OptionError),
        "_input_error": _raise(InputError),
        "_spelled": _spelled,
        "_flag": _flag,
    })


def plain(value):
    """A value as the macros take it: tuples as lists, numbers of other libraries (numpy) as
    Python numbers, measures by name, mappings as dicts (strings and booleans unchanged)."""
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, Measure):
        return value.name
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    if isinstance(value, Iterable):
        return [plain(item) for item in value]
    return value


#: The resolved options' keys (``_resolve_options``'s 'options') read beside :class:`Options`:
#: by :func:`resolve` into :class:`Resolved`, or by ``_ranking_context`` as what the data may show
#: instead (item_type, segmented_judgments). With Options' fields, every key it returns
#: (tests/test_context_record.py).
READ_BESIDE_OPTIONS = ("convention", "measures", "segments", "intervals", "bootstrap", "seed", "order_col",
                       "weight_col", "item_type", "segmented_judgments")


@dataclass(frozen=True)
class Resolved:
    """What the options resolve to, before any data is read (:func:`resolve`): the conventions
    (:class:`Options`), the measures, the segment columns, the summary's shape, the ordering
    column, whether the item ids' type changes the SQL (an item-id tie-break where the engine's
    byte order of text differs: the data tells the type before :func:`render`), and what the
    context's macros take (``decided``, read by :func:`render`)."""

    options: Options
    measures: tuple[Measure, ...] | None
    segments: tuple[str, ...]
    intervals: bool
    bootstrap: int
    seed: int
    convention: str | None
    order_col: str
    query_col: str
    dialect: str
    decided: Mapping = field(repr=False, compare=False)
    label: labels.LabelExpression | None = None
    weight_col: str | None = None
    item_type_matters: bool = False

    def report(self) -> dict:
        """The options as reported with every result."""
        report = self.options.report()
        if self.convention is not None:
            report["convention"] = self.convention
        if self.measures is not None:
            report["measures"] = [m.name for m in self.measures]
            report["k"] = None
        if self.label is not None and self.label.words is not None:
            report["gain"] = {word: gain for word, gain in self.label.words}
        elif self.label is not None:
            report["label"] = self.label.shown
        if self.weight_col is not None:
            report["weight_col"] = self.weight_col
        if self.segments:
            report["segments"] = list(self.segments)
        if self.bootstrap:
            report["bootstrap"] = {"replicates": self.bootstrap, "seed": self.seed}
        return report

    def label_checks(self) -> dict:
        """How :func:`ndcg_sql.building.validation.checks_for` names the label: a label expression, or
        labels given as words with their gain mapping."""
        words = self.label.words if self.label is not None else None
        return {"label_expression": self.label is not None and words is None, "words": words}

    def definitions(self) -> list[dict]:
        """Formula and source of each measure (empty without measures)."""
        return [m.definition() for m in self.measures] if self.measures is not None else []


class LabelRange(NamedTuple):
    """The finite labels the ideal ranking comes from, as the input checks found them."""
    lowest: float | None
    highest: float | None
    not_whole: int  # how many are not whole numbers


@dataclass(frozen=True)
class Seen:
    """What a look at the data (or, for :func:`ndcg_sql.to_sql`, the declared id types) shows;
    each None when not known. None of it is an option: :func:`render` takes it as it is.

    Attributes:
        segmented_judgments: the judgments carry the segment columns (None: as resolved).
        item_type: "text" or "number", the item ids' type (None: as resolved).
        id_forms: how each id column is read, {"run_query": form, ...} (:mod:`ndcg_sql.building.id_types`).
        id_types: the id columns' types as the engine writes them, by role (to_sql's ``id_types``).
        longest_list: the items of the longest list (or judged query).
        labels: the finite labels the ideal ranking comes from (:class:`LabelRange`, or a triple
            in its order; a NaN or infinite one, let through by checks="trusted", shapes no
            query's SQL).
    """

    segmented_judgments: bool | None = None
    item_type: str | None = None
    id_forms: Mapping[str, str] | None = None
    id_types: Mapping[str, str] | None = None
    longest_list: int | None = None
    labels: LabelRange | tuple | None = None

    def hints(self) -> dict:
        """The macros' ``hints`` (``sql/options/ranking_context.sql``): what is known, by name
        (labels as {'lowest', 'highest', 'not_whole'})."""
        known = {name: value for name, value in vars(self).items() if value is not None}
        if "labels" in known:
            known["labels"] = LabelRange(*known["labels"])._asdict()
        return {name: plain(value) for name, value in known.items()}


@dataclass(frozen=True)
class TemplateContext(Mapping):
    """What the SQL templates read (``ctx`` in ``sql/*.sql.j2``), as ``_ranking_context``
    (``sql/options/ranking_context.sql``) makes it: built once by :func:`render`, read by field in
    Python (``context.segment_cols``) and by key in Jinja (``ctx['segment_cols']``; a Mapping, so
    ``**context`` hands it to a template). Every key the macro returns is a field and every field a
    key it returns: :meth:`of` refuses a difference, and tests/test_context_record.py renders the
    macro for many option sets. Column names are quoted, SQL fragments written by the macros."""

    # the relations (SQL text) and the quoted columns
    run_relation: str
    judgments_relation: str | None
    judgments: bool
    query_col: str
    item_col: str
    order_col: str
    label_col: str | None
    j_query_col: str | None
    j_item_col: str | None
    j_label_col: str | None
    output_query_col: str
    row_col: str | None
    weight_col: str | None
    item_order: str  # the item-id tie-break expression over ``item``
    id_forms: Mapping[str, str]  # how each id column is read (sql/options/id_forms.sql)
    # the conventions, as resolved
    input_kind: str
    gain: str
    gain_mapping: list
    discount: str
    log_base: str
    ties: str
    score_precision: str
    negative_labels: str
    no_relevant: str
    missing_queries: str
    unjudged: str
    whole_labels: bool
    ap_reading: str | None
    p_reading: str | None
    # the cutoffs, and what lets the SQL skip work (each said in ranking_context.sql)
    cutoffs: list[dict]
    head_length: int
    ideal_labels: list[dict] | None
    tail_cutoffs: list[dict]
    exact_gains: bool
    top_items: bool
    tail_sums: bool
    positions: int | None
    # the summary's shape (summary_context.sql) and the segments
    intervals: bool
    ndcg_value_range: Any
    sample: Mapping | None
    sample_seed_state: int
    weighted: bool
    unweighted_no_relevant: bool
    segment_cols: list[str]
    segmented_judgments: bool
    read_input_once: bool  # each input table named once per statement (a warehouse's: plan.reading_input_once)
    # the measures (measure_context.sql): measures None and the rest empty for NDCG rows
    measures: list[dict] | None
    graded_measures: list[dict]
    binary_measures: list[dict]
    thresholds: list
    unbounded_measures: list
    judged_needed: bool
    pool_thresholds: list
    geometric_measures: list
    gm_floor: float | None
    infap_epsilon: float | None

    @classmethod
    def of(cls, made: Mapping) -> "TemplateContext":
        """The record of the macro's dict.

        Raises:
            RuntimeError: its keys and the fields differ (a key added to one and not the other).
        """
        names = set(_CONTEXT_FIELDS)
        missing, unknown = sorted(names - made.keys()), sorted(made.keys() - names)
        if missing or unknown:
            raise RuntimeError(f"_ranking_context and TemplateContext differ: fields the macro did not return "
                               f"{missing}, keys that are no field {unknown}")
        return cls(**made)

    def __getitem__(self, key: str):
        if key not in _CONTEXT_FIELDS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(_CONTEXT_FIELDS)

    def __len__(self) -> int:
        return len(_CONTEXT_FIELDS)


#: The fields of :class:`TemplateContext`, in order.
_CONTEXT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TemplateContext))


@dataclass(frozen=True)
class Rendered(Resolved):
    """The resolved options with the templates' context for given relations and what the data
    shows (:func:`render`)."""

    context: TemplateContext = field(kw_only=True)


def resolve(options: dict, judged: bool, *, dialect: str = "duckdb", item_type: str = "text",
            segmented_judgments: bool = False) -> Resolved:
    """Check and resolve the options of one computation (``_resolve_options`` in
    ``sql/options/ndcg_context.sql``), once: nothing here depends on the data.

    Args:
        options: every option of :data:`ndcg_sql.vocabulary.parameters.METRIC` as given
            (:meth:`ndcg_sql.vocabulary.parameters.Request.metric`).
        judged: judgments are given.
        dialect: the engine the SQL is for (quoting case, byte order, float32).
        item_type: "text" or "number" (byte order for the item-id tie-break), unless the
            data shows otherwise (:class:`Seen`).
        segmented_judgments: the judgments carry the segment columns (so missing_queries="zero"
            may go with segments), unless the data shows otherwise.

    Raises:
        OptionError: an option outside its domain or contradicting another, an engine
            that cannot compute what the options ask (float32 scores), or a label
            expression that :func:`ndcg_sql.building.labels.parse` refuses.
        InputError: a query column named as an output column.
    """
    given = {**plain(options), "item_type": item_type, "segmented_judgments": segmented_judgments}
    words = labels.gain_words(given.get("gain"))
    label: labels.LabelExpression | None
    if words is not None:  # labels given as words: the label is the word's gain, counted linearly
        if given.get("label") is not None:
            raise OptionError("a gain mapping of words maps the words of label_col (--label-col); "
                              "not with label (an expression)")
        if given.get("convention") is not None:
            raise OptionError(f"convention {given['convention']!r} sets the gain; a gain mapping of words "
                              "(gain={'relevant': 2, ...}) is not with a convention")
        label = labels.from_words(words, given["label_col"])
        given.pop("label", None)
        given.update(gain="linear", label_col=parameters.DEFAULTS.label_col)
    else:
        # a label expression reaches the macros only as sqlglot wrote it back (ndcg_sql/building/labels.py)
        label = labels.parse(given.pop("label"), dialect) if given.get("label") is not None else None
    given["label_sql"] = label.sql if label is not None else None
    decided = option_macros(dialect)._resolve_options(given, judged)
    resolved = decided["options"]
    return Resolved(
        options=Options.of(resolved),
        measures=measures.of(resolved["measures"]) if resolved["measures"] is not None else None,
        segments=tuple(resolved["segments"]),
        intervals=resolved["intervals"],
        bootstrap=resolved["bootstrap"],
        seed=resolved["seed"],
        convention=resolved["convention"],
        order_col=resolved["order_col"],
        query_col=options["query_col"],
        dialect=dialect,
        decided=decided,
        label=label,
        weight_col=options.get("weight_col"),
        item_type_matters=decided["item_type_matters"],
    )


def render(resolved: Resolved, relation: str, judgments: str | None = None, seen: Seen = Seen()) -> Rendered:
    """The templates' context (``_ranking_context`` in ``sql/options/ranking_context.sql``) from
    the resolved options, the input relations and what the data shows; checks no option.

    Args:
        resolved: from :func:`resolve` (or an earlier :func:`render`).
        relation, judgments: the input relations as SQL text (quoted names).
        seen: what a look at the data found.

    Raises:
        InputError: ``seen.id_types`` gives an id column a type with no text form.
    """
    context = TemplateContext.of(
        option_macros(resolved.dialect)._ranking_context(resolved.decided, relation, judgments, seen.hints()))
    own = {f.name: getattr(resolved, f.name) for f in fields(Resolved)}
    return Rendered(**own, context=context)


def parse_measures(names) -> tuple[Measure, ...]:
    """Parse measure names in ir_measures notation (``sql/options/parse_measures.sql``): a list,
    or one string separated by commas or spaces outside parentheses; duplicates dropped, order kept.

    Raises:
        OptionError: an unknown family, a malformed parameter or cutoff, a threshold on a
            graded measure, a binary measure without a cutoff, or no measure at all.
    """
    return measures.of(option_macros()._parse_measures(plain(names)))


def parse_measure(text) -> Measure:
    """One measure name (see :func:`parse_measures`)."""
    return parse_measures([text])[0]
