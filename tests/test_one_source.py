"""One decision, one home: the Python runner, to_sql and the dbt macros resolve options with the
same macros (sql/options/), so they cannot drift. These tests would fail on any drift:

- for every adapter type and option combinations that include input-order ties on text ids,
  conventions, judgments, segments and measures, the dbt macros render the statement to_sql
  writes (equal syntax trees), and the summary macros the runner's summary statement;
- the same bad options are refused with the same message (dbt prefixes "ndcg_sql: ", the
  runner names the command-line flag too);
- the dbt macros' defaults are the option table's;
- the summary has the same columns from evaluate, to_sql and dbt for the same options.

Each drift the issue named is a case here: input-order with text ids on Postgres/Redshift
(the byte-order collation), the summary columns with segments, the query column named
'measure' or 'value', and macros.yml lagging the macros (it is generated from them now,
tests/test_dbt_gen.py).
"""

from __future__ import annotations

import functools
import re

import duckdb
import pandas as pd
import pytest
import sqlglot
from sqlglot import exp

import dbt_standin
import ndcg_sql
from conftest import ROOT
from dbt_standin import CompilerError
from ndcg_sql.building import plan
from ndcg_sql.vocabulary import dialects, identifiers, parameters
from ndcg_sql.api import sql_plan
from ndcg_sql.building.sql_text import over_ctes, transpile

#: slow (half a minute or more of a worker): every dbt adapter's macros rendered
pytestmark = pytest.mark.slow

PACKAGE = dbt_standin.package_files(ROOT / "dbt_macros")
ADAPTERS = ("duckdb", "postgres", "redshift", "bigquery", "snowflake", "spark", "databricks")

#: (dbt arguments of ndcg_per_query / ndcg_measures, the same as Python options)
CASES = [
    ({"ties": "input-order", "row_col": "rn", "k": [3, "all"]}, {"ties": "input-order", "row_col": "rn", "k": [3, None]}),
    ({"ties": "input-order", "row_col": "rn", "item_type": "number"},
     {"ties": "input-order", "row_col": "rn", "item_type": "number"}),
    ({"convention": "lightgbm", "row_col": "rn", "segment_cols": ["arm"]},
     {"convention": "lightgbm", "row_col": "rn", "segments": ["arm"]}),
    ({"judgments": "QRELS", "convention": "trec_eval", "missing_queries": "zero", "k": [10]},
     {"judgments": "QRELS", "convention": "trec_eval", "missing_queries": "zero", "k": [10]}),
    ({"judgments": "QRELS", "ties": "item-asc", "gain": {0: 0, 1: 1, 2: 3}, "no_relevant": "skip", "rank_col": "pos"},
     {"judgments": "QRELS", "ties": "item-asc", "gain": {0: 0, 1: 1, 2: 3}, "no_relevant": "skip", "rank_col": "pos"}),
    ({"segment_cols": ["arm", "day"], "judgments": "QRELS", "segmented_judgments": True, "missing_queries": "zero",
      "ties": "item-desc", "negative_labels": "zero"},
     {"segments": ["arm", "day"], "judgments": "QRELS", "segmented_judgments": True, "missing_queries": "zero",
      "ties": "item-desc", "negative_labels": "zero"}),
    ({"measures": ["nDCG@5", "AP", "P(rel=2)@3", "CG@2"], "ties": "input-order", "row_col": "rn"},
     {"measures": ["nDCG@5", "AP", "P(rel=2)@3", "CG@2"], "ties": "input-order", "row_col": "rn"}),
    ({"measures": ["Judged@10", "P@3", "Judged"], "judgments": "QRELS", "ties": "item-asc"},
     {"measures": ["Judged@10", "P@3", "Judged"], "judgments": "QRELS", "ties": "item-asc"}),
    ({"measures": ["Judged@2", "RBP(p=0.9)@5", "RBPResidual"], "segment_cols": ["arm"]},
     {"measures": ["Judged@2", "RBP(p=0.9)@5", "RBPResidual"], "segments": ["arm"]}),
    ({"measures": ["RBP(rel=2,p=0.5)", "RBPResidual(p=0.5)@3"], "judgments": "QRELS", "missing_queries": "zero"},
     {"measures": ["RBP(rel=2,p=0.5)", "RBPResidual(p=0.5)@3"], "judgments": "QRELS", "missing_queries": "zero"}),
    ({"measures": ["ERR@10", "ERR", "AP"], "judgments": "QRELS", "ties": "item-desc", "gain": "linear"},
     {"measures": ["ERR@10", "ERR", "AP"], "judgments": "QRELS", "ties": "item-desc", "gain": "linear"}),
    ({"weight_col": "traffic", "k": [5, "all"], "segment_cols": ["arm"]},
     {"weight_col": "traffic", "k": [5, None], "segments": ["arm"]}),
    ({"measures": ["nDCG@5", "RBP", "Success@2"], "weight_col": "traffic", "judgments": "QRELS", "ties": "item-asc"},
     {"measures": ["nDCG@5", "RBP", "Success@2"], "weight_col": "traffic", "judgments": "QRELS", "ties": "item-asc"}),
    ({"judgments": "QRELS", "unjudged": "condense", "convention": "trec_eval", "k": [10]},
     {"judgments": "QRELS", "unjudged": "condense", "convention": "trec_eval", "k": [10]}),
    ({"measures": ["AP", "Judged@5", "nDCG@3"], "judgments": "QRELS", "unjudged": "condense", "ties": "item-desc",
      "missing_queries": "zero"},
     {"measures": ["AP", "Judged@5", "nDCG@3"], "judgments": "QRELS", "unjudged": "condense", "ties": "item-desc",
      "missing_queries": "zero"}),
    ({"discount": "jarvelin", "log_base": 3, "k": [2, 5], "gain": "linear"},
     {"discount": "jarvelin", "log_base": 3, "k": [2, 5], "gain": "linear"}),
    ({"measures": ["DCG@3", "nDCG@5"], "log_base": 10, "convention": "sklearn"},
     {"measures": ["DCG@3", "nDCG@5"], "log_base": 10, "convention": "sklearn"}),
    ({"measures": "RR, Success@1 P@3", "segment_cols": ["arm"], "convention": "trec_eval"},
     {"measures": "RR, Success@1 P@3", "segments": ["arm"], "convention": "trec_eval"}),
    ({"measures": ["Bpref", "infAP(rel=2)", "Rprec", "IPrec@0.5", "gm_map"], "judgments": "QRELS",
      "convention": "trec_eval"},
     {"measures": ["Bpref", "infAP(rel=2)", "Rprec", "IPrec@0.5", "gm_map"], "judgments": "QRELS",
      "convention": "trec_eval"}),
    ({"measures": ["Bpref", "IPrec@0", "P@3"], "ties": "item-asc", "negative_labels": "zero"},
     {"measures": ["Bpref", "IPrec@0", "P@3"], "ties": "item-asc", "negative_labels": "zero"}),
]


@functools.lru_cache(maxsize=None)  # Spark's and Databricks' adapters render the same statements
def canonical(sql: str, dialect: str) -> str:
    """A statement as sqlglot reads it, without comments, ORDER BY of the whole statement, or
    the two spellings of IS NOT NULL (sqlglot writes NOT x IS NULL, reads x IS NOT NULL), its
    CTEs all at the top, each name once (what the runner sends; dbt may nest them)."""
    tree = over_ctes([], sqlglot.parse_one(sql, read=dialect).sql(dialect="duckdb"))
    tree.set("order", None)
    for node in tree.find_all(exp.Expression):
        node.comments = None
    tree = tree.transform(lambda n: exp.Not(this=exp.Is(this=n.this, expression=n.expression))
                          if isinstance(n, exp.Is) and n.args.get("negate") else n)
    return tree.sql(dialect=dialect, pretty=True)


def relation(name: str, dialect: str) -> str:
    target = dialects.get(dialect)
    return identifiers.table([name], target.fold).sql(dialect=target.sqlglot)


def python_sql(dialect: str, options: dict) -> str:
    options = dict(options)
    judged = options.pop("judgments", None)
    return ndcg_sql.to_sql("runs", judgments_table=judged, dialect=dialect, **options)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dbt_macros_render_the_runners_statements(adapter):
    dialect = dialects.get(adapter).name
    macros = dbt_standin.load(PACKAGE, adapter=adapter)
    for dbt_args, options in CASES:
        dbt_args = dict(dbt_args)
        if "judgments" in dbt_args:
            dbt_args["judgments"] = relation("QRELS", dialect)
        run = relation("runs", dialect)
        macro = macros.ndcg_measures if "measures" in dbt_args else macros.ndcg_per_query
        try:
            emitted = python_sql(dialect, options)
        except ndcg_sql.OptionError as refused:  # float32 scores where the engine has no 32-bit float
            with pytest.raises(CompilerError) as raised:
                macro(run, **dbt_args)
            assert str(raised.value) == f"ndcg_sql: {refused}"
            continue
        assert canonical(macro(run, **dbt_args), dialect) == canonical(emitted, dialect), (adapter, options)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_input_order_ties_compare_text_ids_in_byte_order_everywhere(adapter):
    """The drift that made Postgres/Redshift numbers differ: dbt dropped the byte-order collation
    of the tie-break under ties='input-order'. Both now take it from ndcg_sql/vocabulary/dialects.py."""
    dialect = dialects.get(adapter).name
    macros = dbt_standin.load(PACKAGE, adapter=adapter)
    dbt_sql = macros.ndcg_per_query(relation("runs", dialect), ties="input-order", row_col="rn")
    expected = transpile(dialects.get(dialect).byte_order.format(item="item"), dialects.get(dialect)).strip()
    assert expected in python_sql(dialect, {"ties": "input-order", "row_col": "rn"})
    assert expected in sqlglot.parse_one(dbt_sql, read=dialect).sql(dialect=dialect)


SUMMARIES = [
    ({"k": [1, 10, "all"]}, {"k": [1, 10, None]}),
    ({"k": [5], "segment_cols": ["arm"]}, {"k": [5], "segments": ["arm"]}),
    ({"k": [5], "intervals": True}, {"k": [5], "intervals": True}),
    ({"k": [5], "segment_cols": ["arm"], "intervals": False}, {"k": [5], "segments": ["arm"], "intervals": False}),
]
MEASURE_SUMMARIES = [
    ({"measures": ["nDCG@5", "P@2"]}, {"measures": ["nDCG@5", "P@2"], "ties": "item-asc"}),
    ({"measures": ["CG@3", "DCG@2", "RR"], "segment_cols": ["arm"]},
     {"measures": ["CG@3", "DCG@2", "RR"], "segments": ["arm"], "ties": "item-asc"}),
    ({"measures": ["gm_map", "Bpref", "CG@2", "Success@3"]},
     {"measures": ["gm_map", "Bpref", "CG@2", "Success@3"], "ties": "item-asc"}),
]


#: weighted summaries (the per-query rows carry a weight column): rendered only
WEIGHTED_SUMMARIES = [
    ({"k": [5, "all"], "weighted": True, "segment_cols": ["arm"]}, {"k": [5, None], "weight_col": "w", "segments": ["arm"]}),
    ({"measures": ["nDCG@5", "Success@1"], "weighted": True},
     {"measures": ["nDCG@5", "Success@1"], "ties": "item-asc", "weight_col": "w"}),
    # LightGBM's rule: a query with no relevant item adds 1 to the weighted sum, not its weight
    ({"k": [1, 3, "all"], "weighted": True, "convention": "lightgbm", "intervals": True},
     {"k": [1, 3, None], "weight_col": "w", "convention": "lightgbm", "row_col": "rn", "intervals": True}),
    ({"k": [5], "weighted": True, "convention": "LightGBM", "segment_cols": ["arm"]},
     {"k": [5], "weight_col": "w", "convention": "lightgbm", "row_col": "rn", "segments": ["arm"]}),
    # other conventions (and lightgbm without weights) leave the weighted sum as it is
    ({"k": [5], "weighted": True, "convention": "sklearn"}, {"k": [5], "weight_col": "w", "convention": "sklearn"}),
    ({"k": [5], "convention": "lightgbm"}, {"k": [5], "convention": "lightgbm", "row_col": "rn"}),
]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dbt_summaries_are_the_runners_summary(adapter):
    dialect = dialects.get(adapter).name
    macros = dbt_standin.load(PACKAGE, adapter=adapter)
    for dbt_args, options in SUMMARIES + MEASURE_SUMMARIES + WEIGHTED_SUMMARIES:
        resolved, target = sql_plan("runs", dialect=dialect, **options)
        runner = transpile(plan.summary_sql(resolved, "per_query_rows"), target)
        if "measures" in dbt_args:
            dbt_args = dict(dbt_args)
            dbt_sql = macros.ndcg_measures_summary("per_query_rows", dbt_args.pop("measures"), **dbt_args)
        else:
            dbt_sql = macros.ndcg_summary("per_query_rows", **dbt_args)
        assert canonical(dbt_sql, dialect) == canonical(runner, dialect), (adapter, options)


def test_the_lightgbm_rule_changes_the_dbt_summary():
    """convention= reaches the dbt summary: with weights under 'lightgbm' its SQL differs from the
    plain weighted summary, without weights it does not (the rule is of the weighted sum)."""
    macros = dbt_standin.load(PACKAGE)
    weighted = macros.ndcg_summary("per_query_rows", k=[5], weighted=True)
    assert macros.ndcg_summary("per_query_rows", k=[5], weighted=True, convention="lightgbm") != weighted
    assert macros.ndcg_summary("per_query_rows", k=[5], weighted=True, convention="sklearn") == weighted
    assert macros.ndcg_summary("per_query_rows", k=[5], convention="lightgbm") == macros.ndcg_summary(
        "per_query_rows", k=[5])


@pytest.mark.parametrize("dbt_args, options", [
    ({"weighted": True, "convention": "lightgbm"}, {"weight_col": "w", "convention": "lightgbm", "row_col": "rn"}),
    ({"convention": "nope"}, {"convention": "nope"}),
])
def test_the_dbt_measures_summary_refuses_what_the_runner_refuses(dbt_args, options):
    macros = dbt_standin.load(PACKAGE)
    message = python_error({"measures": ["nDCG@5"], **options})
    with pytest.raises(CompilerError) as raised:
        macros.ndcg_measures_summary("per_query_rows", ["nDCG@5"], **dbt_args)
    assert str(raised.value) == "ndcg_sql: " + message


def python_error(options: dict) -> str:
    options = dict(options)
    judged = options.pop("judgments", None)
    with pytest.raises((ndcg_sql.OptionError, ndcg_sql.InputError)) as raised:
        ndcg_sql.to_sql("runs", judgments_table=judged, **options)
    return re.sub(r" \(--[a-z-]+(?: [\w.-]+)?\)", "", str(raised.value))


BAD = [
    {"ties": "input-order"},
    {"row_col": "rn"},
    {"score_col": "s", "rank_col": "r"},
    {"missing_queries": "zero"},
    {"query_col": "measure"},
    {"query_col": "VALUE"},
    {"segments": ["k"]},
    {"segments": ["evaluated"]},
    {"segments": ["query_id"]},
    {"convention": "trec-eval", "gain": "exponential", "ties": "average", "no_relevant": "one"},
    {"convention": "sklearn", "judgments": "QRELS"},
    {"convention": "nope"},
    {"gain": "quadratic"},
    {"gain": {1: -1}},
    {"k": [0]},
    {"k": ["ten"]},
    {"measures": ["AP"], "ties": "average"},
    {"measures": ["P(rel=x)@5"]},
    {"measures": ["Q@5"]},
    {"ties": "random"},
    {"measures": ["Judged(rel=2)@5"]},
    {"measures": ["RBP(p=1)"]},
    {"measures": ["RBP(q=0.5)"]},
    {"measures": ["ERR@10"], "ties": "average"},
    {"weight_col": "w", "judgments": "QRELS", "missing_queries": "zero"},
    {"unjudged": "condense"},
    {"unjudged": "drop", "judgments": "QRELS"},
    {"weight_col": "w", "convention": "lightgbm", "row_col": "rn", "measures": ["nDCG@5"]},
    {"weight_col": "w", "convention": "xgboost", "row_col": "rn", "measures": ["nDCG@5"]},
    {"weight_col": "w", "convention": "trec_eval"},
    {"convention": "xgboost", "row_col": "rn", "measures": ["nDCG@5", "RR@5"]},
    {"convention": "lightgbm", "row_col": "rn", "measures": ["AP(rel=2)@5"]},
    {"convention": "trec_eval", "measures": ["ERR@10"]},
    {"measures": ["ERR@10"], "ties": "item-asc", "max_grade": 0},
    {"measures": ["nDCG@10"], "max_grade": 3},
    {"discount": "cosine"},
    {"log_base": 1},
    {"log_base": "e"},
    {"convention": "trec_eval", "discount": "jarvelin"},
    {"segments": ["arm"], "judgments": "QRELS", "missing_queries": "zero"},
]


@pytest.mark.parametrize("options", BAD, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_same_bad_options_are_refused_with_the_same_message(options):
    message = python_error(options)
    macros = dbt_standin.load(PACKAGE)
    dbt_args = {("segment_cols" if key == "segments" else key): value for key, value in options.items()}
    if "judgments" in dbt_args:
        dbt_args["judgments"] = '"QRELS"'
    with pytest.raises(CompilerError) as raised:
        if "measures" in dbt_args:
            macros.ndcg_measures('"runs"', **dbt_args)
        else:
            macros.ndcg_per_query('"runs"', **dbt_args)
    assert str(raised.value).replace("segment_cols", "segments") == "ndcg_sql: " + message  # dbt's spelling


def test_dbt_defaults_are_the_option_tables():
    from tools import dbt_docs

    spelled = {"segment_cols": "segments"}
    checked = 0
    for macro in dbt_docs.public_macros(dbt_docs.public_files(ROOT / "dbt_macros" / "macros", {})):
        if macro["name"] not in ("ndcg_per_query", "ndcg_measures"):
            continue
        for name, default in macro["arguments"]:
            option = parameters.BY_NAME.get(spelled.get(name, name))
            if option is None or name in ("judgments", "measures"):
                continue
            want = option.default
            want = list(want) if isinstance(want, tuple) else ([] if want is None and name in spelled else want)
            assert default == want, (macro["name"], name)
            checked += 1
    assert checked >= 30


def test_the_summary_has_the_same_columns_from_every_entry_point():
    data = pd.DataFrame({"query_id": [1, 1, 2, 2], "item_id": ["a", "b", "a", "c"], "score": [2.0, 1.0, 1.0, 3.0],
                         "label": [1, 0, 2, 0], "arm": ["x", "x", "y", "y"]})
    macros = dbt_standin.load(PACKAGE)
    for dbt_args, options in SUMMARIES + MEASURE_SUMMARIES:
        result = ndcg_sql.evaluate(data, **options)
        con = duckdb.connect()
        con.register("runs", data)
        emitted = con.sql(ndcg_sql.to_sql("runs", what="summary", **options))
        con.register("per_query_rows", result.per_query.df())
        if "measures" in dbt_args:
            dbt_args = dict(dbt_args)
            dbt = con.sql(macros.ndcg_measures_summary("per_query_rows", dbt_args.pop("measures"), **dbt_args))
        else:
            dbt = con.sql(macros.ndcg_summary("per_query_rows", **dbt_args))
        assert result.summary.columns == emitted.columns == dbt.columns, options
        assert result.summary.fetchall() == emitted.fetchall() == dbt.fetchall(), options
