"""Quoting of user-given names through sqlglot: never pasted into SQL as text.

Names are written into the DuckDB source SQL as quoted sqlglot identifiers;
when the SQL is transpiled, sqlglot re-quotes them for the target engine. The
engine's case rule (:mod:`ndcg_sql.vocabulary.dialects`) is applied first.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from sqlglot import exp

#: A name an engine would accept unquoted (and then fold to its case).
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _check(name) -> str:
    if not isinstance(name, str) or not name:
        raise TypeError(f"a column or table name must be a non-empty string; got {name!r}")
    return name


def folded(name: str, fold: str | None = None) -> str:
    """``name`` as the engine stores it: a plain name is folded ("upper"/"lower"), others kept."""
    _check(name)
    if fold is None or not PLAIN_NAME.fullmatch(name):
        return name
    return name.upper() if fold == "upper" else name.lower()


def as_written(stored: Iterable[str], named: Iterable[str], fold: str | None = None,
               ignore_case: bool = False) -> list[str]:
    """Column names as an engine stores them, as the user writes them: a name the user gave
    (``named``) under the user's spelling where it finds that column (:func:`folded`, then
    regardless of case where the engine ignores it, ``ignore_case``); any other plain name in
    the engine's folded case in lower case (it folds back to itself); others kept."""
    def key(name: str) -> str:
        return name.casefold() if ignore_case else name

    users = {key(folded(name, fold)): name for name in named}
    shown = []
    for name in stored:
        plain = fold is not None and PLAIN_NAME.fullmatch(name) and folded(name, fold) == name
        shown.append(users.get(key(name), name.lower() if plain else name))
    return shown


def identifier(name: str, fold: str | None = None) -> exp.Identifier:
    """A quoted sqlglot identifier for ``name`` after the engine's case rule."""
    return exp.to_identifier(folded(name, fold), quoted=True)


def quote(name: str, dialect: str = "duckdb", fold: str | None = None) -> str:
    """A column or table name as a quoted SQL identifier of ``dialect``.

    Args:
        name: the name exactly as the user spells it (case kept unless
            ``fold`` applies; quotes, semicolons and comment markers stay part
            of the name).
        dialect: a sqlglot dialect name.
        fold: "upper" or "lower" to fold a plain name as the engine does.

    Raises:
        TypeError: ``name`` is not a non-empty string.
    """
    return identifier(name, fold).sql(dialect=dialect)


def table(name: str | Sequence[str], fold: str | None = None, max_parts: int = 3) -> exp.Table:
    """A (possibly qualified) table name as a sqlglot ``Table`` of quoted identifiers.

    Args:
        name: "table", "schema.table", "db.schema.table" (split on dots), or a
            sequence of parts when a part itself contains a dot.
        fold: the engine's case rule for plain parts.
        max_parts: how many parts the engine's names have (3: catalog/project,
            schema/dataset, table).

    Raises:
        TypeError: an empty name or part, or more parts than ``max_parts``.
    """
    parts = name.split(".") if isinstance(name, str) else list(name)
    if not parts or len(parts) > max_parts:
        raise TypeError(f"a table name has 1 to {max_parts} parts; got {name!r}")
    idents = [identifier(part, fold) for part in parts]
    kinds = ["catalog", "db", "this"][-len(idents):]
    return exp.Table(**dict(zip(kinds, idents)))
