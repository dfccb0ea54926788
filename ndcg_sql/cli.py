"""The ``ndcg-sql`` command line (argparse).

    ndcg-sql evaluate RUN [--judgments FILE] [--k K ...] [--gain ...] [--ties ...]
                          [--no-relevant ...] [--format table|json|csv] [--per-query FILE]
    ndcg-sql compare A B [--measures NAME ...] [--permutations N] [--seed S] [...same options]
    ndcg-sql plot RUN [RUN ...] --output FILE [--k ...] [--bootstrap N] [--seed S] [...same options]
    ndcg-sql sql (RUN | --table NAME) [--dialect D] [--measures NAME ...] [...same options]   # prints the SQL

Errors are one line on stderr and exit status 2 (bad options) or 1 (bad input).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys

import duckdb
import sqlglot.errors

from . import __version__, progress
from .evaluate import DEFAULT_MEMORY_LIMIT, Result, connect, evaluate
from .inputs import FORMATS
from .conventions import CONVENTIONS
from .options import GAINS, MISSING_QUERIES, NEGATIVE_LABELS, NO_RELEVANT, SCORE_PRECISIONS, TIES, OptionError
from .dialects import DIALECTS
from .sql_text import ITEM_TYPES, to_sql
from .validation import InputError


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line (the usage stays in --help)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _gain(text: str):
    """'exponential', 'linear', or a mapping '0:0,1:1,2:3,3:7'."""
    if text in GAINS:
        return text
    try:
        pairs = [(float(label), float(gain)) for label, gain in (pair.split(":") for pair in text.split(","))]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"gain must be {' or '.join(GAINS)} or a mapping like 0:0,1:1,2:3; got {text!r}"
        ) from None
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        raise argparse.ArgumentTypeError(f"the gain mapping gives a label twice: {text!r}")
    return dict(pairs)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judgments", metavar="FILE", help="relevance judgments (qrels); labels and the ideal ranking come from here")
    parser.add_argument("--k", nargs="+", default=None, metavar="K",
                        help="cutoffs: positive integers, 'all' for the whole list (default: 1 3 5 10 20 all)")
    parser.add_argument("--gain", type=_gain, default="exponential",
                        help="exponential (2^label - 1, default), linear (label), or a mapping like 0:0,1:1,2:3")
    parser.add_argument("--ties", choices=TIES, default="average",
                        help="equal scores: average (tie-aware, default), item-asc, item-desc (trec_eval)")
    parser.add_argument("--no-relevant", choices=NO_RELEVANT, default="zero",
                        help="NDCG of a query with IDCG@k = 0: zero (default), skip, one")
    parser.add_argument("--missing-queries", choices=MISSING_QUERIES, default="ignore",
                        help="with --judgments: judged queries absent from the run are ignored (default) or count as 0 (trec_eval -c)")
    parser.add_argument("--query-col", default="query_id", metavar="NAME", help="default: query_id")
    parser.add_argument("--item-col", default="item_id", metavar="NAME", help="default: item_id")
    parser.add_argument("--score-col", default=None, metavar="NAME", help="higher is better (default: score)")
    parser.add_argument("--rank-col", default=None, metavar="NAME",
                        help="logged rank instead of a score: smaller is better (1 = top)")
    parser.add_argument("--label-col", default="label", metavar="NAME", help="default: label")
    parser.add_argument("--convention", choices=sorted(CONVENTIONS),
                        help="set gain, ties, no-relevant, score precision and negative labels as a peer tool does")
    parser.add_argument("--row-col", metavar="NAME", help="with --ties input-order: the column of input row positions")
    parser.add_argument("--score-precision", choices=SCORE_PRECISIONS, default="double",
                        help="double (default) or float32 (scores rounded to float32 first, as trec_eval, XGBoost)")
    parser.add_argument("--negative-labels", choices=NEGATIVE_LABELS, default="error",
                        help="error (default) or zero (count as label 0, as trec_eval)")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="ndcg-sql", description="DCG, IDCG and NDCG@k of logged rankings, computed in SQL (DuckDB)."
    )
    parser.add_argument("--version", action="version", version=f"ndcg-sql {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    run = commands.add_parser("evaluate", help="compute NDCG@k of a ranking")
    run.add_argument("run", metavar="RUN", help="ranking file: Parquet, CSV, JSON, or TREC run (qid Q0 docid rank score tag)")
    _common(run)
    run.add_argument("--measures", nargs="+", metavar="NAME",
                     help="measures in ir_measures notation instead of NDCG@k: nDCG@10 P@5 R@100 AP AP@10 RR "
                          "Success@10 'P(rel=2)@5' CG@k DCG@k (MAP, MRR, Hit@k are aliases)")
    run.add_argument("--segments", nargs="+", metavar="COL",
                     help="segment columns (experiment arm, date, device): every metric per segment and query")
    run.add_argument("--bootstrap", type=int, default=0, metavar="N",
                     help="add a 95%% percentile bootstrap interval of each mean from N resamples of the queries")
    run.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)")
    run.add_argument("--intervals", action="store_true",
                     help="add the standard error and 95%% interval of each mean (always with --measures)")
    run.add_argument("--format", choices=("table", "json", "csv"), default="table", help="summary output (default: table)")
    run.add_argument("--per-query", metavar="FILE",
                     help="also write per-query rows (query, k, cg, dcg, idcg, ndcg; with --measures query, measure, value) as CSV")
    run.add_argument("--input-format", choices=FORMATS, help="format of RUN when its file ending does not tell")
    run.add_argument("--judgments-format", choices=FORMATS, help="format of --judgments when its ending does not tell")
    run.add_argument("--threads", type=int, help="DuckDB threads (default: all cores)")
    run.add_argument("--memory-limit", default=DEFAULT_MEMORY_LIMIT, metavar="SIZE",
                     help=f"DuckDB memory limit, past which it spills to disk (default {DEFAULT_MEMORY_LIMIT}; "
                          "'none': DuckDB's own, 80%% of RAM)")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    pair = commands.add_parser("compare", help="compare two runs on the same queries (paired t-test, permutation test)")
    pair.add_argument("run_a", metavar="A", help="the first ranking (differences are A - B)")
    pair.add_argument("run_b", metavar="B", help="the second ranking, same kinds as A")
    _common(pair)
    pair.add_argument("--measures", nargs="+", metavar="NAME", default=["nDCG@10"],
                      help="measures in ir_measures notation (default: nDCG@10)")
    pair.add_argument("--permutations", type=int, default=10_000,
                      help="sign patterns of the permutation test (default 10000; exact when 2^queries is fewer)")
    pair.add_argument("--seed", type=int, default=0, help="seed of the sampled sign patterns (default 0)")
    pair.add_argument("--segments", nargs="+", metavar="COL",
                      help="segment columns: one comparison per (segment values, measure)")
    pair.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output (default: table)")
    pair.add_argument("--per-query", metavar="FILE", help="also write query, measure, a, b, difference as CSV")
    pair.add_argument("--input-format", choices=FORMATS, help="format of A and B when their file endings do not tell")
    pair.add_argument("--judgments-format", choices=FORMATS, help="format of --judgments when its ending does not tell")

    picture = commands.add_parser("plot", help="write a PNG of mean NDCG@k against k (needs matplotlib)")
    picture.add_argument("runs", metavar="RUN", nargs="+", help="one or more rankings, one line each")
    picture.add_argument("--output", "-o", required=True, metavar="FILE", help="the PNG to write")
    picture.add_argument("--bootstrap", type=int, default=0, metavar="N",
                         help="shade a 95%% percentile bootstrap band from N resamples of the queries")
    picture.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)")
    picture.add_argument("--distribution", type=int, metavar="K",
                         help="add a panel with each run's per-query NDCG@K (K among --k)")
    picture.add_argument("--input-format", choices=FORMATS, help="format of the runs when their file endings do not tell")
    picture.add_argument("--judgments-format", choices=FORMATS, help="format of --judgments when its ending does not tell")
    _common(picture)

    sql = commands.add_parser("sql", help="print the per-query SQL instead of running it")
    sql.add_argument("run", metavar="RUN", nargs="?", help="a Parquet, CSV or JSON file for DuckDB to read")
    sql.add_argument("--table", metavar="NAME", help="the ranking table instead of a file (db.schema.table)")
    sql.add_argument("--judgments-table", metavar="NAME", help="the judgments table instead of --judgments FILE")
    sql.add_argument("--measures", nargs="+", metavar="NAME", help="measures in ir_measures notation (rows: query, measure, value)")
    sql.add_argument("--dialect", choices=tuple(DIALECTS), default="duckdb",
                     help="the engine to write SQL for (default: duckdb); transpiled by sqlglot")
    sql.add_argument("--item-type", choices=ITEM_TYPES, default="text",
                     help="type of the item ids, needed with --ties item-asc/item-desc (default: text)")
    sql.add_argument("--statement", choices=("per_query", "summary", "coverage"), default="per_query",
                     help="per-query rows (default), the summary per k, or the query counts")
    sql.add_argument("--segments", nargs="+", metavar="COL",
                     help="segment columns: every metric per (segment values, query)")
    sql.add_argument("--segmented-judgments", action="store_true",
                     help="with --segments: the judgments carry the segment columns (judgments per segment)")
    _common(sql)
    return parser


def _options(args) -> dict:
    return dict(
        k=args.k if args.k is not None else None,
        query_col=args.query_col,
        item_col=args.item_col,
        score_col=args.score_col,
        rank_col=args.rank_col,
        label_col=args.label_col,
        gain=args.gain,
        ties=args.ties,
        no_relevant=args.no_relevant,
        missing_queries=args.missing_queries,
        convention=args.convention,
        row_col=args.row_col,
        score_precision=args.score_precision,
        negative_labels=args.negative_labels,
    )


def _drop_default_k(options: dict) -> dict:
    if options["k"] is None:
        del options["k"]
    return options


def _number(value) -> str:
    """Full precision: repr of a float round-trips exactly."""
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def print_table(result: Result, out) -> None:
    options = result.options
    gain = options["gain"] if isinstance(options["gain"], str) else "mapping " + json.dumps(options["gain"])
    out.write(
        f"options: gain={gain} discount={options['discount']} ties={options['ties']} "
        f"ideal={options['ideal']} no_relevant={options['no_relevant']}"
        + (f" missing_queries={options['missing_queries']}" if options["missing_queries"] else "")
        + "\n"
    )
    out.write("queries: " + " ".join(f"{key}={value}" for key, value in result.coverage.items()) + "\n")
    records = result.summary_records()
    if result.options.get("segments"):
        names = list(result.summary.columns)
        rows = [tuple(names)] + [tuple(_number(r[n]) if not isinstance(r[n], str) else r[n] for n in names) for r in records]
    elif "measure" in result.summary.columns:
        numbers = [c for c in ("mean", "stderr", "ci_low", "ci_high", "bootstrap_low", "bootstrap_high")
                   if c in result.summary.columns]
        rows = [("measure", *numbers, "queries")]
        for record in records:
            rows.append((record["measure"], *(_number(record[c]) for c in numbers), str(record["queries"])))
    else:
        rows = [("k", "ndcg", "queries", "no_relevant")]
        extra = [c for c in ("ndcg_stderr", "ndcg_ci_low", "ndcg_ci_high", "bootstrap_low", "bootstrap_high")
                 if c in result.summary.columns]
        rows[0] += tuple(c.removeprefix("ndcg_") for c in extra)
        for record in records:
            k = "all" if record["k"] is None else str(record["k"])
            rows.append((k, _number(record["ndcg"]), str(record["queries"]), str(record["no_relevant"]),
                         *(_number(record[c]) for c in extra)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.rjust(width) for cell, width in zip(row, widths)).rstrip() + "\n")


def write_csv(records: list[dict], out) -> None:
    if not records:
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(records[0].keys())
    for record in records:
        writer.writerow(_number(value) for value in record.values())


def _evaluate(args) -> int:
    con = connect(None if args.memory_limit.lower() == "none" else args.memory_limit)
    options = _drop_default_k(_options(args))
    if args.threads is not None:
        options["threads"] = args.threads
    if args.no_progress:
        con.execute("SET enable_progress_bar = false")
        result = _run(con, args, options)
    else:
        with progress.reported(con):
            result = _run(con, args, options)
    if args.per_query:
        with open(args.per_query, "w", newline="", encoding="utf-8") as handle:
            write_csv(result.per_query_records(), handle)
    if args.format == "json":
        json.dump(result.to_dict(), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    elif args.format == "csv":
        write_csv(result.summary_records(), sys.stdout)
    else:
        print_table(result, sys.stdout)
    return 0


def _run(con, args, options) -> Result:
    return evaluate(
        args.run,
        measures=args.measures,
        intervals=args.intervals,
        segments=args.segments,
        bootstrap=args.bootstrap,
        seed=args.seed,
        judgments=args.judgments,
        con=con,
        input_format=args.input_format,
        judgments_format=args.judgments_format,
        **options,
    )


def _compare(args) -> int:
    from .compare import compare

    options = _options(args)
    if options.pop("k") is not None:
        raise OptionError("compare takes --measures (e.g. nDCG@10 P@5), not --k")
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    result = compare(
        args.run_a, args.run_b, args.measures, permutations=args.permutations, seed=args.seed, con=con,
        judgments=args.judgments, input_format=args.input_format, judgments_format=args.judgments_format,
        segments=args.segments, **options,
    )
    if args.per_query:
        with open(args.per_query, "w", newline="", encoding="utf-8") as handle:
            write_csv(_records_of(result.per_query), handle)
    if args.format == "json":
        json.dump(result.to_dict(), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    elif args.format == "csv":
        write_csv(result.summary, sys.stdout)
    else:
        columns = (*(args.segments or ()), "measure", "queries", "mean_a", "mean_b", "mean_difference", "ci_low",
                   "ci_high", "t_p_value", "permutation_p_value", "wins", "ties", "losses")
        rows = [columns] + [tuple(_number(r[c]) if not isinstance(r[c], str) else r[c] for c in columns)
                            for r in result.summary]
        widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
        for row in rows:
            sys.stdout.write("  ".join(cell.rjust(width) for cell, width in zip(row, widths)).rstrip() + "\n")
    return 0


def _plot(args) -> int:
    from pathlib import Path

    from .plot import plot

    options = _options(args)
    k = options.pop("k")
    cutoffs = [int(c) for c in k] if k is not None and all(str(c).isdigit() for c in k) else None
    if k is not None and cutoffs is None:
        raise OptionError("plot takes positive integer cutoffs (--k 1 2 3 ...), not 'all'")
    labels = [Path(run).name for run in args.runs]
    if len(set(labels)) != len(labels):
        labels = list(args.runs)
    plot(dict(zip(labels, args.runs)), args.output, **({"k": cutoffs} if cutoffs else {}),
         bootstrap=args.bootstrap, seed=args.seed, distribution=args.distribution, judgments=args.judgments, input_format=args.input_format,
         judgments_format=args.judgments_format, **options)
    return 0


def _records_of(relation) -> list[dict]:
    names = relation.columns
    return [dict(zip(names, row)) for row in relation.fetchall()]


def _sql(args) -> int:
    if (args.run is None) == (args.table is None):
        raise OptionError("give either a RUN file or --table NAME")
    if args.judgments and args.judgments_table:
        raise OptionError("give --judgments FILE or --judgments-table NAME, not both")
    options = _drop_default_k(_options(args))
    sys.stdout.write(
        to_sql(
            args.table,
            file=args.run,
            judgments_table=args.judgments_table,
            judgments_file=args.judgments,
            measures=args.measures,
            dialect=args.dialect,
            item_type=args.item_type,
            what=args.statement,
            segments=args.segments,
            segmented_judgments=args.segmented_judgments,
            **options,
        )
    )
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
    try:
        if args.command == "evaluate":
            return _evaluate(args)
        if args.command == "compare":
            return _compare(args)
        if args.command == "plot":
            return _plot(args)
        return _sql(args)
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
