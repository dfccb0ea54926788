"""User names become quoted identifiers per dialect; hostile names cannot change the statement."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest
import sqlglot
from sqlglot import exp

import ndcg_sql
from ndcg_sql import to_sql
from ndcg_sql.vocabulary import dialects, identifiers

HOSTILE = [
    'a"b', "a'b", "a`b", "x; DROP TABLE t; --", "c /* d */", "e -- f", "g\nh", "Ünï cødé", "``", '"";',
]


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_stay_identifiers(dialect, name):
    target = dialects.get(dialect)
    sql = to_sql(
        [name, name, name], query_col=name + "q", item_col=name + "i", score_col=name + "s",
        label_col=name + "l", judgments_table=None, dialect=dialect, ties="item-asc",
    )
    statements = [s for s in sqlglot.parse(sql, read=target.sqlglot) if s is not None]
    assert len(statements) == 1 and isinstance(statements[0], exp.Select)
    tree = statements[0]
    assert not list(tree.find_all(exp.Drop, exp.Command, exp.Insert, exp.Delete))
    found = {i.this for i in tree.find_all(exp.Identifier)}
    for suffix in ("q", "i", "s", "l"):
        assert identifiers.folded(name + suffix, target.fold) in found
    table = next(tree.find_all(exp.Table), None)
    tables = [t for t in tree.find_all(exp.Table) if t.name == name]
    assert tables and all(t.catalog == name and t.db == name for t in tables), table


def test_hostile_names_run_in_duckdb():
    """The DuckDB runner with hostile column names computes as with plain ones."""
    names = ['q"; DROP TABLE x; --', "i`/*", "s'", "L -- l"]
    data = pd.DataFrame([("a", "x", 1.0, 1), ("a", "y", 0.5, 0)], columns=names)
    result = ndcg_sql.evaluate(data, k=[1], query_col=names[0], item_col=names[1], score_col=names[2], label_col=names[3])
    assert result.summary_records()[0]["ndcg"] == 1.0
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT 1 AS x")
    con.register("hostile", data)
    sql = to_sql("hostile", query_col=names[0], item_col=names[1], score_col=names[2], label_col=names[3], k=[1])
    assert con.execute(sql).fetchall()[0][-1] == 1.0
    assert con.execute("SELECT * FROM t").fetchall() == [(1,)]


@pytest.mark.parametrize(
    "dialect, given, stored",
    [
        ("snowflake", "query_id", "QUERY_ID"),
        ("snowflake", "Mixed Case", "Mixed Case"),
        ("postgres", "QueryId", "queryid"),
        ("redshift", "QueryId", "queryid"),
        ("postgres", "with space", "with space"),
        ("bigquery", "QueryId", "QueryId"),
        ("spark", "QueryId", "QueryId"),
        ("duckdb", "QueryId", "QueryId"),
    ],
)
def test_case_rules(dialect, given, stored):
    sql = to_sql("t", query_col=given, dialect=dialect)
    tree = sqlglot.parse_one(sql, read=dialects.get(dialect).sqlglot)
    assert stored in {i.this for i in tree.find_all(exp.Identifier) if i.quoted}


@pytest.mark.parametrize(
    "dialect, name, expected",
    [
        ("bigquery", "my-project.analytics.ranking_log", "`my-project`.`analytics`.`ranking_log`"),
        ("snowflake", "analytics_db.public.ranking_log", '"ANALYTICS_DB"."PUBLIC"."RANKING_LOG"'),
        ("postgres", "Analytics.ranking_log", '"analytics"."ranking_log"'),
        ("spark", "main.default.ranking_log", "`main`.`default`.`ranking_log`"),
        ("redshift", ["dev", "public", "log.v2"], '"dev"."public"."log.v2"'),
    ],
)
def test_qualified_names(dialect, name, expected):
    assert f"FROM {expected}" in to_sql(name, dialect=dialect)


def test_too_many_parts_and_unknown_dialect():
    with pytest.raises(ndcg_sql.OptionError):
        to_sql("a.b.c.d", dialect="postgres")
    with pytest.raises(ndcg_sql.OptionError):
        to_sql("t", dialect="oracle")


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_cli_prints_the_dialects_sql(dialect, capsys):
    from ndcg_sql.cli import main

    assert main(["sql", "--table", "db.sch.runs", "--dialect", dialect, "--k", "10", "all", "--ties", "item-desc"]) == 0
    printed = capsys.readouterr().out
    assert printed == to_sql("db.sch.runs", dialect=dialect, k=[10, None], ties="item-desc")
    assert len([s for s in sqlglot.parse(printed, read=dialects.get(dialect).sqlglot) if s is not None]) == 1


def test_cli_rejects_an_unknown_dialect(capsys):
    from ndcg_sql.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["sql", "--table", "runs", "--dialect", "oracle"])
    assert exit_.value.code == 2


def test_stored_names_are_shown_as_the_user_writes_them():
    """The columns a warehouse stores, as its messages list them: the user's spelling where a name
    the user gave finds the column (after the engine's folding; regardless of case where the
    engine ignores it), Snowflake's folded plain names in lower case, anything else as stored."""
    snowflake, postgres, bigquery = (dialects.get(name) for name in ("snowflake", "postgres", "bigquery"))
    stored = ["QUERY_ID", "ITEM_ID", "Score", "a b"]
    assert identifiers.as_written(stored, ["Item_Id", "score"], snowflake.fold,
                                  snowflake.columns_ignore_case) == ["query_id", "Item_Id", "Score", "a b"]
    assert identifiers.as_written(["query_id", "Label"], ["QUERY_ID", "label"], postgres.fold,
                                  postgres.columns_ignore_case) == ["QUERY_ID", "Label"]
    assert identifiers.as_written(["query_id", "Label"], ["Query_ID", "label"], bigquery.fold,
                                  bigquery.columns_ignore_case) == ["Query_ID", "label"]
