"""An independent numpy reference for CG/DCG/IDCG/NDCG@k, written from the formulas.

It shares no code with ndcg_sql: it sorts lists in Python, sums with numpy,
and implements tie averaging from McSherry & Najork (ECIR 2008) directly.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np


def gain_of(label: float, gain) -> float:
    if isinstance(gain, dict):
        return float(gain[label])
    if gain == "exponential":
        return 2.0 ** label - 1.0
    return float(label)


def discount(ranks: np.ndarray, kind: str = "log", base: float = 2.0) -> np.ndarray:
    """For 1-based ranks: 1 / log_base(rank + 1) ("log"; base 2: Burges et al. 2005), or the
    original Jarvelin & Kekalainen (2002) discount ("jarvelin"): 1 below rank base, 1 / log_base(rank) from it."""
    ranks = np.asarray(ranks, dtype=float)
    if kind == "jarvelin":
        return np.where(ranks < base, 1.0, np.log(base) / np.log(np.maximum(ranks, base)))
    return np.log(base) / np.log(ranks + 1.0)


def _item_key(item):
    return item.encode("utf-8") if isinstance(item, str) else item


def dcg(gains_in_order: list[float], k: int | None, kind: str = "log", base: float = 2.0) -> tuple[float, float]:
    """(CG@k, DCG@k) of gains listed from rank 1 down."""
    g = np.asarray(gains_in_order, dtype=float)
    if k is not None:
        g = g[:k]
    ranks = np.arange(1, len(g) + 1, dtype=float)
    return float(g.sum()), float((g * discount(ranks, kind, base)).sum())


def tie_averaged(scores: list[float], gains: list[float], k: int | None, higher_is_better=True, kind="log", base=2.0):
    """(CG@k, DCG@k) where each tie group shares its mean gain over the positions it spans."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i] if higher_is_better else scores[i])
    cg = total = 0.0
    position = 0  # 0-based first position of the current group
    i = 0
    limit = len(order) if k is None else k
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        members = order[i : j + 1]
        mean_gain = float(np.mean([gains[m] for m in members]))
        if all(gains[m] == gains[members[0]] for m in members):
            mean_gain = gains[members[0]]
        first, last = position, position + len(members)  # positions [first, last)
        covered = np.arange(first, min(last, limit), dtype=float) + 1.0
        if len(covered):
            total += mean_gain * float(discount(covered, kind, base).sum())
            cg += mean_gain * len(covered)
        position = last
        i = j + 1
    return cg, total


def evaluate(
    rows,
    cutoffs,
    *,
    gain="exponential",
    ties="average",
    no_relevant="zero",
    judgments=None,
    missing_queries="ignore",
    higher_is_better=True,
    discount_kind="log",
    log_base=2.0,
):
    """Per-(query, k) values {(qid, k): (cg, dcg, idcg, ndcg)} and mean NDCG per k.

    rows: iterable of (qid, item, score_or_rank, label); label ignored with
    judgments, which is an iterable of (qid, item, label).
    """
    by_query = defaultdict(list)
    for qid, item, score, label in rows:
        by_query[qid].append((item, float(score), label))
    judged = None
    if judgments is not None:
        judged = defaultdict(dict)
        for qid, item, label in judgments:
            judged[qid][item] = float(label)
    out = {}
    queries = sorted(by_query) if judged is None else sorted(q for q in judged if q in by_query or missing_queries == "zero")
    for qid in queries:
        items = by_query.get(qid, [])
        if judged is not None:
            labels = [judged[qid].get(item, 0.0) for item, _, _ in items]
            ideal_labels = list(judged[qid].values())
        else:
            labels = [float(label) for _, _, label in items]
            ideal_labels = labels
        gains = [gain_of(label, gain) for label in labels]
        ideal = sorted((gain_of(label, gain) for label in ideal_labels), reverse=True)
        scores = [score for _, score, _ in items]
        for k in cutoffs:
            if ties == "average":
                cg, d = tie_averaged(scores, gains, k, higher_is_better, discount_kind, log_base)
            else:
                sign = -1 if higher_is_better else 1
                reverse_items = ties == "item-desc"
                idx = sorted(range(len(items)), key=lambda i: _item_key(items[i][0]), reverse=reverse_items)
                idx = sorted(idx, key=lambda i: sign * scores[i])  # stable: item order kept inside ties
                cg, d = dcg([gains[i] for i in idx], k, discount_kind, log_base)
            _, ideal_dcg = dcg(ideal, k, discount_kind, log_base)
            if ideal_dcg > 0:
                n = d / ideal_dcg
            else:
                n = {"zero": 0.0, "skip": None, "one": 1.0}[no_relevant]
            out[(qid, k)] = (cg, d, ideal_dcg, n)
    means = {}
    for k in cutoffs:
        values = [v[3] for (q, kk), v in out.items() if kk == k and v[3] is not None]
        means[k] = (float(np.mean(values)) if values else None, len(values))
    return out, means


def close(a, b, tol=1e-9) -> bool:
    """Numbers within tol (relative and absolute); None only equal to None, text to the same text."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


# ---- binary-relevance measures (P, R, AP, RR, Success), from their textbook definitions ----


def ordered_labels(items, ties: str, higher_is_better=True):
    """Labels in rank order; items: list of (item, score, label); ties item-asc / item-desc."""
    sign = -1 if higher_is_better else 1
    idx = sorted(range(len(items)), key=lambda i: _item_key(items[i][0]), reverse=ties == "item-desc")
    idx = sorted(idx, key=lambda i: sign * items[i][1])
    return [items[i][2] for i in idx]


def binary_measure(family: str, labels_in_order, relevant_total: int, k, rel: float = 1.0) -> float:
    """One measure of one query from the labels in rank order (Manning et al. ch. 8; trec_eval)."""
    hits = [1 if label >= rel else 0 for label in labels_in_order]
    top = hits if k is None else hits[:k]
    if family == "P":
        return sum(top) / k
    if family == "R":
        return sum(top) / relevant_total if relevant_total else 0.0
    if family == "AP":
        precisions = [sum(top[: i + 1]) / (i + 1) for i, h in enumerate(top) if h]
        return sum(precisions) / relevant_total if relevant_total else 0.0
    if family == "RR":
        return next((1.0 / (i + 1) for i, h in enumerate(top) if h), 0.0)
    if family == "Success":
        return 1.0 if any(top) else 0.0
    raise ValueError(family)


def expected_precision_with_ties(items, k, rel, relevant_total=None):
    """Tie-averaged P@k (or R@k given relevant_total): every tie group's mean
    relevance credited at each of its positions (McSherry & Najork 2008)."""
    scores = [s for _, s, _ in items]
    hits = [1.0 if label >= rel else 0.0 for _, _, label in items]
    credited = tie_averaged(scores, hits, k)[0]
    if relevant_total is None:
        return credited / k
    return credited / relevant_total if relevant_total else 0.0


def measures(rows, asked, *, ties="item-desc", judgments=None, missing_queries="ignore"):
    """{(qid, name): value} for asked = [(name, family, k, rel)] over rows (qid, item, score, label)."""
    by_query = defaultdict(list)
    for qid, item, score, label in rows:
        by_query[qid].append((item, float(score), float(label)))
    if judgments is not None:
        judged = defaultdict(dict)
        for qid, item, label in judgments:
            judged[qid][item] = float(label)
        queries = [q for q in judged if q in by_query or missing_queries == "zero"]
    else:
        judged, queries = None, list(by_query)
    out = {}
    for qid in queries:
        items = by_query.get(qid, [])
        if judged is not None:
            items = [(item, score, judged[qid].get(item, 0.0)) for item, score, _ in items]
            pool = list(judged[qid].values())
        else:
            pool = [label for _, _, label in items]
        for name, family, k, rel in asked:
            total = sum(1 for label in pool if label >= rel)
            if ties == "average":
                value = expected_precision_with_ties(items, k, rel, None if family == "P" else total)
            else:
                value = binary_measure(family, ordered_labels(items, ties), total, k, rel)
            out[(qid, name)] = value
    return out


# ---- measures beyond the peers: Judged, RBP, ERR (from their papers' and tools' definitions) ----


def judged_share(items, judged: set, k, ties="item-asc", higher_is_better=True) -> float:
    """Judged@k (ir_measures Judged): judged items in the top k / min(k, list length).
    items: list of (item, score, label); judged: the judged item ids; ties item-asc / item-desc
    or "average" (the tie group's mean judged share at each of its positions)."""
    if not items:
        return 0.0
    depth = len(items) if k is None else min(k, len(items))
    flags = [1.0 if item in judged else 0.0 for item, _, _ in items]
    if ties == "average":
        return tie_averaged([s for _, s, _ in items], flags, depth, higher_is_better)[0] / depth
    sign = -1 if higher_is_better else 1
    idx = sorted(range(len(items)), key=lambda i: _item_key(items[i][0]), reverse=ties == "item-desc")
    idx = sorted(idx, key=lambda i: sign * items[i][1])
    return sum(flags[i] for i in idx[:depth]) / depth


def rank_biased_precision(labels_in_order, judged_flags, p: float, k, rel: float = 1.0) -> tuple[float, float]:
    """(RBP, residual) of one query, Moffat & Zobel (TOIS 2008): RBP = (1 - p) sum_{i<=k} p^(i-1) [label_i >= rel];
    the residual is what unjudged items at ranks <= min(k, n) and the ranks past the list (up to k, or all)
    could add were they relevant."""
    n = len(labels_in_order)
    depth = n if k is None else min(k, n)
    rbp = (1 - p) * sum(p ** i for i, label in enumerate(labels_in_order[:depth]) if label >= rel)
    unjudged = (1 - p) * sum(p ** i for i, flag in enumerate(judged_flags[:depth]) if not flag)
    beyond = p ** depth - (0.0 if k is None else p ** k)
    return rbp, unjudged + beyond


def expected_reciprocal_rank(labels_in_order, k, g_max: int = 4) -> float:
    """ERR@k (Chapelle et al., CIKM 2009) as gdeval.pl computes it: R = (2^g - 1) / 2^g_max; labels
    above g_max counted as g_max (gdeval refuses them)."""
    top = labels_in_order if k is None else labels_in_order[:k]
    value, reach = 0.0, 1.0
    for rank, label in enumerate(top, start=1):
        stop = (2.0 ** min(max(label, 0.0), g_max) - 1.0) / 2.0 ** g_max
        value += reach * stop / rank
        reach *= 1.0 - stop
    return value


def unjudged_worklist(runs: dict, judged: set, depth: int, ties: str = "average", weights: dict | None = None,
                      kind: str = "log", base: float = 2.0) -> dict:
    """What to judge next, from the definition: {(query, item): (best rank, [run names], exposure)}
    of every (query, item) a run shows within depth that is not in ``judged``.

    Args:
        runs: {name: [(query, item, score)]}, higher scores first.
        judged: the judged (query, item) pairs.
        ties: "average": an item of a tie group of m equal scores at positions a..a+m-1 stands at
            each alike (McSherry & Najork 2008): rank a, shown when a <= depth, exposure the mean
            discount of the group's positions within depth; "item-asc" / "item-desc": the tie
            broken by the item id's bytes, rank its position, exposure the discount there.
        weights: {name: {query: weight}}, multiplying that run's exposures (default 1).
    """
    found: dict = {}
    for name, rows in runs.items():
        by_query = defaultdict(list)
        for query, item, score in rows:
            by_query[query].append((item, float(score)))
        for query, listed in by_query.items():
            weight = (weights or {}).get(name, {}).get(query, 1.0)
            shown = []
            if ties == "average":
                scores = np.array([score for _, score in listed])
                for item, score in listed:
                    first, size = int(np.sum(scores > score)) + 1, int(np.sum(scores == score))
                    positions = np.arange(first, first + size)
                    if first <= depth:
                        within = discount(positions[positions <= depth], kind, base)
                        shown.append((item, first, float(np.sum(within)) / size))
            else:
                ordered = sorted(listed, key=lambda pair: _item_key(pair[0]), reverse=ties == "item-desc")
                ordered = sorted(ordered, key=lambda pair: -pair[1])  # stable: the tie-break stays
                for position, (item, _) in enumerate(ordered[:depth], 1):
                    shown.append((item, position, float(discount(np.array([position]), kind, base)[0])))
            for item, rank, exposure in shown:
                if (query, item) in judged:
                    continue
                best, names, total = found.get((query, item), (rank, [], 0.0))
                found[(query, item)] = (min(best, rank), names + [name], total + weight * exposure)
    return found


# ---------------------------------------------------------------- a sample of the queries
#: The generator's modulus (sql/random_draws.sql.j2): 2^31 - 1.
PRIME = 2**31 - 1


def _generator_rounds(x: int) -> int:
    for c in (7, 12345, 1664525, 1013904223):
        x = pow((x + c) % PRIME, 5, PRIME)
    return x


def _key_text(*parts) -> str:
    """A query key's text as the SQL writes it: each part its length, ':' and its text (NULL '~')."""
    return "".join("~" if part is None else f"{len(str(part))}:{part}" for part in parts)


def _key_hash(key: str, base: int, width: int = 12) -> int:
    total = (len(key) * pow(base, 2 * width + 1, PRIME)) % PRIME
    for i in range(1, width + 1):
        total += (ord(key[i - 1]) if len(key) >= i else 0) * pow(base, i, PRIME) % PRIME
        total += (ord(key[len(key) - i]) if len(key) >= i else 0) * pow(base, width + i, PRIME) % PRIME
    return total % PRIME


def in_sample(parts: tuple, fraction: float, seed: int) -> bool:
    """Whether the query key ``parts`` (segment values..., query id) is in the sample: its draw,
    keyed by (seed, 2^31 - 2, hash_31, hash_37) of the key's text, below round(fraction (2^31 - 1))
    (sql/query_sample.sql.j2)."""
    key = _key_text(*parts)
    state = ((((seed % PRIME) * 1000003 + PRIME - 1) % PRIME * 1000003 + _key_hash(key, 31)) % PRIME * 1000003
             + _key_hash(key, 37)) % PRIME
    return _generator_rounds(state) < round(fraction * PRIME)
