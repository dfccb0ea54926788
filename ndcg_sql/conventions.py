"""Peer conventions: one name sets every option so the numbers match that tool.

Each entry says what the tool does (and where that is decided in its source or
documentation); the tests run the tool itself on the bundled data and compare
to 1e-9 (tests/test_conventions.py).

| convention    | gain        | ties             | ideal           | no relevant | scores  | negative labels |
|---------------|-------------|------------------|-----------------|-------------|---------|-----------------|
| trec_eval     | linear      | item-desc        | judgments/list  | 0           | float32 | 0               |
| sklearn       | linear      | average          | list            | 0           | double  | error           |
| lightgbm      | 2^label - 1 | input-order      | list            | 1           | double  | error           |
| xgboost       | 2^label - 1 | input-order      | list            | 1           | float32 | error           |
| xgboost-minus | 2^label - 1 | input-order      | list            | 0           | float32 | error           |

Sources: trec_eval 10.0 (``trec_eval.h``: ``float sim``; ``form_res_rels.c``:
ties by docno descending; ``m_ndcg_cut.c``: gain = relevance level, negative
levels gain 0); scikit-learn ``ndcg_score`` docs (``ignore_ties=False``, tie
averaging of McSherry & Najork 2008; rows with IDCG 0 give 0); LightGBM
``rank_metric.hpp`` / ``dcg_calculator.cpp`` (``label_gain`` 2^i - 1,
``std::stable_sort`` by score so ties keep input order, a query with IDCG 0
counts 1); XGBoost ``rank_metric.cc`` (``ndcg@k`` with exponential gain, float
predictions, a query with IDCG 0 counts 1, ``ndcg@k-`` counts it 0).
"""

from __future__ import annotations

from .options import OptionError

CONVENTIONS: dict[str, dict] = {
    "trec_eval": dict(gain="linear", ties="item-desc", no_relevant="zero", score_precision="float32",
                      negative_labels="zero"),
    "sklearn": dict(gain="linear", ties="average", no_relevant="zero", score_precision="double",
                    negative_labels="error", judgments_allowed=False),
    "lightgbm": dict(gain="exponential", ties="input-order", no_relevant="one", score_precision="double",
                     negative_labels="error", judgments_allowed=False),
    "xgboost": dict(gain="exponential", ties="input-order", no_relevant="one", score_precision="float32",
                    negative_labels="error", judgments_allowed=False),
    "xgboost-minus": dict(gain="exponential", ties="input-order", no_relevant="zero", score_precision="float32",
                          negative_labels="error", judgments_allowed=False),
}
ALIASES = {"pytrec_eval": "trec_eval", "ir_measures": "trec_eval", "scikit-learn": "sklearn",
           "xgboost-": "xgboost-minus"}
#: The evaluate() defaults of the options a convention sets.
DEFAULTS = dict(gain="exponential", ties="average", no_relevant="zero", score_precision="double",
                negative_labels="error")


def resolve(convention: str | None, given: dict, judgments: bool) -> dict:
    """The option values to use.

    Args:
        convention: a name of :data:`CONVENTIONS` (or an alias), or None.
        given: the caller's values of gain, ties, no_relevant,
            score_precision, negative_labels (defaults count as not given).
        judgments: whether judgments were given.

    Returns:
        ``given`` with the convention's values filled in, and "convention"
        (the canonical name) when one is given.

    Raises:
        OptionError: unknown convention, a given value that contradicts it,
            or judgments with a convention whose ideal is the list.
    """
    if convention is None:
        return dict(given)
    name = ALIASES.get(str(convention).lower().replace("_", "-").replace("trec-eval", "trec_eval"),
                       str(convention).lower().replace("_", "-").replace("trec-eval", "trec_eval"))
    if name not in CONVENTIONS:
        raise OptionError(f"convention must be one of {', '.join(CONVENTIONS)}; got {convention!r}")
    preset = CONVENTIONS[name]
    if judgments and not preset.get("judgments_allowed", True):
        raise OptionError(f"convention {name!r} takes the ideal ranking from the list itself; give labels, not judgments")
    out = dict(given, convention=name)
    for key, value in preset.items():
        if key == "judgments_allowed":
            continue
        mine = given.get(key, DEFAULTS[key])
        if mine != DEFAULTS[key] and mine != value:
            raise OptionError(f"convention {name!r} sets {key}={value!r}; got {key}={mine!r}")
        out[key] = value
    return out
