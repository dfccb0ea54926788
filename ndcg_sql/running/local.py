""":func:`ndcg_sql.evaluate` on a DuckDB connection: the inputs as temp views (:mod:`ndcg_sql.data.inputs`),
their columns and rows checked (:mod:`ndcg_sql.building.validation`), the plan run (:mod:`ndcg_sql.running.runner`).

What the call creates on the connection is either dropped before it returns, on every path
(success, bad input, Ctrl-C), or listed in the result's :class:`~ndcg_sql.data.connections.Leftovers`,
dropped when the result is closed or collected; a connection opened here is the result's own
and closes with it. One call at a time runs on a connection (:func:`ndcg_sql.data.connections.turn`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Callable, NamedTuple, TypeVar

import duckdb

from ..building import context, id_types, plan, validation

from ..data import inputs

from . import runner

from ..vocabulary import activity, conventions, identifiers
from ..data.connections import Leftovers, check_connection_options, connect, set_threads, turn
from ..vocabulary.errors import InputError, OptionError, first_line, out_of_memory
from .executors import DuckDB, refuse_open_transaction, transaction_state
from ..vocabulary.parameters import Request
from .results import Result
from ..building.sql_text import file_format

T = TypeVar("T")


class Settings(NamedTuple):
    """evaluate's own options on DuckDB (ndcg_sql/vocabulary/parameters.py documents each)."""
    input_format: str | None
    judgments_format: str | None
    memory_limit: str | None
    threads: int | None
    temp_directory: str | os.PathLike[str] | None
    max_bootstrap_draws: int
    checks: str
    strict_memory_limit: bool


def evaluate(con: duckdb.DuckDBPyConnection | None, data, judgments, request: Request, resolved: context.Resolved,
             settings: Settings) -> Result:
    """:func:`ndcg_sql.evaluate` on ``con`` (None: a connection of the result's own), with its
    options as :func:`ndcg_sql.building.context.resolve` resolved them.

    Raises:
        OptionError, InputError: as :func:`ndcg_sql.evaluate`.
    """
    most = settings.max_bootstrap_draws
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        raise OptionError(f"max_bootstrap_draws must be a positive integer; got {most!r}")

    def planned(executor: DuckDB, rendered: context.Rendered, leftovers: Leftovers) -> tuple[Result, bool]:
        result = runner.run(executor, rendered, leftovers=leftovers, max_bootstrap_draws=most)
        # the per-query rows kept in a table read the inputs no more; else their relation reads them
        return result, not plan.keeps_per_query(rendered)

    return computed(con, data, judgments, request, resolved, settings, planned)


def computed(con: duckdb.DuckDBPyConnection | None, data, judgments, request: Request, resolved: context.Resolved,
             settings: Settings, compute: Callable[[DuckDB, context.Rendered, Leftovers], tuple[T, bool]]) -> T:
    """The inputs read and checked as :func:`ndcg_sql.evaluate` reads and checks them on ``con``
    (None: a connection of the result's own), then ``compute(executor, rendered, leftovers)``:
    evaluate's plan (:func:`evaluate`), or another computation over the same checked inputs
    (:func:`ndcg_sql.unjudged`). ``compute`` returns (what this returns, whether it reads the
    inputs' views still: then they are listed in ``leftovers``, else dropped).

    Raises:
        OptionError, InputError: as :func:`ndcg_sql.evaluate`.
    """
    owned = con is None
    check_connection_options(settings.memory_limit, settings.strict_memory_limit)  # on a caller's connection too
    if con is None:
        con = connect(settings.memory_limit, settings.threads, settings.temp_directory, settings.strict_memory_limit)
    leftovers = Leftovers(con, owned)
    try:
        with turn(con):
            if not owned:  # DuckDB has no savepoint: a failure inside the caller's transaction would discard it
                refuse_open_transaction(DuckDB(con).dialect, transaction_state(con))
            set_threads(con, settings.threads)
            return _evaluate(con, data, judgments, request, resolved, settings, leftovers, compute)
    except BaseException:
        leftovers.release()
        raise


def _evaluate(con, data, judgments, request: Request, resolved: context.Resolved, settings: Settings,
              leftovers: Leftovers, compute: Callable[[DuckDB, context.Rendered, Leftovers], tuple[T, bool]]) -> T:
    options = request.metric()
    views = []
    try:
        with activity.doing(con, "reading the input"):
            run_view, run_types = inputs.load(con, data, "run", settings.input_format)
            views.append(run_view)
            judgment_types = judgments_view = None
            if judgments is not None:
                judgments_view, judgment_types = inputs.load(con, judgments, "judgments", settings.judgments_format,
                                                             conventions.labels_by_atol(resolved.convention))
                views.append(judgments_view)
        relations = (identifiers.quote(run_view), identifiers.quote(judgments_view) if judgments_view else None)
        columns = validation.Columns.of(options, resolved.order_col, judgments is not None, resolved.label)
        try:
            validation.check_columns(run_types, judgment_types, columns, resolved.options.input_kind)
        except InputError:  # a CSV file's columns missing: a line DuckDB's sniffer could not fit, if one is
            for given, types, role, fmt in ((data, run_types, "run", settings.input_format),
                                            (judgments, judgment_types, "judgments", settings.judgments_format)):
                problem = inputs.csv_problem(con, given, role, fmt, list(types or ()))
                if problem is not None:
                    raise InputError(problem) from None
            raise
        checks = validation.checks_for(resolved.options, columns.roles(), **resolved.label_checks())
        # how ids are compared, from their types (ndcg_sql/building/id_types.py): explicit casts, never implicit
        as_text = conventions.ids_as_text(resolved.convention)
        id_forms = id_types.forms(run_types, judgment_types, columns, as_text=as_text).forms
        if resolved.label is not None:
            where = "judgments" if judgments is not None else "ranking"
            labelled = relations[1] or relations[0]  # the judgments' when given
            validation.check_label_type(inputs.expression_type(con, labelled, resolved.label, where), resolved.label,
                                      where)
        segmented = validation.segmented_judgments(run_types, judgment_types, resolved.segments,
                                                 resolved.options.missing_queries)
        seen = context.Seen(segmented_judgments=segmented, id_forms=id_forms)
        executor = DuckDB(con)
        trusted = settings.checks == "trusted"
        with activity.doing(con, "reading the lists' lengths and labels" if trusted else "checking the input"):
            # the checks' first pass, then (when it found something) their counts and listings: plans the
            # executor runs; what the pass finds shapes the metric's SQL, so it runs before that plan is built
            checking = context.render(resolved, *relations, seen).context
            profile = validation.read_profile(executor.run_checks(validation.profile_plan(checking, checks, trusted)),
                                              checking, checks, trusted)
            if profile.to_count:
                runner.check_input(executor, checking, checks, request.query_col, revealed=profile.revealed,
                                   must_find=profile.must_find)
        rendered = context.render(resolved, *relations, replace(seen, longest_list=profile.longest_list,
                                                                 labels=profile.labels))
        result, reads_inputs = compute(executor, rendered, leftovers)
    except duckdb.Error as error:
        try:
            if isinstance(error, (duckdb.ResourceInUseException, duckdb.InterruptException)):
                raise  # DuckDB's own words: the connection is busy elsewhere, or was interrupted
            # the checks passed, yet DuckDB refused: never its raw exception, but what it read
            if isinstance(error, duckdb.OutOfMemoryException):
                raise InputError(out_of_memory(error)) from error
            _refuse_unreadable(con, error, ((data, "run", settings.input_format, views[:1]),
                                            (judgments, "judgments", settings.judgments_format, views[1:])))
            raise InputError(engine_failure("DuckDB", data, judgments, options, error, settings.checks)) from error
        finally:
            for view in views:
                inputs.drop(con, view)
    except BaseException:
        for view in views:
            inputs.drop(con, view)
        raise
    if not reads_inputs:
        for view in views:  # what the computation returns reads the inputs no more
            inputs.drop(con, view)
    else:  # what it returns reads them when it is read
        for view in views:
            leftovers.add("VIEW", view)
    return result


def _refuse_unreadable(con, error: duckdb.Error, inputs_read) -> None:
    """Raise InputError naming the input file DuckDB failed to read, when it is a file that
    cannot be read (a corrupt Parquet page, a CSV line with more fields than the header, malformed
    JSON): the file DuckDB's error names, or else the Parquet file whose every value cannot be read
    (a corrupt page may fail with words that name no file; only then is the file read again).

    Args:
        inputs_read: (the input as given, its role, its format option, [its view] or []) for the
            ranking and the judgments.
    """
    named = inputs.read_file_named(error, *(data for data, *_ in inputs_read))
    if named is not None:
        raise InputError(f"cannot read {named}: {inputs.read_failure(error)}") from error
    for data, role, fmt, views in inputs_read:
        if isinstance(data, (str, Path)) and views and file_format(str(data), role, fmt) == "parquet":
            failed = inputs.unreadable(con, views[0])
            if failed is not None:
                raise InputError(f"cannot read {data}: {inputs.read_failure(failed)} (DuckDB could not read "
                                 "every value of it: a corrupt or truncated file?)") from error


def engine_failure(engine: str, data, judgments, options: dict, error: BaseException, checks: str = "all") -> str:
    """The message of an engine's failure on input the checks let through (or, with
    ``checks="trusted"``, did not look at): the inputs, the columns read and the engine's own
    first line (no raw engine exception reaches a user)."""
    described = data if isinstance(data, (str, Path)) else f"a {type(data).__name__}"
    if judgments is not None:
        described = f"{described} with judgments " + (
            str(judgments) if isinstance(judgments, (str, Path)) else f"a {type(judgments).__name__}")
    order = options.get("rank_col") or options.get("score_col") or "score"
    columns = ", ".join(repr(c) for c in (options["query_col"], options["item_col"], order) if c)
    if checks == "trusted":
        return (f"{engine} could not compute on {described} (columns {columns}): {first_line(error)} "
                "(checks='trusted': the input was not checked; checks='all' names what is wrong)")
    return (f"{engine} could not compute on {described} (columns {columns}): {first_line(error)}. The input "
            "checks found nothing wrong; please report this with the column types")
