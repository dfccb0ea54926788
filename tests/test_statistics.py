"""Standard errors, intervals and paired comparisons against scipy and numpy."""

import csv
import io
import json

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ndcg_sql
from conftest import EXAMPLES
from ndcg_sql import cli
from test_cli import run_cli

TOL = dict(rel=1e-9, abs=1e-9)
DL = EXAMPLES / "trec_dl19_passage"
BM25 = str(DL / "run.dl19.bm25.top100.txt")
SPLADE = str(DL / "run.dl19.splade_pp_ed.top100.txt")
QRELS = str(DL / "qrels.dl19-passage.txt")
TREC = dict(judgments=QRELS, gain="linear", ties="item-desc")
Z = stats.norm.ppf(0.975)


def test_summary_intervals_match_scipy():
    result = ndcg_sql.evaluate(BM25, k=[5, 10, None], intervals=True, **TREC)
    per_query = pd.DataFrame(result.per_query_records())
    for row in result.summary_records():
        values = per_query.loc[per_query["k"].isna() if row["k"] is None else per_query["k"] == row["k"], "ndcg"]
        se = stats.sem(values)
        assert row["stderr"] == pytest.approx(se, **TOL)
        assert row["ci_low"] == pytest.approx(values.mean() - Z * se, **TOL)
        assert row["ci_high"] == pytest.approx(values.mean() + Z * se, **TOL)


def test_measure_summary_intervals_match_scipy():
    result = ndcg_sql.evaluate(BM25, measures=["AP", "P@10"], **TREC)
    per_query = pd.DataFrame(result.per_query_records())
    for row in result.summary_records():
        values = per_query.loc[per_query["measure"] == row["measure"], "value"]
        interval = stats.norm.interval(0.95, loc=values.mean(), scale=stats.sem(values))
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(interval, **TOL)


def test_one_query_has_no_interval():
    data = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [2.0, 1.0], "label": [0, 1]})
    row = ndcg_sql.evaluate(data, k=1, intervals=True).summary_records()[0]
    assert row["queries"] == 1 and row["stderr"] is None and row["ci_low"] is None


def successes(hits: int, queries: int = 20, segments=None) -> pd.DataFrame:
    """queries lists of two items; the top item of the first `hits` is relevant, no other item
    is: Success@k, P@1, RR, nDCG@k and DCG@k (exponential gain, label 1) are 1 for those
    queries and 0 for the others."""
    rows = [(q, "a", 2.0, int(q < hits)) for q in range(queries)] + [(q, "b", 1.0, 0) for q in range(queries)]
    data = pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])
    if segments:
        data = pd.concat([data.assign(arm=arm) for arm in segments], ignore_index=True)
    return data


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The Wilson score interval from its formula (Wilson 1927), z = Phi^-1(0.975)."""
    p = hits / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * np.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))
    return centre - half, centre + half


#: The interval's method of each measure, by the range of its per-query values: 0 or 1, in [0, 1], unbounded.
METHODS = {"Success@10": "wilson", "Success@1": "wilson", "P@1": "wilson", "RR@1": "wilson", "P(rel=2)@1": "wilson",
           "nDCG@10": "normal, clipped to [0, 1]", "nDCG": "normal, clipped to [0, 1]", "P@2": "normal, clipped to [0, 1]",
           "R@1": "normal, clipped to [0, 1]", "AP@1": "normal, clipped to [0, 1]", "AP": "normal, clipped to [0, 1]",
           "RR": "normal, clipped to [0, 1]", "DCG@5": "normal", "CG@2": "normal"}


def test_each_measure_names_the_method_of_its_interval():
    result = ndcg_sql.evaluate(successes(19), measures=list(METHODS), ties="item-asc")
    assert {row["measure"]: row["ci_method"] for row in result.summary_records()} == METHODS
    ndcg = ndcg_sql.evaluate(successes(19), k=[1, None], intervals=True).summary_records()
    assert [row["ci_method"] for row in ndcg] == ["normal, clipped to [0, 1]"] * 2


@pytest.mark.parametrize("hits", [19, 20, 1, 0, 10])
def test_binary_measures_get_the_wilson_interval(hits):
    """Success@10 on 20 queries: the normal interval of 19 of 20 reaches 1.048; Wilson's stays in
    [0, 1] and equals scipy's binomtest(...).proportion_ci(method='wilson') and the formula."""
    rows = ndcg_sql.evaluate(successes(hits), measures=["Success@10", "P@1", "RR@1"], ties="item-asc").summary_records()
    values = np.array([1.0] * hits + [0.0] * (20 - hits))
    expected = stats.binomtest(hits, 20).proportion_ci(confidence_level=0.95, method="wilson")
    assert (expected.low, expected.high) == pytest.approx(wilson(hits, 20), **TOL)
    if hits == 19:
        assert values.mean() + Z * stats.sem(values) > 1  # what the normal interval would give
    for row in rows:
        assert row["ci_method"] == "wilson" and row["queries"] == 20
        assert row["mean"] == pytest.approx(hits / 20, **TOL)
        assert row["stderr"] == pytest.approx(stats.sem(values), **TOL)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((expected.low, expected.high), **TOL)
        assert 0 <= row["ci_low"] <= row["mean"] <= row["ci_high"] <= 1


@pytest.mark.parametrize("hits", [19, 1])
def test_bounded_measures_get_the_normal_interval_clipped_and_unbounded_ones_not(hits):
    """nDCG@10, RR and the NDCG summary are in [0, 1]: the normal interval, clipped; DCG@5 is not
    bounded: the normal interval as it is, past 1 (19 of 20) or below 0 (1 of 20)."""
    values = np.array([1.0] * hits + [0.0] * (20 - hits))
    low, high = stats.norm.interval(0.95, loc=values.mean(), scale=stats.sem(values))
    assert low < 0 if hits == 1 else high > 1
    clipped = (max(low, 0.0), min(high, 1.0))
    rows = ndcg_sql.evaluate(successes(hits), measures=["nDCG@10", "RR", "DCG@5"], ties="item-asc").summary_records()
    ndcg = ndcg_sql.evaluate(successes(hits), k=[10], intervals=True).summary_records()
    for row in rows[:2] + ndcg:
        assert row["ci_method"] == "normal, clipped to [0, 1]"
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(clipped, **TOL)
    assert clipped[0 if hits == 1 else 1] in (0.0, 1.0)
    dcg = rows[2]
    assert dcg["measure"] == "DCG@5" and dcg["ci_method"] == "normal"
    assert (dcg["ci_low"], dcg["ci_high"]) == pytest.approx((low, high), **TOL)


def test_wilson_interval_per_segment_and_none_below_two_queries():
    data = pd.concat([successes(19).assign(arm="a"), successes(3, queries=5).assign(arm="b"),
                      successes(1, queries=1).assign(arm="c")], ignore_index=True)
    rows = ndcg_sql.evaluate(data, measures=["Success@10", "AP"], segments="arm", ties="item-asc").summary_records()
    by_key = {(row["arm"], row["measure"]): row for row in rows}
    for arm, hits, n in (("a", 19, 20), ("b", 3, 5)):
        expected = stats.binomtest(hits, n).proportion_ci(method="wilson")
        row = by_key[(arm, "Success@10")]
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((expected.low, expected.high), **TOL)
        assert by_key[(arm, "AP")]["ci_method"] == "normal, clipped to [0, 1]"
    one = by_key[("c", "Success@10")]
    assert one["queries"] == 1 and one["ci_method"] == "wilson"
    assert one["stderr"] is None and one["ci_low"] is None and one["ci_high"] is None


@pytest.mark.parametrize("measure", ["nDCG@10", "AP", "RR", "P(rel=2)@5"])
def test_compare_matches_scipy_paired_t_test(measure):
    result = ndcg_sql.compare(SPLADE, BM25, [measure], **TREC)
    a = {r["query_id"]: r["value"] for r in ndcg_sql.evaluate(SPLADE, measures=[measure], **TREC).per_query_records()}
    b = {r["query_id"]: r["value"] for r in ndcg_sql.evaluate(BM25, measures=[measure], **TREC).per_query_records()}
    queries = sorted(a)
    x, y = np.array([a[q] for q in queries]), np.array([b[q] for q in queries])
    expected = stats.ttest_rel(x, y)
    interval = expected.confidence_interval(0.95)
    row = result.summary_records()[0]
    assert row["queries"] == len(queries) and row["df"] == len(queries) - 1
    assert row["mean_a"] == pytest.approx(x.mean(), **TOL) and row["mean_b"] == pytest.approx(y.mean(), **TOL)
    assert row["mean_difference"] == pytest.approx((x - y).mean(), **TOL)
    assert row["t"] == pytest.approx(expected.statistic, **TOL)
    assert row["t_p_value"] == pytest.approx(expected.pvalue, **TOL)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((interval.low, interval.high), **TOL)
    d = x - y
    assert (row["wins"], row["ties"], row["losses"]) == ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())
    diffs = {r["query_id"]: r["difference"] for r in result.per_query.fetchdf().to_dict("records")}
    assert diffs == {q: a[q] - b[q] for q in queries}


def paired_frames(rng, n):
    """Two runs over n queries, 3 items each, labels drawn so differences often tie or repeat."""
    rows_a, rows_b = [], []
    for q in range(n):
        labels = rng.integers(0, 3, size=3)
        for i, label in enumerate(labels):
            rows_a.append((q, i, float(rng.integers(0, 3)), int(label)))
            rows_b.append((q, i, float(rng.integers(0, 3)), int(label)))
    columns = ["query_id", "item_id", "score", "label"]
    return pd.DataFrame(rows_a, columns=columns), pd.DataFrame(rows_b, columns=columns)


def scipy_exact_permutation_p(d):
    return stats.permutation_test(
        (d, np.zeros_like(d)), lambda x, y: np.mean(x - y), permutation_type="samples",
        n_resamples=np.inf, alternative="two-sided",
    ).pvalue


@pytest.mark.parametrize("seed", range(8))
def test_exact_permutation_test_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    a, b = paired_frames(rng, int(rng.integers(3, 11)))
    result = ndcg_sql.compare(a, b, ["nDCG@3", "P@2"], ties="item-asc", permutations=5000)
    per_query = result.per_query.fetchdf()
    for row in result.summary_records():
        d = per_query.loc[per_query["measure"] == row["measure"], "difference"].to_numpy()
        assert row["permutation_kind"] == "exact"
        assert row["permutation_p_value"] == pytest.approx(scipy_exact_permutation_p(d), **TOL)


def test_sampled_permutation_test_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(42)
    a, b = paired_frames(rng, 15)  # 2^15 sign patterns > 4000: sampled
    first = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=4000, seed=7).summary_records()[0]
    again = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=4000, seed=7).summary_records()[0]
    assert first["permutation_kind"] == "sampled"
    assert first["permutation_p_value"] == again["permutation_p_value"]
    d = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=1).per_query.fetchdf()["difference"].to_numpy()
    exact = scipy_exact_permutation_p(d)
    # 4000 draws: the standard error of the estimate is at most 0.008
    assert abs(first["permutation_p_value"] - exact) < 0.04


def test_queries_only_one_run_has_are_counted_not_paired():
    a = pd.DataFrame({"query_id": [1, 1, 2, 2, 3], "item_id": [1, 2, 1, 2, 1], "score": [2.0, 1, 2, 1, 1],
                      "label": [1, 0, 0, 1, 1]})
    b = a[a["query_id"] != 3]
    row = ndcg_sql.compare(a, b, ["nDCG@1"]).summary_records()[0]
    assert (row["queries"], row["only_a"], row["only_b"]) == (2, 1, 0)
    assert (row["wins"], row["ties"], row["losses"]) == (0, 2, 0)
    assert row["t"] is None and row["t_p_value"] is None  # all differences 0: t undefined (scipy: nan)
    assert row["permutation_p_value"] == 1.0


@pytest.mark.parametrize("kwargs, words", [
    (dict(permutations=0), "permutations must be"), (dict(seed=-1), "seed must be"),
    (dict(seed=True), "seed must be"), (dict(seed=2**63), "seed must be"),
])
def test_compare_option_errors(kwargs, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.compare(BM25, BM25, **TREC, **kwargs)


@pytest.mark.parametrize("name", ["k", "intervals", "bootstrap", "weight_col"])
def test_compare_has_no_k_intervals_bootstrap_or_weights(name):
    """compare's signature names its options: these are not among them (its cutoffs are in the
    measures' names; its paired tests weigh every query alike)."""
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{name}'"):
        ndcg_sql.compare(BM25, BM25, **TREC, **{name: 10})


def test_cli_compare_json_equals_python():
    done = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--gain", "linear", "--ties", "item-desc",
                   "--measures", "nDCG@10", "AP", "--format", "json")
    assert done.returncode == 0, done.stderr
    direct = ndcg_sql.compare(SPLADE, BM25, ["nDCG@10", "AP"], **TREC)
    assert json.loads(done.stdout)["summary"] == direct.summary_records()


def test_cli_compare_table_and_per_query_csv(tmp_path):
    import csv

    path = tmp_path / "pairs.csv"
    done = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--convention", "trec_eval",
                   "--measures", "nDCG@10", "--per-query", str(path))
    assert done.returncode == 0, done.stderr
    runs, options, header, row = done.stdout.splitlines()[:4]
    assert runs.startswith(f"runs: A = {Path(SPLADE).name}, B = {Path(BM25).name};")
    assert header.split()[:3] == ["measure", "queries", "mean_a"] and row.split()[:2] == ["nDCG@10", "43"]
    assert options.split() == ["options:", "gain=linear", "discount=1/log2(rank", "+", "1)", "ties=item-desc",
                               "ranking_by=score", "ideal=judgments", "no_relevant=zero", "missing_queries=ignore",
                               "unjudged=zero", "score_precision=float32", "negative_labels=unjudged", "convention=trec_eval",
                               "permutations=10000", "seed=0"]
    rows = list(csv.DictReader(open(path)))
    assert len(rows) == 43
    assert all(float(r["difference"]) == float(r["a"]) - float(r["b"]) for r in rows)
    bad = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--k", "10")
    assert bad.returncode == 2 and "--k" in bad.stderr  # compare takes the cutoffs in --measures


def test_cli_compare_table_counts_unpaired_queries(tmp_path):
    """The text table shows only_a / only_b as the JSON does: queries only one run evaluated."""
    qids = list(dict.fromkeys(line.split()[0] for line in open(BM25)))
    judged = {line.split()[0] for line in open(QRELS)}
    kept = set(qids[:-5])  # B (SPLADE's run) lacks the last five queries of A (BM25's)
    lines = open(SPLADE).read().splitlines()
    (tmp_path / "b.txt").write_text("\n".join(line for line in lines if line.split()[0] in kept) + "\n")
    done = run_cli("compare", BM25, str(tmp_path / "b.txt"), "--judgments", QRELS, "--gain", "linear",
                   "--ties", "item-desc", "--measures", "nDCG@10")
    assert done.returncode == 0, done.stderr
    header, row = (line.split() for line in done.stdout.splitlines()[2:4])
    values = dict(zip(header, row))
    assert header[-2:] == ["only_a", "only_b"]
    assert int(values["only_a"]) == len((set(qids) - kept) & judged) == 5
    assert int(values["only_b"]) == 0 and int(values["queries"]) == len(kept & judged)


def test_compare_names_its_runs_a_and_b_in_every_output(capsys):
    """Table, JSON and CSV say which input is A and which B: the ends of their paths that tell
    them apart (here their folders, the file names being alike)."""
    click = EXAMPLES / "click_log"
    a, b = str(click / "arm=splade" / "clicks.parquet"), str(click / "arm=bm25" / "clicks.parquet")
    names = ("arm=splade/clicks.parquet", "arm=bm25/clicks.parquet")
    args = ("compare", a, b, "--rank-col", "position", "--label", "clicked", "--measures", "nDCG@10",
            "--permutations", "10")
    assert cli.main([*args, "--no-progress"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"runs: A = {names[0]}, B = {names[1]}; differences are A - B, wins are queries where A is better")
    assert cli.main([*args, "--no-progress", "--format", "csv"]) == 0
    row, = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert (row["run_a"], row["run_b"]) == names
    # Python (the JSON is to_dict()): names given, or by default from the paths and the inputs' kinds
    options = dict(rank_col="position", label="clicked", permutations=10)
    named = ndcg_sql.compare(a, b, names=("splade", "bm25"), **options)
    assert named.to_dict()["runs"] == {"a": "splade", "b": "bm25"}
    assert str(named).startswith("runs: A = splade, B = bm25;")
    import duckdb
    assert ndcg_sql.compare(Path(a), duckdb.read_parquet(b).df(), **options).names == ("clicks.parquet", "a DataFrame")
    with pytest.raises(ndcg_sql.OptionError, match="names must be two strings"):
        ndcg_sql.compare(a, b, names="splade", **options)


def test_compare_table_rounds_to_digits_and_json_keeps_full_precision(capsys):
    """--digits N rounds the table's numbers to N significant digits: BM25's NDCG@10 is trec_eval's
    published 0.5058 at 4; JSON and CSV keep full precision, so --digits there is an option error."""
    comparison = ndcg_sql.compare(SPLADE, BM25, convention="trec_eval", judgments=QRELS, permutations=10)
    assert "0.5058310024399073" in str(comparison)
    rounded = comparison.to_text(digits=4)
    header, row = (line.split() for line in rounded.splitlines()[2:4])
    assert dict(zip(header, row))["mean_b"] == "0.5058" and "0.5058310024399073" not in rounded
    assert json.loads(json.dumps(comparison.to_dict()))["summary"][0]["mean_b"] == 0.5058310024399073
    with pytest.raises(ndcg_sql.OptionError, match="digits must be an integer from 1 to 17"):
        comparison.to_text(digits=18)
    assert cli.main(["compare", SPLADE, BM25, "--judgments", QRELS, "--convention", "trec_eval", "--digits", "4",
                     "--permutations", "10", "--no-progress"]) == 0
    assert "0.5058 " in capsys.readouterr().out
    bad = run_cli("compare", SPLADE, BM25, "--judgments", QRELS, "--format", "csv", "--digits", "4")
    assert bad.returncode == 2 and "--digits rounds the table only" in bad.stderr


# ------------------------------------------------------------------ seeded draws, per segment
#
# The generator of sql/random_draws.sql.j2, the query keys and hashes of
# sql/query_keys.sql.j2 and the Poisson(1) draws of sql/bootstrap_intervals.sql.j2,
# written again here from their definitions (Python integers): the SQL's bootstrap
# weights and sign patterns are then known exactly, so bootstrap intervals and
# sampled permutation p-values are checked against numpy, not just for being close.

P = 2**31 - 1
ROUND_CONSTANTS = (7, 12345, 1664525, 1013904223)


def rounds(x: int) -> int:
    for c in ROUND_CONSTANTS:
        x = pow((x + c) % P, 5, P)
    return x


def draw_state(seed: int, a: int, b: int) -> int:
    return rounds((((seed % P) * 1000003 + a) % P * 1000003 + b) % P)


def draw_state3(seed: int, a: int, b: int, c: int) -> int:
    return rounds(((((seed % P) * 1000003 + a) % P * 1000003 + b) % P * 1000003 + c) % P)


def query_key(*parts) -> str:
    """(segment values, query id) as the SQL writes the key: each part as its length, ':' and its text."""
    return "".join("~" if part is None else f"{len(str(part))}:{part}" for part in parts)


def key_hash(key: str, base: int, width: int = 12) -> int:
    total = (len(key) * pow(base, 2 * width + 1, P)) % P
    for i in range(1, width + 1):
        total += (ord(key[i - 1]) if len(key) >= i else 0) * pow(base, i, P) % P
        total += (ord(key[len(key) - i]) if len(key) >= i else 0) * pow(base, width + i, P) % P
    return total % P


def poisson_thresholds() -> list[int]:
    """ceil(F(j) P) for the Poisson(1) distribution function, until 1 - F(j) < 1e-12."""
    out, cumulative, j = [], 0.0, 0
    while True:
        cumulative += math.exp(-1.0) / math.factorial(j)
        out.append(math.ceil(cumulative * P))
        if 1.0 - cumulative < 1e-12:
            return out
        j += 1


def numpy_bootstrap(values: np.ndarray, keys: list[str], replicates: int, seed: int) -> tuple[float, float]:
    """Percentile interval of the Poisson bootstrap: query q counts w(b, q) times in replicate b,
    w the Poisson(1) draw from the state keyed by (seed, b, hash_31(key), hash_37(key))."""
    thresholds = np.array(poisson_thresholds())
    hashes = [(key_hash(k, 31), key_hash(k, 37)) for k in keys]
    means = []
    for b in range(replicates):
        weights = np.array([(draw_state3(seed, b, h1, h2) >= thresholds).sum() for h1, h2 in hashes], dtype=float)
        if weights.sum() > 0:
            means.append(float((weights * values).sum() / weights.sum()))
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def test_generator_is_a_permutation_round_and_spreads_draws():
    """x -> x^5 mod P is one-to-one (gcd(5, P - 1) = 1), and draws mod 10 are near uniform."""
    assert np.gcd(5, P - 1) == 1
    counts = np.bincount([draw_state(3, b, j) % 10 for b in range(100) for j in range(100)], minlength=10)
    assert counts.min() > 880 and counts.max() < 1120  # 10,000 draws: 1,000 +- 3.8 sd


def test_the_31_sign_bits_of_a_draw_are_fair_and_unrelated():
    """The sampled permutation test takes 31 patterns' signs from the 31 bits of one draw
    (sql/paired_tests.sql.j2): over 20,000 draws each bit is 1 about half the time and no two
    bits agree more often than chance (binomial sd 0.0035: bounds at about 5.7 sd)."""
    states = np.array([draw_state3(5, d, q, 7 * q + 1) for d in range(40) for q in range(500)], dtype=np.int64)
    bits = (states[:, None] >> np.arange(31)) & 1
    assert np.abs(bits.mean(axis=0) - 0.5).max() < 0.02
    agree = (bits[:, :, None] == bits[:, None, :]).mean(axis=0)[np.triu_indices(31, 1)]
    assert np.abs(agree - 0.5).max() < 0.02


def test_poisson_weights_have_mean_and_variance_one():
    """The draws of sql/bootstrap_intervals.sql.j2 are Poisson(1): over 20,000 (replicate, query) pairs
    the weights' mean and variance are 1 (+- 4 standard errors) and P(w = 0) is 1/e."""
    thresholds = np.array(poisson_thresholds())
    weights = np.array([(draw_state3(7, b, key_hash(query_key(q), 31), key_hash(query_key(q), 37)) >= thresholds).sum()
                        for b in range(200) for q in range(100)])
    assert abs(weights.mean() - 1) < 4 * math.sqrt(1 / len(weights))
    assert abs(weights.var() - 1) < 4 * math.sqrt(3 / len(weights))
    assert abs((weights == 0).mean() - math.exp(-1)) < 4 * math.sqrt(0.23 / len(weights))


def segmented_log(rng, queries=9):
    rows = []
    for arm in ("A", "B"):
        for q in range(queries if arm == "A" else queries - 2):
            for item in range(4):
                rows.append((arm, f"q{q:02d}", item, float(rng.normal()), int(rng.integers(0, 3))))
    return pd.DataFrame(rows, columns=["arm", "query_id", "item_id", "score", "label"])


def test_bootstrap_per_segment_equals_numpy_resamples():
    data = segmented_log(np.random.default_rng(3))
    result = ndcg_sql.evaluate(data, k=[2, None], segments="arm", bootstrap=300, seed=11)
    per_query = pd.DataFrame(result.per_query_records())
    rows = result.summary_records()
    assert [(r["arm"], r["k"]) for r in rows] == [("A", 2), ("A", None), ("B", 2), ("B", None)]
    for row in rows:
        chosen = per_query[(per_query["arm"] == row["arm"])
                           & (per_query["k"].isna() if row["k"] is None else per_query["k"] == row["k"])]
        values = chosen["ndcg"].to_numpy()
        keys = [query_key(row["arm"], q) for q in chosen["query_id"]]
        low, high = numpy_bootstrap(values, keys, 300, 11)
        assert row["bootstrap_low"] == pytest.approx(low, **TOL)
        assert row["bootstrap_high"] == pytest.approx(high, **TOL)
        assert row["ndcg"] == pytest.approx(values.mean(), **TOL)


def test_bootstrap_of_measures_equals_numpy_resamples():
    result = ndcg_sql.evaluate(BM25, measures=["AP", "nDCG@10"], bootstrap=200, seed=2**40 + 5, **TREC)
    per_query = pd.DataFrame(result.per_query_records())
    for row in result.summary_records():
        chosen = per_query[per_query["measure"] == row["measure"]]
        values = chosen["value"].to_numpy()
        low, high = numpy_bootstrap(values, [query_key(q) for q in chosen["query_id"]], 200, 2**40 + 5)
        assert (row["bootstrap_low"], row["bootstrap_high"]) == (pytest.approx(low, **TOL), pytest.approx(high, **TOL))


def test_compare_per_segment_matches_scipy_per_segment():
    rng = np.random.default_rng(8)
    a = segmented_log(rng)
    b = a.assign(score=a["score"] + rng.normal(scale=0.8, size=len(a)))
    b = b[~((b["arm"] == "B") & (b["query_id"] == "q00"))]  # one query only run A has, in arm B
    result = ndcg_sql.compare(a, b, ["nDCG@3", "P@2"], segments="arm", permutations=50_000, ties="item-asc")
    assert [(r["arm"], r["measure"]) for r in result.summary_records()] == [("A", "nDCG@3"), ("A", "P@2"), ("B", "nDCG@3"), ("B", "P@2")]
    per_a = pd.DataFrame(ndcg_sql.evaluate(a, measures=["nDCG@3", "P@2"], segments="arm", ties="item-asc").per_query_records())
    per_b = pd.DataFrame(ndcg_sql.evaluate(b, measures=["nDCG@3", "P@2"], segments="arm", ties="item-asc").per_query_records())
    paired = per_a.merge(per_b, on=["arm", "query_id", "measure"], suffixes=("_a", "_b"))
    for row in result.summary_records():
        chosen = paired[(paired["arm"] == row["arm"]) & (paired["measure"] == row["measure"])]
        x, y = chosen["value_a"].to_numpy(), chosen["value_b"].to_numpy()
        assert row["queries"] == len(x)
        assert row["only_a"] == (1 if row["arm"] == "B" else 0) and row["only_b"] == 0
        assert row["mean_difference"] == pytest.approx((x - y).mean(), **TOL)
        test = stats.ttest_rel(x, y)
        if np.isnan(test.statistic):
            assert row["t"] is None
        else:
            assert row["t"] == pytest.approx(test.statistic, **TOL)
            assert row["t_p_value"] == pytest.approx(test.pvalue, **TOL)
        d = x - y
        if len(d) <= 15:
            assert row["permutation_kind"] == "exact"
            assert row["permutation_p_value"] == pytest.approx(scipy_exact_permutation_p(d), **TOL)


def test_sampled_permutation_p_value_equals_numpy_with_the_same_signs():
    rng = np.random.default_rng(42)
    a, b = paired_frames(rng, 15)
    result = ndcg_sql.compare(a, b, ["nDCG@3"], permutations=500, seed=9)
    row = result.summary_records()[0]
    assert row["permutation_kind"] == "sampled"
    frame = result.per_query.fetchdf()
    d = frame["difference"].to_numpy()
    observed = abs(d.sum())
    hashes = [(key_hash(query_key(q), 31), key_hash(query_key(q), 37)) for q in frame["query_id"]]
    # pattern p takes bit p mod 31 of draw p // 31 (one draw, 31 patterns' signs)
    signs = np.array([[1 - 2 * ((draw_state3(9, p // 31, h1, h2) >> (p % 31)) & 1) for h1, h2 in hashes]
                      for p in range(500)])
    extreme = int((np.abs(signs @ d) >= observed * (1 - 1e-9)).sum())
    assert row["permutation_p_value"] == pytest.approx((1 + extreme) / 501, **TOL)


def test_compare_of_a_run_with_itself_says_why_its_t_test_is_empty(capsys):
    """`ndcg-sql compare RUN RUN` showed an empty t_p_value with no word why. Every per-query difference
    is 0: scipy's paired t-test is NaN (t = 0/0) and the sign-flip test's p-value is 1 (scipy's
    permutation_test). Python (None), JSON (null), CSV (empty) and the table agree, and the table says so."""
    measures = ["nDCG@10", "AP"]
    direct = ndcg_sql.compare(BM25, BM25, measures, **TREC)
    rows = direct.summary_records()
    for row in rows:
        d = np.array([r["difference"] for r in direct.per_query_records() if r["measure"] == row["measure"]])
        x = np.array([r["a"] for r in direct.per_query_records() if r["measure"] == row["measure"]])
        expected = stats.ttest_rel(x, x - d)
        assert math.isnan(expected.statistic) and math.isnan(expected.pvalue)  # scipy: undefined
        assert row["t"] is None and row["t_p_value"] is None
        p = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=999).pvalue
        assert row["permutation_p_value"] == p == 1.0
        assert row["ties"] == row["queries"] == len(d) == 43
    common = ["compare", BM25, BM25, "--judgments", QRELS, "--gain", "linear", "--ties", "item-desc", "--measures",
              *measures, "--no-progress"]
    assert cli.main([*common, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == rows
    assert cli.main([*common, "--format", "csv"]) == 0
    written = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["t"], r["t_p_value"], r["permutation_p_value"]) for r in written] == [("", "", "1.0")] * 2
    assert cli.main(common) == 0
    table = capsys.readouterr().out
    assert table.endswith("no differences: every per-query difference of nDCG@10, AP is 0, so the paired t is 0/0 "
                          "and t_p_value is empty (scipy.stats.ttest_rel gives NaN); the permutation test's p-value "
                          "is 1\n")
    assert str(direct) == table  # what Python prints
    direct.close()
    # with three runs, the pair of the same run says so too
    several = ndcg_sql.compare_runs([BM25, BM25, SPLADE], ["nDCG@10"], names=["a", "b", "c"], **TREC)
    assert "no differences: every per-query difference of a - b nDCG@10 is 0" in several.to_text()
    several.close()


def test_compare_with_the_same_difference_on_every_query_says_why_its_t_test_is_empty(tmp_path):
    """Every per-query difference equal and not 0 (P@1 of 1 against 0 on every query): scipy's paired
    t is d/0 = inf with p = 0, which JSON cannot carry; t and t_p_value stay empty and the text says
    why; the sign-flip p-value is scipy's exact one."""
    rows = "query_id,item_id,score,label\n"
    for q in ("q1", "q2", "q3"):
        rows += f"{q},relevant,2.0,1\n{q},other,1.0,0\n"
    better, worse = tmp_path / "a.csv", tmp_path / "b.csv"
    better.write_text(rows)
    worse.write_text(rows.replace(",2.0,1", ",0.5,1"))  # the relevant item last
    with ndcg_sql.compare(str(better), str(worse), ["P@1"]) as result:
        row, = result.summary_records()
        d = np.array([r["difference"] for r in result.per_query_records()])
        text = result.to_text()
    assert list(d) == [1.0, 1.0, 1.0]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = stats.ttest_rel(d + 0.0, d - d)
    assert math.isinf(expected.statistic) and expected.pvalue == 0.0  # scipy: d/0
    assert row["t"] is None and row["t_p_value"] is None and row["stderr"] == 0.0
    exact = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=10_000).pvalue
    assert row["permutation_p_value"] == exact == 0.25  # 2 of the 8 sign patterns reach |mean| 1
    assert text.endswith("one difference: every per-query difference of P@1 is the same, not 0, so the paired t "
                         "is d/0 and t_p_value is empty (scipy.stats.ttest_rel gives an infinite t and p 0); the "
                         "permutation test's p-value stands\n")
