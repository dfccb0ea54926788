"""Ranking measures by name: parsing ir_measures notation, and each measure's definition.

This module only *names and defines* the measures (data): one :class:`Family` record per
family in :data:`FAMILIES` (as ir_measures declares a measure class), from which the grammar
below, the documentation's measures table (``docs/generate.py``) and the range of each family's
values are read. The names are parsed by
``sql/options/parse_measures.sql`` from :func:`grammar` (rendered by the Python runner and
dbt alike; :func:`ndcg_sql.building.context.parse_measures` calls it), and the SQL that computes them
is each family's macro file ``sql/measures/<sql>.sql.j2`` (:attr:`Family.sql`), called by name from
``sql/measures_per_query.sql.j2`` (the frame of the binary-relevance measures over the ranked rows),
and ``sql/per_query.sql.j2`` (CG, DCG, NDCG), joined into one long table by ``sql/measure_rows.sql.j2``.

Names follow ir_measures (MacAvaney et al., ECIR 2022): ``nDCG@10``, ``P@5``,
``R@100``, ``AP``, ``AP@100``, ``RR``, ``RR@10``, ``Success@10``, ``Judged@10``, with an
optional relevance threshold ``P(rel=2)@5`` for the binary measures (an item is
relevant when its label >= rel; default 1, trec_eval's ``-l``). ``CG@k`` and
``DCG@k`` are this package's additions. For incomplete judgments: ``Bpref``, ``infAP``,
``Rprec``, ``IPrec@0.5`` (the part after @ a recall level) and ``gm_map`` (trec_eval's name; the
summary is the geometric mean of AP); ``SetP``, the precision of the whole list (trec_eval's set_P). Aliases: ``NDCG`` = ``nDCG``, ``MAP`` =
``AP``, ``MRR`` = ``RR``, ``Hit@k`` = ``Success@k``, ``GMAP`` = ``gm_map``, ``set_P`` = ``SetP`` (the mean over queries is
what the summary reports, so MAP is the mean of AP and MRR the mean of RR).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable


#: Relevance kinds: what a family reads at each rank (:attr:`Family.relevance`).
RELEVANCE = ("gain", "threshold", "judged", "grade", "pool")
#: What the part after @ of a name is (:attr:`Family.at`): "cutoff" (the rank k), "recall" (a recall
#: level in [0, 1], IPrec@0.5) or "none" (the family takes no @: trec_eval and ir_measures have none).
AT = ("cutoff", "recall", "none")
#: How the summary averages a family's per-query values (:attr:`Family.mean`): "arithmetic" (their
#: mean), or "geometric" (the per-query values are natural logarithms and the summary is exp of their
#: mean, the geometric mean: sql/summary.sql.j2).
MEANS = ("arithmetic", "geometric")
#: Ranges of per-query values (:attr:`Family.values`). The range decides the 95% interval of a
#: measure's mean in the summary (the rule: sql/options/value_range.sql; the intervals:
#: sql/summary.sql.j2): "zero_one" (values 0 or 1): the Wilson score interval; "unit" (values in
#: [0, 1]): the normal interval clipped to [0, 1]; "unbounded": the plain normal interval (and the
#: means are summed at a scale); "log" (natural logarithms of values in (0, 1], a geometric mean's
#: family): the normal interval of their mean, exponentiated and clipped to [0, 1].
VALUES = ("zero_one", "unit", "unbounded", "log")
#: Where the SQL sums a family's per-query numerator (:attr:`Family.numerator`), the CTEs of
#: sql/measures_per_query.sql.j2: "ranks" (``ranked_measures``: an aggregate over the ranked rows and
#: their running sums in rank order), "counts" (``counted_measures``, sql/counted_measures.sql.j2: an
#: aggregate over the ranked rows joined to the query's counts R and N, for a value that reads R at each
#: rank) or "own" (CTEs of the family's own, written by its macro ``_<sql>_ctes``: ERR).
NUMERATORS = ("ranks", "counts", "own")
#: The folder of ``sql/`` holding one macro file per family (:attr:`Family.sql`).
FAMILY_MACROS = "measures"
#: gm_map's floor: AP below it counts as it before its logarithm is taken (trec_eval.h: MIN_GEO_MEAN).
GM_FLOOR = 1e-5
#: infAP's epsilon, which keeps its ratio of relevant to judged items above a rank defined when no item
#: above it is judged (trec_eval.h: INFAP_EPSILON).
INFAP_EPSILON = 1e-5
#: ERR's top grade by default (the max_grade option): R = (2^g - 1) / 2^max_grade (gdeval.pl: MAX_JUDGMENT = 4).
ERR_MAX_GRADE = 4
#: The default persistence p of the families that take one (Moffat & Zobel 2008: 0.8 in ir_measures;
#: names leave a default out, as ir_measures writes them).
DEFAULT_P = 0.8


@dataclass(frozen=True)
class Family:
    """One measure family: everything the package knows of it, and the name of the macro file that
    writes the SQL of its per-query value (``sql/measures/<sql>.sql.j2``, which
    ``sql/measures_per_query.sql.j2`` calls by name; the graded families are columns of
    ``sql/per_query.sql.j2``). rel(r) = 1 if the label at rank r >= threshold else 0; R = number of
    relevant items of the query (in the judgments, or in the list without judgments); ranks
    r = 1 (top) .. n.

    name: the canonical name (ir_measures spelling). formula, source: its definition and citation.
    relevance: what it reads at each rank (:data:`RELEVANCE`): "gain" (the gain option applies, no
    threshold), "threshold" (rel(r), with the parameter rel), "judged" (which items are judged; no
    threshold; the SQL then carries a judged flag per ranked item) or "grade" (the label itself,
    ERR; no threshold) or "pool" (rel(r) with the parameter rel, and which items are judged: an item
    with no judgment is outside the pool, one whose label is below 0 is in the pool but unjudged, as
    trec_eval's form_res_rels.c reads qrels; the SQL then carries the judged and assessed flags). linear: its value is linear in the relevance at each rank, so with
    ties="average" the tie group's mean relevance credited at each of its ranks gives the expected
    value over the orders of the tie (McSherry & Najork, ECIR 2008); a family that is not needs a
    deterministic tie order. values: the range of its per-query values (:data:`VALUES`);
    zero_one_at_1: they are 0 or 1 at cutoff 1 (P@1 = rel(1), RR@1 = rel(1); P@1 is a fraction where
    ties="average" spans rank 1, but a value in [0, 1] with mean p has a variance of at most
    p(1 - p), so the Wilson interval holds there too, only wider). needs_cutoff: a name without @k is
    refused. at: what follows @ (:data:`AT`): a cutoff, a recall level (IPrec@0.5), or nothing. mean: how
    the summary averages the per-query values (:data:`MEANS`; "geometric" needs values "log").
    persistence: it takes RBP's persistence p (default :data:`DEFAULT_P`). aliases: other
    names, lower case (the name's lower case is always accepted). column: the per-query NDCG row
    column that holds a graded family.

    sql (every family but the graded ones): its macro file ``sql/measures/<sql>.sql.j2``, whose macros
    are named ``_<sql>_<piece>`` and called with (ctx, m), m the measure's entry of the templates'
    ``binary_measures`` (sql/options/measure_context.sql: id, k, threshold_id, p, recall, ...):
    ``_<sql>_value`` (always) writes the per-query value from the numerator (``r.numerator_<id>``
    or ``x.counted_<id>``) and R (``c.relevant_<threshold_id>``); ``_<sql>_numerator`` (numerator
    "ranks" or "counts", :data:`NUMERATORS`) the aggregate summing it per query;
    ``_<sql>_running_sum`` (running_sum) a column of the ranked rows summed in rank order, which the
    numerator reads (RBP's p^(r-1)); ``_<sql>_ctes`` (called with the family's measures) and
    ``_<sql>_join`` (numerator "own") CTEs of its own and the join that reads them (ERR).

    Raises ValueError when the record contradicts itself (a kind or range not known, a graded family
    without its column).
    """

    name: str
    formula: str
    source: str
    relevance: str
    linear: bool
    values: str = "unit"
    zero_one_at_1: bool = False
    needs_cutoff: bool = False
    at: str = "cutoff"
    mean: str = "arithmetic"
    persistence: bool = False
    aliases: tuple[str, ...] = ()
    column: str | None = None
    sql: str | None = None
    numerator: str = "ranks"
    running_sum: bool = False

    def __post_init__(self) -> None:
        if self.relevance not in RELEVANCE:
            raise ValueError(f"{self.name}: relevance must be one of {RELEVANCE}; got {self.relevance!r}")
        if self.values not in VALUES:
            raise ValueError(f"{self.name}: values must be one of {VALUES}; got {self.values!r}")
        if (self.relevance == "gain") != (self.column is not None):
            raise ValueError(f"{self.name}: a family has a per-query NDCG column exactly when it reads the gain")
        if self.zero_one_at_1 and self.values != "unit":
            raise ValueError(f"{self.name}: zero_one_at_1 narrows a unit range only")
        if self.at not in AT:
            raise ValueError(f"{self.name}: at must be one of {AT}; got {self.at!r}")
        if self.mean not in MEANS:
            raise ValueError(f"{self.name}: mean must be one of {MEANS}; got {self.mean!r}")
        if (self.mean == "geometric") != (self.values == "log"):
            raise ValueError(f"{self.name}: a geometric mean is the mean of logarithms (values='log'), and only it is")
        if self.needs_cutoff and self.at == "none":
            raise ValueError(f"{self.name}: a family that takes nothing after @ cannot need it")
        if (self.sql is None) != self.graded:
            raise ValueError(f"{self.name}: a family has a macro file (sql) exactly when it does not read the gain")
        if self.sql is not None and not re.fullmatch(r"[a-z][a-z0-9_]*", self.sql):
            raise ValueError(f"{self.name}: sql names a macro file, in lower case letters, digits and _; got {self.sql!r}")
        if self.numerator not in NUMERATORS:
            raise ValueError(f"{self.name}: numerator must be one of {NUMERATORS}; got {self.numerator!r}")

    @property
    def macro_file(self) -> str | None:
        """Its macro file, relative to ``sql/`` (None for a graded family)."""
        return None if self.sql is None else f"{FAMILY_MACROS}/{self.sql}.sql.j2"

    @property
    def macros(self) -> tuple[str, ...]:
        """The names of the macros its file defines (empty for a graded family)."""
        if self.sql is None:
            return ()
        pieces = ["value"]
        pieces += ["ctes", "join"] if self.numerator == "own" else ["numerator"]
        if self.running_sum:
            pieces.append("running_sum")
        return tuple(f"_{self.sql}_{piece}" for piece in pieces)

    @property
    def graded(self) -> bool:
        """Computed from the gain (the gain option applies; no threshold)."""
        return self.relevance == "gain"

    @property
    def judged(self) -> bool:
        """Looks at which items are judged."""
        return self.relevance == "judged"

    @property
    def takes_threshold(self) -> bool:
        """Takes the relevance threshold rel (its parameter rel is refused otherwise)."""
        return self.relevance in ("threshold", "pool")

    @property
    def pooled(self) -> bool:
        """Tells judged relevant, judged non-relevant, pooled but unjudged and unpooled items apart."""
        return self.relevance == "pool"


#: Every measure family, in the order of the documentation's table. Adding a family is adding its
#: record here and its macro file sql/measures/<sql>.sql.j2 (docs/architecture.md, "Adding a measure").
FAMILIES: tuple[Family, ...] = (
    Family("CG", "sum_{r<=k} gain(label_r)", "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002",
           relevance="gain", linear=True, values="unbounded", column="cg"),
    Family("DCG", "sum_{r<=k} gain(label_r) * discount(r) (discount option: default 1/log2(r + 1))",
           "Jarvelin & Kekalainen, ACM TOIS 20(4) 2002",
           relevance="gain", linear=True, values="unbounded", column="dcg"),
    Family("nDCG", "DCG@k / IDCG@k (IDCG@k: DCG@k of the ideal ranking)",
           "Jarvelin & Kekalainen 2002; trec_eval ndcg_cut",
           relevance="gain", linear=True, column="ndcg"),
    Family("P", "sum_{r<=k} rel(r) / k (k even when the list is shorter)",
           "trec_eval P_k; Manning et al., IR book ch. 8",
           relevance="threshold", linear=True, zero_one_at_1=True, needs_cutoff=True, sql="p"),
    Family("R", "sum_{r<=k} rel(r) / R (0 when R = 0)", "trec_eval recall_k; Manning et al., IR book ch. 8",
           relevance="threshold", linear=True, needs_cutoff=True, sql="r"),
    Family("AP", "sum_{r<=k, rel(r)=1} P@r / R (0 when R = 0; k = the whole list without @k)",
           "trec_eval map / map_cut_k; Buckley & Voorhees, SIGIR 2000",
           relevance="threshold", linear=False, aliases=("map",), sql="ap"),
    Family("RR", "1 / (rank of the first relevant item at or above k), 0 if none",
           "trec_eval recip_rank; Voorhees, TREC-8 QA 1999",
           relevance="threshold", linear=False, zero_one_at_1=True, aliases=("mrr",), sql="rr"),
    Family("Success", "1 if some item at rank <= k is relevant, else 0", "trec_eval success_k; ir_measures Success",
           relevance="threshold", linear=False, values="zero_one", needs_cutoff=True, aliases=("hit",),
           sql="success"),
    Family("Judged",
           "judged items at ranks <= k / min(k, list length) (judged: has a row in the judgments, whatever its "
           "label; without judgments every ranked item is judged; 0 for a query missing from the run)",
           "ir_measures Judged (after OpenNIR's judged@k); Sakai, SIGIR 2007 on unjudged items",
           relevance="judged", linear=True, zero_one_at_1=True, sql="judged"),
    Family("RBP",
           "(1 - p) * sum_{r<=k} p^(r-1) * rel(r) (p the persistence, default 0.8; k = the whole list without @k)",
           "Moffat & Zobel, ACM TOIS 27(1) 2008; ir_measures RBP (cwl_eval)",
           relevance="threshold", linear=True, persistence=True, sql="rbp", running_sum=True),
    Family("RBPResidual",
           "the most unjudged items could add to RBP: (1 - p) * sum_{r<=min(k,n), unjudged} p^(r-1) + p^min(k,n) "
           "- p^k (n the list length; p^k is 0 without @k); without judgments only the items past the list",
           "Moffat & Zobel, ACM TOIS 27(1) 2008, section 4 (residuals)",
           relevance="judged", linear=True, persistence=True, sql="rbp_residual", running_sum=True),
    Family("ERR",
           "sum_{r<=k} R_r / r * prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^g_max for label g, g_max the max_grade "
           "option (default 4, gdeval.pl's MAX_JUDGMENT; a larger label raises InputError, as gdeval.pl refuses "
           "it); k = the whole list without @k",
           "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009; gdeval.pl (TREC Web track) through ir_measures ERR",
           relevance="grade", linear=False, sql="err", numerator="own"),
    Family("Bpref",
           "sum_{r: rel(r)=1} (1 - min(N_above(r), R) / min(N, R)) / R, a term 1 where N_above(r) = 0 (0 when R = 0); "
           "N: judged non-relevant items (label from 0 to below rel), N_above(r): those ranked above r; items without "
           "a judgment, or judged below 0 (in the pool, unjudged), are passed over",
           "Buckley & Voorhees, SIGIR 2004; trec_eval bpref (m_bpref.c); ir_measures Bpref",
           relevance="pool", linear=False, at="none", sql="bpref", numerator="counts"),
    Family("infAP",
           "sum_{r: rel(r)=1} (1/r + (J_above(r) / r) * (rel_above(r) + e) / (rel_above(r) + N_above(r) + 2e)) / R "
           f"(0 when R = 0; e = {INFAP_EPSILON:g}): J_above(r) the items above r with a judgment (a label below 0 "
           "marks one pooled but unjudged), rel_above and N_above the relevant and non-relevant ones among them",
           "Yilmaz & Aslam, CIKM 2006; trec_eval infAP (m_infap.c); ir_measures infAP",
           relevance="pool", linear=False, at="none", sql="infap", numerator="counts"),
    Family("Rprec", "sum_{r<=R} rel(r) / R, precision at rank R (0 when R = 0)",
           "Buckley & Voorhees, in TREC: Experiment and Evaluation, MIT Press 2005; trec_eval Rprec; ir_measures Rprec",
           relevance="threshold", linear=True, at="none", sql="rprec", numerator="counts"),
    Family("IPrec",
           "max over ranks j >= r_c of P@j, r_c the rank of the c-th relevant item, c = floor(x * R + 0.9) for "
           "IPrec@x (pytrec_eval's trec_eval 9; trec_eval 10 rounds x * R instead); c = 0: max over every rank; 0 "
           "when fewer than c relevant items are ranked",
           "trec_eval iprec_at_recall (m_iprec_at_recall.c); ir_measures IPrec; Manning et al., IR book ch. 8.4",
           relevance="threshold", linear=False, needs_cutoff=True, at="recall", sql="iprec",
           numerator="counts"),
    Family("gm_map",
           f"per query ln(max(AP, {GM_FLOOR:g})) (trec_eval's per-query value); the summary is exp of their mean, "
           "the geometric mean of AP",
           "Robertson, CIKM 2006 (GMAP); trec_eval gm_map (m_gm_map.c, MIN_GEO_MEAN)",
           relevance="threshold", linear=False, values="log", at="none", mean="geometric", aliases=("gmap",),
           sql="gm_map"),
    Family("SetP", "sum_{r<=n} rel(r) / n, the precision of the whole list (n its length; 0 for a query missing "
           "from the run)", "trec_eval set_P (m_set_P.c: num_rel_ret / num_ret); ir_measures SetP",
           relevance="threshold", linear=True, at="none", aliases=("set_p",), sql="setp"),
    Family("SetR", "sum_{r<=n} rel(r) / R, the recall of the whole list (n its length; 0 when R = 0)",
           "trec_eval set_recall (m_set_recall.c: num_rel_ret / num_rel); ir_measures SetR",
           relevance="threshold", linear=True, at="none", aliases=("set_recall",), sql="setr"),
)
#: Each family's record by its name.
BY_NAME: dict[str, Family] = {family.name: family for family in FAMILIES}
#: Every accepted name, lower case -> the family's name (read case-insensitively). NDCG = nDCG,
#: MAP = AP, MRR = RR, Hit = Success (the summary reports the mean over queries, so MAP is the mean
#: of AP and MRR the mean of RR).
ALIASES: dict[str, str] = {alias: family.name for family in FAMILIES
                           for alias in (family.name.lower(), *family.aliases)}
_NAME = re.compile(r"^\s*(?P<family>[A-Za-z_]+)\s*(?:\((?P<params>[^)]*)\))?\s*(?:@\s*(?P<k>[^\s]+))?\s*$")


@dataclass(frozen=True)
class Measure:
    """One measure: family (the name of one of :data:`FAMILIES`), cutoff k (None = the
    whole list), relevance threshold rel (families with a threshold only), persistence p
    (families with a persistence only) and recall level (IPrec only: IPrec@0.5)."""

    family: str
    k: int | None = None
    rel: float | None = None
    p: float | None = None
    recall: float | None = None

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
        if self.recall is not None:  # a float, as ir_measures writes it: IPrec@1.0
            text += f"@{float(self.recall)!r}"
        return text

    @property
    def threshold(self) -> float:
        return 1.0 if self.rel is None else self.rel

    def definition(self) -> dict[str, object]:
        family = BY_NAME[self.family]
        out: dict[str, object] = {"measure": self.name, "formula": family.formula, "source": family.source}
        if family.takes_threshold:
            out["relevant"] = f"label >= {_number_text(self.threshold)}"
        if family.persistence:
            out["persistence"] = DEFAULT_P if self.p is None else self.p
        return out


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def grammar() -> dict:
    """The measure-name grammar as the resolution macros read it (sql/options/parse_measures.sql;
    the dbt package has it as the generated macro ``ndcg_sql._measure_grammar()``), read from
    :data:`FAMILIES`: the names of the families with each property, in the order of the records."""
    def having(test) -> list[str]:
        return [family.name for family in FAMILIES if test(family)]

    return {
        "pattern": _NAME.pattern,
        "aliases": dict(ALIASES),
        "graded": having(lambda f: f.graded),
        "linear": having(lambda f: f.linear),
        "need_cutoff": having(lambda f: f.needs_cutoff),
        "unbounded": having(lambda f: f.values == "unbounded"),
        "zero_one": having(lambda f: f.values == "zero_one"),
        "zero_one_at_1": having(lambda f: f.zero_one_at_1),
        "no_threshold": having(lambda f: not f.graded and not f.takes_threshold),
        "judged": having(lambda f: f.judged),
        "persistence": having(lambda f: f.persistence),
        "pool": having(lambda f: f.pooled),
        "at_recall": having(lambda f: f.at == "recall"),
        "no_at": having(lambda f: f.at == "none"),
        "log": having(lambda f: f.values == "log"),
        "geometric": having(lambda f: f.mean == "geometric"),
        "gm_floor": GM_FLOOR,
        "infap_epsilon": INFAP_EPSILON,
        "default_p": DEFAULT_P,
        "err_max_grade": ERR_MAX_GRADE,
        "graded_column": {family.name: family.column for family in FAMILIES if family.graded},
        "sql": {family.name: {"macros": f"_{family.sql}", "numerator": family.numerator,
                              "running_sum": family.running_sum} for family in FAMILIES if not family.graded},
    }


def of(parsed: Iterable[dict]) -> tuple[Measure, ...]:
    """Measures from the dicts sql/options/parse_measures.sql returns."""
    return tuple(Measure(m["family"], m["k"], m["rel"], m.get("p"), m.get("recall")) for m in parsed)
