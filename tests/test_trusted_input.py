"""checks="trusted" (--checks trusted): no input check, the numbers of the default to the bit.

Trusted input is computed on as it is: the numbers on good input are the default's (the same
SQL: the profile that shapes it is read by a group-by instead of the checks' window) and the
independent numpy reference's; bad input is then not refused (the default still refuses it),
but an empty input is, and every result says checks=trusted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import ndcg_sql
import reference
from conftest import ROOT, per_query_map
from ndcg_sql import InputError, OptionError
from ndcg_sql.running import executors

CUTOFFS = [1, 3, 10, 40, None]


def _ranking(seed: int = 7) -> list[tuple]:
    """Lists of 1 to 60 items (past the 32 head positions), tied scores, labels 0..4, some queries
    with no relevant item."""
    rng = np.random.default_rng(seed)
    rows = []
    for query in range(60):
        size = int(rng.integers(1, 61))
        scores = rng.choice([0.0, 0.5, 1.0, 2.0], size) if query % 3 == 0 else rng.random(size).round(3)
        labels = np.zeros(size, dtype=int) if query % 7 == 0 else rng.integers(0, 5, size)
        rows += [(query, f"d{item}", float(s), int(label)) for item, s, label in zip(range(size), scores, labels)]
    return rows


def _views(sql: str) -> str:
    return re.sub(r'"ndcg_sql_(run|judgments)_[0-9a-f_]+"', r"\1", sql)


def _frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "item_id", "score", "label"])


@pytest.mark.parametrize("judged", [False, True], ids=["list", "judgments"])
def test_trusted_gives_the_default_numbers_to_the_bit_and_the_references(judged):
    rows = _ranking()
    data, judgments = _frame(rows), None
    if judged:  # every other ranked item judged, plus one unranked relevant item a query
        qrels = [(q, i, label) for n, (q, i, _, label) in enumerate(rows) if n % 2 == 0]
        qrels += [(q, "unranked", 3) for q in sorted({q for q, *_ in rows})]
        judgments = pd.DataFrame(qrels, columns=["query_id", "item_id", "label"])
        data = data.drop(columns=["label"])
    default = ndcg_sql.evaluate(data, k=CUTOFFS, judgments=judgments)
    trusted = ndcg_sql.evaluate(data, k=CUTOFFS, judgments=judgments, checks="trusted")
    # what the profile found shapes the SQL: the same, but for the input views' names
    assert _views(trusted.sql) == _views(default.sql)
    assert trusted.per_query_records() == default.per_query_records()
    assert trusted.summary_records() == default.summary_records()
    expected, means = reference.evaluate(rows, CUTOFFS, judgments=qrels if judged else None)
    got = per_query_map(trusted)
    assert set(got) == set(expected)
    for key, values in expected.items():
        assert all(reference.close(a, b) for a, b in zip(got[key], values)), (key, got[key], values)
    for row in trusted.summary_records():
        assert reference.close(row["ndcg"], means[row["k"]][0]), row


def test_trusted_reads_the_input_without_sorting_it(monkeypatch):
    """The checks' window over item order is the sort trusted input skips: nothing it runs before
    the metric SQL has a window."""
    fetched = []
    fetch = executors.DuckDB.fetch
    monkeypatch.setattr(executors.DuckDB, "fetch", lambda self, sql: fetched.append(sql) or fetch(self, sql))
    ndcg_sql.evaluate(_frame(_ranking()), k=[3], checks="trusted").close()
    assert fetched and not any(" OVER " in sql for sql in fetched), fetched
    ndcg_sql.evaluate(_frame(_ranking()), k=[3]).close()
    assert " OVER " in fetched[-1]


def test_trusted_is_reported_with_the_options():
    data = _frame(_ranking())
    trusted = ndcg_sql.evaluate(data, k=[3], checks="trusted")
    assert trusted.options["checks"] == "trusted"
    assert "checks=trusted" in str(trusted).splitlines()[0]
    assert json.loads(json.dumps(trusted.to_dict()))["options"]["checks"] == "trusted"
    assert "checks" not in ndcg_sql.evaluate(data, k=[3]).options


def test_a_plot_of_trusted_input_says_so_in_its_title(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    from ndcg_sql.plot import plot

    figures = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda figure=None: (figures.append(figure), close(figure)))
    path = tmp_path / "run.parquet"
    _frame(_ranking()).to_parquet(path)
    plot([str(path)], str(tmp_path / "trusted.png"), k=[1, 5], checks="trusted")
    plot([str(path)], str(tmp_path / "checked.png"), k=[1, 5])
    assert "checks=trusted" in figures[0].axes[0].get_title()
    assert "checks" not in figures[1].axes[0].get_title()


def test_the_default_refuses_bad_input_that_trusted_computes_on():
    rows = [(1, "a", 1.0, 1), (1, "a", 0.5, 2), (1, "b", 0.2, 0), (2, "c", 1.0, 1)]
    with pytest.raises(InputError, match=r"duplicate \(query, item\) rows in the ranking"):
        ndcg_sql.evaluate(_frame(rows))
    with pytest.raises(InputError, match="negative labels"):
        ndcg_sql.evaluate(_frame([(1, "a", 1.0, -1), (1, "b", 0.5, 2)]))
    assert ndcg_sql.evaluate(_frame(rows), checks="trusted").summary_records()


def test_trusted_still_refuses_an_empty_input_and_words_an_engine_failure():
    with pytest.raises(InputError, match="the ranking has no rows"):
        ndcg_sql.evaluate(_frame([]).astype({"query_id": int, "item_id": str, "score": float, "label": int}),
                          checks="trusted")
    words = pd.DataFrame({"query_id": [1, 1], "item_id": ["a", "b"], "score": [1.0, 0.5], "label": ["1", "high"]})
    with pytest.raises(InputError, match="checks='trusted': the input was not checked"):
        ndcg_sql.evaluate(words, checks="trusted")
    with pytest.raises(InputError, match="non-numeric labels"):
        ndcg_sql.evaluate(words)


@pytest.mark.parametrize("value", ["none", False, None])
def test_another_checks_value_is_an_option_error(value):
    with pytest.raises(OptionError, match="checks must be 'all' or 'trusted'"):
        ndcg_sql.evaluate(_frame(_ranking()), checks=value)


def test_the_command_line_takes_checks_trusted(tmp_path):
    path = tmp_path / "run.parquet"
    _frame(_ranking()).to_parquet(path)
    command = [sys.executable, "-m", "ndcg_sql.cli", "evaluate", str(path), "--k", "3"]
    done = subprocess.run([*command, "--checks", "trusted"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "checks=trusted" in done.stdout.splitlines()[0]
    refused = subprocess.run([*command, "--checks", "none"], capture_output=True, text=True, cwd=ROOT)
    assert refused.returncode == 2 and "--checks" in refused.stderr
