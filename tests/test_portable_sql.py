"""The DuckDB source SQL stays in a portable subset, and transpiles to every dialect.

Walks the sqlglot tree of every rendered statement (per-query, summary,
coverage, input checks) for every option combination and enforces: every window
partitioned (a window over all rows runs in one partition on one worker);
explicit NULLS FIRST/LAST on every ORDER BY key (also inside OVER); no
one-argument LOG (its base differs between engines); a DOUBLE cast before every
division and NULLIF around every divisor; no QUALIFY; no number series; no
VALUES lists (BigQuery has none); no function unknown to sqlglot (passed
through untranslated). Then each statement is transpiled to each
dialect with ``unsupported_level=RAISE``.
"""

from __future__ import annotations

import functools

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB

import ndcg_sql
from ndcg_sql.building import plan, sql_text, templates, validation
from ndcg_sql.vocabulary import dialects
from ndcg_sql.api import sql_plan
from ndcg_sql.building.validation import Columns
from sql_cases import STATEMENTS, all_combinations

#: slow (half a minute or more of a worker): every option combination walked in every dialect
pytestmark = pytest.mark.slow


class NullsSmall(DuckDB):
    NULL_ORDERING = "nulls_are_small"


class NullsLarge(DuckDB):
    NULL_ORDERING = "nulls_are_large"


SERIES = (exp.GenerateSeries, exp.Explode, exp.Unnest)
SERIES_NAMES = {"range", "generate_series", "generate_array", "sequence", "unnest", "flatten"}


def lint(sql: str) -> list[str]:
    """Portable-subset violations in one DuckDB statement (empty when clean)."""
    return list(_lint(sql))


@functools.lru_cache(maxsize=None)
def _lint(sql: str) -> tuple[str, ...]:
    """:func:`lint`, once per text (most DuckDB-source statements are the same for several dialects)."""
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
        if isinstance(node, exp.Window) and not node.args.get("partition_by"):
            # a window over every row: one partition on one worker (Spark warns and moves all data there)
            problems.append(f"window without PARTITION BY: {node.sql('duckdb')}")
        if isinstance(node, SERIES) or (
            isinstance(node, (exp.Anonymous, exp.Func)) and str(node.name).lower() in SERIES_NAMES
        ):
            problems.append(f"number series: {node.sql('duckdb')}")
        if isinstance(node, exp.Values):
            problems.append("VALUES list")
        if isinstance(node, exp.Anonymous):
            problems.append(f"function unknown to sqlglot, passed through untranslated: {node.sql('duckdb')}")
    return tuple(problems)


def statements(args: dict):
    """Every DuckDB-source statement the options produce, with a label."""
    resolved, _ = sql_plan(**args)
    context = resolved.context
    yield "per_query", templates.render("per_query.sql.j2", **context)
    # the templates as written (the combined statement is checked by transpiling it)
    yield "summary", templates.render("summary.sql.j2", **{**context, "per_query_relation": plan.PER_QUERY})
    yield "coverage", templates.render("coverage.sql.j2", **{**context, "per_query_relation": plan.PER_QUERY})
    options = {"query_col": "query_id", "item_col": "item_id", "label_col": "label", "row_col": args.get("row_col")}
    columns = Columns.of(options, resolved.order_col, resolved.options.judgments)
    checks = validation.checks_for(resolved.options, columns.roles())
    relations: dict[str, list[dict]] = {}
    sources = {check.relation: check.source for check in checks}
    for index, check in enumerate(checks):
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition, "rows": check.rows})
    yield "validate_counts", templates.render(
        "validate_counts.sql.j2", relations=[{"name": n, "checks": c, "source": sources[n]} for n, c in relations.items()],
        **context
    )
    for check in checks:
        yield "validate_examples", templates.render(
            "validate_examples.sql.j2", relation=check.relation, condition=check.condition, source=check.source,
            limit=6, **context
        )
        if check.values:
            yield "validate_values", templates.render(
                "validate_values.sql.j2", relation=check.relation, condition=check.condition, value=check.values,
                limit=6, **context,
            )


COMBINATIONS = list(all_combinations())


def test_lint_finds_each_problem():
    """The lint itself: each rule catches a statement that breaks it."""
    assert lint("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t")
    assert lint("SELECT ROW_NUMBER() OVER (ORDER BY x ASC NULLS FIRST) FROM t")  # no partition
    assert not lint("SELECT ROW_NUMBER() OVER (PARTITION BY q ORDER BY x ASC NULLS FIRST) FROM t")
    assert lint("SELECT x FROM t ORDER BY x DESC")
    assert not lint("SELECT ROW_NUMBER() OVER (PARTITION BY q ORDER BY x ASC NULLS FIRST) FROM t ORDER BY x DESC NULLS LAST")
    assert lint("SELECT LOG(x) FROM t")
    assert lint("SELECT a / b FROM t")
    assert lint("SELECT CAST(a AS DOUBLE) / b FROM t")
    assert lint("SELECT a / NULLIF(b, 0) FROM t")
    assert not lint("SELECT CAST(a AS DOUBLE) / NULLIF(b, 0) FROM t")
    assert lint("SELECT x FROM t QUALIFY ROW_NUMBER() OVER (PARTITION BY q ORDER BY x ASC NULLS FIRST) = 1")
    assert lint("SELECT * FROM range(10)")
    assert lint("SELECT * FROM generate_series(1, 10)")
    assert lint("SELECT * FROM (VALUES (1), (2)) AS v(k)")
    assert lint("SELECT ISFINITE(x) FROM t")


@functools.lru_cache(maxsize=None)
def parsed(sql: str) -> exp.Expression:
    """A DuckDB-source part, parsed once for every dialect (the whole file runs on one worker;
    sqlglot's generator writes a copy, so the cached tree is never changed)."""
    return sqlglot.parse_one(sql, read="duckdb")


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

    turn = sorted(dialects.DIALECTS).index(dialect)
    for index, (name, args) in enumerate(COMBINATIONS):
        # every part of every combination is transpiled below; the statement as run (to_sql
        # joins the parts, then transpiles: about a second each) for every sixth combination
        # per dialect, in turn per-query, summary, coverage, so each combination is run as a
        # whole in one dialect (the joining itself does not depend on the dialect)
        if index % len(dialects.DIALECTS) == turn:
            what = STATEMENTS[index // len(dialects.DIALECTS) % len(STATEMENTS)]
            try:
                ndcg_sql.to_sql(**args, dialect=dialect, what=what)
            except sqlglot.errors.UnsupportedError as error:
                problems[f"{name}/{what} (as run)"] = [f"sqlglot cannot write it for {dialect}: {error}", HINT]
        for what, sql in statements({**args, "dialect": dialect}):
            if sql in seen:
                continue
            seen.add(sql)
            found = lint(sql)
            if found:
                problems[f"{name}/{what}"] = found
            transpiles(parsed(sql), f"{name}/{what}")
    assert not problems, list(problems.items())[:5]


HINT = (
    "hint: inside OVER, write ASC keys NULLS FIRST and DESC keys NULLS LAST (keys are never NULL; "
    "BigQuery's windowed aggregates accept only that order), and no DOUBLE in PARTITION BY (BigQuery)"
)


SUITE_OPTIONS = {
    "measures-bootstrap": dict(measures=["nDCG@3", "AP", "RR", "R@3", "P(rel=2)@2", "Success@2"], ties="item-desc",
                               bootstrap=10),
    "segments-ndcg-bootstrap": dict(segments=["arm"], k=[1, None], bootstrap=10),
    "segmented-judgments-measures": dict(segments=["arm", "day"], measures=["P@2", "nDCG@5"], judgments_table="qrels",
                                         segmented_judgments=True, missing_queries="zero", ties="item-asc"),
    "intervals": dict(k=[3, None], intervals=True),
    "unbounded-measures": dict(measures=["CG@3", "DCG@5", "nDCG@5", "P@2"], segments=["arm"]),
    "input-order-float32": dict(k=[2], convention="xgboost", row_col="row_number"),
}


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_suite_statements_are_portable_and_transpile(dialect):
    """The steps of measures, segments, intervals, bootstrap (ndcg_sql/building/plan.py) and of compare's
    paired tests pass the same lint, and each statement a warehouse runs transpiles."""
    target = dialects.get(dialect)
    problems = {}
    for name, options in SUITE_OPTIONS.items():
        if options.get("convention") == "xgboost" and not target.float32:
            with pytest.raises(ndcg_sql.OptionError, match="32-bit float"):
                sql_plan("runs", dialect=dialect, **options)
            continue
        resolved, _ = sql_plan("runs", dialect=dialect, **options)
        computation = plan.build(resolved)
        summary = computation.summary
        coverage = templates.render("coverage.sql.j2", **{**resolved.context, "per_query_relation": computation.per_query})
        recorded = [*((step.name, step.sql) for step in computation.steps), ("summary", summary), ("coverage", coverage)]
        for step, sql in recorded:
            found = lint(sql)
            if found:
                problems[f"{name}/{step}"] = found
        for final in ("summary", "coverage"):
            try:
                sql_text.transpile(computation.statement(dict(recorded)[final]), target)
            except sqlglot.errors.UnsupportedError as error:
                problems[f"{name}/{final} (as run)"] = [str(error), HINT]
    paired = [
        templates.render("paired_tests.sql.j2", differences_relation="d", output_query_col='"query_id"',
                         permutations=100, exact_max_queries=6, seed_state=5, group_cols=['"arm"', "measure"],
                         segment_cols=['"arm"']),
        *(templates.render(t, a_relation="a", b_relation="b", output_query_col='"query_id"', segment_cols=['"arm"'])
          for t in ("paired_differences.sql.j2", "unpaired_counts.sql.j2")),
    ]
    for number, sql in enumerate(paired):
        found = lint(sql)
        if found:
            problems[f"paired/{number}"] = found
        try:
            sql_text.transpile(sql, target)
        except sqlglot.errors.UnsupportedError as error:
            problems[f"paired/{number} (transpiled)"] = [str(error), HINT]
    assert not problems, list(problems.items())[:5]


#: the id forms a warehouse can be given (ndcg_sql/building/id_types.py; JSON is never read as such there)
WAREHOUSE_FORMS = [
    {"run_query": "text", "run_item": "text", "j_query": "native", "j_item": "native"},
    {"run_query": "native", "run_item": "number_text", "j_query": "number_text", "j_item": "text"},
]


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_warehouse_id_casts_and_probe_are_portable_and_transpile(dialect):
    """The casts of sql/ids.sql.j2 a warehouse runs when the two sides' id types differ pass the
    lint and transpile, in the statement a warehouse sends (tie-break by item included); the probe
    of the ranking's named columns and the judgments' (ndcg_sql/running/probe.py) transpiles and names each
    table once; the item probe names the ranking once."""
    import dataclasses

    from benchmarks.counting import table_references
    from ndcg_sql.running import probe, runner

    target = dialects.get(dialect)
    resolved, _ = sql_plan("runs", judgments_table="qrels", dialect=dialect, ties="item-asc", k=[3, None])
    for forms in WAREHOUSE_FORMS:
        typed = plan.reading_input_once(dataclasses.replace(resolved, context=dataclasses.replace(resolved.context, id_forms=forms)))
        source = templates.render("per_query.sql.j2", **typed.context)
        assert not lint(source), source
        statement = runner.warehouse_statement(typed).statement
        text = sql_text.transpile(statement, target)
        assert "CAST" in text.upper()
    tables = probe.Tables(resolved.context["run_relation"], resolved.context["judgments_relation"], ("runs", "qrels"))
    text = sql_text.transpile(probe.statement(tables, ["query_id", "item_id", "score", "arm"], target.fold), target)
    assert len(sqlglot.parse(text, read=target.sqlglot)) == 1
    assert (table_references(text, dialect, ["runs"]), table_references(text, dialect, ["qrels"])) == (1, 1)
    item = sql_text.transpile(probe.item_statement(tables, "item_id", target.fold), target)  # the item probe
    assert not lint(probe.item_statement(tables, "item_id", target.fold))
    assert len(sqlglot.parse(item, read=target.sqlglot)) == 1
    assert (table_references(item, dialect, ["runs"]), table_references(item, dialect, ["qrels"])) == (1, 0)
