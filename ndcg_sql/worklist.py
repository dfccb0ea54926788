"""What to judge next: the unjudged items that runs show, as a worklist (:func:`unjudged`).

Each run is read, checked and ranked as :func:`ndcg_sql.evaluate` reads, checks and ranks it (the
same inputs, input checks, id rule, order and tie-break), by ``sql/unjudged_items.sql.j2`` on
DuckDB or on the warehouse connection; the runs' rows are then put together by
``sql/unjudged_worklist.sql.j2`` in a local DuckDB, as :func:`ndcg_sql.compare_runs` puts the
runs' per-query rows together. Files are written through :mod:`ndcg_sql.data.writing`.
"""

from __future__ import annotations

import csv
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, get_args

import duckdb
from sqlglot import exp

from .building import context, templates
from .building.plan import Step
from .compare import _local_rows_table, _named_runs, _query_ids_alike_all
from .data import writing
from .data.connections import Leftovers, check_connection_options, connect, drop, turn
from .data.inputs import new_view_name
from .running import local, runner, warehouse
from .running.executors import DuckDB, StatementFailed, Warehouse
from .running.results import aligned, options_line, plain, read, write_csv, write_json
from .vocabulary import activity
from .vocabulary.dialects import DialectName
from .vocabulary.errors import InputError, OptionError, echoed
from .vocabulary.identifiers import quote
from .vocabulary.parameters import (DEFAULTS, Checks, Discount, Format, ItemType, Names, NegativeLabels,
                                    Request, ScorePrecision, Source, Ties)

#: The worklist's columns after the query (and item) columns; a query, item or segment column of
#: one of these names (or of a run's own, rank) would be ambiguous.
WORKLIST_COLUMNS = ("best_rank", "runs", "exposure")
RUN_COLUMNS = ("rank", "exposure")
#: What :meth:`Worklist.write` writes: by name, or from the file's ending (``.txt``, ``.pool``: pool).
WorklistFormat = Literal["csv", "json", "parquet", "pool"]
WORKLIST_FORMATS: tuple[str, ...] = get_args(WorklistFormat)
#: The relevance a pool file gives every line: trec_eval reads -1 in a qrels file as "in the pool,
#: not judged" (trec_eval 8.1, for infAP); an assessor replaces it with the judgment.
POOL_RELEVANCE = "-1"


def checked_depth(depth) -> int:
    """``depth`` as an int: a positive integer up to the largest cutoff (``_checked_depth`` in
    ``sql/options/depth.sql``, the dbt macro's check too; OptionError otherwise)."""
    return int(context.option_macros()._checked_depth(context.plain(depth)))


class Worklist:
    """The unjudged items of :func:`unjudged`: one row per (query, item), highest exposure first.

    Attributes:
        rows: a DuckDB relation: the query column, the item column, best_rank, runs (the names of
            the runs that show the item, in the runs' order), exposure.
        names: the runs' names.
        options: the options used (depth, discount, ties, ...).
    """

    def __init__(self, rows: duckdb.DuckDBPyRelation, names: tuple[str, ...], options: dict, leftovers: Leftovers,
                 query_col: str, item_col: str, inputs: tuple = ()):
        self.rows, self.names, self.options = rows, names, options
        self.query_col, self.item_col = query_col, item_col
        self._leftovers = leftovers
        self._inputs = inputs  # the runs and judgments read: write() never replaces one of them

    def records(self) -> list[dict]:
        """The rows as dicts (runs a list of names), highest exposure first.

        Raises:
            ValueError: the worklist is closed.
        """
        return read(self._leftovers, lambda: [dict(zip(self.rows.columns, row)) for row in self.rows.fetchall()])

    def to_dict(self) -> dict:
        """The options, the runs' names and the rows, as JSON takes them."""
        return {"options": self.options, "runs": list(self.names), "items": self.records()}

    def to_text(self) -> str:
        """The options, the runs and the rows as an aligned table (runs joined by "; ")."""
        rows = self.records()
        text = f"unjudged items within depth {self.options['depth']}: {len(rows)}; runs: {'; '.join(self.names)}\n"
        text += options_line({k: v for k, v in self.options.items() if k != "depth"})
        if not rows:
            return text
        table: list[tuple[str, ...]] = [(self.query_col, self.item_col, *WORKLIST_COLUMNS)]
        table += [(str(r[self.query_col]), str(r[self.item_col]), str(r["best_rank"]), "; ".join(r["runs"]),
                   repr(r["exposure"])) for r in rows]
        return text + aligned(table)

    def pool(self) -> str:
        """The worklist as a TREC pool file: a qrels file's layout, ``query 0 item -1`` a line
        (-1: in the pool, not judged, as trec_eval reads it), highest exposure first. An
        assessment tool that loads qrels loads it, and the judgments replace the -1.

        Raises:
            InputError: an id that is empty or holds whitespace (a qrels line's fields are
                separated by whitespace: such an id has no place in one).
        """
        lines = []
        for row in self.records():
            ids = (str(row[self.query_col]), str(row[self.item_col]))
            for column, value in zip((self.query_col, self.item_col), ids):
                if not value or any(c.isspace() for c in value):
                    raise InputError(f"column {column!r}: the id {echoed(value)} is empty or holds whitespace, "
                                     "which a pool file (a qrels file's layout) cannot hold; write CSV, JSON or "
                                     "Parquet instead")
            lines.append(f"{ids[0]} 0 {ids[1]} {POOL_RELEVANCE}\n")
        return "".join(lines)

    def write(self, path: str | os.PathLike[str], format: WorklistFormat | str | None = None) -> None:
        """Write the worklist to ``path``, atomically (:func:`ndcg_sql.data.writing.atomic`).

        Args:
            path: the file; an existing one is replaced, unless it is one of the runs or the
                judgments the worklist was made from.
            format: "csv" (runs joined by "; "), "json" (:meth:`to_dict`), "parquet" (runs a list)
                or "pool" (:meth:`pool`); default: from the ending (.csv, .json, .parquet; .txt,
                .pool or .qrels: pool).

        Raises:
            OptionError: an unknown format or ending, or ``path`` is one of the inputs
                (:func:`ndcg_sql.data.writing.refuse_inputs`), before anything is written.
            OSError: the file cannot be written.
        """
        writing.refuse_inputs({"path": path}, self._inputs)
        fmt = format if format is not None else worklist_format(path)
        if fmt not in WORKLIST_FORMATS:
            raise OptionError(f"format must be one of {', '.join(WORKLIST_FORMATS)}; got {fmt!r}")
        if fmt == "parquet":
            self._write_parquet(path)
            return
        with writing.atomic(path) as handle:
            self.write_to(handle, fmt)

    def write_to(self, handle, format: WorklistFormat | str) -> None:
        """Write the worklist as text ("csv", "json" or "pool") to an open handle (stdout)."""
        if format == "csv":
            rows = [{**row, "runs": "; ".join(row["runs"])} for row in self.records()]
            if rows:
                write_csv(rows, handle)
            else:
                csv.writer(handle, lineterminator="\n").writerow([self.query_col, self.item_col, *WORKLIST_COLUMNS])
        elif format == "json":
            write_json(self.to_dict(), handle)
        elif format == "pool":
            handle.write(self.pool())
        else:
            raise OptionError(f"format must be csv, json or pool on a stream; got {format!r}")

    def _write_parquet(self, path) -> None:
        folder = tempfile.mkdtemp(prefix="ndcg_sql_worklist_")
        try:
            temporary = os.path.join(folder, "worklist.parquet")
            con = self._leftovers.con
            read(self._leftovers, lambda: con.execute(
                f"COPY ({self.rows.sql_query()}) TO {exp.Literal.string(temporary).sql('duckdb')} (FORMAT PARQUET)"))
            with open(temporary, "rb") as source, writing.atomic(path, binary=True) as handle:
                shutil.copyfileobj(source, handle)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        """Drop the worklist's temp tables (and close a connection :func:`unjudged` opened)."""
        self._leftovers.release()

    def __enter__(self) -> Worklist:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __len__(self) -> int:
        return read(self._leftovers, lambda: int(self.rows.aggregate("COUNT(*)").fetchall()[0][0]))


def worklist_format(path) -> str:
    """A worklist file's format from its ending (OptionError for an ending not known)."""
    ending = Path(os.fspath(path)).suffix.lower()
    found = {".csv": "csv", ".json": "json", ".parquet": "parquet", ".txt": "pool", ".pool": "pool",
             ".qrels": "pool"}.get(ending)
    if found is None:
        raise OptionError(f"cannot tell the worklist's format from {os.fspath(path)!r}: end it in .csv, .json, "
                          ".parquet or .txt (a pool file), or give the format")
    return found


def unjudged(
    runs: Source | Sequence[Source] | Mapping[str, Source],
    judgments: Source = DEFAULTS.judgments,
    depth: int = DEFAULTS.depth,
    *,
    con: object = None,
    query_col: str = DEFAULTS.query_col,
    item_col: str = DEFAULTS.item_col,
    score_col: str | None = DEFAULTS.score_col,
    rank_col: str | None = DEFAULTS.rank_col,
    label_col: str = DEFAULTS.label_col,
    label: str | None = DEFAULTS.label,
    discount: Discount = DEFAULTS.discount,
    log_base: float = DEFAULTS.log_base,
    ties: Ties = DEFAULTS.ties,
    weight_col: str | None = DEFAULTS.weight_col,
    convention: str | None = DEFAULTS.convention,
    row_col: str | None = DEFAULTS.row_col,
    score_precision: ScorePrecision = DEFAULTS.score_precision,
    negative_labels: NegativeLabels = DEFAULTS.negative_labels,
    segments: Names = DEFAULTS.segments,
    input_format: Format | None = DEFAULTS.input_format,
    judgments_format: Format | None = DEFAULTS.judgments_format,
    threads: int | None = DEFAULTS.threads,
    memory_limit: str | None = DEFAULTS.memory_limit,
    temp_directory: str | os.PathLike[str] | None = DEFAULTS.temp_directory,
    strict_memory_limit: bool = DEFAULTS.strict_memory_limit,
    checks: Checks = DEFAULTS.checks,
    dialect: DialectName | None = None,
    item_type: ItemType | None = None,
    names: Sequence[str] | None = None,
) -> Worklist:
    """What to judge next: every (query, item) that a run shows within ``depth`` and that has no
    judgment, with its best rank, the runs that show it and its exposure, highest first.

    Each run is ranked exactly as :func:`ndcg_sql.evaluate` ranks it (its order and tie-break,
    ``ties``), so the worklist is what each run showed: with ties "item-asc", "item-desc" or
    "input-order" an item is at its rank, shown when rank <= depth, and its exposure in that run
    is the discount there, 1/log2(rank + 1) by default (``discount``, ``log_base``); with
    "average" the items of a tie group stand at each of its positions alike (McSherry & Najork,
    ECIR 2008): the rank is the group's first position, shown when that is within depth, and
    the exposure the mean discount of the group's positions within depth (the weight the item's
    gain gets in DCG@depth). An item's exposure is the sum over the runs that show it, each
    run's times the query's weight (``weight_col``) where given. An item is judged when the
    judgments have a row for it, whatever its label; every item of a query the judgments do not
    have is unjudged. With ``segments`` (the arms of one log, say), each run's segment values
    show items as runs do, named "bm25.txt arm=a" (with judgments per segment, an item is
    unjudged where its segment has no judgment for it). Computed in SQL:
    ``sql/unjudged_items.sql.j2`` per run (on ``con``'s warehouse when it is one, returning
    only those rows), ``sql/unjudged_worklist.sql.j2`` over them in DuckDB.

    Args:
        runs: one ranking, several (a list or tuple), or a mapping {name: ranking}; each any
            input :func:`ndcg_sql.evaluate` takes (table names on a warehouse connection; one
            table named by a sequence of parts goes in a list of its own: ``[("db", "log")]``).
        con: a DuckDB connection, or a warehouse connection with ``dialect``, as
            :func:`ndcg_sql.evaluate`'s.
        names: with a sequence of runs, their names (default: as :func:`ndcg_sql.compare_runs`
            names runs).

    Keyword Args:
        judgments: relevance judgments (qrels) with the query, item and label columns (required): an item is judged
            when they have a row for it, whatever its label. Default: None.
        depth: the ranks shown: a run shows the items it ranks at or above depth (a positive integer). Default: 10.
        query_col: query id column name (case-sensitive; default "query_id").
        item_col: item id column name (default "item_id").
        score_col: score column, higher is better (default "score").
        rank_col: logged rank column (1 = top; smaller is better), used instead of a score; giving both score_col and
            rank_col raises OptionError. Default: None.
        label_col: relevance label column (number >= 0; of the judgments when they are given; default "label").
        label: a relevance label computed from the input's columns, instead of label_col: a SQL expression of column
            names, numbers, + - * /, comparisons (counting 1 when true, 0 when false), AND, OR, NOT, CASE, COALESCE,
            LEAST, GREATEST and CAST, e.g. 'clicked + 2 * purchased' or 'CASE WHEN watch_seconds >= 180 THEN 2 WHEN
            watch_seconds >= 60 THEN 1 ELSE 0 END'; over the judgments' columns when judgments are given. Parsed by
            sqlglot, names quoted, nothing else accepted (ndcg_sql/building/labels.py). Default: None.
        discount: discount of rank r (1 = top), b = log_base: "log" 1/log_b(r + 1) (the usual one; b = 2 in trec_eval,
            scikit-learn, LightGBM, XGBoost), or "jarvelin" (Jarvelin & Kekalainen, TOIS 2002): 1 for r < b, 1/log_b(r)
            for r >= b. Reported with every result. Default: 'log'.
        log_base: b of the discount, a finite number > 1 (default 2): with discount "log" it scales DCG by ln(2)/ln(b)
            as scikit-learn's dcg_score(log_base=b) does (NDCG is unchanged).
        ties: "average" (tie-aware, McSherry & Najork 2008), "item-asc" / "item-desc" (item id in byte order;
            trec_eval: "item-desc"), or "input-order" (row_col ascending; LightGBM, XGBoost). Default: 'average'.
        weight_col: a column of the ranking giving each query a weight (traffic, revenue): a finite number >= 0, the
            same on every row of a query, not all 0 (else InputError). The mean is then sum(w x) / sum(w)
            (scikit-learn's sample_weight, LightGBM's query weights) and the standard error sqrt(n / (n - 1) * sum(w^2
            (x - mean)^2)) / sum(w); per-query rows carry the weight. Not with bootstrap, compare, or
            missing_queries='zero' (a query absent from the run has no weight). Default: None.
        convention: set gain, ties, no_relevant, score_precision and negative_labels as a peer tool does: "trec_eval"
            (also pytrec_eval, ir_measures), "sklearn", "lightgbm", "xgboost" (ndcg@k), "xgboost-minus" (ndcg@k-); see
            ndcg_sql/vocabulary/conventions.py. Giving one of them another non-default value, or query weights or
            measures the tool does not have, raises OptionError. Default: None.
        row_col: with ties="input-order" (and only then), the column holding each row's input position (smaller first),
            e.g. a row number. Default: None.
        score_precision: "double", or "float32" (scores rounded to the nearest 32-bit float before ranking, as
            trec_eval and XGBoost; not on BigQuery and Snowflake, which have no 32-bit float). Default: 'double'.
        negative_labels: "error" (raises InputError), "zero" (count as label 0; with judgments the item is judged, so a
            condensed list keeps it, as Sakai's condensed lists keep every judged item), or "unjudged" (count as label
            0; with judgments the item is not judged, as trec_eval reads a relevance below 0 (form_res_rels.c: in the
            pool, not judged): unjudged="condense" drops it, as trec_eval -J does, and Judged@k does not count it).
            convention="trec_eval" sets "unjudged". Default: 'error'.
        segments: column name(s) of the ranking (experiment arm, date, device, ...) that act as part of the query key:
            every metric per (segment values, query); per-query rows carry the segment columns and the summary has one
            row per (segment values, k or measure). Judgments without the segment columns apply to every segment the
            query occurs in; judgments with them (same names) are per (segment, query), and only then may
            missing_queries be "zero". Default: None.
        input_format: force the ranking file's format (its ending decides otherwise). Default: None.
        judgments_format: force the judgments file's format. Default: None.
        threads: DuckDB threads (default: DuckDB's own choice, all cores; at most 4 per core); on a connection given as
            con= they are SET there, and stay set after the result is closed.
        memory_limit: DuckDB memory_limit of a connection ndcg_sql opens itself, past which DuckDB spills to disk, a
            size such as 1400MB or 4GB (None: DuckDB's own, 80% of RAM); it bounds DuckDB's buffer manager, not the
            whole process (strict_memory_limit). Default: '1400MB'.
        temp_directory: the folder in which a connection ndcg_sql opens itself gets a temp folder of its own for DuckDB
            to spill to (default: the system's temp dir); that folder is removed when the result is closed or
            collected, on an error, and at exit.
        strict_memory_limit: turn off DuckDB's partitioned execution on a connection ndcg_sql opens itself (SET
            disabled_optimizers = 'partitioned_execution'), so that the process stays near memory_limit. On a log
            stored in query order DuckDB splits the ranking into ranges of the query key (about one per 10M rows),
            faster but with memory outside its limit that grows with the ranges: a billion-row log under 1GB peaked at
            1.79 GB resident, and 1.24 GB with this option (interpreter included), at 1.8x the time (887 s against 490
            s on 2 cores); up to 100M rows the split stays well inside the limit and is the faster
            (docs/performance.md). A connection given as con= keeps its own settings, so run SET disabled_optimizers =
            'partitioned_execution' on it yourself. Default: False.
        checks: "all": every input check (bad input raises InputError naming the column); "trusted": none, for input
            gated upstream (the dbt test ndcg_valid_input, a pipeline's constraints): faster, but bad input gives wrong
            numbers, not an error (docs/safety.md). An empty input is still refused, and every result reports
            checks=trusted. Default: 'all'.
        dialect: with a warehouse connection ``con``: "bigquery", "snowflake", "spark", "postgres", "redshift" or
            "duckdb" (a SparkSession: "spark" by default). Default: None.
        item_type: with a warehouse connection: the item ids' type ("text" or "number"; default: from one fetched id).

    Returns:
        :class:`Worklist`: its rows (a DuckDB relation), ``records()``, ``write(path)`` (CSV,
        JSON, Parquet or a pool file); ``close()`` it (or use ``with``).

    Raises:
        OptionError: no judgments, a depth that is no positive integer, an option outside its
            domain, runs' names that are not distinct strings, an output column's name taken by
            a query, item or segment column.
        InputError: bad input in a run or the judgments, as :func:`ndcg_sql.evaluate` says it.
        TypeError: a keyword that is not an option of unjudged.
    """
    request = Request.of(locals())
    depth = checked_depth(depth)
    if judgments is None:
        raise OptionError("unjudged needs judgments (--judgments): an item is unjudged when they have no row for it")
    single = not isinstance(runs, (Mapping, list, tuple))
    run_names, sources = _named_runs([runs] if single else runs, names, fewest=1, most=None, what="unjudged")
    taken = {query_col, item_col, *([segments] if isinstance(segments, str) else (segments or ()))}
    clash = sorted(taken & {*WORKLIST_COLUMNS, *RUN_COLUMNS})
    if clash:
        raise OptionError(f"the worklist names its own columns {', '.join(WORKLIST_COLUMNS)}: a query, item or "
                          f"segment column cannot be named {clash[0]!r}")
    options = {**request.metric(), "k": [depth]}
    on_warehouse = con is not None and not isinstance(con, duckdb.DuckDBPyConnection)
    remote = Warehouse(con, dialect) if on_warehouse else None
    resolved = context.resolve(options, True, dialect=remote.dialect.name if remote else "duckdb",
                               item_type=(item_type or "text") if remote else "text", segmented_judgments=True)
    check_connection_options(memory_limit, strict_memory_limit)  # refused on a caller's connection too
    local_con = con if isinstance(con, duckdb.DuckDBPyConnection) else connect(memory_limit, threads,
                                                                                temp_directory=temp_directory,
                                                                                strict_memory_limit=strict_memory_limit)
    leftovers = Leftovers(local_con, owned=local_con is not con)
    made: list[tuple[str, str]] = []
    tables: list[str] = []
    try:
        with turn(local_con):
            for name, source in zip(run_names, sources):
                with activity.doing(con if on_warehouse else local_con, f"unjudged items of {name}"):
                    if remote is not None:
                        rows = warehouse.computed(remote, source, judgments, resolved, options, item_type, checks,
                                                  _fetched_items(depth, item_col))
                        table = _local_rows_table(local_con, rows, _columns(resolved, item_col), made,
                                                  "unjudged_items", ("exposure",))
                    else:
                        table = local.computed(local_con, source, judgments, request, resolved, local.Settings(
                            input_format, judgments_format, memory_limit, threads, temp_directory,
                            DEFAULTS.max_bootstrap_draws, checks, strict_memory_limit), _stored_items(depth, made))
                    tables.append(quote(table))
            tables = _query_ids_alike_all(local_con, tables, query_col, made)
            tables = _query_ids_alike_all(local_con, tables, item_col, made)
            segment_list = list(resolved.segments)
            sql = templates.render(
                "unjudged_worklist.sql.j2",
                runs=[{"relation": t, "name": exp.Literal.string(n).sql("duckdb")} for t, n in zip(tables, run_names)],
                segment_cols=[quote(s) for s in segment_list],
                segment_labels=[exp.Literal.string(f"{s}=").sql("duckdb") for s in segment_list],
                output_query_col=quote(query_col), output_item_col=quote(item_col))
            worklist = new_view_name("worklist", local_con)
            with activity.doing(local_con, "the worklist"):
                DuckDB(local_con).store(Step(quote(worklist), sql, keep=True))
            leftovers.add("TABLE", worklist)
            drop(local_con, list(reversed(made)))
            made = []
            report = {"depth": depth, **_reported(resolved.report())}
            return Worklist(local_con.table(quote(worklist)), tuple(run_names), report, leftovers, query_col, item_col,
                            (*sources, judgments))
    except BaseException:
        drop(local_con, list(reversed(made)))
        leftovers.release()
        raise


def _reported(report: dict) -> dict:
    """The options that shape a worklist, of those every result reports."""
    keep = ("discount", "ties", "ranking_by", "score_precision", "negative_labels", "convention", "weight_col",
            "segments", "label")
    return {name: report[name] for name in keep if name in report}


def _item_sql(rendered: context.Rendered, depth: int) -> str:
    """One run's unjudged items within depth (sql/unjudged_items.sql.j2)."""
    return templates.render("unjudged_items.sql.j2", **rendered.context, depth=depth,
                            output_item_col=rendered.context.item_col)


def _columns(resolved: context.Resolved, item_col: str) -> list[str]:
    """The columns of a run's rows (sql/unjudged_items.sql.j2), as the user names them."""
    return [*resolved.segments, resolved.query_col, item_col, *RUN_COLUMNS]


def _stored_items(depth: int, made: list):
    """What :func:`ndcg_sql.running.local.computed` computes for :func:`unjudged`: the run's unjudged
    items in a temp table of the connection (listed in ``made``); returns its name."""
    def compute(executor: DuckDB, rendered: context.Rendered, leftovers: Leftovers) -> tuple[str, bool]:
        name = new_view_name("unjudged_items", executor.con)
        made.append(executor.store(Step(quote(name), _item_sql(rendered, depth), keep=True)))
        return name, False
    return compute


def _fetched_items(depth: int, item_col: str):
    """What :func:`ndcg_sql.running.warehouse.computed` computes for :func:`unjudged`: the input
    checks counted (unless trusted), then the run's unjudged items fetched from the warehouse,
    as records in the columns' order (:func:`_columns`; an engine may spell them otherwise)."""
    def compute(executor: Warehouse, rendered: context.Rendered, counted, diagnose) -> list[dict]:
        if counted is not None:
            runner.check_input(executor, rendered.context, counted, rendered.query_col)
        try:
            _, rows = executor.fetch(_item_sql(rendered, depth))
        except StatementFailed:
            diagnose()
            raise
        columns = _columns(rendered, item_col)
        return [dict(zip(columns, map(plain, row))) for row in rows]
    return compute
