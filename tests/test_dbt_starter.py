"""The dbt starter project (examples/dbt_starter/) built as docs/dbt.md tells a new user to, by
dbt's own runner (dbtRunner) on dbt-duckdb, in a copy of the folder (nothing is written into the
repository): the commands are read from the page's block, the per-query model and the summary
equal the numpy reference (tests/reference.py) on the seed, the seed is the slice of the bundled
TREC DL 2019 files its README says it is; a failing gate prints a line naming the measure, the mean
(as numpy computes it), the threshold and the segment; a misspelt column stops with the Python
runner's message, not the engine's Binder Error.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest

dbt_main = pytest.importorskip("dbt.cli.main", reason="install '.[test]' (it brings dbt-core and dbt-duckdb)")

import ndcg_sql
import reference
from conftest import EXAMPLES, ROOT
from test_dbt import environment, error_text

STARTER = EXAMPLES / "dbt_starter"
SEED = STARTER / "seeds" / "ranking_log.csv"
DL19 = EXAMPLES / "trec_dl19_passage"
#: the page whose commands are run, and the marker of their block
PAGE = ROOT / "docs" / "dbt.md"
MARKER = "<!-- not run: tests/test_dbt_starter.py runs these commands"
CUTOFFS = [5, 10]
TOL = 1e-12


def documented_commands() -> list[str]:
    """The commands of the page's block under MARKER (one a line, or joined by &&), pip left out."""
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index(MARKER):].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [part.strip() for line in block.splitlines() for part in line.split("&&") if part.strip()]
    return [command for command in commands if not command.startswith("pip ")]


class Run:
    """dbt commands through dbtRunner in a folder, the messages dbt prints collected."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.lines: list[str] = []

    def __call__(self, *args: str):
        self.lines = []
        runner = dbt_main.dbtRunner(callbacks=[lambda event: self.lines.append(event.info.msg)])
        with environment():
            previous = Path.cwd()
            os.chdir(self.folder)
            try:
                return runner.invoke([*args, "--no-use-colors"])
            finally:
                os.chdir(previous)


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    """A copy of the starter beside a copy of the package (packages.yml: local: ../../dbt_macros),
    where the documented commands are run; gives (Run in the project folder, {command: its result},
    the build's lines)."""
    root = tmp_path_factory.mktemp("clone")
    ignore = shutil.ignore_patterns("target", "logs", "dbt_packages", "package-lock.yml", "*.duckdb", "integration_tests")
    shutil.copytree(STARTER, root / "examples" / "dbt_starter", ignore=ignore)
    shutil.copytree(ROOT / "dbt_macros", root / "dbt_macros", ignore=ignore)
    run, results = Run(root), {}
    for command in documented_commands():
        words = shlex.split(command)
        if words[0] == "cd":
            run.folder = run.folder / words[1]
            continue
        assert words[0] == "dbt", command
        if words[1] == "build":
            # not documented: before anything is built, the project compiles (the column checks
            # find no relation to read and check nothing; the gate's query is not run)
            results["compile"] = run("compile", "--profiles-dir", ".")
        results[words[1]] = run(*words[1:])
        assert results[words[1]].success, (command, results[words[1]].exception)
    assert list(results) == ["deps", "compile", "build"]
    assert run.folder == root / "examples" / "dbt_starter"
    return run, results, run.lines


def seed() -> pd.DataFrame:
    return pd.read_csv(SEED)


def test_the_seed_is_the_documented_slice_of_the_bundled_runs():
    """The five lowest-numbered judged queries of TREC DL 2019, the top 10 of each run, labelled
    with NIST's judgments (0 where unjudged), as examples/dbt_starter/README.md says."""
    qrels = {}
    for line in (DL19 / "qrels.dl19-passage.txt").read_text().splitlines():
        query, _, item, label = line.split()
        qrels[(query, item)] = label
    queries = sorted({query for query, _ in qrels}, key=int)[:5]
    expected = [["arm", "query_id", "item_id", "score", "label"]]
    for arm, name in (("bm25", "run.dl19.bm25.top100.txt"), ("splade", "run.dl19.splade_pp_ed.top100.txt")):
        for line in (DL19 / name).read_text().splitlines():
            query, _, item, rank, score, _ = line.split()
            if query in queries and int(rank) <= 10:
                expected.append([arm, query, item, score, qrels.get((query, item), "0")])
    with open(SEED, newline="") as source:
        assert list(csv.reader(source)) == expected


def test_the_documented_commands_build_the_starter(starter):
    _, results, lines = starter
    build = results["build"]
    statuses = {result.node.name: str(result.status) for result in build.result.results}
    assert set(statuses.values()) <= {"success", "pass"}, statuses
    assert {"ranking_log", "ranking_per_query", "ranking_summary"} <= set(statuses)
    assert sum(name.startswith("ndcg_sql_ndcg_valid_input") for name in statuses) == 1
    assert sum(name.startswith("ndcg_sql_ndcg_at_least") for name in statuses) == 1
    assert len(statuses) == 5
    # the gate passed silently (its line is for a failure only)
    assert not [line for line in lines if line.startswith("ndcg_sql.ndcg_at_least")]
    assert any("Done. PASS=5" in line for line in lines)


def test_the_starter_compiles_before_anything_is_built(starter):
    _, results, _ = starter
    compiled = results["compile"]
    assert compiled.success, compiled.exception
    assert [str(r.status) for r in compiled.result.results] == ["success"] * 5  # the seed, 2 models, 2 tests


def numpy_reference():
    """{(arm, query, k): (cg, dcg, idcg, ndcg)} and {(arm, k): mean NDCG@k} of the seed."""
    values, means = {}, {}
    data = seed()
    for arm, rows in data.groupby("arm"):
        per_query, arm_means = reference.evaluate(
            list(zip(rows["query_id"], rows["item_id"], rows["score"], rows["label"])), CUTOFFS)
        values.update({(arm, query, k): v for (query, k), v in per_query.items()})
        means.update({(arm, k): mean for k, (mean, _) in arm_means.items()})
    return values, means


def table(run: Run, name: str) -> list[dict]:
    with duckdb.connect(str(run.folder / "ndcg_starter.duckdb")) as con:
        relation = con.table(name)
        return [dict(zip(relation.columns, row)) for row in relation.fetchall()]


def test_the_models_equal_the_numpy_reference(starter):
    run, _, _ = starter
    values, means = numpy_reference()
    got = {(r["arm"], r["query_id"], r["k"]): (r["cg"], r["dcg"], r["idcg"], r["ndcg"])
           for r in table(run, "ranking_per_query")}
    assert set(got) == set(values) and len(got) == 2 * 5 * len(CUTOFFS)
    for key, want in values.items():
        assert all(reference.close(a, b, TOL) for a, b in zip(got[key], want)), (key, got[key], want)
    summary = {(r["arm"], r["k"]): r for r in table(run, "ranking_summary")}
    assert set(summary) == set(means)
    for key, mean in means.items():
        assert reference.close(summary[key]["ndcg"], mean, TOL) and summary[key]["queries"] == 5


GATE_LINE = re.compile(r"^ndcg_sql\.ndcg_at_least failed on (\w+), segment arm = '(\w+)': "
                       r"mean (nDCG@\d+) = ([0-9.e-]+), below the threshold ([0-9.]+)$")


def test_a_failing_gate_names_the_measure_the_mean_the_threshold_and_the_segment(starter):
    """The threshold raised between the arms' means (numpy: bm25 0.843, splade 0.899): dbt's
    output has one line for bm25, naming nDCG@10, its mean and the threshold; none for splade."""
    run, _, _ = starter
    _, means = numpy_reference()
    threshold = 0.85
    assert means[("bm25", 10)] < threshold < means[("splade", 10)]
    result = run("build", "--profiles-dir", ".", "--vars", f"{{min_ndcg_at_10: {threshold}}}")
    assert not result.success
    failed = {r.node.name: r.failures for r in result.result.results if str(r.status) == "fail"}
    assert len(failed) == 1 and next(iter(failed)).startswith("ndcg_sql_ndcg_at_least") and list(failed.values()) == [1]
    lines = [line for line in run.lines if line.startswith("ndcg_sql.ndcg_at_least")]
    assert len(lines) == 1, run.lines
    model, arm, measure, mean, shown_threshold = GATE_LINE.match(lines[0]).groups()
    assert (model, arm, measure, float(shown_threshold)) == ("ranking_per_query", "bm25", "nDCG@10", threshold)
    assert reference.close(float(mean), means[("bm25", 10)], TOL)
    # dbt's own summary of the failure follows, counting the one row
    assert any("Got 1 result, configured to fail if != 0" in line for line in run.lines)


MISSPELT = {
    # a model with a misspelt score column
    "models/misspelt_model.sql": "{{ config(tags=['misspelt']) }}\n"
                                 "{{ ndcg_sql.ndcg_per_query(ref('ranking_log'), score_col='scroe', segment_cols=['arm'], k=[10]) }}\n",
    # the gate on a per-query model with a misspelt segment column, the input test with a misspelt label
    "models/per_query_copy.sql": "{{ config(tags=['misspelt']) }}\nselect * from {{ ref('ranking_per_query') }}\n",
    "models/log_copy.sql": "{{ config(tags=['misspelt']) }}\nselect * from {{ ref('ranking_log') }}\n",
    # a log with one (arm, query, item) row twice: the input test with segment_cols still fails on it
    "models/log_with_a_duplicate.sql": "{{ config(tags=['misspelt']) }}\nselect * from {{ ref('ranking_log') }}\n"
                                       "union all\nselect * from {{ ref('ranking_log') }}\n"
                                       "where arm = 'bm25' and query_id = 19335 and item_id = 8412684\n",
    "models/misspelt_tests.yml": """version: 2
models:
  - name: log_with_a_duplicate
    data_tests:
      - ndcg_sql.ndcg_valid_input:
          arguments: {segment_cols: [arm]}
  - name: per_query_copy
    data_tests:
      - ndcg_sql.ndcg_at_least:
          arguments: {k: 10, threshold: 0.5, segment_cols: [amr]}
  - name: log_copy
    data_tests:
      - ndcg_sql.ndcg_valid_input:
          arguments: {label_col: lable, segment_cols: [arm]}
""",
}


def test_a_misspelt_column_is_named_with_the_relations_columns(starter):
    """The model, the gate and the input test stop with the package's message (the Python
    runner's wording, naming the relation and the argument), not the engine's Binder Error; in the
    same build, the input test with segment_cols fails on an (arm, query, item) row given twice."""
    run, _, _ = starter
    for path, text in MISSPELT.items():
        (run.folder / path).write_text(text)
    try:
        result = run("build", "--profiles-dir", ".", "--select", "tag:misspelt+")
    finally:
        for path in MISSPELT:
            (run.folder / path).unlink()
    assert not result.success
    outcome = {r.node.name: (str(r.status), r.message) for r in result.result.results}
    errors = {name: message for name, (status, message) in outcome.items() if status == "error"}
    assert set(errors) == {"misspelt_model", next(n for n in outcome if n.startswith("ndcg_sql_ndcg_at_least_per_query_copy")),
                           next(n for n in outcome if n.startswith("ndcg_sql_ndcg_valid_input_log_copy"))}, outcome
    text = {name.split("_copy")[0].removeprefix("ndcg_sql_ndcg_"): message for name, message in errors.items()}
    columns = "arm, query_id, item_id, score, label"
    # the Python runner's message for the same misspelling of the seed's column
    with pytest.raises(ndcg_sql.InputError) as python:
        ndcg_sql.evaluate(seed(), score_col="scroe", segments=["arm"])
    assert str(python.value) == (f"the ranking has no score column 'scroe'; its columns are: {columns} "
                                 "(name yours with score_col= / --score-col)")
    assert (f"ndcg_sql: the ranking ranking_log has no score column 'scroe'; its columns are: {columns} "
            "(name yours with score_col=)") in text["misspelt_model"]
    assert ("ndcg_sql: the per-query model per_query_copy has no segment column 'amr'; its columns are: "
            "arm, query_id, k, cg, dcg, idcg, ndcg (name yours with segment_cols=)") in text["at_least_per_query"]
    assert (f"ndcg_sql: the ranking log_copy has no label column 'lable'; its columns are: {columns} "
            "(name yours with label_col=)") in text["valid_input_log"]
    assert not any("Binder" in message for message in errors.values())
    # the duplicate within an arm: one failing row (the same rows in two arms were not, in the build)
    failed = {name: r.failures for r in result.result.results if str(r.status) == "fail" for name in [r.node.name]}
    assert list(failed) == [next(n for n in outcome if n.startswith("ndcg_sql_ndcg_valid_input_log_with_a_duplicate"))]
    assert list(failed.values()) == [1], outcome
