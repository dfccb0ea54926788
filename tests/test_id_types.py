"""Ids keep one meaning whatever type and container they arrive in (ndcg_sql/building/id_types.py).

The same logical data fed as integers, text, categories, Arrow dictionaries, Parquet, CSV,
JSON lines and TREC files gives the same per-query values; ids of different types on the
two sides are compared as text in the form a TREC file holds them (as trec_eval does), so
``07`` is not ``7`` and ``q1`` is not ``1``; a category order never breaks a tie.
Expected values are worked by hand or by the numpy reference (tests/reference.py).
"""

from __future__ import annotations

import json
import math

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_sql
from ndcg_sql import InputError

# items 0..9: numeric order and byte order of their text agree, so the tie-breaks agree too
ROWS = st.lists(
    st.tuples(st.integers(1, 12), st.integers(0, 9), st.integers(0, 4), st.integers(0, 3)),
    min_size=1, max_size=30, unique_by=lambda row: (row[0], row[1]),
)


def _run(rows):
    return pd.DataFrame({"query_id": [r[0] for r in rows], "item_id": [r[1] for r in rows],
                         "score": [float(r[2]) for r in rows]})


def _qrels(rows):
    return pd.DataFrame({"query_id": [r[0] for r in rows], "item_id": [r[1] for r in rows],
                         "label": [r[3] for r in rows]})


def _as_text(frame):
    return frame.assign(query_id=frame["query_id"].astype(str), item_id=frame["item_id"].astype(str))


def _categorical(frame):
    text = _as_text(frame)
    # categories in reverse order: a tie-break by category order would differ from byte order
    return text.assign(item_id=pd.Categorical(text["item_id"], categories=sorted(set(text["item_id"]), reverse=True)),
                       query_id=pd.Categorical(text["query_id"]))


def _dictionary(frame):
    table = pa.Table.from_pandas(_as_text(frame), preserve_index=False)
    for name in ("query_id", "item_id"):
        table = table.set_column(table.column_names.index(name), name, table.column(name).dictionary_encode())
    return table


def _values(result):
    return {(str(r["query_id"]), r["k"]): (r["dcg"], r["idcg"], r["ndcg"]) for r in result.per_query_records()}


def _files(tmp, rows):
    run, qrels = _run(rows), _qrels(rows)
    paths = {}
    run.to_csv(tmp / "run.csv", index=False)
    _as_text(qrels).to_csv(tmp / "qrels.csv", index=False)
    pq.write_table(_dictionary(run), tmp / "run.parquet")
    with open(tmp / "run.jsonl", "w") as out:  # one id as a number, one as a string, one as 1.0
        for i, row in enumerate(run.itertuples(index=False)):
            query = [row.query_id, str(row.query_id), float(row.query_id)][i % 3]
            out.write(json.dumps({"query_id": query, "item_id": row.item_id, "score": row.score}) + "\n")
    with open(tmp / "run.txt", "w") as out:
        for row in run.itertuples(index=False):
            out.write(f"{row.query_id} Q0 {row.item_id} 0 {row.score} tag\n")
    with open(tmp / "qrels.txt", "w") as out:
        for row in qrels.itertuples(index=False):
            out.write(f"{row.query_id} 0 {row.item_id} {row.label}\n")
    return {name: str(tmp / name) for name in ("run.csv", "qrels.csv", "run.parquet", "run.jsonl", "run.txt", "qrels.txt")}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rows=ROWS, ties=st.sampled_from(["average", "item-asc", "item-desc"]))
@pytest.mark.slow
def test_one_logical_input_in_every_physical_type_gives_the_same_values(tmp_path_factory, rows, ties):
    tmp = tmp_path_factory.mktemp("ids")
    files = _files(tmp, rows)
    run, qrels = _run(rows), _qrels(rows)
    options = dict(k=[1, 3, None], ties=ties, gain="linear")
    want = _values(ndcg_sql.evaluate(_as_text(run), judgments=_as_text(qrels), **options))
    variants = {
        "int / int": (run, qrels),
        "int / text": (run, _as_text(qrels)),
        "text / int": (_as_text(run), qrels),
        "float / text": (run.assign(query_id=run["query_id"].astype(float)), _as_text(qrels)),
        "categorical / int": (_categorical(run), qrels),
        "arrow dictionary / text": (_dictionary(run), _as_text(qrels)),
        "polars categorical / int": (pl.from_pandas(_as_text(run)).with_columns(pl.col("item_id").cast(pl.Categorical)),
                                     qrels),
        "parquet dictionary / csv": (files["run.parquet"], files["qrels.csv"]),
        "csv / trec qrels": (files["run.csv"], files["qrels.txt"]),
        "json lines 1, '1', 1.0 / trec qrels": (files["run.jsonl"], files["qrels.txt"]),
        "trec run / int": (files["run.txt"], qrels),
    }
    for name, (ranking, judgments) in variants.items():
        got = _values(ndcg_sql.evaluate(ranking, judgments=judgments, **options))
        assert got == want, name


def test_leading_zeros_and_prefixes_are_other_ids_when_types_differ():
    """Run query ids are integers, the judgments' text: compared as text, as trec_eval compares
    them, '07' is not 7 and 'q1' is not 1 (before: merged, or a raw ConversionException)."""
    run = pd.DataFrame({"query_id": [7, 7, 1, 1], "item_id": ["a", "b", "a", "b"], "score": [2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["07", "07", "1", "1", "q1"], "item_id": ["a", "b", "a", "b", "a"],
                          "label": [1, 0, 0, 1, 1]})
    result = ndcg_sql.evaluate(run, judgments=qrels, k=[10])
    # only query 1 is judged: its relevant item b at rank 2, so NDCG = 1/log2(3)
    assert [(r["query_id"], r["ndcg"]) for r in result.per_query_records()] == [("1", pytest.approx(1 / math.log2(3)))]
    assert result.coverage == {"evaluated": 1, "unjudged_ignored": 1, "missing_from_run": 2}


def test_json_ids_of_mixed_types_are_one_id(tmp_path):
    """1, "1" and 1.0 in one JSON column are the one query 1 (before: three queries)."""
    path = tmp_path / "run.jsonl"
    path.write_text('{"q": 1, "i": "a", "s": 1, "l": 1}\n{"q": "1", "i": "b", "s": 3, "l": 0}\n'
                    '{"q": 1.0, "i": "c", "s": 2, "l": 2}\n')
    rows = ndcg_sql.evaluate(str(path), query_col="q", item_col="i", score_col="s", label_col="l", k=[None],
                             gain="linear").per_query_records()
    # ranking b (0), c (2), a (1); ideal 2, 1: DCG = 2/log2(3) + 1/2, IDCG = 2 + 1/log2(3)
    assert [r["q"] for r in rows] == ["1"]
    assert rows[0]["ndcg"] == pytest.approx((2 / math.log2(3) + 0.5) / (2 + 1 / math.log2(3)))


@pytest.mark.parametrize("container", ["pandas", "arrow"])
def test_category_order_never_breaks_a_tie(container):
    """Items b and a tie; item-asc takes 'a' (byte order) first, though the categories put b first."""
    frame = pd.DataFrame({"query_id": ["q", "q"], "item_id": pd.Categorical(["b", "a"], categories=["b", "a"]),
                          "score": [1.0, 1.0], "label": [1, 0]})
    data = frame if container == "pandas" else pa.Table.from_pandas(frame, preserve_index=False)
    rows = ndcg_sql.evaluate(data, ties="item-asc", k=[1], gain="linear").per_query_records()
    assert rows[0]["ndcg"] == 0.0  # 'a' (label 0) at rank 1
    rows = ndcg_sql.evaluate(data, ties="item-desc", k=[1], gain="linear").per_query_records()
    assert rows[0]["ndcg"] == 1.0


def test_ids_without_a_text_form_are_refused():
    run = pd.DataFrame({"query_id": [[1], [2]], "item_id": ["a", "b"], "score": [1.0, 2.0]})
    qrels = pd.DataFrame({"query_id": ["1"], "item_id": ["a"], "label": [1]})
    with pytest.raises(InputError) as error:
        ndcg_sql.evaluate(run, judgments=qrels)
    assert str(error.value).startswith("query ids must be numbers or text: the ranking's 'query_id' is INTEGER[] "
                                       "and the judgments' 'query_id' is VARCHAR")


def test_compare_pairs_queries_of_runs_with_different_id_types():
    """Run A's query ids are integers, run B's text ('q1' among them): the per-query values are
    paired as text in TREC form (before: a raw ConversionException from the join)."""
    a = pd.DataFrame({"query_id": [1, 1, 2, 2], "item_id": ["x", "y", "x", "y"], "score": [2.0, 1.0, 2.0, 1.0],
                      "label": [1, 0, 0, 1]})
    b = pd.DataFrame({"query_id": ["1", "1", "q1", "q1"], "item_id": ["x", "y", "x", "y"],
                      "score": [1.0, 2.0, 2.0, 1.0], "label": [1, 0, 1, 0]})
    result = ndcg_sql.compare(a, b, ["nDCG@1"])
    # query 1: A ranks x (label 1) first, NDCG@1 = 1; B ranks y (label 0) first, 0
    assert [(r["query_id"], r["a"], r["b"]) for r in result.per_query_records()] == [("1", 1.0, 0.0)]
    row = result.summary_records()[0]
    assert row["queries"] == 1 and row["only_a"] == 1 and row["only_b"] == 1


def test_warehouse_type_codes_map_to_the_kinds_of_the_rule():
    """Each engine's driver type codes (ndcg_sql/vocabulary/dialects.py, id_types) give the kinds of the rule;
    a fixed-point number is whole at scale 0; a code not listed (JSON here) is not known (as stored)."""
    from ndcg_sql.building import id_types
    from ndcg_sql.vocabulary import dialects
    from ndcg_sql.building.id_types import ColumnType

    postgres, snowflake, spark = (dialects.get(name) for name in ("postgres", "snowflake", "spark"))
    assert [id_types.warehouse_kind(postgres, ColumnType(code)) for code in (23, 1043, 701, 1082, 1007, 114)] == [
        "integer", "text", "fraction", "text_like", "other", None]
    assert [id_types.warehouse_kind(postgres, ColumnType(1700, scale)) for scale in (0, 2, None)] == [
        "integer", "fraction", "fraction"]
    assert [id_types.warehouse_kind(snowflake, ColumnType(0, scale)) for scale in (0, 3)] == ["integer", "fraction"]
    assert [id_types.warehouse_kind(dialects.get("duckdb"), ColumnType(name)) for name in
            ("DECIMAL(18,0)", "DECIMAL(18,3)", "BIGINT", "INTEGER[]", "ENUM('b', 'a')", "TIMESTAMP_NS")] == [
        "integer", "fraction", "integer", None, "enum", "text_like"]
    assert id_types.warehouse_kind(spark, ColumnType("array", None, "array<bigint>")) == "other"
    assert str(ColumnType("array", None, "array<bigint>")) == "array<bigint>"


def test_duckdb_type_names_have_one_kind_on_both_paths():
    """kind() (the DuckDB path) and the DuckDB row of the warehouse type codes (a DuckDB
    connection given as a warehouse) read every DuckDB type name alike (one table, DUCKDB_KINDS)."""
    from ndcg_sql.building import id_types
    from ndcg_sql.vocabulary import dialects
    from ndcg_sql.building.id_types import ColumnType

    duck = dialects.get("duckdb")
    names = [name for _, listed in dialects.DUCKDB_KINDS for name in listed]
    assert len(names) > 20
    for name in names:
        assert id_types.warehouse_kind(duck, ColumnType(name)) == id_types.kind(name), name


def test_enum_item_ids_on_a_duckdb_warehouse_tie_break_in_byte_order():
    """ENUM item ids whose category order puts 'b' first, read through a DuckDB connection given
    as a warehouse, with text judgments: 'a' is first in an item-asc tie (byte order), as on the
    DuckDB path (test_category_order_never_breaks_a_tie)."""
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE TYPE letters AS ENUM ('b', 'a')")
    con.execute("CREATE TABLE run AS SELECT 'q' AS query_id, item_id::letters AS item_id, 1.0 AS score "
                "FROM (VALUES ('b'), ('a')) AS v(item_id)")
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES ('q', 'a', 0), ('q', 'b', 1)) AS v(query_id, item_id, label)")
    for ties, expected in (("item-asc", 0.0), ("item-desc", 1.0)):
        got = ndcg_sql.evaluate("run", judgments="qrels", con=con, dialect="duckdb", k=[1], ties=ties,
                                gain="linear", per_query=True)
        assert [r["ndcg"] for r in got.per_query_records()] == [expected], ties


def test_a_warehouse_compares_ids_of_different_types_as_duckdb_does():
    """The warehouse runner (here DuckDB behind a DB-API connection, dialect "duckdb") reads the id
    columns' types from a statement that reads no row and gives the values of the DuckDB runner:
    '07' is not 7 and 'q1' is not 1."""
    import duckdb
    from benchmarks.counting import CountedConnection

    run = pd.DataFrame({"query_id": [7, 7, 1, 1], "item_id": ["a", "b", "a", "b"], "score": [2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["07", "07", "1", "1", "q1"], "item_id": ["a", "b", "a", "b", "a"],
                          "label": [1, 0, 0, 1, 1]})
    con = duckdb.connect()
    con.register("run_frame", run)
    con.register("qrels_frame", qrels)
    con.execute("CREATE TABLE run AS SELECT * FROM run_frame")
    con.execute("CREATE TABLE qrels AS SELECT * FROM qrels_frame")
    counted = CountedConnection(con, "duckdb", ["run", "qrels"])
    got = ndcg_sql.evaluate("run", judgments="qrels", con=counted, dialect="duckdb", k=[10], per_query=True)
    assert [(r["query_id"], r["ndcg"]) for r in got.per_query_records()] == [("1", pytest.approx(1 / math.log2(3)))]
    assert got.coverage == {"evaluated": 1, "unjudged_ignored": 1, "missing_from_run": 2}
    assert counted.texts[0].endswith("WHERE 1 = 0")  # the probe: no row read


def _mixed_tables():
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE TABLE run AS SELECT * FROM (VALUES (7, 'a', 2.0), (7, 'b', 1.0), (1, 'a', 2.0), (1, 'b', 1.0))"
                " AS v(query_id, item_id, score)")
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES ('07', 'a', 1), ('07', 'b', 0), ('1', 'a', 0), "
                "('1', 'b', 1), ('q1', 'a', 1)) AS v(query_id, item_id, label)")
    return con


def _catalog_types(con, table: str) -> dict[str, str]:
    """A table's column types as its catalog writes them (what a user of to_sql reads, and dbt's adapter)."""
    return dict(con.execute("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ?",
                            [table]).fetchall())


def test_to_sql_with_the_catalogs_id_types_compares_ids_as_evaluate_does():
    """to_sql(id_types=...) applies the runner's rule (sql/options/id_forms.sql) to the types the
    user gives: INTEGER run query ids against text judgments are compared as text, so '07' is not
    7 and 'q1' is not 1 (worked by hand as in test_leading_zeros_and_prefixes_are_other_ids_when_types_differ);
    without id_types the ids are compared as stored, and DuckDB's implicit cast then fails on 'q1'."""
    con = _mixed_tables()
    run, qrels = _catalog_types(con, "run"), _catalog_types(con, "qrels")
    given = {"query": run["query_id"], "item": run["item_id"], "judgments_query": qrels["query_id"],
             "judgments_item": qrels["item_id"]}
    assert given == {"query": "INTEGER", "item": "VARCHAR", "judgments_query": "VARCHAR", "judgments_item": "VARCHAR"}
    rows = con.sql(ndcg_sql.to_sql("run", judgments_table="qrels", k=[10], id_types=given)).fetchall()
    assert [(query, ndcg) for query, _, _, _, _, ndcg in rows] == [("1", pytest.approx(1 / math.log2(3)))]
    # the command line's ROLE=TYPE texts are the same request
    assert ndcg_sql.to_sql("run", judgments_table="qrels", k=[10], id_types=[f"{r}={t}" for r, t in given.items()]) == \
        ndcg_sql.to_sql("run", judgments_table="qrels", k=[10], id_types=given)
    import duckdb

    with pytest.raises(duckdb.ConversionException, match="'q1'"):  # as stored: DuckDB's implicit cast
        con.sql(ndcg_sql.to_sql("run", judgments_table="qrels", k=[10])).fetchall()


def test_to_sql_id_types_are_checked():
    with pytest.raises(ndcg_sql.OptionError, match="roles query, item, judgments_query, judgments_item; got 'qid'"):
        ndcg_sql.to_sql("run", id_types={"qid": "INT64"})
    with pytest.raises(ndcg_sql.OptionError, match="must be a type name"):
        ndcg_sql.to_sql("run", id_types={"query": ""})
    with pytest.raises(ndcg_sql.OptionError, match="got \\['query'\\]"):
        ndcg_sql.to_sql("run", id_types=["query"])
    with pytest.raises(InputError, match="the ranking's 'query_id' is ARRAY<INT64> and the judgments' 'query_id' is STRING"):
        ndcg_sql.to_sql("run", judgments_table="qrels", dialect="bigquery",
                        id_types={"query": "ARRAY<INT64>", "judgments_query": "STRING"})


# DuckDB column types, each with a value: the catalog's names and dbt's spelling of them must give
# the kinds DuckDB's own type names give on the DuckDB path
DUCKDB_COLUMNS = {
    "i": ("INTEGER", "1"), "b": ("BIGINT", "1"), "h": ("HUGEINT", "1"), "v": ("VARCHAR", "'x'"),
    "d": ("DOUBLE", "1.5"), "n0": ("DECIMAL(18,0)", "1"), "n3": ("DECIMAL(10,3)", "1.5"), "t": ("DATE", "DATE '2020-01-01'"),
    "u": ("UUID", "uuid()"), "bo": ("BOOLEAN", "true"), "j": ("JSON", "'1'::JSON"), "l": ("INTEGER[]", "[1]"),
    "s": ("STRUCT(a INTEGER)", "{'a': 1}"), "bl": ("BLOB", "'x'::BLOB"), "ts": ("TIMESTAMP WITH TIME ZONE", "now()"),
}


def test_catalog_type_names_give_the_kinds_of_the_duckdb_path():
    """One rule, three readings of a DuckDB column's type: DESCRIBE's type name (the DuckDB path,
    kind()), information_schema's data_type (to_sql's id_types=) and dbt's Column.data_type
    (the dbt macros, e.g. VARCHAR as 'character varying(256)') give one kind."""
    import duckdb
    from dbt.adapters.base.column import Column

    from ndcg_sql.building import id_types

    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT " + ", ".join(f"CAST({value} AS {kind}) AS {name}"
                                                      for name, (kind, value) in DUCKDB_COLUMNS.items()))
    described = {row[0]: row[1] for row in con.execute("DESCRIBE t").fetchall()}
    catalog = {row[0]: row[1:] for row in con.execute(
        "SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale "
        "FROM information_schema.columns WHERE table_name = 't'").fetchall()}
    rule = id_types._rule("duckdb")
    kinds = {}
    for name in DUCKDB_COLUMNS:
        dtype, size, precision, scale = catalog[name]
        dbt_type = Column(name, dtype, size, precision, scale).data_type
        kinds[name] = {id_types.kind(described[name]), rule._id_kind(dtype), rule._id_kind(dbt_type)}
    assert kinds == {"i": {"integer"}, "b": {"integer"}, "h": {"integer"}, "v": {"text"}, "d": {"fraction"},
                     "n0": {"fraction"}, "n3": {"fraction"}, "t": {"text_like"}, "u": {"text_like"},
                     "bo": {"text_like"}, "j": {"json"}, "l": {"other"}, "s": {"other"}, "bl": {"other"},
                     "ts": {"text_like"}}
