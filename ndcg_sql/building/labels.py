"""Label expressions: a relevance label computed from the input's columns.

Logs hold clicks, purchases or watch time, not a grade. ``label=`` (``--label``) takes an
expression over the columns of the relation the labels come from (the ranking, or the
judgments when they are given), such as ``clicked + 2 * purchased`` or
``CASE WHEN watch_seconds >= 180 THEN 2 WHEN watch_seconds >= 60 THEN 1 ELSE 0 END``.

The text is never pasted into SQL: sqlglot parses it (in the SQL of the engine that runs
it), every node is checked against :data:`ALLOWED` (column names, literals, arithmetic,
comparisons, AND/OR/NOT, CASE, COALESCE, LEAST, GREATEST, CAST to a number, boolean or
text type), and sqlglot writes it back as DuckDB source SQL, which is transpiled with the
rest of the statement. On the way, what engines do differently is written out once:

* every column name is quoted (a name written without quotes is folded to the engine's
  case first, as the engine itself would; ndcg_sql/vocabulary/dialects.py);
* ``a / b`` is ``CAST(a AS DOUBLE) / NULLIF(CAST(b AS DOUBLE), 0)``: true division
  everywhere (Postgres divides integers as integers), and a zero divisor gives NULL, which
  the input checks report, instead of an error or infinity;
* ``GREATEST``/``LEAST`` are NULL when an argument is NULL (BigQuery's and Snowflake's
  rule; Postgres, DuckDB and Spark would skip the NULL);
* a comparison used as a number counts 1 when true, 0 when false (NULL stays NULL):
  ``(watch_seconds > 60) + (watch_seconds > 180)``.

Comments are dropped. Anything else (subqueries, statements, other functions, qualified
names, parameters) raises :class:`~ndcg_sql.vocabulary.errors.OptionError` naming what was found.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.tokens import TokenType

from ..vocabulary import dialects, identifiers
from ..vocabulary.errors import OptionError, echoed

#: Node types a label expression may hold.
ALLOWED = (
    exp.Column, exp.Identifier, exp.Literal, exp.Boolean, exp.Null, exp.Paren,
    exp.Neg, exp.Add, exp.Sub, exp.Mul, exp.Div,
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ, exp.NullSafeNEQ,
    exp.Is, exp.In, exp.Between, exp.Not, exp.And, exp.Or,
    exp.Case, exp.If, exp.Coalesce, exp.Least, exp.Greatest, exp.Cast, exp.DataType, exp.DataTypeParam,
)
#: Nodes whose value is true or false.
PREDICATES = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ, exp.NullSafeNEQ,
              exp.Is, exp.In, exp.Between, exp.Not, exp.And, exp.Or, exp.Boolean)
#: Types a CAST may go to.
CAST_TYPES = exp.DataType.NUMERIC_TYPES | exp.DataType.TEXT_TYPES | {exp.DataType.Type.BOOLEAN}
#: Deepest nesting of parentheses in a label expression (sqlglot parses and writes SQL by recursion).
MAX_NESTING = 32
#: What the error message offers instead.
WHAT_IS_ALLOWED = ("column names, numbers and strings, + - * /, comparisons (= <> < <= > >= IS, IN, BETWEEN), "
                   "AND, OR, NOT, CASE, COALESCE, LEAST, GREATEST and CAST")


@dataclass(frozen=True)
class LabelExpression:
    """A checked label expression.

    Attributes:
        text: as the caller wrote it.
        shown: as sqlglot writes it back in the dialect it was read in (reported with the results).
        sql: DuckDB source SQL for the templates: names quoted, the rewrites above applied.
        columns: the column names it reads, as the engine stores them (after the case rule).
    """

    text: str
    shown: str
    sql: str
    columns: tuple[str, ...]
    #: with labels given as words (:func:`from_words`): the gain mapping ((word, gain), ...),
    #: and ``shown`` is the label column's name
    words: tuple[tuple[str, float], ...] | None = None


def _what(node: exp.Expr) -> str:
    """How the error message names a node that is not allowed."""
    if isinstance(node, exp.Column):
        return f"the qualified column name {node.sql()} (name a column of the input alone)"
    if isinstance(node, (exp.Query, exp.Subquery)):
        return "a subquery"
    if isinstance(node, exp.Anonymous):
        return f"the unknown function {node.name}()"
    if isinstance(node, exp.Func):
        return f"the function {node.sql_name()}()"
    if isinstance(node, exp.DataType):
        return f"a cast to {node.sql()}"
    if isinstance(node, exp.Star):
        return "*"
    return f"{node.key.upper()}"


def _check(tree: exp.Expr, text: str) -> None:
    for node in tree.walk():
        allowed = type(node) in ALLOWED
        if isinstance(node, exp.Column):
            allowed = isinstance(node.this, exp.Identifier) and not any(node.args.get(p) for p in ("table", "db", "catalog"))
        elif isinstance(node, exp.DataType):
            allowed = node.this in CAST_TYPES
        if not allowed:
            raise OptionError(f"label expression {echoed(text)}: {_what(node)} is not allowed; use {WHAT_IS_ALLOWED}")


def _character(text: str, line: int, column: int) -> int:
    """The 1-based place in ``text`` of sqlglot's (line, column)."""
    return sum(len(previous) + 1 for previous in text.split("\n")[:line - 1]) + column


def _syntax_error(text: str, error: sqlglot.errors.SqlglotError) -> OptionError:
    """A parse error, named by its place in ``text`` and what is found there (not sqlglot's classes)."""
    found = (getattr(error, "errors", None) or [{}])[0]
    if not found.get("line"):
        return OptionError(f"label expression {echoed(text)} is not valid SQL: {str(error).splitlines()[0]}")
    highlight = found.get("highlight") or ""
    at = _character(text, found["line"], found["col"]) - max(len(highlight) - 1, 0)
    what = found.get("description") or ""
    what = "an operand is missing" if "<class" in what or not what else what[0].lower() + what[1:]
    return OptionError(f"label expression {echoed(text)} is not valid SQL at character {at} ({highlight!r}): {what}")


def _nesting(text: str, target) -> None:
    """Refuse parentheses nested deeper than :data:`MAX_NESTING` (named by the place of the first
    one too deep), before sqlglot's recursion would go past Python's limit."""
    depth = 0
    for token in sqlglot.Dialect.get_or_raise(target.sqlglot).tokenize(text):
        depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(token.token_type, 0)
        if depth > MAX_NESTING:
            raise OptionError(f"label expression {echoed(text)} nests parentheses more than {MAX_NESTING} deep "
                              f"(at character {token.start + 1}); write it with fewer levels")


def _as_number(predicate: exp.Expr) -> exp.Expr:
    """1 when true, 0 when false, NULL when NULL."""
    return exp.Case(ifs=[exp.If(this=predicate.copy(), true=exp.Literal.number(1)),
                         exp.If(this=exp.Not(this=exp.Paren(this=predicate.copy())), true=exp.Literal.number(0))])


def _used_as_condition(node: exp.Expr) -> bool:
    child, parent = node, node.parent
    while isinstance(parent, exp.Paren):
        child, parent = parent, parent.parent
    if isinstance(parent, (exp.And, exp.Or, exp.Not)):
        return True
    return isinstance(parent, (exp.If, exp.Case)) and child is parent.this


def _double(node: exp.Expr) -> exp.Expr:
    return exp.Cast(this=node.copy(), to=exp.DataType.build("DOUBLE"))


def _rewrite(tree: exp.Expr, fold: str | None) -> exp.Expr:
    """The portable form (module docstring): names quoted, division, GREATEST/LEAST, comparisons."""
    tree = tree.copy()
    for column in list(tree.find_all(exp.Column)):
        name = column.this
        ident = exp.to_identifier(name.name, quoted=True) if name.quoted else identifiers.identifier(name.name, fold)
        column.replace(exp.Column(this=ident))
    # deepest first, so that a rewritten node carries its rewritten children along
    for node in reversed(list(tree.walk(bfs=True))):
        new: exp.Expr
        if isinstance(node, exp.Div):
            new = exp.Div(this=_double(node.this),
                          expression=exp.Nullif(this=_double(node.expression), expression=exp.Literal.number(0)))
        elif isinstance(node, (exp.Greatest, exp.Least)):
            arguments = [node.this, *node.expressions]
            present = exp.and_(*(exp.Not(this=exp.Is(this=exp.Paren(this=a.copy()), expression=exp.Null()))
                                 for a in arguments))
            new = exp.Case(ifs=[exp.If(this=present, true=node.copy())])
        elif isinstance(node, PREDICATES) and not _used_as_condition(node):
            new = _as_number(node)
        else:
            continue
        if node is tree:
            tree = new
        else:
            node.replace(new)
    return tree


def parse(text, dialect: str = "duckdb") -> LabelExpression:
    """Parse and check a label expression written in ``dialect``'s SQL.

    Args:
        text: the expression, e.g. ``"clicked + 2 * purchased"``.
        dialect: the engine it is written for and runs on ("duckdb" for files and frames).

    Returns:
        :class:`LabelExpression`.

    Raises:
        OptionError: not a string, empty, not one expression, not SQL (the message names the
            place), nested too deeply (:data:`MAX_NESTING` parentheses), or holding anything
            outside :data:`ALLOWED` (the message names it).
    """
    if not isinstance(text, str) or not text.strip():
        given = echoed(text) if isinstance(text, str) else repr(text)
        raise OptionError(f"label must be a non-empty SQL expression over the input's columns; got {given}")
    target = dialects.get(dialect)
    try:
        _nesting(text, target)
        tree = sqlglot.parse_one(text, read=target.sqlglot)
    except sqlglot.errors.SqlglotError as error:
        raise _syntax_error(text, error) from None
    except RecursionError:
        raise OptionError(f"label expression {echoed(text)} is nested too deeply to be read; "
                          "write it with fewer levels") from None
    try:
        return _checked(text, tree, target)
    except RecursionError:
        raise OptionError(f"label expression {echoed(text)} is nested too deeply to be written back as SQL; "
                          "write it with fewer levels") from None


def _checked(text: str, tree: exp.Expr, target) -> LabelExpression:
    """:func:`parse`'s expression, checked and rewritten."""
    for node in tree.walk():
        node.comments = None
    if isinstance(tree, exp.Block) or tree.find(exp.Block):
        raise OptionError(f"label expression {echoed(text)}: one expression, not several statements")
    _check(tree, text)
    rewritten = _rewrite(tree, target.fold)
    columns = tuple(dict.fromkeys(column.name for column in rewritten.find_all(exp.Column)))
    return LabelExpression(text=text, shown=tree.sql(dialect=target.sqlglot), sql=rewritten.sql(dialect="duckdb"),
                           columns=columns)


#: A gain mapping's label written as a number ("2", "-1.5", "1e3"): such a mapping maps numbers.
_NUMBER = re.compile(r"\s*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?\s*")


def gain_words(gain) -> tuple[tuple[str, float], ...] | None:
    """The gain mapping of words ({"relevant": 2, "partial": 1}), as ((word, gain), ...) in the
    given order; None when ``gain`` is a name or a mapping of numbers (``sql/options/parse_gain.sql``).

    Raises:
        OptionError: a mapping holding both words and numbers as labels, an empty word, or a
            gain that is not a finite number >= 0.
    """
    if not isinstance(gain, Mapping):
        return None
    words = [label for label in gain if isinstance(label, str) and not _NUMBER.fullmatch(label)]
    if not words:
        return None
    if len(words) != len(gain):
        raise OptionError(f"a gain mapping's labels are all numbers or all words; got {dict(gain)!r}")
    pairs = []
    for word, value in gain.items():
        number = float(value) if isinstance(value, str) and _NUMBER.fullmatch(value) else value
        if (not word or isinstance(number, bool) or not isinstance(number, (int, float))
                or not math.isfinite(number) or number < 0):
            raise OptionError(f"gain mapping of words needs non-empty words and finite non-negative gains; "
                              f"got {word!r}: {value!r}")
        pairs.append((word, float(number)))
    return tuple(pairs)


def from_words(words: tuple[tuple[str, float], ...], column: str) -> LabelExpression:
    """The label of labels given as words in ``column``: each word (exact match) is the gain the
    mapping gives it, as text holding the number ('2.0'), so that every measure reads a number
    (relevance thresholds compare the mapped gain); any other value stays text, in double quotes
    ('"not relevant"'), which the input checks report as missing from the mapping. The words are
    string literals written by sqlglot, the column a quoted name: nothing is pasted.

    Args:
        words: from :func:`gain_words`.
        column: the label column, as stored.
    """
    text = exp.Cast(this=exp.column(column, quoted=True), to=exp.DataType.build("VARCHAR"))
    tree = exp.Case(
        ifs=[exp.If(this=exp.EQ(this=text.copy(), expression=exp.Literal.string(word)),
                    true=exp.Literal.string(repr(gain))) for word, gain in words],
        default=exp.DPipe(this=exp.DPipe(this=exp.Literal.string('"'), expression=text.copy()),
                          expression=exp.Literal.string('"')))
    return LabelExpression(text=column, shown=column, sql=tree.sql(dialect="duckdb"), columns=(column,),
                           words=tuple(words))
