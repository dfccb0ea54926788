"""Input checks: bad input gets a clear error naming the column and a few query ids.

The checks are data (one :class:`Check` per problem), written for the engine that runs
them; :mod:`ndcg_sql.checking` runs them (``sql/validate_lists.sql.j2``,
``sql/validate_counts.sql.j2``, ``sql/validate_examples.sql.j2``) and the dbt test
``ndcg_valid_input`` gets them as a generated macro.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from . import dialects
from .errors import InputError  # noqa: F401 (its former home)
from .options import Options
from .parameters import MAX_EXPONENTIAL_LABEL, MAX_QUERY_GAIN_EXPONENT

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
    error); ``nan``: true for NaN. From :mod:`ndcg_sql.dialects`.
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
NEGATIVE_HINT = "negative_labels='zero' (--negative-labels zero) counts them as label 0, as trec_eval does"


#: The hint of a NULL label computed by a label expression.
NULL_EXPRESSION_HINT = ("a label expression is NULL where a column it reads is NULL or a divisor is 0: "
                        "COALESCE(x, 0) or CASE decides those rows")


def _label_checks(relation: str, column: str, options: Options, numbers: Numbers,
                  expression: bool = False) -> list[Check]:
    value = numbers.value("label_raw")
    finite = f"NOT ({numbers.is_nan('label_raw')}) AND ABS({value}) <= {MAX_DOUBLE}"
    where = " in the judgments" if relation == "judgment_rows" else ""
    checks = [
        Check(relation, "label_raw IS NULL", column, f"NULL labels{where}",
              hint=NULL_EXPRESSION_HINT if expression else None),
        Check(relation, f"label_raw IS NOT NULL AND {value} IS NULL", column, f"non-numeric labels{where}"),
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
        counted = f"GREATEST({value}, 0.0)" if options.negative_labels == "zero" else value
        checks.append(Check(relation, f"{finite} AND {counted} NOT IN ({labels})", column,
                            f"labels{where} missing from the gain mapping", values=counted,
                            named=f"{{values}} missing from the gain mapping{where}"))
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
        label = f"CASE WHEN {value} > 0 THEN {value} ELSE 0.0 END" if options.negative_labels == "zero" else value
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
               label_expression: bool = False) -> list[Check]:
    """All checks for one computation, in DuckDB-syntax SQL for ``dialect``.

    Args:
        options: the validated options (gain decides the label range).
        columns: user column names by role: "query", "item", "order", "label",
            and with judgments "j_query", "j_item", "j_label"; "weight" with query weights.
        dialect: the engine that runs them: a non-numeric text value and NaN
            are read by that engine's own expressions
            (:class:`Numbers`, :mod:`ndcg_sql.dialects`), so every engine
            reports what DuckDB reports.
        label_expression: the label role holds a label expression (ndcg_sql/labels.py),
            named as such in the messages.
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
            *_label_checks("judgment_rows", columns["j_label"], options, numbers, label_expression),
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
        checks += _label_checks("run_rows", columns["label"], options, numbers, label_expression)
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
    return (f"{check.column_kind} {check.column!r}: {check.problem} (the {'smallest' if value < 0 else 'largest'} "
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
    line = f"{check.column_kind} {check.column!r}: {problem} ({count})"
    if check.query_ids_known:
        line += _in_queries(query_col, examples)
    if check.hint:
        line += f" - {check.hint}"
    return line
