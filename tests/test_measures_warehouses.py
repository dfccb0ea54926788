"""The named-measure SQL (to_sql(measures=..., dialect=...)), run by every real
engine of tests/engines.py, gives DuckDB's numbers (to 1e-12)."""

import math

import pandas as pd
import pytest

import ndcg_sql
from ndcg_sql import dialects, identifiers
from test_warehouses import TEXT_JUDGMENTS, TEXT_RUN, _table, engine  # noqa: F401 (engine is a fixture)

MEASURES = ["nDCG@3", "P@2", "P(rel=2)@3", "R@4", "AP", "AP@2", "RR", "Success@1"]


def test_measure_sql_runs_on_engine(engine):  # noqa: F811
    fold = dialects.get(engine.dialect).fold
    columns = [identifiers.folded(name, fold) for name in ("query_id", "item_id", "score", "label")]
    run_name, run_table = _table(engine, "measure_runs", False)
    judgments_name, judgments_table = _table(engine, "measure_qrels", False)
    engine.load(run_table, columns[:3], [row[:3] for row in TEXT_RUN])
    engine.load(judgments_table, [columns[0], columns[1], columns[3]], TEXT_JUDGMENTS)
    options = dict(measures=MEASURES, ties="item-desc", gain="linear", missing_queries="zero")
    sql = ndcg_sql.to_sql(run_name, judgments_table=judgments_name, dialect=engine.dialect, item_type="text", **options)
    connection = engine.connection()
    if hasattr(connection, "cursor"):  # DB-API
        cursor = connection.cursor()
        cursor.execute(sql)
        rows = cursor.fetchall()
    else:  # a SparkSession
        rows = [tuple(row) for row in connection.sql(sql).collect()]
    got = {(row[0], row[1]): row[2] for row in rows}

    run = pd.DataFrame([row[:3] for row in TEXT_RUN], columns=["query_id", "item_id", "score"])
    qrels = pd.DataFrame(TEXT_JUDGMENTS, columns=["query_id", "item_id", "label"])
    want = {(r["query_id"], r["measure"]): r["value"]
            for r in ndcg_sql.evaluate(run, judgments=qrels, **options).per_query_records()}
    assert set(got) == set(want)
    for key, value in want.items():
        assert math.isclose(float(got[key]), value, rel_tol=1e-12, abs_tol=1e-12), (key, got[key], value)
