"""Safe at the edges: nothing left behind on a caller's connection or on disk, Ctrl-C and SIGTERM
stop a running query, runaway work is refused before it starts, and two threads may share a
connection. Expected values come from the numpy reference (tests/reference.py)."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

import ndcg_sql
import reference
from conftest import sigint_as_in_a_terminal
from ndcg_sql.building import plan
from ndcg_sql.cli import main
from ndcg_sql.data import connections

#: (query, item, score, label) rows: 40 queries of 5 items, distinct scores (no ties).
ROWS = [(q, f"d{i}", float((q * 7 + i * 13) % 29) + i / 100, (q + i) % 4) for q in range(40) for i in range(5)]


def ours(con) -> int:
    """The tables and views of ndcg_sql on ``con`` (temporary or not; registered frames are views)."""
    counted = con.sql("SELECT (SELECT COUNT(*) FROM duckdb_tables() WHERE table_name LIKE 'ndcg_sql_%') "
                      "+ (SELECT COUNT(*) FROM duckdb_views() WHERE view_name LIKE 'ndcg_sql_%')").fetchall()
    return counted[0][0]


def caller():
    con = duckdb.connect()
    con.execute("CREATE TABLE log (query_id INTEGER, item_id VARCHAR, score DOUBLE, label INTEGER)")
    con.executemany("INSERT INTO log VALUES (?, ?, ?, ?)", ROWS)
    return con


def expected_mean(k: int) -> float:
    return reference.evaluate(ROWS, [k])[1][k][0]


#: the per-query rows read when the result is read (over the input views), or kept in a table
KINDS = {"lazy per-query rows": {}, "kept per-query rows": {"bootstrap": 20}}


@pytest.mark.parametrize("kind", KINDS)
def test_closed_or_collected_results_leave_nothing_on_the_callers_connection(kind):
    con = caller()
    frame = con.sql("SELECT * FROM log").df()
    before = ours(con)
    for data in ("log", frame):
        with ndcg_sql.evaluate(data, k=3, con=con, **KINDS[kind]) as result:
            rows = result.per_query_records()  # readable while the result is open
            assert len(rows) == 40
            assert reference.close(sum(r["ndcg"] for r in rows) / 40, expected_mean(3))
        assert ours(con) == before
    with pytest.raises(ValueError, match="closed"):
        result.per_query_records()
    for data in ("log", frame):
        result = ndcg_sql.evaluate(data, k=3, con=con, **KINDS[kind])
        assert ours(con) > before
        del result
        gc.collect()
        assert ours(con) == before


def test_every_failure_path_leaves_nothing(monkeypatch):
    con = caller()
    con.execute("CREATE TABLE twice AS SELECT * FROM log UNION ALL SELECT * FROM log WHERE query_id = 3")
    before = ours(con)
    with pytest.raises(ndcg_sql.InputError, match="duplicate"):
        ndcg_sql.evaluate("twice", con=con, bootstrap=20)
    assert ours(con) == before

    def interrupted(*args, **kwargs):  # Ctrl-C once every step of the computation exists
        raise KeyboardInterrupt

    monkeypatch.setattr(plan, "coverage_sql", interrupted)
    con.execute("CREATE TABLE qrels AS SELECT query_id, item_id, label FROM log")
    with pytest.raises(KeyboardInterrupt):
        ndcg_sql.evaluate("log", judgments="qrels", con=con, bootstrap=20)
    assert ours(con) == before


def test_compare_leaves_nothing_and_reads_while_open():
    con = caller()
    con.execute("CREATE TABLE other AS SELECT query_id, item_id, -score AS score, label FROM log")
    before = ours(con)
    with ndcg_sql.compare("log", "other", ["nDCG@3"], con=con, permutations=10) as comparison:
        assert comparison.summary_records()[0]["mean_a"] == pytest.approx(expected_mean(3), abs=1e-12)
    assert ours(con) == before
    comparison = ndcg_sql.compare("log", "other", ["nDCG@3"], con=con, permutations=10)
    del comparison
    gc.collect()
    assert ours(con) == before


def folders(where: Path) -> list[str]:
    return sorted(p.name for p in where.iterdir() if p.name.startswith("ndcg_sql_"))


def test_a_connection_evaluate_opens_goes_with_its_result(tmp_path):
    data = tmp_path / "run.parquet"
    caller().execute(f"COPY log TO '{data}'")
    spill = tmp_path / "spill"
    spill.mkdir()
    result = ndcg_sql.evaluate(str(data), k=3, temp_directory=str(spill))
    assert len(folders(spill)) == 1  # DuckDB's temp folder, of this connection only
    opened = result.leftovers.con
    assert result.summary_records()[0]["ndcg"] == pytest.approx(expected_mean(3), abs=1e-12)
    result.close()
    assert folders(spill) == []
    with pytest.raises(duckdb.Error):
        opened.execute("SELECT 1")
    # collected, even when only a relation was kept a while
    per_query = ndcg_sql.evaluate(str(data), k=3, temp_directory=str(spill)).per_query
    assert len(per_query.fetchall()) == 40 and len(folders(spill)) == 1
    del per_query
    gc.collect()
    assert folders(spill) == []
    # and on an error
    with pytest.raises(ndcg_sql.InputError):
        ndcg_sql.evaluate(str(data), k=3, score_col="nope", temp_directory=str(spill))
    assert folders(spill) == []


def test_a_callers_temp_directory_is_left_alone(tmp_path):
    con = caller()
    con.execute(f"SET temp_directory = '{tmp_path / 'theirs'}'")
    with ndcg_sql.evaluate("log", k=3, con=con, temp_directory=str(tmp_path)):
        assert con.sql("SELECT current_setting('temp_directory')").fetchall() == [(str(tmp_path / "theirs"),)]
    assert folders(tmp_path) == []


def test_too_many_threads_are_refused_before_reading():
    too_many = 4 * (os.cpu_count() or 1) + 1
    with pytest.raises(ndcg_sql.OptionError, match="threads must be at most"):
        ndcg_sql.evaluate("does-not-exist.parquet", threads=too_many)
    with pytest.raises(ndcg_sql.OptionError, match="threads must be at most"):
        ndcg_sql.evaluate("log", con=caller(), threads=too_many)


def test_a_runaway_bootstrap_is_refused_before_it_starts(capsys):
    con = duckdb.connect()
    con.execute("CREATE TABLE big AS SELECT i // 10 AS query_id, i % 10 AS item_id, hash(i) % 97 AS score, "
                "i % 3 AS label FROM range(200000) t(i)")  # 20,000 queries x 6 cutoffs
    started = time.monotonic()
    with pytest.raises(ndcg_sql.OptionError, match=r"120,000 per-query values .* max_bootstrap_draws"):
        ndcg_sql.evaluate("big", con=con, bootstrap=100_000)
    assert time.monotonic() - started < 10  # 1.2e10 draws would take hours
    with pytest.raises(ndcg_sql.OptionError, match="max_bootstrap_draws"):
        ndcg_sql.evaluate("log", con=caller(), k=3, bootstrap=10, max_bootstrap_draws=399)
    with ndcg_sql.evaluate("log", con=caller(), k=3, bootstrap=10, max_bootstrap_draws=400) as result:
        assert result.summary_records()[0]["ndcg"] == pytest.approx(expected_mean(3), abs=1e-12)


def test_two_threads_on_one_connection():
    con = caller()
    barrier = threading.Barrier(2)
    means, failures = [], []

    def work():
        try:
            barrier.wait()
            for _ in range(4):
                with ndcg_sql.evaluate("log", k=3, con=con) as result:
                    means.append(result.summary_records()[0]["ndcg"])
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert means == pytest.approx([expected_mean(3)] * 8, abs=1e-12)
    assert ours(con) == 0


# ---------------------------------------------------------------- the command line, signalled
def spilling_run(tmp_path: Path):
    """``ndcg-sql evaluate`` of a bootstrap that spills (64MB of memory), started in a folder of
    its own with TMPDIR in another; returns (process, work folder, temp dir) once DuckDB spills."""
    work, temp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    duckdb.connect().execute(f"COPY (SELECT i // 10 AS query_id, i % 10 AS item_id, hash(i) % 1000 AS score, "
                             f"i % 3 AS label FROM range(100000) t(i)) TO '{work / 'run.parquet'}'")
    command = [sys.executable, "-m", "ndcg_sql.cli", "evaluate", "run.parquet", "--bootstrap", "10000", "--k", "10",
               "--memory-limit", "64MB", "--no-progress"]
    process = subprocess.Popen(command, cwd=work, env={**os.environ, "TMPDIR": str(temp)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=sigint_as_in_a_terminal)
    deadline = time.monotonic() + 60
    while not any(name.endswith(".tmp") for _, _, names in os.walk(tmp_path) for name in names):
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "no spilling within a minute"
        time.sleep(0.1)
    return process, work, temp


@pytest.mark.parametrize("signalled", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_a_spilling_run_and_its_temp_files_go(tmp_path, signalled):
    process, work, temp = spilling_run(tmp_path)
    process.send_signal(signalled)
    started = time.monotonic()
    try:
        process.wait(timeout=10)  # without an interrupt the statement runs on for minutes
    finally:
        process.kill()
    assert time.monotonic() - started < 10
    assert process.returncode != 0
    assert not (work / ".tmp").exists()
    assert list(temp.iterdir()) == []


class _Interruptible:
    """A connection whose statement (``statement``) runs until ``interrupt()``, noting each step."""

    def __init__(self):
        self.stopped = threading.Event()
        self.steps: list[str] = []

    def interrupt(self):
        self.stopped.set()

    def statement(self):
        self.steps.append("began")
        self.stopped.wait(5)
        self.steps.append("ended")


@pytest.mark.parametrize("thread_started", [False, True])
def test_an_exception_as_the_statement_thread_starts_leaves_no_statement_running(monkeypatch, thread_started):
    """The signal of the CI failure (2026-12-05): SIGTERM arrived inside Thread.start(), before the
    thread was "alive"; the statement then ran on after the connection was closed and wrote a spill
    file into the removed temp folder. Here the exception comes inside start(), before the thread
    runs (False) or once it runs (True): the statement either never begins or has ended when the
    exception reaches the caller."""
    con = _Interruptible()

    class Late(threading.Thread):
        def start(self):
            if thread_started:
                super().start()
                while not con.steps:
                    time.sleep(0.01)
            else:
                threading.Timer(0.2, super().start).start()
            raise KeyboardInterrupt

    monkeypatch.setattr(connections.threading, "Thread", Late)
    with pytest.raises(KeyboardInterrupt):
        connections.interruptible(con, con.statement)
    steps_when_raised = list(con.steps)
    time.sleep(0.5)
    assert con.steps == steps_when_raised == (["began", "ended"] if thread_started else [])


def test_cli_temp_directory_and_bounds(tmp_path, capsys):
    run = tmp_path / "run.csv"
    run.write_text("query_id,item_id,score,label\n" + "".join(f"{q},{i},{s},{l}\n" for q, i, s, l in ROWS))
    spill = tmp_path / "spill"
    spill.mkdir()
    assert main(["evaluate", str(run), "--k", "3", "--temp-directory", str(spill), "--no-progress",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"][0]["ndcg"] == pytest.approx(expected_mean(3), abs=1e-12)
    gc.collect()
    assert folders(spill) == []
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", str(run), "--k", "3", "--bootstrap", "10", "--max-bootstrap-draws", "100", "--no-progress"])
    assert exit_.value.code == 2
    assert "max_bootstrap_draws" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", str(run), "--temp-directory", str(tmp_path / "absent"), "--no-progress"])
    assert exit_.value.code == 2
    assert "temp_directory must be an existing folder" in capsys.readouterr().err
