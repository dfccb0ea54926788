"""The ndcg-sql command line: output formats, exact numbers, errors."""

import csv
import io
import json
import os
import subprocess
import sys

import duckdb
import pytest

import ndcg_sql
from conftest import EXAMPLES
from ndcg_sql import cli

RUN = str(EXAMPLES / "lightgbm_lambdarank" / "rank.train.scored.csv")
DL_RUN = str(EXAMPLES / "trec_dl19_passage" / "run.dl19.bm25.top100.txt")
DL_QRELS = str(EXAMPLES / "trec_dl19_passage" / "qrels.dl19-passage.txt")


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "ndcg_sql.cli", *args], capture_output=True, text=True, check=False
    )


def test_json_output_round_trips_exactly():
    done = run_cli("evaluate", RUN, "--item-col", "doc_id", "--format", "json", "--k", "5", "10", "all")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    direct = ndcg_sql.evaluate(RUN, k=[5, 10, None], item_col="doc_id")
    assert out["summary"] == direct.summary_records()  # same floats, bit for bit
    assert [s["k"] for s in out["summary"]] == [5, 10, None]
    assert out["options"]["gain"] == "exponential" and out["options"]["ties"] == "average"
    assert set(out["summary"][0]) == {"k", "ndcg", "queries", "no_relevant", "evaluated"}


def test_per_query_csv_round_trips_exactly(tmp_path):
    path = tmp_path / "per_query.csv"
    done = run_cli("evaluate", DL_RUN, "--judgments", DL_QRELS, "--gain", "linear", "--ties", "item-desc",
                   "--format", "csv", "--per-query", str(path))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(path.open()))
    direct = ndcg_sql.evaluate(DL_RUN, judgments=DL_QRELS, gain="linear", ties="item-desc")
    expected = direct.per_query_records()
    assert len(rows) == len(expected) == 43 * 6
    for row, want in zip(rows, expected):
        assert row["query_id"] == want["query_id"]
        assert row["k"] == ("all" if want["k"] is None else str(want["k"]))  # the whole list: "all" in text
        for name in ("cg", "dcg", "idcg", "ndcg"):
            assert float(row[name]) == want[name]
    summary = list(csv.DictReader(io.StringIO(done.stdout)))
    assert float(summary[3]["ndcg"]) == direct.summary_records()[3]["ndcg"]


def test_table_output_names_the_options():
    done = run_cli("evaluate", DL_RUN, "--judgments", DL_QRELS, "--gain", "linear", "--ties", "item-desc", "--k", "10")
    assert done.returncode == 0, done.stderr
    assert "gain=linear" in done.stdout and "ties=item-desc" in done.stdout and "ideal=judgments" in done.stdout
    assert "0.5058310024399073" in done.stdout  # trec_eval: 0.5058


def test_table_rounds_to_digits():
    """--digits N: the table's floats to N significant digits (trec_eval's NDCG@10 of the BM25 run is
    0.5058), counts as they are; Result.to_text(digits=N) is the same text."""
    args = ("evaluate", DL_RUN, "--judgments", DL_QRELS, "--convention", "trec_eval", "--k", "10", "--digits", "4")
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].split() == ["10", "0.5058", "43", "0"]
    result = ndcg_sql.evaluate(DL_RUN, judgments=DL_QRELS, convention="trec_eval", k=10)
    assert result.to_text(digits=4) == done.stdout and "0.5058310024399073" in str(result)
    with pytest.raises(ndcg_sql.OptionError, match="digits must be an integer from 1 to 17"):
        result.to_text(digits=0)


def test_table_options_line_has_every_option_of_the_json():
    """The text output's options line names every option the JSON reports (less k and measures, the rows)."""
    args = ("evaluate", DL_RUN, "--judgments", DL_QRELS, "--convention", "trec_eval", "--k", "10")
    table, as_json = run_cli(*args), run_cli(*args, "--format", "json")
    assert table.returncode == 0 and as_json.returncode == 0, table.stderr
    line = table.stdout.splitlines()[0]
    options = json.loads(as_json.stdout)["options"]
    for name in ("gain", "ties", "ideal", "no_relevant", "missing_queries", "score_precision", "negative_labels",
                 "convention", "ranking_by"):
        assert f" {name}={options[name]}" in line, name
    assert "score_precision=float32" in line and "negative_labels=unjudged" in line and "convention=trec_eval" in line


def test_gain_mapping_on_the_command_line():
    done = run_cli("evaluate", RUN, "--item-col", "doc_id", "--gain", "0:0,1:1,2:3,3:7,4:15", "--format", "json")
    exponential = run_cli("evaluate", RUN, "--item-col", "doc_id", "--format", "json")
    assert json.loads(done.stdout)["summary"] == json.loads(exponential.stdout)["summary"]


@pytest.mark.parametrize(
    "args, status, words",
    [
        (["evaluate", RUN], 1, "no item column 'item_id'"),
        (["evaluate", RUN, "--item-col", "doc_id", "--k", "0"], 2, "k must be a positive integer"),
        (["evaluate", "missing.parquet"], 1, "no such file: missing.parquet (in the current folder "),
        (["evaluate", RUN, "--item-col", "doc_id", "--gain", "cubic"], 2, "gain must be"),
        (["sql"], 2, "give either a RUN file or --table NAME"),
        (["evaluate", RUN, "--ties", "random"], 2, "invalid choice: 'random'"),
        (["evaluate", RUN, "--gain", "0:0,1:1,1:2"], 2, "gives a label twice"),
        (["sql", RUN, "--item-col", "doc_id", "--ties", "input-order", "--k", "10"], 2,
         "ties='input-order' needs row_col (--row-col): the column of input row positions"),
        (["evaluate", RUN, "--item-col", "doc_id", "--missing-queries", "zero"], 2,
         "missing_queries='zero' (--missing-queries zero) needs judgments (--judgments)"),
        (["sql", RUN, "--item-col", "doc_id", "--row-col", "score"], 2,
         "row_col (--row-col) is only used with ties='input-order' (ties is 'average')"),
        (["evaluate", RUN, "--digits", "0"], 2, "digits must be an integer from 1 to 17; got '0'"),
        (["evaluate", RUN, "--digits", "many"], 2, "digits must be an integer from 1 to 17; got 'many'"),
        (["evaluate", RUN, "--format", "json", "--digits", "3"], 2,
         "--digits rounds the table only; --format json keeps full precision"),
        # an argument no parser knows points to the help of the subcommand given
        (["plot", RUN, "-o", "x.png", "--colour", "red"], 2,
         "ndcg-sql plot: error: unrecognized arguments: --colour red (see ndcg-sql plot --help)"),
        (["evaluate", RUN, "--threads", "1", "extra"], 2, "(see ndcg-sql evaluate --help)"),
    ],
)
def test_errors_are_one_line_with_status(args, status, words):
    done = run_cli(*args)
    assert done.returncode == status
    assert words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_bad_input_error_names_column_and_queries(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("query_id,item_id,score,label\n1,a,0.5,1\n1,b,0.2,-1\n2,a,,1\n")
    done = run_cli("evaluate", str(bad))
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "\n" not in line
    assert "column 'score': NULL scores (1 row), e.g. in query_id 2" in line
    assert "column 'label': negative labels (1 row), e.g. in query_id 1" in line


def test_sql_command_prints_runnable_sql(tmp_path):
    done = run_cli("sql", RUN, "--item-col", "doc_id", "--k", "10")
    assert done.returncode == 0, done.stderr
    rows = duckdb.connect().sql(done.stdout).fetchall()
    direct = ndcg_sql.evaluate(RUN, k=10, item_col="doc_id").per_query.fetchall()
    assert rows == direct


def test_main_returns_zero(capsys):
    assert cli.main(["evaluate", RUN, "--item-col", "doc_id", "--k", "3", "--no-progress"]) == 0
    assert "ndcg" in capsys.readouterr().out


def test_progress_goes_to_stderr_not_stdout(capsys):
    from ndcg_sql.vocabulary import activity

    con = duckdb.connect()
    with activity.reported(con, delay=0.0, only_on_terminal=False):
        con.execute("SELECT COUNT(DISTINCT (i * 7919) % 1000003) FROM range(60000000) AS t(i)").fetchall()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "%" in captured.err


def test_compare_and_plot_take_threads_as_evaluate_does(capsys):
    """--threads was evaluate's and unjudged's only, though compare() and plot() take threads."""
    tasb = str(EXAMPLES / "trec_dl19_passage" / "run.dl19.tasb.top100.txt")
    args = ["compare", DL_RUN, tasb, "--judgments", DL_QRELS, "--measures", "nDCG@10", "--format", "json", "--no-progress"]
    assert cli.main([*args, "--threads", "1"]) == 0
    one_thread = json.loads(capsys.readouterr().out)
    with ndcg_sql.compare(DL_RUN, tasb, judgments=DL_QRELS, measures=["nDCG@10"], threads=2) as direct:
        expected = direct.to_dict()
    assert one_thread["summary"] == expected["summary"]
    for command in (args, ["plot", DL_RUN, "--judgments", DL_QRELS, "--output", "x.png"]):
        with pytest.raises(SystemExit) as stop:
            cli.main([*command, "--threads", "0"])
        assert stop.value.code == 2
        assert "argument --threads: must be a positive integer; got 0" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["evaluate", "compare", "plot", "unjudged"])
def test_a_bad_threads_is_refused_as_the_command_line_reads_it(command, capsys):
    """--threads 0 said "ndcg-sql: error: threads must be ..." (the Python name, no command, no
    help pointer) once the work had begun; like --memory-limit, argparse now names --threads."""
    runs = [DL_RUN] * (2 if command == "compare" else 1)
    too_many = 4 * (os.cpu_count() or 1) + 1
    for value, words in (("0", "must be a positive integer; got 0"), ("x", "must be a positive integer; got 'x'"),
                         (str(too_many), f"must be at most {too_many - 1} (4 per CPU core")):
        with pytest.raises(SystemExit) as stop:
            cli.main([command, *runs, "--judgments", DL_QRELS, "--threads", value])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert f"ndcg-sql {command}: error: argument --threads: {words}" in err
        assert f"(see ndcg-sql {command} --help)" in err


def test_plot_names_a_bad_argument_without_matplotlib_and_then_the_missing_library(monkeypatch, capsys, tmp_path):
    """CI's floor environment has no matplotlib: plot named the missing library before --threads 0.
    A bad argument is a usage error (exit 2) either way; good arguments then meet the missing
    library (exit 1, naming the extra) and write nothing."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    output = tmp_path / "x.png"
    command = ["plot", DL_RUN, "--judgments", DL_QRELS, "--output", str(output), "--no-progress"]
    with pytest.raises(SystemExit) as stop:
        cli.main([*command, "--threads", "0"])
    assert stop.value.code == 2
    assert "argument --threads: must be a positive integer; got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(command)
    assert stop.value.code == 1
    assert "plot needs matplotlib: pip install matplotlib (ndcg_sql's 'plot' extra)" in capsys.readouterr().err
    assert not output.exists()


@pytest.mark.parametrize("command", ["evaluate", "compare", "plot", "unjudged", "sql"])
def test_each_commands_help_says_what_it_does(command):
    """`ndcg-sql unjudged --help` went from its usage straight to its arguments: each command's help
    now opens with the line `ndcg-sql --help` gives it."""
    parser = cli.build_parser()
    words = " ".join(parser.format_help().split())
    own = " ".join(parser.subcommands[command].format_help().split("\n\n")[1].split())
    assert own.endswith(".") and f"{command} {own[0].lower()}{own[1:-1]} " in words + " "


@pytest.mark.parametrize("command", ["evaluate", "compare", "plot", "unjudged", "sql"])
def test_each_commands_help_speaks_the_command_line(command):
    """`ndcg-sql evaluate --help` said "raises OptionError", "Default None" and 'with
    ties="input-order"': a command-line user reads an error message, types 'none' and --ties
    input-order. No Python spelling is left: None, True, False, an exception's name, or an option
    of ndcg_sql as keyword=value ('ties="input-order"', 'bootstrap=N'; a peer's call such as
    scikit-learn's dcg_score(log_base=b) stays, and so does the result's own 'checks=trusted')."""
    import re

    from ndcg_sql.vocabulary.parameters import PARAMETERS

    text = " ".join(cli.build_parser().subcommands[command].format_help().split())
    assert not re.findall(r"\b(?:None|True|False|OptionError|InputError)\b", text)
    names = "|".join(p.name for p in PARAMETERS if p.cli is not None)
    assert not re.findall(rf"(?<![(\w])(?:{names})=[\"'A-Z]", text)
    assert "{" + "row_col}" not in text and "--row-col" in text  # the marks are written, not shown


def test_memory_limit_help_says_none_as_typed():
    """--memory-limit's help named Python's None next to the command line's 'none'; it says 'none' only."""
    action = next(a for a in cli.build_parser().subcommands["evaluate"]._actions if "--memory-limit" in a.option_strings)
    assert "'none': DuckDB's own" in action.help and "None" not in action.help
