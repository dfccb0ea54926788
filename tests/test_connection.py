"""The connection evaluate opens itself: DuckDB's memory_limit defaults to DEFAULT_MEMORY_LIMIT."""

import sys

import duckdb
import pytest

import ndcg_sql
from ndcg_sql.cli import main
from ndcg_sql.running.executors import DEFAULT_MEMORY_LIMIT, connect
from ndcg_sql.vocabulary.errors import OptionError


def limit_bytes(con) -> int:
    return con.execute(
        "SELECT memory_limit FROM (SELECT current_setting('memory_limit') AS memory_limit)"
    ).fetchall()[0][0]


def test_default_memory_limit_is_set_and_can_be_changed_or_left_to_duckdb():
    assert DEFAULT_MEMORY_LIMIT == "1400MB"
    assert limit_bytes(connect()) == limit_bytes(_with("1400MB"))
    assert limit_bytes(connect("4GB")) == limit_bytes(_with("4GB"))
    assert limit_bytes(connect(None)) == limit_bytes(duckdb.connect())


def _with(size):
    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{size}'")
    return con


@pytest.mark.parametrize("bad", ["2x", "1GB'; DROP TABLE x; --", "", 5, "GB"])
def test_memory_limit_must_be_a_size(bad):
    with pytest.raises(OptionError, match="memory_limit must be a size"):
        connect(bad)
    with pytest.raises(OptionError, match="memory_limit must be a size") as refused:
        ndcg_sql.evaluate("examples/does-not-matter.parquet", memory_limit=bad)
    assert "or None for DuckDB's own limit" in str(refused.value)  # a Python caller passes None


def test_cli_memory_limit(tmp_path, capsys):
    run = tmp_path / "run.csv"
    run.write_text("query_id,item_id,score,label\nq,a,1.0,1\nq,b,0.5,0\n")
    assert main(["evaluate", str(run), "--memory-limit", "none", "--no-progress", "--format", "json"]) == 0
    assert main(["evaluate", str(run), "--memory-limit", "700MB", "--no-progress", "--format", "json"]) == 0
    capsys.readouterr()
    for command in (["evaluate", str(run)], ["unjudged", str(run), "--judgments", str(run)]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--memory-limit", "12XB", "--no-progress"])
        assert stop.value.code == 2
        # the command line's words: the flag, and 'none' as typed (not memory_limit, not None)
        err = capsys.readouterr().err
        assert "argument --memory-limit: must be a size such as" in err and "or 'none' for DuckDB's own limit" in err
        assert "memory_limit" not in err and "None" not in err and "got '12XB'" in err


# ---- strict_memory_limit: DuckDB's partitioned execution off on the connection ndcg_sql opens itself

def disabled(con) -> set[str]:
    text = con.sql("SELECT current_setting('disabled_optimizers')").fetchall()[0][0] or ""
    return {part.strip() for part in text.split(",") if part.strip()}


SMALL_LOG = [(f"q{q}", f"d{i}", float((q * 7 + i * 3) % 5), (q + i) % 4) for q in range(30) for i in range(6)]


def _small_log(tmp_path):
    """A small log stored in query order (row groups of a few queries each), as Parquet."""
    path = tmp_path / "log.parquet"
    con = duckdb.connect()
    con.execute("CREATE TABLE t (query_id VARCHAR, item_id VARCHAR, score DOUBLE, label INTEGER)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", SMALL_LOG)
    con.execute(f"COPY (SELECT * FROM t ORDER BY query_id) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 24)")
    con.close()
    return str(path)


def test_strict_memory_limit_turns_partitioned_execution_off_on_the_connection_opened_here():
    optimizers = {row[0] for row in duckdb.connect().execute("SELECT name FROM duckdb_optimizers()").fetchall()}
    assert "partitioned_execution" in optimizers  # the installed DuckDB has what the option turns off
    assert "partitioned_execution" in disabled(connect(strict_memory_limit=True))
    assert "partitioned_execution" not in disabled(connect())
    assert disabled(connect("700MB", 1, None, True)) == {"partitioned_execution"}
    for bad in ("yes", 1, None):
        with pytest.raises(OptionError, match="strict_memory_limit must be True or False"):
            connect(strict_memory_limit=bad)


def test_strict_memory_limit_on_a_duckdb_without_the_optimizer_is_refused(monkeypatch, tmp_path):
    """The option could not keep its word on a DuckDB without partitioned execution: an OptionError
    naming the optimizer, and the connection's temp folder is not left behind."""
    from ndcg_sql.data import connections

    monkeypatch.setattr(connections, "STRICT_MEMORY_OPTIMIZER", "no_such")
    with pytest.raises(OptionError, match="strict_memory_limit turns off DuckDB's optimizer 'no_such'"):
        connect(strict_memory_limit=True, temp_directory=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_evaluate_with_strict_memory_limit_gives_the_reference_per_query_rows(tmp_path):
    import reference

    log = _small_log(tmp_path)
    want, _ = reference.evaluate(SMALL_LOG, [3, None])
    for strict in (False, True):
        with ndcg_sql.evaluate(log, k=[3, "all"], strict_memory_limit=strict) as result:
            assert ("partitioned_execution" in disabled(result.leftovers.con)) is strict
            rows = result.per_query_records()
        assert len(rows) == len(want) == 60
        for row in rows:
            cg, dcg, idcg, ndcg = want[(row["query_id"], row["k"])]
            assert reference.close(row["dcg"], dcg) and reference.close(row["idcg"], idcg), row
            assert reference.close(row["ndcg"], ndcg) and reference.close(row["cg"], cg), row


def test_strict_memory_limit_leaves_a_callers_connection_as_it_is(tmp_path):
    log = _small_log(tmp_path)
    for before in ("", "join_order"):
        con = duckdb.connect()
        con.execute(f"SET disabled_optimizers = '{before}'")
        ndcg_sql.evaluate(log, con=con, strict_memory_limit=True).close()
        ndcg_sql.compare(log, log, con=con, strict_memory_limit=True, permutations=10).close()
        ndcg_sql.unjudged(log, log, con=con, strict_memory_limit=True).close()
        assert con.execute("SELECT current_setting('disabled_optimizers')").fetchone()[0] == before


@pytest.mark.parametrize("flag", [False, True])
def test_cli_strict_memory_limit_reaches_the_connection(tmp_path, capsys, monkeypatch, flag):
    from ndcg_sql import cli

    log = _small_log(tmp_path)
    seen = []

    def recording(*args, **kwargs):
        con = connect(*args, **kwargs)
        seen.append((disabled(con), limit_bytes(con)))  # the command closes it before main returns
        return con

    monkeypatch.setattr(cli, "connect", recording)
    strict = ["--strict-memory-limit"] if flag else []
    for command in (["evaluate", log], ["compare", log, log, "--permutations", "10"],
                    ["unjudged", log, "--judgments", log], ["plot", log, "--output", str(tmp_path / "p.png")]):
        args = cli.build_parser().parse_args([*command, *strict, "--no-progress"])
        with cli._connected(args) as con:
            assert ("partitioned_execution" in disabled(con)) is flag
        seen.clear()
        if command[0] == "plot":  # CI's floor run has no matplotlib: hide it here too, the connection comes first
            with monkeypatch.context() as hidden:
                hidden.setitem(sys.modules, "matplotlib", None)
                with pytest.raises(SystemExit) as stop:
                    main([*command, *strict, "--no-progress", "--memory-limit", "700MB"])
            assert stop.value.code == 1 and "plot needs matplotlib" in capsys.readouterr().err
        else:
            assert main([*command, *strict, "--no-progress", "--memory-limit", "700MB"]) == 0
        assert len(seen) == 1 and ("partitioned_execution" in seen[0][0]) is flag
        assert seen[0][1] == limit_bytes(_with("700MB"))
    capsys.readouterr()


def test_connection_options_are_checked_on_a_callers_connection_too(tmp_path):
    """A caller's con= ignores memory_limit and strict_memory_limit (documented), but a bad value
    passed beside it was accepted silently: it is refused before any work, as without con=."""
    path = str(tmp_path / "log.csv")
    duckdb.connect().execute("COPY (SELECT 'q' AS query_id, 'd' AS item_id, 1.0 AS score, 1 AS label) "
                             f"TO '{path}' (HEADER)")
    con = duckdb.connect()
    for call in (lambda **o: ndcg_sql.evaluate(path, con=con, **o),
                 lambda **o: ndcg_sql.compare(path, path, judgments=None, measures=["nDCG@1"], con=con, **o),
                 lambda **o: ndcg_sql.unjudged(path, judgments=path, con=con, **o)):
        with pytest.raises(OptionError, match="memory_limit must be a size such as '1400MB' or '4GB'"):
            call(memory_limit="12XB")
        with pytest.raises(OptionError, match="strict_memory_limit must be True or False; got 'yes'"):
            call(strict_memory_limit="yes")
    assert con.execute("SELECT current_setting('disabled_optimizers')").fetchone()[0] == ""


def test_threads_on_a_callers_connection_stay_set_as_documented(tmp_path):
    """The one setting ndcg_sql changes on a caller's connection, when asked: threads (the option's
    text says so, since 'a connection given as con= keeps its own settings' holds for the others)."""
    from ndcg_sql.vocabulary.parameters import PARAMETERS

    text = next(p for p in PARAMETERS if p.name == "threads").doc
    assert "on a connection given as con= they are SET there, and stay set" in text
    path = str(tmp_path / "log.csv")
    duckdb.connect().execute("COPY (SELECT 'q' AS query_id, 'd' AS item_id, 1.0 AS score, 1 AS label) "
                             f"TO '{path}' (HEADER)")
    con = duckdb.connect()
    con.execute("SET threads = 2")
    with ndcg_sql.evaluate(path, con=con, threads=1) as result:
        result.summary_records()
    assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 1
