"""Golden SQL per dialect: every change of the emitted SQL, or of sqlglot, shows in review.

The files are tests/golden/<dialect>/<case>.<statement>.sql. After an intended
change, regenerate them and review the diff:

    NDCG_SQL_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden_sql.py

Without the variable, any difference fails the test.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from ndcg_sql import to_sql
from ndcg_sql.building import templates
from ndcg_sql.vocabulary import dialects
from sql_cases import GOLDEN, GOLDEN_OTHER_STATEMENTS, STATEMENTS

FOLDER = Path(__file__).parent / "golden"
UPDATE = os.environ.get("NDCG_SQL_UPDATE_GOLDEN") == "1"
#: compare's paired tests, one golden file (test_paired_tests_golden)
PAIRED_TESTS = FOLDER / "duckdb" / "compare.paired_tests.sql"


def kept(case: str) -> list[str]:
    """The statements kept as golden files for ``case``."""
    return [what for what in STATEMENTS if what == "per_query" or what in GOLDEN_OTHER_STATEMENTS.get(case, ())]


@functools.lru_cache(maxsize=None)
def emitted(case: str, dialect: str, what: str) -> str:
    """to_sql's text of a golden case, written once for the tests of this file (one worker)."""
    return to_sql(**GOLDEN[case], dialect=dialect, what=what)


def test_sqlglot_is_the_pinned_version():
    """Golden files are written by one sqlglot; a different one must be reviewed via regeneration."""
    assert (FOLDER / "SQLGLOT_VERSION").read_text().strip() == sqlglot.__version__ or UPDATE
    if UPDATE:
        (FOLDER / "SQLGLOT_VERSION").write_text(sqlglot.__version__ + "\n")


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_golden_sql(dialect, case):
    for what in kept(case):
        sql = emitted(case, dialect, what)
        path = FOLDER / dialect / f"{case}.{what}.sql"
        if UPDATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(sql, encoding="utf-8")
        assert path.exists(), f"{path} missing: regenerate with NDCG_SQL_UPDATE_GOLDEN=1"
        assert sql == path.read_text(encoding="utf-8"), (
            f"{path} differs from the SQL now emitted; review and regenerate with NDCG_SQL_UPDATE_GOLDEN=1"
        )


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_golden_cases_are_one_statement_with_one_with_in_every_dialect(dialect):
    """Whatever sqlglot writes them (also the lowest version pyproject allows: .ci/floors.py, where
    the golden files differ), the golden cases' statements are one statement with every CTE in one
    WITH, each name once: Spark refuses a CTE name defined twice, even in nested scopes."""
    read = dialects.get(dialect).sqlglot
    for case in sorted(GOLDEN):
        for what in kept(case):
            statements = [s for s in sqlglot.parse(emitted(case, dialect, what), read=read) if s]
            assert len(statements) == 1, (case, what)
            names = [cte.alias for cte in statements[0].find_all(exp.CTE)]
            assert len(list(statements[0].find_all(exp.With))) == 1, (case, what)
            assert len(names) == len(set(names)), (case, what, names)


def test_paired_tests_golden():
    """compare's paired tests (sql/paired_tests.sql.j2) run in DuckDB on every engine's
    per-query rows: one golden file, with segments, sampled and exact groups alike."""
    sql = templates.render("paired_tests.sql.j2", differences_relation='"paired_differences"',
                           output_query_col='"query_id"', permutations=100, exact_max_queries=6,
                           seed_state=5, group_cols=['"arm"', "measure"], segment_cols=['"arm"'])
    path = PAIRED_TESTS
    if UPDATE:
        path.write_text(sql, encoding="utf-8")
    assert path.exists(), f"{path} missing: regenerate with NDCG_SQL_UPDATE_GOLDEN=1"
    assert sql == path.read_text(encoding="utf-8"), (
        f"{path} differs from the SQL now emitted; review and regenerate with NDCG_SQL_UPDATE_GOLDEN=1"
    )


def test_every_golden_file_is_read():
    """A golden file that no test compares would go stale unseen (a case renamed, a statement no
    longer kept): every file under tests/golden/ is one the tests above read."""
    read = {FOLDER / "SQLGLOT_VERSION", PAIRED_TESTS} | {
        FOLDER / dialect / f"{case}.{what}.sql" for dialect in dialects.DIALECTS for case in GOLDEN for what in kept(case)}
    unread = sorted(path.relative_to(FOLDER).as_posix() for path in FOLDER.rglob("*") if path.is_file() and path not in read)
    assert not unread, f"golden files no test reads (delete them, or keep their case in tests/sql_cases.py): {unread}"
