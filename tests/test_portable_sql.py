"""The DuckDB source SQL stays in a portable subset, and transpiles to every dialect.

Walks the sqlglot tree of every rendered statement (per-query, summary,
coverage, input checks) for every option combination and enforces:
explicit NULLS FIRST/LAST on every ORDER BY key (also inside OVER); no
one-argument LOG (its base differs between engines); a DOUBLE cast before every
division and NULLIF around every divisor; no QUALIFY; no number series; no
VALUES lists (BigQuery has none); no function unknown to sqlglot (passed
through untranslated). Then each statement is transpiled to each
dialect with ``unsupported_level=RAISE``.
"""

from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB

from ndcg_sql import dialects, sql_text, templates, validation
from sql_cases import STATEMENTS, all_combinations


class NullsSmall(DuckDB):
    NULL_ORDERING = "nulls_are_small"


class NullsLarge(DuckDB):
    NULL_ORDERING = "nulls_are_large"


SERIES = (exp.GenerateSeries, exp.Explode, exp.Unnest)
SERIES_NAMES = {"range", "generate_series", "generate_array", "sequence", "unnest", "flatten"}


def lint(sql: str) -> list[str]:
    """Portable-subset violations in one DuckDB statement (empty when clean)."""
    problems = []
    tree = sqlglot.parse_one(sql, read="duckdb")
    # implicit null ordering is resolved from the dialect default: parsing under two
    # opposite defaults changes exactly the keys without explicit NULLS FIRST/LAST
    small = [o.args.get("nulls_first") for o in sqlglot.parse_one(sql, read=NullsSmall).find_all(exp.Ordered)]
    large = [o.args.get("nulls_first") for o in sqlglot.parse_one(sql, read=NullsLarge).find_all(exp.Ordered)]
    for ordered, a, b in zip(tree.find_all(exp.Ordered), small, large):
        if bool(a) != bool(b):
            problems.append(f"ORDER BY key without NULLS FIRST/LAST: {ordered.sql('duckdb')}")
    for node in tree.walk():
        if isinstance(node, exp.Log) and node.args.get("expression") is None:
            problems.append(f"one-argument LOG: {node.sql('duckdb')}")
        if isinstance(node, exp.IntDiv):
            problems.append(f"integer division: {node.sql('duckdb')}")
        if isinstance(node, exp.Div):
            numerator, divisor = node.this, node.expression
            if not (isinstance(numerator, exp.Cast) and numerator.to.this == exp.DataType.Type.DOUBLE):
                problems.append(f"division without a DOUBLE cast of the numerator: {node.sql('duckdb')}")
            if not isinstance(divisor, exp.Nullif):
                problems.append(f"divisor without NULLIF: {node.sql('duckdb')}")
        if isinstance(node, exp.Qualify):
            problems.append("QUALIFY")
        if isinstance(node, SERIES) or (
            isinstance(node, (exp.Anonymous, exp.Func)) and str(node.name).lower() in SERIES_NAMES
        ):
            problems.append(f"number series: {node.sql('duckdb')}")
        if isinstance(node, exp.Values):
            problems.append("VALUES list")
        if isinstance(node, exp.Anonymous):
            problems.append(f"function unknown to sqlglot, passed through untranslated: {node.sql('duckdb')}")
    return problems


def statements(args: dict):
    """Every DuckDB-source statement the options produce, with a label."""
    p = sql_text.plan(**args)
    yield "per_query", templates.render("per_query.sql.j2", **p.context)
    # the templates as written (the combined statement is checked by transpiling it)
    yield "summary", templates.render("summary.sql.j2", **{**p.context, "per_query_relation": sql_text.PER_QUERY_CTE})
    yield "coverage", templates.render("coverage.sql.j2", **{**p.context, "per_query_relation": sql_text.PER_QUERY_CTE})
    checks = validation.checks_for(p.options, p.columns.roles(), portable=True)
    relations: dict[str, list[dict]] = {}
    for index, check in enumerate(checks):
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition})
    yield "validate_counts", templates.render(
        "validate_counts.sql.j2", relations=[{"name": n, "checks": c} for n, c in relations.items()], **p.context
    )
    for check in checks:
        yield "validate_examples", templates.render(
            "validate_examples.sql.j2", relation=check.relation, condition=check.condition, limit=6, **p.context
        )
    yield "item_probe", templates.render("item_probe.sql.j2", **p.context)


COMBINATIONS = list(all_combinations())


def test_lint_finds_each_problem():
    """The lint itself: each rule catches a statement that breaks it."""
    assert lint("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t")
    assert lint("SELECT x FROM t ORDER BY x DESC")
    assert not lint("SELECT ROW_NUMBER() OVER (ORDER BY x ASC NULLS FIRST) FROM t ORDER BY x DESC NULLS LAST")
    assert lint("SELECT LOG(x) FROM t")
    assert lint("SELECT a / b FROM t")
    assert lint("SELECT CAST(a AS DOUBLE) / b FROM t")
    assert lint("SELECT a / NULLIF(b, 0) FROM t")
    assert not lint("SELECT CAST(a AS DOUBLE) / NULLIF(b, 0) FROM t")
    assert lint("SELECT x FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY x ASC NULLS FIRST) = 1")
    assert lint("SELECT * FROM range(10)")
    assert lint("SELECT * FROM generate_series(1, 10)")
    assert lint("SELECT * FROM (VALUES (1), (2)) AS v(k)")
    assert lint("SELECT ISFINITE(x) FROM t")


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_every_statement_is_portable_and_transpiles(dialect):
    target = dialects.get(dialect)
    problems = {}
    seen = set()

    def transpiles(source, label):
        try:
            sql_text.transpile(source, target)
        except sqlglot.errors.UnsupportedError as error:
            problems[label] = [f"sqlglot cannot write it for {dialect}: {error}", HINT]

    for name, args in COMBINATIONS:
        p = sql_text.plan(**{**args, "dialect": dialect})
        for what in STATEMENTS:  # the statements as run
            transpiles(sql_text.render(p, what), f"{name}/{what} (as run)")
        for what, sql in statements({**args, "dialect": dialect}):
            if sql in seen:
                continue
            seen.add(sql)
            found = lint(sql)
            if found:
                problems[f"{name}/{what}"] = found
            transpiles(sqlglot.parse_one(sql, read="duckdb"), f"{name}/{what}")
    assert not problems, list(problems.items())[:5]


HINT = (
    "hint: inside OVER, write ASC keys NULLS FIRST and DESC keys NULLS LAST (keys are never NULL; "
    "BigQuery's windowed aggregates accept only that order), and no DOUBLE in PARTITION BY (BigQuery)"
)
