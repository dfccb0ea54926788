"""The connection evaluate opens itself: DuckDB's memory_limit defaults to DEFAULT_MEMORY_LIMIT."""

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
