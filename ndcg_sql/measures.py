"""Ranking measures by name: parsing ir_measures notation, and each measure's definition.

This module only *names and defines* the measures (data): the names are parsed by
``sql/options/parse_measures.sql`` from :func:`grammar` (rendered by the Python runner and
dbt alike; :func:`ndcg_sql.context.parse_measures` calls it), and the SQL that computes them
is ``sql/measures_per_query.sql.j2`` (binary-relevance measures over the ranked
rows) and ``sql/per_query.sql.j2`` (CG, DCG, NDCG), joined into one long table
by ``sql/measure_rows.sql.j2``.

Names follow ir_measures (MacAvaney et al., ECIR 2022): ``nDCG@10``, ``P@5``,
``R@100``, ``AP``, ``AP@100``, ``RR``, ``RR@10``, ``Success@10``, ``Judged@10``, with an
optional relevance threshold ``P(rel=2)@5`` for the binary measures (an item is
relevant when its label >= rel; default 1, trec_eval's ``-l``). ``CG@k`` and
``DCG@k`` are this package's additions. Aliases: ``NDCG`` = ``nDCG``, ``MAP`` =
``AP``, ``MRR`` = ``RR``, ``Hit@k`` = ``Success@k`` (the mean over queries is
what the summary reports, so MAP is the mean of AP and MRR the mean of RR).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable


#: family -> (formula, source). rel(r) = 1 if the label at rank r >= threshold
#: else 0; R = number of relevant items of the query (in the judgments, or in
#: the list without judgments); ranks r = 1 (top) .. n.
DEFINITIONS: dict[str, tuple[str, str]] = {
    "CG": ("sum_{r<=k} gain(label_r)", "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002"),
    "DCG": ("sum_{r<=k} gain(label_r) * discount(r) (discount option: default 1/log2(r + 1))",
            "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002"),
    "nDCG": ("DCG@k / IDCG@k (IDCG@k: DCG@k of the ideal ranking)", "Jarvelin & Kekalainen 2002; trec_eval ndcg_cut"),
    "P": ("sum_{r<=k} rel(r) / k (k even when the list is shorter)", "trec_eval P_k; Manning et al., IR book ch. 8"),
    "R": ("sum_{r<=k} rel(r) / R (0 when R = 0)", "trec_eval recall_k; Manning et al., IR book ch. 8"),
    "AP": (
        "sum_{r<=k, rel(r)=1} P@r / R (0 when R = 0; k = the whole list without @k)",
        "trec_eval map / map_cut_k; Buckley & Voorhees, SIGIR 2000",
    ),
    "RR": ("1 / (rank of the first relevant item at or above k), 0 if none", "trec_eval recip_rank; Voorhees, TREC-8 QA 1999"),
    "Success": ("1 if some item at rank <= k is relevant, else 0", "trec_eval success_k; ir_measures Success"),
    "RBP": (
        "(1 - p) * sum_{r<=k} p^(r-1) * rel(r) (p the persistence, default 0.8; k = the whole list without @k)",
        "Moffat & Zobel, ACM TOIS 27(1) 2008; ir_measures RBP (cwl_eval)",
    ),
    "RBPResidual": (
        "the most unjudged items could add to RBP: (1 - p) * sum_{r<=min(k,n), unjudged} p^(r-1) + p^min(k,n) "
        "- p^k (n the list length; p^k is 0 without @k); without judgments only the items past the list",
        "Moffat & Zobel, ACM TOIS 27(1) 2008, section 4 (residuals)",
    ),
    "ERR": (
        "sum_{r<=k} R_r / r * prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^g_max with g = min(label, g_max), g_max = 4 "
        "(gdeval.pl's MAX_JUDGMENT; it refuses larger labels, here they count as 4, R = 15/16); k = the whole "
        "list without @k",
        "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009; gdeval.pl (TREC Web track) through ir_measures ERR",
    ),
    "Judged": (
        "judged items at ranks <= k / min(k, list length) (judged: has a row in the judgments, whatever its "
        "label; without judgments every ranked item is judged; 0 for a query missing from the run)",
        "ir_measures Judged (after OpenNIR's judged@k); Sakai, SIGIR 2007 on unjudged items",
    ),
}
#: Families whose value is linear in the relevance at each rank: with
#: ties="average" the tie group's mean relevance is credited at each of its
#: ranks, which gives the expected value over the orders of the tie
#: (McSherry & Najork, ECIR 2008). AP, RR and Success are not linear, so they
#: need a deterministic tie order.
LINEAR = ("CG", "DCG", "nDCG", "P", "R", "Judged", "RBP", "RBPResidual")
#: Families computed from the gain (the gain option applies; no threshold).
GRADED = ("CG", "DCG", "nDCG")
#: Families whose values are not bounded by 1 (their means are summed at a scale, sql/summary.sql.j2).
UNBOUNDED = ("CG", "DCG")
#: Families that need a cutoff.
NEED_CUTOFF = ("P", "R", "Success")
# The range of a measure's per-query values decides the 95% interval of its mean in the summary
# (the rule: sql/options/value_range.sql; the intervals: sql/summary.sql.j2): "zero_one" (values
# 0 or 1): the Wilson score interval; "unit" (values in [0, 1]: every family but CG and DCG):
# the normal interval clipped to [0, 1]; "unbounded" (UNBOUNDED): the plain normal interval.
#: Families whose per-query values are 0 or 1 at every cutoff.
ZERO_ONE = ("Success",)
#: Families whose per-query values are 0 or 1 at cutoff 1: P@1 = rel(1) and RR@1 = rel(1).
#: (P@1 is a fraction where ties="average" spans rank 1; a value in [0, 1] with mean p has a
#: variance of at most p(1 - p), so the Wilson interval holds there too, only wider.)
ZERO_ONE_AT_1 = ("P", "RR", "Judged")
#: Families without a relevance threshold that are not graded either (their parameter rel is refused).
NO_THRESHOLD = ("Judged", "RBPResidual", "ERR")
#: ERR's largest grade: R = (2^g - 1) / 2^ERR_MAX_GRADE, labels above it counted as it (gdeval.pl: MAX_JUDGMENT = 4).
ERR_MAX_GRADE = 4
#: Families that look at which items are judged (the SQL then carries a judged flag per ranked item).
JUDGED = ("Judged", "RBPResidual")
#: Parameters each family takes besides rel (with their defaults): RBP's persistence p (Moffat & Zobel 2008:
#: 0.8 in ir_measures; names leave a default out, as ir_measures writes them).
PERSISTENCE = ("RBP", "RBPResidual")
DEFAULT_P = 0.8
ALIASES = {
    "ndcg": "nDCG", "cg": "CG", "dcg": "DCG", "p": "P", "r": "R", "ap": "AP", "map": "AP",
    "rr": "RR", "mrr": "RR", "success": "Success", "hit": "Success", "judged": "Judged",
    "rbp": "RBP", "rbpresidual": "RBPResidual", "err": "ERR",
}
_NAME = re.compile(r"^\s*(?P<family>[A-Za-z]+)\s*(?:\((?P<params>[^)]*)\))?\s*(?:@\s*(?P<k>[^\s]+))?\s*$")


@dataclass(frozen=True)
class Measure:
    """One measure: family (a key of :data:`DEFINITIONS`), cutoff k (None = the
    whole list) and relevance threshold (binary families only)."""

    family: str
    k: int | None = None
    rel: float | None = None
    p: float | None = None

    @property
    def name(self) -> str:
        """The canonical ir_measures-style name, e.g. ``P(rel=2)@5``."""
        text = self.family
        params = []
        if self.rel is not None and self.rel != 1:
            params.append(f"rel={_number_text(self.rel)}")
        if self.p is not None and self.p != DEFAULT_P:
            params.append(f"p={_number_text(self.p)}")
        if params:
            text += f"({','.join(params)})"
        if self.k is not None:
            text += f"@{self.k}"
        return text

    @property
    def threshold(self) -> float:
        return 1.0 if self.rel is None else self.rel

    def definition(self) -> dict[str, object]:
        formula, source = DEFINITIONS[self.family]
        out: dict[str, object] = {"measure": self.name, "formula": formula, "source": source}
        if self.family not in GRADED and self.family not in NO_THRESHOLD:
            out["relevant"] = f"label >= {_number_text(self.threshold)}"
        if self.family in PERSISTENCE:
            out["persistence"] = DEFAULT_P if self.p is None else self.p
        return out


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


#: The per-query NDCG row column that holds each graded family.
GRADED_COLUMN = {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"}


def grammar() -> dict:
    """The measure-name grammar as the resolution macros read it (sql/options/parse_measures.sql;
    the dbt package has it as the generated macro ``ndcg_sql._measure_grammar()``)."""
    return {
        "pattern": _NAME.pattern,
        "aliases": dict(ALIASES),
        "graded": list(GRADED),
        "linear": list(LINEAR),
        "need_cutoff": list(NEED_CUTOFF),
        "unbounded": list(UNBOUNDED),
        "zero_one": list(ZERO_ONE),
        "zero_one_at_1": list(ZERO_ONE_AT_1),
        "no_threshold": list(NO_THRESHOLD),
        "judged": list(JUDGED),
        "persistence": list(PERSISTENCE),
        "default_p": DEFAULT_P,
        "err_max_grade": ERR_MAX_GRADE,
        "graded_column": dict(GRADED_COLUMN),
    }


def of(parsed: Iterable[dict]) -> tuple[Measure, ...]:
    """Measures from the dicts sql/options/parse_measures.sql returns."""
    return tuple(Measure(m["family"], m["k"], m["rel"], m.get("p")) for m in parsed)
