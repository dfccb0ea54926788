"""Input checks: bad input gets a clear error naming the column and a few query ids.

The checks are data (one :class:`Check` per problem, :func:`checks_for`), written for the
engine that runs them; the dbt test ``ndcg_valid_input`` gets them as a generated macro. Here
they are also run on the data before the metric SQL runs (``sql/validate_lists.sql.j2``,
``sql/validate_counts.sql.j2``, ``sql/validate_examples.sql.j2``), with what comes before them:
the columns exist with usable types and the segment columns are where they must be. Every
failure is an :class:`~ndcg_sql.vocabulary.errors.InputError` naming the column and a few query ids. Works
on any executor: a ``fetch`` runs one DuckDB-source statement and returns (column names, rows).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import sqlglot

from . import templates

from ..vocabulary import dialects
from ..vocabulary.errors import InputError, OptionError, echoed
from .sql_text import over_ctes
from .labels import LabelExpression
from ..vocabulary.parameters import Options
from ..vocabulary.parameters import CHECKS, MAX_EXPONENTIAL_LABEL, MAX_QUERY_GAIN_EXPONENT

EXAMPLES = 5
NUMERIC_TYPES = (
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
    "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "BOOLEAN",
)
TEXT_TYPES = ("VARCHAR",)


@dataclass(frozen=True)
class Check:
    """One thing that must not happen in the input.

    relation: the normalised CTE it is checked on; condition: SQL over that
    CTE's normalised columns (our own text, never user text); column: the
    user's column name(s) the problem is in; problem: what is wrong.
    counted / rows: when one row of the relation stands for several input
    rows (a duplicated pair), what one relation row is, and the SQL giving the
    input rows it stands for (the message counts both).
    values / named: SQL of the offending value (e.g. the label), whose few
    distinct values the message names through ``named`` ("{values}" is
    replaced by "label 4 is" or "labels 4, 5 are"). hint: how to accept
    such input, if an option does (ends the message line).
    source: when ``relation`` is not a normalised CTE, the SELECT defining it
    from them (our own text, DuckDB syntax for the engine that runs it), e.g.
    one row per query with a sum; the checking templates emit it as a CTE.
    revealed_by / infinite: the raw column whose smallest and largest value (aggregates of the
    first pass, which read every value where a per-row test may be folded away by statistics
    that leave NaN out) show the check failing when NaN (or, with ``infinite``, infinite).
    """

    relation: str
    condition: str
    column: str
    problem: str
    query_ids_known: bool = True
    counted: str | None = None
    rows: str | None = None
    values: str | None = None
    named: str | None = None
    hint: str | None = None
    #: what ``column`` is, for the message: a "column", or the "label expression"
    column_kind: str = "column"
    source: str | None = None
    revealed_by: str | None = None
    infinite: bool = False


#: Largest finite double; a larger absolute value is infinite.
MAX_DOUBLE = "1.7976931348623157e308"


@dataclass(frozen=True)
class Numbers:
    """How the checks read a raw column as a number on one engine (DuckDB syntax).

    ``number``: the value as DOUBLE, NULL when it holds no number (never an
    error); ``nan``: true for NaN. From :mod:`ndcg_sql.vocabulary.dialects`.
    """

    number: str
    nan: str

    @classmethod
    def of(cls, dialect: str) -> "Numbers":
        target = dialects.get(dialect)
        if target.name == "duckdb":
            return cls("TRY_CAST({x} AS DOUBLE)", target.nan)
        # the engine's own TRY_CAST may refuse a numeric argument (Snowflake): go through text
        return cls(target.try_double.replace("{x}", f"CAST({{x}} AS {target.text})"), target.nan)

    def value(self, column: str) -> str:
        return self.number.format(x=column)

    def is_nan(self, column: str) -> str:
        return self.nan.format(x=self.value(column))


#: The hint of the negative-label message: the option (Python, CLI) that accepts them.
NEGATIVE_HINT = ("negative_labels='zero' (--negative-labels zero) counts them as label 0; 'unjudged' also as not judged, "
                 "as trec_eval does")


#: The hint of non-numeric labels: words are labels once a gain mapping gives each its gain.
WORDS_HINT = "labels given as words: map them with gain={'relevant': 2, ...} (--gain relevant:2,...)"

#: The hint of a NULL label computed by a label expression.
NULL_EXPRESSION_HINT = ("a label expression is NULL where a column it reads is NULL or a divisor is 0: "
                        "COALESCE(x, 0) or CASE decides those rows")


def _label_checks(relation: str, column: str, options: Options, numbers: Numbers,
                  expression: bool = False, words: Sequence[tuple[str, float]] | None = None) -> list[Check]:
    value = numbers.value("label_raw")
    finite = f"NOT ({numbers.is_nan('label_raw')}) AND ABS({value}) <= {MAX_DOUBLE}"
    where = " in the judgments" if relation == "judgment_rows" else ""
    if words is not None:  # label_raw: the word's gain as text, or another value in double quotes (labels.from_words)
        shown = ",".join(f"{word}:{_number_text(gain)}" for word, gain in words)
        non_numeric = Check(relation, f"label_raw IS NOT NULL AND {value} IS NULL", column,
                            f"labels{where} missing from the gain mapping of words", values="label_raw",
                            named=f"{{values}} missing from the gain mapping of words{where}",
                            hint=f"give each word its gain: gain={{{', '.join(f'{w!r}: {_number_text(g)}' for w, g in words)}"
                                 f", ...}} (--gain {shown},...)")
    else:
        non_numeric = Check(relation, f"label_raw IS NOT NULL AND {value} IS NULL", column,
                            f"non-numeric labels{where}", hint=WORDS_HINT)
    checks = [
        Check(relation, "label_raw IS NULL", column, f"NULL labels{where}",
              hint=NULL_EXPRESSION_HINT if expression else None),
        non_numeric,
        Check(relation, f"{numbers.is_nan('label_raw')} OR ABS({value}) > {MAX_DOUBLE}", column,
              f"NaN or infinite labels{where}", revealed_by="label_raw", infinite=True),
    ]
    if options.negative_labels == "error":
        checks.append(Check(relation, f"{finite} AND {value} < 0", column, f"negative labels{where}", hint=NEGATIVE_HINT))
    if options.gain == "exponential":
        checks.append(
            Check(
                relation,
                f"{finite} AND {value} > {MAX_EXPONENTIAL_LABEL}",
                column,
                f"labels{where} above {MAX_EXPONENTIAL_LABEL} (2^label - 1 overflows a double; use gain='linear' or a mapping)",
            )
        )
    elif options.gain == "mapping":
        labels = ", ".join(repr(label) for label, _ in options.gain_mapping)
        counted = f"GREATEST({value}, 0.0)" if options.negative_labels in ("zero", "unjudged") else value
        checks.append(Check(relation, f"{finite} AND {counted} NOT IN ({labels})", column,
                            f"labels{where} missing from the gain mapping", values=counted,
                            named=f"{{values}} missing from the gain mapping{where}"))
    if options.binary_labels is not None:
        checks.append(Check(relation, f"{finite} AND {value} NOT IN (0.0, 1.0)", column,
                            f"labels{where} other than 0 and 1 ({options.binary_labels}: for labels 0 and 1 only)",
                            values=value,
                            named=f"{{values}} not 0 or 1 ({options.binary_labels}: for labels 0 and 1 only)",
                            hint="drop the convention for AP and P of graded labels (relevant: label >= rel)"))
    if options.max_grade is not None:
        checks.append(Check(relation, f"{finite} AND {value} > {options.max_grade}", column,
                            f"labels{where} above {options.max_grade}, the top grade ERR reads", values=value,
                            named=f"{{values}} above the top grade {options.max_grade}{where}",
                            hint=f"max_grade=G (--max-grade G) gives the scale's top grade: R = (2^g - 1) / 2^G "
                                 f"(gdeval.pl refuses labels above its 4)"))
    checks.append(_gain_total_check(relation, column, options, value, finite, where))
    if expression:
        checks = [dataclasses.replace(check, column_kind="label expression") for check in checks]
    return checks


#: Gains are summed scaled by 2^-GAIN_SCALE in the overflow check: a power of two, so the
#: scaling is exact (a linear gain below about 2.4e-7 becomes subnormal, and adds nothing that
#: matters to a sum near the limit) and no scaled gain overflows.
GAIN_SCALE = 1000


def _gain_total_check(relation: str, column: str, options: Options, value: str, finite: str,
                      where: str) -> Check:
    """The queries whose gains add up past 2^MAX_QUERY_GAIN_EXPONENT (a per-query sum in the
    relation ``<relation>_gain_totals``): past it a sum of doubles (CG, DCG, IDCG) may overflow
    to infinity. Labels out of range, NaN or non-numeric are refused by the other checks and
    add nothing here (so no engine evaluates 2^x out of its range)."""
    if options.gain == "exponential":
        scaled = f"POWER(2.0, {value} - {GAIN_SCALE}.0)"
        counted = (f"CASE WHEN {finite} AND {value} > 0 AND {value} <= {MAX_EXPONENTIAL_LABEL} "
                   f"THEN {scaled} ELSE 0.0 END")
        cause = f"exponential gain 2^label - 1 of labels near {MAX_EXPONENTIAL_LABEL}; use gain='linear' or a mapping"
    elif options.gain == "linear":
        counted = f"CASE WHEN {finite} AND {value} > 0 THEN {value} * {2.0 ** -GAIN_SCALE!r} ELSE 0.0 END"
        cause = "with linear gain the gain is the label; dividing the labels by a constant leaves NDCG as it is"
    else:
        label = f"CASE WHEN {value} > 0 THEN {value} ELSE 0.0 END" if options.negative_labels in ("zero", "unjudged") else value
        scaled = " ".join(f"WHEN {pair[0]!r} THEN {float(pair[1]) / 2.0 ** GAIN_SCALE!r}" for pair in options.gain_mapping)
        counted = f"CASE WHEN {finite} THEN (CASE {label} {scaled} ELSE 0.0 END) ELSE 0.0 END"
        cause = "gains of the mapping too large"
    total = relation.removesuffix("_rows") + "_gain_totals"
    limit = float(2 ** (MAX_QUERY_GAIN_EXPONENT - GAIN_SCALE))
    return Check(
        total, f"scaled_gain > {limit!r}", column,
        f"queries{where} whose gains add up past 2^{MAX_QUERY_GAIN_EXPONENT} (about 9.0e307, where a double "
        f"overflows: {cause})",
        counted="query", source=f"SELECT qid, SUM({counted}) AS scaled_gain FROM {relation} GROUP BY qid",
    )


def _weight_checks(column: str, numbers: Numbers) -> list[Check]:
    """Query weights (weight_col): finite, not negative, the same on every row of a query, not all 0."""
    value = numbers.value("weight_raw")
    return [
        Check("run_rows", "weight_raw IS NULL", column, "NULL weights"),
        Check("run_rows", f"{numbers.is_nan('weight_raw')} OR ABS({value}) > {MAX_DOUBLE}", column,
              "NaN or infinite weights", revealed_by="weight_raw", infinite=True),
        Check("run_rows", f"NOT ({numbers.is_nan('weight_raw')}) AND {value} < 0", column, "negative weights"),
        Check("run_weight_queries", "lowest_weight <> highest_weight", column,
              "weights that differ within a query (a query has one weight)", counted="query", rows="query_rows"),
        Check("run_weight_total", "highest_weight = 0", column, "weights that are all 0 (the weighted mean is 0 / 0)",
              query_ids_known=False),
    ]


def checks_for(options: Options, columns: dict[str, str], dialect: str = "duckdb",
               label_expression: bool = False, words: Sequence[tuple[str, float]] | None = None) -> list[Check]:
    """All checks for one computation, in DuckDB-syntax SQL for ``dialect``.

    Args:
        options: the validated options (gain decides the label range).
        columns: user column names by role: "query", "item", "order", "label",
            and with judgments "j_query", "j_item", "j_label"; "weight" with query weights.
        dialect: the engine that runs them: a non-numeric text value and NaN
            are read by that engine's own expressions
            (:class:`Numbers`, :mod:`ndcg_sql.vocabulary.dialects`), so every engine
            reports what DuckDB reports.
        label_expression: the label role holds a label expression (ndcg_sql/building/labels.py),
            named as such in the messages.
        words: labels given as words, mapped by this gain mapping ((word, gain), ...;
            :func:`ndcg_sql.building.labels.from_words`): a value missing from it is named.
    """
    numbers = Numbers.of(dialect)
    order = numbers.value("order_raw")
    checks = [
        Check("run_rows", "qid IS NULL", columns["query"], "NULL query ids", query_ids_known=False),
        Check("run_rows", "item IS NULL", columns["item"], "NULL item ids"),
        Check("run_rows", "order_raw IS NULL", columns["order"], f"NULL {options.input_kind}s"),
        Check("run_rows", f"order_raw IS NOT NULL AND {order} IS NULL", columns["order"], f"non-numeric {options.input_kind}s"),
        Check("run_rows", numbers.is_nan("order_raw"), columns["order"], f"NaN {options.input_kind}s",
              revealed_by="order_raw"),
    ]
    if options.ties == "input-order":
        checks.append(Check("run_rows", "row_order IS NULL", columns["row"], "NULL row numbers"))
    if columns.get("weight") is not None:
        checks += _weight_checks(columns["weight"], numbers)
    checks += [
        Check("run_duplicate_pairs", "TRUE", f"{columns['query']}, {columns['item']}", "duplicate (query, item) rows in the ranking",
              counted="duplicated (query, item) pair", rows="copies"),
    ]
    if options.judgments:
        checks += [
            Check("judgment_rows", "qid IS NULL", columns["j_query"], "NULL query ids in the judgments", query_ids_known=False),
            Check("judgment_rows", "item IS NULL", columns["j_item"], "NULL item ids in the judgments"),
            *_label_checks("judgment_rows", columns["j_label"], options, numbers, label_expression, words),
            Check(
                "judgment_duplicate_pairs",
                "TRUE",
                f"{columns['j_query']}, {columns['j_item']}",
                "duplicate (query, item) rows in the judgments",
                counted="duplicated (query, item) pair",
                rows="copies",
            ),
        ]
    else:
        checks += _label_checks("run_rows", columns["label"], options, numbers, label_expression, words)
    return checks


def check_types(types: dict[str, str], roles: dict[str, str], where: str) -> None:
    """Raise :class:`InputError` when a score/rank/label column is not numeric or text.

    Args:
        types: DuckDB type name by column name, for the relation checked.
        roles: role ("score", "rank", "label") by column name.
        where: "ranking" or "judgments", for the message.
    """
    for column, role in roles.items():
        kind = types[column].split("(")[0].upper()
        if kind not in NUMERIC_TYPES + TEXT_TYPES:
            raise InputError(
                f"column {column!r} of the {where} has type {types[column]}; {role}s must be numbers"
            )


def _plural(count: int, noun: str) -> str:
    if count != 1 and noun.endswith("y"):
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _number_text(value) -> str:
    """A label as the user wrote it: 4.0 is "4"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def as_text_condition(check: Check) -> str:
    """The values a revealed check refuses, found through their text (DuckDB): no statistics of the
    input describe a number's text, so no engine folds this test (slow: for error messages only)."""
    texts = "'nan', '-nan'" + (", 'inf', '-inf'" if check.infinite else "")
    return f"CAST(TRY_CAST({check.revealed_by} AS DOUBLE) AS VARCHAR) IN ({texts})"


def _in_queries(query_col: str, examples: list) -> str:
    """", e.g. in query_id q1, q2, ..." for a few offending query ids; "" for none."""
    if not examples:
        return ""
    more = ", ..." if len(examples) > EXAMPLES else ""
    return f", e.g. in {query_col} {', '.join(str(example) for example in examples[:EXAMPLES])}{more}"


def describe_hidden(check: Check, value: float, query_col: str, examples: list) -> str:
    """A message line for a check the first pass revealed (``value``: NaN or infinite) that no row counted."""
    return (f"{check.column_kind} {echoed(check.column)}: {check.problem} (the {'smallest' if value < 0 else 'largest'} "
            f"value read is {value}{_in_queries(query_col, examples)}; the input's statistics hide them from the engine's row tests, as a "
            "Parquet file's min/max leave NaN out: read the file with read_parquet(..., can_have_nan = true), as "
            "ndcg_sql does for a path, or replace the values)")


def describe_failure(check: Check, rows: int, query_col: str, examples: list,
                     input_rows: int | None = None, values: list | None = None) -> str:
    """One line of an error message: column, problem, row count, a few query ids.

    Args:
        rows: relation rows breaking the check (input rows, or duplicated pairs
            when ``check.counted`` is set; then ``input_rows`` counts the input rows).
        values: a few distinct offending values, named by ``check.named``.
    """
    problem = check.problem
    if check.named and values:
        shown = ", ".join(_number_text(v) for v in values[:EXAMPLES]) + (", ..." if len(values) > EXAMPLES else "")
        subject = f"label {shown} is" if len(values) == 1 else f"labels {shown} are"
        problem = check.named.replace("{values}", subject)
    if check.counted and input_rows is not None:
        count = f"{_plural(rows, check.counted)}, {_plural(input_rows, 'row')}"
    elif check.counted:
        count = _plural(rows, check.counted)
    else:
        count = _plural(rows, "row")
    line = f"{check.column_kind} {echoed(check.column)}: {problem} ({count})"
    if check.query_ids_known:
        line += _in_queries(query_col, examples)
    if check.hint:
        line += f" - {check.hint}"
    return line


Fetch = Callable[[str], tuple[list, list]]
#: The option naming a column of each role (the dbt macros' message names them too: tools/dbt_pieces.py).
ROLE_OPTION_NAMES = {"query": "query_col", "item": "item_col", "score": "score_col", "rank": "rank_col",
                     "label": "label_col", "row order": "row_col", "weight": "weight_col", "segment": "segments"}
#: The option naming a column of each role, as Python and the command line spell it.
ROLE_OPTIONS = {role: f"{name}= / --{name.replace('_', '-')}" for role, name in ROLE_OPTION_NAMES.items()}
ROLE_OPTIONS["label"] += " (or compute one: label= / --label)"


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
    weight: str | None = None
    #: a label expression instead of a label column (label / j_label then hold its text)
    label_expression: LabelExpression | None = None

    def roles(self) -> dict[str, str]:
        return {key: value for key, value in self.__dict__.items()
                if value is not None and key != "label_expression"}

    @classmethod
    def of(cls, options: dict, order_col: str, judged: bool, label: LabelExpression | None = None) -> "Columns":
        """The columns of ``options`` (the metric options as given) by role; ``label``: the
        parsed label expression, when one replaces the label column."""
        label_name = label.shown if label is not None else options["label_col"]
        columns = cls(options["query_col"], options["item_col"], order_col,
                      None if judged else label_name, row=options["row_col"], label_expression=label,
                      weight=options.get("weight_col"))
        if judged:
            columns.j_query, columns.j_item, columns.j_label = (options["query_col"], options["item_col"], label_name)
        return columns

    def label_wanted(self, label: str | None) -> list[tuple[str, str]]:
        """(role, column) pairs the labelled relation must have: the label column (if any), or
        every column the label expression reads."""
        if self.label_expression is None or self.label_expression.words is not None:
            return [("label", label)] if label is not None else []
        return [("label expression", name) for name in self.label_expression.columns]


def check_columns(run_types: dict[str, str], judgment_types: dict[str, str] | None, columns: Columns,
                  input_kind: str) -> None:
    """The user's columns exist (:func:`require_columns`) with usable types (types: DuckDB type
    name by column).

    Raises:
        InputError: a column missing, or of a type that is neither number nor text.
    """
    require_columns(run_types, judgment_types, columns, input_kind)
    expression = columns.label_expression is not None
    if judgment_types is not None:
        if columns.j_label is not None and not expression:
            check_types(judgment_types, {columns.j_label: "label"}, "judgments")
        roles = {columns.order: input_kind}
    else:
        roles = {columns.order: input_kind, **({} if columns.label is None or expression else {columns.label: "label"})}
    check_types(run_types, roles, "ranking")
    for column, what in ((columns.row, "row numbers"), (columns.weight, "weights")):
        if column is not None and run_types[column].split("(")[0].upper() not in NUMERIC_TYPES:
            raise InputError(f"column {column!r} of the ranking has type {run_types[column]}; {what} must be numbers")


def wanted_columns(columns: Columns, input_kind: str, judged: bool) -> tuple[list[tuple[str, str]],
                                                                             list[tuple[str, str]] | None]:
    """The columns the ranking and the judgments (None without them) must have, as (role, name)
    pairs: the query, item and score or rank columns, the label column or the columns a label
    expression reads (of the judgments, when given), the row order and weight columns."""
    ranking = [("query", columns.query), ("item", columns.item), (input_kind, columns.order)]
    if not judged:
        ranking += columns.label_wanted(columns.label)
    ranking += [(role, name) for role, name in (("row order", columns.row), ("weight", columns.weight))
                if name is not None]
    if not judged:
        return ranking, None
    ids = [(role, name) for role, name in (("query", columns.j_query), ("item", columns.j_item)) if name is not None]
    return ranking, [*ids, *columns.label_wanted(columns.j_label)]


def require_columns(run_columns, judgment_columns, columns: Columns, input_kind: str) -> None:
    """The ranking and the judgments have the columns :func:`wanted_columns` names.

    Args:
        run_columns, judgment_columns: the names of their columns (a collection, or a dict by
            name), as the user writes them; judgment_columns None without judgments.

    Raises:
        InputError: a column missing, named with the columns that exist (:func:`require`).
    """
    ranking, judgments = wanted_columns(columns, input_kind, judgment_columns is not None)
    require(run_columns, ranking, "ranking")
    if judgments is not None:
        require(judgment_columns, judgments, "judgments")


def require(types, wanted: dict[str, str] | list[tuple[str, str]], where: str) -> None:
    """Raise InputError naming every wanted column (by role: a dict, or (role, name) pairs)
    that ``types`` (the relation's column names: a collection, or a dict by name) lacks."""
    pairs = list(wanted.items() if isinstance(wanted, dict) else wanted)
    missing = [f"column {name!r} (read by the label expression)" if role == "label expression"
               else f"{role} column {name!r}" for role, name in pairs if name not in types]
    if missing:
        options = [ROLE_OPTIONS[role] for role, name in pairs if name not in types and role in ROLE_OPTIONS]
        hint = f" (name yours with {', '.join(options)})" if options else ""
        has = "have" if where == "judgments" else "has"
        raise InputError(f"the {where} {has} no {', no '.join(missing)}; its columns are: {', '.join(types)}{hint}")


def check_label_type(type_name: str, label: LabelExpression, where: str) -> None:
    """The label expression gives numbers (or text holding numbers) on ``where``.

    Raises:
        InputError: it gives values of another type (dates, lists, ...).
    """
    if type_name.split("(")[0].upper() not in NUMERIC_TYPES + TEXT_TYPES:
        raise InputError(f"the label expression {echoed(label.shown)} gives {type_name} values on the {where}; "
                         "labels must be numbers")


def segmented_judgments(run_types: dict, judgment_types: dict | None, segments, missing_queries: str) -> bool:
    """Check the segment columns on the data; True when the judgments carry them all (then
    judgments are per (segment, query)).

    Raises:
        InputError: a segment column missing from the ranking; some but not all segment
            columns in the judgments; missing_queries="zero" with judgments that do not
            carry the segment columns.
    """
    if not segments:
        return False
    require(run_types, [("segment", s) for s in segments], "ranking")
    if judgment_types is None:
        return False
    present = [s for s in segments if s in judgment_types]
    if present and len(present) != len(segments):
        raise InputError(
            f"the judgments have the segment column(s) {', '.join(map(repr, present))} but not "
            f"{', '.join(repr(s) for s in segments if s not in judgment_types)}: give all segment columns "
            "(judgments per (segment, query)) or none (judgments per query, for every segment)"
        )
    if not present and missing_queries != "ignore":
        raise InputError(
            "segments with missing_queries='zero' need the segment columns "
            f"({', '.join(map(repr, segments))}) on the judgments too: a judged query absent from the run "
            "has no segment of its own. Give judgments per (segment, query) (e.g. the judgments repeated "
            "for each experiment arm), or use missing_queries='ignore'"
        )
    return bool(present)


def _counted_relations(checks: list[Check]) -> list[dict]:
    """The checks by the relation they are counted on, as ``sql/validate_counts.sql.j2`` takes them."""
    relations: dict[str, list[dict]] = {}
    sources: dict[str, str | None] = {}
    for index, check in enumerate(checks):
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition, "rows": check.rows})
        sources.setdefault(check.relation, check.source)
    return [{"name": name, "checks": items, "source": sources[name]} for name, items in relations.items()]


def counts_sql(context: dict, checks: list[Check]) -> str:
    """One statement (``sql/validate_counts.sql.j2``) whose one row counts the rows of each input
    relation and the rows breaking each check: the columns :func:`count_columns` names."""
    return templates.render("validate_counts.sql.j2", relations=_counted_relations(checks), **context)


#: The relations holding the input's rows (one per input row): an empty one is an empty input.
INPUT_RELATIONS = ("run_rows", "judgment_rows")


def listed_sql(context: dict, checks: list[Check]) -> sqlglot.exp.Expr:
    """The input checks as one statement (the counts of :func:`counts_sql` as the CTE
    ``check_counts``, then ``_validate_listed`` of ``sql/validate_counts.sql.j2``): one row per
    input ("no rows") and per check, with the input, the user's column, the problem and how many
    rows break it (input rows where one relation row stands for several). These are the checks a
    warehouse evaluation counts, for a warehouse user to gate on: every ``failing`` 0, the input
    passes them. Column names and problems go in as string literals written by sqlglot."""
    def literal(text: str) -> str:
        return sqlglot.exp.Literal.string(text).sql(dialect="duckdb")

    relations = []
    for relation in _counted_relations(checks):
        side = "judgments" if relation["name"].startswith("judgment") else "ranking"
        relations.append({**relation, "label": literal(side), "inputs": relation["name"] in INPUT_RELATIONS,
                          "checks": [{**item, "column": literal(checks[item["id"]].column),
                                      "problem": literal(checks[item["id"]].problem)} for item in relation["checks"]]})
    listed = templates.render_macro("_validate_listed", relations=relations, **context)
    return over_ctes([("check_counts", counts_sql(context, checks))], listed)


def count_columns(checks: list[Check]) -> list[str]:
    """The columns of :func:`counts_sql`'s row: "<relation>_count" for each relation checked,
    "check_<i>" for each check, and "rows_<i>" for the checks whose relation rows stand for
    several input rows."""
    columns = []
    for relation in _counted_relations(checks):
        columns.append(f"{relation['name']}_count")
        for check in relation["checks"]:
            columns += [f"check_{check['id']}"] + ([f"rows_{check['id']}"] if check["rows"] else [])
    return columns


def validate(fetch: Fetch, context: dict, checks: list[Check], query_col: str,
             counts: dict | None = None, revealed: Mapping[int, float] | None = None,
             must_find: bool = False) -> None:
    """Run the input checks, counting each; raise :class:`InputError` listing every failed one.

    Args:
        fetch: runs one DuckDB-source statement, returns (column names, rows).
        context: the template context; checks: from :func:`checks_for`.
        query_col: the user's query column name, for the message.
        counts: the row of :func:`counts_sql` by :func:`count_columns`, when another statement
            fetched it already (a warehouse's summary carries it); else it is fetched here.
            Only a failed check costs more statements (a few query ids for its message).
        revealed: checks (by index) the first pass's aggregates showed failing, with the value
            seen (NaN, infinity): refused even when no row is counted.
        must_find: the first pass found a problem: when no check fails, the passes disagree
            and the input is refused, never computed on.

    Raises:
        InputError: a check failed or was revealed, or ``must_find`` and none failed.
    """
    if counts is None:
        names, rows = fetch(counts_sql(context, checks))
        counts = {name.lower(): value for name, value in zip(names, rows[0])}
    refuse_empty_inputs(counts)
    hidden = {index: seen for index, seen in (revealed or {}).items() if not int(counts[f"check_{index}"] or 0)}
    if hidden:  # the engine folded per-row tests by the input's false statistics: no other count is trusted
        raise InputError("bad input:\n  " + "\n  ".join(describe_hidden(
            checks[index], seen, query_col, [r[0] for r in fetch(templates.render(
                "validate_examples.sql.j2", relation=checks[index].relation, source=None,
                condition=as_text_condition(checks[index]), limit=EXAMPLES + 1,
                **context))[1]]) for index, seen in hidden.items()))
    problems = []
    for index, check in enumerate(checks):
        failing = int(counts[f"check_{index}"] or 0)
        if not failing:
            continue
        examples = values = None
        if check.query_ids_known:
            examples = [r[0] for r in fetch(templates.render(
                "validate_examples.sql.j2", relation=check.relation, condition=check.condition,
                source=check.source, limit=EXAMPLES + 1, **context))[1]]
        if check.values:
            values = [r[0] for r in fetch(templates.render(
                "validate_values.sql.j2", relation=check.relation, condition=check.condition,
                value=check.values, limit=EXAMPLES + 1, **context))[1]]
        input_rows = int(counts[f"rows_{index}"] or 0) if check.rows else None
        problems.append(describe_failure(check, failing, query_col, examples or [], input_rows, values))
    if must_find and not problems:
        problems.append(DISAGREEMENT)
    if problems:
        raise InputError("bad input:\n  " + "\n  ".join(problems))


#: The first pass found a problem that no check then counts: refused, never computed on.
DISAGREEMENT = ("the input checks disagree: the first pass found rows breaking a check, the count of each "
                "check found none (an engine answering a filter from the input's statistics?); nothing was "
                "computed. Write the input to a file or table afresh, or report this with the column types")


def checked_option(checks) -> None:
    """Raise OptionError unless ``checks`` (the option) is one of :data:`ndcg_sql.vocabulary.parameters.CHECKS`."""
    if not isinstance(checks, str) or checks not in CHECKS:
        raise OptionError(f"checks must be {' or '.join(map(repr, CHECKS))}; got {checks!r}")


def reported(result, checks: str):
    """``result`` (a Result), its options saying checks="trusted" when no input check was made."""
    if checks == "trusted":
        result.options["checks"] = checks
    return result


def refuse_empty_inputs(counts: dict) -> None:
    """Raise InputError when the ranking or the judgments have no rows ("run_rows_count",
    "judgment_rows_count" of ``validate_counts.sql.j2`` or ``validate_lists.sql.j2``)."""
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if counts.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))


def profile_input(fetch: Fetch, context: dict, checks: list[Check], query_col: str,
                  trusted: bool = False) -> dict:
    """The input checks in one pass per relation (``sql/validate_lists.sql.j2``, DuckDB).

    Only when something is wrong does :func:`validate` count each check and raise its
    message. Returns what the metric SQL may use to skip work (the results are the same):
    "longest_list", the items of the longest list (ranked list, or judged query with
    judgments), and "labels": (lowest, highest, how many are not whole numbers) of the
    finite labels the ideal ranking is built from (a NaN or infinite label changes no query's SQL).

    Args:
        trusted: checks="trusted": no check is made, only the same profile is read (a group-by
            per query, no sort) and an empty input refused.

    Raises:
        InputError: as :func:`validate` (trusted: only an empty ranking or judgments).
    """
    row_checks: dict[str, list[dict]] = {}
    extremes: dict[str, list[str]] = {}
    for index, check in enumerate(checks):
        if not check.relation.endswith("_duplicate_pairs") and check.source is None:
            row_checks.setdefault(check.relation, []).append({"id": index, "condition": check.condition})
            columns = extremes.setdefault(check.relation, [])
            if check.revealed_by is not None and check.revealed_by not in columns:
                columns.append(check.revealed_by)
    if trusted:
        row_checks = {name: [] for name in ("run_rows", "judgment_rows") if name in row_checks}
    names, rows = fetch(templates.render(
        "validate_lists.sql.j2",
        relations=[{"name": name, "checks": items, "extremes": extremes[name]} for name, items in row_checks.items()],
        trusted=trusted, **context,
    ))
    profile = {name.lower(): value for name, value in zip(names, rows[0])}
    refuse_empty_inputs(profile)
    labelled = "judgment_rows" if "judgment_rows" in row_checks else "run_rows"
    longest = max(profile[f"{name}_longest"] for name in row_checks)
    highest = profile[f"{labelled}_highest_label"]
    if not trusted:
        revealed = _revealed(profile, checks)
        found = any(profile[f"{name}_problems"] for name in row_checks) or bool(revealed)
        if found or (any(check.source is not None for check in checks) and not _gains_fit(context, highest, longest)):
            validate(fetch, context, checks, query_col, revealed=revealed, must_find=found)
    return {
        "longest_list": longest,
        "labels": [profile[f"{labelled}_{key}"] for key in ("lowest_label", "highest_label", "fractional_labels")],
    }


def _revealed(profile: dict, checks: list[Check]) -> dict[int, float]:
    """The checks (by index) whose ``revealed_by`` column's extreme in ``profile`` they refuse, with it."""
    revealed = {}
    for index, check in enumerate(checks):
        if check.revealed_by is None:
            continue
        for end in ("lowest", "highest"):
            value = profile.get(f"{check.relation}_{check.revealed_by}_{end}")
            if isinstance(value, float) and (math.isnan(value) or (check.infinite and math.isinf(value))):
                revealed[index] = value
                break
    return revealed


def _gains_fit(context: dict, highest_label, longest: int) -> bool:
    """True when no query's gains can add up past 2^MAX_QUERY_GAIN_EXPONENT: the longest list
    times the largest gain is below it (then the per-query sums of the overflow check,
    :func:`_gain_total_check`, need not be computed)."""
    if highest_label is None or longest is None:
        return True
    if context["gain"] == "exponential":
        largest = 2.0 ** min(float(highest_label), float(MAX_EXPONENTIAL_LABEL))
    elif context["gain"] == "linear":
        largest = max(float(highest_label), 0.0)
    else:
        largest = max((abs(float(gain)) for _, gain in context["gain_mapping"]), default=0.0)
    return largest * int(longest) <= 2.0 ** MAX_QUERY_GAIN_EXPONENT / 2.0
