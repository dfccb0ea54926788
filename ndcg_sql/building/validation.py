"""Input checks: bad input gets a clear error naming the column and a few query ids.

The checks are data (one :class:`Check` per problem, :func:`checks_for`): their SQL is written
by the macros of ``sql/input_checks.sql.j2`` for the engine that runs them (the dbt test
``ndcg_valid_input`` calls the same macros), their words are :data:`CHECK_TEXTS`. Here their
statements are planned (``sql/validate_lists.sql.j2``, ``sql/validate_counts.sql.j2``,
``sql/validate_examples.sql.j2``, ``sql/validate_values.sql.j2``), as
:class:`~ndcg_sql.building.plan.CheckPlan` data: the first pass (:func:`profile_plan`), the
counts (:func:`counts_plan`; a warehouse's ride in its one statement), the listings of the
failed checks (:func:`listing_plan`); an executor runs them
(:meth:`ndcg_sql.running.executors.Executor.run_checks`, driven by
:func:`ndcg_sql.running.runner.check_input`) and this module reads and words what they found
(:func:`read_profile`, :func:`refuse`): it runs no statement. With them, what comes before
them: the columns exist with usable types and the segment columns are where they must be.
Every failure is an :class:`~ndcg_sql.vocabulary.errors.InputError` naming the column and a
few query ids.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Mapping, NamedTuple, Sequence

import sqlglot

from . import plan, templates

from ..vocabulary import dialects
from ..vocabulary.errors import InputError, OptionError, echoed
from .sql_text import over_ctes
from .labels import LabelExpression
from ..vocabulary import parameters
from ..vocabulary.parameters import Options
from ..vocabulary.parameters import CHECKS, MAX_EXPONENTIAL_LABEL

EXAMPLES = 5
NUMERIC_TYPES = (
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
    "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "BOOLEAN",
)
TEXT_TYPES = ("VARCHAR",)


@dataclass(frozen=True)
class Check:
    """One thing that must not happen in the input.

    The SQL of a check is written by the macros of ``sql/input_checks.sql.j2`` (which dbt's test
    ``ndcg_valid_input`` calls too); its words are :data:`CHECK_TEXTS`, by ``name``.
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
    name: which check it is (a key of :data:`CHECK_TEXTS`).
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
    name: str | None = None


@dataclass(frozen=True)
class Numbers:
    """How the checks read a raw column as a number on one engine (the ``numbers`` of
    ``sql/input_checks.sql.j2``): ``try_double`` (SQL with ``{x}``, the value as DOUBLE, NULL when
    it holds no number, never an error), ``nan`` (SQL with ``{x}``, true for NaN) and ``text`` (the
    text type a value is cast to before ``try_double``: the engine's own TRY_CAST may refuse a
    numeric argument, e.g. Snowflake; None on DuckDB). From :mod:`ndcg_sql.vocabulary.dialects`."""

    try_double: str
    nan: str
    text: str | None

    @classmethod
    def of(cls, dialect: str) -> "Numbers":
        target = dialects.get(dialect)
        # DuckDB's TRY_CAST takes any value: no detour through text
        return cls(target.try_double, target.nan, None if target.name == "duckdb" else target.text)

    def macro_argument(self) -> dict:
        """The ``numbers`` argument of ``_input_checks`` (sql/input_checks.sql.j2): a dict by field."""
        return dataclasses.asdict(self)

    def value(self, column: str) -> str:
        """SQL of ``column``'s value as a number (``_check_number`` of sql/input_checks.sql.j2)."""
        return templates.sql_macros()._check_number(self.macro_argument(), column)


#: The hint of the negative-label message: the option (Python, CLI) that accepts them.
NEGATIVE_HINT = ("negative_labels='zero' (--negative-labels zero) counts them as label 0; 'unjudged' also as not judged, "
                 "as trec_eval does")


#: The hint of non-numeric labels: words are labels once a gain mapping gives each its gain.
WORDS_HINT = "labels given as words: map them with gain={'relevant': 2, ...} (--gain relevant:2,...)"

#: The hint of a NULL label computed by a label expression.
NULL_EXPRESSION_HINT = ("a label expression is NULL where a column it reads is NULL or a divisor is 0: "
                        "COALESCE(x, 0) or CASE decides those rows")

_EXPONENT = parameters.MAX_QUERY_GAIN_EXPONENT
_GAIN_TOTAL = (f"queries{{where}} whose gains add up past 2^{_EXPONENT} (about 9.0e307, where a double overflows: "
               "{cause})")
#: The words of each check of ``sql/input_checks.sql.j2``, by its name: "problem" (what is wrong;
#: dbt's ndcg_valid_input reports it too, from the generated ``ndcg_sql._check_texts()``), and for
#: the message: "named" (the problem naming a few offending values), "counted" (what one relation
#: row is, when not an input row), "known" (False: no query id to show), "hint". Placeholders, filled
#: by :func:`filled`: {where} (" in the judgments" or ""), {input} ("ranking" or "judgments"),
#: {kind} ("score" or "rank"), {max_grade}, {binary_labels}, {integer_labels}; "named" keeps {values}.
CHECK_TEXTS: dict[str, dict] = {
    "null_query": {"problem": "NULL query ids{where}", "known": False},
    "null_item": {"problem": "NULL item ids{where}"},
    "null_order": {"problem": "NULL {kind}s"},
    "non_numeric_order": {"problem": "non-numeric {kind}s"},
    "nan_order": {"problem": "NaN {kind}s"},
    "null_row": {"problem": "NULL row numbers"},
    "null_weight": {"problem": "NULL weights"},
    "nan_weight": {"problem": "NaN or infinite weights"},
    "negative_weight": {"problem": "negative weights"},
    "uneven_weight": {"problem": "weights that differ within a query (a query has one weight)", "counted": "query"},
    "zero_weights": {"problem": "weights that are all 0 (the weighted mean is 0 / 0)", "known": False},
    "duplicate_pairs": {"problem": "duplicate (query, item) rows in the {input}", "counted": "duplicated (query, item) pair"},
    "null_label": {"problem": "NULL labels{where}"},
    "non_numeric_label": {"problem": "non-numeric labels{where}", "hint": WORDS_HINT},
    "nan_label": {"problem": "NaN or infinite labels{where}"},
    "negative_label": {"problem": "negative labels{where}", "hint": NEGATIVE_HINT},
    "label_above_exponential": {
        "problem": f"labels{{where}} above {MAX_EXPONENTIAL_LABEL} (2^label - 1 overflows a double; use gain='linear' "
                   "or a mapping)"},
    "unmapped_label": {"problem": "labels{where} missing from the gain mapping",
                       "named": "{values} missing from the gain mapping{where}"},
    "non_binary_label": {"problem": "labels{where} other than 0 and 1 ({binary_labels}: for labels 0 and 1 only)",
                         "named": "{values} not 0 or 1 ({binary_labels}: for labels 0 and 1 only)",
                         "hint": "drop the convention for AP and P of graded labels (relevant: label >= rel)"},
    "fractional_label": {"problem": "fractional labels{where} ({integer_labels}: for whole labels only)",
                         "named": "{values} not whole ({integer_labels}: for whole labels only)",
                         "hint": "the tool stops on them too (its labels are read as float32): round the labels, "
                                 "or drop the convention"},
    "label_above_max_grade": {"problem": "labels{where} above {max_grade}, the top grade ERR reads",
                              "named": "{values} above the top grade {max_grade}{where}",
                              "hint": "max_grade=G (--max-grade G) gives the scale's top grade: R = (2^g - 1) / 2^G "
                                      "(gdeval.pl refuses labels above its 4)"},
    "gain_total_exponential": {"problem": _GAIN_TOTAL.replace("{cause}", (
        f"exponential gain 2^label - 1 of labels near {MAX_EXPONENTIAL_LABEL}; use gain='linear' or a mapping")),
        "counted": "query"},
    "gain_total_linear": {"problem": _GAIN_TOTAL.replace("{cause}", (
        "with linear gain the gain is the label; dividing the labels by a constant leaves NDCG as it is")),
        "counted": "query"},
    "gain_total_mapping": {"problem": _GAIN_TOTAL.replace("{cause}", "gains of the mapping too large"), "counted": "query"},
}


def filled(text: str, side: str, options: Options) -> str:
    """A text of :data:`CHECK_TEXTS` with its placeholders filled for a check on ``side``
    ("ranking" or "judgments"); dbt's ``ndcg_sql._check_problem`` fills them the same way."""
    values = {"where": " in the judgments" if side == "judgments" else "", "input": side, "kind": options.input_kind,
              "max_grade": str(options.max_grade), "binary_labels": str(options.binary_labels),
              "integer_labels": str(options.integer_labels)}
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def _check_of(record: dict, options: Options, columns: dict[str, str], expression: bool,
              words: Sequence[tuple[str, float]] | None) -> Check:
    """The :class:`Check` of one record of ``_input_checks`` (sql/input_checks.sql.j2)."""
    texts = CHECK_TEXTS[record["name"]]
    side = record["side"]
    role = record["column"]
    if role in ("pair", "j_pair"):
        prefix = "j_" if role == "j_pair" else ""
        column = f"{columns[prefix + 'query']}, {columns[prefix + 'item']}"
    else:
        column = columns[role]
    problem, named, hint, values = texts["problem"], texts.get("named"), texts.get("hint"), record["values"]
    if record["name"] == "non_numeric_label":
        if words is not None:  # label_raw: the word's gain as text, or another value in double quotes (labels.from_words)
            shown = ",".join(f"{word}:{_number_text(gain)}" for word, gain in words)
            problem, named = "labels{where} missing from the gain mapping of words", "{values} missing from the gain mapping of words{where}"
            hint = (f"give each word its gain: gain={{{', '.join(f'{w!r}: {_number_text(g)}' for w, g in words)}"
                    f", ...}} (--gain {shown},...)")
        else:
            values = None
    if record["name"] == "null_label" and expression:
        hint = NULL_EXPRESSION_HINT
    return Check(
        record["relation"], record["condition"], column, filled(problem, side, options),
        query_ids_known=texts.get("known", True), counted=texts.get("counted"), rows=record["rows"], values=values,
        named=None if named is None else filled(named, side, options), hint=hint,
        column_kind="label expression" if expression and role in ("label", "j_label") else "column",
        source=record["source"], revealed_by=record["revealed_by"], infinite=record["infinite"], name=record["name"],
    )


def check_options(options: Options, weight_col: str | None) -> dict:
    """The resolved options as ``_input_checks`` (sql/input_checks.sql.j2) takes them."""
    return {**dataclasses.asdict(options), "weight_col": weight_col}


def checks_for(options: Options, columns: dict[str, str], dialect: str = "duckdb",
               label_expression: bool = False, words: Sequence[tuple[str, float]] | None = None) -> list[Check]:
    """All checks for one computation, in DuckDB-syntax SQL for ``dialect``: the records of
    ``_input_checks`` (``sql/input_checks.sql.j2``) with the words of :data:`CHECK_TEXTS`.

    Args:
        options: the validated options (gain decides the label range).
        columns: user column names by role: "query", "item", "order", "label",
            and with judgments "j_query", "j_item", "j_label"; "weight" with query weights,
            "row" with ties="input-order".
        dialect: the engine that runs them: a non-numeric text value and NaN
            are read by that engine's own expressions
            (:class:`Numbers`, :mod:`ndcg_sql.vocabulary.dialects`), so every engine
            reports what DuckDB reports.
        label_expression: the label role holds a label expression (ndcg_sql/building/labels.py),
            named as such in the messages.
        words: labels given as words, mapped by this gain mapping ((word, gain), ...;
            :func:`ndcg_sql.building.labels.from_words`): a value missing from it is named.
    """
    records = templates.sql_macros()._input_checks(check_options(options, columns.get("weight")),
                                                    Numbers.of(dialect).macro_argument(),
                                                    parameters.option_table()["check_limits"])
    return [_check_of(record, options, columns, label_expression, words) for record in records]


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
    """The values a revealed check refuses, found through their text (DuckDB; ``_revealed_condition``
    of sql/input_checks.sql.j2): no statistics of the input describe a number's text, so no engine
    folds this test (slow: for error messages only)."""
    return templates.sql_macros()._revealed_condition(check.revealed_by, check.infinite)


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


def counts_sql(context: Mapping, checks: list[Check]) -> str:
    """One statement (``sql/validate_counts.sql.j2``) whose one row counts the rows of each input
    relation and the rows breaking each check: the columns :func:`count_columns` names."""
    return templates.render("validate_counts.sql.j2", relations=_counted_relations(checks), **context)


#: The relations holding the input's rows (one per input row): an empty one is an empty input.
INPUT_RELATIONS = ("run_rows", "judgment_rows")


def listed_sql(context: Mapping, checks: list[Check]) -> sqlglot.exp.Expr:
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


def counts_plan(context: Mapping, checks: list[Check]) -> plan.CheckPlan:
    """The checks counted by a statement of their own (:func:`counts_sql`, named
    :data:`ndcg_sql.building.plan.INPUT_CHECKS`): DuckDB's after its first pass found something,
    a warehouse's after its one statement failed (which otherwise carries the counts)."""
    return plan.CheckPlan((plan.Read(plan.INPUT_CHECKS, counts_sql(context, checks)),))


def read_counts(fetched: Mapping[str, tuple[list, list]]) -> dict:
    """The row of :func:`counts_plan`'s statement (as an executor gives it back), by its
    lower-case column names (:func:`count_columns`)."""
    names, rows = fetched[plan.INPUT_CHECKS]
    return {str(name).lower(): value for name, value in zip(names, rows[0])}


def _hidden(counts: Mapping, revealed: Mapping[int, float] | None) -> dict[int, float]:
    """The revealed checks (by index) no row was counted for: the engine folded their per-row
    tests by the input's false statistics, so no other count is trusted."""
    return {index: seen for index, seen in (revealed or {}).items() if not int(counts[f"check_{index}"] or 0)}


def listing_plan(context: Mapping, checks: list[Check], counts: Mapping,
                 revealed: Mapping[int, float] | None = None) -> plan.CheckPlan:
    """The statements listing what the message of the failed checks names, decided by ``counts``
    (the row of :func:`counts_sql` by :func:`count_columns`): for each revealed check no row
    was counted for, a few query ids found through the values' text, and nothing else; else,
    for each failing check in order, a few query ids (when they are known) then a few of its
    offending values (when it names them). No failed check, no statement. Pure: nothing runs.

    Raises:
        InputError: the ranking or the judgments have no rows (:func:`refuse_empty_inputs`).
    """
    refuse_empty_inputs(counts)
    hidden = _hidden(counts, revealed)
    if hidden:
        return plan.CheckPlan(tuple(plan.Read(plan.listing_name("hidden", index), templates.render(
            "validate_examples.sql.j2", relation=checks[index].relation, source=None,
            condition=as_text_condition(checks[index]), limit=EXAMPLES + 1, **context)) for index in hidden))
    reads = []
    for index, check in enumerate(checks):
        if not int(counts[f"check_{index}"] or 0):
            continue
        if check.query_ids_known:
            reads.append(plan.Read(plan.listing_name("examples", index), templates.render(
                "validate_examples.sql.j2", relation=check.relation, condition=check.condition,
                source=check.source, limit=EXAMPLES + 1, **context)))
        if check.values:
            reads.append(plan.Read(plan.listing_name("values", index), templates.render(
                "validate_values.sql.j2", relation=check.relation, condition=check.condition,
                value=check.values, limit=EXAMPLES + 1, **context)))
    return plan.CheckPlan(tuple(reads))


def refuse(checks: list[Check], query_col: str, counts: Mapping, listed: Mapping[str, tuple[list, list]],
           revealed: Mapping[int, float] | None = None, must_find: bool = False) -> None:
    """Raise :class:`InputError` listing every failed check, worded from their counts and what
    the statements of :func:`listing_plan` listed; nothing when every check passes.

    Args:
        checks: from :func:`checks_for`.
        query_col: the user's query column name, for the message.
        counts: the row of :func:`counts_sql` by :func:`count_columns` (a warehouse's summary
            carries it; else :func:`counts_plan` fetched it).
        listed: the rows of :func:`listing_plan`'s statements by name, as an executor gives them back.
        revealed: checks (by index) the first pass's aggregates showed failing, with the value
            seen (NaN, infinity): refused even when no row is counted.
        must_find: the first pass found a problem: when no check fails, the passes disagree
            and the input is refused, never computed on.

    Raises:
        InputError: a check failed or was revealed, or ``must_find`` and none failed.
    """
    def first_values(what: str, index: int) -> list:
        return [row[0] for row in listed[plan.listing_name(what, index)][1]]

    hidden = _hidden(counts, revealed)
    if hidden:
        raise InputError("bad input:\n  " + "\n  ".join(describe_hidden(
            checks[index], seen, query_col, first_values("hidden", index)) for index, seen in hidden.items()))
    problems, failed = [], []
    for index, check in enumerate(checks):
        failing = int(counts[f"check_{index}"] or 0)
        if not failing:
            continue
        examples = first_values("examples", index) if check.query_ids_known else None
        values = first_values("values", index) if check.values else None
        input_rows = int(counts[f"rows_{index}"] or 0) if check.rows else None
        problems.append(describe_failure(check, failing, query_col, examples or [], input_rows, values))
        failed.append({"check": check.name, "input": "judgments" if check.relation.startswith("judgment") else "ranking",
                       "column": check.column, "problem": check.problem,
                       "query_ids": (examples or [])[:EXAMPLES]})
    if must_find and not problems:
        problems.append(DISAGREEMENT)
    if problems:
        raise InputError("bad input:\n  " + "\n  ".join(problems), failed)


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


def refuse_empty_inputs(counts: Mapping) -> None:
    """Raise InputError when the ranking or the judgments have no rows ("run_rows_count",
    "judgment_rows_count" of ``validate_counts.sql.j2`` or ``validate_lists.sql.j2``)."""
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if counts.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))


class Profile(NamedTuple):
    """What the checks' first pass (:func:`profile_plan`) found (:func:`read_profile`)."""
    longest_list: int  # the items of the longest list (ranked list, or judged query with judgments)
    labels: tuple  # (lowest, highest, how many are not whole numbers) of the finite labels
    to_count: bool  # count each check (:func:`counts_plan`): something may be wrong
    revealed: dict[int, float]  # checks (by index) the aggregates showed failing, with the value seen
    must_find: bool  # the pass found a problem: the counts must find one too


def _profiled(checks: list[Check], trusted: bool) -> tuple[dict[str, list[dict]], dict[str, list[str]]]:
    """The relations the first pass reads, each with its per-row checks, and the raw columns
    whose extremes it reads (``revealed_by``)."""
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
    return row_checks, extremes


def profile_plan(context: Mapping, checks: list[Check], trusted: bool = False) -> plan.CheckPlan:
    """The input checks' first pass on DuckDB, one pass per relation (``sql/validate_lists.sql.j2``,
    named :data:`ndcg_sql.building.plan.INPUT_PROFILE`): what it finds shapes the metric SQL, so it
    runs before the plan is built. Pure: nothing runs.

    Args:
        trusted: checks="trusted": no check is made, only the same profile is read (a group-by
            per query, no sort), for the lengths, the labels and an empty input.
    """
    row_checks, extremes = _profiled(checks, trusted)
    return plan.CheckPlan((plan.Read(plan.INPUT_PROFILE, templates.render(
        "validate_lists.sql.j2",
        relations=[{"name": name, "checks": items, "extremes": extremes[name]} for name, items in row_checks.items()],
        trusted=trusted, **context,
    )),))


def read_profile(fetched: Mapping[str, tuple[list, list]], context: Mapping, checks: list[Check],
                 trusted: bool = False) -> Profile:
    """What the first pass (:func:`profile_plan`, its rows as an executor gives them back) found:
    what the metric SQL may use to skip work (the results are the same): the longest list, the
    finite labels the ideal ranking is built from (a NaN or infinite label changes no query's
    SQL); and whether the checks are to be counted (something was found, or the per-query gain
    sums may overflow: :func:`_gains_fit`), then worded by :func:`listing_plan` and :func:`refuse`.

    Raises:
        InputError: the ranking or the judgments have no rows (:func:`refuse_empty_inputs`).
    """
    row_checks, _ = _profiled(checks, trusted)
    names, rows = fetched[plan.INPUT_PROFILE]
    profile = {name.lower(): value for name, value in zip(names, rows[0])}
    refuse_empty_inputs(profile)
    labelled = "judgment_rows" if "judgment_rows" in row_checks else "run_rows"
    longest = max(profile[f"{name}_longest"] for name in row_checks)
    highest = profile[f"{labelled}_highest_label"]
    labels = tuple(profile[f"{labelled}_{key}"] for key in ("lowest_label", "highest_label", "fractional_labels"))
    if trusted:
        return Profile(longest, labels, False, {}, False)
    revealed = _revealed(profile, checks)
    found = any(profile[f"{name}_problems"] for name in row_checks) or bool(revealed)
    count = found or (any(check.source is not None for check in checks) and not _gains_fit(context, highest, longest))
    return Profile(longest, labels, count, revealed, found)


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


def _gains_fit(context: Mapping, highest_label, longest: int) -> bool:
    """True when no query's gains can add up past 2^MAX_QUERY_GAIN_EXPONENT: the longest list
    times the largest gain is below it (then the per-query sums of the overflow check need not be
    computed): ``_gains_fit`` of sql/input_checks.sql.j2."""
    return bool(templates.sql_macros()._gains_fit(context, highest_label, longest,
                                                  parameters.option_table()["check_limits"]))
