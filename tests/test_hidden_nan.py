"""A NaN that a file's statistics hide is refused, never computed on (issue: a Parquet file written
by pyarrow or polars with a NaN label gave NDCG 0 for every query).

Parquet's min/max statistics leave NaN out (the format's rule); an engine that trusts them may
fold a per-row NaN test to false or skip the row group holding it. The first check pass reads
each checked column's smallest and largest value by aggregates, and a problem it sees that the
per-row count does not is refused.
"""

import math

import duckdb
import pytest

import ndcg_sql
from ndcg_sql import InputError
from ndcg_sql.building import validation
from ndcg_sql.vocabulary.parameters import Options

ROWS = {
    "query_id": ["q1", "q1", "q2", "q2", "q3", "q3"],
    "item_id": ["a", "b", "c", "d", "e", "f"],
    "score": [2.0, 1.0, 2.0, 1.0, 2.0, 1.0],
    "label": [1.0, 0.0, 1.0, 0.0, 0.0, 2.0],
    "weight": [1.0, 1.0, 2.0, 2.0, 1.0, 1.0],
}


def parquet_with(tmp_path, writer, column, row, value, name="log.parquet"):
    """The rows with one value replaced, written to Parquet by ``writer`` with statistics."""
    rows = {key: list(values) for key, values in ROWS.items()}
    rows[column][row] = value
    path = tmp_path / name
    if writer == "pyarrow":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table(rows), path)
    else:
        import polars as pl

        pl.DataFrame(rows).write_parquet(path, statistics=True)
    return path


def test_the_statistics_of_such_a_file_leave_the_nan_out(tmp_path):
    """The premise, checked on the file itself: min/max without the NaN, and DuckDB, trusting
    them, finds no NaN by the test the checks used (so a test of the fix can fail)."""
    path = parquet_with(tmp_path, "pyarrow", "label", 0, math.nan)
    con = duckdb.connect()
    stats = con.execute("SELECT stats_min, stats_max FROM parquet_metadata(?) WHERE path_in_schema = 'label'",
                        [str(path)]).fetchall()
    assert [float(x) for x in stats[0]] == [0.0, 2.0]
    assert con.execute("SELECT count(*) FROM read_parquet(?) WHERE isnan(label)", [str(path)]).fetchall() == [(0,)]


@pytest.mark.parametrize("writer", ["pyarrow", "polars"])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_a_nan_label_in_parquet_is_refused_with_its_query(tmp_path, writer, gain):
    path = parquet_with(tmp_path, writer, "label", 2, math.nan)
    with pytest.raises(InputError) as caught:
        ndcg_sql.evaluate(str(path), gain=gain, k=[10])
    message = str(caught.value)
    assert "column 'label': NaN or infinite labels (1 row)" in message
    assert "q2" in message


@pytest.mark.parametrize("column, value, words", [
    ("score", math.nan, "column 'score': NaN scores (1 row)"),
    ("label", math.inf, "column 'label': NaN or infinite labels (1 row)"),
    ("weight", math.nan, "column 'weight': NaN or infinite weights (1 row)"),
])
def test_other_hidden_values_in_parquet_are_refused(tmp_path, column, value, words):
    path = parquet_with(tmp_path, "pyarrow", column, 4, value)
    with pytest.raises(InputError) as caught:
        ndcg_sql.evaluate(str(path), gain="linear", weight_col="weight", k=[10])
    assert words in str(caught.value) and "q3" in str(caught.value)


def test_a_nan_label_in_parquet_judgments_is_refused(tmp_path):
    run = parquet_with(tmp_path, "pyarrow", "label", 0, 1.0, name="run.parquet")
    judgments = parquet_with(tmp_path, "pyarrow", "label", 5, math.nan, name="qrels.parquet")
    with pytest.raises(InputError) as caught:
        ndcg_sql.evaluate(str(run), judgments=str(judgments), gain="linear", k=[10])
    assert "NaN or infinite labels in the judgments (1 row)" in str(caught.value)
    assert "q3" in str(caught.value)


def test_a_relation_read_without_the_nan_flag_is_refused(tmp_path):
    """A DuckDB relation of the caller's, reading the file with its statistics trusted: the per-row
    count finds nothing, the first pass's largest label is NaN, and the input is refused."""
    path = parquet_with(tmp_path, "pyarrow", "label", 0, math.nan)
    con = duckdb.connect()
    relation = con.read_parquet(str(path))
    with pytest.raises(InputError) as caught:
        ndcg_sql.evaluate(relation, con=con, gain="linear", k=[10])
    message = str(caught.value)
    assert "column 'label': NaN or infinite labels" in message and "e.g. in query_id q1" in message
    assert "can_have_nan" in message
    # the per-row tests folded by the false statistics give no other (false) reason
    assert "add up past" not in message and message.count("\n") == 1


def test_the_cli_refuses_a_hidden_nan(tmp_path, capsys):
    from ndcg_sql import cli

    path = parquet_with(tmp_path, "polars", "label", 1, math.nan)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["evaluate", str(path), "--gain", "linear"])
    assert stopped.value.code == 1
    assert "NaN or infinite labels" in capsys.readouterr().err


def test_when_the_first_pass_finds_a_problem_the_count_must_too():
    """The rule itself: the first pass saw a problem, every check counts 0: refused, not computed on."""
    checks = validation.checks_for(Options(gain="linear"), {"query": "q", "item": "i", "order": "s", "label": "l"})
    zeros = {name.lower(): 0 for name in validation.count_columns(checks)} | {"run_rows_count": 6}

    assert validation.listing_plan({}, checks, dict(zeros)).reads == ()  # no statement when no check fails
    validation.refuse(checks, "q", dict(zeros), {})  # nothing found, nothing expected
    with pytest.raises(InputError, match="the input checks disagree"):
        validation.refuse(checks, "q", dict(zeros), {}, must_find=True)


def test_a_file_without_nan_gives_the_hand_worked_ndcg(tmp_path):
    """Reading Parquet with can_have_nan changes no number: q1 and q2 rank their relevant item
    first (NDCG 1); q3 ranks label 2 second: DCG = 2/log2(3), IDCG = 2, linear gain."""
    path = parquet_with(tmp_path, "pyarrow", "label", 0, 1.0)
    result = ndcg_sql.evaluate(str(path), gain="linear", k=[10])
    expected = (1.0 + 1.0 + (2.0 / math.log2(3)) / 2.0) / 3.0
    assert result.summary_records()[0]["ndcg"] == pytest.approx(expected, abs=1e-15)
