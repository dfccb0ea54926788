"""The analyst's path (issue 13): from a click log to a chart with the documentation's commands as
written; one name for the whole list; results that print their summary; progress that names
its step; the plot; SQL for files an engine cannot read; missing libraries.

Numbers are checked against the numpy reference (tests/reference.py) fed with NIST's grades,
scipy's paired t-test and trec_eval's published NDCG@10 of the BM25 run, never against
ndcg_sql's own output.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from scipy import stats

import ndcg_sql
import reference
from conftest import EXAMPLES, ROOT, load_script
from ndcg_sql.vocabulary import activity
from ndcg_sql.plot import ticks
from test_cli import run_cli

#: slow (half a minute or more of a worker): the analyst's examples and plots
pytestmark = pytest.mark.slow

CLICKS = EXAMPLES / "click_log"
LABEL = "CASE WHEN dwell_seconds >= 180 THEN 3 WHEN dwell_seconds >= 60 THEN 2 WHEN clicked THEN 1 ELSE 0 END"
DL = EXAMPLES / "trec_dl19_passage"
BM25, QRELS = str(DL / "run.dl19.bm25.top100.txt"), str(DL / "qrels.dl19-passage.txt")


def click_log_module():
    return load_script(CLICKS / "make_click_log.py")


# ------------------------------------------------------------------ the bundled click log


def test_click_log_is_what_its_script_writes():
    made = click_log_module()
    for arm in made.ARMS:
        stored = duckdb.connect().sql(
            f"SELECT query_id, item_id, position, clicked, dwell_seconds FROM read_parquet('{CLICKS}/arm={arm}/clicks.parquet')"
        ).fetchall()
        assert stored == made.rows(arm)


def nist_rows(arm: str):
    """(query, item, position, NIST grade) of the passages the arm shows: the grades straight from
    the qrels file, not from the log."""
    made = click_log_module()
    grades = made.qrels()
    return [(q, item, position, float(grades.get((q, item), 0))) for q, item, position, _, _ in made.rows(arm)]


def test_click_log_label_gives_the_reference_ndcg_per_arm_and_the_paired_test():
    log = str(CLICKS / "*" / "*.parquet")
    result = ndcg_sql.evaluate(log, label=LABEL, rank_col="position", segments="arm", k=[1, 3, 10])
    rows = {(r["arm"], r["query_id"], r["k"]): r["ndcg"] for r in result.per_query_records()}
    per_arm = {}
    for arm in ("bm25", "splade"):
        want, means = reference.evaluate(nist_rows(arm), [1, 3, 10], higher_is_better=False)
        assert all(reference.close(rows[(arm, q, k)], v[3]) for (q, k), v in want.items())
        for r in result.summary_records():
            if r["arm"] == arm:
                assert reference.close(r["ndcg"], means[r["k"]][0])
        per_arm[arm] = {q: v[3] for (q, k), v in want.items() if k == 10}
    comparison = ndcg_sql.compare(str(CLICKS / "arm=splade" / "clicks.parquet"), str(CLICKS / "arm=bm25" / "clicks.parquet"),
                                  ["nDCG@10"], label=LABEL, rank_col="position")
    row = comparison.summary_records()[0]
    queries = sorted(per_arm["bm25"])
    t = stats.ttest_rel([per_arm["splade"][q] for q in queries], [per_arm["bm25"][q] for q in queries])
    assert row["queries"] == len(queries) == 43
    assert reference.close(row["t"], float(t.statistic)) and reference.close(row["t_p_value"], float(t.pvalue))


# ------------------------------------------------------------------ the documentation's commands, as written


def doc_block(page: str, heading: str) -> str:
    """The first ```sh block under a heading of a documentation page (docs/PAGE)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text[text.index(heading):]
    return re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)


def run_block(block: str, cwd: Path) -> subprocess.CompletedProcess:
    """A documentation block run by bash in ``cwd`` (where examples/ is the repository's), with the
    activated environment's PATH, as a reader who followed the documentation runs it."""
    (cwd / "examples").symlink_to(EXAMPLES)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=cwd, env=env, capture_output=True, text=True)


def test_analyst_quickstart_runs_as_written(tmp_path):
    """The analyst path's commands (README's command-line example too) write the chart to out/."""
    block = doc_block("analyst.md", "# The analyst path")
    assert block in (ROOT / "README.md").read_text(encoding="utf-8")
    assert len([line for line in block.splitlines() if line.strip()]) <= 12
    done = run_block(block, tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "ndcg.png").read_bytes().startswith(b"\x89PNG")
    assert f"wrote {tmp_path / 'out' / 'ndcg.png'}" in done.stdout
    assert "splade" in done.stdout and "nDCG@10" in done.stdout


def test_getting_started_commands_run_as_written(tmp_path):
    block = doc_block("getting-started.md", "## A first evaluation") + doc_block("getting-started.md",
                                                                                "## The bundled examples")
    commands = [line for line in block.splitlines() if line.startswith("ndcg-sql ")]
    assert any("lightgbm_lambdarank/rank.test.scored.csv" in c for c in commands)
    done = run_block(block, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "0.5058310024399073" in done.stdout  # trec_eval's NDCG@10 of the BM25 run: 0.5058


# ------------------------------------------------------------------ one name for the whole list


def test_the_whole_list_is_all_in_text_and_null_in_json(tmp_path):
    per_query = tmp_path / "per_query.csv"
    args = ("evaluate", BM25, "--judgments", QRELS, "--convention", "trec_eval", "--k", "10", "all")
    table, as_csv, as_json = (run_cli(*args, *extra) for extra in
                              ((), ("--format", "csv", "--per-query", str(per_query)), ("--format", "json")))
    assert all(done.returncode == 0 for done in (table, as_csv, as_json)), table.stderr
    assert re.search(r"^\s*all\s+0\.", table.stdout, re.MULTILINE)
    assert [row["k"] for row in csv.DictReader(io.StringIO(as_csv.stdout))] == ["10", "all"]
    assert {row["k"] for row in csv.DictReader(per_query.open())} == {"10", "all"}
    assert [row["k"] for row in json.loads(as_json.stdout)["summary"]] == [10, None]
    assert json.loads(as_json.stdout)["options"]["k"] == [10, None]


def test_print_shows_the_options_and_the_summary_not_the_rows():
    result = ndcg_sql.evaluate(BM25, judgments=QRELS, convention="trec_eval", k=[10, None])
    text = str(result)
    assert repr(result) == text
    lines = text.splitlines()
    assert lines[0].startswith("options: ") and "convention=trec_eval" in lines[0]
    assert lines[1] == "queries: evaluated=43 unjudged_ignored=0 missing_from_run=0"
    assert len(lines) == 5 and lines[3].split()[0] == "10" and lines[4].split()[0] == "all"


def test_compare_summary_is_a_relation_as_evaluate_summary():
    result = ndcg_sql.evaluate(BM25, judgments=QRELS, k=[10])
    comparison = ndcg_sql.compare(str(DL / "run.dl19.splade_pp_ed.top100.txt"), BM25, ["nDCG@10", "AP"],
                                  judgments=QRELS, convention="trec_eval", permutations=100)
    assert isinstance(result.summary, duckdb.DuckDBPyRelation) and isinstance(comparison.summary, duckdb.DuckDBPyRelation)
    records = comparison.summary_records()
    assert [r["measure"] for r in records] == ["nDCG@10", "AP"]
    assert comparison.to_dict()["summary"] == records
    lines = str(comparison).splitlines()
    assert lines[0] == ("runs: A = run.dl19.splade_pp_ed.top100.txt, B = run.dl19.bm25.top100.txt; differences are "
                        "A - B, wins are queries where A is better")
    assert lines[1].startswith("options: ") and len(lines) == 5


# ------------------------------------------------------------------ progress that says something


def test_every_long_step_is_named():
    heard = []
    with activity.listening(lambda con, name: heard.append(name)):
        ndcg_sql.evaluate(BM25, judgments=QRELS, k=[10], bootstrap=50)
        ndcg_sql.compare(BM25, BM25, judgments=QRELS, permutations=10)
    assert heard[:4] == ["reading the input", "checking the input", "per-query values and their means",
                         "bootstrap interval, 50 resamples of the queries"]
    assert "run A: checking the input" in heard and "run B: measures per query" in heard
    assert heard[-1] == "paired tests, up to 10 sign patterns"


def test_the_bar_names_the_step_and_says_when_duckdb_has_no_estimate(capsys):
    con = duckdb.connect()
    with activity.reported(con, delay=0.0, only_on_terminal=False, interval=0.05):
        with activity.doing(con, "a long count"):
            con.execute("SELECT COUNT(DISTINCT (i * 7919) % 1000003) FROM range(30000000) AS t(i)").fetchall()
    err = capsys.readouterr().err
    assert "ndcg-sql: a long count" in err
    assert "%|" in err  # DuckDB's estimate, drawn as a bar
    assert "ndcg-sql: no estimate from DuckDB" in err  # before the query: DuckDB has no figure


# ------------------------------------------------------------------ the plot


def test_plot_axis_and_where_it_wrote(tmp_path):
    assert ticks(list(range(1, 21)))[0] == 1 and len(ticks(list(range(1, 21)))) <= 12
    assert ticks([1, 5, 10]) == [1, 5, 10]
    done = run_cli("plot", BM25, "--judgments", QRELS, "--k", "1", "5", "10", "-o", str(tmp_path / "p.png"))
    assert done.returncode == 0 and done.stdout.strip() == f"wrote {tmp_path / 'p.png'}"


@pytest.mark.parametrize("module, args, words", [
    ("matplotlib", ["plot", BM25, "-o", "x.png", "--k", "5"], "pip install matplotlib (ndcg_sql's 'plot' extra)"),
    ("scipy", ["compare", BM25, BM25], "pip install scipy (ndcg_sql's 'stats' extra)"),
])
def test_a_missing_library_is_exit_1_with_the_install_hint(module, args, words):
    code = f"import sys; sys.modules[{module!r}] = None; from ndcg_sql import cli; sys.exit(cli.main({args!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ SQL for files an engine cannot read


def test_sql_for_a_warehouse_reads_the_table_given_or_a_named_placeholder(tmp_path):
    done = run_cli("sql", str(CLICKS / "arm=bm25" / "clicks.parquet"), "--dialect", "snowflake", "--rank-col",
                   "position", "--label", LABEL, "--k", "10")
    assert done.returncode == 0 and 'FROM "RANKING_TABLE"' in done.stdout
    assert "ranking_table, a placeholder" in done.stderr and "snowflake reads no files" in done.stderr
    named = run_cli("sql", str(CLICKS / "arm=bm25" / "clicks.parquet"), "--dialect", "bigquery", "--table",
                    "proj.logs.clicks", "--rank-col", "position", "--label", LABEL)
    assert named.returncode == 0 and "FROM `proj`.`logs`.`clicks`" in named.stdout and "placeholder" not in named.stderr


def test_sql_of_trec_files_says_how_to_load_them_and_runs_once_loaded():
    done = run_cli("sql", BM25, "--judgments", QRELS, "--statement", "summary", "--k", "10", "--gain", "linear",
                   "--ties", "item-desc")
    assert done.returncode == 0, done.stderr
    assert "ndcg_sql.read_trec(" in done.stderr and "query_id, item_id, rank, score" in done.stderr
    con = duckdb.connect()
    ndcg_sql.read_trec(BM25, con=con).to_table("ranking_table")
    ndcg_sql.read_trec(QRELS, "qrels", con=con).to_table("judgments_table")
    (row,) = con.sql(done.stdout).fetchall()
    assert row[0] == 10 and row[1] == pytest.approx(0.5058, abs=5e-5)  # trec_eval's published value


# ------------------------------------------------------------------ dbt: the label in SQL of one's own


def test_dbt_label_pattern_gives_the_reference():
    """The documentation's dbt model over the click log (examples/click_log/clicks_per_query.sql,
    which docs/dbt.md includes: a CTE computing the label, then ndcg_per_query over it), rendered
    by the macros (tests/dbt_standin.py) and run by DuckDB on the click log, equals the reference
    with NIST's grades."""
    import jinja2

    import dbt_standin

    block = (EXAMPLES / "click_log" / "clicks_per_query.sql").read_text(encoding="utf-8")
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    sql = jinja2.Environment().from_string(block).render(ref=lambda name: name, ndcg_sql=macros)
    con = duckdb.connect()
    con.execute(f"CREATE TABLE click_log AS SELECT * FROM read_parquet('{CLICKS}/*/*.parquet')")
    rows = {(arm, q, k): ndcg for arm, q, k, ndcg in con.sql(f"SELECT arm, query_id, k, ndcg FROM ({sql})").fetchall()}
    for arm in ("bm25", "splade"):
        want, _ = reference.evaluate(nist_rows(arm), [1, 3, 10], higher_is_better=False)
        assert all(reference.close(rows[(arm, q, k)], v[3]) for (q, k), v in want.items())
    assert len(rows) == 2 * 43 * 3
