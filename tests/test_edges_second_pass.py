"""The edges of issue 35, second pass: trusted input whose bad row spoils no other query, internal
names a user cannot collide with, and messages that name the file and the real problem.

* ``checks="trusted"``: a NaN, infinite or 1e400 label is a wrong number for its own query at
  most, never for another, and never a Python traceback (the labels the SQL is shaped by are the
  finite ones).
* The temp views and tables a call creates have names no user picks by accident, and a name a
  table or view of the connection already has is never taken (nor replaced).
* A corrupt Parquet page, a CSV with ragged rows, ``/dev/null`` and a label expression of
  100,000 terms each end in one line naming the file (or the expression, shortened) and what is
  wrong, never "please report this" or a list of columns the file does not have.

Every expected number comes from the numpy reference (tests/reference.py) on the good queries alone.
"""

from __future__ import annotations

import math
import os
import secrets

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ndcg_sql
import reference
from conftest import per_query_map
from ndcg_sql import InputError, OptionError, cli

QUERIES = 200
ITEMS = 5
CUTOFFS = [1, 3]


def _rows(seed: int = 3) -> list[tuple]:
    """QUERIES lists of ITEMS items, distinct scores, whole labels 0..3 (the ideal ranking is then
    counted per label: the label facts shape every query's SQL)."""
    rng = np.random.default_rng(seed)
    rows = []
    for query in range(QUERIES):
        scores = rng.permutation(ITEMS).astype(float) + 1.0
        labels = rng.integers(0, 4, ITEMS)
        rows += [(query, f"d{item}", float(s), int(label)) for item, s, label in zip(range(ITEMS), scores, labels)]
    return rows


def _with_bad_label(rows, text: str) -> str:
    """The rows as CSV text, query 0's lowest-scored item labelled ``text`` (below every cutoff)."""
    lowest = min((r for r in rows if r[0] == 0), key=lambda r: r[2])
    lines = ["query_id,item_id,score,label"]
    lines += [f"{q},{i},{s},{text if (q, i) == lowest[:2] else label}" for q, i, s, label in rows]
    return "\n".join(lines) + "\n"


def _assert_good_queries_as_the_reference(result, rows):
    """Every query but 0 as the numpy reference computes it on the good queries alone."""
    good = [r for r in rows if r[0] != 0]
    expected, _ = reference.evaluate(good, CUTOFFS)
    got = per_query_map(result)
    assert {q for q, _ in got} == set(range(QUERIES))  # the bad query is computed on, not dropped
    for (query, k), values in expected.items():
        assert all(reference.close(a, b) for a, b in zip(got[(query, k)], values)), (query, k, got[(query, k)], values)


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "1e400"])
def test_a_bad_label_under_trusted_changes_no_other_query(tmp_path, bad):
    """Before: one NaN label gave every query IDCG 0 and NDCG 0; an infinite one (or 1e400, read as
    infinity) an OverflowError traceback from the templates' context."""
    rows = _rows()
    path = tmp_path / "run.csv"
    path.write_text(_with_bad_label(rows, bad))
    with ndcg_sql.evaluate(str(path), k=CUTOFFS, checks="trusted") as result:
        _assert_good_queries_as_the_reference(result, rows)
    with pytest.raises(InputError, match="NaN or infinite labels"):  # the default still refuses it
        ndcg_sql.evaluate(str(path), k=CUTOFFS)


def test_a_bad_label_in_the_judgments_under_trusted_changes_no_other_query():
    """Judgments: an unretrieved judged item of query 0 labelled NaN (an Arrow frame keeps NaN)."""
    rows = _rows(5)
    judged = [(q, i, float(label)) for q, i, _, label in rows] + [(0, "unranked", math.nan)]
    judgments = pa.table({"query_id": [q for q, *_ in judged], "item_id": [i for _, i, _ in judged],
                          "label": [label for *_, label in judged]})
    run = pd.DataFrame([(q, i, s) for q, i, s, _ in rows], columns=["query_id", "item_id", "score"])
    with ndcg_sql.evaluate(run, judgments=judgments, k=CUTOFFS, checks="trusted") as result:
        good = [r for r in rows if r[0] != 0]
        expected, _ = reference.evaluate(good, CUTOFFS, judgments=[j for j in judged if j[0] != 0])
        got = per_query_map(result)
        for key, values in expected.items():
            assert all(reference.close(a, b) for a, b in zip(got[key], values)), (key, got[key], values)


def test_an_infinite_label_read_by_every_cutoff_is_one_line_not_a_traceback(tmp_path):
    """Over the whole list the bad query's value is infinite or NaN: DuckDB's exact mean cannot
    hold it, and that is an InputError of one line saying the input was not checked."""
    rows = _rows()
    path = tmp_path / "run.csv"
    path.write_text(_with_bad_label(rows, "1e400"))
    with pytest.raises(InputError) as error:
        ndcg_sql.evaluate(str(path), checks="trusted")
    message = str(error.value)
    assert "\n" not in message and "checks='trusted': the input was not checked" in message


def _cli(capsys, *args):
    """(exit status, stdout, stderr) of ``ndcg-sql args`` in this process (a raw exception fails the test)."""
    try:
        status = cli.main([*args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def _one_line(err: str) -> str:
    assert err.startswith("ndcg-sql: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err


def test_the_command_line_with_trusted_checks_and_an_infinite_label(tmp_path, capsys):
    rows = _rows()
    path = tmp_path / "run.csv"
    path.write_text(_with_bad_label(rows, "1e400"))
    status, out, err = _cli(capsys, "evaluate", str(path), "--checks", "trusted", "--k", "1", "3", "--format", "json")
    assert status == 0, err
    status, out, err = _cli(capsys, "evaluate", str(path), "--checks", "trusted")
    assert status == 1 and "checks='trusted'" in _one_line(err)


# -- internal names ----------------------------------------------------------------------------------

def _user_views(con, names):
    for name in names:
        con.execute(f'CREATE TEMP VIEW "{name}" AS SELECT 42 AS mine')


@pytest.mark.parametrize("kind", ["relation", "table", "frame"])
def test_a_view_named_like_ours_is_never_replaced(monkeypatch, kind):
    """Views named as the next internal names would be, by the old scheme
    (ndcg_sql_run_<pid>_<n>) and by the new one with its random part forced to repeat: every
    one still holds its own row after the call, and the call computes (by hand: query 1's
    relevant item ranked first, NDCG@2 = 1; query 2's relevant item second of two with label 2
    against label 1 first, DCG = 1 + 3 / log2(3), IDCG = 3 + 1 / log2(3))."""
    from ndcg_sql.data import inputs

    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a', 0.9, 1), (1, 'b', 0.5, 0), (2, 'c', 0.9, 1), "
                "(2, 'd', 0.5, 2)) v(query_id, item_id, score, label)")
    start = next(inputs._counter) + 1
    pid = os.getpid()
    fixed = "0" * 16
    tokens = iter([fixed] * 6)
    real = secrets.token_hex
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(tokens, None) or real(n))
    taken = [f"ndcg_sql_run_{pid}_{n}" for n in range(start, start + 40)]
    taken += [f"ndcg_sql_{what}_{pid}_{n}_{fixed}" for what in ("run", "per_query", "summary")
              for n in range(start, start + 6)]
    _user_views(con, taken)
    data = {"relation": con.table("t"), "table": "t", "frame": con.table("t").df()}[kind]
    with ndcg_sql.evaluate(data, con=con, k=[2]) as result:
        got = per_query_map(result)
    assert got[(1, 2)][3] == pytest.approx(1.0)
    assert got[(2, 2)][3] == pytest.approx((1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3)))
    for name in taken:
        assert con.execute(f'SELECT * FROM "{name}"').fetchall() == [(42,)], name


def test_a_relation_of_another_connection_leaves_no_view_there():
    """Before: the view made to tell whose relation it is stayed in the other connection."""
    other = duckdb.connect()
    other.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a', 0.9, 1), (1, 'b', 0.5, 0)) v(query_id, item_id, "
                  "score, label)")
    with ndcg_sql.evaluate(other.table("t"), k=[2]) as result:
        assert per_query_map(result)[(1, 2)][3] == pytest.approx(1.0)  # the relevant item first
    assert other.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall() == []


def test_internal_names_have_a_random_part():
    from ndcg_sql.data import inputs

    first, second = inputs.new_view_name("run"), inputs.new_view_name("run")
    assert first.rsplit("_", 1)[0].rsplit("_", 1)[0] == second.rsplit("_", 1)[0].rsplit("_", 1)[0]
    assert len(first.rsplit("_", 1)[1]) == 16 and first.rsplit("_", 1)[1] != second.rsplit("_", 1)[1]


# -- messages ----------------------------------------------------------------------------------------

def _corrupt_parquet(path) -> None:
    """A Parquet file whose item_id pages are overwritten past their header (its footer intact)."""
    frame = pd.DataFrame({"query_id": np.repeat(np.arange(200), 5), "item_id": [f"doc{i:05d}" for i in range(1000)],
                          "score": np.linspace(0, 1, 1000), "label": np.arange(1000) % 3})
    frame.to_parquet(path, compression="snappy")
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(1)
    data = bytearray(path.read_bytes())
    start = chunk.data_page_offset + 24
    data[start:start + 200] = bytes((i * 37 + 11) % 256 for i in range(200))
    path.write_bytes(bytes(data))


def test_a_corrupt_parquet_file_names_the_file_not_a_bug(tmp_path, capsys):
    path = tmp_path / "run.parquet"
    _corrupt_parquet(path)
    with pytest.raises(duckdb.Error):  # the file is indeed unreadable
        duckdb.sql(f"SELECT * FROM read_parquet('{path}')").fetchall()
    status, _, err = _cli(capsys, "evaluate", str(path))
    assert status == 1
    assert _one_line(err).startswith(f"ndcg-sql: error: cannot read {path}: ")
    assert "please report" not in err and "found nothing wrong" not in err


@pytest.mark.parametrize("lines, line", [
    (["q1,a,3,2", "q1,b,2,0,7,8", "q1,c", "q2,a,2,1"], 3),
    ([f"q{i},a,{i},1" for i in range(50)] + ["q9,b,2,0,7"], 52),
], ids=["early", "late"])
def test_a_ragged_csv_names_its_line_not_every_column(tmp_path, capsys, lines, line):
    """Before: the sniffer's one column 'query_id,item_id,score,label' (or column0, column1, ...)
    and a message that the file lacks every column."""
    path = tmp_path / "run.csv"
    path.write_text("query_id,item_id,score,label\n" + "\n".join(lines) + "\n")
    status, _, err = _cli(capsys, "evaluate", str(path))
    assert status == 1
    assert _one_line(err).startswith(f"ndcg-sql: error: cannot read {path} as CSV: ")
    assert f"Line: {line}" in err and "its columns are" not in err


def test_dev_null_is_empty(capsys):
    """Before: read as a TREC run (no file ending), and "the ranking has no label column 'label';
    its columns are: query_id, item_id, rank, score"."""
    status, _, err = _cli(capsys, "evaluate", os.devnull)
    assert status == 1
    assert _one_line(err) == f"ndcg-sql: error: {os.devnull} is empty (the null device): the ranking has no rows and no columns\n"
    status, _, err = _cli(capsys, "evaluate", os.devnull, "--judgments", os.devnull)
    assert status == 1 and "is empty (the null device)" in _one_line(err)


def test_a_huge_label_expression_is_not_echoed_back(tmp_path, capsys):
    path = tmp_path / "run.csv"
    path.write_text("query_id,item_id,score,label\nq1,a,1,1\nq1,b,0.5,0\n")
    expression = " + ".join(["label"] * 3_000)  # as 100,000 terms (800 KB), in a fraction of their time
    with pytest.raises(InputError) as error:
        ndcg_sql.evaluate(str(path), label=expression)
    message = str(error.value)
    assert len(message) < 1000 and f"({len(expression):,} characters)" in message
    assert repr(expression[:200] + "…") in message
    with pytest.raises(OptionError) as error:  # not SQL: the same, from the parser
        ndcg_sql.evaluate(str(path), label=expression + " +")
    assert len(str(error.value)) < 1000
    status, _, err = _cli(capsys, "evaluate", str(path), "--label", expression)
    assert status == 1 and len(_one_line(err)) < 1000 and f"({len(expression):,} characters)" in err
