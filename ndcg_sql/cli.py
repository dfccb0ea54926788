"""The ``ndcg-sql`` command line (argparse), built from the option table.

    ndcg-sql evaluate RUN [--judgments FILE] [--k K ...] [--gain ...] [--ties ...] [...]
    ndcg-sql compare A B [--measures NAME ...] [--permutations N] [--seed S] [...]
    ndcg-sql plot RUN [RUN ...] --output FILE [--k ...] [--bootstrap N] [...]
    ndcg-sql sql (RUN | --table NAME) [--dialect D] [--statement S] [...]   # prints the SQL

Every option's flag, choices, help and default come from
:data:`ndcg_sql.parameters.PARAMETERS` (the default shown is the one of the Python
function the command calls); an option not given is not passed, so that function's own
default applies. Errors are one line on stderr and exit status 2 (bad options) or 1 (bad
input).
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys

import duckdb
import sqlglot.errors

from . import __version__, progress
from .api import evaluate, to_sql
from .compare import compare
from .errors import InputError, OptionError
from .executors import DEFAULT_MEMORY_LIMIT, connect
from .output import options_line, print_comparison, print_table, write_csv, write_json
from .parameters import PARAMETERS, STATEMENTS
from .plot import plot

#: The Python function each subcommand calls: its defaults are the ones shown in --help.
TARGETS = {"evaluate": evaluate, "compare": compare, "plot": plot, "sql": to_sql}


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line (the usage stays in --help)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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
        text = p.cli.helps.get(command, p.doc)
        if not p.cli.flag and default not in (None, inspect.Parameter.empty) and "default" not in text.lower():
            text += f" (default: {_shown_default(default)})"
        kwargs = dict(default=argparse.SUPPRESS, help=text.replace("%", "%%"))
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


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="ndcg-sql", description="DCG, IDCG and NDCG@k of logged rankings, computed in SQL (DuckDB).")
    parser.add_argument("--version", action="version", version=f"ndcg-sql {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    formats = ("table", "json", "csv")

    run = commands.add_parser("evaluate", help="compute NDCG@k (or named measures) of a ranking")
    run.add_argument("run", metavar="RUN", help="ranking file: Parquet, CSV, JSON, or TREC run (qid Q0 docid rank score tag)")
    run.add_argument("--format", choices=formats, default="table", help="summary output (default: table)")
    run.add_argument("--per-query", metavar="FILE", dest="per_query_file",
                     help="also write the per-query rows as CSV (query, k, cg, dcg, idcg, ndcg; with --measures "
                          "query, measure, value)")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_options(run, "evaluate")

    pair = commands.add_parser("compare", help="compare two runs on the same queries (paired t-test, permutation test)")
    pair.add_argument("run_a", metavar="A", help="the first ranking (differences are A - B)")
    pair.add_argument("run_b", metavar="B", help="the second ranking, same kinds as A")
    pair.add_argument("--format", choices=formats, default="table", help="output (default: table)")
    pair.add_argument("--per-query", metavar="FILE", dest="per_query_file",
                      help="also write query, measure, a, b, difference as CSV")
    add_options(pair, "compare")

    picture = commands.add_parser("plot", help="write a PNG of mean NDCG@k against k (needs matplotlib)")
    picture.add_argument("runs", metavar="RUN", nargs="+", help="one or more rankings, one line each")
    picture.add_argument("--output", "-o", required=True, metavar="FILE", help="the PNG to write")
    picture.add_argument("--distribution", type=int, metavar="K",
                         help="add a panel with each run's per-query NDCG@K (K among --k)")
    add_options(picture, "plot")

    sql = commands.add_parser("sql", help="print the SQL instead of running it")
    sql.add_argument("run", metavar="RUN", nargs="?", help="a Parquet, CSV or JSON file for DuckDB to read")
    sql.add_argument("--table", metavar="NAME", help="the ranking table instead of a file (db.schema.table)")
    sql.add_argument("--judgments-table", metavar="NAME", help="the judgments table instead of --judgments FILE")
    sql.add_argument("--statement", choices=STATEMENTS, default="per_query",
                     help="per-query rows (default), the summary, or the query counts")
    add_options(sql, "sql")
    return parser


def _evaluate(args) -> int:
    options = given(args, "evaluate", leave=("memory_limit",))
    con = connect(getattr(args, "memory_limit", DEFAULT_MEMORY_LIMIT))
    if args.no_progress:
        con.execute("SET enable_progress_bar = false")
        result = evaluate(args.run, con=con, **options)
    else:
        with progress.reported(con):
            result = evaluate(args.run, con=con, **options)
    if args.per_query_file:
        with open(args.per_query_file, "w", newline="", encoding="utf-8") as handle:
            write_csv(result.per_query_records(), handle)
    if args.format == "json":
        write_json(result.to_dict(), sys.stdout)
    elif args.format == "csv":
        write_csv(result.summary_records(), sys.stdout)
    else:
        print_table(result, sys.stdout)
    return 0


def _compare(args) -> int:
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    result = compare(args.run_a, args.run_b, con=con, **given(args, "compare"))
    if args.per_query_file:
        with open(args.per_query_file, "w", newline="", encoding="utf-8") as handle:
            names = result.per_query.columns
            write_csv([dict(zip(names, row)) for row in result.per_query.fetchall()], handle)
    if args.format == "json":
        write_json(result.to_dict(), sys.stdout)
    elif args.format == "csv":
        write_csv(result.summary, sys.stdout)
    else:
        sys.stdout.write(options_line(result.options))
        print_comparison(result.summary, getattr(args, "segments", None) or (), sys.stdout)
    return 0


def _plot(args) -> int:
    from pathlib import Path

    options = given(args, "plot")
    if "k" in options:
        if not all(str(c).isdigit() for c in options["k"]):
            raise OptionError("plot takes positive integer cutoffs (--k 1 2 3 ...), not 'all'")
        options["k"] = [int(c) for c in options["k"]]
    labels = [Path(run).name for run in args.runs]
    if len(set(labels)) != len(labels):
        labels = list(args.runs)
    plot(dict(zip(labels, args.runs)), args.output, distribution=args.distribution, **options)
    return 0


def _sql(args) -> int:
    if (args.run is None) == (args.table is None):
        raise OptionError("give either a RUN file or --table NAME")
    options = given(args, "sql")
    judgments = options.pop("judgments", None)
    if judgments is not None and args.judgments_table:
        raise OptionError("give --judgments FILE or --judgments-table NAME, not both")
    sys.stdout.write(to_sql(args.table, file=args.run, judgments_table=args.judgments_table, judgments_file=judgments,
                            what=args.statement, **options))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``ndcg-sql``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _dispatch(parser, args)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _dispatch(parser, args) -> int:
    commands = {"evaluate": _evaluate, "compare": _compare, "plot": _plot, "sql": _sql}
    try:
        return commands[args.command](args)
    except OptionError as error:
        parser.exit(2, f"ndcg-sql: error: {error}\n")
    except InputError as error:
        head, *rest = [line.strip() for line in str(error).splitlines() if line.strip()]
        message = f"{head} {'; '.join(rest)}" if head.endswith(":") else "; ".join([head, *rest])
        parser.exit(1, f"ndcg-sql: error: {message}\n")
    except sqlglot.errors.SqlglotError as error:
        parser.exit(2, f"ndcg-sql: error: sqlglot: {error}\n")
    except duckdb.Error as error:
        message = " ".join(str(error).split())
        parser.exit(1, f"ndcg-sql: error: DuckDB: {message}\n")
    except (FileNotFoundError, PermissionError, IsADirectoryError) as error:
        parser.exit(1, f"ndcg-sql: error: {error}\n")


if __name__ == "__main__":
    sys.exit(main())
