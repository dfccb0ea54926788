"""Peer conventions: one name sets every option so the numbers match that tool (data only).

The rule that applies them (a given option that contradicts the convention is an error, and
so is an option the tool does not have) is ``sql/options/resolve_convention.sql``, with
``sql/options/weight_rule.sql`` for query weights, rendered by the Python runner and dbt alike.

Each entry says what the tool does (and where that is decided in its source or
documentation); the tests run the tool itself on the bundled data and compare
to 1e-9 (tests/test_conventions.py; every convention with every option that combines with it,
reproduced or refused: tests/test_convention_options.py).

Every tool's discount is 1/log2(rank + 1) (``discount="log"``, ``log_base=2``); scikit-learn's
``dcg_score`` takes ``log_base``, so the sklearn convention leaves log_base free (NDCG does not
depend on it).

| convention    | gain        | ties             | ideal           | no relevant | scores  | negative labels |
|---------------|-------------|------------------|-----------------|-------------|---------|-----------------|
| trec_eval     | linear      | item-desc (text) | judgments/list  | 0           | float32 | 0, not judged   |
| sklearn       | linear      | average          | list            | 0           | double  | error           |
| lightgbm      | 2^label - 1 | input-order      | list            | 1           | double  | error           |
| xgboost       | 2^label - 1 | input-order      | list            | 1           | float32 | error           |
| xgboost-minus | 2^label - 1 | input-order      | list            | 0           | float32 | error           |

What a convention combines with (every other option, cutoffs, segments, intervals and the
bootstrap among them, gives the tool's numbers):

| convention    | query weights (``weight_col``)            | measures (``peer_measures``)     | judgments |
|---------------|-------------------------------------------|----------------------------------|-----------|
| trec_eval     | refused (``weights=False``)               | nDCG, P, R, AP, RR, Success,     | yes       |
|               |                                           | Bpref, infAP, Rprec, IPrec,      |           |
|               |                                           | gm_map, SetP, SetR               |           |
| sklearn       | ``sample_weight``: sum(w x) / sum(w)      | nDCG, DCG (``dcg_score``)        | refused   |
| lightgbm      | no relevant item adds 1, not w; k only    | nDCG, AP (``map@k``)             | refused   |
| xgboost       | no relevant item adds 1, not w; k only    | nDCG, AP (``map@k``), P (``pre@k``) | refused |
| xgboost-minus | one weight per query: sum(w x) / sum(w)   | nDCG, AP (``map@k-``), P (``pre@k``) | refused |

A measure outside ``peer_measures`` is refused: the tool does not compute it (ERR, RBP and Judged come
from other tools than trec_eval, each with its own tie order). Under the conventions of LightGBM and
XGBoost the measures their tools compute are read as the tools read them (``thresholds=False``: no
``rel=`` parameter, relevant is a label of 1 or more, or for LightGBM ``relevant_from``);
``ap_reading="min(R,k)"``: AP@k divides by min(R, k), and a query without a relevant item counts
the convention's ``no_relevant`` (1; 0 under xgboost-minus: LightGBM ``map_metric.hpp``
``CalMapAtK``, XGBoost ``rank_metric.cc`` ``EvalMAPScore``); ``p_reading="min(k,n)"``: P@k divides
by min(k, list length) (XGBoost ``EvalPrecision``); ``binary_labels``: the measures XGBoost computes
only on labels 0 and 1 ("map can only be used with binary labels"), so another label is an
``InputError``. ``relevant_from``: the least label the tool's binary measures count relevant, in
place of 1 (LightGBM's map@k: ``label > 0.5`` on float32 labels, so a label 0.7 is relevant and
0.5 is not: :data:`LIGHTGBM_RELEVANT_FROM`). ``integer_labels``: the measures the tool computes on
whole labels only, so a fractional label is an ``InputError`` (LightGBM's ndcg: ``CheckLabel``, "label
should be int type"; XGBoost's ndcg: "label must be either 0 or positive integer"); NDCG rows
(no ``measures``) are its nDCG. ``min_rel``: the lowest ``rel=`` the tool takes (trec_eval 1: pytrec_eval refuses
a relevance level of 0 or less, so ``P(rel=0)@5`` is refused under its convention). ``peer``
names the tool in messages.

Besides the options, two keys say how a convention reads its input: ``label_reading="atol"``
(a label counts with its whole part, as trec_eval's ``get_qrels.c`` reads the relevance level with
``atol``: a qrels label 1.5 is 1) and ``ids="text"`` (every query and item id is compared as text,
``ndcg_sql/building/id_types.py``: trec_eval keeps docnos as strings, so ties break by ``strcmp`` and "9"
comes after "10" in item-desc order).

Sources: trec_eval 10.0 (``trec_eval.h``: ``float sim``; ``form_res_rels.c``:
ties by docno descending, compared with ``strcmp``; ``get_qrels.c``: ``atol`` of the
relevance field; ``m_ndcg_cut.c``: gain = relevance level, negative levels gain 0; ``form_res_rels.c``: a relevance
below 0 marks a document in the pool but not judged, which ``-J`` drops with the documents never
judged, so ``negative_labels="unjudged"``, where Sakai's condensed lists keep every judged
item: ``negative_labels="zero"``); scikit-learn ``ndcg_score`` docs (``ignore_ties=False``, tie
averaging of McSherry & Najork 2008; rows with IDCG 0 give 0); LightGBM
``rank_metric.hpp`` / ``dcg_calculator.cpp`` (``label_gain`` 2^i - 1,
``std::stable_sort`` by score so ties keep input order, a query with IDCG 0
counts 1 - and with query weights it adds 1, not its weight, to the weighted sum: rank_metric.hpp,
``NDCGMetric::Eval``, ``no_relevant_weight="one"``); XGBoost ``rank_metric.cc`` (``ndcg@k`` with exponential gain, float
predictions, a query with IDCG 0 counts 1, ``ndcg@k-`` counts it 0; ``EvalNDCG::Eval``: weights
are one per query group, and a query with IDCG 0 adds 1, not its weight, as LightGBM's; ``Finalize``
stops with "Invalid output score" when the weighted mean exceeds 1, a number ndcg_sql reports).
"""

from __future__ import annotations

#: The least label LightGBM's map@k counts relevant: map_metric.hpp (``MapMetric::Init`` and
#: ``CalMapAtK``) reads ``label[i] > 0.5f`` on its labels stored as float32 (``label_t``), so a label
#: is relevant when its float32 rounding exceeds 0.5, that is from the double after 0.5 + 2^-25
#: (0.5 + 2^-25 itself rounds to even, to 0.5).
LIGHTGBM_RELEVANT_FROM = 0.5 + 2.0 ** -25 + 2.0 ** -53

CONVENTIONS: dict[str, dict] = {
    "trec_eval": dict(discount="log", log_base=2.0, gain="linear", ties="item-desc", no_relevant="zero",
                      score_precision="float32", negative_labels="unjudged", label_reading="atol", ids="text",
                      peer="trec_eval", peer_measures=("nDCG", "P", "R", "AP", "RR", "Success", "Bpref", "infAP", "Rprec",
                                                          "IPrec", "gm_map", "SetP", "SetR"), weights=False, min_rel=1),
    "sklearn": dict(discount="log", gain="linear", ties="average", no_relevant="zero", score_precision="double",
                    negative_labels="error", judgments_allowed=False,
                    peer="scikit-learn", peer_measures=("nDCG", "DCG")),
    "lightgbm": dict(discount="log", log_base=2.0, gain="exponential", ties="input-order",
                     no_relevant="one", score_precision="double",
                     negative_labels="error", judgments_allowed=False, no_relevant_weight="one",
                     peer="LightGBM", peer_measures=("nDCG", "AP"), thresholds=False, ap_reading="min(R,k)",
                     relevant_from=LIGHTGBM_RELEVANT_FROM, integer_labels=("nDCG",)),
    "xgboost": dict(discount="log", log_base=2.0, gain="exponential", ties="input-order",
                    no_relevant="one", score_precision="float32",
                    negative_labels="error", judgments_allowed=False, no_relevant_weight="one",
                    peer="XGBoost", peer_measures=("nDCG", "AP", "P"), thresholds=False, ap_reading="min(R,k)",
                    p_reading="min(k,n)", binary_labels=("AP", "P"), integer_labels=("nDCG",)),
    "xgboost-minus": dict(discount="log", log_base=2.0, gain="exponential", ties="input-order",
                          no_relevant="zero", score_precision="float32",
                          negative_labels="error", judgments_allowed=False,
                          peer="XGBoost", peer_measures=("nDCG", "AP", "P"), thresholds=False, ap_reading="min(R,k)",
                          p_reading="min(k,n)", binary_labels=("AP", "P"), integer_labels=("nDCG",)),
}
#: Other names accepted for ``convention=``, each written as a name given is read (lower-cased,
#: "_" -> "-", then trec-eval -> trec_eval: ir_measures is looked up as ir-measures).
ALIASES = {"pytrec_eval": "trec_eval", "ir-measures": "trec_eval", "scikit-learn": "sklearn",
           "xgboost-": "xgboost-minus"}


def convention_table() -> dict:
    """The table as the resolution macros read it (sql/options/resolve_convention.sql;
    the dbt package has it as the generated macro ``ndcg_sql._convention_table()``)."""
    return {"conventions": CONVENTIONS, "aliases": ALIASES}


def ids_as_text(name: str | None) -> bool:
    """Whether convention ``name`` (canonical, or None) compares every id as text (``ids="text"``:
    trec_eval reads docnos as strings), whatever the columns' types (:func:`ndcg_sql.building.id_types.forms`)."""
    return CONVENTIONS.get(name or "", {}).get("ids") == "text"


def labels_by_atol(name: str | None) -> bool:
    """Whether convention ``name`` (canonical, or None) reads labels as trec_eval does
    (``label_reading="atol"``: the whole number a qrels label starts with)."""
    return CONVENTIONS.get(name or "", {}).get("label_reading") == "atol"
