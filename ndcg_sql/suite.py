"""Named measures, segments, intervals and bootstrap: which templates run, in what order.

Nothing is computed here: the SQL templates compute every number; this module
chooses which templates to render and with what (parsed, validated) context,
as a chain of steps, each a query over the relations of earlier steps. Where
the steps live is the executor's business (:class:`TempTables`: DuckDB temp
tables, one per step; :class:`Ctes`: the CTEs of one statement sent to a
warehouse, :mod:`ndcg_sql.warehouse`), so DuckDB and every warehouse run the
same SQL.
"""

from __future__ import annotations

import dataclasses
import math

from sqlglot import exp

from . import templates
from .identifiers import quote
from .inputs import new_view_name
from .measures import GRADED, Measure, check_ties

#: The per-query NDCG row column that holds each graded family.
GRADED_COLUMN = {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"}
#: Modulus of the portable random generator (sql/random_draws.sql.j2): 2^31 - 1.
RANDOM_PRIME = 2**31 - 1


def graded_cutoffs(measures: tuple[Measure, ...]) -> tuple:
    """The cutoffs the NDCG SQL must compute for the graded measures asked."""
    return tuple(dict.fromkeys(m.k for m in measures if m.family in GRADED))


def measure_context(measures: tuple[Measure, ...], ties: str) -> dict:
    """Template context for ``measures_per_query`` / ``measure_rows``.

    Raises:
        OptionError: AP, RR or Success with ties="average".
    """
    check_ties(measures, ties)
    thresholds: dict[float, int] = {}
    named, graded, binary = [], [], []
    for order, m in enumerate(measures, start=1):
        named.append({"order": order, "name_sql": exp.Literal.string(m.name).sql()})
        if m.family in GRADED:
            graded.append({"order": order, "k": m.k, "column": GRADED_COLUMN[m.family]})
        else:
            threshold_id = thresholds.setdefault(m.threshold, len(thresholds) + 1)
            binary.append({"id": order, "order": order, "family": m.family, "k": m.k, "threshold_id": threshold_id})
    return {
        "measures": named,
        "graded_measures": graded,
        "binary_measures": binary,
        "thresholds": [{"id": i, "value": repr(float(v))} for v, i in thresholds.items()],
    }


def definitions(measures: tuple[Measure, ...]) -> list[dict]:
    """Formula and source of each measure (for reports)."""
    return [m.definition() for m in measures]


def with_cutoffs(options, cutoffs):
    """``options`` computing the NDCG rows at ``cutoffs`` only."""
    return dataclasses.replace(options, cutoffs=cutoffs)


# ------------------------------------------------------------------ executors


class TempTables:
    """Steps as DuckDB temp tables: each step runs once, later steps read its table."""

    def __init__(self, con):
        self.con = con
        self.names: dict[str, str] = {}  # quoted name -> table name

    def add(self, name: str, sql: str) -> str:
        """Create the step's table; return its quoted name."""
        table = new_view_name(name)
        self.con.execute(f"CREATE TEMP TABLE {quote(table)} AS {sql}")
        self.names[quote(table)] = table
        return quote(table)

    def fetch(self, sql: str) -> tuple[list[str], list[tuple]]:
        cursor = self.con.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()


class Ctes:
    """Steps as CTEs of one statement per fetch (a warehouse runs the whole chain each time).

    ``fetch`` runs a DuckDB-source sqlglot tree on the warehouse
    (:func:`ndcg_sql.warehouse.fetcher`).
    """

    def __init__(self, fetch):
        self.parts: list[tuple[str, str]] = []
        self._fetch = fetch

    def add(self, name: str, sql: str) -> str:
        self.parts.append((name, sql))
        return name

    def statement(self, sql: str) -> exp.Expression:
        from .sql_text import over_ctes  # sql_text imports evaluate, which imports this module

        return over_ctes(self.parts, sql)

    def fetch(self, sql: str) -> tuple[list[str], list[tuple]]:
        return self._fetch(self.statement(sql))


# ------------------------------------------------------------------ the steps


@dataclasses.dataclass(frozen=True)
class Shape:
    """What the per-query rows and the summary look like (column names in
    order, as the templates write them; group columns; SQL order keys)."""

    per_query_columns: tuple[str, ...]   # quoted names
    per_query_order: str
    summary_columns: tuple[str, ...]     # quoted names
    group_cols: tuple[str, ...]          # quoted per-query columns the summary groups by
    summary_order: str                   # over the summary's columns, as s.<name>


def shape(context: dict, measures, intervals_summary: bool = True) -> Shape:
    """The :class:`Shape` of a computation (``context["segment_cols"]`` are quoted names)."""
    segments = tuple(context["segment_cols"])
    query = context["output_query_col"]
    first = "".join(f"{s} ASC NULLS LAST, " for s in segments)
    if measures is None:
        per_query = (*segments, query, "k", "cg", "dcg", "idcg", "ndcg")
        per_query_order = f"{first}{query} ASC NULLS LAST, k ASC NULLS LAST"
        if segments:
            summary = (*segments, "k", "ndcg", "queries", "stderr", "ci_low", "ci_high")
        else:
            summary = ("k", "ndcg", "queries", "no_relevant", "ndcg_stderr", "ndcg_ci_low", "ndcg_ci_high")
        group = (*segments, "k")
        order = "".join(f"s.{s} ASC NULLS LAST, " for s in segments) + "s.k ASC NULLS LAST"
    else:
        places = measure_context(measures, context["ties"])["measures"]
        place = "CASE measure" + "".join(f" WHEN {m['name_sql']} THEN {m['order']}" for m in places) + " END"
        per_query = (*segments, query, "measure", "value")
        per_query_order = f"{place} ASC NULLS FIRST, {first}{query} ASC NULLS LAST"
        summary = (*segments, "measure", "mean", "queries", "stderr", "ci_low", "ci_high")
        group = (*segments, "measure")
        order = "".join(f"s.{s} ASC NULLS LAST, " for s in segments) + place.replace("CASE measure", "CASE s.measure") + " ASC NULLS FIRST"
    return Shape(per_query, per_query_order, summary, group, order)


def per_query_rows(steps, context: dict, measures) -> str:
    """The per-query rows as a step: the NDCG rows, or the long rows (query,
    measure, value) of named measures; returns the step's relation."""
    graded = measures is None or graded_cutoffs(measures)
    per_query = steps.add("per_query_rows", templates.render("per_query.sql.j2", **context)) if graded else None
    if measures is None:
        return per_query
    mcontext = {**context, **measure_context(measures, context["ties"])}
    binary = None
    if mcontext["binary_measures"]:
        binary = steps.add("binary_measure_rows", templates.render("measures_per_query.sql.j2", **mcontext))
    return steps.add("measure_rows", templates.render(
        "measure_rows.sql.j2", **{**mcontext, "per_query_relation": per_query, "binary_relation": binary},
    ))


def summary_sql(context: dict, per_query: str, measures, shape_: Shape) -> str:
    """One statement: the summary with intervals, per segment
    (sql/segment_summary.sql.j2), per measure (sql/measure_summary.sql.j2)
    or per k (sql/summary_with_intervals.sql.j2)."""
    base = _without_relation(context)
    if context["segment_cols"]:
        if measures is None:
            grouped, mean_name, value = "k", "ndcg", "ndcg"
            group_order = f"group_{len(shape_.group_cols)} ASC NULLS LAST"
        else:
            grouped, mean_name, value = "measure", "mean", "value"
            places = measure_context(measures, context["ties"])["measures"]
            group_order = f"CASE group_{len(shape_.group_cols)}" + "".join(
                f" WHEN {m['name_sql']} THEN {m['order']}" for m in places) + " END ASC NULLS FIRST"
        return templates.render(
            "segment_summary.sql.j2", per_query_relation=per_query, group_cols=list(shape_.group_cols),
            value_col=value, group_name=grouped, mean_name=mean_name, group_order=group_order, **base,
        )
    if measures is not None:
        return templates.render(
            "measure_summary.sql.j2", per_query_relation=per_query, group_cols=["measure"], value_col="value",
            output_query_col=context["output_query_col"],
            measures=measure_context(measures, context["ties"])["measures"],
        )
    return templates.render(
        "summary_with_intervals.sql.j2", per_query_relation=per_query, group_cols=["k"], value_col="ndcg", **base,
    )


def quantile_place(replicates: int, q: float) -> dict:
    """Where the q quantile of ``replicates`` sorted values lies (numpy's
    linear method): 0-based place floor((R - 1) q) and the weight of the next."""
    h = (replicates - 1) * q
    place = math.floor(h)
    weight = h - place
    if place + 1 >= replicates:
        weight = 0.0
    return {"place": place, "weight": float(weight), "weight_sql": repr(float(weight))}


def bootstrap_sql(context: dict, per_query: str, summary: str, measures, shape_: Shape,
                  replicates: int, seed: int) -> str:
    """One statement: ``summary`` with bootstrap_low and bootstrap_high, the
    95% percentile bootstrap interval of each mean (per segment too;
    sql/bootstrap_intervals.sql.j2)."""
    return templates.render(
        "summary_with_bootstrap.sql.j2", summary_relation=summary, summary_columns=list(shape_.summary_columns),
        summary_order=shape_.summary_order, per_query_relation=per_query, group_cols=list(shape_.group_cols),
        value_col="ndcg" if measures is None else "value", replicates=int(replicates),
        seed_state=int(seed) % RANDOM_PRIME, quantile_low=quantile_place(replicates, 0.025),
        quantile_high=quantile_place(replicates, 0.975), output_query_col=context["output_query_col"],
        query_order=context.get("query_order", context["output_query_col"]),
    )


def evaluated_sql(context: dict, per_query: str, measures=None) -> str:
    """One statement: how many queries (with segments, (segment, query) pairs) the per-query rows hold."""
    if measures is not None:
        first = f"measure = {measure_context(measures, context['ties'])['measures'][0]['name_sql']}"
    else:
        k = context["cutoffs"][0]["k"]
        first = "k IS NULL" if k is None else f"k = {int(k)}"
    return templates.render("evaluated_count.sql.j2", per_query_relation=per_query, first_row=first)


def plan_all(steps, context: dict, measures, bootstrap: int, seed: int) -> tuple[str, str, Shape]:
    """Add the per-query rows (and, with bootstrap, the plain summary) as
    steps. Returns (per-query relation, the summary statement, shape)."""
    shape_ = shape(context, measures)
    per_query = per_query_rows(steps, context, measures)
    summary = summary_sql(context, per_query, measures, shape_)
    if bootstrap:
        summary = bootstrap_sql(context, per_query, steps.add("plain_summary", summary), measures, shape_,
                                bootstrap, seed)
        shape_ = dataclasses.replace(shape_, summary_columns=(*shape_.summary_columns, "bootstrap_low", "bootstrap_high"))
    return per_query, summary, shape_


def report_options(report: dict, measures, segments, bootstrap: int, seed: int) -> None:
    """Record in ``report`` the measures, segments and bootstrap of a computation."""
    if measures is not None:
        report["measures"] = [m.name for m in measures]
        report["k"] = None
    if segments:
        report["segments"] = list(segments)
    if bootstrap:
        report["bootstrap"] = {"replicates": bootstrap, "seed": seed}


def run_all(con, context: dict, measures, segments, bootstrap: int, seed: int, report: dict) -> tuple[str, str, dict]:
    """DuckDB: keep the per-query rows and the summary in temp tables.
    Returns (per-query table, summary table, {"evaluated": n}) (unquoted names)."""
    steps = TempTables(con)
    per_query, summary, _ = plan_all(steps, context, measures, bootstrap, seed)
    evaluated = con.execute(evaluated_sql(context, per_query, measures)).fetchall()[0][0]
    summary_table = steps.add("summary", summary)
    report_options(report, measures, segments, bootstrap, seed)
    return steps.names[per_query], steps.names[summary_table], {"evaluated": evaluated}


def _without_relation(context: dict) -> dict:
    return {key: value for key, value in context.items() if key != "per_query_relation"}
