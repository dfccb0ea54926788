"""The SQL a reader meets (issue 36, item 1): to_sql's statements open with a header naming the
version, the engine, what a row is, the options and what is not checked; only the positions the
cutoffs need; the discounts as named constants; and the input checks as a statement of their own,
which flags on every engine what evaluate refuses."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest
import sqlglot

import ndcg_sql
from ndcg_sql.vocabulary import dialects, identifiers
from ndcg_sql.vocabulary.parameters import VERSION
import reference
from engines import shared
from test_warehouses import _table

#: a ranking with one NULL score, one negative label and a (query, item) pair given twice
BAD_RUN = [("q1", "a", 0.9, 1), ("q1", "a", 0.5, 2), ("q1", "b", None, 1), ("q2", "c", 0.3, -1), ("q2", "d", 0.2, 0)]
#: what each check of that ranking should count, by hand: (column, problem) -> failing rows
BAD_COUNTS = {("score", "NULL scores"): 1, ("label", "negative labels"): 1,
              ("query_id, item_id", "duplicate (query, item) rows in the ranking"): 2}


def _header(sql: str) -> list[str]:
    lines = sql.splitlines()
    return lines[:next(i for i, line in enumerate(lines) if not line.startswith("--"))]


def test_the_header_names_version_engine_options_and_what_is_not_checked():
    sql = ndcg_sql.to_sql("my-project.search.ranking_log", dialect="bigquery", k=[10], gain="linear")
    header = " ".join(line.removeprefix("-- ") for line in _header(sql))
    assert header.startswith(f"ndcg_sql {VERSION}, bigquery: one row per (query, cutoff k): CG, DCG, IDCG and NDCG")
    for shown in ("k=[10]", "gain='linear'", "ties='average'", "discount='1/log2(rank + 1)'", "no_relevant='zero'"):
        assert shown in header, shown
    assert "Input checks: none in this statement" in header and "what='checks'" in header
    summary = " ".join(line.removeprefix("-- ") for line in _header(
        ndcg_sql.to_sql("runs", what="summary", k=[5, None], segments="arm")))
    assert "one row per (segment values, cutoff k): the mean over the queries, its standard error and 95% interval" \
        in summary and "k=[5, 'all']" in summary


def test_a_name_with_a_line_break_stays_inside_the_header():
    """Every header line is a comment: a column name holding a line break and '--' is written by
    repr, so nothing of it becomes SQL; the statement is the same with and without the header."""
    sql = ndcg_sql.to_sql("runs", score_col="sc\nore; DROP TABLE runs --", k=[3])
    header = _header(sql)
    assert all(line.startswith("-- ") for line in header)
    body = "\n".join(sql.splitlines()[len(header):])
    assert len(sqlglot.parse(sql, read="duckdb")) == 1  # one statement: the name stays a quoted name
    assert sqlglot.parse_one(sql, read="duckdb") == sqlglot.parse_one(body, read="duckdb")


def test_only_the_positions_the_cutoffs_need_and_named_discounts():
    """Numeric cutoffs only: no position past the largest (k=10: gain_at_10, no gain_at_11); with
    the whole list the head keeps its 20 positions. Discounts are the one-row CTE discounts."""
    only_ten = ndcg_sql.to_sql("runs", k=[10], gain="linear")
    assert "gain_at_10" in only_ten and "gain_at_11" not in only_ten
    assert "discount_10" in only_ten and "discount_11" not in only_ten
    assert "discounts AS" in only_ten and "* discount_7" in only_ten and "+ 1.0" not in only_ten
    with_whole = ndcg_sql.to_sql("runs", k=[10, None], gain="linear")
    assert "gain_at_20" in with_whole


def _dl19_table(con):
    con.execute("""CREATE TABLE runs AS
        SELECT r.column0 AS query_id, r.column2 AS item_id, CAST(r.column4 AS DOUBLE) AS score,
               CAST(COALESCE(q.column3, 0) AS DOUBLE) AS label
        FROM read_csv('examples/trec_dl19_passage/run.dl19.bm25.top100.txt', delim=' ', header=false) AS r
        LEFT JOIN read_csv('examples/trec_dl19_passage/qrels.dl19-passage.txt', delim=' ', header=false) AS q
          ON r.column0 = q.column0 AND r.column2 = q.column2""")
    return con.execute("SELECT query_id, item_id, score, label FROM runs").fetchall()


@pytest.mark.parametrize("options", [dict(gain="linear"), dict(discount="jarvelin", log_base=3.0),
                                     dict(ties="item-desc")])
def test_fewer_positions_leave_every_bit_and_numpy_agrees(options):
    """The statement for k=10 alone (10 head positions) and for k=10 with k=20 (20) give the same
    per-query values at k=10 to the bit, and numpy's reference to 1e-12 (DL19 BM25, 43 queries)."""
    con = duckdb.connect()
    rows = _dl19_table(con)
    alone = {row[0]: row[2:] for row in con.execute(ndcg_sql.to_sql("runs", k=[10], **options)).fetchall()}
    more = {row[0]: row[2:] for row in con.execute(ndcg_sql.to_sql("runs", k=[10, 20], **options)).fetchall()
            if row[1] == 10}
    assert alone == more and len(alone) == 43
    want, _ = reference.evaluate(rows, [10], gain=options.get("gain", "exponential"), ties=options.get("ties", "average"),
                                 discount_kind=options.get("discount", "log"), log_base=options.get("log_base", 2.0))
    for qid, (cg, dcg, idcg, ndcg) in alone.items():
        assert [cg, dcg, idcg, ndcg] == pytest.approx(list(want[(qid, 10)]), rel=1e-12, abs=1e-12), qid


def _bad_frame():
    return pd.DataFrame(BAD_RUN, columns=["query_id", "item_id", "score", "label"])


def _failing(rows) -> dict:
    return {(column, problem): failing for _, column, problem, failing in rows if failing}


def test_the_checks_statement_flags_what_evaluate_refuses():
    con = duckdb.connect()
    con.register("bad", _bad_frame())
    con.execute("CREATE TABLE runs AS SELECT * FROM bad")
    sql = ndcg_sql.to_sql("runs", what="checks")
    assert "one row per input check" in " ".join(_header(sql))
    rows = con.execute(sql).fetchall()
    assert _failing(rows) == BAD_COUNTS
    assert ("ranking", None, "no rows", 0) in rows
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(_bad_frame())
    for (column, problem), count in BAD_COUNTS.items():
        assert f"column '{column}': {problem}" in str(error.value)
    con.execute("DELETE FROM runs")
    assert ("ranking", None, "no rows", 1) in con.execute(sql).fetchall()


@pytest.fixture(params=["postgres", "redshift", "spark", "bigquery", "snowflake"])
def engine(request):
    return shared(request.param)


def _rows(engine, sql):
    con = engine.connection()
    if hasattr(con, "sparkContext"):
        return [tuple(row) for row in con.sql(sql).collect()]
    cursor = con.cursor()
    cursor.execute(sql)
    return [tuple(row) for row in cursor.fetchall()]


def test_the_checks_statement_runs_on_every_engine(engine):
    """The same rows on every engine as the hand count (BAD_COUNTS), every other check 0."""
    fold = dialects.get(engine.dialect).fold
    name, table = _table(engine, "checks_statement", False)
    engine.load(table, [identifiers.folded(c, fold) for c in ("query_id", "item_id", "score", "label")], BAD_RUN)
    rows = _rows(engine, ndcg_sql.to_sql(name, dialect=engine.dialect, what="checks"))
    failing = {(str(c), str(p)): int(f) for _, c, p, f in rows if f is not None and int(f)}
    assert failing == BAD_COUNTS  # the columns as the user named them
    assert len(rows) >= 10
