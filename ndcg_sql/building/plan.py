"""Which statements a computation runs, in what order: the same plan for DuckDB, a warehouse
and ``to_sql``.

A computation is a chain of steps, each a query over the relations of earlier steps: the
per-query rows (the NDCG rows, or the long rows (query, measure, value) of named measures),
then, with a bootstrap, the plain summary. The last statement is the summary
(``sql/summary.sql.j2``, with ``sql/summary_with_bootstrap.sql.j2`` around it). Where a
step lives is the executor's business: a :class:`Plan` is data, built by :func:`build` without
running anything. On a warehouse (and in ``to_sql``) every step is a CTE of one statement
(:meth:`Plan.statement`); :class:`ndcg_sql.running.executors.DuckDB` keeps a step in a temp table when
the plan says it is read more than once, else a temp view. Nothing is computed here: the SQL
templates compute every number.

On a warehouse, where every statement reads the input again (BigQuery bills the bytes a
query reads, Snowflake and Databricks the compute, which the scans dominate), the summary statement also carries the one-row counts of
the input checks and of the queries' coverage (:func:`with_counts`), each statement names
every input table once (:func:`reading_input_once`), and the per-query rows, when asked, come
in the same statement (:func:`with_per_query_rows`): :func:`one_statement`.

The input checks' statements are plans too (:class:`CheckPlan`, built by
:mod:`ndcg_sql.building.validation`): DuckDB's first pass before the computation's plan (what it
finds shapes the SQL), the counts and the listings of failed checks after it; an executor runs
them (:meth:`ndcg_sql.running.executors.Executor.run_checks`).

:func:`sql_plan` resolves the options of ``to_sql`` for its dialect, from table names or files.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

import sqlglot
from sqlglot import exp

from . import context, templates

from ..vocabulary import dialects
from .context import Rendered
from ..vocabulary.errors import OptionError
from .id_types import type_names as id_type_names
from ..vocabulary.parameters import DEFAULTS, METRIC, VERSION
from ..vocabulary.parameters import Request
from .sql_text import file_relation, over_ctes, table_name

#: Step names (CTE names in one statement).
PER_QUERY = "per_query_rows"
MEASURE_ROWS = "measure_rows"
PLAIN_SUMMARY = "plain_summary"
SAMPLE_STRATA = "sample_strata"
INPUT_CHECKS = "input_checks"
#: The input checks' first pass on DuckDB (sql/validate_lists.sql.j2): a :class:`Read`'s name.
INPUT_PROFILE = "input_profile"
QUERY_COVERAGE = "query_coverage"
#: The columns of sql/coverage.sql.j2's row with judgments (without per_query_relation).
COVERAGE_COLUMNS = ("unjudged_ignored", "missing_from_run")
#: Modulus of the portable random generator (sql/random_draws.sql.j2): 2^31 - 1.
RANDOM_PRIME = 2**31 - 1


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a plan: a query over the relations of the steps before it."""
    name: str  # the relation later SQL reads it by: a CTE's name, or a temp object's (quoted)
    sql: str
    keep: bool = False  # read more than once: DuckDB keeps it in a temp table, else a temp view


@dataclasses.dataclass(frozen=True)
class Count:
    """A one-row count the plan reads beside the summary (the input checks, the queries'
    coverage): a warehouse carries it in the summary's statement (:func:`with_counts`), DuckDB
    fetches it after the summary."""
    name: str  # a CTE's name in the warehouse's one statement
    sql: str  # over the input relations, not over the steps
    columns: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Guard:
    """A check of the plan's size before its summary runs, where steps are stored (DuckDB): the
    bootstrap's draws (its replicates x the per-query rows, counted by ``sql``) at most ``most``.
    A warehouse folds the plan into one statement and has no point to run it at."""
    sql: str  # one row, one column: the per-query rows
    replicates: int
    most: int


@dataclasses.dataclass(frozen=True)
class Read:
    """One statement of the input checks whose rows come back whole (:class:`CheckPlan`)."""
    name: str  # what it is: :data:`INPUT_PROFILE`, :data:`INPUT_CHECKS`, or a listing's (:func:`listing_name`)
    sql: str  # DuckDB source, over the input relations


@dataclasses.dataclass(frozen=True)
class CheckPlan:
    """The input checks' statements as data, built without running anything
    (:mod:`ndcg_sql.building.validation`: ``profile_plan``, ``counts_plan``, ``listing_plan``):
    an executor runs each in turn (:meth:`ndcg_sql.running.executors.Executor.run_checks`) and
    gives back their rows by name; what they show is read and worded by the validation module.
    Which statements come next depends on what these found (the profile decides whether the
    checks are counted, the counts which listings run), so the checks are a few small plans."""
    reads: tuple[Read, ...] = ()


def listing_name(what: str, check: int) -> str:
    """The name of the listing statement ``what`` ("examples", "values" or "hidden") of check ``check``."""
    return f"{what}_{check}"


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a computation runs, as data (:func:`build`): nothing is executed to make it. An
    executor runs it (:meth:`ndcg_sql.running.executors.Executor.run_plan`): DuckDB stores the steps,
    a warehouse folds steps, summary and counts into one statement."""
    steps: tuple[Step, ...]  # in order, each over the relations of those before it
    summary: str  # the summary statement, over the steps' relations
    per_query: str  # the relation of the per-query rows (the first step's name)
    keeps_per_query: bool  # the per-query rows are a kept step (:func:`keeps_per_query`)
    per_query_statement: str | exp.Expr  # the per-query rows as one statement, ordered (``Result.sql``)
    order: str  # the per-query rows' ORDER BY (:func:`per_query_order`)
    bootstrap: int  # the bootstrap's replicates (0: none)
    counts: tuple[Count, ...] = ()  # one-row counts read beside the summary, in order
    guard: Guard | None = None  # with a bootstrap on DuckDB: its size, checked before the summary
    values: str = "per-query values"  # what the per-query rows are, for the progress line

    def statement(self, sql: str | None = None) -> exp.Expr | str:
        """``sql`` (default: the summary) with every step before it, as one statement of CTEs."""
        sql = self.summary if sql is None else sql
        return over_ctes([(step.name, step.sql) for step in self.steps], sql) if self.steps else sql


def _as_cte(name: str) -> str:
    return name


def keeps_per_query(resolved: Rendered) -> bool:
    """Whether the summary reads the per-query rows more than once (then a DuckDB run keeps
    them in a temp table; otherwise they are not stored: on a large log they outweigh
    everything else)."""
    return bool(resolved.measures is not None or resolved.segments or resolved.intervals or resolved.bootstrap)


def per_query_step(resolved: Rendered, keep: bool, named: Callable[[str], str] = _as_cte) -> Step:
    """The per-query rows as a step (``named``: the relation a step's name is read by)."""
    text = templates.render("per_query.sql.j2" if resolved.measures is None else "measure_rows.sql.j2",
                            **resolved.context)
    return Step(named(PER_QUERY if resolved.measures is None else MEASURE_ROWS), text, keep)


def per_query_statement(resolved: Rendered, ordered: bool = False) -> str | exp.Expr:
    """The per-query rows as one statement: the NDCG rows (``ordered``: by query and k), or
    the long rows of named measures (sql/measure_rows.sql.j2, ordered by measure and query),
    with the CTEs its parts share written once at the top (Spark refuses a CTE name defined
    twice, and sqlglot lifts nested CTEs to the top for it)."""
    if resolved.measures is None:
        return templates.render("per_query.sql.j2", ordered=ordered, **resolved.context)
    return over_ctes([], templates.render("measure_rows.sql.j2", **resolved.context))


def summary_sql(resolved: Rendered, per_query: str, sample_strata: str | None = None) -> str:
    """The summary over the per-query relation (sql/summary.sql.j2), with a sample of the queries
    over its strata too (``sample_strata``: the relation of sql/sample_strata.sql.j2)."""
    return templates.render("summary.sql.j2", **{**resolved.context, "per_query_relation": per_query,
                                                 "sample_relation": sample_strata})


def poisson_thresholds(prime: int = RANDOM_PRIME, tail: float = 1e-12) -> list[int]:
    """The integers ceil(F(j) * prime) for the Poisson(1) distribution function F(j) =
    e^-1 sum_{i<=j} 1/i!, j = 0, 1, ... until 1 - F(j) < tail: a state s of the generator gives
    the Poisson(1) draw #{j : s >= threshold_j} (sql/bootstrap_intervals.sql.j2)."""
    thresholds, term, cumulative, j = [], math.exp(-1.0), 0.0, 0
    while True:
        cumulative = math.fsum([cumulative, term])
        thresholds.append(math.ceil(cumulative * prime))
        if 1.0 - cumulative < tail:
            return thresholds
        j += 1
        term /= j


def bootstrap_sql(resolved: Rendered, per_query: str, summary: str) -> str:
    """``summary`` with bootstrap_low and bootstrap_high, the 95% percentile interval of each
    mean by the Poisson bootstrap, keyed by query (per segment too; sql/bootstrap_intervals.sql.j2)."""
    context = resolved.context
    group = "k" if resolved.measures is None else "measure"
    return templates.render(
        "summary_with_bootstrap.sql.j2", **context, summary_relation=summary, per_query_relation=per_query,
        group_cols=[*context.segment_cols, group], value_col="ndcg" if resolved.measures is None else "value",
        replicates=int(resolved.bootstrap), seed_state=int(resolved.seed) % RANDOM_PRIME,
        poisson_thresholds=poisson_thresholds(),
    )


def build(resolved: Rendered, named: Callable[[str], str] = _as_cte,
          counts: Sequence[Count] = (), most_draws: int | None = None) -> Plan:
    """The plan of ``resolved``: the per-query rows (and, with a bootstrap, the plain summary) as
    steps, the summary over them, the per-query rows as one statement. Pure: nothing runs.

    Args:
        resolved: the options and the templates' context.
        named: the relation each step's name is read by (default: the name, a CTE's); DuckDB
            gives fresh names of temp objects (:meth:`ndcg_sql.running.executors.DuckDB.named`).
        counts: one-row counts read beside the summary (:func:`counts`): a warehouse's input
            checks, the query counts with judgments.
        most_draws: where steps are stored (DuckDB), the most bootstrap draws (replicates x
            per-query rows) the summary may group: a :class:`Guard` checked before it.
    """
    kept = keeps_per_query(resolved)
    steps = [per_query_step(resolved, kept, named)]
    per_query = steps[0].name
    strata = None
    if resolved.context.sample:  # a sample of the queries: its strata, for the finite-population correction
        steps.append(Step(named(SAMPLE_STRATA), templates.render("sample_strata.sql.j2", **resolved.context)))
        strata = steps[-1].name
    summary = summary_sql(resolved, per_query, strata)
    if resolved.bootstrap:
        steps.append(Step(named(PLAIN_SUMMARY), summary, True))
        summary = bootstrap_sql(resolved, per_query, steps[-1].name)
    guard = None
    if resolved.bootstrap and most_draws is not None:
        guard = Guard(templates.render("row_count.sql.j2", relation=per_query), int(resolved.bootstrap), most_draws)
    return Plan(tuple(steps), summary, per_query, kept, per_query_statement(resolved, ordered=True),
                per_query_order(resolved), int(resolved.bootstrap or 0), tuple(counts), guard,
                "per-query values" if resolved.measures is None else "measures per query")


def counts(resolved: Rendered, checks: tuple[str, Sequence[str]] | None = None) -> tuple[Count, ...]:
    """The one-row counts a plan reads beside its summary: the input checks' (``checks``: their
    SQL and columns, :func:`ndcg_sql.building.validation.counts_sql`; DuckDB checks before the plan,
    apart, since what it finds shapes the SQL) and, with judgments, the queries' coverage."""
    found = []
    if checks is not None:
        found.append(Count(INPUT_CHECKS, checks[0], tuple(checks[1])))
    if resolved.options.judgments:
        found.append(Count(QUERY_COVERAGE, coverage_sql(resolved), COVERAGE_COLUMNS))
    return tuple(found)


def reading_input_once(resolved: Rendered) -> Rendered:
    """``resolved`` whose statements name each input table once (``read_input_once`` of
    sql/normalised_rows.sql.j2): how a warehouse runs them. ``to_sql``, dbt and DuckDB
    keep the tables named where each CTE reads them (DuckDB would otherwise keep every
    row of a CTE read twice in memory)."""
    return dataclasses.replace(resolved, context=dataclasses.replace(resolved.context, read_input_once=True))


def coverage_sql(resolved: Rendered) -> str:
    """With judgments, the one row of query counts (sql/coverage.sql.j2): run queries without
    any judgment, judged queries absent from the run (:data:`COVERAGE_COLUMNS`)."""
    return templates.render("coverage.sql.j2", **resolved.context)


def with_counts(statement: exp.Expr | str, counts: list[tuple[str, list[str]]]) -> exp.Expr:
    """The summary ``statement`` (one SELECT with its CTEs) with the one-row relations
    ``counts`` (step name, its columns), CTEs of it, cross-joined: their columns come first
    on every row, in the order given, then the summary's own, in its order. (A summary
    without rows, possible with segments only when no query was evaluated, then carries no
    count: the caller counts apart.)"""
    if isinstance(statement, str):  # a statement of no step (Plan.statement)
        statement = sqlglot.parse_one(statement, read="duckdb")
    if not counts:
        return statement
    columns = [exp.column(column, table=name) for name, names in counts for column in names]
    statement.set("expressions", [*columns, *statement.expressions])
    for name, _ in counts:
        statement.append("joins", exp.Join(this=exp.to_table(name), kind="CROSS"))
    return statement


#: Names of the one statement with the per-query rows (:func:`with_per_query_rows`).
SUMMARY_ROWS = "summary_rows"
ROW_PART = "row_part"


def _output_columns(select: exp.Expr, ctes: dict[str, exp.Expr]) -> list[exp.Identifier]:
    """The identifiers of a query's output columns, a ``t.*`` read from the CTE ``t`` names."""
    if isinstance(select, exp.Union):
        return _output_columns(select.left, ctes)
    found = []
    for projection in select.expressions:
        if isinstance(projection, exp.Alias):
            found.append(projection.args["alias"])
        elif isinstance(projection, exp.Column) and not isinstance(projection.this, exp.Star):
            found.append(projection.this)
        else:  # t.* or *: every column of the sources (CTEs) it names
            table = projection.table if isinstance(projection, exp.Column) else ""
            sources = [select.args["from_"].this, *(join.this for join in select.args.get("joins") or [])]
            for source in sources:
                if table and source.alias_or_name != table:
                    continue
                if not isinstance(source, exp.Table) or source.name not in ctes:
                    raise ValueError(f"cannot list the columns of {source.sql()}")
                found.extend(_output_columns(ctes[source.name], ctes))
    return found


def with_per_query_rows(statement: exp.Expr, per_query: str, order: str
                        ) -> tuple[exp.Expr, list[str], list[str]]:
    """The summary ``statement`` (one SELECT with its CTEs, the counts beside it: :func:`with_counts`)
    and the per-query rows of its CTE ``per_query``, in one statement: a warehouse then reads the input
    in one statement, not two. The rows are a UNION ALL: ``row_part`` 0 for a summary row (its columns
    as ``summary_1``, ...; the per-query columns NULL), 1 for a per-query row (``per_query_1``, ...),
    summary rows first in the summary's order, then the per-query rows in ``order``
    (:func:`per_query_order`).

    Returns:
        (the statement, the summary's column names, the per-query rows' column names).
    """
    statement = statement.copy()
    ctes = statement.args["with_"].expressions
    bodies = {cte.alias: cte.this for cte in ctes}
    summary = _output_columns(statement, bodies)
    rows = _output_columns(bodies[per_query], bodies)
    summary_order = statement.args.get("order")
    statement.set("with_", None)
    statement.set("order", None)
    ordered = summary_order.expressions if summary_order else []
    hidden = [f"summary_order_{place}" for place in range(1, len(ordered) + 1)]
    for name, item in zip(hidden, ordered):  # the summary's order, as columns of its own
        statement.append("expressions", exp.alias_(item.this.copy(), name))
    # per side: (the column in its relation, the column's name in the union)
    columns = {"summary": [(c, f"summary_{i}") for i, c in enumerate(summary, 1)]
               + [(exp.to_identifier(name), name) for name in hidden],
               "per_query": [(c, f"per_query_{i}") for i, c in enumerate(rows, 1)]}
    sources = {"summary": SUMMARY_ROWS, "per_query": per_query}

    def branch(part: int, side: str) -> exp.Select:
        out = [exp.alias_(exp.Literal.number(part), ROW_PART)]
        for other in ("summary", "per_query"):
            for identifier, name in columns[other]:
                value = exp.column(identifier.copy(), table="t") if other == side else exp.null()
                out.append(exp.alias_(value, name))
        return exp.select(*out).from_(exp.to_table(sources[side]).as_("t"))

    union = exp.union(branch(0, "summary"), branch(1, "per_query"), distinct=False)
    alias_of = {identifier.name: name for identifier, name in columns["per_query"]}
    by = sqlglot.parse_one(f"SELECT 1 ORDER BY {order}", read="duckdb").args["order"].expressions
    for item in by:
        for column in list(item.find_all(exp.Column)):
            column.replace(exp.column(alias_of[column.name]))
    order_by = [exp.Ordered(this=exp.column(ROW_PART), nulls_first=False),
                *(exp.Ordered(this=exp.column(name), desc=item.args.get("desc"),
                              nulls_first=item.args.get("nulls_first")) for name, item in zip(hidden, ordered)),
                *by]
    combined = exp.select("*").from_(union.subquery("result_rows")).order_by(*order_by)
    summary_cte = exp.CTE(this=statement, alias=exp.to_identifier(SUMMARY_ROWS))
    combined.set("with_", exp.With(expressions=[*ctes, summary_cte]))
    return combined, [c.name for c in summary], [c.name for c in rows]


class WarehouseStatement(NamedTuple):
    """A warehouse's one statement (DuckDB-source tree) and how to read its rows."""
    statement: exp.Expr
    count_names: list[str]  # the counts that lead each summary row
    summary_names: list[str] | None  # with the per-query rows: the summary's columns (counts first)
    per_query_names: list[str] | None  # with the per-query rows: theirs


def one_statement(plan: Plan, per_query: bool = False) -> WarehouseStatement:
    """A warehouse's one statement: the summary with the plan's counts beside it
    (:func:`with_counts`), and with ``per_query`` the per-query rows after it (:func:`with_per_query_rows`)."""
    ctes = [(step.name, step.sql) for step in plan.steps] + [(count.name, count.sql) for count in plan.counts]
    statement = with_counts(over_ctes(ctes, plan.summary) if ctes else plan.summary,
                            [(count.name, list(count.columns)) for count in plan.counts])
    count_names = [column for count in plan.counts for column in count.columns]
    if not per_query:
        return WarehouseStatement(statement, count_names, None, None)
    combined, summary_names, per_query_names = with_per_query_rows(statement, plan.per_query, plan.order)
    return WarehouseStatement(combined, count_names, summary_names, per_query_names)


def per_query_order(resolved: Rendered) -> str:
    """ORDER BY of the per-query rows as given back: (segments,) query, k; or by measure as asked."""
    context = resolved.context
    first = "".join(f"{s} ASC NULLS LAST, " for s in context.segment_cols)
    query = context.output_query_col
    if resolved.measures is None:
        return f"{first}{query} ASC NULLS LAST, k ASC NULLS LAST"
    place = "CASE measure" + "".join(f" WHEN {m['name_sql']} THEN {m['order']}" for m in context.measures or ()) + " END"
    return f"{place} ASC NULLS FIRST, {first}{query} ASC NULLS LAST"


def evaluated(summary: list[dict], resolved: Rendered) -> int:
    """How many queries (with segments, (segment, query) pairs) were evaluated: the sum, over
    the summary rows of the first cutoff or measure, of their ``evaluated`` count."""
    first: int | str | None
    if resolved.measures is None:
        first_key, first = "k", resolved.options.cutoffs[0]
    else:
        first_key, first = "measure", resolved.measures[0].name
    return sum(int(row["evaluated"] or 0) for row in summary if row[first_key] == first)


def sql_plan(
    table: str | Sequence[str] | None = None,
    *,
    file: str | None = None,
    judgments_table: str | Sequence[str] | None = None,
    judgments_file: str | None = None,
    dialect: str = DEFAULTS.dialect,
    item_type: str = DEFAULTS.item_type,
    segmented_judgments: bool = DEFAULTS.segmented_judgments,
    id_types: Mapping[str, str] | Iterable[str] | None = DEFAULTS.id_types,
    **options: Any,
) -> tuple[context.Rendered, dialects.Dialect]:
    """The options of :func:`ndcg_sql.to_sql` resolved for its dialect: (resolved options and context, dialect).
    ``options``: the metric options of :func:`ndcg_sql.to_sql`.

    Raises:
        OptionError: as :func:`ndcg_sql.to_sql`.
        TypeError: an option that is not a metric option.
    """
    unknown = set(options) - set(METRIC)
    if unknown:
        raise TypeError(f"sql_plan() got unexpected keyword arguments: {', '.join(sorted(unknown))}")
    if (table is None) == (file is None):
        raise OptionError("give exactly one of table and file")
    target = dialects.get(dialect)
    if target.name != "duckdb" and (file is not None or judgments_file is not None):
        raise OptionError(f"files can be read by DuckDB only; for {target.name} give table names")
    run = table_name(table, target.name) if table is not None else file_relation(str(file), "run")
    judged = None
    if judgments_table is not None:
        judged = table_name(judgments_table, target.name)
    elif judgments_file is not None:
        judged = file_relation(judgments_file, "judgments")
    seen = context.Seen(id_types=id_type_names(id_types) if id_types is not None else None)
    resolved = context.resolve(Request(**options).metric(), judged is not None, dialect=target.name,
                               item_type=item_type, segmented_judgments=segmented_judgments)
    return context.render(resolved, run, judged, seen), target


def _rows(resolved: Rendered, what: str) -> str:
    """What one row of a statement of :func:`ndcg_sql.to_sql` is, for its header."""
    per = "(segment values, query" if resolved.segments else "(query"
    if what == "checks":
        return "one row per input check: the column, the problem and the rows breaking it (0: passes)"
    if what == "coverage":
        return "one row: how many queries were evaluated, judged, missing from the run"
    if what == "per_query":
        return (f"one row per {per}, measure): the measure's value" if resolved.measures is not None
                else f"one row per {per}, cutoff k): CG, DCG, IDCG and NDCG at k")
    kind = "measure" if resolved.measures is not None else "cutoff k"
    row = f"one row per ({'segment values, ' if resolved.segments else ''}{kind}): the mean over the queries"
    if resolved.intervals:
        row += ", its standard error and 95% interval"
    if resolved.bootstrap:
        row += f", a {resolved.bootstrap}-resample bootstrap interval"
    return row


def header(resolved: Rendered, dialect: dialects.Dialect, what: str) -> str:
    """The comment lines that open a statement of :func:`ndcg_sql.to_sql`: the package's version,
    the engine, what one row is, the options that made it (every value written by ``repr``, so no
    text of the user's ends the comment; the whole list as 'all') and what the statement does not
    check."""
    report = {key: value for key, value in resolved.report().items()
              if value is not None and key != "k_beyond_list"}
    if isinstance(report.get("k"), list):
        report["k"] = ["all" if k is None else k for k in report["k"]]
    if resolved.item_type_matters:  # the item-id tie-break: text ids in byte order, or numbers
        report["item_type"] = resolved.decided["options"].get("item_type")
    options = ", ".join(f"{key}={value!r}" for key, value in report.items())
    lines = [f"ndcg_sql {VERSION}, {dialect.name}: {_rows(resolved, what)}.", f"Options: {options}."]
    if what == "checks":
        lines.append("The checks a warehouse evaluation counts; a failing count above 0 is what evaluate() "
                     "refuses with an InputError naming the column and a few query ids.")
    else:
        lines.append("Input checks: none in this statement. NULL or NaN scores, NULL, NaN, negative or "
                     "non-numeric labels and duplicate (query, item) rows give wrong numbers here, not an "
                     "error. Gate on the checks' SQL first: the same call with what='checks' "
                     "(ndcg-sql sql --statement checks), or dbt's ndcg_valid_input.")
    wrapped = [part for line in lines for part in textwrap.wrap(line, 96, break_on_hyphens=False)]
    return "".join(f"-- {part}\n" for part in wrapped)
