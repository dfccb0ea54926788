"""Running named measures (``evaluate(..., measures=[...])``) and the summary intervals.

Nothing is computed here: the SQL templates compute every number; this module
chooses which templates to render and with what (parsed, validated) context.
"""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from . import templates
from .identifiers import quote
from .inputs import new_view_name
from .measures import GRADED, Measure, check_ties

#: The per-query NDCG row column that holds each graded family.
GRADED_COLUMN = {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"}


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


def run_measures(con, context: dict, measures: tuple[Measure, ...], per_query_table: str | None) -> str:
    """Create the long per-query table (query, measure, value); return its name.

    ``per_query_table`` holds the NDCG rows when a graded measure is asked.
    """
    mcontext = {**context, **measure_context(measures, context["ties"])}
    binary_table = None
    if mcontext["binary_measures"]:
        binary_table = new_view_name("binary_measures")
        sql = templates.render("measures_per_query.sql.j2", **mcontext)
        con.execute(f"CREATE TEMP TABLE {quote(binary_table)} AS {sql}")
    rows_table = new_view_name("measure_rows")
    sql = templates.render(
        "measure_rows.sql.j2",
        per_query_relation=quote(per_query_table) if per_query_table else None,
        binary_relation=quote(binary_table) if binary_table else None,
        **mcontext,
    )
    con.execute(f"CREATE TEMP TABLE {quote(rows_table)} AS {sql}")
    if binary_table:
        con.execute(f"DROP TABLE {quote(binary_table)}")
    return rows_table


def measure_summary(con, context: dict, measures: tuple[Measure, ...], rows_table: str) -> str:
    """Create the summary of the long table: one row per measure (asked order)
    with mean, queries, stderr, ci_low, ci_high; return its name."""
    summary = new_view_name("measure_summary")
    sql = templates.render(
        "measure_summary.sql.j2",
        per_query_relation=quote(rows_table),
        group_col="measure",
        value_col="value",
        output_query_col=context["output_query_col"],
        measures=measure_context(measures, context["ties"])["measures"],
    )
    con.execute(f"CREATE TEMP TABLE {quote(summary)} AS {sql}")
    return summary


def summarise(con, context: dict, per_query_table: str, measures, segments, report: dict) -> tuple[str, str]:
    """The summary with intervals: per segment (:func:`segment_tables`), per
    measure (:func:`measure_summary`) or per k (:func:`summary_with_intervals`).
    Adds what it did to ``report``; returns the (per-query, summary) table names."""
    if measures is not None:
        report["measures"] = [m.name for m in measures]
        report["k"] = None
    if segments:
        report["segments"] = list(segments)
        return segment_tables(con, context, per_query_table, measures)
    summary = new_view_name("summary")
    if measures is not None:
        return per_query_table, measure_summary(con, context, measures, per_query_table)
    sql = summary_with_intervals(context, per_query_table)
    con.execute(f"CREATE TEMP TABLE {quote(summary)} AS {sql}")
    return per_query_table, summary


def summary_with_intervals(context: dict, per_query_table: str) -> str:
    """SQL of the NDCG summary (sql/summary.sql.j2) with the standard error and
    95% interval of each mean (sql/mean_intervals.sql.j2) as extra columns."""
    return templates.render(
        "summary_with_intervals.sql.j2",
        per_query_relation=quote(per_query_table),
        group_col="k",
        value_col="ndcg",
        **{key: value for key, value in context.items() if key != "per_query_relation"},
    )


def definitions(measures: tuple[Measure, ...]) -> list[dict]:
    """Formula and source of each measure (for reports)."""
    return [m.definition() for m in measures]


def with_cutoffs(options, cutoffs):
    """``options`` computing the NDCG rows at ``cutoffs`` only."""
    return dataclasses.replace(options, cutoffs=cutoffs)


def segment_tables(con, context: dict, per_query_table: str, measures: tuple[Measure, ...] | None) -> tuple[str, str]:
    """With segment columns: the per-query table with the segments unpacked
    (sql/segment_rows.sql.j2) and a summary per (segment, k) or (segment,
    measure) with mean, queries, stderr and interval (sql/segment_summary.sql.j2).
    Returns the two new table names."""
    rows = new_view_name("segment_rows")
    con.execute(
        f"CREATE TEMP TABLE {quote(rows)} AS "
        + templates.render("segment_rows.sql.j2", per_query_relation=quote(per_query_table), **_without_relation(context))
    )
    segments = context["segment_cols"]
    if measures is None:
        grouped, group_name, mean_name, value = "k", "k", "ndcg", "ndcg"
        group_order = "group_key.grouped ASC NULLS LAST"
    else:
        grouped, group_name, mean_name, value = "measure", "measure", "mean", "value"
        places = measure_context(measures, context["ties"])["measures"]
        group_order = "CASE group_key.grouped" + "".join(
            f" WHEN {m['name_sql']} THEN {m['order']}" for m in places) + " END ASC"
    group_col = "STRUCT_PACK(" + "".join(f"segment_{i} := {s}, " for i, s in enumerate(segments, 1)) + f"grouped := {grouped})"
    summary = new_view_name("segment_summary")
    con.execute(
        f"CREATE TEMP TABLE {quote(summary)} AS "
        + templates.render(
            "segment_summary.sql.j2", per_query_relation=quote(rows), group_col=group_col, value_col=value,
            group_name=group_name, mean_name=mean_name, group_order=group_order, **_without_relation(context),
        )
    )
    con.execute(f"DROP TABLE {quote(per_query_table)}")
    return rows, summary


def _without_relation(context: dict) -> dict:
    return {key: value for key, value in context.items() if key != "per_query_relation"}


def add_bootstrap(con, summary_table: str, per_query_table: str, measures, context: dict,
                  replicates: int, seed: int) -> str:
    """A new summary table: ``summary_table`` with bootstrap_low and
    bootstrap_high, the 95% percentile bootstrap interval of each mean
    (sql/bootstrap_intervals.sql.j2); returns its name."""
    group = "k" if measures is None else "measure"
    value = "ndcg" if measures is None else "value"
    table = new_view_name("summary_bootstrap")
    sql = templates.render(
        "summary_with_bootstrap.sql.j2", summary_relation=quote(summary_table),
        per_query_relation=quote(per_query_table), group_col=group, value_col=value,
        replicates=int(replicates), seed=int(seed), output_query_col=context["output_query_col"],
    )
    con.execute(f"CREATE TEMP TABLE {quote(table)} AS {sql}")
    con.execute(f"DROP TABLE {quote(summary_table)}")
    return table


def run_all(con, context: dict, per_query_sql: str, measures, segments, intervals: bool, bootstrap: int,
            seed: int, report: dict) -> tuple[str, str, dict]:
    """Keep the per-query rows in a table (the NDCG rows, or the long rows of
    named measures), count the evaluated queries and build the summary with
    intervals (:func:`summarise`) and bootstrap bounds (:func:`add_bootstrap`).
    Returns (per-query table, summary table, {"evaluated": n})."""
    graded = measures is None or graded_cutoffs(measures)
    per_query_table = new_view_name("per_query")
    if graded:
        con.execute(f"CREATE TEMP TABLE {quote(per_query_table)} AS {per_query_sql}")
    if measures is not None:
        rows_table = run_measures(con, context, measures, per_query_table if graded else None)
        if graded:
            con.execute(f"DROP TABLE {quote(per_query_table)}")
        per_query_table = rows_table
    count_sql = templates.render("evaluated_count.sql.j2", per_query_relation=quote(per_query_table),
                                 output_query_col=context["output_query_col"])
    evaluated = con.execute(count_sql).fetchall()[0][0]
    per_query_table, summary_table = summarise(con, context, per_query_table, measures, segments, report)
    if bootstrap:
        summary_table = add_bootstrap(con, summary_table, per_query_table, measures, context, bootstrap, seed)
        report["bootstrap"] = {"replicates": bootstrap, "seed": seed}
    return per_query_table, summary_table, {"evaluated": evaluated}
