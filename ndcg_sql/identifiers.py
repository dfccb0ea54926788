"""Quoting of user-given names through sqlglot: never pasted into SQL as text."""

from __future__ import annotations

from sqlglot import exp


def quote(name: str, dialect: str = "duckdb") -> str:
    """A column or table name as a quoted SQL identifier of ``dialect``.

    Args:
        name: the name exactly as the user spells it (case kept; quotes,
            semicolons and comment markers stay part of the name).
        dialect: a sqlglot dialect name.

    Raises:
        TypeError: ``name`` is not a non-empty string.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a column or table name must be a non-empty string; got {name!r}")
    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)
