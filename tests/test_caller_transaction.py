"""The caller's transaction survives a failure of ours (issue 35): on Postgres our statements run
inside a savepoint of their own; where the engine has none (Redshift, DuckDB) a call inside an
open transaction is refused before anything runs. Each case writes the caller's rows before and
after the call and checks, from another connection, that both were committed."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

import ndcg_sql
from ndcg_sql.vocabulary import dialects, identifiers
from ndcg_sql.running.executors import transaction_state
from engines import shared
from test_warehouses import _table

#: a word in a text label column: the metric's statement fails on Postgres (a cast), which aborts
#: the transaction it runs in
BAD_ROWS = [("q1", "a", "1.5", "1"), ("q1", "b", "0.5", "high"), ("q2", "a", "2", "0")]
GOOD_ROWS = [("q1", "a", "1.5", "1"), ("q1", "b", "0.5", "2"), ("q2", "a", "2", "0"), ("q2", "b", "1", "1")]


@pytest.fixture(params=["postgres", "redshift"])
def engine(request):
    return shared(request.param)


def _load(engine, base, columns, rows):
    fold = dialects.get(engine.dialect).fold
    name, table = _table(engine, base, False)
    engine.load(table, [identifiers.folded(c, fold) for c in columns], rows)
    return name


def _caller_table(engine, base):
    """A table of the caller's own (one integer column), created and committed."""
    name = _load(engine, base, ["n"], [(0,)])
    with engine.con.cursor() as cursor:
        cursor.execute(f"DELETE FROM {name}")
    return name


def _insert(connection, table, n):
    cursor = connection.cursor()
    cursor.execute(f"INSERT INTO {table} VALUES ({int(n)})")
    cursor.close()


def _committed(engine, table):
    with engine.con.cursor() as cursor:  # another connection (autocommit): only committed rows
        cursor.execute(f"SELECT n FROM {table} ORDER BY n")
        return [row[0] for row in cursor.fetchall()]


def _linear_ndcg_at_2():
    """NDCG@2 of GOOD_ROWS with linear gain, by hand: q1 ranks a (1) then b (2), ideal b, a:
    (1 + 2/log2 3) / (2 + 1/log2 3); q2 ranks a (0) then b (1), ideal b, a: (1/log2 3) / 1."""
    import math

    d2 = 1 / math.log2(3)
    return ((1 + 2 * d2) / (2 + d2) + d2) / 2


def test_a_failure_keeps_the_callers_uncommitted_work(engine):
    """The caller inserts a row, our call fails (a word in the label column: a failed statement),
    the caller inserts another and commits: both rows are there. Before: the first row was gone
    (the failure's rollback discarded it). On Redshift, which has no savepoint, the call is
    refused before it runs anything, and the caller's transaction goes on just the same."""
    bad = _load(engine, "caller_bad_labels", ["query_id", "item_id", "score", "label"], BAD_ROWS)
    good = _load(engine, "caller_good_labels", ["query_id", "item_id", "score", "label"], GOOD_ROWS)
    mine = _caller_table(engine, f"caller_rows_{engine.dialect}")
    connection = engine.transaction()
    try:
        _insert(connection, mine, 1)
        if dialects.get(engine.dialect).savepoints:
            with pytest.raises(ndcg_sql.InputError, match="non-numeric labels"):
                ndcg_sql.evaluate(bad, con=connection, dialect=engine.dialect, gain="linear")
            # a successful call inside the same transaction, which goes on after it
            got = ndcg_sql.evaluate(good, con=connection, dialect=engine.dialect, gain="linear", k=[2])
            assert got.summary_records()[0]["ndcg"] == pytest.approx(_linear_ndcg_at_2(), rel=1e-12)
            assert transaction_state(connection) == "open"
        else:
            for table in (bad, good):
                with pytest.raises(ndcg_sql.OpenTransaction, match="open transaction.*nothing was run"):
                    ndcg_sql.evaluate(table, con=connection, dialect=engine.dialect, gain="linear")
        _insert(connection, mine, 2)
        connection.commit()
        assert _committed(engine, mine) == [1, 2]
    finally:
        connection.close()


def test_a_call_outside_a_transaction_leaves_none_open(engine):
    """With no transaction open (autocommit off), the one the driver begins for our statements is
    ours: rolled back after a failure and ended after a success, so the connection is idle again
    (no snapshot or lock of ours held), and it takes the caller's statements."""
    bad = _load(engine, "idle_bad_labels", ["query_id", "item_id", "score", "label"], BAD_ROWS)
    good = _load(engine, "idle_good_labels", ["query_id", "item_id", "score", "label"], GOOD_ROWS)
    mine = _caller_table(engine, f"idle_rows_{engine.dialect}")
    connection = engine.transaction()
    try:
        assert transaction_state(connection) == "idle"
        with pytest.raises(ndcg_sql.InputError, match="non-numeric labels"):
            ndcg_sql.evaluate(bad, con=connection, dialect=engine.dialect, gain="linear")
        assert transaction_state(connection) == "idle"
        got = ndcg_sql.evaluate(good, con=connection, dialect=engine.dialect, gain="linear", k=[2])
        assert got.summary_records()[0]["ndcg"] == pytest.approx(_linear_ndcg_at_2(), rel=1e-12)
        assert transaction_state(connection) == "idle"
        _insert(connection, mine, 3)
        connection.commit()
        assert _committed(engine, mine) == [3]
    finally:
        connection.close()


def test_an_aborted_transaction_is_named_not_blamed_on_the_input(engine):
    """A transaction the caller's own failed statement aborted: refused with what to do, not an
    engine error read as bad input (redshift_connector tells only that a transaction is open:
    refused as open)."""
    good = _load(engine, "aborted_good_labels", ["query_id", "item_id", "score", "label"], GOOD_ROWS)
    connection = engine.transaction()
    try:
        cursor = connection.cursor()
        with pytest.raises(Exception):
            cursor.execute("SELECT CAST('x' AS INTEGER)")
        told = "aborted.*roll it back" if engine.dialect == "postgres" else "open transaction.*roll back first"
        with pytest.raises(ndcg_sql.OpenTransaction, match=told):
            ndcg_sql.evaluate(good, con=connection, dialect=engine.dialect, gain="linear")
        connection.rollback()
        got = ndcg_sql.evaluate(good, con=connection, dialect=engine.dialect, gain="linear", k=[2])
        assert got.summary_records()[0]["ndcg"] == pytest.approx(_linear_ndcg_at_2(), rel=1e-12)
    finally:
        connection.close()


# ---------------------------------------------------------------- DuckDB (no savepoints)

def _good_frame():
    return pd.DataFrame([(q, i, float(s), int(lab)) for q, i, s, lab in GOOD_ROWS],
                        columns=["query_id", "item_id", "score", "label"])


def test_duckdb_has_no_savepoint_and_a_failure_aborts_its_transaction():
    """The facts the refusal rests on, on the installed DuckDB: SAVEPOINT is a syntax error, a
    failed statement aborts the open transaction, and its COMMIT then keeps nothing."""
    con = duckdb.connect()
    con.execute("CREATE TABLE mine (n INTEGER)")
    con.execute("BEGIN")
    con.execute("INSERT INTO mine VALUES (1)")
    with pytest.raises(duckdb.ParserException):
        con.execute("SAVEPOINT ours")
    with pytest.raises(duckdb.TransactionException):
        con.execute("INSERT INTO mine VALUES (2)")
    con.execute("COMMIT")
    assert con.execute("SELECT count(*) FROM mine").fetchone() == (0,)
    assert dialects.get("duckdb").aborts_transaction and not dialects.get("duckdb").savepoints


def test_duckdb_call_inside_the_callers_transaction_is_refused_and_it_goes_on():
    """A caller's DuckDB connection inside BEGIN: evaluate refuses before running anything (DuckDB
    has no savepoint), the caller's rows before and after are committed; outside a transaction the
    same call runs, and it leaves no transaction open."""
    con = duckdb.connect()
    con.execute("CREATE TABLE mine (n INTEGER)")
    assert transaction_state(con) == "idle"
    con.execute("BEGIN")
    con.execute("INSERT INTO mine VALUES (1)")
    assert transaction_state(con) == "open"
    with pytest.raises(ndcg_sql.OpenTransaction, match="duckdb has no savepoint"):
        ndcg_sql.evaluate(_good_frame(), con=con, gain="linear", k=[2])
    with pytest.raises(ndcg_sql.OpenTransaction):
        ndcg_sql.compare(_good_frame(), _good_frame(), con=con, gain="linear")
    con.execute("INSERT INTO mine VALUES (2)")
    con.execute("COMMIT")
    assert con.execute("SELECT n FROM mine ORDER BY n").fetchall() == [(1,), (2,)]
    with ndcg_sql.evaluate(_good_frame(), con=con, gain="linear", k=[2]) as result:
        assert result.summary_records()[0]["ndcg"] == pytest.approx(_linear_ndcg_at_2(), rel=1e-12)
    assert transaction_state(con) == "idle"


def test_duckdb_aborted_transaction_is_named():
    con = duckdb.connect()
    con.execute("BEGIN")
    with pytest.raises(duckdb.ConversionException):
        con.execute("SELECT CAST('x' AS INTEGER)")
    assert transaction_state(con) == "aborted"
    with pytest.raises(ndcg_sql.OpenTransaction, match="aborted.*roll it back"):
        ndcg_sql.evaluate(_good_frame(), con=con, k=[2])
    con.execute("ROLLBACK")
    with ndcg_sql.evaluate(_good_frame(), con=con, gain="linear", k=[2]) as result:
        assert result.summary_records()[0]["ndcg"] == pytest.approx(_linear_ndcg_at_2(), rel=1e-12)
