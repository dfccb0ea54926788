"""Checking the data before the metric SQL runs: the columns exist with usable types, the
segment columns are where they must be, and the input checks of :mod:`ndcg_sql.validation`
pass. Every failure is an :class:`~ndcg_sql.errors.InputError` naming the column and a few
query ids. Works on any executor: a ``fetch`` runs one DuckDB-source statement and returns
(column names, rows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping

from . import templates, validation
from .errors import InputError, OptionError
from .labels import LabelExpression
from .parameters import CHECKS, MAX_EXPONENTIAL_LABEL, MAX_QUERY_GAIN_EXPONENT

Fetch = Callable[[str], tuple[list, list]]
#: The option naming a column of each role, as Python and the command line spell it.
ROLE_OPTIONS = {role: f"{name}= / --{name.replace('_', '-')}" for role, name in (
    ("query", "query_col"), ("item", "item_col"), ("score", "score_col"), ("rank", "rank_col"),
    ("label", "label_col"), ("row order", "row_col"), ("weight", "weight_col"), ("segment", "segments"))}
ROLE_OPTIONS["label"] += " (or compute one: label= / --label)"


@dataclass
class Columns:
    """User column names by role (the run's, and the judgments')."""

    query: str
    item: str
    order: str
    label: str | None
    j_query: str | None = None
    j_item: str | None = None
    j_label: str | None = None
    row: str | None = None
    weight: str | None = None
    #: a label expression instead of a label column (label / j_label then hold its text)
    label_expression: LabelExpression | None = None

    def roles(self) -> dict[str, str]:
        return {key: value for key, value in self.__dict__.items()
                if value is not None and key != "label_expression"}

    @classmethod
    def of(cls, options: dict, order_col: str, judged: bool, label: LabelExpression | None = None) -> "Columns":
        """The columns of ``options`` (the metric options as given) by role; ``label``: the
        parsed label expression, when one replaces the label column."""
        label_name = label.shown if label is not None else options["label_col"]
        columns = cls(options["query_col"], options["item_col"], order_col,
                      None if judged else label_name, row=options["row_col"], label_expression=label,
                      weight=options.get("weight_col"))
        if judged:
            columns.j_query, columns.j_item, columns.j_label = (options["query_col"], options["item_col"], label_name)
        return columns

    def label_wanted(self, label: str | None) -> list[tuple[str, str]]:
        """(role, column) pairs the labelled relation must have: the label column (if any), or
        every column the label expression reads."""
        if self.label_expression is None:
            return [("label", label)] if label is not None else []
        return [("label expression", name) for name in self.label_expression.columns]


def check_columns(run_types: dict[str, str], judgment_types: dict[str, str] | None, columns: Columns,
                  input_kind: str) -> None:
    """The user's columns exist (:func:`require_columns`) with usable types (types: DuckDB type
    name by column).

    Raises:
        InputError: a column missing, or of a type that is neither number nor text.
    """
    require_columns(run_types, judgment_types, columns, input_kind)
    expression = columns.label_expression is not None
    if judgment_types is not None:
        if columns.j_label is not None and not expression:
            validation.check_types(judgment_types, {columns.j_label: "label"}, "judgments")
        roles = {columns.order: input_kind}
    else:
        roles = {columns.order: input_kind, **({} if columns.label is None or expression else {columns.label: "label"})}
    validation.check_types(run_types, roles, "ranking")
    for column, what in ((columns.row, "row numbers"), (columns.weight, "weights")):
        if column is not None and run_types[column].split("(")[0].upper() not in validation.NUMERIC_TYPES:
            raise InputError(f"column {column!r} of the ranking has type {run_types[column]}; {what} must be numbers")


def wanted_columns(columns: Columns, input_kind: str, judged: bool) -> tuple[list[tuple[str, str]],
                                                                             list[tuple[str, str]] | None]:
    """The columns the ranking and the judgments (None without them) must have, as (role, name)
    pairs: the query, item and score or rank columns, the label column or the columns a label
    expression reads (of the judgments, when given), the row order and weight columns."""
    ranking = [("query", columns.query), ("item", columns.item), (input_kind, columns.order)]
    if not judged:
        ranking += columns.label_wanted(columns.label)
    ranking += [(role, name) for role, name in (("row order", columns.row), ("weight", columns.weight))
                if name is not None]
    if not judged:
        return ranking, None
    ids = [(role, name) for role, name in (("query", columns.j_query), ("item", columns.j_item)) if name is not None]
    return ranking, [*ids, *columns.label_wanted(columns.j_label)]


def require_columns(run_columns, judgment_columns, columns: Columns, input_kind: str) -> None:
    """The ranking and the judgments have the columns :func:`wanted_columns` names.

    Args:
        run_columns, judgment_columns: the names of their columns (a collection, or a dict by
            name), as the user writes them; judgment_columns None without judgments.

    Raises:
        InputError: a column missing, named with the columns that exist (:func:`require`).
    """
    ranking, judgments = wanted_columns(columns, input_kind, judgment_columns is not None)
    require(run_columns, ranking, "ranking")
    if judgments is not None:
        require(judgment_columns, judgments, "judgments")


def require(types, wanted: dict[str, str] | list[tuple[str, str]], where: str) -> None:
    """Raise InputError naming every wanted column (by role: a dict, or (role, name) pairs)
    that ``types`` (the relation's column names: a collection, or a dict by name) lacks."""
    pairs = list(wanted.items() if isinstance(wanted, dict) else wanted)
    missing = [f"column {name!r} (read by the label expression)" if role == "label expression"
               else f"{role} column {name!r}" for role, name in pairs if name not in types]
    if missing:
        options = [ROLE_OPTIONS[role] for role, name in pairs if name not in types and role in ROLE_OPTIONS]
        hint = f" (name yours with {', '.join(options)})" if options else ""
        has = "have" if where == "judgments" else "has"
        raise InputError(f"the {where} {has} no {', no '.join(missing)}; its columns are: {', '.join(types)}{hint}")


def check_label_type(type_name: str, label: LabelExpression, where: str) -> None:
    """The label expression gives numbers (or text holding numbers) on ``where``.

    Raises:
        InputError: it gives values of another type (dates, lists, ...).
    """
    if type_name.split("(")[0].upper() not in validation.NUMERIC_TYPES + validation.TEXT_TYPES:
        raise InputError(f"the label expression {label.shown!r} gives {type_name} values on the {where}; "
                         "labels must be numbers")


def segmented_judgments(run_types: dict, judgment_types: dict | None, segments, missing_queries: str) -> bool:
    """Check the segment columns on the data; True when the judgments carry them all (then
    judgments are per (segment, query)).

    Raises:
        InputError: a segment column missing from the ranking; some but not all segment
            columns in the judgments; missing_queries="zero" with judgments that do not
            carry the segment columns.
    """
    if not segments:
        return False
    require(run_types, [("segment", s) for s in segments], "ranking")
    if judgment_types is None:
        return False
    present = [s for s in segments if s in judgment_types]
    if present and len(present) != len(segments):
        raise InputError(
            f"the judgments have the segment column(s) {', '.join(map(repr, present))} but not "
            f"{', '.join(repr(s) for s in segments if s not in judgment_types)}: give all segment columns "
            "(judgments per (segment, query)) or none (judgments per query, for every segment)"
        )
    if not present and missing_queries != "ignore":
        raise InputError(
            "segments with missing_queries='zero' need the segment columns "
            f"({', '.join(map(repr, segments))}) on the judgments too: a judged query absent from the run "
            "has no segment of its own. Give judgments per (segment, query) (e.g. the judgments repeated "
            "for each experiment arm), or use missing_queries='ignore'"
        )
    return bool(present)


def _counted_relations(checks: list[validation.Check]) -> list[dict]:
    """The checks by the relation they are counted on, as ``sql/validate_counts.sql.j2`` takes them."""
    relations: dict[str, list[dict]] = {}
    sources: dict[str, str | None] = {}
    for index, check in enumerate(checks):
        relations.setdefault(check.relation, []).append({"id": index, "condition": check.condition, "rows": check.rows})
        sources.setdefault(check.relation, check.source)
    return [{"name": name, "checks": items, "source": sources[name]} for name, items in relations.items()]


def counts_sql(context: dict, checks: list[validation.Check]) -> str:
    """One statement (``sql/validate_counts.sql.j2``) whose one row counts the rows of each input
    relation and the rows breaking each check: the columns :func:`count_columns` names."""
    return templates.render("validate_counts.sql.j2", relations=_counted_relations(checks), **context)


def count_columns(checks: list[validation.Check]) -> list[str]:
    """The columns of :func:`counts_sql`'s row: "<relation>_count" for each relation checked,
    "check_<i>" for each check, and "rows_<i>" for the checks whose relation rows stand for
    several input rows."""
    columns = []
    for relation in _counted_relations(checks):
        columns.append(f"{relation['name']}_count")
        for check in relation["checks"]:
            columns += [f"check_{check['id']}"] + ([f"rows_{check['id']}"] if check["rows"] else [])
    return columns


def validate(fetch: Fetch, context: dict, checks: list[validation.Check], query_col: str,
             counts: dict | None = None, revealed: Mapping[int, float] | None = None,
             must_find: bool = False) -> None:
    """Run the input checks, counting each; raise :class:`InputError` listing every failed one.

    Args:
        fetch: runs one DuckDB-source statement, returns (column names, rows).
        context: the template context; checks: from :func:`validation.checks_for`.
        query_col: the user's query column name, for the message.
        counts: the row of :func:`counts_sql` by :func:`count_columns`, when another statement
            fetched it already (a warehouse's summary carries it); else it is fetched here.
            Only a failed check costs more statements (a few query ids for its message).
        revealed: checks (by index) the first pass's aggregates showed failing, with the value
            seen (NaN, infinity): refused even when no row is counted.
        must_find: the first pass found a problem: when no check fails, the passes disagree
            and the input is refused, never computed on.

    Raises:
        InputError: a check failed or was revealed, or ``must_find`` and none failed.
    """
    if counts is None:
        names, rows = fetch(counts_sql(context, checks))
        counts = {name.lower(): value for name, value in zip(names, rows[0])}
    refuse_empty_inputs(counts)
    hidden = {index: seen for index, seen in (revealed or {}).items() if not int(counts[f"check_{index}"] or 0)}
    if hidden:  # the engine folded per-row tests by the input's false statistics: no other count is trusted
        raise InputError("bad input:\n  " + "\n  ".join(validation.describe_hidden(
            checks[index], seen, query_col, [r[0] for r in fetch(templates.render(
                "validate_examples.sql.j2", relation=checks[index].relation, source=None,
                condition=validation.as_text_condition(checks[index]), limit=validation.EXAMPLES + 1,
                **context))[1]]) for index, seen in hidden.items()))
    problems = []
    for index, check in enumerate(checks):
        failing = int(counts[f"check_{index}"] or 0)
        if not failing:
            continue
        examples = values = None
        if check.query_ids_known:
            examples = [r[0] for r in fetch(templates.render(
                "validate_examples.sql.j2", relation=check.relation, condition=check.condition,
                source=check.source, limit=validation.EXAMPLES + 1, **context))[1]]
        if check.values:
            values = [r[0] for r in fetch(templates.render(
                "validate_values.sql.j2", relation=check.relation, condition=check.condition,
                value=check.values, limit=validation.EXAMPLES + 1, **context))[1]]
        input_rows = int(counts[f"rows_{index}"] or 0) if check.rows else None
        problems.append(validation.describe_failure(check, failing, query_col, examples or [], input_rows, values))
    if must_find and not problems:
        problems.append(DISAGREEMENT)
    if problems:
        raise InputError("bad input:\n  " + "\n  ".join(problems))


#: The first pass found a problem that no check then counts: refused, never computed on.
DISAGREEMENT = ("the input checks disagree: the first pass found rows breaking a check, the count of each "
                "check found none (an engine answering a filter from the input's statistics?); nothing was "
                "computed. Write the input to a file or table afresh, or report this with the column types")


def checked_option(checks) -> None:
    """Raise OptionError unless ``checks`` (the option) is one of :data:`ndcg_sql.parameters.CHECKS`."""
    if not isinstance(checks, str) or checks not in CHECKS:
        raise OptionError(f"checks must be {' or '.join(map(repr, CHECKS))}; got {checks!r}")


def reported(result, checks: str):
    """``result`` (a Result), its options saying checks="trusted" when no input check was made."""
    if checks == "trusted":
        result.options["checks"] = checks
    return result


def refuse_empty_inputs(counts: dict) -> None:
    """Raise InputError when the ranking or the judgments have no rows ("run_rows_count",
    "judgment_rows_count" of ``validate_counts.sql.j2`` or ``validate_lists.sql.j2``)."""
    empty = [
        "the ranking has no rows" if name == "run_rows" else "the judgments have no rows"
        for name in ("run_rows", "judgment_rows")
        if counts.get(f"{name}_count") == 0
    ]
    if empty:
        raise InputError("; ".join(empty))


def profile_input(fetch: Fetch, context: dict, checks: list[validation.Check], query_col: str,
                  trusted: bool = False) -> dict:
    """The input checks in one pass per relation (``sql/validate_lists.sql.j2``, DuckDB).

    Only when something is wrong does :func:`validate` count each check and raise its
    message. Returns what the metric SQL may use to skip work (the results are the same):
    "longest_list", the items of the longest list (ranked list, or judged query with
    judgments), and "labels": (lowest, highest, how many are not whole numbers) of the
    labels the ideal ranking is built from.

    Args:
        trusted: checks="trusted": no check is made, only the same profile is read (a group-by
            per query, no sort) and an empty input refused.

    Raises:
        InputError: as :func:`validate` (trusted: only an empty ranking or judgments).
    """
    row_checks: dict[str, list[dict]] = {}
    extremes: dict[str, list[str]] = {}
    for index, check in enumerate(checks):
        if not check.relation.endswith("_duplicate_pairs") and check.source is None:
            row_checks.setdefault(check.relation, []).append({"id": index, "condition": check.condition})
            columns = extremes.setdefault(check.relation, [])
            if check.revealed_by is not None and check.revealed_by not in columns:
                columns.append(check.revealed_by)
    if trusted:
        row_checks = {name: [] for name in ("run_rows", "judgment_rows") if name in row_checks}
    names, rows = fetch(templates.render(
        "validate_lists.sql.j2",
        relations=[{"name": name, "checks": items, "extremes": extremes[name]} for name, items in row_checks.items()],
        trusted=trusted, **context,
    ))
    profile = {name.lower(): value for name, value in zip(names, rows[0])}
    refuse_empty_inputs(profile)
    labelled = "judgment_rows" if "judgment_rows" in row_checks else "run_rows"
    longest = max(profile[f"{name}_longest"] for name in row_checks)
    highest = profile[f"{labelled}_highest_label"]
    if not trusted:
        revealed = _revealed(profile, checks)
        found = any(profile[f"{name}_problems"] for name in row_checks) or bool(revealed)
        if found or (any(check.source is not None for check in checks) and not _gains_fit(context, highest, longest)):
            validate(fetch, context, checks, query_col, revealed=revealed, must_find=found)
    return {
        "longest_list": longest,
        "labels": [profile[f"{labelled}_{key}"] for key in ("lowest_label", "highest_label", "fractional_labels")],
    }


def _revealed(profile: dict, checks: list[validation.Check]) -> dict[int, float]:
    """The checks (by index) whose ``revealed_by`` column's extreme in ``profile`` they refuse, with it."""
    revealed = {}
    for index, check in enumerate(checks):
        if check.revealed_by is None:
            continue
        for end in ("lowest", "highest"):
            value = profile.get(f"{check.relation}_{check.revealed_by}_{end}")
            if isinstance(value, float) and (math.isnan(value) or (check.infinite and math.isinf(value))):
                revealed[index] = value
                break
    return revealed


def _gains_fit(context: dict, highest_label, longest: int) -> bool:
    """True when no query's gains can add up past 2^MAX_QUERY_GAIN_EXPONENT: the longest list
    times the largest gain is below it (then the per-query sums of the overflow check,
    :func:`ndcg_sql.validation._gain_total_check`, need not be computed)."""
    if highest_label is None or longest is None:
        return True
    if context["gain"] == "exponential":
        largest = 2.0 ** min(float(highest_label), float(MAX_EXPONENTIAL_LABEL))
    elif context["gain"] == "linear":
        largest = max(float(highest_label), 0.0)
    else:
        largest = max((abs(float(gain)) for _, gain in context["gain_mapping"]), default=0.0)
    return largest * int(longest) <= 2.0 ** MAX_QUERY_GAIN_EXPONENT / 2.0
