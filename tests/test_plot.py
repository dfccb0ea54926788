"""ndcg-sql plot and the SQL bootstrap interval."""

import numpy as np
import pandas as pd
import pytest

import ndcg_sql
from conftest import EXAMPLES
from ndcg_sql import cli
from ndcg_sql.plot import plot
from test_cli import run_cli

DL = EXAMPLES / "trec_dl19_passage"
BM25 = str(DL / "run.dl19.bm25.top100.txt")
QRELS = str(DL / "qrels.dl19-passage.txt")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_plot_writes_png_of_the_evaluated_means(tmp_path):
    out = tmp_path / "ndcg.png"
    plotted = plot({"bm25": BM25}, str(out), k=[1, 5, 10], judgments=QRELS, convention="trec_eval")
    assert out.read_bytes().startswith(PNG_MAGIC)
    direct = ndcg_sql.evaluate(BM25, k=[1, 5, 10], judgments=QRELS, convention="trec_eval").summary_records()
    assert [(p["k"], p["ndcg"]) for p in plotted["bm25"]] == [(r["k"], r["ndcg"]) for r in direct]


def bootstrap_of(data, **kwargs):
    rows = ndcg_sql.evaluate(data, **kwargs).summary_records()
    return {r.get("k", r.get("measure")): (r["bootstrap_low"], r["bootstrap_high"]) for r in rows}


def test_bootstrap_interval_is_seeded_and_close_to_numpy():
    kwargs = dict(k=[10], judgments=QRELS, convention="trec_eval", bootstrap=4000, seed=5)
    first = bootstrap_of(BM25, **kwargs)[10]
    assert first == bootstrap_of(BM25, **kwargs)[10]
    assert first == bootstrap_of(BM25, measures=["nDCG@10"], **{**kwargs, "k": None})["nDCG@10"]
    result = ndcg_sql.evaluate(BM25, k=[10], judgments=QRELS, convention="trec_eval")
    values = np.array([r["ndcg"] for r in result.per_query_records()])
    rng = np.random.default_rng(0)
    means = values[rng.integers(0, len(values), (20000, len(values)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    # Monte Carlo error of a 2.5% quantile from 4000 resamples: about 0.002 here
    assert first[0] == pytest.approx(low, abs=0.01) and first[1] == pytest.approx(high, abs=0.01)


def test_bootstrap_of_equal_values_is_a_point():
    data = pd.DataFrame({"query_id": [1, 2, 3], "item_id": [1, 1, 1], "score": [1.0] * 3, "label": [1, 2, 3]})
    assert bootstrap_of(data, k=1, bootstrap=50) == {1: (1.0, 1.0)}  # every query: NDCG@1 = 1


@pytest.mark.parametrize("kwargs, words", [
    (dict(bootstrap=-1), "bootstrap must be"), (dict(bootstrap=10, seed=-2), "seed must be"),
    (dict(bootstrap=10, segments="query_id"), "other than the query column"),
])
def test_bootstrap_option_errors(kwargs, words):
    with pytest.raises(ndcg_sql.OptionError, match=words):
        ndcg_sql.evaluate(BM25, k=[10], judgments=QRELS, convention="trec_eval", **kwargs)


def test_cli_plot(tmp_path):
    out = tmp_path / "p.png"
    done = run_cli("plot", BM25, str(DL / "run.dl19.splade_pp_ed.top100.txt"), "--judgments", QRELS,
                   "--convention", "trec_eval", "--k", "1", "5", "10", "--bootstrap", "100", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(PNG_MAGIC)
    bad = run_cli("plot", BM25, "--k", "all", "-o", str(out))
    assert bad.returncode == 2 and "positive integer cutoffs" in bad.stderr


def test_cli_plot_weight_col(tmp_path, monkeypatch):
    """plot --weight-col (the option table's weight_col, as evaluate's): the lines are the weighted
    means sum(w x) / sum(w), computed here with numpy from the unweighted per-query NDCG."""
    data = pd.read_csv(EXAMPLES / "lightgbm_lambdarank" / "rank.test.scored.csv")
    data["w"] = (data["query_id"] % 3 + 1) * 1.5  # 1.5, 3, 4.5: the same on every row of a query
    path = tmp_path / "weighted.csv"
    data.to_csv(path, index=False)
    out = tmp_path / "w.png"
    args = ["plot", str(path), "--item-col", "doc_id", "--k", "1", "5", "--weight-col", "w", "-o", str(out)]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(PNG_MAGIC)
    plotted = {}

    def recording(*given, **options):
        plotted.update(plot(*given, **options))
        return plotted

    monkeypatch.setattr(cli, "plot", recording)
    assert cli.main([*args, "--no-progress"]) == 0
    per_query = ndcg_sql.evaluate(str(path), item_col="doc_id", k=[1, 5]).per_query_records()
    weight = data.groupby("query_id")["w"].first()
    points = plotted["weighted.csv"]
    assert [p["k"] for p in points] == [1, 5]
    for point in points:
        rows = [r for r in per_query if r["k"] == point["k"]]
        x = np.array([r["ndcg"] for r in rows])
        w = np.array([weight[r["query_id"]] for r in rows])
        assert point["ndcg"] == pytest.approx((w * x).sum() / w.sum(), rel=1e-9, abs=1e-9)
        assert point["ndcg"] != pytest.approx(x.mean(), rel=1e-6)  # the weights matter here
    bad = run_cli(*args, "--bootstrap", "10")  # the bootstrap of a weighted mean is not implemented
    assert bad.returncode == 2 and "bootstrap" in bad.stderr


def test_distribution_panel_and_its_errors(tmp_path):
    out = tmp_path / "d.png"
    plot([BM25], str(out), k=[5, 10], distribution=10, judgments=QRELS, convention="trec_eval")
    assert out.read_bytes().startswith(PNG_MAGIC)
    with pytest.raises(ndcg_sql.OptionError, match="must be one of the plotted k"):
        plot([BM25], str(out), k=[5, 10], distribution=3, judgments=QRELS, convention="trec_eval")
    with pytest.raises(ndcg_sql.OptionError, match="positive integer cutoffs"):
        plot([BM25], str(out), k=[0], judgments=QRELS)


def test_plot_help_tells_the_cutoffs_it_takes():
    """plot takes integer cutoffs only (default 1..20): its --help says so, and refuses 'all'."""
    from ndcg_sql import plot as plot_module
    import inspect

    done = run_cli("plot", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "positive integers, not 'all' (default: 1 2 ... 20)" in text and "1 3 5 10 20 all" not in text
    assert tuple(inspect.signature(plot_module.plot).parameters["k"].default) == tuple(range(1, 21))
    refused = run_cli("plot", "run.txt", "-o", "x.png", "--k", "5", "all")
    assert refused.returncode == 2 and "not 'all'" in refused.stderr



def test_plot_segments_draw_one_line_per_segment_values(tmp_path):
    """With segments each run draws one line per segment values (a log holding both arms of the
    click-log example, the arm a column): each line is the numpy reference's mean NDCG@k of
    that arm's rows; the command line takes --segments too."""
    import duckdb
    import reference

    both = tmp_path / "both.parquet"
    duckdb.sql(f"COPY (SELECT * FROM read_parquet('{EXAMPLES / 'click_log'}/*/clicks.parquet')) TO '{both}'")
    rows = duckdb.sql(f"SELECT arm, query_id, item_id, position, CAST(clicked AS INT) FROM '{both}'").fetchall()
    out = tmp_path / "arms.png"
    plotted = plot([str(both)], str(out), k=[1, 3, 10], segments="arm", rank_col="position", label="clicked",
                   distribution=10)
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert sorted(plotted) == ["both.parquet arm=bm25", "both.parquet arm=splade"]
    for arm in ("bm25", "splade"):
        _, means = reference.evaluate([r[1:] for r in rows if r[0] == arm], [1, 3, 10], higher_is_better=False)
        assert [p["k"] for p in plotted[f"both.parquet arm={arm}"]] == [1, 3, 10]
        for point in plotted[f"both.parquet arm={arm}"]:
            assert point["ndcg"] == pytest.approx(means[point["k"]][0], rel=1e-12, abs=1e-12)
    two = plot({"log": str(both), "again": str(both)}, str(out), k=[1], segments="arm", rank_col="position",
               label="clicked")
    assert sorted(two) == ["again arm=bm25", "again arm=splade", "log arm=bm25", "log arm=splade"]
    assert cli.main(["plot", str(both), "--segments", "arm", "--rank-col", "position", "--label", "clicked",
                     "--k", "1", "3", "-o", str(out), "--no-progress"]) == 0


def test_plot_title_shows_the_whole_label_expression(tmp_path, monkeypatch):
    """A long label expression is wrapped onto more title lines, never cut: the title's words are
    the expression's."""
    import matplotlib.pyplot as plt

    figures = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda figure=None: (figures.append(figure), close(figure)))
    label = ("CASE WHEN dwell_seconds >= 180 THEN 3 WHEN dwell_seconds >= 60 THEN 2 WHEN dwell_seconds >= 10 "
             "THEN 1 ELSE 0 END + CASE WHEN clicked THEN 1 ELSE 0 END")
    run = EXAMPLES / "click_log" / "arm=bm25" / "clicks.parquet"
    plot([str(run)], str(tmp_path / "t.png"), k=[1, 5], rank_col="position", label=label)
    title = figures[-1].axes[0].get_title()
    assert f"label: {label}" in " ".join(title.split())
    assert max(len(line) for line in title.splitlines()) <= 90


def test_plot_over_days_marks_the_seeded_regression(tmp_path):
    """plot(over='day'): per (arm, day) the mean NDCG@5 and its 95% interval of the numpy reference's
    per-query values (scipy's normal interval, clipped to [0, 1]), the change against the 7 days
    before and Welch's t of scipy.stats.ttest_ind(equal_var=False); only the seeded regression
    (the treatment arm on the last day) is marked. The same SQL as the dbt test ndcg_no_regression
    (tests/test_regression.py)."""
    from scipy import stats

    import test_regression

    values = test_regression.per_query_ndcg("regression_log")
    days = sorted({day for day, _, _ in values})
    out = tmp_path / "over.png"
    plotted = plot([str(test_regression.SEEDS / "regression_log.csv")], str(out), k=[5], over="day", segments="arm")
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert sorted(plotted) == ["regression_log.csv arm=control", "regression_log.csv arm=treatment"]
    marked = []
    for name, points in plotted.items():
        arm = name.split("=")[1]
        assert [str(p["period"]) for p in points] == days
        for place, p in enumerate(points):
            x = [v for (d, a, _), v in values.items() if (d, a) == (days[place], arm)]
            low, high = stats.norm.interval(0.95, loc=np.mean(x), scale=stats.sem(x))
            assert p["ndcg"] == pytest.approx(np.mean(x), abs=1e-12) == pytest.approx(p["mean"], abs=1e-15)
            assert (p["low"], p["high"]) == (pytest.approx(max(low, 0.0), abs=1e-9), pytest.approx(min(high, 1.0), abs=1e-9))
            if place:
                y = [v for (d, a, _), v in values.items() if a == arm and d in days[max(0, place - 7):place]]
                assert p["change"] == pytest.approx(np.mean(x) - np.mean(y), abs=1e-12)
                assert p["t"] == pytest.approx(stats.ttest_ind(x, y, equal_var=False).statistic, rel=1e-9)
            if p["significant_drop"]:
                marked.append((arm, str(p["period"])))
    assert marked == [("treatment", test_regression.LAST_DAY)]
    steady = plot([str(test_regression.SEEDS / "steady_log.csv")], str(out), k=[5], over="day", segments="arm")
    assert not any(p["significant_drop"] for points in steady.values() for p in points)


def test_cli_plot_over_and_its_errors(tmp_path):
    import test_regression

    log = str(test_regression.SEEDS / "regression_log.csv")
    out = tmp_path / "over.png"
    done = run_cli("plot", log, "--over", "day", "--segments", "arm", "--k", "5", "--window", "3",
                   "--alpha", "0.01", "--correction", "none", "--min-effect", "0.1", "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(PNG_MAGIC)
    # the marked periods are printed too: the seeded drop (treatment, last day) and nothing else
    drops = [line for line in done.stdout.splitlines() if line.startswith("significant drop:")]
    assert len(drops) == 1 and "arm=treatment day=2026-11-10" in drops[0], done.stdout
    steady = run_cli("plot", str(test_regression.SEEDS / "steady_log.csv"), "--over", "day", "--segments", "arm",
                     "--k", "5", "--output", str(out))
    assert steady.returncode == 0 and steady.stdout.splitlines()[-1] == "no significant drop", steady.stdout
    done = run_cli("plot", log, "--over", "day", "--segments", "arm", "--alpha", "0.03", "--output", str(out))
    assert done.returncode != 0 and "alpha must be one of" in done.stderr, done.stderr
    for extra, words in [(dict(k=[5, 10]), "one cutoff"), (dict(correction="holm"), "needs each test's p-value"),
                         (dict(window=0), "window must be"), (dict(bootstrap=100), "not with distribution or bootstrap"),
                         (dict(segments="day"), "already among the segments")]:
        with pytest.raises(ndcg_sql.OptionError, match=words):
            plot([log], str(out), over="day", **{"k": [5], "segments": "arm", **extra})


def _figures(monkeypatch) -> list:
    """The figures plot closes, kept to read their title and legend back."""
    import matplotlib.pyplot as plt

    figures = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda figure=None: (figures.append(figure), close(figure)))
    return figures


def _legend(figure) -> list[str]:
    return [text.get_text() for text in figure.axes[0].get_legend().get_texts()]


def test_cli_plot_title_and_names(tmp_path, monkeypatch):
    """plot --title TEXT is the axes' title and --names NAME ... the legend's run names (and the
    keys of the plotted numbers), one per RUN; another count of names is refused (exit 2, naming
    --names). Python's plot(..., names=, title=) does the same."""
    splade = str(DL / "run.dl19.splade_pp_ed.top100.txt")
    figures = _figures(monkeypatch)
    plotted = {}

    def recording(*given, **options):
        plotted.update(plot(*given, **options))
        return plotted

    monkeypatch.setattr(cli, "plot", recording)
    out = tmp_path / "named.png"
    assert cli.main(["plot", BM25, splade, "--judgments", QRELS, "--convention", "trec_eval", "--k", "1", "5",
                     "--names", "lexical", "learned", "--title", "DL19: two runs", "-o", str(out),
                     "--no-progress"]) == 0
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert sorted(plotted) == ["learned", "lexical"]
    assert figures[-1].axes[0].get_title() == "DL19: two runs"
    assert _legend(figures[-1]) == ["lexical", "learned"]
    direct = ndcg_sql.evaluate(splade, k=[1, 5], judgments=QRELS, convention="trec_eval").summary_records()
    assert [p["ndcg"] for p in plotted["learned"]] == [r["ndcg"] for r in direct]
    wrong = run_cli("plot", BM25, splade, "--names", "only-one", "-o", str(out))
    assert wrong.returncode == 2 and "--names" in wrong.stderr and "2 here; got 1" in wrong.stderr
    titled = plot([BM25], str(out), k=[1], judgments=QRELS, names=["bm25"], title="mine")
    assert list(titled) == ["bm25"] and figures[-1].axes[0].get_title() == "mine"
    for names, words in [(["a", "b"], "names must be 1"), (["a"] * 2, "names must be 1"), ([""], "non-empty")]:
        with pytest.raises(ndcg_sql.OptionError, match=words):
            plot([BM25], str(out), k=[1], judgments=QRELS, names=names)
    with pytest.raises(ndcg_sql.OptionError, match="either as the mapping's keys or as names"):
        plot({"bm25": BM25}, str(out), k=[1], judgments=QRELS, names=["x"])
    with pytest.raises(ndcg_sql.OptionError, match="distinct"):
        plot([BM25, splade], str(out), k=[1], judgments=QRELS, names=["x", "x"])


def test_run_names_are_the_same_with_and_without_segments(tmp_path, monkeypatch):
    """A run's part of a legend label is the same with and without segments: alone or with
    another run, the run's name ("both.parquet", as compare names it) is followed by the segment
    values, never dropped; by period (over) too."""
    import duckdb

    import test_regression

    figures = _figures(monkeypatch)
    both = tmp_path / "both.parquet"
    duckdb.sql(f"COPY (SELECT * FROM read_parquet('{EXAMPLES / 'click_log'}/*/clicks.parquet')) TO '{both}'")
    out = tmp_path / "n.png"
    kwargs = dict(k=[1], rank_col="position", label="clicked")
    one = tmp_path / "one.parquet"  # one arm: a run without segments too
    duckdb.sql(f"COPY (SELECT * FROM '{both}' WHERE arm = 'bm25') TO '{one}'")
    whole = plot([str(one)], str(out), **kwargs)
    assert list(whole) == ndcg_sql.running.results.run_names([str(one)]) == ["one.parquet"]
    assert _legend(figures[-1]) == ["one.parquet"]
    assert list(plot([str(one)], str(out), segments="arm", **kwargs)) == ["one.parquet arm=bm25"]
    split = plot([str(both)], str(out), segments="arm", **kwargs)
    assert sorted(split) == ["both.parquet arm=bm25", "both.parquet arm=splade"]
    assert sorted(_legend(figures[-1])) == sorted(split)
    named = plot([str(both)], str(out), segments="arm", names=["log"], **kwargs)
    assert sorted(named) == ["log arm=bm25", "log arm=splade"]
    assert list(plot({"log": str(one)}, str(out), **kwargs)) == ["log"]
    log = tmp_path / "control.csv"  # one arm of the regression log
    duckdb.sql(f"COPY (SELECT * FROM read_csv('{test_regression.SEEDS / 'regression_log.csv'}') "
               f"WHERE arm = 'control') TO '{log}'")
    assert list(plot([str(log)], str(out), k=[5], over="day")) == ["control.csv"]
    assert list(plot([str(log)], str(out), k=[5], over="day", segments="arm")) == ["control.csv arm=control"]
