"""The options as a caller gives them: one :class:`Request` per call, and the decorator
that gives each Python entry point its keyword options from :data:`ndcg_sql.parameters.PARAMETERS`.

:func:`takes_options` writes each entry point's signature and the "Options:" part of its
docstring from the table, so ``inspect.signature`` and ``help()`` list every option with
its default; the function receives one :class:`Request`. Nothing is checked here:
:func:`ndcg_sql.context.resolve` checks the options against each other.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect

from .parameters import BY_NAME, METRIC, PARAMETERS


class _RequestMethods:
    """The options as given (one attribute per :data:`PARAMETERS` entry, with its default)."""

    def as_kwargs(self) -> dict:
        """The options by name, values as given."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def metric(self) -> dict:
        """The options of the metric SQL and its summary (what sql/options/ resolves)."""
        return {name: getattr(self, name) for name in METRIC}


Request = dataclasses.make_dataclass(
    "Request",
    [(p.name, object, dataclasses.field(default=p.default)) for p in PARAMETERS if p.name in METRIC],
    bases=(_RequestMethods,),
    frozen=True,
)
Request.__module__ = __name__
Request.__doc__ = "The metric options of one call, as given (see ndcg_sql/parameters.py)."


def takes_options(*names: str):
    """Give the decorated function the metric options ``names`` (all of :data:`METRIC` when none given).

    The function itself takes its own parameters plus ``request`` (a :class:`Request`);
    callers pass the options as keywords. Its ``__signature__`` lists them (keyword-only,
    after its own parameters; "k" may stay positional where the function's own signature
    says so) and its docstring gains their documentation under "Options:". An unknown
    keyword raises TypeError, as for any Python function.
    """
    chosen = [BY_NAME[name] for name in (names or METRIC)]

    def decorate(function):
        own = inspect.signature(function)
        own_params = [p for p in own.parameters.values() if p.name != "request"]
        present = {p.name for p in own_params}
        extra = [
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=p.annotation)
            for p in chosen if p.name not in present
        ]
        head = [p for p in own_params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        tail = [p for p in own_params if p.kind == p.KEYWORD_ONLY]
        signature = own.replace(parameters=head + tail + extra)
        option_names = {p.name for p in chosen}

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            values = dict(bound.arguments)
            options = {name: values.pop(name) for name in list(values) if name in option_names}
            return function(**values, request=Request(**options))

        wrapper.__signature__ = signature
        lines = "\n".join(f"        {p.name} ({p.annotation}; default {p.default!r}): {p.doc}" for p in chosen)
        wrapper.__doc__ = ((function.__doc__ or "").rstrip()
                           + "\n\n    Options (shared by every entry point; ndcg_sql/parameters.py):\n" + lines + "\n")
        wrapper.option_names = tuple(p.name for p in chosen)
        return wrapper

    return decorate
