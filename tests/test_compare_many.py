"""compare_runs: several runs in pairs (against scipy's paired t-test), the multiple-testing
corrections (hand-worked, and an independent numpy form on the tests' data), the randomized
Tukey HSD test (numpy with the same draws; scipy's tukey_hsd where the two agree), the table of
one row per run, and the command line."""

import csv
import io
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ndcg_sql
from conftest import EXAMPLES
from ndcg_sql.vocabulary import corrections
from test_cli import run_cli
from test_statistics import draw_state3, key_hash, query_key

TOL = dict(rel=1e-9, abs=1e-9)
DL = EXAMPLES / "trec_dl19_passage"
RUNS = {"BM25": str(DL / "run.dl19.bm25.top100.txt"), "SPLADE++": str(DL / "run.dl19.splade_pp_ed.top100.txt"),
        "TAS-B": str(DL / "run.dl19.tasb.top100.txt")}
QRELS = str(DL / "qrels.dl19-passage.txt")
TREC = dict(judgments=QRELS, convention="trec_eval")


# ----------------------------------------------------------------- corrections, by hand
@pytest.mark.parametrize("p, holm, bonferroni, bh", [
    # sorted 0.005, 0.01, 0.03, 0.04: Holm 4x, 3x, 2x, 1x = 0.02, 0.03, 0.06, 0.04 -> running max 0.06;
    # BH m p / rank = 0.02, 0.02, 0.04, 0.04 -> running min from the largest
    ([0.01, 0.04, 0.03, 0.005], [0.03, 0.06, 0.06, 0.02], [0.04, 0.16, 0.12, 0.02], [0.02, 0.04, 0.04, 0.02]),
    # a missing p-value is no test: m = 3
    ([0.01, 0.02, 0.5, None], [0.03, 0.04, 0.5, None], [0.03, 0.06, 1.0, None], [0.03, 0.03, 0.5, None]),
    # BH steps up: 0.04 x 2 / 1 = 0.08 is lowered to 0.045 x 2 / 2; Holm steps down to 0.08 for both
    ([0.04, 0.045], [0.08, 0.08], [0.08, 0.09], [0.045, 0.045]),
    ([0.3, 0.6], [0.6, 0.6], [0.6, 1.0], [0.6, 0.6]),
])
def test_corrections_by_hand(p, holm, bonferroni, bh):
    for method, want in (("holm", holm), ("bonferroni", bonferroni), ("bh", bh), ("none", p)):
        got = corrections.adjusted(p, method)
        assert [g is None for g in got] == [w is None for w in want], method
        assert [g for g in got if g is not None] == pytest.approx([w for w in want if w is not None], **TOL), method
    assert corrections.family_size(p) == sum(x is not None for x in p)


def numpy_adjusted(p: np.ndarray, method: str) -> np.ndarray:
    """The textbook forms (vectorised: cumulative max / min over the sorted p-values)."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    if method == "holm":
        out = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * ranked))
    else:
        out = np.minimum.accumulate(np.minimum(1.0, m * ranked / np.arange(1, m + 1))[::-1])[::-1]
    back = np.empty(m)
    back[order] = out
    return back


def test_correction_errors_and_default():
    with pytest.raises(ndcg_sql.OptionError, match="holm, bonferroni, bh, none"):
        corrections.adjusted([0.1], "hochberg")
    assert corrections.default_correction(2, 1) == "none"
    assert corrections.default_correction(3, 1) == corrections.default_correction(2, 2) == "holm"


# ----------------------------------------------------------------- three DL19 runs
@pytest.fixture(scope="module")
def dl19():
    with ndcg_sql.compare_runs(RUNS, ["nDCG@10", "AP"], permutations=2000, seed=3, **TREC) as c:
        yield c, c.summary_records(), c.per_query_records()


@pytest.fixture(scope="module")
def dl19_values():
    out = {}
    for name, path in RUNS.items():
        for row in ndcg_sql.evaluate(path, measures=["nDCG@10", "AP"], **TREC).per_query_records():
            out[(name, row["measure"], row["query_id"])] = row["value"]
    return out


def test_every_pair_matches_scipy_paired_t_test(dl19, dl19_values):
    c, rows, _ = dl19
    assert c.pairs == (("BM25", "SPLADE++"), ("BM25", "TAS-B"), ("SPLADE++", "TAS-B"))
    assert [(r["run_a"], r["run_b"], r["measure"]) for r in rows] == [
        (a, b, m) for a, b in c.pairs for m in ("nDCG@10", "AP")]
    queries = sorted({q for (_, _, q) in dl19_values})
    for row in rows:
        x = np.array([dl19_values[(row["run_a"], row["measure"], q)] for q in queries])
        y = np.array([dl19_values[(row["run_b"], row["measure"], q)] for q in queries])
        expected = stats.ttest_rel(x, y)
        interval = expected.confidence_interval(0.95)
        assert row["queries"] == len(queries) == 43
        assert row["mean_difference"] == pytest.approx((x - y).mean(), **TOL)
        assert row["t"] == pytest.approx(expected.statistic, **TOL)
        assert row["t_p_value"] == pytest.approx(expected.pvalue, **TOL)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((interval.low, interval.high), **TOL)
        d = x - y
        assert (row["wins"], row["ties"], row["losses"]) == ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())


def test_the_family_is_corrected_by_holm(dl19):
    c, rows, _ = dl19
    assert c.options["correction"] == "holm" and all(r["correction"] == "holm" for r in rows)
    assert all(r["family_size"] == 6 for r in rows)  # 3 pairs x 2 measures
    for raw in ("t_p_value", "permutation_p_value"):
        p = np.array([r[raw] for r in rows])
        want = numpy_adjusted(p, "holm")
        assert [r[raw + "_adjusted"] for r in rows] == pytest.approx(list(want), **TOL)


def test_the_per_query_rows_name_their_pair(dl19, dl19_values):
    _, _, per_query = dl19
    assert len(per_query) == 3 * 2 * 43
    for row in per_query[::37]:
        a = dl19_values[(row["run_a"], row["measure"], row["query_id"])]
        b = dl19_values[(row["run_b"], row["measure"], row["query_id"])]
        assert (row["a"], row["b"], row["difference"]) == (a, b, a - b)


@pytest.mark.parametrize("method", ["bonferroni", "bh", "none"])
def test_other_corrections_on_the_same_family(method):
    frames = three_frames(np.random.default_rng(5), 12)
    with ndcg_sql.compare_runs(frames, ["DCG@1", "CG@2"], gain="linear", correction=method, permutations=200) as c:
        rows = c.summary_records()
    assert all(r["correction"] == method and r["family_size"] == 6 for r in rows)
    p = np.array([r["permutation_p_value"] for r in rows])
    assert [r["permutation_p_value_adjusted"] for r in rows] == pytest.approx(list(numpy_adjusted(p, method)
                                                                                  if method != "none" else p), **TOL)


def test_a_baseline_pairs_each_run_with_it(dl19_values):
    with ndcg_sql.compare_runs(list(RUNS.values()), ["nDCG@10"], names=list(RUNS), baseline="BM25",
                               permutations=100, **TREC) as c:
        rows = c.summary_records()
    assert [(r["run_a"], r["run_b"]) for r in rows] == [("SPLADE++", "BM25"), ("TAS-B", "BM25")]
    queries = sorted({q for (_, _, q) in dl19_values})
    for row in rows:
        x = np.array([dl19_values[(row["run_a"], "nDCG@10", q)] for q in queries])
        y = np.array([dl19_values[("BM25", "nDCG@10", q)] for q in queries])
        assert row["t_p_value"] == pytest.approx(stats.ttest_rel(x, y).pvalue, **TOL)
        assert row["family_size"] == 2 and row["correction"] == "holm"


# ----------------------------------------------------------------- randomized Tukey HSD
def value_frame(values: dict, name="value") -> pd.DataFrame:
    """A run whose DCG@1 under linear gain is the given value per query: one item, labelled so."""
    return pd.DataFrame({"query_id": list(values), "item_id": [1] * len(values), "score": [1.0] * len(values),
                         "label": [float(v) for v in values.values()]})


def three_frames(rng, n, shifts=(0.0, 0.5, 1.0)) -> list[pd.DataFrame]:
    """Runs of two items per query (DCG@1 and CG@2 read them), values 5 + shift + noise."""
    out = []
    for shift in shifts:
        rows = []
        for q in range(n):
            for item, value in enumerate(5 + shift + rng.normal(size=2)):
                rows.append((q, item, float(2 - item), float(max(value, 0.0))))
        out.append(pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"]))
    return out


def numpy_tukey(values: np.ndarray, queries: list, permutations: int, seed: int) -> np.ndarray:
    """p[i, j] of the randomized Tukey HSD test, with the SQL's draws: in permutation p, query q's
    values go to the runs in the order of draw_state3(seed, p * k + r, hash_1(q), hash_2(q)) (then r)."""
    k, n = values.shape
    hashes = [(key_hash(query_key(q), 31), key_hash(query_key(q), 37)) for q in queries]
    observed = np.abs(values.mean(axis=1)[:, None] - values.mean(axis=1)[None, :])
    spreads = np.empty(permutations)
    for p in range(permutations):
        permuted = np.empty_like(values)
        for col, (h1, h2) in enumerate(hashes):
            states = [draw_state3(seed, p * k + r, h1, h2) for r in range(k)]
            order = sorted(range(k), key=lambda r: (states[r], r))
            place = {run: position for position, run in enumerate(order)}
            permuted[:, col] = [values[place[r], col] for r in range(k)]
        means = permuted.mean(axis=1)
        spreads[p] = means.max() - means.min()
    return (1 + (spreads[None, None, :] >= observed[:, :, None] * (1 - 1e-9)).sum(axis=2)) / (1 + permutations)


def test_tukey_equals_numpy_with_the_same_draws():
    rng = np.random.default_rng(11)
    n, k = 9, 4
    values = np.round(rng.uniform(0, 3, size=(k, n)), 3) + np.array([[0.0], [0.2], [0.9], [0.2]])
    values[3] = values[1]  # an identical copy of run 1
    queries = [f"q{i}" for i in range(n)]
    frames = [value_frame(dict(zip(queries, row))) for row in values]
    with ndcg_sql.compare_runs(frames, ["DCG@1"], gain="linear", permutations=300, seed=4) as c:
        rows = c.summary_records()
    want = numpy_tukey(values, queries, 300, 4)
    names = list(c.names)
    for row in rows:
        i, j = names.index(row["run_a"]), names.index(row["run_b"])
        assert row["tukey_p_value"] == pytest.approx(want[i, j], **TOL), (i, j)
    copy = next(r for r in rows if {r["run_a"], r["run_b"]} == {names[1], names[3]})
    assert copy["tukey_p_value"] == 1.0 and copy["mean_difference"] == 0
    for row in rows:  # the largest of all pairs' differences is at least any one pair's: never below the pair's test
        assert 0 < row["tukey_p_value"] <= 1
        assert row["tukey_p_value"] >= row["permutation_p_value"] - 0.05


def test_tukey_is_near_scipy_tukey_hsd_without_query_effects():
    """scipy.stats.tukey_hsd is the one-way test (the studentized range of independent groups);
    the randomized test permutes within queries. With no query effect (values independent
    across runs and queries) both test the same thing, and 4,000 permutations put the Monte
    Carlo standard error of p below 0.008: they agree within 0.04."""
    rng = np.random.default_rng(2)
    n = 40
    values = 5 + rng.normal(size=(3, n)) + np.array([[0.0], [0.35], [0.55]])
    queries = [f"q{i}" for i in range(n)]
    frames = {name: value_frame(dict(zip(queries, row))) for name, row in zip("xyz", values)}
    with ndcg_sql.compare_runs(frames, "DCG@1", gain="linear", permutations=4000, seed=1) as c:
        rows = c.summary_records()
    scipy_p = stats.tukey_hsd(*values).pvalue
    for row in rows:
        i, j = "xyz".index(row["run_a"]), "xyz".index(row["run_b"])
        assert row["tukey_p_value"] == pytest.approx(scipy_p[i, j], abs=0.04), (i, j, scipy_p[i, j])


# ----------------------------------------------------------------- the table
def clear_case():
    """good beats mid and bad on every query; mid beats bad; means 5.5, 3.5, 1.25 (by hand)."""
    queries = [f"q{i}" for i in range(16)]
    bad = {q: 1.0 + (0.5 if i % 2 else 0.0) for i, q in enumerate(queries)}       # mean 1.25
    mid = {q: 3.0 + (1.0 if i % 2 else 0.0) for i, q in enumerate(queries)}       # mean 3.5
    good = {q: 5.0 + (1.0 if i % 2 else 0.0) for i, q in enumerate(queries)}      # mean 5.5
    return {"bad": value_frame(bad), "mid": value_frame(mid), "good": value_frame(good)}


def test_the_table_letters_and_bold_in_every_format():
    with ndcg_sql.compare_runs(clear_case(), ["DCG@1"], gain="linear", permutations=500) as c:
        text, markdown, latex, html = (c.table(f) for f in ("text", "markdown", "latex", "html"))
        tukey = c.table("html", test="tukey")
        strict = c.table("text", alpha=1e-6)
        data = c.to_dict()
    # a = bad, b = mid, c = good: good is better than a and b, mid than a, bad than none
    assert "(c)  good  *5.5000* ^ab" in text and "(b)  mid   3.5000 ^a" in text
    assert "(a)  bad   1.2500\n" in text
    assert "| (c) | good | **5.5000**<sup>ab</sup> |" in markdown and "| (b) | mid | 3.5000<sup>a</sup> |" in markdown
    assert r"(c) & good & \textbf{5.5000}$^{ab}$ \\" in latex and r"(a) & bad & 1.2500 \\" in latex
    assert r"\toprule" in latex and r"\bottomrule" in latex
    assert "<td>(c)</td><td>good</td><td><b>5.5000</b><sup>ab</sup></td>" in html
    assert "<td>(c)</td><td>good</td><td><b>5.5000</b><sup>ab</sup></td>" in tukey
    assert "^" not in strict.split("letters:")[0]  # p >= 1/501 > 1e-6: nothing marked
    assert data["letters"] == {"a": "bad", "b": "mid", "c": "good"}
    assert {(m["run"], m["mean"]) for m in data["means"]} == {("bad", 1.25), ("mid", 3.5), ("good", 5.5)}


def test_names_are_escaped_in_every_format():
    frames = clear_case()
    runs = {"a_b&c": frames["bad"], "<x>": frames["mid"], "50%": frames["good"]}
    with ndcg_sql.compare_runs(runs, ["DCG@1"], gain="linear", permutations=50) as c:
        assert r"a\_b\&c" in c.table("latex") and r"50\%" in c.table("latex")
        assert "&lt;x&gt;" in c.table("html") and "a_b&amp;c" in c.table("html")
        assert r"\<x\>" in c.table("markdown")


@pytest.mark.parametrize("kwargs, words", [
    (dict(runs=["x.parquet"]), "2 to 26 runs"),
    (dict(runs=["x.parquet", "y.parquet"], names=["x", "x"]), "distinct"),
    (dict(runs=["x.parquet", "y.parquet"], names=["x"]), "names must be 2"),
    (dict(runs=["x.parquet", "y.parquet"], baseline="z"), "baseline must be"),
    (dict(runs=["x.parquet", "y.parquet"], correction="sidak"), "correction must be"),
    (dict(runs=["x.parquet", "y.parquet"], alpha=1.5), "alpha must be"),
    (dict(runs=["x.parquet", "y.parquet"], test="tukey"), "three runs"),
    (dict(runs="x.parquet"), "sequence of rankings or a mapping"),
])
def test_option_errors_before_anything_runs(kwargs, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.compare_runs(**kwargs)


def test_two_runs_and_one_measure_keep_their_raw_p_value_and_output():
    frames = clear_case()
    with ndcg_sql.compare(frames["good"], frames["bad"], ["DCG@1"], gain="linear", permutations=100) as c:
        row = c.summary_records()[0]
        text = c.to_text()
    assert row["correction"] == "none" and row["family_size"] == 1
    assert row["permutation_p_value_adjusted"] == row["permutation_p_value"]
    assert "correction" not in text and "adjusted" not in text
    with ndcg_sql.compare(frames["good"], frames["bad"], ["DCG@1", "CG@1"], gain="linear", permutations=100) as c:
        rows = c.summary_records()
        assert "permutation_p_value_adjusted" in c.to_text() and "correction=holm" in c.to_text()
    p = np.array([r["t_p_value"] for r in rows])
    assert [r["t_p_value_adjusted"] for r in rows] == pytest.approx(list(numpy_adjusted(p, "holm")), **TOL)


# ----------------------------------------------------------------- the command line
def cli(args):
    done = run_cli(*args)
    return done.returncode, done.stdout, done.stderr


def test_cli_three_runs_table_csv_and_json(tmp_path):
    common = [*RUNS.values(), "--names", *RUNS, "--judgments", QRELS, "--convention", "trec_eval",
              "--measures", "nDCG@10", "AP", "--permutations", "300"]
    code, out, err = cli(["compare", *common])
    assert code == 0, err
    assert out.startswith("runs: a = BM25, b = SPLADE++, c = TAS-B;")
    assert "correction=holm" in out and "(b)  SPLADE++" in out and "letters: significantly better" in out
    code, out, err = cli(["compare", *common, "--format", "csv", "--correction", "bh"])
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 6 and {r["correction"] for r in rows} == {"bh"} and {r["family_size"] for r in rows} == {"6"}
    code, out, err = cli(["compare", *common, "--format", "latex", "--test", "t", "--alpha", "0.01",
                          "--baseline", "BM25", "--per-query", str(tmp_path / "pairs.csv"),
                          "--plot", str(tmp_path / "pairs.png")])
    assert code == 0, err
    assert (tmp_path / "pairs.png").stat().st_size > 1000
    assert out.startswith(r"\begin{table}") and "paired t-test, holm-adjusted p < 0.01" in out
    pairs = list(csv.DictReader((tmp_path / "pairs.csv").open()))
    assert len(pairs) == 2 * 2 * 43 and {(r["run_a"], r["run_b"]) for r in pairs} == {("SPLADE++", "BM25"),
                                                                                       ("TAS-B", "BM25")}


def test_the_comparison_plot_draws_the_means_and_the_differences_against_the_baseline(dl19, dl19_values, tmp_path):
    from ndcg_sql.plot import plot_comparison

    c, _, _ = dl19
    plotted = plot_comparison(c, tmp_path / "c.png")
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    queries = sorted({q for (_, _, q) in dl19_values})
    for run in ("SPLADE++", "TAS-B"):  # no baseline: against the first run, BM25
        for measure in ("nDCG@10", "AP"):
            want = [dl19_values[(run, measure, q)] - dl19_values[("BM25", measure, q)] for q in queries]
            assert sorted(plotted["differences"][run][measure]) == pytest.approx(sorted(want), **TOL)
    for m in plotted["means"]:
        values = [dl19_values[(m["run"], m["measure"], q)] for q in queries]
        assert m["mean"] == pytest.approx(np.mean(values), **TOL) and m["ci_low"] < m["mean"] < m["ci_high"]


def test_the_json_of_several_runs_is_plain_data(dl19):
    c, rows, _ = dl19
    data = json.loads(json.dumps(c.to_dict(), allow_nan=False))
    assert data["runs"] == list(RUNS) and data["summary"] == rows and data["options"]["correction"] == "holm"


def test_cli_json_of_date_segments(tmp_path):
    """A day segment (a DATE) is written as its ISO text, by the two-run and the several-run output."""
    import duckdb

    con = duckdb.connect()
    log = con.read_csv(str(EXAMPLES.parent / "dbt_macros/integration_tests/seeds/daily_log.csv"))
    paths = []
    for arm in ("bm25", "splade_pp_ed"):
        paths.append(str(tmp_path / f"{arm}.parquet"))
        log.filter(f"arm = '{arm}'").write_parquet(paths[-1])
    days = sorted({str(d) for (d,) in con.sql("SELECT DISTINCT day FROM log").fetchall()})
    for runs in (paths, [*paths, paths[0]]):
        code, out, err = cli(["compare", *runs, "--names", *"abc"[:len(runs)], "--segments", "day", "--format",
                              "json", "--permutations", "50", "--no-progress"])
        assert code == 0, err
        assert sorted({row["day"] for row in json.loads(out)["summary"]}) == days


def test_cli_compare_errors():
    code, _, err = cli(["compare", str(RUNS["BM25"])])
    assert code == 2 and "two runs or more" in err
    code, _, err = cli(["compare", *RUNS.values(), "--alpha", "2"])
    assert code == 2 and "alpha" in err
    code, _, err = cli(["compare", *RUNS.values(), "--names", "a", "b"])
    assert code == 2 and "names must be 3" in err


def test_runs_whose_query_ids_differ_in_type_pair_as_the_id_rule_pairs_them():
    """One run with integer query ids, two with the same ids as text: every pair pairs all three
    queries (the integer ids read as text in TREC form, never an engine's implicit cast), and the
    mean difference is the hand-computed one (run b ranks the relevant item last in query 3 only)."""
    import pandas as pd

    def run(ids, swap):
        rows = []
        for q in ids:
            first, second = ("y", "x") if swap and str(q) == "3" else ("x", "y")
            rows += [(q, first, 2.0, 1 if first == "x" else 0), (q, second, 1.0, 1 if second == "x" else 0)]
        return pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])

    runs = {"a": run([1, 2, 3], False), "b": run(["1", "2", "3"], True), "c": run(["1", "2", "3"], False)}
    with ndcg_sql.compare_runs(runs, ["nDCG@2"], gain="linear", permutations=16) as c:
        rows = {(r["run_a"], r["run_b"]): r for r in c.summary_records()}
    assert all(row["queries"] == 3 for row in rows.values())
    # nDCG@2 with the relevant item second: 1/log2(3); a - b = (1 - 1/log2(3)) / 3 over three queries
    assert rows[("a", "b")]["mean_difference"] == pytest.approx((1 - 1 / math.log2(3)) / 3, rel=1e-12)
    assert rows[("a", "c")]["mean_difference"] == 0.0


def test_bad_input_in_one_run_is_named_by_that_run(tmp_path):
    """compare and compare_runs evaluate each run: an InputError says which run holds the bad rows
    (a new user's trial: the message named the column and queries, not the file)."""
    import pandas as pd

    good = pd.DataFrame({"query_id": ["q1", "q1"], "item_id": ["a", "b"], "score": [2.0, 1.0], "label": [1, 0]})
    bad = good.assign(label=[1.0, None])
    with pytest.raises(ndcg_sql.InputError, match=r"(?s)^run B \(second\): .*NULL labels.*q1") as raised:
        ndcg_sql.compare(good, bad, names=("first", "second"))
    assert [f["check"] for f in raised.value.failed] == ["null_label"]
    with pytest.raises(ndcg_sql.InputError, match=r"(?s)^run third: .*NULL labels"):
        ndcg_sql.compare_runs([good, good, bad], names=["first", "second", "third"])


def test_a_runs_mean_is_the_same_in_every_pair():
    """Each pair summed its runs' values at one scale, the larger |value| of the two runs: a run's
    gm_map (logarithms down to ln(1e-5)) and DCG@10 means differed in the last digit from pair to
    pair (TAS-B's gm_map 0.3044376305732161 against BM25, ...604 against SPLADE++). Each run's mean is
    now summed at its own scale (gm_map's logarithms unscaled, as the summary sums them): the same
    float in every pair and in the run's own summary, equal to numpy's mean of pytrec_eval's values
    (exponentiated for gm_map)."""
    import pytrec_eval

    rows, own = [], {}
    for measures, given in ((["gm_map"], TREC), (["DCG@10"], dict(judgments=QRELS))):
        with ndcg_sql.compare_runs(list(RUNS.values()), names=list(RUNS), measures=measures, **given) as result:
            rows += result.summary_records()
            own.update({(m["run"], m["measure"]): m["mean"] for m in result.to_dict()["means"]})
    qrels, runs = {}, {}
    for line in open(QRELS):
        q, _, d, rel = line.split()
        qrels.setdefault(q, {})[d] = int(rel)
    for name, path in RUNS.items():
        for line in open(path):
            q, _, d, _, score, _ = line.split()
            runs.setdefault(name, {}).setdefault(q, {})[d] = float(score)
    for measure, key in (("gm_map", "map"), ("DCG@10", None)):
        for name in RUNS:
            means = {row["mean_a"] for row in rows if row["run_a"] == name and row["measure"] == measure}
            means |= {row["mean_b"] for row in rows if row["run_b"] == name and row["measure"] == measure}
            assert len(means) == 1, (measure, name, means)
            assert means == {own[(name, measure)]}  # and the run's own summary, to the bit
            if key is not None:
                ap = pytrec_eval.RelevanceEvaluator(qrels, {key}).evaluate(runs[name])
                logs = np.log(np.maximum([ap[q][key] for q in sorted(ap) if q in qrels], 1e-5))
                assert means.pop() == pytest.approx(math.exp(logs.mean()), rel=1e-12)
