"""The options as a caller gives them: one :class:`Request` per call.

Each Python entry point takes the options as keyword arguments written in its signature
(:class:`ndcg_sql.parameters.Given` declares their types and defaults) and gathers them into a
:class:`Request` with :meth:`Request.of`. Nothing is checked here: :func:`ndcg_sql.context.resolve`
checks the options against each other.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .parameters import METRIC, Given


class Request(Given):
    """The options of one call, as given (one attribute per :data:`ndcg_sql.parameters.PARAMETERS`
    entry, with its default)."""

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Request:
        """The options among ``values`` (e.g. an entry point's ``locals()``): those named in the table."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in values.items() if name in names})

    def metric(self) -> dict[str, object]:
        """The options of the metric SQL and its summary (what sql/options/ resolves)."""
        return {name: getattr(self, name) for name in METRIC}
