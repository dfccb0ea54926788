"""The options of one computation are checked and resolved once (ndcg_sql/building/context.py ``resolve``,
the macro ``_resolve_options``): what the data shows only re-renders the templates' context."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

import ndcg_sql
from benchmarks.counting import CountedConnection
from ndcg_sql.building import context

RUN = pd.DataFrame({"arm": ["a", "a", "b", "b"], "query_id": ["q1", "q1", "q1", "q2"],
                    "item_id": ["x", "y", "w", "z"], "score": [2.0, 1.0, 1.0, 1.0], "label": [0, 1, 1, 0]})
QRELS = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "item_id": ["x", "y", "z"], "label": [0, 1, 2]})


@pytest.fixture
def counted(monkeypatch):
    """Calls of ``context.resolve`` and renders of the summary's option macro (cutoffs, measures,
    segments: checked only while the options are resolved), by name."""
    calls = {"resolve": 0, "_summary_context": 0}

    def counting(name, function):
        def call(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(context, "resolve", counting("resolve", context.resolve))
    for dialect in ("duckdb", "postgres"):
        macros = context.option_macros(dialect)
        monkeypatch.setattr(macros, "_summary_context", counting("_summary_context", macros._summary_context))
    return calls


def _files(tmp_path):
    RUN.to_csv(tmp_path / "run.csv", index=False)
    QRELS.to_csv(tmp_path / "qrels.csv", index=False)
    return str(tmp_path / "run.csv"), str(tmp_path / "qrels.csv")


def _warehouse():
    con = duckdb.connect()
    con.register("run_frame", RUN)
    con.register("qrels_frame", QRELS)
    con.execute("CREATE TABLE run AS SELECT * FROM run_frame")
    con.execute("CREATE TABLE qrels AS SELECT * FROM qrels_frame")
    return CountedConnection(con, "duckdb", ["run", "qrels"])


CALLS = {
    "a file": lambda run, qrels: ndcg_sql.evaluate(run, k=[1]).close(),
    "judgments": lambda run, qrels: ndcg_sql.evaluate(run, judgments=qrels, k=[1], ties="item-asc").close(),
    "segments": lambda run, qrels: ndcg_sql.evaluate(run, judgments=qrels, segments="arm", measures="nDCG@1,P@1",
                                                     ties="item-desc").close(),
    "a warehouse": lambda run, qrels: ndcg_sql.evaluate("run", judgments="qrels", con=_warehouse(), dialect="duckdb",
                                                        k=[1], ties="item-asc", per_query=True),
    "to_sql": lambda run, qrels: ndcg_sql.to_sql("run", judgments_table="qrels", dialect="postgres", ties="item-asc",
                                                 id_types={"item": "integer"}),
}


def test_the_options_are_resolved_once_per_call(counted, tmp_path):
    run, qrels = _files(tmp_path)
    seen = {}
    for name, call in CALLS.items():
        counted.update(resolve=0, _summary_context=0)
        call(run, qrels)
        seen[name] = dict(counted)
    assert seen == {name: {"resolve": 1, "_summary_context": 1} for name in CALLS}


def test_a_warehouse_renders_the_context_once(monkeypatch):
    """On a warehouse the tables are probed first (ndcg_sql/running/probe.py reads the names and the
    resolved options, no templates' context) and the context is rendered once, with what they show."""
    renders = []
    macros = context.option_macros("duckdb")
    ranking_context = macros._ranking_context
    monkeypatch.setattr(macros, "_ranking_context", lambda *args: renders.append(args[-1]) or ranking_context(*args))
    for judgments in ("qrels", None):
        renders.clear()
        ndcg_sql.evaluate("run", judgments=judgments, con=_warehouse(), dialect="duckdb", k=[1], ties="item-asc")
        assert len(renders) == 1
    assert "id_forms" not in renders[0]  # without judgments nothing is probed before the metric's statement
