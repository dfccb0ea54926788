"""mypy (configured in pyproject.toml) finds no error in the package, and its public signatures
refuse what a caller gets wrong: a misspelt option, a value outside an option's choices."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

#: slow (half a minute or more of a worker): mypy over the package
pytestmark = pytest.mark.slow

#: Calls that type-check, as a user writes them.
GOOD = """
    import ndcg_sql
    from ndcg_sql.plot import plot

    result: ndcg_sql.Result = ndcg_sql.evaluate("run.parquet", [5, 10, None], judgments="qrels.txt", ties="item-desc",
                                                gain={0: 0.0, 1: 1.0}, measures=None, memory_limit=None, threads=2)
    sql: str = ndcg_sql.to_sql("db.schema.runs", dialect="bigquery", what="summary", k="all", segments="arm")
    comparison: ndcg_sql.Comparison = ndcg_sql.compare("a.parquet", "b.parquet", ["nDCG@10", "AP"], seed=7,
                                                       convention="trec_eval", permutations=1000)
    plotted = plot({"a": "a.parquet"}, "out.png", [1, 5], bootstrap=100, gain="linear")
"""
#: Calls mypy refuses, each on its own line (the line number after the dedent: the error's line).
BAD = """
    import ndcg_sql
    from ndcg_sql.plot import plot

    ndcg_sql.evaluate("run.parquet", itme_col="x")
    ndcg_sql.evaluate("run.parquet", gain="exponentail")
    ndcg_sql.to_sql("runs", what="sumary")
    ndcg_sql.to_sql("runs", dialect="sqlite")
    ndcg_sql.compare("a.parquet", "b.parquet", k=[10])
    plot(["a.parquet"], "out.png", tiez="average")
    ndcg_sql.evaluate("run.parquet", k=["5"])
"""


def test_mypy_finds_no_error_in_the_package_and_refuses_wrong_calls(tmp_path):
    good, bad = tmp_path / "good_calls.py", tmp_path / "bad_calls.py"
    good.write_text(textwrap.dedent(GOOD).lstrip(), encoding="utf-8")
    bad.write_text(textwrap.dedent(BAD).lstrip(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                           "--show-error-codes", "ndcg_sql", str(good), str(bad)],
                          cwd=ROOT, capture_output=True, text=True)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode in (0, 1), done.stderr  # 2: mypy itself failed
    assert not [e for e in errors if not e.startswith(str(bad))], done.stdout
    lines = {int(re.match(rf"{re.escape(str(bad))}:(\d+):", e).group(1)) for e in errors}
    assert lines == set(range(4, 11)), done.stdout
    assert re.search(r':4: error: Unexpected keyword argument "itme_col" for "evaluate"', done.stdout)
    assert re.search(r':5: error: Argument "gain" to "evaluate" has incompatible type', done.stdout)
