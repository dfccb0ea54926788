"""Input checks: bad input gets a clear error naming the column and a few query ids.

The checks are data (one :class:`Check` per problem); ``sql/validate_counts.sql.j2``
counts every check in one scan per relation, and only when a check fails does
``sql/validate_examples.sql.j2`` fetch a few offending query ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import MAX_EXPONENTIAL_LABEL, Options

EXAMPLES = 5
NUMERIC_TYPES = (
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
    "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "BOOLEAN",
)
TEXT_TYPES = ("VARCHAR",)


class InputError(ValueError):
    """The input cannot be evaluated as given; the message names column and query ids."""


@dataclass(frozen=True)
class Check:
    """One thing that must not happen in the input.

    relation: the normalised CTE it is checked on; condition: SQL over that
    CTE's normalised columns (our own text, never user text); column: the
    user's column name(s) the problem is in; problem: what is wrong.
    """

    relation: str
    condition: str
    column: str
    problem: str
    query_ids_known: bool = True


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
        from . import dialects

        target = dialects.get(dialect)
        if target.name == "duckdb":
            return cls("TRY_CAST({x} AS DOUBLE)", target.nan)
        # the engine's own TRY_CAST may refuse a numeric argument (Snowflake): go through text
        return cls(target.try_double.replace("{x}", f"CAST({{x}} AS {target.text})"), target.nan)

    def value(self, column: str) -> str:
        return self.number.format(x=column)

    def is_nan(self, column: str) -> str:
        return self.nan.format(x=self.value(column))


def _label_checks(relation: str, column: str, options: Options, numbers: Numbers) -> list[Check]:
    value = numbers.value("label_raw")
    finite = f"NOT ({numbers.is_nan('label_raw')}) AND ABS({value}) <= {MAX_DOUBLE}"
    checks = [
        Check(relation, "label_raw IS NULL", column, "NULL labels"),
        Check(relation, f"label_raw IS NOT NULL AND {value} IS NULL", column, "non-numeric labels"),
        Check(relation, f"{numbers.is_nan('label_raw')} OR ABS({value}) > {MAX_DOUBLE}", column, "NaN or infinite labels"),
    ]
    if options.negative_labels == "error":
        checks.append(Check(relation, f"{finite} AND {value} < 0", column, "negative labels"))
    if options.gain == "exponential":
        checks.append(
            Check(
                relation,
                f"{finite} AND {value} > {MAX_EXPONENTIAL_LABEL}",
                column,
                f"labels above {MAX_EXPONENTIAL_LABEL} (2^label - 1 overflows a double; use gain='linear' or a mapping)",
            )
        )
    elif options.gain == "mapping":
        labels = ", ".join(repr(label) for label, _ in options.gain_mapping)
        counted = f"GREATEST({value}, 0.0)" if options.negative_labels == "zero" else value
        checks.append(Check(relation, f"{finite} AND {counted} NOT IN ({labels})", column, "labels missing from the gain mapping"))
    return checks


def checks_for(options: Options, columns: dict[str, str], portable: bool = False, dialect: str = "duckdb") -> list[Check]:
    """All checks for one computation, in DuckDB-syntax SQL for ``dialect``.

    Args:
        options: the validated options (gain decides the label range).
        columns: user column names by role: "query", "item", "order", "label",
            and with judgments "j_query", "j_item", "j_label".
        portable: kept for callers of earlier versions; the checks are the
            same on every engine now, written for ``dialect``.
        dialect: the engine that runs them: a non-numeric text value and NaN
            are read by that engine's own expressions
            (:class:`Numbers`, :mod:`ndcg_sql.dialects`), so every engine
            reports what DuckDB reports.
    """
    numbers = Numbers.of(dialect)
    order = numbers.value("order_raw")
    checks = [
        Check("run_rows", "qid IS NULL", columns["query"], "NULL query ids", query_ids_known=False),
        Check("run_rows", "item IS NULL", columns["item"], "NULL item ids"),
        Check("run_rows", "order_raw IS NULL", columns["order"], f"NULL {options.input_kind}s"),
        Check("run_rows", f"order_raw IS NOT NULL AND {order} IS NULL", columns["order"], f"non-numeric {options.input_kind}s"),
        Check("run_rows", numbers.is_nan("order_raw"), columns["order"], f"NaN {options.input_kind}s"),
    ]
    if options.ties == "input-order":
        checks.append(Check("run_rows", "row_order IS NULL", columns["row"], "NULL row numbers"))
    checks += [
        Check("run_duplicate_pairs", "TRUE", f"{columns['query']}, {columns['item']}", "duplicate (query, item) rows in the ranking"),
    ]
    if options.judgments:
        checks += [
            Check("judgment_rows", "qid IS NULL", columns["j_query"], "NULL query ids in the judgments", query_ids_known=False),
            Check("judgment_rows", "item IS NULL", columns["j_item"], "NULL item ids in the judgments"),
            *_label_checks("judgment_rows", columns["j_label"], options, numbers),
            Check(
                "judgment_duplicate_pairs",
                "TRUE",
                f"{columns['j_query']}, {columns['j_item']}",
                "duplicate (query, item) rows in the judgments",
            ),
        ]
    else:
        checks += _label_checks("run_rows", columns["label"], options, numbers)
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


def describe_failure(check: Check, rows: int, query_col: str, examples: list) -> str:
    """One line of an error message: column, problem, row count, a few query ids."""
    line = f"column {check.column!r}: {check.problem} ({rows} row{'s' if rows != 1 else ''})"
    if check.query_ids_known and examples:
        shown = ", ".join(str(example) for example in examples[:EXAMPLES])
        more = ", ..." if len(examples) > EXAMPLES else ""
        line += f", e.g. in {query_col} {shown}{more}"
    return line
