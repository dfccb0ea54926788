"""Every accepted input kind gives the same numbers; ids keep their type."""

import json

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import ndcg_sql
from conftest import EXAMPLES, per_query_map

LIGHTGBM = EXAMPLES / "lightgbm_lambdarank" / "rank.train.scored.csv"


@pytest.fixture(scope="module")
def frame():
    return pd.read_csv(LIGHTGBM)


@pytest.fixture(scope="module")
def expected(frame):
    return per_query_map(ndcg_sql.evaluate(frame, item_col="doc_id"))


def test_files_and_objects_agree(tmp_path, frame, expected):
    parquet = tmp_path / "run.parquet"
    jsonl = tmp_path / "run.jsonl"
    frame.to_parquet(parquet)
    jsonl.write_text("\n".join(json.dumps(r) for r in frame.to_dict("records")))
    con = duckdb.connect()
    con.execute("CREATE TABLE logged AS SELECT * FROM read_csv(?)", [str(LIGHTGBM)])
    inputs = {
        "csv path": (str(LIGHTGBM), {}),
        "Path": (LIGHTGBM, {}),
        "parquet": (str(parquet), {}),
        "json lines": (str(jsonl), {}),
        "polars": (pl.from_pandas(frame), {}),
        "arrow": (pa.Table.from_pandas(frame), {}),
        "table name": ("logged", {"con": con}),
        "relation": (con.table("logged"), {"con": con}),
        "relation of another connection": (duckdb.connect().read_csv(str(LIGHTGBM)), {}),
    }
    for name, (data, extra) in inputs.items():
        got = per_query_map(ndcg_sql.evaluate(data, item_col="doc_id", **extra))
        assert got == expected, name


def test_query_ids_keep_their_type():
    ints = pd.DataFrame({"query_id": [10, 9], "item_id": [1, 2], "score": [1.0, 2.0], "label": [1, 1]})
    strings = ints.assign(query_id=["10", "9"])
    assert [r["query_id"] for r in ndcg_sql.evaluate(ints, k=1).per_query_records()] == [9, 10]
    # string ids order in byte order: "10" < "9"
    assert [r["query_id"] for r in ndcg_sql.evaluate(strings, k=1).per_query_records()] == ["10", "9"]


def test_string_item_ties_break_in_byte_order():
    # byte order: "B" (0x42) < "a" (0x61) < "é" (0xC3 0xA9); a locale collation would put "a" before "B"
    data = pd.DataFrame({"query_id": 1, "item_id": ["a", "é", "B"], "score": 0.0, "label": [1, 2, 0]})
    first = {
        ties: ndcg_sql.evaluate(data, k=1, ties=ties, gain="linear").per_query_records()[0]["dcg"]
        for ties in ("item-asc", "item-desc")
    }
    assert first == {"item-asc": 0.0, "item-desc": 2.0}


def test_trec_files_with_comments_and_junk_words(tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.5 tag extra words\nq1\tQ0\td2\t2\t  1.5\ttag\n\nq2 Q0 d1 1 1 tag\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("# a comment line\nq1 0 d2 2\nq1 0 d#3 1\nq2 0 d1 0\n")
    result = ndcg_sql.evaluate(str(run), judgments=str(qrels), k=[2], gain="linear")
    got = per_query_map(result)
    # q1: ranking d1 (0), d2 (2); ideal 2, 1 (d#3 is a judged item, '#' inside an id is no comment)
    assert got[("q1", 2)][1] == pytest.approx(2 / __import__("math").log2(3), rel=1e-12)
    assert got[("q1", 2)][2] == pytest.approx(2 + 1 / __import__("math").log2(3), rel=1e-12)
    assert got[("q2", 2)][3] == 0.0


def test_malformed_trec_file(tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.5 tag\nq7 Q0 d2 two 1.0 tag\n")
    with pytest.raises(ndcg_sql.InputError, match="q7"):
        ndcg_sql.evaluate(str(run), judgments=str(run))


def test_input_format_can_be_forced(tmp_path, frame, expected):
    data = tmp_path / "run.data"
    frame.to_csv(data, index=False)
    got = per_query_map(ndcg_sql.evaluate(str(data), item_col="doc_id", input_format="csv"))
    assert got == expected


@pytest.mark.parametrize("missing", ["pandas", "numpy"])
def test_dataframe_results_without_pandas_name_the_extra(monkeypatch, missing):
    """summary_df / per_query_df without pandas (or numpy): an ImportError telling how to install them."""
    import sys

    result = ndcg_sql.evaluate(duckdb.connect().sql(
        "SELECT 1 AS query_id, 'a' AS item_id, 1.0 AS score, 1 AS label"), k=1)
    monkeypatch.setitem(sys.modules, missing, None)  # `import <missing>` now raises ImportError
    for method in (result.summary_df, result.per_query_df):
        with pytest.raises(ImportError, match=r"pip install pandas \(ndcg_sql's 'dataframes' extra\)"):
            method()


@pytest.mark.parametrize("name", ["run.csv", "run.txt", "run.parquet"])
def test_an_empty_file_says_it_is_empty(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"")
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(str(path))
    assert str(error.value) == f"{path} is empty (0 bytes): the ranking has no rows"
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(str(EXAMPLES / "trec_dl19_passage" / "run.dl19.bm25.top100.txt"), judgments=str(path))
    assert str(error.value) == f"{path} is empty (0 bytes): the judgments have no rows"


def test_a_directory_says_it_is_a_directory(tmp_path):
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(str(tmp_path))
    assert str(error.value).startswith(f"{tmp_path} is a directory, not a file")


def test_an_engine_failure_is_wrapped_never_raw(monkeypatch, frame):
    """Should DuckDB refuse input the checks let through, the user gets an InputError naming the
    input and its columns, with DuckDB's first line, never the raw exception."""
    from ndcg_sql.running import runner

    def refuse(*args, **kwargs):
        raise duckdb.ConversionException("Conversion Error: Could not convert string 'q1' to INT64\nLINE 1: ...")

    monkeypatch.setattr(runner, "run", refuse)
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(frame, item_col="doc_id")
    message = str(error.value)
    assert message.startswith("DuckDB could not compute on a DataFrame (columns 'query_id', 'doc_id', 'score'): "
                              "Conversion Error: Could not convert string 'q1' to INT64.")
    assert "LINE 1" not in message


def test_a_missing_name_speaks_of_a_connection_only_when_one_was_given(tmp_path, monkeypatch):
    """A name that is no file: without a connection of the caller's it is "no such file", with the
    path as given and the current folder (no table can be meant); with one, "neither a file nor a
    table or view in the connection"; and a table of that connection is read."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ndcg_sql.InputError) as alone:
        ndcg_sql.evaluate("missing.parquet", k=[1])
    assert str(alone.value) == f"no such file: missing.parquet (in the current folder {tmp_path})"
    assert "connection" not in str(alone.value)
    (tmp_path / "good.csv").write_text("query_id,item_id,score\n1,1,1.0\n")
    with pytest.raises(ndcg_sql.InputError, match="no such file: missing.csv \\(in the current folder"):
        ndcg_sql.evaluate("good.csv", judgments="missing.csv", k=[1])  # judgments too
    con = duckdb.connect()
    with pytest.raises(ndcg_sql.InputError, match="'missing.parquet' is neither a file nor a table or view in the "
                                                  "connection"):
        ndcg_sql.evaluate("missing.parquet", k=[1], con=con)
    con.execute("CREATE TABLE run AS SELECT 1 AS query_id, 1 AS item_id, 1.0 AS score, 1 AS label")
    assert ndcg_sql.evaluate("run", k=[1], con=con).summary_records()[0]["ndcg"] == 1.0
