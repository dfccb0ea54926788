"""The command line at its edges: an output is never an input, outputs are written atomically,
and Ctrl-C, a deep or broken label, a full disk, a huge k, too little memory and overflowing
linear gains each end in one line naming what to change (exit 2 for options, 1 for input,
130 for Ctrl-C), never a traceback or a wrong number."""

import errno
import json
import math
import os
import signal
import subprocess
import sys

import duckdb
import pandas as pd
import pytest

import dbt_standin
import ndcg_sql
from conftest import ROOT, sigint_as_in_a_terminal
from ndcg_sql import cli
from ndcg_sql.data import writing
from ndcg_sql.plot import plot

#: Two queries; by score q1's labels are 2, 0, 1 and q2's 1, 0.
RUN_TEXT = "query_id,item_id,score,label\nq1,a,3,2\nq1,b,2,0\nq1,c,1,1\nq2,a,2,1\nq2,b,1,0\n"
QRELS_TEXT = "query_id,item_id,label\nq1,a,2\nq1,c,1\nq2,a,1\n"
LARGEST_K = 2**63 - 1
ESCAPED = "an exception escaped main"


def ndcg_sql_cli(capsys, *args):
    """(exit status, stdout, stderr) of ``ndcg-sql args`` run in this process."""
    try:
        status = cli.main([*args])
    except SystemExit as stop:
        status = stop.code
    except BaseException as error:  # noqa: BLE001 - a raw exception is what these tests rule out
        status = f"{ESCAPED}: {type(error).__name__}: {error}"
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("ndcg-sql: "), err
    return err


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A folder (the current one) with run.csv, qrels.csv, logs/{a,b}/part.csv and logs/a/.hidden.csv."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.csv").write_text(RUN_TEXT)
    (tmp_path / "qrels.csv").write_text(QRELS_TEXT)
    for arm in ("a", "b"):
        (tmp_path / "logs" / arm).mkdir(parents=True)
        (tmp_path / "logs" / arm / "part.csv").write_text(RUN_TEXT.replace("q", f"{arm}q"))
    (tmp_path / "logs" / "a" / ".hidden.csv").write_text(RUN_TEXT.replace("q", "hq"))
    return tmp_path


def contents(folder) -> dict:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


# ------------------------------------------------------------------ an output is never an input
OUTPUT_IS_INPUT = {
    "same name": (["evaluate", "run.csv", "--per-query", "run.csv"], "run.csv"),
    "relative and absolute": (["evaluate", "{tmp}/run.csv", "--per-query", "./logs/../run.csv"], "./logs/../run.csv"),
    "symbolic link": (["evaluate", "run.csv", "--per-query", "link.csv"], "link.csv"),
    "hard link": (["evaluate", "run.csv", "--per-query", "hard.csv"], "hard.csv"),
    "matched by a pattern": (["evaluate", "logs/*/*.csv", "--per-query", "logs/b/part.csv"], "logs/b/part.csv"),
    "hidden, matched by **": (["evaluate", "logs/**/*.csv", "--per-query", "logs/a/.hidden.csv"], "logs/a/.hidden.csv"),
    "the judgments": (["evaluate", "run.csv", "--judgments", "qrels.csv", "--per-query", "qrels.csv"], "qrels.csv"),
    "compare's second run": (["compare", "run.csv", "logs/a/part.csv", "--per-query", "logs/a/part.csv"],
                             "logs/a/part.csv"),
    "plot's run": (["plot", "run.csv", "-o", "run.csv"], "run.csv"),
}


@pytest.mark.parametrize("case", OUTPUT_IS_INPUT)
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(files, capsys, case):
    os.symlink("run.csv", "link.csv")
    os.link("run.csv", "hard.csv")
    args, output = OUTPUT_IS_INPUT[case]
    before = contents(files)
    status, _, err = ndcg_sql_cli(capsys, *(a.format(tmp=files) for a in args), "--no-progress")
    assert status == 2, err
    assert output in one_line(err) and "input" in err
    assert contents(files) == before  # every input byte for byte, nothing added


def test_the_python_plot_refuses_an_input_as_its_output(files):
    with pytest.raises(ndcg_sql.OptionError, match="output run.csv is an input"):
        plot({"run": "run.csv"}, "run.csv", k=[1, 2])
    with pytest.raises(ndcg_sql.OptionError, match="qrels.csv"):
        plot(["run.csv"], "qrels.csv", k=[1, 2], judgments="qrels.csv")
    assert (files / "run.csv").read_text() == RUN_TEXT and (files / "qrels.csv").read_text() == QRELS_TEXT


# ------------------------------------------------------------------ outputs are atomic
def failing_midway(error: BaseException):
    """A write_csv that writes the header, then fails."""
    def write(records, handle):
        handle.write("query_id,k,cg,dcg,idcg,ndcg\n")
        handle.flush()
        raise error
    return write


@pytest.mark.parametrize("error, status, message", [
    (OSError(errno.ENOSPC, "No space left on device"), 1, "cannot write {path}: No space left on device"),
    (KeyboardInterrupt(), 130, "interrupted"),
], ids=["full disk", "Ctrl-C"])
def test_a_failed_write_leaves_the_previous_file_and_no_temporary_file(files, capsys, monkeypatch, error, status,
                                                                      message):
    previous = files / "per_query.csv"
    previous.write_bytes(b"the previous per-query rows\n")
    previous.chmod(0o640)
    before = contents(files)
    with monkeypatch.context() as patched:
        patched.setattr(cli, "write_csv", failing_midway(error))
        got, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--per-query", "per_query.csv", "--no-progress")
    assert got == status, err
    assert one_line(err) == f"ndcg-sql: {'error: ' if status == 1 else ''}{message.format(path='per_query.csv')}\n"
    assert contents(files) == before  # the previous file byte for byte, no temporary file beside it
    # when the write completes, the new rows replace the file, which keeps its permissions
    got, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--per-query", "per_query.csv", "--no-progress")
    assert got == 0, err
    lines = previous.read_text().splitlines()
    assert lines[0] == "query_id,k,cg,dcg,idcg,ndcg" and len(lines) == 1 + 2 * 6  # 2 queries x 6 cutoffs
    assert previous.stat().st_mode & 0o777 == 0o640
    assert sorted(contents(files)) == sorted(before)


def test_a_failed_plot_leaves_the_previous_png(files, capsys, monkeypatch):
    from matplotlib.figure import Figure

    def savefig_failing_midway(self, target, **kwargs):
        handle = open(target, "wb") if isinstance(target, (str, os.PathLike)) else target
        handle.write(b"\x89PNG\r\n\x1a\n half a picture")
        handle.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    (files / "ndcg.png").write_bytes(b"the previous picture")
    before = contents(files)
    monkeypatch.setattr(Figure, "savefig", savefig_failing_midway)
    status, _, err = ndcg_sql_cli(capsys, "plot", "run.csv", "-o", "ndcg.png", "--k", "1", "2", "--no-progress")
    assert status == 1 and one_line(err) == "ndcg-sql: error: cannot write ndcg.png: No space left on device\n"
    assert contents(files) == before
    with pytest.raises(OSError, match="cannot write ndcg.png: No space left on device"):
        plot(["run.csv"], "ndcg.png", k=[1, 2])
    assert contents(files) == before


def test_a_full_disk_is_one_line_naming_the_file(files, capsys):
    status, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--per-query", "/dev/full", "--no-progress")
    assert status == 1 and one_line(err) == "ndcg-sql: error: cannot write /dev/full: No space left on device\n"
    status, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--per-query", "no/such/folder/x.csv", "--no-progress")
    # the cause a user can act on (it said "No such file or directory", which reads as if an input were missing)
    assert status == 1 and one_line(err) == ("ndcg-sql: error: cannot write no/such/folder/x.csv: its folder "
                                             "no/such/folder does not exist\n")
    status, _, err = ndcg_sql_cli(capsys, "plot", "run.csv", "-o", "no/folder/x.png", "--k", "1", "--no-progress")
    assert status == 1 and one_line(err) == "ndcg-sql: error: cannot write no/folder/x.png: its folder no/folder does not exist\n"
    assert sorted(contents(files)) == ["logs/a/.hidden.csv", "logs/a/part.csv", "logs/b/part.csv", "qrels.csv",
                                       "run.csv"]  # nothing left behind


def test_the_help_says_outputs_are_replaced_never_inputs(capsys):
    for command, flag in (("evaluate", "--per-query"), ("compare", "--per-query"), ("plot", "--output")):
        status, out, _ = ndcg_sql_cli(capsys, command, "--help")
        assert status == 0
        text = " ".join(out.split())
        assert f"{flag} FILE" in text and "an existing file is replaced (atomically), never one of the inputs" in text


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="a system without /dev/stdout")
def test_per_query_to_dev_stdout_writes_into_the_pipe(files):
    """/dev/stdout names a pipe here, which has no folder to hold a temporary file: written in place."""
    done = subprocess.run([sys.executable, "-m", "ndcg_sql.cli", "evaluate", "run.csv", "--k", "1", "--per-query",
                           "/dev/stdout", "--no-progress"], cwd=files, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    per_query = done.stdout.splitlines()[:3]
    # hand-worked: q1 ranks a (label 2) first, q2 ranks a (label 1) first: both ideal at k = 1
    assert per_query == ["query_id,k,cg,dcg,idcg,ndcg", "q1,1,3.0,3.0,3.0,1.0", "q2,1,1.0,1.0,1.0,1.0"]
    assert sorted(os.listdir(files)) == ["logs", "qrels.csv", "run.csv"]  # nothing left behind


# ------------------------------------------------------------------ Ctrl-C
#: ndcg-sql with evaluate replaced by Python work that says "ready" on stdout, then runs until Ctrl-C.
UNTIL_INTERRUPTED = """
import sys, time
from ndcg_sql import cli
from ndcg_sql.data import writing

def slow(*args, **kwargs):
    print("ready", flush=True)
    time.sleep(60)

cli.evaluate = slow
sys.exit(cli.main(sys.argv[1:]))
"""


def test_ctrl_c_is_one_line_and_exit_status_130(tmp_path):
    (tmp_path / "run.csv").write_text(RUN_TEXT)
    process = subprocess.Popen([sys.executable, "-c", UNTIL_INTERRUPTED, "evaluate", str(tmp_path / "run.csv"),
                                "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=sigint_as_in_a_terminal)
    try:
        assert process.stdout.readline() == "ready\n"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert err == "ndcg-sql: interrupted\n"


#: ``ndcg-sql`` (cli.run, the console script) on a log of 100,000 queries, sent a signal the
#: moment its --per-query file is opened: the per-query statement is then in flight on DuckDB's
#: threads. Exiting through the interpreter's shutdown while those threads wind the interrupted
#: statement down aborted the process about every other time (SIGABRT, "terminate called ...").
SIGNAL_AS_THE_OUTPUT_OPENS = """
import glob, os, signal, sys, threading, time
from ndcg_sql import cli
from ndcg_sql.data import writing

SENT = getattr(signal, sys.argv[1])

def signal_when_the_output_opens():
    while not glob.glob(".out.csv*"):
        time.sleep(0.001)
    os.kill(os.getpid(), SENT)

threading.Thread(target=signal_when_the_output_opens, daemon=True).start()
sys.argv = ["ndcg-sql", "evaluate", "log.parquet", "--per-query", "out.csv", "--no-progress"]
cli.run()
"""


@pytest.mark.slow
@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_as_the_output_opens_exits_with_its_status_never_aborts(tmp_path, name, status):
    duckdb.sql(f"COPY (SELECT 'q' || (i // 10) AS query_id, 'd' || (i % 10) AS item_id, (hash(i) % 1000) / 10.0 "
               f"AS score, hash(i * 7) % 4 AS label FROM range(1000000) t(i)) TO '{tmp_path / 'log.parquet'}'")
    for _ in range(4):
        done = subprocess.run([sys.executable, "-c", SIGNAL_AS_THE_OUTPUT_OPENS, name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, preexec_fn=sigint_as_in_a_terminal)
        assert done.returncode == status, done.stderr[-500:]
        assert done.stderr == f"ndcg-sql: {'terminated' if name == 'SIGTERM' else 'interrupted'}\n"  # no abort
        assert sorted(os.listdir(tmp_path)) == ["log.parquet"]  # no output, no temporary file


@pytest.mark.parametrize("interruption", [
    KeyboardInterrupt(),
    RuntimeError("Query interrupted"),  # DuckDB's Python client, when Ctrl-C stops a query
    duckdb.InterruptException("INTERRUPT Error: Interrupted!"),  # a query stopped by con.interrupt()
], ids=lambda error: type(error).__name__)
def test_every_interruption_is_one_line_and_exit_status_130(files, capsys, monkeypatch, interruption):
    monkeypatch.setattr(cli, "evaluate", raising(interruption))
    status, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--no-progress")
    assert status == 130 and one_line(err) == "ndcg-sql: interrupted\n"
    monkeypatch.setattr(cli, "evaluate", raising(RuntimeError("another error")))
    status, _, _ = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--no-progress")
    assert status == f"{ESCAPED}: RuntimeError: another error"  # only DuckDB's interruption is one


def raising(error: BaseException):
    def evaluate(*args, **kwargs):
        raise error
    return evaluate


# ------------------------------------------------------------------ label expressions
@pytest.mark.parametrize("label, where", [
    ("(" * 43 + "label" + ")" * 43, "nests parentheses more than 32 deep (at character 33)"),
    ("x + " + "(" * 40 + "label" + ")" * 40, "nests parentheses more than 32 deep (at character 37)"),
    ("NOT " * 400 + "label", "nested too deeply"),
    ("label +", "not valid SQL at character 7 ('+')"),
    ("CASE WHEN label > 1 THEN 2", "not valid SQL at character 26 ('2'): expected END after CASE"),
], ids=["43 parentheses", "40 inside", "400 NOT", "no operand", "no END"])
def test_a_bad_label_expression_is_one_line_naming_the_place(files, capsys, label, where):
    status, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--label", label, "--no-progress")
    assert status == 2, err
    assert where in one_line(err)
    assert "<class" not in err and "sqlglot." not in err and "Recursion" not in err


def test_labels_nest_up_to_32_parentheses(files):
    """32 parentheses are read, rewritten, transpiled and run (the label itself); 33 are refused,
    wherever the call comes from (not as deep as Python's stack allows)."""
    nested = ndcg_sql.evaluate("run.csv", label="(" * 32 + "label" + ")" * 32, k=[None]).summary_records()
    assert nested == ndcg_sql.evaluate("run.csv", k=[None]).summary_records()
    with pytest.raises(ndcg_sql.OptionError, match="more than 32 deep"):
        ndcg_sql.evaluate("run.csv", label="(" * 33 + "label" + ")" * 33)


# ------------------------------------------------------------------ k
def by_hand_whole_list_ndcg() -> float:
    """Mean NDCG of RUN_TEXT over the whole list, exponential gain (q1: labels 2, 0, 1 by score)."""
    dcg = (2**2 - 1) / math.log2(2) + 0 + (2**1 - 1) / math.log2(4)
    idcg = (2**2 - 1) / math.log2(2) + (2**1 - 1) / math.log2(3)
    return (dcg / idcg + 1.0) / 2


def test_k_past_the_largest_64_bit_integer_is_an_option_error(files, capsys):
    status, _, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--k", str(LARGEST_K + 1), "--no-progress")
    assert status == 2, err
    assert "--k" in one_line(err) and str(LARGEST_K) in err and "report" not in err
    status, out, err = ndcg_sql_cli(capsys, "evaluate", "run.csv", "--k", str(LARGEST_K), "--format", "json",
                                    "--no-progress")
    assert status == 0, err
    assert json.loads(out)["summary"][0]["ndcg"] == pytest.approx(by_hand_whole_list_ndcg(), rel=1e-15)
    for bad in ([LARGEST_K + 1], [5, 2**64], float("inf"), 1e19):
        with pytest.raises(ndcg_sql.OptionError, match=f"k .*at most {LARGEST_K}|k must be a positive integer"):
            ndcg_sql.to_sql("runs", k=bad)
    with pytest.raises(ndcg_sql.OptionError, match=f"cutoff after @ must be at most {LARGEST_K}"):
        ndcg_sql.to_sql("runs", measures=[f"P@{LARGEST_K + 1}"])


def test_dbt_refuses_k_past_the_largest_64_bit_integer_too():
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    with pytest.raises(dbt_standin.CompilerError, match=f"k must be at most {LARGEST_K}"):
        macros.ndcg_per_query('"runs"', k=[LARGEST_K + 1])
    with pytest.raises(dbt_standin.CompilerError, match=f"cutoff after @ must be at most {LARGEST_K}"):
        macros.ndcg_measures('"runs"', [f"nDCG@{LARGEST_K + 1}"])


# ------------------------------------------------------------------ memory
@pytest.fixture
def larger_log(tmp_path):
    path = tmp_path / "log.parquet"
    duckdb.connect().execute(f"COPY (SELECT 'q' || (i // 50) AS query_id, 'i' || i AS item_id, "
                             f"(i * 7919 % 1000) / 1000.0 AS score, i % 3 AS label FROM range(5000) t(i)) "
                             f"TO '{path}'")
    return str(path)


def test_out_of_memory_names_the_memory_limit(larger_log, capsys):
    for command in (["evaluate", larger_log], ["compare", larger_log, larger_log]):
        status, _, err = ndcg_sql_cli(capsys, *command, "--memory-limit", "1MB", "--no-progress")
        assert status == 1, err
        assert "ran out of memory" in one_line(err) and "--memory-limit" in err and "report" not in err
    with pytest.raises(ndcg_sql.InputError, match="ran out of memory.*memory_limit="):
        ndcg_sql.evaluate(larger_log, memory_limit="1MB")


# ------------------------------------------------------------------ linear gains
def test_linear_gains_adding_up_to_infinity_are_refused(tmp_path, capsys):
    assert math.isinf(1e308 + 1e308) and math.isfinite(4e307 + 4e307)  # what a double can sum
    data = pd.DataFrame({"query_id": ["big", "big", "fine", "fine"], "item_id": ["a", "b", "a", "b"],
                         "score": [2.0, 1.0, 2.0, 1.0], "label": [1e308, 1e308, 4e307, 4e307]})
    with pytest.raises(ndcg_sql.InputError) as raised:
        ndcg_sql.evaluate(data, gain="linear")
    message = str(raised.value)
    assert "column 'label': queries whose gains add up past 2^1023" in message
    assert "query_id big" in message and "fine" not in message
    path = tmp_path / "run.csv"
    data.to_csv(path, index=False)
    status, _, err = ndcg_sql_cli(capsys, "evaluate", str(path), "--gain", "linear", "--no-progress")
    assert status == 1 and "'label'" in one_line(err) and "big" in err
    # a query whose gains stay below the limit is computed: CG is their sum
    row = ndcg_sql.evaluate(data[data.query_id == "fine"], gain="linear", k=[None]).per_query_records()[0]
    assert row["cg"] == 4e307 + 4e307 and row["ndcg"] == 1.0
    # the dbt test ndcg_valid_input, generated from the same checks, names the query too
    macros = dbt_standin.load(dbt_standin.package_files(ROOT / "dbt_macros"))
    con = duckdb.connect()
    con.register("runs", data)
    found = con.sql(macros.test_ndcg_valid_input('"runs"', gain="linear")).fetchall()
    assert [(column, query) for column, _, query in found] == [("label", "big")]
    assert "add up past 2^1023" in found[0][1]


def test_an_interruption_as_the_temporary_file_is_created_leaves_nothing(tmp_path, monkeypatch):
    # Ctrl-C landing right after the temporary file exists, before its descriptor is returned
    real_open = os.open

    def open_then_interrupted(name, flags, mode=0o777, **kwargs):
        real_open(name, flags, mode, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        with writing.atomic(tmp_path / "out.csv") as handle:
            handle.write("never")
    assert os.listdir(tmp_path) == []
