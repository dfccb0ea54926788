"""The conventions of an NDCG computation, each an explicit, validated option.

This module only *defines and checks* the options; the SQL templates in ``sql/``
apply them (gain in ``sql/gain.sql.j2``, discount in ``sql/discount.sql.j2``, ties
in ``sql/ranked_items.sql.j2``, the ideal ranking in ``sql/ideal_items.sql.j2``,
queries with no relevant item in ``sql/per_query.sql.j2``).

Every number the package reports comes with :meth:`Options.report`, so a reader
always knows which convention produced it.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

#: gain(label): "exponential" is 2**label - 1 (Burges et al. 2005, LightGBM,
#: XGBoost), "linear" is the label itself (trec_eval, scikit-learn).
GAINS = ("exponential", "linear")
#: Order inside a group of equal scores (or equal logged ranks).
#: "average": tie-aware DCG of McSherry & Najork (ECIR 2008), as scikit-learn's
#: ndcg_score: every item of a tie group gets the group's mean gain.
#: "item-asc" / "item-desc": break ties by item id ascending / descending
#: (trec_eval uses descending), comparing string ids in byte order.
#: "input-order": the order of a row-order column (``row_col``), smaller first,
#: as LightGBM's stable sort keeps tied rows in input order.
TIES = ("average", "item-asc", "item-desc", "input-order")
#: NDCG of a query whose ideal DCG@k is 0 (no item with a positive gain):
#: "zero" counts it as 0 in the mean (trec_eval, scikit-learn), "skip" leaves
#: it out of the mean (per-query ndcg is NULL), "one" counts it as 1 (LightGBM).
NO_RELEVANT = ("zero", "skip", "one")
#: With judgments: queries that are judged but absent from the run are
#: "ignore"d (trec_eval's default) or counted as NDCG 0 ("zero", trec_eval -c).
MISSING_QUERIES = ("ignore", "zero")
#: Precision at which scores are compared: "double", or "float32" (trec_eval
#: stores scores as C float; XGBoost's predictions are float32): scores are
#: rounded to the nearest float32 first, which can create ties.
SCORE_PRECISIONS = ("double", "float32")
#: Negative labels: an "error" (default), or counted as label "zero" (trec_eval
#: reads them, e.g. -1 for "judged non-relevant", and gives them gain 0).
NEGATIVE_LABELS = ("error", "zero")
#: Cutoffs used when the caller gives none: these and the whole list (None).
DEFAULT_CUTOFFS: tuple[int | None, ...] = (1, 3, 5, 10, 20, None)
#: Largest label accepted with exponential gain: 2**1024 overflows a double.
MAX_EXPONENTIAL_LABEL = 1023

DISCOUNT = "1/log2(rank + 1)"
K_BEYOND_LIST = (
    "DCG@k sums the items present; IDCG@k comes from the ideal ranking of the "
    "list (or of all judged items) cut at k"
)


class OptionError(ValueError):
    """An option has a value outside its documented domain."""


def _choice(name: str, value: str, allowed: Sequence[str]) -> str:
    normalised = str(value).replace("_", "-").lower()
    if normalised not in allowed:
        raise OptionError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return normalised


def parse_cutoffs(k: int | str | None | Iterable[int | str | None]) -> tuple[int | None, ...]:
    """Validate cutoffs: positive integers, and None (or "all") for the whole list.

    Args:
        k: one cutoff or an iterable of them. ``None`` or ``"all"`` means the
            whole list. Strings of digits are accepted (command line).

    Returns:
        The distinct cutoffs in ascending order, the whole list (None) last.

    Raises:
        OptionError: a cutoff is not a positive integer, or none is given.
    """
    if k is None or isinstance(k, (numbers.Real, str)):
        k = [k]
    cutoffs: set[int] = set()
    whole = False
    for value in k:
        if value is None or (isinstance(value, str) and value.strip().lower() == "all"):
            whole = True
            continue
        if isinstance(value, bool):
            raise OptionError(f"k must be a positive integer or 'all'; got {value!r}")
        if isinstance(value, str):
            text = value.strip()
            if not text.isdigit():
                raise OptionError(f"k must be a positive integer or 'all'; got {value!r}")
            value = int(text)
        elif isinstance(value, numbers.Integral):
            value = int(value)
        elif isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise OptionError(f"k must be a positive integer or 'all'; got {value!r}")
        if value <= 0:
            raise OptionError(f"k must be a positive integer or 'all'; got {value}")
        cutoffs.add(value)
    result: list[int | None] = sorted(cutoffs)
    if whole:
        result.append(None)
    if not result:
        raise OptionError("at least one cutoff k is needed")
    return tuple(result)


def parse_gain(gain: str | Mapping[float, float]) -> tuple[str, tuple[tuple[float, float], ...]]:
    """Validate the gain option.

    Args:
        gain: "exponential" (2**label - 1), "linear" (label), or a mapping
            {label: gain} of finite, non-negative numbers.

    Returns:
        (kind, mapping) where kind is "exponential", "linear" or "mapping" and
        mapping is a sorted tuple of (label, gain) floats (empty unless "mapping").

    Raises:
        OptionError: unknown name, or a mapping entry that is not a finite
            number, or a negative gain (DCG must not decrease with depth).
    """
    if isinstance(gain, Mapping):
        if not gain:
            raise OptionError("a gain mapping needs at least one label")
        pairs = []
        for label, value in gain.items():
            try:
                label_f, value_f = float(label), float(value)
            except (TypeError, ValueError):
                raise OptionError(f"gain mapping entries must be numbers; got {label!r}: {value!r}") from None
            if not (math.isfinite(label_f) and math.isfinite(value_f)) or value_f < 0:
                raise OptionError(
                    f"gain mapping needs finite labels and finite non-negative gains; got {label!r}: {value!r}"
                )
            pairs.append((label_f, value_f))
        return "mapping", tuple(sorted(pairs))
    return _choice("gain", gain, GAINS), ()


@dataclass(frozen=True)
class Options:
    """All conventions of one computation (see the module constants for each)."""

    cutoffs: tuple[int | None, ...] = DEFAULT_CUTOFFS
    gain: str = "exponential"
    gain_mapping: tuple[tuple[float, float], ...] = ()
    ties: str = "average"
    no_relevant: str = "zero"
    missing_queries: str = "ignore"
    judgments: bool = False
    input_kind: str = "score"  # "score" (higher is better) or "rank" (1 = top)
    score_precision: str = "double"
    negative_labels: str = "error"

    @classmethod
    def build(
        cls,
        *,
        k=DEFAULT_CUTOFFS,
        gain="exponential",
        ties="average",
        no_relevant="zero",
        missing_queries="ignore",
        judgments=False,
        input_kind="score",
        score_precision="double",
        negative_labels="error",
    ) -> "Options":
        """Validate user-facing option values; raises :class:`OptionError`."""
        kind, mapping = parse_gain(gain)
        return cls(
            cutoffs=parse_cutoffs(k),
            gain=kind,
            gain_mapping=mapping,
            ties=_choice("ties", ties, TIES),
            no_relevant=_choice("no_relevant", no_relevant, NO_RELEVANT),
            missing_queries=_choice("missing_queries", missing_queries, MISSING_QUERIES),
            judgments=bool(judgments),
            input_kind=_choice("input_kind", input_kind, ("score", "rank")),
            score_precision=_choice("score_precision", score_precision, SCORE_PRECISIONS),
            negative_labels=_choice("negative_labels", negative_labels, NEGATIVE_LABELS),
        )

    def report(self) -> dict:
        """The options as a JSON-ready dict, attached to every result."""
        if self.gain == "mapping":
            gain = {_label_key(label): value for label, value in self.gain_mapping}
        else:
            gain = self.gain
        return {
            "k": list(self.cutoffs),
            "gain": gain,
            "discount": DISCOUNT,
            "ties": self.ties,
            "ranking_by": self.input_kind,
            "ideal": "judgments" if self.judgments else "list",
            "no_relevant": self.no_relevant,
            "missing_queries": self.missing_queries if self.judgments else None,
            "k_beyond_list": K_BEYOND_LIST,
            "score_precision": self.score_precision,
            "negative_labels": self.negative_labels,
        }


def _label_key(label: float) -> str:
    return str(int(label)) if label.is_integer() else repr(label)
