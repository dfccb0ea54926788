"""Bad input gets a clear error naming the column and offending query ids, never a number."""

import math

import duckdb
import pandas as pd
import pytest

import ndcg_sql
from ndcg_sql import InputError, OptionError


def good(**changes):
    data = pd.DataFrame({
        "query_id": [1, 1, 2, 2, 3, 3],
        "item_id": ["a", "b", "a", "c", "d", "e"],
        "score": [1.0, 0.5, 0.3, 0.2, 0.9, 0.1],
        "label": [1.0, 0.0, 2.0, 1.0, 0.0, 3.0],
    })
    for column, (row, value) in changes.items():
        data[column] = data[column].astype(object)
        data.loc[row, column] = value
    return data


def arrow_with(column, row, value):
    """A table with one value changed, through Arrow: pandas would turn NaN into NULL."""
    import pyarrow as pa

    data = good()
    values = data[column].tolist()
    values[row] = value
    table = pa.Table.from_pandas(data, preserve_index=False)
    return table.set_column(table.column_names.index(column), column, pa.array(values, type=pa.float64(), from_pandas=False))


def error_of(data, **kwargs) -> str:
    with pytest.raises(InputError) as caught:
        ndcg_sql.evaluate(data, **kwargs)
    return str(caught.value)


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("score", None, "NULL scores"),
        ("score", math.nan, "NaN scores"),
        ("score", "high", "non-numeric scores"),
        ("label", None, "NULL labels"),
        ("label", math.nan, "NaN or infinite labels"),
        ("label", math.inf, "NaN or infinite labels"),
        ("label", -1.0, "negative labels"),
        ("label", "relevant", "non-numeric labels"),
        ("label", 1024.0, "labels above 1023"),
        ("item_id", None, "NULL item ids"),
    ],
)
def test_bad_values_name_column_and_query(column, value, words):
    if isinstance(value, float) and math.isnan(value):
        data = arrow_with(column, 2, value)
    else:
        data = good(**{column: (2, value)})
    message = error_of(data)
    assert f"column '{column}'" in message
    assert words in message
    assert "query_id 2" in message  # row 2 belongs to query 2


def test_infinite_label_is_not_also_called_too_large():
    message = error_of(good(label=(2, math.inf)))
    assert "NaN or infinite labels" in message and "above 1023" not in message


def test_null_query_id_is_reported_with_a_row_count():
    message = error_of(good(query_id=(0, None)))
    assert "column 'query_id': NULL query ids (1 row)" in message


def test_duplicate_query_item_rows():
    data = good()
    data = pd.concat([data, data.iloc[[2]]], ignore_index=True)
    message = error_of(data)
    assert "duplicate (query, item) rows in the ranking" in message
    assert "query_id 2" in message


def test_duplicate_judgments():
    run = good().drop(columns=["label"])
    qrels = pd.DataFrame({"query_id": [1, 1, 2], "item_id": ["a", "a", "c"], "label": [1, 2, 0]})
    message = error_of(run, judgments=qrels)
    assert "duplicate (query, item) rows in the judgments" in message
    assert "query_id 1" in message


def test_duplicate_counts_pairs_and_rows():
    """Two rows sharing a pair are one duplicated pair and two rows; three copies of another pair add
    one pair and three rows."""
    data = good()
    data = pd.concat([data, data.iloc[[2]], data.iloc[[4, 4]]], ignore_index=True)
    message = error_of(data)
    assert "duplicate (query, item) rows in the ranking (2 duplicated (query, item) pairs, 5 rows)" in message
    one = error_of(pd.concat([good(), good().iloc[[0]]], ignore_index=True))
    assert "(1 duplicated (query, item) pair, 2 rows)" in one


def test_judgment_label_errors_name_the_judgments():
    run = good().drop(columns=["label"])
    qrels = pd.DataFrame({"query_id": [1, 2, 3], "item_id": ["a", "c", "d"], "label": [None, -1.0, 5000.0]})
    message = error_of(run, judgments=qrels)
    assert "column 'label': NULL labels in the judgments (1 row), e.g. in query_id 1" in message
    assert "column 'label': negative labels in the judgments (1 row), e.g. in query_id 2" in message
    assert "column 'label': labels in the judgments above 1023" in message and "query_id 3" in message


def test_negative_labels_error_names_the_option_that_accepts_them():
    message = error_of(good(label=(2, -1.0)))
    assert "negative labels (1 row), e.g. in query_id 2 - negative_labels='zero' (--negative-labels zero)" in message
    assert ndcg_sql.evaluate(good(label=(2, -1.0)), negative_labels="zero").summary_records()


def test_negative_judgment_and_null_run_label_is_fine_with_judgments():
    run = good(label=(0, None))  # the run's label column is not used with judgments
    qrels = pd.DataFrame({"query_id": [1, 2], "item_id": ["a", "c"], "label": [1.0, -2.0]})
    message = error_of(run, judgments=qrels)
    assert "column 'label': negative labels" in message and "query_id 2" in message
    qrels.loc[1, "label"] = 2.0
    assert ndcg_sql.evaluate(run, judgments=qrels).summary_records()


def test_many_offenders_are_listed_briefly():
    data = duckdb.connect().sql(
        "SELECT i AS query_id, 1 AS item_id, 'nan'::DOUBLE AS score, 1 AS label FROM range(20) AS t(i)"
    )
    message = error_of(data)
    assert "NaN scores (20 rows), e.g. in query_id 0, 1, 2, 3, 4, ..." in message


def test_several_problems_at_once():
    message = error_of(good(score=(1, None), label=(4, -3.0)))
    assert "column 'score': NULL scores" in message and "query_id 1" in message
    assert "column 'label': negative labels" in message and "query_id 3" in message


def test_labels_missing_from_a_gain_mapping():
    message = error_of(good(), gain={0: 0, 1: 1, 2: 3})
    assert "column 'label': label 3 is missing from the gain mapping (1 row), e.g. in query_id 3" in message
    several = error_of(good(label=(0, 7.0)), gain={0: 0, 1: 1, 2: 3})
    assert "labels 3, 7 are missing from the gain mapping (2 rows)" in several
    run = good().drop(columns=["label"])
    qrels = pd.DataFrame({"query_id": [1, 2], "item_id": ["a", "c"], "label": [1.5, 4.0]})
    judged = error_of(run, judgments=qrels, gain={0: 0, 1: 1})
    assert "labels 1.5, 4 are missing from the gain mapping in the judgments (2 rows)" in judged


def test_large_labels_are_fine_with_linear_gain():
    result = ndcg_sql.evaluate(good(label=(0, 5000.0)), gain="linear")
    assert result.per_query_records()


def test_empty_input():
    assert "the ranking has no rows" in error_of(good().iloc[0:0])
    run = good().drop(columns=["label"])
    qrels = pd.DataFrame({"query_id": pd.Series([], dtype="int64"), "item_id": pd.Series([], dtype="str"),
                          "label": pd.Series([], dtype="float64")})
    assert "the judgments have no rows" in error_of(run, judgments=qrels)


def test_unknown_columns_list_the_available_ones():
    message = error_of(good(), item_col="doc_id")
    assert "no item column 'doc_id'" in message and "query_id, item_id, score, label" in message
    message = error_of(good(), score_col="prediction")
    assert "no score column 'prediction'" in message


def test_wrong_column_type():
    data = good()
    data["score"] = pd.to_datetime("2024-01-01")
    assert "column 'score' of the ranking has type TIMESTAMP" in error_of(data)


def test_query_column_may_not_shadow_an_output_column():
    data = good().rename(columns={"query_id": "k"})
    assert "may not be named 'k'" in error_of(data, query_col="k")


@pytest.mark.parametrize("k", [0, -3, 2.5, "ten", True, []])
def test_bad_cutoffs(k):
    with pytest.raises(OptionError):
        ndcg_sql.evaluate(good(), k=k)


@pytest.mark.parametrize(
    "option, value",
    [("gain", "quadratic"), ("ties", "random"), ("no_relevant", "nan"), ("missing_queries", "drop"),
     ("gain", {1: -1.0}), ("gain", {"a": 1, "0": 0}), ("gain", {"a": "b"})],
)
def test_bad_options(option, value):
    with pytest.raises(OptionError):
        ndcg_sql.evaluate(good(), **{option: value})


def test_missing_queries_zero_needs_judgments():
    with pytest.raises(OptionError, match=r"missing_queries='zero' \(--missing-queries zero\) needs judgments \(--judgments\)"):
        ndcg_sql.evaluate(good(), missing_queries="zero")
    with pytest.raises(OptionError, match="needs judgments"):
        ndcg_sql.to_sql("ranking", missing_queries="zero")
    qrels = good()[["query_id", "item_id", "label"]]
    assert ndcg_sql.evaluate(good().drop(columns=["label"]), judgments=qrels, missing_queries="zero").summary_records()


def test_score_and_rank_together_is_an_error():
    with pytest.raises(OptionError):
        ndcg_sql.evaluate(good(), score_col="score", rank_col="score")


def test_missing_file_or_table():
    with pytest.raises(InputError, match="neither a file nor a table"):
        ndcg_sql.evaluate("no_such_file.parquet", con=duckdb.connect())


def test_hostile_column_names_are_quoted():
    data = good().rename(columns={"score": 'sc"ore; DROP TABLE x; --', "label": "la`bel'"})
    result = ndcg_sql.evaluate(data, score_col='sc"ore; DROP TABLE x; --', label_col="la`bel'", k=[3])
    expected = ndcg_sql.evaluate(good(), k=[3])
    assert result.per_query_records() == expected.per_query_records()


def _labelled(labels, query="q"):
    return pd.DataFrame({"query_id": [query] * len(labels), "item_id": [f"d{i}" for i in range(len(labels))],
                         "score": [float(len(labels) - i) for i in range(len(labels))], "label": labels})


@pytest.mark.parametrize("labels", [[1023], [1022, 1022], [1023, 1], [1022, 1022, 0, 0]])
def test_exponential_gains_up_to_the_limit_are_exact(labels):
    """Below the limit (a query's gains add up to at most 2^1023) every sum is finite: DCG by hand,
    in descending order so the ranking is the ideal one and NDCG is 1."""
    dcg = sum((2.0 ** label - 1.0) / math.log2(rank + 2) for rank, label in enumerate(labels))
    row = ndcg_sql.evaluate(_labelled(labels), k=[None]).per_query_records()[0]
    assert math.isfinite(row["cg"]) and row["dcg"] == pytest.approx(dcg, rel=1e-15)
    assert row["idcg"] == pytest.approx(dcg, rel=1e-15) and row["ndcg"] == 1.0


@pytest.mark.parametrize("labels", [[1023, 1023], [1022, 1022, 1022], [1000, 1023, 1023]])
def test_exponential_gains_past_the_limit_are_refused(labels):
    """Past 2^1023 a sum of doubles may overflow: the query is named, never NDCG 0, inf or NaN."""
    data = pd.concat([_labelled(labels, "big"), _labelled([3, 1], "fine")], ignore_index=True)
    message = error_of(data)
    assert "column 'label': queries whose gains add up past 2^1023" in message
    assert "(1 query), e.g. in query_id big" in message and "fine" not in message
    qrels = data.drop(columns=["score"])
    message = error_of(data.drop(columns=["label"]), judgments=qrels)
    assert "queries in the judgments whose gains add up past 2^1023" in message and "query_id big" in message
    assert ndcg_sql.evaluate(data, gain="linear").summary_records()  # linear gains are small


def test_mapped_gains_past_the_limit_are_refused():
    data = _labelled([1, 1])
    message = error_of(data, gain={0: 0, 1: 1e308})
    assert "queries whose gains add up past 2^1023" in message and "query_id q" in message
    assert ndcg_sql.evaluate(data, gain={0: 0, 1: 4e307}, k=[None]).per_query_records()[0]["ndcg"] == 1.0
