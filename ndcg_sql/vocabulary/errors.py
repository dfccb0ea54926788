"""The errors a user of ndcg_sql meets; every other module raises these.

:class:`OptionError`: an option outside its domain or contradicting another
(raised while the options are resolved, before any data is read).
:class:`InputError`: the data cannot be evaluated as given (the message names the
column and a few query ids).
:class:`OpenTransaction` (an OptionError): the caller's connection is in a transaction that a
failure of ours could not spare.
:class:`MissingDependency`: an optional library a feature needs is not installed
(the message names the extra that installs it).
"""

from __future__ import annotations


class OptionError(ValueError):
    """An option has a value outside its documented domain, or contradicts another."""


class InputError(ValueError):
    """The input cannot be evaluated as given; the message names column and query ids.

    ``failed``: when input checks failed (ndcg_sql/building/validation.py ``refuse``), one dict
    per failed check, in the message's order: "check" (its name in sql/input_checks.sql.j2),
    "input" ("ranking" or "judgments"), "column" (the user's column), "problem" (as dbt's test ndcg_valid_input words it) and
    "query_ids" (a few of the queries breaking it; empty when no query id is known). Empty for
    other problems.
    """

    def __init__(self, message: str = "", failed=()):
        super().__init__(message)
        self.failed = tuple(failed)


class OpenTransaction(OptionError):
    """The caller's connection is inside a transaction that a failed statement of ours would
    abort and discard, on an engine with no savepoint to confine the failure to our own work
    (Redshift, DuckDB), or the transaction is aborted already; the message says what to do
    (commit or roll back first). Nothing was run."""


class MissingDependency(ImportError):
    """An optional library is missing (scipy for compare, matplotlib for plot); the message
    says how to install it (command line: exit status 1, as a problem of the environment,
    not of the options)."""


#: The most characters of a value of the user's (a label expression) a message quotes.
ECHOED = 200


def echoed(text: str) -> str:
    """A value of the user's as a message quotes it: ``repr(text)``, or for a text longer than
    :data:`ECHOED` characters its first ones, "…" and how many characters it has (a message of
    one line, not the whole value back)."""
    if len(text) <= ECHOED:
        return repr(text)
    return f"{text[:ECHOED] + '…'!r} ({len(text):,} characters)"


def first_line(error: BaseException) -> str:
    """An engine's error in one line (its message's first line, or its class name): what an
    :class:`InputError` wrapping an engine's failure quotes, the error itself kept as ``__cause__``."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def out_of_memory(error: BaseException) -> str:
    """The message of DuckDB's OutOfMemoryException, from every entry point: DuckDB's first line
    and the option that gives it more memory."""
    return (f"DuckDB ran out of memory ({first_line(error).rstrip('.')}): give it more with memory_limit= "
            "(command line: --memory-limit SIZE), e.g. '8GB', or None ('none') for DuckDB's own limit, 80% of RAM")
