"""The dbt package run by dbt itself (dbt-core's dbtRunner) on real data, on dbt-duckdb and dbt-postgres.

dbt_macros/integration_tests/ is copied (with the package) to a temporary
folder and built once per adapter: seeds from examples/ (LightGBM lambdarank,
TREC DL 2019 BM25 and SPLADE++ runs with NIST's judgments), models calling the
macros (NDCG, named measures, peer conventions), the generic test gating mean
NDCG@k and the input test. The build itself proves the numbers: each numeric model
has an expected-value seed (seeds/expected/, make_expected.py) and the project's
generic test equals_expected, which must also fail when a seed is made wrong.
Every number dbt computed is also compared here with the numpy
reference (tests/reference.py, to 1e-9), with the peers (pytrec_eval,
scikit-learn) and with the Python runner on the same data; the gate must pass at
the configured thresholds and fail when a threshold is raised above the measured
mean; the input test must pass on the seeds and fail on a seed with faults put in.
On dbt-postgres the project runs against a throwaway Postgres server started
the way tests/engines.py starts it (ICU collation: string order is not byte order).
"""

import csv
import os
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest

dbt_main = pytest.importorskip("dbt.cli.main", reason="install '.[test]' (it brings dbt-core and dbt-duckdb)")

import ndcg_sql
import reference
from conftest import ROOT
from ndcg_sql.building import plan
from ndcg_sql.api import sql_plan

#: slow (half a minute or more of a worker): dbt builds
pytestmark = pytest.mark.slow

PACKAGE = ROOT / "dbt_macros"
SEEDS = PACKAGE / "integration_tests" / "seeds"
TOL = 1e-9


def invoke(project: Path, *args: str):
    """One dbt command through dbt's own Python runner; returns its dbtRunnerResult."""
    return dbt_main.dbtRunner().invoke(
        [*args, "--project-dir", str(project), "--profiles-dir", str(project), "--no-use-colors"]
    )


def copy_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dbt") / "dbt_macros"
    shutil.copytree(
        PACKAGE, root,
        ignore=shutil.ignore_patterns("target", "logs", "dbt_packages", "package-lock.yml", "*.duckdb"),
    )
    return root / "integration_tests"


class environment:
    """Environment variables set for a block (dbt reads its profile's through env_var())."""

    def __init__(self, **values):
        self.values = {"DBT_SEND_ANONYMOUS_USAGE_STATS": "false", **values}  # no network from tests

    def __enter__(self):
        self.saved = {name: os.environ.get(name) for name in self.values}
        os.environ.update(self.values)

    def __exit__(self, *_):
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The integration project, built on dbt-duckdb; yields (project folder, DuckDB file, build result)."""
    project = copy_project(tmp_path_factory)
    database = project / "integration_tests.duckdb"
    with environment(NDCG_SQL_DBT_DUCKDB=str(database)):
        deps = invoke(project, "deps")
        assert deps.success, deps.exception
        build = invoke(project, "build")
        yield project, database, build


def table(database: Path, name: str) -> list[dict]:
    with duckdb.connect(str(database)) as con:
        relation = con.table(name)
        return [dict(zip(relation.columns, row)) for row in relation.fetchall()]


def test_build_passes_every_model_seed_and_generic_test(project):
    _, _, build = project
    assert build.success, build.exception
    statuses = {result.node.name: str(result.status) for result in build.result.results}
    assert len(statuses) == NODES
    assert set(statuses.values()) <= {"success", "pass"}, statuses
    assert sum(name.startswith("ndcg_sql_ndcg_at_least") for name in statuses) == 3
    assert sum(name.startswith("ndcg_sql_ndcg_valid_input") for name in statuses) == 2
    assert sum(name.startswith("ndcg_sql_ndcg_one_partition_per_query") for name in statuses) == 1
    assert sum(name.startswith("ndcg_sql_ndcg_no_regression_steady_log") for name in statuses) == 2
    assert sum(name.startswith("equals_expected_") for name in statuses) == EXPECTED_SEEDS


#: one expected-value seed, and one equals_expected test, per numeric model
#: (all but dl19_bm25_run, a selection of seed rows)
EXPECTED_SEEDS = 21
#: seeds (5 + 21 expected; bad_ranking and regression_log only on demand), models (22) and data
#: tests (10 + 21 equals_expected) of the project
NODES = 79
#: of those, built on dbt-duckdb and dbt-postgres only, where the incremental runs are tested
#: (tests/test_dbt_incremental.py): the seed daily_log and its ndcg_one_partition_per_query test,
#: the models daily_per_query (incremental) and daily_summary, their expected seeds and tests
DAILY_NODES = 8
#: of those, also built on dbt-duckdb and dbt-postgres only: the seed steady_log and its two
#: ndcg_no_regression tests, the model steady_arms (ndcg_compare_arms), its expected seed and test
REGRESSION_NODES = 6


# What each per-query model computes, as arguments of ndcg_sql.evaluate (the Python runner)
# and of the numpy reference; `data` names the seed and the rows of it.
def lambdarank():
    return pd.read_csv(SEEDS / "lambdarank_test.csv", dtype={"doc_id": str})


def dl19_runs():
    return pd.read_csv(SEEDS / "dl19_runs.csv", dtype={"query_id": str, "item_id": str, "arm": str})


def dl19_qrels():
    return pd.read_csv(SEEDS / "dl19_qrels.csv", dtype={"query_id": str, "item_id": str})


def bm25():
    runs = dl19_runs()
    return runs[runs["arm"] == "bm25"].drop(columns=["arm"])


# Each per-query model: how to load its input rows as pandas, the table of the dbt database
# that holds the same rows, and the options it was built with (as ndcg_sql.evaluate's).
MODELS = {
    "lambdarank_per_query": (lambdarank, "lambdarank_test", dict(item_col="doc_id", k=[1, 3, 5, 10, None])),
    "lambdarank_options_per_query": (
        lambdarank,
        "lambdarank_test",
        dict(item_col="doc_id", k=[2, 5, None], gain={0: 0, 1: 1, 2: 3, 3: 7, 4: 15.5}, ties="item-desc", no_relevant="one"),
    ),
    "dl19_bm25_per_query": (bm25, "dl19_bm25_run", dict(judgments=True, gain="linear", ties="item-desc", k=[10, None])),
    "dl19_bm25_by_rank_per_query": (
        bm25,
        "dl19_bm25_run",
        dict(rank_col="rank", judgments=True, missing_queries="zero", no_relevant="skip", ties="item-asc", k=[1, 5, 20]),
    ),
}
#: ndcg_sql.evaluate may tune its SQL to the data it has loaded (it knows, say, the list
#: lengths; dbt compiles before any data is read), which can change the order of float
#: additions: the same numbers up to the last bits. The SQL it emits for a table
#: (ndcg_sql.to_sql, `ndcg-sql sql`) is compared bit for bit.
RUNNER_TOL = 1e-13


def emitted(database: Path, table_name: str, options: dict) -> list[dict]:
    """The per-query SQL the package emits for a table (`ndcg-sql sql --table`), run on the dbt database."""
    options = dict(options)
    judged = options.pop("judgments", False)
    with duckdb.connect(str(database)) as con:
        # the id columns' types, as a user of to_sql reads them from the catalog (dl19_bm25_run's
        # ids are BIGINT, the judgments' text: compared as text, as the dbt model compares them)
        def types(table):
            return dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                                    "WHERE table_name = ?", [table]).fetchall())

        ids = {}
        if judged:
            run, qrels = types(table_name), types("dl19_qrels")
            query, item = options.get("query_col", "query_id"), options.get("item_col", "item_id")
            ids = {"id_types": {"query": run[query], "item": run[item],
                                "judgments_query": qrels[query], "judgments_item": qrels[item]}}
        sql = ndcg_sql.to_sql(table=table_name, judgments_table="dl19_qrels" if judged else None, **ids, **options)
        relation = con.sql(sql)
        return [dict(zip(relation.columns, row)) for row in relation.fetchall()]


def runner(data: pd.DataFrame, options: dict):
    options = dict(options)
    if options.pop("judgments", False):
        options["judgments"] = dl19_qrels()
    return ndcg_sql.evaluate(data, **options)


def reference_values(data: pd.DataFrame, options: dict):
    item, order = options.get("item_col", "item_id"), options.get("rank_col", "score")
    rows = list(zip(data["query_id"], data[item], data[order], data["label"] if "label" in data else [0] * len(data)))
    judgments = None
    if options.get("judgments"):
        qrels = dl19_qrels()
        judgments = list(zip(qrels["query_id"], qrels["item_id"], qrels["label"]))
    return reference.evaluate(
        rows, options["k"], gain=options.get("gain", "exponential"), ties=options.get("ties", "average"),
        no_relevant=options.get("no_relevant", "zero"), judgments=judgments,
        missing_queries=options.get("missing_queries", "ignore"), higher_is_better="rank_col" not in options,
    )


def per_query(rows, segment=None):
    return {
        (row["query_id"], row["k"]): (row["cg"], row["dcg"], row["idcg"], row["ndcg"])
        for row in rows
        if segment is None or row["arm"] == segment
    }


def assert_matches_reference(got: dict, expected: dict, tol: float = TOL):
    assert set(got) == set(expected)
    for key, values in expected.items():
        for value, want in zip(got[key], values):
            assert reference.close(value, want, tol), (key, got[key], values)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_per_query_model_matches_reference_and_runner(project, model):
    _, database, _ = project
    load, table_name, options = MODELS[model]
    got = per_query(table(database, model))
    expected, _ = reference_values(load(), options)
    assert_matches_reference(got, expected)
    # the SQL dbt compiled and the SQL the package emits, on the same rows: the very same numbers
    assert got == per_query(emitted(database, table_name, options))
    # and the Python runner on the seed files
    assert_matches_reference(got, per_query(runner(load(), options).per_query_records()), tol=RUNNER_TOL)


def test_segments_evaluate_each_arm_on_its_own(project):
    _, database, _ = project
    rows = table(database, "dl19_arms_per_query")
    options = dict(judgments=True, gain="linear", ties="item-desc", k=[1, 3, 10, None])
    runs = dl19_runs()
    summary = {(r["arm"], r["k"]): r for r in table(database, "dl19_arms_summary")}
    for arm in ("bm25", "splade_pp_ed"):
        data = runs[runs["arm"] == arm].drop(columns=["arm"])
        expected, means = reference_values(data, options)
        assert_matches_reference(per_query(rows, arm), expected)
        # The runner sees one arm, dbt both at once: DuckDB's windowed running sums may then
        # associate differently, so the two agree to the last bits rather than bit for bit.
        result = runner(data, options)
        assert_matches_reference(per_query(rows, arm), per_query(result.per_query_records()), tol=1e-13)
        for record in result.summary_records():
            row = summary[(arm, record["k"])]
            assert (row["queries"], row["no_relevant"]) == (record["queries"], record["no_relevant"])
            assert reference.close(row["ndcg"], record["ndcg"], 1e-13)
            assert reference.close(row["ndcg"], means[record["k"]][0], TOL)
    assert len(summary) == 8
    # the published Anserini BM25 baseline on TREC DL 2019 passage: NDCG@10 = 0.5058
    assert summary[("bm25", 10)]["ndcg"] == pytest.approx(0.5058, abs=5e-5)


@pytest.mark.parametrize(
    "summary_model, per_query_model",
    [("lambdarank_summary", "lambdarank_per_query"), ("dl19_bm25_summary", "dl19_bm25_per_query")],
)
def test_summary_model_matches_reference_and_runner(project, summary_model, per_query_model):
    _, database, _ = project
    load, _, options = MODELS[per_query_model]
    _, means = reference_values(load(), options)
    got = table(database, summary_model)
    assert [row["k"] for row in got] == list(options["k"])
    for row in got:
        assert reference.close(row["ndcg"], means[row["k"]][0], TOL)
        assert row["queries"] == means[row["k"]][1]
    # the runner's summary SQL over the same per-query rows: the very same numbers
    resolved, _ = sql_plan("ranking", k=options["k"])
    sql = plan.summary_sql(resolved, per_query_model)
    with duckdb.connect(str(database)) as con:
        relation = con.sql(sql)
        assert got == [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    for row, record in zip(got, runner(load(), options).summary_records()):
        assert (row["k"], row["queries"], row["no_relevant"]) == (record["k"], record["queries"], record["no_relevant"])
        assert reference.close(row["ndcg"], record["ndcg"], RUNNER_TOL)


def test_generic_test_fails_the_build_below_the_threshold(project):
    project_dir, _, _ = project
    # lambdarank mean NDCG@10 is 0.742 and BM25's 0.506: raise both gates above them
    result = invoke(project_dir, "build", "--vars", "{lambdarank_min_ndcg_at_10: 0.75, dl19_min_ndcg_at_10: 0.6}")
    assert not result.success
    outcome = {r.node.name: (str(r.status), r.failures) for r in result.result.results}
    failed = {name: failures for name, (status, failures) in outcome.items() if status == "fail"}
    assert len(failed) == 2, outcome
    lambdarank_gate = next(name for name in failed if "lambdarank" in name)
    dl19_gate = next(name for name in failed if "dl19" in name)
    assert failed[lambdarank_gate] == 1
    assert failed[dl19_gate] == 1  # BM25 falls below 0.6; SPLADE++ (0.731) does not
    # the gate stops the models built on what failed it (dbt build skips them)
    skipped = {name for name, (status, _) in outcome.items() if status == "skipped"}
    assert {"lambdarank_summary", "dl19_arms_per_query", "dl19_arms_summary"} <= skipped, outcome
    # and just below the measured means, the gates pass
    result = invoke(project_dir, "build", "--vars", "{lambdarank_min_ndcg_at_10: 0.742, dl19_min_ndcg_at_10: 0.505}")
    assert result.success
    assert {str(r.status) for r in result.result.results} <= {"success", "pass"}


@pytest.mark.parametrize(
    "call, message",
    [
        ("ref('lambdarank_test'), item_col='doc_id', k=[0]", "k must be a positive integer"),
        ("ref('lambdarank_test'), item_col='doc_id', gain='cubic'", "gain must be one of"),
        ("ref('lambdarank_test'), item_col='doc_id', gain={1: -1}", "non-negative gains"),
        ("ref('lambdarank_test'), item_col='doc_id', score_col='score', rank_col='rank'", "not both"),
        ("ref('lambdarank_test'), item_col='doc_id', ties='random'", "ties must be one of"),
        ("ref('lambdarank_test'), query_col='k'", "may not be named"),
        ("ref('dl19_runs'), segment_cols=['arm'], judgments=ref('dl19_qrels'), missing_queries='zero'", "need judgments per (segment, query)"),
    ],
)
def test_bad_options_stop_compilation(project, call, message):
    project_dir, _, _ = project
    result = invoke(project_dir, "compile", "--inline", "{{ ndcg_sql.ndcg_per_query(" + call + ") }}")
    assert not result.success
    assert message in error_text(result.exception)


@pytest.mark.parametrize(
    "call, message",
    [
        ("ref('dl19_runs'), ref('dl19_qrels'), depth=0", "depth must be a positive integer, the ranks shown; got 0"),
        ("ref('dl19_runs'), ref('dl19_qrels'), depth='10'", "depth must be a positive integer, the ranks shown; got '10'"),
        ("ref('dl19_runs'), none", "ndcg_unjudged needs judgments"),
        ("ref('dl19_runs'), ref('dl19_qrels'), ties='random'", "ties must be one of"),
    ],
)
def test_bad_worklist_options_stop_compilation(project, call, message):
    """ndcg_unjudged refuses what ndcg_sql.unjudged refuses, with the message of the one check
    (sql/options/depth.sql, the options' macros)."""
    project_dir, _, _ = project
    result = invoke(project_dir, "compile", "--inline", "{{ ndcg_sql.ndcg_unjudged(" + call + ") }}")
    assert not result.success
    assert message in error_text(result.exception)


def error_text(error: BaseException | None) -> str:
    """The messages of an exception and of those it was raised from (dbt wraps compiler errors)."""
    texts = []
    while error is not None:
        texts.append(str(error))
        error = error.__cause__ or error.__context__
    return " / ".join(texts)


def test_column_names_are_quoted_not_pasted(project):
    project_dir, _, _ = project
    result = invoke(project_dir, "compile", "--inline", "select {{ ndcg_sql.quote_identifier('a\"b; drop') }} as x")
    assert result.success, result.exception
    assert 'select "a""b; drop" as x' in result.result.results[0].node.compiled_code


# ---------------------------------------------------------------- measures, conventions, input checks

LAMBDARANK_MEASURES = [("nDCG@10", None), ("P@5", ("P", 5, 1.0)), ("R@10", ("R", 10, 1.0)), ("AP", ("AP", None, 1.0)),
                       ("RR", ("RR", None, 1.0)), ("P(rel=2)@5", ("P", 5, 2.0)), ("Success@1", ("Success", 1, 1.0))]


def expected_interval(name: str, values: list) -> tuple:
    """(method, low, high) of a measure's 95% interval, as scipy computes it: the Wilson interval
    (binomtest) for Success@k, whose values are 0 or 1; for the others here, bounded in [0, 1],
    the normal interval (norm.interval) clipped to [0, 1]."""
    from scipy import stats

    if name.startswith("Success@"):
        assert set(values) <= {0, 1}
        interval = stats.binomtest(int(sum(values)), len(values)).proportion_ci(0.95, method="wilson")
        return "wilson", interval.low, interval.high
    low, high = stats.norm.interval(0.95, loc=sum(values) / len(values), scale=stats.sem(values))
    return "normal, clipped to [0, 1]", max(low, 0.0), min(high, 1.0)


TREC_MEASURES = {"nDCG@10": "ndcg_cut_10", "P@10": "P_10", "R@100": "recall_100", "AP": "map", "RR": "recip_rank"}


def measure_rows(rows) -> dict:
    return {(row["query_id"], row["measure"]): row["value"] for row in rows}


def check_lambdarank_measures(read):
    """lambdarank_measures against the numpy reference (binary measures by item id ascending)."""
    got = measure_rows(read("lambdarank_measures"))
    data = lambdarank()
    rows = list(zip(data["query_id"], data["doc_id"], data["score"], data["label"]))
    binary = [(name, *spec) for name, spec in LAMBDARANK_MEASURES if spec is not None]
    expected = reference.measures(rows, binary, ties="item-asc")
    ndcg, _ = reference.evaluate(rows, [10], ties="item-asc")
    expected.update({(q, "nDCG@10"): values[3] for (q, k), values in ndcg.items()})
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert reference.close(got[key], value, TOL), (key, got[key], value)
    # the summary: mean, count, standard error and interval (by the range of the values), as scipy computes them
    from scipy import stats

    summary = read("lambdarank_measures_summary")
    assert [row["measure"] for row in summary] == [name for name, _ in LAMBDARANK_MEASURES]
    for row in summary:
        values = [value for (q, measure), value in expected.items() if measure == row["measure"]]
        assert row["queries"] == len(values)
        assert reference.close(row["mean"], sum(values) / len(values), TOL)
        assert reference.close(row["stderr"], stats.sem(values), TOL)
        method, low, high = expected_interval(row["measure"], values)
        assert row["ci_method"] == method
        assert reference.close(row["ci_low"], low, 1e-8) and reference.close(row["ci_high"], high, 1e-8)


ARMS_MEASURES = [("nDCG@10", None), ("P@10", ("P", 10, 1.0)), ("R@100", ("R", 100, 1.0)), ("AP", ("AP", None, 1.0)),
                 ("RR(rel=2)", ("RR", None, 2.0)), ("Success@1", ("Success", 1, 1.0))]


def check_arms_measures(read):
    """dl19_arms_measures (segment_cols=['arm']): each arm's rows are the numpy reference's on
    that arm alone (NIST's judgments, trec_eval's ordering); dl19_arms_measures_summary: per
    (arm, measure) the mean, count, standard error and interval as scipy computes them (Wilson
    for Success@1, whose splade interval the normal approximation took past 1)."""
    from scipy import stats

    got = {(row["arm"], row["query_id"], row["measure"]): row["value"] for row in read("dl19_arms_measures")}
    summary = read("dl19_arms_measures_summary")
    runs, qrels = dl19_runs(), dl19_qrels()
    judgments = list(zip(qrels["query_id"], qrels["item_id"], qrels["label"]))
    binary = [(name, *spec) for name, spec in ARMS_MEASURES if spec is not None]
    expected = {}
    for arm in ("bm25", "splade_pp_ed"):
        data = runs[runs["arm"] == arm]
        rows = list(zip(data["query_id"], data["item_id"], data["score"], [0] * len(data)))
        values = reference.measures(rows, binary, ties="item-desc", judgments=judgments)
        ndcg, _ = reference.evaluate(rows, [10], gain="linear", ties="item-desc", judgments=judgments)
        values.update({(q, "nDCG@10"): v[3] for (q, k), v in ndcg.items()})
        expected.update({(arm, q, name): value for (q, name), value in values.items()})
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert reference.close(got[key], value, TOL), (key, got[key], value)
    assert [(row["arm"], row["measure"]) for row in summary] == [
        (arm, name) for arm in ("bm25", "splade_pp_ed") for name, _ in ARMS_MEASURES]
    for row in summary:
        values = [v for (arm, _, name), v in expected.items() if (arm, name) == (row["arm"], row["measure"])]
        mean = sum(values) / len(values)
        assert row["queries"] == len(values) == 43
        assert reference.close(row["mean"], mean, TOL)
        assert reference.close(row["stderr"], stats.sem(values), TOL)
        method, low, high = expected_interval(row["measure"], values)
        assert row["ci_method"] == method
        assert reference.close(row["ci_low"], low, 1e-8) and reference.close(row["ci_high"], high, 1e-8)
    # the published Anserini BM25 baseline on TREC DL 2019 passage: NDCG@10 = 0.5058
    bm25_ndcg = next(row["mean"] for row in summary if (row["arm"], row["measure"]) == ("bm25", "nDCG@10"))
    assert bm25_ndcg == pytest.approx(0.5058, abs=5e-5)


def check_conventions(read, trec_eval=True):
    """sklearn: scikit-learn's ndcg_score itself; trec_eval: pytrec_eval itself (float32 scores;
    trec_eval=False where the engine has no 4-byte float and the model is disabled)."""
    import pytrec_eval
    from sklearn.metrics import ndcg_score

    got = measure_rows(read("lambdarank_sklearn"))
    data = lambdarank()
    for qid, group in data.groupby("query_id"):
        if len(group) < 2:  # scikit-learn refuses one-item lists
            continue
        for name, k in (("nDCG@5", 5), ("nDCG", None)):
            want = ndcg_score([group["label"].to_numpy()], [group["score"].to_numpy()], k=k)
            assert reference.close(got[(qid, name)], want, TOL), (qid, name)
    if not trec_eval:
        return
    got = measure_rows(read("dl19_bm25_trec_eval"))
    run, qrels = bm25(), dl19_qrels()
    run_dict, qrels_dict = {}, {}
    for q, d, s in zip(run["query_id"], run["item_id"], run["score"]):
        run_dict.setdefault(q, {})[d] = float(s)
    for q, d, rel in zip(qrels["query_id"], qrels["item_id"], qrels["label"]):
        qrels_dict.setdefault(q, {})[d] = int(rel)
    expected = pytrec_eval.RelevanceEvaluator(qrels_dict, set(TREC_MEASURES.values())).evaluate(run_dict)
    assert {q for q, _ in got} == set(expected)
    for qid, values in expected.items():
        for name, measure in TREC_MEASURES.items():
            assert reference.close(got[(qid, name)], values[measure], TOL), (qid, name)
    # P(rel=2)@10: trec_eval -l 2, from the numpy reference
    rows = list(zip(run["query_id"], run["item_id"], run["score"], [0] * len(run)))
    level2 = reference.measures(rows, [("P(rel=2)@10", "P", 10, 2.0)], ties="item-desc",
                                judgments=list(zip(qrels["query_id"], qrels["item_id"], qrels["label"])))
    for key, value in level2.items():
        assert reference.close(got[key], value, TOL), key


def check_bad_input_fails(project_dir):
    """The input test passes on the seeds (the build) and fails on the seed with three faults (and,
    called with a gain mapping, on the labels the mapping lacks)."""
    result = invoke(project_dir, "build", "--vars", "{bad_input: true}", "--select", "bad_ranking")
    assert not result.success
    outcome = {r.node.name: (str(r.status), r.failures) for r in result.result.results}
    failed = {name: failures for name, (status, failures) in outcome.items() if status == "fail"}
    # duplicate (query 1), NULL label (2), negative label (3); with the gain mapping {0: 0, 1: 1, 2: 3} and
    # negative_labels zero: duplicate (1), NULL label (2), labels the mapping lacks (1 and 3)
    assert sorted(failed.values()) == [3, 4], outcome


def edit_csv(path: Path, change) -> None:
    """Rewrite a seed file: change(rows) edits its rows (lists of strings, header first) in place."""
    with open(path, newline="") as source:
        rows = list(csv.reader(source))
    change(rows)
    with open(path, "w", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


def shift(row: list, column: int, by: float) -> None:
    row[column] = repr(float(row[column]) + by)


#: wrong expected values put into seeds/expected/ (one seed each), and the failing rows
#: equals_expected must report (None: within the 1e-9 tolerance, the test passes)
WRONG_EXPECTED = {
    # a value off by 1e-6 (lambdarank mean NDCG@10)
    "expected_lambdarank_summary": (lambda rows: shift(rows[4], 1, 1e-6), 1, {"different values"}),
    # NULL expected where the model has a value
    "expected_dl19_bm25_per_query": (lambda rows: rows[1].__setitem__(5, ""), 1, {"different values"}),
    # a row of the model that the seed lacks
    "expected_lambdarank_measures": (lambda rows: rows.pop(7), 1, {"not in expected"}),
    # a row of the seed that the model lacks
    "expected_dl19_arms_summary": (lambda rows: rows.append(["bm25", "5", "0.5", "43", "0", "43"]), 1,
                                   {"missing from model"}),
    # a key twice in the seed: both copies are reported
    "expected_lambdarank_options_per_query": (lambda rows: rows.append(list(rows[1])), 2, {"duplicate key"}),
    # off by 5e-10 (mean NDCG over the whole list, k NULL): within tolerance
    "expected_dl19_bm25_summary": (lambda rows: shift(rows[2], 1, 5e-10), None, set()),
}


def check_equals_expected_fails(project_dir: Path, *target: str, query=None):
    """Make some expected seeds wrong (WRONG_EXPECTED), rebuild those seeds with their tests:
    exactly the wrong ones fail, with the rows they should; then put the seeds back."""
    folder = project_dir / "seeds" / "expected"
    originals = {name: (folder / f"{name}.csv").read_text() for name in WRONG_EXPECTED}
    selected = ["--select", *WRONG_EXPECTED]
    try:
        for name, (change, _, _) in WRONG_EXPECTED.items():
            edit_csv(folder / f"{name}.csv", change)
        result = invoke(project_dir, "build", *target, *selected)
        assert not result.success
        tests = {}
        for r in result.result.results:
            if r.node.resource_type == "test":
                seed = next(node.split(".")[-1] for node in r.node.depends_on.nodes if node.startswith("seed."))
                tests[seed] = r
            else:
                assert str(r.status) == "success", (r.node.name, r.status)
        assert set(tests) == set(WRONG_EXPECTED)
        for seed, (_, failures, problems) in WRONG_EXPECTED.items():
            r = tests[seed]
            assert (str(r.status), r.failures) == (("fail", failures) if failures else ("pass", 0)), (seed, r.status)
            if query is not None:  # the failing rows, as the test's query returns them
                assert {row["problem"] for row in query(r.node.compiled_code)} == problems, seed
    finally:
        for name, text in originals.items():
            (folder / f"{name}.csv").write_text(text)
    result = invoke(project_dir, "build", *target, *selected)  # the seeds as committed: all pass again
    assert result.success, result.exception
    assert {str(r.status) for r in result.result.results} <= {"success", "pass"}


def test_measures_model_matches_reference(project):
    _, database, _ = project
    check_lambdarank_measures(lambda name: table(database, name))


def test_measures_per_segment_model_matches_reference_and_runner(project):
    _, database, _ = project
    check_arms_measures(lambda name: table(database, name))
    # and the Python runner, measures per segment over the same seeds
    got = {(row["arm"], row["measure"]): row for row in table(database, "dl19_arms_measures_summary")}
    result = ndcg_sql.evaluate(dl19_runs(), judgments=dl19_qrels(), measures=[name for name, _ in ARMS_MEASURES],
                               segments="arm", gain="linear", ties="item-desc")
    records = result.summary_records()
    assert [(r["arm"], r["measure"]) for r in records] == list(got)
    for record in records:
        row = got[(record["arm"], record["measure"])]
        assert row["queries"] == record["queries"]
        for field in ("mean", "stderr", "ci_low", "ci_high", "ci_method"):
            assert reference.close(row[field], record[field], RUNNER_TOL), (record, row)


def test_sampled_summary_model_equals_the_runner(project):
    """dbt's summary of a sample of the queries (ndcg_measures with sample and seed, ndcg_sample_strata,
    ndcg_measures_summary with sample_strata) gives the Python runner's estimate and interval with
    sample= (the expected seed, from tests/reference.py's draw, holds both to the reference)."""
    _, database, _ = project
    got = {(row["arm"], row["measure"]): row for row in table(database, "dl19_sampled_measures_summary")}
    result = ndcg_sql.evaluate(dl19_runs(), judgments=dl19_qrels(), measures=["nDCG@10", "AP", "Success@1"],
                               segments="arm", gain="linear", ties="item-desc", sample=0.5, seed=3)
    records = result.summary_records()
    assert sorted((r["arm"], r["measure"]) for r in records) == sorted(got)
    for record in records:
        row = got[(record["arm"], record["measure"])]
        assert row["queries"] == record["queries"] and row["population"] == record["population"]
        for field in ("mean", "stderr", "ci_low", "ci_high", "ci_method"):
            assert reference.close(row[field], record[field], RUNNER_TOL), (record, row)


def test_convention_models_match_the_peer_tools(project):
    _, database, _ = project
    check_conventions(lambda name: table(database, name))


def check_regression_fails(project_dir: Path, *target: str, query=None):
    """ndcg_no_regression passes on steady_log (the build) and fails on regression_log, the same
    log with one real regression: the treatment arm's NDCG@5 on the last day, against the 7 days
    before it and against the control arm that day - one failing row each, naming that drop,
    whose size is the numpy reference's (make_seeds.py seeded it; tests/test_regression.py checks
    the t, df and p-value brackets against scipy)."""
    import test_regression

    result = invoke(project_dir, "build", *target, "--vars", "{regression: true}", "--select", "regression_log")
    assert not result.success
    outcome = {r.node.name: (str(r.status), r.failures) for r in result.result.results}
    assert sorted(outcome.values()) == [("fail", 1), ("fail", 1), ("success", None)], outcome
    if query is None:
        return
    values = test_regression.per_query_ndcg("regression_log")
    last = test_regression.LAST_DAY
    treatment = [v for (d, a, _), v in values.items() if (d, a) == (last, "treatment")]
    control = [v for (d, a, _), v in values.items() if (d, a) == (last, "control")]
    window = [v for (d, a, _), v in values.items() if a == "treatment" and "2026-11-03" <= d < last]
    for r in result.result.results:
        if r.node.resource_type == "test":
            [row] = query(r.node.compiled_code)
            assert (row["measure"], str(row["day"]), row["arm"]) == ("nDCG@5", last, "treatment")
            # the arms test's rows lead with its segment (day), the period test's with the arm
            baseline = control if list(row)[0] == "day" else window
            assert reference.close(row["mean_drop"], sum(baseline) / len(baseline) - sum(treatment) / len(treatment), 1e-12)


def test_regression_test_fails_on_the_seeded_regression(project):
    project_dir, database, _ = project

    def query(sql):
        with duckdb.connect(str(database)) as con:
            relation = con.sql(sql)
            return [dict(zip(relation.columns, row)) for row in relation.fetchall()]

    check_regression_fails(project_dir, query=query)


def test_input_test_fails_on_bad_input(project):
    project_dir, _, _ = project
    check_bad_input_fails(project_dir)


def test_equals_expected_fails_on_wrong_expected_values(project):
    project_dir, database, _ = project

    def query(sql):
        with duckdb.connect(str(database)) as con:
            relation = con.sql(sql)
            return [dict(zip(relation.columns, row)) for row in relation.fetchall()]

    check_equals_expected_fails(project_dir, query=query)


# ---------------------------------------------------------------- the same project on dbt-postgres


def postgres_variables(server) -> dict:
    """The NDCG_SQL_DBT_PG_* variables of profiles.yml's postgres target for a server of
    tests/engines.py (its own throwaway cluster, or the one NDCG_SQL_POSTGRES_DSN names)."""
    import psycopg

    if server.base:
        settings = {"host": server.base, "port": "5432", "user": "postgres", "dbname": "postgres"}
    else:
        settings = psycopg.conninfo.conninfo_to_dict(os.environ[server.dsn_variable])
    return {f"NDCG_SQL_DBT_PG_{key.upper()}": str(value) for key, value in settings.items()
            if key in ("host", "port", "user", "password", "dbname")}


@pytest.fixture(scope="module")
def postgres_project(tmp_path_factory):
    """The integration project built on dbt-postgres against a throwaway server
    (tests/engines.py; NDCG_SQL_POSTGRES_DSN for an existing one);
    yields (project folder, reader of a table by name, build result)."""
    from engines import Postgres

    server = Postgres()
    try:
        variables = postgres_variables(server)
        project = copy_project(tmp_path_factory)

        def read(name):
            with server.con.cursor() as cursor:
                cursor.execute(f'SELECT * FROM "ndcg_sql_it"."{name}"')
                names = [d.name for d in cursor.description]
                return [dict(zip(names, row)) for row in cursor.fetchall()]

        with environment(**variables):
            deps = invoke(project, "deps")
            assert deps.success, deps.exception
            build = invoke(project, "build", "--target", "postgres")
            yield project, read, build
    finally:
        server.close()


@pytest.mark.engines  # dbt-postgres on a throwaway Postgres cluster
def test_postgres_build_passes(postgres_project):
    _, _, build = postgres_project
    assert build.success, build.exception
    statuses = {result.node.name: str(result.status) for result in build.result.results}
    assert len(statuses) == NODES
    assert set(statuses.values()) <= {"success", "pass"}, statuses


@pytest.mark.engines  # dbt-postgres on a throwaway Postgres cluster
def test_postgres_models_match_reference(postgres_project):
    _, read, _ = postgres_project
    check_models_match_reference(read)


def check_models_match_reference(read):
    """The per-query models (also per arm) and the summaries against the numpy reference."""
    for model, (load, _, options) in MODELS.items():
        expected, _ = reference_values(load(), options)
        got = per_query(read(model))
        assert_matches_reference(got, expected)
    rows = read("dl19_arms_per_query")
    runs = dl19_runs()
    options = dict(judgments=True, gain="linear", ties="item-desc", k=[1, 3, 10, None])
    for arm in ("bm25", "splade_pp_ed"):
        expected, _ = reference_values(runs[runs["arm"] == arm].drop(columns=["arm"]), options)
        assert_matches_reference(per_query(rows, arm), expected)
    for summary_model, per_query_model in (("lambdarank_summary", "lambdarank_per_query"),
                                           ("dl19_bm25_summary", "dl19_bm25_per_query")):
        load, _, options = MODELS[per_query_model]
        _, means = reference_values(load(), options)
        got = read(summary_model)
        assert sorted(row["k"] or 0 for row in got) == sorted(k or 0 for k in options["k"])
        for row in got:
            assert reference.close(row["ndcg"], means[row["k"]][0], TOL)
            assert row["queries"] == means[row["k"]][1]


@pytest.mark.engines  # dbt-postgres on a throwaway Postgres cluster
def test_postgres_measures_and_conventions(postgres_project):
    _, read, _ = postgres_project
    check_lambdarank_measures(read)
    check_arms_measures(read)
    check_conventions(read)


@pytest.mark.engines  # dbt-postgres on a throwaway Postgres cluster
def test_postgres_gates(postgres_project):
    project_dir, _, _ = postgres_project
    result = invoke(project_dir, "test", "--target", "postgres", "--select", "test_name:ndcg_at_least",
                    "--vars", "{lambdarank_min_ndcg_at_10: 0.75, dl19_min_ndcg_at_10: 0.6}")
    assert not result.success
    failed = {r.node.name: r.failures for r in result.result.results if str(r.status) == "fail"}
    assert sorted(failed.values()) == [1, 1], failed
    result = invoke(project_dir, "build", "--target", "postgres", "--vars", "{bad_input: true}", "--select", "bad_ranking")
    outcome = {r.node.name: (str(r.status), r.failures) for r in result.result.results}
    assert sorted(failures for status, failures in outcome.values() if status == "fail") == [3, 4], outcome
    check_regression_fails(project_dir, "--target", "postgres")


@pytest.mark.engines  # dbt-postgres on a throwaway Postgres cluster
def test_postgres_equals_expected_fails_on_wrong_expected_values(postgres_project):
    project_dir, _, _ = postgres_project
    check_equals_expected_fails(project_dir, "--target", "postgres")
