"""The ``ndcg-sql`` command line (argparse), built from the option table.

    ndcg-sql evaluate RUN [--judgments FILE] [--k K ...] [--gain ...] [--ties ...] [...]
    ndcg-sql compare RUN RUN [RUN ...] [--names N ...] [--baseline N] [--measures NAME ...] [--correction C] [...]
    ndcg-sql plot RUN [RUN ...] --output FILE [--k ...] [--bootstrap N] [...]
    ndcg-sql unjudged RUN [RUN ...] --judgments FILE [--depth K] [-o FILE] [--format F] [...]
    ndcg-sql sql (RUN | --table NAME) [--dialect D] [--statement S] [...]   # prints the SQL

Every option's flag, choices, help and default come from
:data:`ndcg_sql.vocabulary.parameters.PARAMETERS` (the default shown is the one of the Python
function the command calls); an option not given is not passed, so that function's own
default applies. Errors are one line on stderr and exit status 2 (bad options) or 1 (bad
input, a missing optional library: scipy, matplotlib, a file that cannot be written, DuckDB out
of memory); Ctrl-C stops with one line and exit status 130. Files are written through
:mod:`ndcg_sql.data.writing`: never over an input, atomically.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import duckdb
import sqlglot.errors

from . import __version__

from .data import writing

from .vocabulary import activity, dialects
from .api import evaluate, to_sql
from .compare import compare, compare_runs
from .worklist import WORKLIST_FORMATS, unjudged, worklist_format
from .comparisons import TABLE_FORMATS, checked_alpha
from .data.connections import close, terminated_as_exit
from .vocabulary.errors import InputError, MissingDependency, OptionError, out_of_memory
from .running.executors import DEFAULT_MEMORY_LIMIT, connect
from .building.sql_text import file_format
from .data.inputs import TREC_QRELS_COLUMNS, TREC_RUN_COLUMNS
from .vocabulary.parameters import ALPHA, DEFAULTS, PARAMETERS, SIGNIFICANCE_TESTS, STATEMENTS
from .plot import plot, plot_comparison
from .running.results import (MAX_DIGITS, digits_from_text, named_comparison_records, print_comparison, print_table,
                     run_names, write_csv, write_json)

#: What ``ndcg-sql compare --format`` writes: the table of several runs in each of its formats
#: ("table": text), and every pair's row as JSON or CSV.
COMPARE_FORMATS = ("table", *(f for f in TABLE_FORMATS if f != "text"), "json", "csv")
#: The Python function each subcommand calls: its defaults are the ones shown in --help.
TARGETS: dict[str, Callable[..., object]] = {"evaluate": evaluate, "compare": compare, "plot": plot, "sql": to_sql,
                                             "unjudged": unjudged}
#: The tables ``ndcg-sql sql`` reads when the engine cannot read the file given (a warehouse,
#: or a TREC file) and no --table / --judgments-table names them: placeholders to replace.
PLACEHOLDERS = {"run": "ranking_table", "judgments": "judgments_table"}
#: File formats that DuckDB reads inside SQL (sql_text.file_relation).
SQL_READABLE = ("parquet", "csv", "json")
#: What the help of every output file option adds.
REPLACED = "; an existing file is replaced (atomically), never one of the inputs"
DIGITS_HELP = (f"significant digits of the numbers in the table (1 to {MAX_DIGITS}; default: full precision, the "
               "shortest text that reads back as the same double); JSON and CSV always carry full precision")
#: The exit status after Ctrl-C (128 + SIGINT, as shells report it), and the message of the
#: RuntimeError DuckDB's Python client raises when Ctrl-C stops a running query.
INTERRUPTED, QUERY_INTERRUPTED = 130, "Query interrupted"
#: The exit status after SIGTERM (128 + 15), as :func:`ndcg_sql.data.connections.terminated_as_exit` raises it.
TERMINATED = 143


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line (the usage stays in --help), each pointing to the
    --help of the subcommand it concerns."""

    #: the subcommands' parsers by name (the top-level parser's; None for a subcommand's)
    subcommands: dict | None = None

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(self, args=None, namespace=None):
        """argparse's, but an argument no parser knows is an error of the subcommand given."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            (self.subcommands or {}).get(getattr(parsed, "command", None), self).error(
                "unrecognized arguments: " + " ".join(extras))
        return parsed


def _text_parser(parse):
    def convert(text):
        try:
            return parse(text)
        except OptionError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = getattr(parse, "__name__", "value")
    return convert


def _shown_default(value) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join("all" if v is None else str(v) for v in value)
    return "none" if value is None else str(value)


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """The table's options of ``command`` as flags of ``parser`` (not given: not in the namespace)."""
    signature = inspect.signature(TARGETS[command]).parameters
    for p in PARAMETERS:
        if p.cli is None or command not in p.cli.commands:
            continue
        default = signature[p.name].default if p.name in signature else p.default
        text = p.help(command)
        if not p.cli.flag and default not in (None, inspect.Parameter.empty) and "default" not in text.lower():
            text += f" (default: {_shown_default(default)})"
        kwargs: dict[str, Any] = dict(default=argparse.SUPPRESS, help=text.replace("%", "%%"))
        if p.cli.flag:
            kwargs.update(action="store_const", const=True)
        else:
            kwargs.update(metavar=p.cli.metavar, nargs=p.cli.nargs, choices=p.choices,
                          type=_text_parser(p.cli.parse) if p.cli.parse else None)
        parser.add_argument(p.flag, **{key: value for key, value in kwargs.items() if value is not None})


def given(args, command: str, leave: tuple[str, ...] = ()) -> dict:
    """The table's options given on the command line, by their Python names."""
    return {p.name: getattr(args, p.name) for p in PARAMETERS
            if p.cli is not None and command in p.cli.commands and hasattr(args, p.name) and p.name not in leave}


def _command(commands, name: str, what: str) -> argparse.ArgumentParser:
    """A subcommand whose one-line ``what`` is both its line in ``ndcg-sql --help`` and the
    description its own ``--help`` opens with."""
    return commands.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="ndcg-sql", description="DCG, IDCG and NDCG@k of logged rankings, computed in SQL (DuckDB).")
    parser.add_argument("--version", action="version", version=f"ndcg-sql {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    parser.subcommands = commands.choices
    formats = ("table", "json", "csv")

    run = _command(commands, "evaluate", "compute NDCG@k (or named measures) of a ranking")
    run.add_argument("run", metavar="RUN", help="ranking file: Parquet, CSV, JSON, or TREC run (qid Q0 docid rank score tag)")
    run.add_argument("--format", choices=formats, default="table", help="summary output (default: table)")
    run.add_argument("--per-query", metavar="FILE", dest="per_query_file",
                     help="also write the per-query rows as CSV (query, k, cg, dcg, idcg, ndcg; with --measures "
                          "query, measure, value)" + REPLACED)
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    run.add_argument("--digits", metavar="N", type=_text_parser(digits_from_text), help=DIGITS_HELP)
    add_options(run, "evaluate")

    pair = _command(commands, "compare", "compare two runs or more on the same queries (paired t-test, "
                                               "permutation test, Tukey HSD, multiple-testing corrections)")
    pair.add_argument("runs", metavar="RUN", nargs="+",
                      help="two rankings or more, of the same kinds; with two, A then B (differences are A - B; "
                           "gm_map: the ratio A / B of the geometric means)")
    pair.add_argument("--names", nargs="+", metavar="NAME",
                      help="the runs' names in the outputs, one per RUN (default: the shortest ends of the paths "
                           "that tell them apart)")
    pair.add_argument("--baseline", metavar="NAME",
                      help="compare each run with this one (a name of --names, or the name a RUN gets) instead of "
                           "every pair")
    pair.add_argument("--alpha", metavar="A", type=_text_parser(_alpha_from_text),
                      help=f"significance level of the table's letters: marked when p < A (default: {ALPHA})")
    pair.add_argument("--test", choices=SIGNIFICANCE_TESTS,
                      help="the p-values of the table's letters: the permutation test's (default) or the t-test's, "
                           "both after --correction, or the Tukey HSD test's (three runs or more)")
    pair.add_argument("--format", choices=COMPARE_FORMATS, default="table",
                      help="output (default: table): with three runs or more (or markdown, latex, html) the table "
                           "of one row per run and one column per measure, with significance letters and the best "
                           "bold, as text (then every pair's row), Markdown, LaTeX (booktabs) or HTML; json and "
                           "csv: every pair's row")
    pair.add_argument("--per-query", metavar="FILE", dest="per_query_file",
                      help="also write [run_a, run_b,] query, measure, a, b, difference as CSV (gm_map: a and b are "
                           "ln(max(AP, 1e-5)), the difference a difference of logarithms)" + REPLACED)
    pair.add_argument("--plot", metavar="FILE", dest="plot_file",
                      help="also write a PNG (needs matplotlib): each run's mean per measure with its 95%% interval, "
                           "and the per-query differences against the baseline (--baseline, else the first run)"
                      + REPLACED)
    pair.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    pair.add_argument("--digits", metavar="N", type=_text_parser(digits_from_text),
                      help=DIGITS_HELP + "; with three runs or more it rounds every pair's row, while the table of "
                      "one row per run above them shows each mean to 4 decimals, for reading at a glance")
    add_options(pair, "compare")

    picture = _command(commands, "plot", "write a PNG of mean NDCG@k against k (needs matplotlib)")
    picture.add_argument("runs", metavar="RUN", nargs="+", help="one or more rankings, one line each")
    picture.add_argument("--output", "-o", required=True, metavar="FILE", help="the PNG to write" + REPLACED)
    picture.add_argument("--names", nargs="+", metavar="NAME",
                         help="the runs' names in the legend, one per RUN (default: the shortest ends of the paths "
                              "that tell them apart); with --segments a line is the name and its segment values")
    picture.add_argument("--title", metavar="TEXT", help="the plot's title (default: the options used)")
    picture.add_argument("--distribution", type=int, metavar="K",
                         help="add a panel with each run's per-query NDCG@K (K among --k)")
    picture.add_argument("--over", metavar="COL",
                         help="a period column (a day): mean NDCG@k per period (one --k, default 10) with its 95%% "
                              "interval, significant drops against the trailing window marked (docs/statistics.md)")
    picture.add_argument("--window", type=int, default=7, metavar="N",
                         help="with --over: the periods before each one it is compared with (default 7)")
    picture.add_argument("--alpha", type=float, default=0.05, metavar="A",
                         help="with --over: the one-sided level, a tabulated one: 0.1, 0.05, 0.025, 0.01, ... "
                              "(default 0.05)")
    picture.add_argument("--min-effect", type=float, default=0.0, metavar="X", dest="min_effect",
                         help="with --over: a smaller drop is never marked (default 0)")
    picture.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_options(picture, "plot")

    todo = _command(commands, "unjudged", "what to judge next: the unjudged items the runs show within --depth, "
                                                "highest exposure first")
    todo.add_argument("runs", metavar="RUN", nargs="+", help="one ranking or more (a log with --segments: each "
                                                              "segment's values show items as a run does)")
    todo.add_argument("--names", nargs="+", metavar="NAME",
                      help="the runs' names in the runs column, one per RUN (default: the shortest ends of the paths "
                           "that tell them apart)")
    todo.add_argument("--output", "-o", metavar="FILE",
                      help="write the worklist here instead of stdout, in the format its ending says (.csv, .json, "
                           ".parquet; .txt or .pool: a pool file) or --format's" + REPLACED)
    todo.add_argument("--format", choices=("table", *WORKLIST_FORMATS),
                      help="table (stdout's default: aligned text), csv, json, parquet (only with --output) or pool: "
                           "a TREC pool file, a qrels file's layout 'query 0 item -1' a line (-1: in the pool, not "
                           "judged, as trec_eval reads it), for an assessment tool to load")
    todo.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_options(todo, "unjudged")

    sql = _command(commands, "sql", "print the SQL instead of running it")
    sql.add_argument("run", metavar="RUN", nargs="?",
                     help="a Parquet, CSV or JSON file for DuckDB to read; for another dialect, or a TREC file, "
                          "the SQL reads --table NAME (or the placeholder ranking_table) and stderr says so")
    sql.add_argument("--table", metavar="NAME", help="the ranking table (db.schema.table)")
    sql.add_argument("--judgments-table", metavar="NAME",
                     help="the judgments table (with a --judgments FILE the SQL cannot read: its table)")
    sql.add_argument("--statement", choices=STATEMENTS, default="per_query",
                     help="per-query rows (default), the summary, or the query counts")
    add_options(sql, "sql")
    return parser


@contextmanager
def _progress(args, con):
    """A progress bar on stderr while the body computes on ``con`` (none with --no-progress)."""
    if args.no_progress:
        con.execute("SET enable_progress_bar = false")
        yield
    else:
        with activity.reported(con):
            yield


def _write_per_query(path: str | None, records) -> None:
    """The --per-query CSV, if asked for (atomically: :func:`ndcg_sql.data.writing.atomic`)."""
    if path:
        with writing.atomic(path) as handle:
            write_csv(records(), handle)


#: The options of the connection a command opens (:func:`_connected`), not passed on to the Python function.
CONNECTION_OPTIONS = ("memory_limit", "temp_directory", "strict_memory_limit")


@contextmanager
def _connected(args) -> Iterator[duckdb.DuckDBPyConnection]:
    """The DuckDB connection a command runs on, with its --memory-limit, --temp-directory and
    --strict-memory-limit, closed on every way out: closing waits for the threads of a statement
    Ctrl-C or SIGTERM interrupted, and a process exiting under them would abort."""
    con = connect(getattr(args, "memory_limit", DEFAULT_MEMORY_LIMIT), temp_directory=getattr(args, "temp_directory", None),
                  strict_memory_limit=getattr(args, "strict_memory_limit", DEFAULTS.strict_memory_limit))
    try:
        yield con
    finally:
        close(con)


def _digits(args) -> int | None:
    """The --digits of the table (an OptionError with --format json or csv, which keep full precision)."""
    digits = getattr(args, "digits", None)
    if digits is not None and args.format != "table":
        raise OptionError(f"--digits rounds the table only; --format {args.format} keeps full precision")
    return digits


def _evaluate(args) -> int:
    digits = _digits(args)
    options = given(args, "evaluate", leave=CONNECTION_OPTIONS)
    writing.refuse_inputs({"--per-query": args.per_query_file}, [args.run, options.get("judgments")])
    with _connected(args) as con:
        with _progress(args, con):
            result = evaluate(args.run, con=con, **options)
        _write_per_query(args.per_query_file, result.per_query_records)
        if args.format == "json":
            write_json(result.to_dict(), sys.stdout)
        elif args.format == "csv":
            write_csv(result.summary_records(), sys.stdout)
        else:
            print_table(result, sys.stdout, digits)
    return 0


def _alpha_from_text(text: str) -> float:
    """The command line's --alpha: a number strictly between 0 and 1 (OptionError otherwise)."""
    try:
        value = float(text)
    except ValueError:
        raise OptionError(f"alpha must be a number between 0 and 1 (exclusive); got {text!r}") from None
    return checked_alpha(value)


def _compare(args) -> int:
    if len(args.runs) < 2:
        raise OptionError("compare needs two runs or more")
    if args.format not in ("table", "json", "csv") or len(args.runs) > 2 or args.plot_file:
        return _compare_runs(args)
    digits = _digits(args)
    options = given(args, "compare", leave=CONNECTION_OPTIONS)
    writing.refuse_inputs({"--per-query": args.per_query_file}, [*args.runs, options.get("judgments")])
    run_a, run_b = args.runs
    names = tuple(args.names) if args.names else tuple(run_names([run_a, run_b]))
    if len(names) != 2:
        raise OptionError(f"--names gives one name per run: 2 here; got {len(names)}")
    if args.baseline is not None:
        if args.baseline not in names:
            raise OptionError(f"--baseline must be one of the runs' names ({', '.join(names)}); got {args.baseline!r}")
        if names[0] == args.baseline:
            run_a, run_b, names = run_b, run_a, (names[1], names[0])
    with _connected(args) as con:
        with _progress(args, con):
            result = compare(run_a, run_b, con=con, names=names, **options)
        _write_per_query(args.per_query_file, result.per_query_records)
        if args.format == "json":
            write_json(result.to_dict(), sys.stdout)
        elif args.format == "csv":
            write_csv(named_comparison_records(result), sys.stdout)
        else:
            print_comparison(result, sys.stdout, digits)
    return 0


def _compare_runs(args) -> int:
    """``ndcg-sql compare`` of three runs or more (or any number as Markdown, LaTeX or HTML)."""
    digits = getattr(args, "digits", None)
    if digits is not None and args.format != "table":
        raise OptionError(f"--digits rounds the text table only; --format {args.format} keeps its own precision")
    options = given(args, "compare", leave=CONNECTION_OPTIONS)
    writing.refuse_inputs({"--per-query": args.per_query_file, "--plot": args.plot_file},
                          [*args.runs, options.get("judgments")])
    marks = {name: getattr(args, name) for name in ("alpha", "test") if getattr(args, name) is not None}
    with _connected(args) as con:
        with _progress(args, con):
            result = compare_runs(list(args.runs), con=con, names=args.names, baseline=args.baseline, **marks,
                                  **options)
        _write_per_query(args.per_query_file, result.per_query_records)
        if args.plot_file:
            plot_comparison(result, args.plot_file)
        if args.format == "json":
            write_json(result.to_dict(), sys.stdout)
        elif args.format == "csv":
            write_csv(result.summary_records(), sys.stdout)
        elif args.format == "table":
            sys.stdout.write(result.to_text(digits))
        else:
            sys.stdout.write(result.table(args.format))
    return 0


def _plot(args) -> int:
    if args.names is not None and len(args.names) != len(args.runs):
        raise OptionError(f"--names gives one name per run: {len(args.runs)} here; got {len(args.names)}")
    options = given(args, "plot", leave=CONNECTION_OPTIONS)
    writing.refuse_inputs({"--output": args.output}, [*args.runs, options.get("judgments")])
    if "k" in options:
        if not all(str(c).isdigit() for c in options["k"]):
            raise OptionError("plot takes positive integer cutoffs (--k 1 2 3 ...), not 'all'")
        options["k"] = [int(c) for c in options["k"]]
    with _connected(args) as con, _progress(args, con):
        over = dict(over=args.over, window=args.window, alpha=args.alpha,
                    min_effect=args.min_effect) if args.over is not None else {}
        plotted = plot(list(args.runs), args.output, names=args.names, title=args.title,
                       distribution=args.distribution, con=con, **over, **options)
    print(f"wrote {Path(args.output).resolve()}")
    if args.over is not None:  # the marked periods, for a script or a reader at the terminal
        drops = [(name, point) for name, points in plotted.items() for point in points if point["significant_drop"]]
        for name, point in drops:
            print(f"significant drop: {name} {args.over}={point['period']} mean {point['ndcg']:.4f}, "
                  f"change {point['change']:+.4f} against the mean of the {args.window} periods before")
        if not drops:
            print("no significant drop")
    return 0


def _unjudged(args) -> int:
    """``ndcg-sql unjudged``: the worklist, to stdout or --output."""
    options = given(args, "unjudged", leave=CONNECTION_OPTIONS)
    writing.refuse_inputs({"--output": args.output}, [*args.runs, options.get("judgments")])
    fmt = args.format or (worklist_format(args.output) if args.output else "table")
    if fmt == "parquet" and not args.output:
        raise OptionError("--format parquet writes a file: give --output FILE")
    if fmt == "table" and args.output:
        raise OptionError("--format table prints to stdout; --output takes csv, json, parquet or pool")
    if args.names is not None and len(args.names) != len(args.runs):
        raise OptionError(f"--names gives one name per run: {len(args.runs)} here; got {len(args.names)}")
    with _connected(args) as con:
        with _progress(args, con):
            worklist = unjudged(list(args.runs), con=con, names=args.names, **options)
        with worklist:
            if args.output:
                worklist.write(args.output, fmt)
                sys.stderr.write(f"ndcg-sql: wrote {len(worklist)} unjudged items to {Path(args.output).resolve()}\n")
            elif fmt == "table":
                sys.stdout.write(worklist.to_text())
            else:
                worklist.write_to(sys.stdout, fmt)
    return 0


def _sql_relation(path: str | None, table: str | None, role: str, dialect: str) -> tuple[str | None, str | None]:
    """(table, file) the SQL reads for one input; when the engine cannot read the file (another
    dialect, a TREC file) the table given or a placeholder, said on stderr with how to load it."""
    if path is None:
        return table, None
    fmt = file_format(path, role)
    if dialect == "duckdb" and fmt in SQL_READABLE:
        if table is not None:
            raise OptionError(f"give either a {'RUN' if role == 'run' else '--judgments'} file or "
                              f"--{'table' if role == 'run' else 'judgments-table'} NAME")
        return None, path
    name = table or PLACEHOLDERS[role]
    flag = "--table" if role == "run" else "--judgments-table"
    reason = "TREC files are read by ndcg_sql, not by SQL" if fmt.startswith("trec-") else f"{dialect} reads no files"
    todo = "" if table else f": load the file as a table and put its name there, or give {flag} NAME"
    sys.stderr.write(f"ndcg-sql: the SQL reads the {'ranking' if role == 'run' else 'judgments'} from the table "
                     f"{name}{'' if table else ', a placeholder'}, not from {path} ({reason}){todo}\n")
    if fmt.startswith("trec-"):
        columns = TREC_RUN_COLUMNS if fmt == "trec-run" else TREC_QRELS_COLUMNS
        kind = fmt.split("-")[1]
        sys.stderr.write(f"ndcg-sql: {path} is a TREC {kind} file: load it as a table with the columns "
                         f"{', '.join(columns)}, e.g. from Parquet written by python -c \"import ndcg_sql; "
                         f"ndcg_sql.read_trec({str(path)!r}, {kind!r}).write_parquet('{kind}.parquet')\"\n")
    return name, None


def _sql(args) -> int:
    if args.run is None and args.table is None:
        raise OptionError("give either a RUN file or --table NAME")
    options = given(args, "sql")
    judgments = options.pop("judgments", None)
    dialect = dialects.get(options.get("dialect", "duckdb")).name
    table, file = _sql_relation(args.run, args.table, "run", dialect)
    judgments_table, judgments_file = _sql_relation(judgments, args.judgments_table, "judgments", dialect)
    sys.stdout.write(to_sql(table, file=file, judgments_table=judgments_table, judgments_file=judgments_file,
                            what=args.statement, **options))
    return 0


def run() -> None:
    """The ``ndcg-sql`` command: :func:`main`, then exit with its status. After Ctrl-C or SIGTERM
    the process ends at once (``os._exit``, once ndcg_sql's own files and folders are removed and
    the output flushed): the threads of the statement DuckDB stopped may still be winding down,
    and the interpreter's shutdown under them aborts the process."""
    status = main()
    if status in (INTERRUPTED, TERMINATED):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


def main(argv: list[str] | None = None) -> int:
    """The command line's work; returns the exit status (130 after Ctrl-C, 143 after SIGTERM)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        with terminated_as_exit():
            return _dispatch(parser, args)
    except SystemExit as stop:
        if stop.code != TERMINATED:
            raise
        sys.stderr.write("ndcg-sql: terminated\n")
        return TERMINATED
    except (KeyboardInterrupt, RuntimeError) as error:
        if isinstance(error, RuntimeError) and str(error) != QUERY_INTERRUPTED:
            raise
        sys.stderr.write("ndcg-sql: interrupted\n")
        return INTERRUPTED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    commands = {"evaluate": _evaluate, "compare": _compare, "plot": _plot, "sql": _sql, "unjudged": _unjudged}
    try:
        return commands[args.command](args)
    except OptionError as error:
        parser.exit(2, f"ndcg-sql: error: {error}\n")
    except MissingDependency as error:
        parser.exit(1, f"ndcg-sql: error: {error}\n")
    except InputError as error:
        head, *rest = [line.strip() for line in str(error).splitlines() if line.strip()]
        message = f"{head} {'; '.join(rest)}" if head.endswith(":") else "; ".join([head, *rest])
        parser.exit(1, f"ndcg-sql: error: {message}\n")
    except sqlglot.errors.SqlglotError as error:
        parser.exit(2, f"ndcg-sql: error: sqlglot: {error}\n")
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None  # DuckDB's query stopped by Ctrl-C
    except duckdb.OutOfMemoryException as error:
        parser.exit(1, f"ndcg-sql: error: {out_of_memory(error)}\n")
    except duckdb.Error as error:
        message = " ".join(str(error).split())
        parser.exit(1, f"ndcg-sql: error: DuckDB: {message}\n")
    except OSError as error:  # a file that cannot be read or written (writing.atomic names it)
        if isinstance(error, BrokenPipeError):
            raise
        message = error.strerror if error.filename is None and error.strerror else str(error)
        parser.exit(1, f"ndcg-sql: error: {message}\n")


if __name__ == "__main__":
    run()
