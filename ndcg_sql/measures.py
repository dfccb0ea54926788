"""Ranking measures by name: parsing ir_measures notation, and each measure's definition.

This module only *names and defines* the measures; the SQL that computes them
is ``sql/measures_per_query.sql.j2`` (binary-relevance measures over the ranked
rows) and ``sql/per_query.sql.j2`` (CG, DCG, NDCG), joined into one long table
by ``sql/measure_rows.sql.j2``.

Names follow ir_measures (MacAvaney et al., ECIR 2022): ``nDCG@10``, ``P@5``,
``R@100``, ``AP``, ``AP@100``, ``RR``, ``RR@10``, ``Success@10``, with an
optional relevance threshold ``P(rel=2)@5`` for the binary measures (an item is
relevant when its label >= rel; default 1, trec_eval's ``-l``). ``CG@k`` and
``DCG@k`` are this package's additions. Aliases: ``NDCG`` = ``nDCG``, ``MAP`` =
``AP``, ``MRR`` = ``RR``, ``Hit@k`` = ``Success@k`` (the mean over queries is
what the summary reports, so MAP is the mean of AP and MRR the mean of RR).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable

from .options import OptionError

#: family -> (formula, source). rel(r) = 1 if the label at rank r >= threshold
#: else 0; R = number of relevant items of the query (in the judgments, or in
#: the list without judgments); ranks r = 1 (top) .. n.
DEFINITIONS: dict[str, tuple[str, str]] = {
    "CG": ("sum_{r<=k} gain(label_r)", "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002"),
    "DCG": ("sum_{r<=k} gain(label_r) / log2(r + 1)", "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002"),
    "nDCG": ("DCG@k / IDCG@k (IDCG@k: DCG@k of the ideal ranking)", "Jarvelin & Kekalainen 2002; trec_eval ndcg_cut"),
    "P": ("sum_{r<=k} rel(r) / k (k even when the list is shorter)", "trec_eval P_k; Manning et al., IR book ch. 8"),
    "R": ("sum_{r<=k} rel(r) / R (0 when R = 0)", "trec_eval recall_k; Manning et al., IR book ch. 8"),
    "AP": (
        "sum_{r<=k, rel(r)=1} P@r / R (0 when R = 0; k = the whole list without @k)",
        "trec_eval map / map_cut_k; Buckley & Voorhees, SIGIR 2000",
    ),
    "RR": ("1 / (rank of the first relevant item at or above k), 0 if none", "trec_eval recip_rank; Voorhees, TREC-8 QA 1999"),
    "Success": ("1 if some item at rank <= k is relevant, else 0", "trec_eval success_k; ir_measures Success"),
}
#: Families whose value is linear in the relevance at each rank: with
#: ties="average" the tie group's mean relevance is credited at each of its
#: ranks, which gives the expected value over the orders of the tie
#: (McSherry & Najork, ECIR 2008). AP, RR and Success are not linear, so they
#: need a deterministic tie order.
LINEAR = ("CG", "DCG", "nDCG", "P", "R")
#: Families computed from the gain (the gain option applies; no threshold).
GRADED = ("CG", "DCG", "nDCG")
#: Families that need a cutoff.
NEED_CUTOFF = ("P", "R", "Success")
ALIASES = {
    "ndcg": "nDCG", "cg": "CG", "dcg": "DCG", "p": "P", "r": "R", "ap": "AP", "map": "AP",
    "rr": "RR", "mrr": "RR", "success": "Success", "hit": "Success",
}
_NAME = re.compile(r"^\s*(?P<family>[A-Za-z]+)\s*(?:\((?P<params>[^)]*)\))?\s*(?:@\s*(?P<k>[^\s]+))?\s*$")


@dataclass(frozen=True)
class Measure:
    """One measure: family (a key of :data:`DEFINITIONS`), cutoff k (None = the
    whole list) and relevance threshold (binary families only)."""

    family: str
    k: int | None = None
    rel: float | None = None

    @property
    def name(self) -> str:
        """The canonical ir_measures-style name, e.g. ``P(rel=2)@5``."""
        text = self.family
        if self.rel is not None and self.rel != 1:
            text += f"(rel={_number_text(self.rel)})"
        if self.k is not None:
            text += f"@{self.k}"
        return text

    @property
    def threshold(self) -> float:
        return 1.0 if self.rel is None else self.rel

    def definition(self) -> dict:
        formula, source = DEFINITIONS[self.family]
        out = {"measure": self.name, "formula": formula, "source": source}
        if self.family not in GRADED:
            out["relevant"] = f"label >= {_number_text(self.threshold)}"
        return out


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def parse_measure(text: str) -> Measure:
    """Parse one name in ir_measures notation.

    Raises:
        OptionError: unknown family, a malformed parameter or cutoff, a
            threshold on a graded measure, or a binary measure that needs a
            cutoff given none.
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise OptionError(f"a measure is a name like 'nDCG@10' or 'P(rel=2)@5'; got {text!r}")
    match = _NAME.match(text)
    family = ALIASES.get(match.group("family").lower()) if match else None
    if family is None:
        known = ", ".join(sorted(set(ALIASES.values())))
        raise OptionError(f"unknown measure {text!r}; known: {known} (e.g. nDCG@10, P@5, P(rel=2)@5, AP, RR)")
    k = None
    if match.group("k") is not None:
        raw = match.group("k")
        if not raw.isdigit() or int(raw) <= 0:
            raise OptionError(f"measure {text!r}: the cutoff after @ must be a positive integer")
        k = int(raw)
    rel = None
    params = match.group("params")
    if params is not None and params.strip():
        for part in params.split(","):
            key, _, value = part.partition("=")
            if key.strip() != "rel" or not value.strip():
                raise OptionError(f"measure {text!r}: the only parameter is rel=<label>, e.g. P(rel=2)@5")
            try:
                rel = float(value)
            except ValueError:
                raise OptionError(f"measure {text!r}: rel must be a number; got {value.strip()!r}") from None
            if not math.isfinite(rel):
                raise OptionError(f"measure {text!r}: rel must be a finite number")
    if rel is not None and family in GRADED:
        raise OptionError(f"measure {text!r}: {family} uses the gain option, not a relevance threshold")
    if k is None and family in NEED_CUTOFF:
        raise OptionError(f"measure {text!r} needs a cutoff, e.g. {family}@10")
    return Measure(family, k, rel)


def parse_measures(names: str | Iterable[str]) -> tuple[Measure, ...]:
    """Parse names (a list, or one string separated by commas or spaces that
    are not inside parentheses); duplicates are dropped, order kept.

    Raises:
        OptionError: as :func:`parse_measure`, or no measure given.
    """
    if isinstance(names, str):
        names = [part for part in re.split(r"[\s,]+(?![^(]*\))", names) if part]
    seen: dict[str, Measure] = {}
    for name in names:
        measure = parse_measure(name)
        seen.setdefault(measure.name, measure)
    if not seen:
        raise OptionError("at least one measure is needed")
    return tuple(seen.values())


def check_ties(measures: Iterable[Measure], ties: str) -> None:
    """AP, RR and Success need a deterministic order inside tie groups.

    Raises:
        OptionError: one of them is asked for with ties="average".
    """
    nonlinear = [m.name for m in measures if m.family not in LINEAR]
    if nonlinear and ties == "average":
        raise OptionError(
            f"{', '.join(nonlinear)} {'needs' if len(nonlinear) == 1 else 'need'} ties='item-asc', 'item-desc' (trec_eval's) "
            "or 'input-order', or a convention that sets one (--ties, --convention): they are not "
            "linear in the relevance at each rank, so tie averaging does not define them"
        )
