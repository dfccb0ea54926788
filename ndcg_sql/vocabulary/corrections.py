"""Multiple-testing corrections: the p-values of a family of tests, adjusted.

A comparison of several runs, or of two runs on several measures, makes one test per (pair of
runs, measure); the family is every such row of one segment. Each method maps the family's raw
p-values p_1 .. p_m to adjusted ones, so that "adjusted p <= alpha" controls the error rate the
method names at level alpha:

- ``"holm"``: Holm's step-down method (Holm, Scand. J. Statist. 1979), the family-wise error
  rate. With p_(1) <= ... <= p_(m) sorted, p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
- ``"bonferroni"``: min(1, m p_i), the family-wise error rate (Holm's is never larger).
- ``"bh"``: Benjamini & Hochberg's step-up method (J. R. Statist. Soc. B 1995), the false
  discovery rate: p~_(i) = min_{j >= i} min(1, m p_(j) / j).
- ``"none"``: the raw p-values.

These are the adjusted p-values of R's ``p.adjust`` and statsmodels' ``multipletests`` (the
same formulas). A missing p-value (None: a pair with fewer than 2 queries) is left out of the
family and stays None.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import OptionError
from .parameters import CORRECTIONS


def default_correction(runs: int, measures: int) -> str:
    """Holm when the family has more than one test (more than two runs, or more than one
    measure), else none: two runs on one measure are one test and keep their raw p-value."""
    return "holm" if runs > 2 or measures > 1 else "none"


def checked(correction) -> str:
    """``correction`` if it is one of :data:`CORRECTIONS` (OptionError naming them otherwise)."""
    if not isinstance(correction, str) or correction not in CORRECTIONS:
        raise OptionError(f"correction must be one of {', '.join(CORRECTIONS)}; got {correction!r}")
    return correction


def adjusted(p_values: Sequence[float | None], correction: str) -> list[float | None]:
    """The adjusted p-values of one family, in the order given (None stays None and is not
    counted in the family's size m).

    Args:
        p_values: the family's raw p-values, each in [0, 1] or None.
        correction: one of :data:`CORRECTIONS`.

    Raises:
        OptionError: an unknown correction.
    """
    checked(correction)
    present = [(i, float(p)) for i, p in enumerate(p_values) if p is not None]
    out: list[float | None] = [None] * len(p_values)
    m = len(present)
    if correction == "none" or m == 0:
        for i, p in present:
            out[i] = p
        return out
    if correction == "bonferroni":
        for i, p in present:
            out[i] = min(1.0, m * p)
        return out
    order = sorted(present, key=lambda item: item[1])
    if correction == "holm":
        running = 0.0
        for rank, (i, p) in enumerate(order):  # rank 0 .. m - 1: factor m - rank
            running = max(running, min(1.0, (m - rank) * p))
            out[i] = running
        return out
    running = 1.0  # bh: from the largest p down
    for rank in range(m - 1, -1, -1):
        i, p = order[rank]
        running = min(running, min(1.0, m * p / (rank + 1)))
        out[i] = running
    return out


def family_size(p_values: Sequence[float | None]) -> int:
    """m: the tests of a family that have a p-value."""
    return sum(p is not None for p in p_values)
