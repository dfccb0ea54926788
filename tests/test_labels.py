"""Label expressions (label= / --label): labels computed from a log's columns.

Every number is checked against the numpy reference (tests/reference.py) fed with labels
computed here in Python from the same rows; refused expressions name what they hold, and
nothing a user writes reaches the SQL except as sqlglot writes it back.
"""

from __future__ import annotations

import json

import duckdb
import numpy as np
import pandas as pd
import pytest

import ndcg_sql
import reference
from ndcg_sql.building import labels
from ndcg_sql.vocabulary import dialects, identifiers
from test_cli import run_cli

#: A click log: (query, item, score, clicks, purchases, watch seconds, bonus (NULL-able), event)
LOG = [
    ("q1", "a", 0.9, 1, 0, 200.0, None, "view"), ("q1", "b", 0.8, 0, 0, 0.0, 1, "none"),
    ("q1", "c", 0.8, 2, 1, 75.0, None, "purchase"), ("q1", "d", 0.1, 1, 0, 30.0, 2, "view"),
    ("q2", "a", 0.5, 0, 0, 10.0, None, "none"), ("q2", "e", 0.4, 0, 0, 5.0, None, "none"),
    ("q3", "b", 3.0, 1, 1, 400.0, 1, "purchase"), ("q3", "f", 2.0, 1, 0, 61.0, None, "view"),
    ("q3", "g", 1.0, 3, 2, 181.0, 3, "purchase"), ("q3", "h", 1.0, 0, 0, 0.0, None, "none"),
]
COLUMNS = ["query_id", "item_id", "score", "clicks", "purchases", "watch", "bonus", "event"]

#: (expression, the same label computed in Python from a row dict)
EXPRESSIONS = [
    ("clicks + 2 * purchases", lambda r: r["clicks"] + 2 * r["purchases"]),
    ("CASE WHEN watch >= 180 THEN 3 WHEN watch >= 60 THEN 2 WHEN clicks > 0 THEN 1 ELSE 0 END",
     lambda r: 3 if r["watch"] >= 180 else 2 if r["watch"] >= 60 else 1 if r["clicks"] > 0 else 0),
    ("(watch > 60) + (watch > 180) + COALESCE(bonus, 0)",
     lambda r: (r["watch"] > 60) + (r["watch"] > 180) + (r["bonus"] if r["bonus"] is not None else 0)),
    ("GREATEST(clicks - 1, 0) + LEAST(purchases, 1) + (event = 'purchase')",
     lambda r: max(r["clicks"] - 1, 0) + min(r["purchases"], 1) + (r["event"] == "purchase")),
    ("watch / 60 + CAST(clicks AS DOUBLE) / 2", lambda r: r["watch"] / 60 + r["clicks"] / 2),
    ("clicks IN (1, 2) AND NOT purchases BETWEEN 1 AND 5", lambda r: r["clicks"] in (1, 2) and not 1 <= r["purchases"] <= 5),
]


def frame(rows=LOG):
    return pd.DataFrame(rows, columns=COLUMNS)


def reference_rows(compute, rows=LOG):
    return [(r[0], r[1], r[2], float(compute(dict(zip(COLUMNS, r))))) for r in rows]


def assert_matches_reference(result, compute, cutoffs, gain="linear", rows=LOG, query_col="query_id"):
    per_query, means = reference.evaluate(reference_rows(compute, rows), cutoffs, gain=gain)
    got = {(r[query_col], r["k"]): r for r in result.per_query_records()}
    assert set(got) == set(per_query)
    for key, (cg, dcg, idcg, ndcg) in per_query.items():
        row = got[key]
        assert all(reference.close(a, b) for a, b in zip((row["cg"], row["dcg"], row["idcg"], row["ndcg"]),
                                                        (cg, dcg, idcg, ndcg))), (key, row)
    for row in result.summary_records():
        assert reference.close(row["ndcg"], means[row["k"]][0]), row


@pytest.mark.parametrize("expression, compute", EXPRESSIONS, ids=[e for e, _ in EXPRESSIONS])
def test_label_expression_equals_the_reference(expression, compute):
    result = ndcg_sql.evaluate(frame(), label=expression, gain="linear", k=[1, 2, 3, None])
    assert_matches_reference(result, compute, [1, 2, 3, None])
    assert result.options["label"] == labels.parse(expression).shown


def test_label_expression_over_the_judgments_and_with_segments():
    """With judgments the expression reads the judgments' columns; with segments each arm is
    labelled from its own rows."""
    run = frame()[["query_id", "item_id", "score"]]
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q3", "q3"], "item_id": ["a", "z", "g", "b"],
                          "clicks": [3, 2, 1, 0], "purchases": [1, 0, 0, 0]})
    got = ndcg_sql.evaluate(run, judgments=qrels, label="clicks + purchases", gain="linear", k=[2, None])
    judged = [(q, i, c + p) for q, i, c, p in qrels.itertuples(index=False)]
    want, _ = reference.evaluate([(q, i, s, 0) for q, i, s in run.itertuples(index=False)], [2, None],
                                 gain="linear", judgments=judged)
    rows = {(r["query_id"], r["k"]): r["ndcg"] for r in got.per_query_records()}
    assert set(rows) == set(want) and all(reference.close(rows[key], want[key][3]) for key in want)

    arms = pd.concat([frame().assign(arm="x"), frame().assign(arm="y", clicks=frame()["clicks"] * 0)])
    got = ndcg_sql.evaluate(arms, label="clicks + 2 * purchases", segments="arm", gain="linear", k=[3])
    rows = {(r["arm"], r["query_id"]): r["ndcg"] for r in got.per_query_records()}
    for arm, data in (("x", LOG), ("y", [r[:3] + (0,) + r[4:] for r in LOG])):
        want, _ = reference.evaluate(reference_rows(EXPRESSIONS[0][1], data), [3], gain="linear")
        assert all(reference.close(rows[(arm, q)], value[3]) for (q, _), value in want.items())


def test_bad_labels_from_an_expression_are_named():
    with pytest.raises(ndcg_sql.InputError) as raised:
        ndcg_sql.evaluate(frame(), label="bonus * 2", k=[3])
    message = str(raised.value)
    assert "label expression 'bonus * 2': NULL labels (6 rows), e.g. in query_id q1, q2, q3" in message
    assert "COALESCE" in message
    with pytest.raises(ndcg_sql.InputError, match="a divisor is 0"):
        ndcg_sql.evaluate(frame(), label="clicks / purchases", k=[3])
    with pytest.raises(ndcg_sql.InputError, match=r"label expression 'clicks - 2': negative labels"):
        ndcg_sql.evaluate(frame(), label="clicks - 2", k=[3])
    with pytest.raises(ndcg_sql.InputError, match=r"no column 'click' \(read by the label expression\)"):
        ndcg_sql.evaluate(frame(), label="click + 1", k=[3])
    with pytest.raises(ndcg_sql.InputError, match="cannot be computed from the ranking's columns"):
        ndcg_sql.evaluate(frame(), label="event + 1", k=[3])
    with pytest.raises(ndcg_sql.OptionError, match=r"give label \(--label\) \(an expression\) or label_col"):
        ndcg_sql.evaluate(frame(), label="clicks", label_col="clicks", k=[3])


@pytest.mark.parametrize("text, words", [
    ("(SELECT MAX(clicks) FROM log)", "a subquery is not allowed"),
    ("clicks; DROP TABLE log", "not several statements"),
    ("DROP TABLE log", "DROP is not allowed"),
    ("my_udf(clicks)", "the unknown function my_udf() is not allowed"),
    ("RANDOM() * clicks", "the function RAND() is not allowed"),
    ("log.clicks", "the qualified column name log.clicks"),
    ("CAST(watch AS DATE)", "a cast to DATE is not allowed"),
    ("clicks +", "is not valid SQL"),
    ("clicks = ?", "PLACEHOLDER is not allowed"),
    ("", "non-empty SQL expression"),
])
def test_refused_expressions_say_what_they_hold(text, words):
    with pytest.raises(ndcg_sql.OptionError, match="label") as raised:
        ndcg_sql.to_sql("log", label=text)
    assert words in str(raised.value)


def test_nothing_written_by_the_user_reaches_the_sql_unparsed():
    con = duckdb.connect()
    con.execute("CREATE TABLE log AS SELECT 'q' AS query_id, 'a' AS item_id, 1.0 AS score, 1 AS clicks")
    hostile = '"clicks""; DROP TABLE log; --" + clicks -- */ DROP TABLE log'
    sql = ndcg_sql.to_sql("log", label=hostile, k=[1])
    assert '"clicks""; DROP TABLE log; --"' in sql  # one quoted column name
    assert "DROP" not in sql.replace('"clicks""; DROP TABLE log; --"', '"name"') and "*/" not in sql
    with pytest.raises(duckdb.Error, match="clicks"):
        con.sql(sql).fetchall()  # the column does not exist: nothing else ran
    assert con.sql("SELECT COUNT(*) FROM log").fetchall() == [(1,)]


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_every_dialect_writes_the_expression(dialect):
    """to_sql transpiles the rewritten expression (quoted names, true division, comparisons as 1/0)."""
    expression = "CASE WHEN watch / 60 >= 3 THEN 3 ELSE GREATEST(clicks, 0) END + (event = 'purchase')"
    sql = ndcg_sql.to_sql("log", label=expression, dialect=dialect, k=[10])
    fold = dialects.get(dialect).fold
    assert identifiers.quote("watch", dialects.get(dialect).sqlglot, fold) in sql
    assert "NULLIF" in sql and "'purchase'" in sql


def test_label_expression_on_the_command_line(tmp_path):
    path = tmp_path / "log.csv"
    frame().to_csv(path, index=False)
    expression, compute = EXPRESSIONS[1]
    done = run_cli("evaluate", str(path), "--label", expression, "--gain", "linear", "--k", "1", "3", "all",
                   "--format", "json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    _, means = reference.evaluate(reference_rows(compute), [1, 3, None], gain="linear")
    assert [(r["k"], round(r["ndcg"], 12)) for r in out["summary"]] == [(k, round(means[k][0], 12)) for k in (1, 3, None)]
    assert out["options"]["label"] == labels.parse(expression).shown
    refused = run_cli("evaluate", str(path), "--label", "(SELECT 1)")
    assert refused.returncode == 2 and "a subquery is not allowed" in refused.stderr
    printed = run_cli("sql", "--table", "log", "--label", "clicks + 2 * purchases", "--dialect", "postgres")
    assert printed.returncode == 0 and '"clicks" + 2 * "purchases"' in printed.stdout


def test_labels_given_as_words_without_a_mapping_get_the_hint(tmp_path):
    """Labels given as words ('relevant', 'partial') and no gain mapping of words: the message
    names the column and ends with how to map them, in Python and on the command line."""
    hint = "labels given as words: map them with gain={'relevant': 2, ...} (--gain relevant:2,...)"
    run = pd.DataFrame({"query_id": [1, 1, 2], "item_id": [1, 2, 1], "score": [2.0, 1.0, 1.0],
                        "label": ["relevant", "partial", "not relevant"]})
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(run, k=[1])
    assert str(error.value).startswith("bad input:\n  column 'label': non-numeric labels (3 rows)")
    assert str(error.value).endswith(hint)
    with pytest.raises(ndcg_sql.InputError) as judged:
        ndcg_sql.evaluate(run.drop(columns="label"), judgments=run.drop(columns="score"), k=[1])
    assert "non-numeric labels in the judgments" in str(judged.value) and str(judged.value).endswith(hint)
    path = tmp_path / "words.csv"
    run.to_csv(path, index=False)
    done = run_cli("evaluate", str(path), "--k", "1")
    assert done.returncode == 1 and done.stderr.rstrip().endswith(hint), done.stderr


#: Judgments written as words, and the gains a mapping gives them (one word holds a quote).
WORDS = {"relevant": 3, "partial": 1, "it's marginal": 0.5, "irrelevant": 0}


def _worded(seed: int = 3, queries: int = 12):
    """A ranking with labels given as words (no ties in the scores)."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(queries):
        for i in range(int(rng.integers(3, 9))):
            rows.append((q, f"d{i}", float(rng.permutation(100)[0]) + i / 1000.0,
                         str(rng.choice(list(WORDS)))))
    return pd.DataFrame(rows, columns=["query_id", "item_id", "score", "grade"])


def test_labels_given_as_words_are_mapped_to_their_gains():
    """gain={word: gain} maps labels given as words, in the ranking and in the judgments: NDCG@k
    is the reference's with the mapped gains counted linearly, and every binary measure
    thresholds the mapped gain (P(rel=2) counts 'relevant' only, P the items with gain >= 1):
    the reference's binary measures of the mapped gains. The results report the mapping."""
    import reference

    run = _worded()
    gains = [WORDS[w] for w in run["grade"]]
    rows = list(zip(run["query_id"], run["item_id"], run["score"], gains))
    _, means = reference.evaluate(rows, [1, 3, 5], gain="linear")
    result = ndcg_sql.evaluate(run, k=[1, 3, 5], label_col="grade", gain=WORDS)
    assert {r["k"]: r["ndcg"] for r in result.summary_records()} == pytest.approx(
        {k: means[k][0] for k in (1, 3, 5)}, rel=1e-12, abs=1e-12)
    assert result.options["gain"] == {word: float(g) for word, g in WORDS.items()}
    assert "label" not in result.options
    judged = ndcg_sql.evaluate(run.drop(columns="grade"), judgments=run.drop(columns="score"), k=[1, 3, 5],
                               label_col="grade", gain=WORDS)
    assert {r["k"]: r["ndcg"] for r in judged.summary_records()} == pytest.approx(
        {k: means[k][0] for k in (1, 3, 5)}, rel=1e-12, abs=1e-12)
    names = ["P@3", "P(rel=2)@3", "AP", "RR", "R@5", "Success@1"]
    measured = {r["measure"]: r["mean"] for r in ndcg_sql.evaluate(
        run, measures=names, label_col="grade", gain=WORDS, ties="item-desc").summary_records()}
    for name, family, k, rel in [("P@3", "P", 3, 1), ("P(rel=2)@3", "P", 3, 2), ("AP", "AP", None, 1),
                                 ("RR", "RR", None, 1), ("R@5", "R", 5, 1), ("Success@1", "Success", 1, 1)]:
        values = []
        for _, query in run.groupby("query_id"):
            items = list(zip(query["item_id"], query["score"], (WORDS[w] for w in query["grade"])))
            in_order = reference.ordered_labels(items, "item-desc")
            values.append(reference.binary_measure(family, in_order, sum(g >= rel for g in in_order), k, rel))
        assert measured[name] == pytest.approx(np.mean(values), rel=1e-12, abs=1e-12), name


def test_a_word_missing_from_the_mapping_is_named(tmp_path):
    """A value of the label column the mapping of words lacks: InputError naming the column, the
    value and the option, in Python and on the command line (whose --gain takes words); a numeric
    label column with a mapping of words has every value missing; words and numbers are not
    mixed in one mapping; not with a label expression or a convention."""
    run = _worded()
    run.loc[2, "grade"] = "Relevant"  # not 'relevant': a word matches exactly
    with pytest.raises(ndcg_sql.InputError) as error:
        ndcg_sql.evaluate(run, k=[3], label_col="grade", gain=WORDS)
    text = str(error.value)
    assert "column 'grade': label \"Relevant\" is missing from the gain mapping of words (1 row)" in text
    assert "gain={'relevant': 3, 'partial': 1, \"it's marginal\": 0.5, 'irrelevant': 0, ...}" in text
    path = tmp_path / "words.csv"
    run.to_csv(path, index=False)
    done = run_cli("evaluate", str(path), "--label-col", "grade", "--k", "3",
                   "--gain", "relevant:3,partial:1,it's marginal:0.5,irrelevant:0")
    assert done.returncode == 1 and "label \"Relevant\" is missing from the gain mapping of words" in done.stderr
    assert "(--gain relevant:3,partial:1,it's marginal:0.5,irrelevant:0,...)" in done.stderr
    run.loc[2, "grade"] = "relevant"
    run.to_csv(path, index=False)
    done = run_cli("evaluate", str(path), "--label-col", "grade", "--k", "1", "3", "5", "--format", "json",
                   "--gain", "relevant:3,partial:1,it's marginal:0.5,irrelevant:0")
    assert done.returncode == 0, done.stderr
    direct = ndcg_sql.evaluate(run, k=[1, 3, 5], label_col="grade", gain=WORDS)
    assert json.loads(done.stdout)["summary"] == direct.summary_records()
    numeric = pd.DataFrame({"query_id": [1, 1], "item_id": [1, 2], "score": [2.0, 1.0], "label": [1, 0]})
    with pytest.raises(ndcg_sql.InputError, match="labels \"0\", \"1\" are missing from the gain mapping of words"):
        ndcg_sql.evaluate(numeric, k=[1], gain={"relevant": 1})
    for options, words in [(dict(gain={"relevant": 1, "0": 0}), "all numbers or all words"),
                           (dict(gain={"relevant": -1}), "finite non-negative gains"),
                           (dict(gain={"relevant": 1}, label="label"), "not with label"),
                           (dict(gain={"relevant": 1}, convention="trec_eval"), "not with a convention")]:
        with pytest.raises(ndcg_sql.OptionError, match=words):
            ndcg_sql.evaluate(numeric, k=[1], **options)


def test_words_reach_the_sql_as_string_literals():
    """The words are string literals sqlglot writes (a quote doubled or escaped), never pasted:
    the SQL for each warehouse parses back with the words as literals."""
    import sqlglot

    for dialect in ("postgres", "bigquery", "snowflake", "spark"):
        sql = ndcg_sql.to_sql("ranking", label_col="grade", gain=WORDS, k=[3], dialect=dialect)
        literals = {node.this for node in sqlglot.parse_one(sql, read=dialect).find_all(sqlglot.exp.Literal)
                    if node.is_string}
        assert set(WORDS) <= literals, dialect


def test_the_dbt_macros_refuse_words_with_the_way_to_map_them():
    """The dbt macros take numeric labels: a gain mapping of words (which the Python runner maps
    before the shared option macros) is refused by the macros with what to do instead."""
    from ndcg_sql.building.context import option_macros

    with pytest.raises(ndcg_sql.OptionError, match="labels given as words are mapped by ndcg_sql's Python API"):
        option_macros()._parse_gain({"relevant": 2, "partial": 1})
    with pytest.raises(ndcg_sql.OptionError, match="^gain mapping entries must be numbers; got 'relevant': 'x'$"):
        option_macros()._parse_gain({"relevant": "x"})
