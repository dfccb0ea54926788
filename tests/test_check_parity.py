"""Python and dbt flag the same rows: one set of input checks (sql/input_checks.sql.j2).

Each case is a small table of bad input, with the options the metric is computed with, and the
query ids each check must flag, worked out by hand from the rows (None: no query id is known, a
NULL query id or weights all 0). ``ndcg_sql.evaluate`` refuses the input with an InputError whose
``failed`` names the checks; dbt's generic test ``ndcg_valid_input``, called with the same options
(through tests/dbt_standin.py for the engine's adapter), returns the rows it flags. Both must equal
the hand-worked expectation: on DuckDB the two side by side, on every warehouse engine of
tests/engines.py dbt's test on the engine's own SQL (an engine without a 4-byte float refuses
XGBoost's convention, as the metric macros do) (the Python side is the same statements
transpiled by sqlglot: tests/test_warehouses.py).
"""

from __future__ import annotations

import functools
import math

import duckdb
import pytest

import dbt_standin
import ndcg_sql
from conftest import ROOT
from ndcg_sql.vocabulary import dialects, identifiers
from test_warehouses import engine  # noqa: F401 (a fixture)

FILES = dbt_standin.package_files(ROOT / "dbt_macros")
NAN = math.nan
RUN = ("query_id", "item_id", "score", "label")

#: name: (columns of the ranking, its rows, judgments' rows or None, options of evaluate,
#: {(column, check[, "judgments"]): query ids flagged}). Options are named as evaluate names them; dbt's test
#: takes the same (segments as segment_cols).
CASES = {
    "rows": (RUN, [
        (None, "a", 1.0, 1.0),        # NULL query id
        ("q1", None, 1.0, 1.0),       # NULL item id
        ("q2", "a", None, 1.0),       # NULL score
        ("q3", "a", NAN, 1.0),        # NaN score
        ("q4", "a", 1.0, None),       # NULL label
        ("q5", "a", 1.0, -1.0),       # negative label
        ("q6", "a", 1.0, 2000.0),     # 2^2000 - 1 overflows
        ("q7", "a", 1.0, NAN),        # NaN label
        ("q8", "a", 1.0, 1.0), ("q8", "a", 0.5, 0.0),  # the pair twice
        ("q9", "b", 1.0, 1.0),
    ], None, {}, {
        ("query_id", "null_query"): {None},
        ("item_id", "null_item"): {"q1"},
        ("score", "null_order"): {"q2"},
        ("score", "nan_order"): {"q3"},
        ("label", "null_label"): {"q4"},
        ("label", "negative_label"): {"q5"},
        ("label", "label_above_exponential"): {"q6"},
        ("label", "nan_label"): {"q7"},
        ("query_id, item_id", "duplicate_pairs"): {"q8"},
    }),
    "gain-mapping": (RUN, [
        ("q1", "a", 1.0, 3.0),                         # not in the mapping
        ("q2", "a", 1.0, -1.0),                        # counted as 0 (negative_labels='zero'): mapped
        ("q3", "a", 2.0, 2.0), ("q3", "b", 1.0, 2.0),  # 2 x 1e308 overflows a double
        ("q4", "a", 1.0, 1.5),                         # not in the mapping
        ("q5", "a", 1.0, 1.0),
    ], None, {"gain": {0: 0.0, 1: 1.0, 2: 1e308}, "negative_labels": "zero"}, {
        ("label", "unmapped_label"): {"q1", "q4"},
        ("label", "gain_total_mapping"): {"q3"},
    }),
    "linear-negatives": (RUN, [
        ("q1", "a", 1.0, -2.0), ("q2", "a", 1.0, 1.0), ("q3", "a", 1.0, -0.5),
    ], None, {"gain": "linear"}, {("label", "negative_label"): {"q1", "q3"}}),
    "judgments": (("query_id", "item_id", "score"), [
        ("q1", "a", 1.0), ("q2", "a", 1.0), ("q3", "a", 1.0), ("q4", "a", 1.0), ("q4", "b", 2.0),
        ("q5", "a", 1.0), ("q5", "a", 2.0),  # the pair twice in the ranking
    ], [
        ("q1", "a", "high"),          # not a number
        ("q2", "a", "-1"),            # negative: not judged (negative_labels='unjudged')
        (None, "a", "1"),             # NULL query id
        ("q3", None, "1"),            # NULL item id
        ("q4", "a", "1"), ("q4", "a", "2"),  # the pair twice
    ], {"negative_labels": "unjudged", "gain": "linear"}, {
        ("label", "non_numeric_label", "judgments"): {"q1"},
        ("query_id", "null_query", "judgments"): {None},
        ("item_id", "null_item", "judgments"): {"q3"},
        ("query_id, item_id", "duplicate_pairs", "judgments"): {"q4"},
        ("query_id, item_id", "duplicate_pairs"): {"q5"},
    }),
    "weights": (RUN + ("w",), [
        ("q1", "a", 1.0, 1.0, None),                          # NULL weight
        ("q2", "a", 1.0, 1.0, -1.0),                          # negative weight
        ("q3", "a", 1.0, 1.0, NAN),                           # NaN weight
        ("q4", "a", 1.0, 1.0, 1.0), ("q4", "b", 0.5, 0.0, 2.0),  # two weights for one query
        ("q5", "a", 1.0, 1.0, 3.0),
    ], None, {"weight_col": "w"}, {
        ("w", "null_weight"): {"q1"},
        ("w", "negative_weight"): {"q2"},
        ("w", "nan_weight"): {"q3"},
        ("w", "uneven_weight"): {"q4"},
    }),
    "weights-all-zero": (RUN + ("w",), [("q1", "a", 1.0, 1.0, 0.0), ("q2", "a", 1.0, 0.0, 0.0)], None,
                         {"weight_col": "w"}, {("w", "zero_weights"): {None}}),
    "xgboost-binary": (RUN + ("r",), [
        ("q1", "a", 1.0, 2.0, 1.0),                            # XGBoost's map@k reads 0 and 1 only
        ("q2", "a", 1.0, 0.5, 1.0),
        ("q3", "a", 1.0, 1.0, None),                           # NULL row number (ties='input-order')
        ("q4", "a", 1.0, 1.0, 1.0), ("q4", "b", 0.5, 0.0, 2.0),
    ], None, {"convention": "xgboost", "measures": ["AP@5"], "row_col": "r"}, {
        ("label", "non_binary_label"): {"q1", "q2"},
        ("r", "null_row"): {"q3"},
    }),
    "lightgbm-whole": (RUN + ("r",), [
        ("q1", "a", 1.0, 1.5, 1.0),                            # LightGBM's ndcg reads whole labels only
        ("q2", "a", 1.0, 2.0, 1.0),
        ("q3", "a", 1.0, 0.25, 1.0), ("q3", "b", 0.5, 1.0, 2.0),
        ("q4", "a", 1.0, 3.0000000000000004, 1.0),            # float32, as the tools hold labels: 3
        ("q5", "a", 1.0, 3.0 + 2.0 ** -22, 1.0),               # float32 keeps it: not whole
    ], None, {"convention": "lightgbm", "measures": ["nDCG@5"], "row_col": "r"}, {
        ("label", "fractional_label"): {"q1", "q3", "q5"},
    }),
    "err-max-grade": (RUN, [
        ("q1", "a", 1.0, 3.0), ("q2", "a", 1.0, 2.0), ("q3", "a", 1.0, 7.0),
    ], None, {"measures": ["ERR@5"], "ties": "item-desc", "max_grade": 2}, {
        ("label", "label_above_max_grade"): {"q1", "q3"},
    }),
    "segments": (("arm",) + RUN, [
        ("A", "q1", "a", 1.0, 1.0), ("A", "q1", "a", 0.5, 0.0),  # the pair twice in arm A
        ("A", "q2", "a", 1.0, 1.0), ("B", "q2", "a", 1.0, 1.0),  # once in each arm: no duplicate
        ("B", "q3", "a", 1.0, None),
    ], None, {"segments": ["arm"]}, {
        ("query_id, item_id", "duplicate_pairs"): {"q1"},
        ("label", "null_label"): {"q3"},
    }),
}


def _dbt_arguments(options: dict) -> dict:
    arguments = dict(options)
    if "segments" in arguments:
        arguments["segment_cols"] = arguments.pop("segments")
    return arguments


def _flagged_by_python(con, case: str) -> tuple[dict, dict]:
    """({key: query ids}, {key: problem}) of evaluate's InputError, keyed as CASES are."""
    columns, rows, judged, options, _ = CASES[case]
    with pytest.raises(ndcg_sql.InputError) as caught:
        ndcg_sql.evaluate("ranking", judgments="judgments" if judged is not None else None, con=con, **options)
    failed = caught.value.failed
    assert failed, str(caught.value)
    keys = [(f["column"], f["check"]) + (("judgments",) if f["input"] == "judgments" else ()) for f in failed]
    return ({key: set(f["query_ids"]) or {None} for key, f in zip(keys, failed)},
            {key: f["problem"] for key, f in zip(keys, failed)})


@functools.lru_cache(maxsize=None)
def _macros(adapter: str):
    return dbt_standin.load(FILES, adapter=adapter)


def _flagged_by_dbt(run_sql, adapter: str, ranking: str, judgments: str | None, case: str) -> dict:
    """{(column, problem): query ids} of dbt's ndcg_valid_input rendered for ``adapter``."""
    options = CASES[case][3]
    macros = _macros(adapter)
    sql = macros.test_ndcg_valid_input(ranking, judgments=judgments, **_dbt_arguments(options))
    flagged: dict = {}
    for column, problem, query_id in run_sql(sql):
        flagged.setdefault((column, problem), set()).add(query_id)
    return flagged


def _duckdb_tables(case: str):
    columns, rows, judged, _, _ = CASES[case]
    con = duckdb.connect()
    con.execute(f"CREATE TABLE ranking ({', '.join(f'{c} {_type(rows, i)}' for i, c in enumerate(columns))})")
    con.executemany(f"INSERT INTO ranking VALUES ({', '.join('?' * len(columns))})", rows)
    if judged is not None:
        con.execute("CREATE TABLE judgments (query_id VARCHAR, item_id VARCHAR, label VARCHAR)")
        con.executemany("INSERT INTO judgments VALUES (?, ?, ?)", judged)
    return con


def _type(rows, index) -> str:
    return "DOUBLE" if any(isinstance(row[index], float) for row in rows) else "VARCHAR"


@pytest.mark.parametrize("case", sorted(CASES))
def test_python_and_dbt_flag_the_same_rows(case):
    """On DuckDB: evaluate's failed checks and dbt's failing rows are the hand-worked ones, each
    check worded the same."""
    expected = CASES[case][4]
    con = _duckdb_tables(case)
    flagged, problems = _flagged_by_python(con, case)
    assert flagged == expected
    dbt = _flagged_by_dbt(lambda sql: con.execute(sql).fetchall(), "duckdb", "ranking",
                          "judgments" if CASES[case][2] is not None else None, case)
    assert dbt == {(key[0], problems[key]): ids for key, ids in expected.items()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_dbt_flags_the_same_rows_on_engine(engine, case):  # noqa: F811
    """On each warehouse engine, dbt's ndcg_valid_input in the engine's SQL flags the rows
    evaluate flags (the problems as evaluate words them, on DuckDB)."""
    columns, rows, judged, options, expected = CASES[case]
    _, problems = _flagged_by_python(_duckdb_tables(case), case)
    # the loader of tests/engines.py writes a NaN as NULL: rows holding one are left out here
    nan_queries = {row[columns.index("query_id")] for row in rows
                   if any(isinstance(v, float) and math.isnan(v) for v in row)}
    rows = [row for row in rows if row[columns.index("query_id")] not in nan_queries]
    expected = {key: ids - nan_queries for key, ids in expected.items() if ids - nan_queries}
    target = dialects.get(engine.dialect)
    fold = target.fold
    names = {}
    for role, cols, data in (("ranking", columns, rows), ("judgments", ("query_id", "item_id", "label"), judged)):
        if data is None:
            continue
        table = identifiers.table([f"parity_{role}"], fold)
        engine.load(table, [identifiers.folded(c, fold) for c in cols], data)
        names[role] = table.sql(dialect=target.sqlglot)

    def run_sql(sql):
        connection = engine.connection()
        if hasattr(connection, "cursor"):
            cursor = connection.cursor()
            cursor.execute(sql)
            return cursor.fetchall()
        return [tuple(row) for row in connection.sql(sql).collect()]

    if options.get("convention") == "xgboost" and not target.float32:  # XGBoost rounds scores to float32
        with pytest.raises(dbt_standin.CompilerError, match="float32"):
            _flagged_by_dbt(run_sql, engine.dialect, names["ranking"], names.get("judgments"), case)
        return
    dbt = _flagged_by_dbt(run_sql, engine.dialect, names["ranking"], names.get("judgments"), case)
    assert dbt == {(key[0], problems[key]): ids for key, ids in expected.items()}
