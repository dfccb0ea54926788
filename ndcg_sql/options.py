"""The resolved conventions of one computation, and how they are reported.

:class:`Options` is what :func:`ndcg_sql.context.resolve` decided (the rules are the
Jinja macros of ``sql/options/``); the SQL templates in ``sql/`` apply them (gain in
``sql/gain.sql.j2``, discount in ``sql/discount.sql.j2``, ties in
``sql/ranked_items.sql.j2``, the ideal ranking in ``sql/ideal_items.sql.j2``, queries
with no relevant item in ``sql/per_query.sql.j2``). Every number the package reports
comes with :meth:`Options.report`, so a reader always knows which convention produced it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import OptionError  # noqa: F401 (its former home)
from .parameters import DEFAULT_CUTOFFS, K_BEYOND_LIST


def discount_text(discount: str = "log", log_base: float = 2.0) -> str:
    """The discount as reported with every result, e.g. ``1/log2(rank + 1)`` (the default),
    ``1/log10(rank + 1)``, ``1 for rank < 2, 1/log2(rank) for rank >= 2`` (discount="jarvelin")."""
    base = float(log_base)
    shown = str(int(base)) if base.is_integer() else repr(base)
    log = f"log{shown}" if base.is_integer() else f"log_{shown}"
    if discount == "jarvelin":
        return f"1 for rank < {shown}, 1/{log}(rank) for rank >= {shown}"
    return f"1/{log}(rank + 1)"


@dataclass(frozen=True)
class Options:
    """All conventions of one computation (choices: ndcg_sql/parameters.py)."""

    cutoffs: tuple[int | None, ...] = DEFAULT_CUTOFFS
    gain: str = "exponential"
    gain_mapping: tuple[tuple[float, float], ...] = ()
    discount: str = "log"
    log_base: float = 2.0
    ties: str = "average"
    no_relevant: str = "zero"
    missing_queries: str = "ignore"
    unjudged: str = "zero"
    judgments: bool = False
    input_kind: str = "score"  # "score" (higher is better) or "rank" (1 = top)
    score_precision: str = "double"
    negative_labels: str = "error"

    @classmethod
    def of(cls, resolved: dict) -> "Options":
        """The options from the dict the resolution macros return (its 'options')."""
        return cls(
            cutoffs=tuple(resolved["cutoffs"]),
            gain=resolved["gain"],
            gain_mapping=tuple((float(label), float(gain)) for label, gain in resolved["gain_mapping"]),
            discount=resolved["discount"],
            log_base=float(resolved["log_base"]),
            ties=resolved["ties"],
            no_relevant=resolved["no_relevant"],
            missing_queries=resolved["missing_queries"],
            unjudged=resolved["unjudged"],
            judgments=bool(resolved["judgments"]),
            input_kind=resolved["input_kind"],
            score_precision=resolved["score_precision"],
            negative_labels=resolved["negative_labels"],
        )

    def report(self) -> dict:
        """The options as a JSON-ready dict, attached to every result."""
        gain: str | dict[str, float] = self.gain
        if self.gain == "mapping":
            gain = {_label_key(label): value for label, value in self.gain_mapping}
        return {
            "k": list(self.cutoffs),
            "gain": gain,
            "discount": discount_text(self.discount, self.log_base),
            "ties": self.ties,
            "ranking_by": self.input_kind,
            "ideal": "judgments" if self.judgments else "list",
            "no_relevant": self.no_relevant,
            "missing_queries": self.missing_queries if self.judgments else None,
            "unjudged": self.unjudged if self.judgments else None,
            "k_beyond_list": K_BEYOND_LIST,
            "score_precision": self.score_precision,
            "negative_labels": self.negative_labels,
        }


def _label_key(label: float) -> str:
    return str(int(label)) if label.is_integer() else repr(label)
