"""The bundled real data against the numpy reference, with every tie rule and
no-relevant policy (LightGBM lambdarank: graded labels, tied scores, all-zero
queries; TREC DL19 SPLADE++: integer scores with real ties, judgments)."""


import pandas as pd
import pytest

import ndcg_sql
import reference
from conftest import EXAMPLES, per_query_map

CUTOFFS = [1, 3, 5, 10, 20, None]


@pytest.mark.parametrize("ties", ["average", "item-asc", "item-desc"])
@pytest.mark.parametrize("no_relevant", ["zero", "skip", "one"])
def test_lightgbm_train_with_exponential_gain(ties, no_relevant):
    path = EXAMPLES / "lightgbm_lambdarank" / "rank.train.scored.csv"
    data = pd.read_csv(path)
    rows = list(data[["query_id", "doc_id", "score", "label"]].itertuples(index=False, name=None))
    expected, means = reference.evaluate(rows, CUTOFFS, gain="exponential", ties=ties, no_relevant=no_relevant)
    result = ndcg_sql.evaluate(str(path), k=CUTOFFS, item_col="doc_id", ties=ties, no_relevant=no_relevant)
    got = per_query_map(result)
    assert set(got) == set(expected)
    for key, values in expected.items():
        for a, b in zip(got[key], values):
            assert reference.close(a, b), (key, a, b)
    summary = {r["k"]: r for r in result.summary_records()}
    for k in CUTOFFS:
        assert reference.close(summary[k]["ndcg"], means[k][0])
        assert summary[k]["queries"] == means[k][1]
        assert summary[k]["no_relevant"] == 3  # queries 1, 46 and 95 have only label 0


def test_trec_dl19_splade_ties_averaged_with_judgments():
    run = []
    for line in open(EXAMPLES / "trec_dl19_passage" / "run.dl19.splade_pp_ed.top100.txt"):
        q, _, d, _, s, _ = line.split()
        run.append((q, d, float(s), None))
    judgments = []
    for line in open(EXAMPLES / "trec_dl19_passage" / "qrels.dl19-passage.txt"):
        q, _, d, label = line.split()
        judgments.append((q, d, int(label)))
    expected, means = reference.evaluate(run, CUTOFFS, gain="exponential", ties="average", judgments=judgments)
    result = ndcg_sql.evaluate(
        str(EXAMPLES / "trec_dl19_passage" / "run.dl19.splade_pp_ed.top100.txt"),
        k=CUTOFFS,
        judgments=str(EXAMPLES / "trec_dl19_passage" / "qrels.dl19-passage.txt"),
    )
    got = per_query_map(result)
    assert set(got) == set(expected)
    for key, values in expected.items():
        for a, b in zip(got[key], values):
            assert reference.close(a, b), (key, a, b)
