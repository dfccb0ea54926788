"""Comparing two runs on the same queries: paired differences and tests.

Every number except the t distribution's p-value and quantile is computed in
SQL (``sql/paired_differences.sql.j2``, ``sql/paired_tests.sql.j2``); those two
come from scipy (``pip install 'ndcg_sql[stats]'``), the well-kept library for
Student's t distribution.
"""

from __future__ import annotations

import duckdb

from . import activity, id_types, templates
from .api import evaluate
from .connections import Leftovers, connect, drop, interruptible, turn
from .errors import MissingDependency, OptionError
from .executors import DEFAULT_MEMORY_LIMIT
from .identifiers import quote
from .inputs import new_view_name
from .plan import RANDOM_PRIME
from .report import run_names
from .results import Comparison, Result, records as _records

#: Default sign patterns of the permutation test (exact below 2^13 queries' worth).
DEFAULT_PERMUTATIONS = 10_000
#: Largest number of sign patterns accepted (rows = queries x patterns).
MAX_PERMUTATIONS = 1_000_000


def _t_distribution():
    try:
        from scipy import stats
    except ImportError:  # pragma: no cover - the test extra installs scipy
        raise MissingDependency(
            "compare needs scipy for the t distribution: pip install 'ndcg_sql[stats]'"
        ) from None
    return stats.t


#: DuckDB types of a comparison's summary columns (after the segment columns).
SUMMARY_TYPES = {
    "measure": "VARCHAR", "queries": "BIGINT", "mean_a": "DOUBLE", "mean_b": "DOUBLE", "mean_difference": "DOUBLE",
    "stderr": "DOUBLE", "ci_low": "DOUBLE", "ci_high": "DOUBLE", "t": "DOUBLE", "df": "BIGINT",
    "t_p_value": "DOUBLE", "permutation_p_value": "DOUBLE", "permutation_kind": "VARCHAR",
    "wins": "BIGINT", "ties": "BIGINT", "losses": "BIGINT", "only_a": "BIGINT", "only_b": "BIGINT",
}


def _summary_table(con, rows: list[dict], segment_types: dict[str, str], leftovers: Leftovers) -> duckdb.DuckDBPyRelation:
    """The summary rows as a DuckDB temp table (in their order, listed in ``leftovers``), read as a relation."""
    name = new_view_name("comparison_summary")
    columns = {**segment_types, **SUMMARY_TYPES}
    con.execute(f"CREATE TEMP TABLE {quote(name)} (" + ", ".join(f"{quote(c)} {t}" for c, t in columns.items()) + ")")
    leftovers.add("TABLE", name)
    if rows:
        con.executemany(f"INSERT INTO {quote(name)} VALUES ({', '.join('?' for _ in columns)})",
                        [[row.get(c) for c in columns] for row in rows])
    return con.table(name)


def _query_ids_alike(con, a_table: str, b_table: str, query_col: str, made: list) -> tuple[str, str]:
    """The two runs' per-query relations with their query ids in one type, by the id rule of
    :mod:`ndcg_sql.id_types` (an integer run against a TREC file's text ids: both as text in
    TREC form), so that pairing them is never an engine's implicit cast."""
    types = [dict(zip(r.columns, map(str, r.types))) for r in (con.sql(f"SELECT * FROM {t} LIMIT 0")
                                                                for t in (a_table, b_table))]
    if query_col not in types[0] or query_col not in types[1]:
        return a_table, b_table
    forms = id_types.pair_forms(types[0][query_col], types[1][query_col])
    if forms == ("native", "native"):
        return a_table, b_table
    out = []
    for table, form in zip((a_table, b_table), forms):
        name = new_view_name("query_ids_as_text")
        cast = templates.environment().get_template("ids.sql.j2").module.id_of(quote(query_col), form)
        con.execute(f"CREATE TEMP VIEW {quote(name)} AS SELECT * REPLACE ({cast} AS {quote(query_col)}) FROM {table}")
        made.append(("VIEW", name))
        out.append(quote(name))
    return out[0], out[1]


def compare(
    run_a,
    run_b,
    measures=("nDCG@10",),
    *,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    con=None,
    temp_directory: str | None = None,
    names: tuple[str, str] | None = None,
    **options,
) -> Comparison:
    """Compare two runs on the queries both evaluated, per measure (and per segment).

    For each measure, with d_i = a_i - b_i over the n paired queries: mean
    difference, standard error s_d / sqrt(n), the 95% t interval
    dbar -/+ t_{0.975, n-1} SE, the paired t-test (Student 1908; equal to
    scipy.stats.ttest_rel), a two-sided sign-flip permutation test (Fisher
    1935; Smucker, Allan & Carterette, CIKM 2007; exact when 2^n <=
    permutations, else ``permutations`` patterns fixed by ``seed``), and
    wins / ties / losses.

    Args:
        run_a, run_b: two rankings, any input :func:`ndcg_sql.evaluate` takes
            (table names on a warehouse connection).
        measures: names in ir_measures notation (default nDCG@10).
        permutations: sign patterns of the permutation test (1 .. 1,000,000).
        seed: non-negative integer fixing the sampled patterns (the same
            patterns on every engine and version: sql/random_draws.sql.j2).
        con: DuckDB connection (default: a new in-memory one with the ``memory_limit`` of
            ``options``, as :func:`ndcg_sql.evaluate` opens it), or a warehouse
            connection with ``dialect=`` in ``options``: each run's per-query
            values are computed there (:func:`ndcg_sql.evaluate` with ``con=``),
            only those rows come back, and the paired statistics are
            computed by the same SQL in a local DuckDB.
        temp_directory: where a connection compare opens gets the temp folder DuckDB spills to
            (default: the system's temp dir).
        names: what the text and JSON outputs call A and B, two strings (default: runs given as
            paths or table names by the shortest ends that tell them apart, as ``ndcg-sql plot``'s
            legend; others by their kind, "a DataFrame": :func:`ndcg_sql.report.run_names`).
        **options: passed to :func:`ndcg_sql.evaluate` for both runs
            (judgments, gain, ties, column names, segments, dialect, ...).
            With ``segments``, one summary row per (segment values, measure),
            pairing each run's (segment, query) rows.

    Returns:
        :class:`Comparison`: ``close()`` it (or use ``with``) to drop its temp tables.

    Raises:
        OptionError: bad options, permutations, seed or names.
        MissingDependency: scipy is not installed (an ImportError naming the extra).
        InputError: bad input in either run.
    """
    if isinstance(permutations, bool) or not isinstance(permutations, int) or not 1 <= permutations <= MAX_PERMUTATIONS:
        raise OptionError(f"permutations must be an integer from 1 to {MAX_PERMUTATIONS}; got {permutations!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"seed must be a non-negative integer; got {seed!r}")
    if names is None:
        names = tuple(run_names([run_a, run_b]))
    elif not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise OptionError(f"names must be two strings, the names of A and B; got {names!r}")
    if "k" in options or "intervals" in options or "bootstrap" in options:
        raise OptionError("compare takes measures (e.g. ['nDCG@10', 'P@5']), not k, intervals or bootstrap")
    if options.get("weight_col") is not None:
        raise OptionError("compare does not take weight_col: its paired tests weigh every query alike")
    t_dist = _t_distribution()
    on_warehouse = con is not None and not isinstance(con, duckdb.DuckDBPyConnection)
    memory_limit = options.pop("memory_limit", DEFAULT_MEMORY_LIMIT)  # of the connection opened here
    local = con if con is not None and not on_warehouse else connect(memory_limit, temp_directory=temp_directory)
    leftovers = Leftovers(local, owned=local is not con)
    runs: list[Result] = []
    made: list[tuple[str, str]] = []  # what only the computation reads, dropped before returning
    try:
        with turn(local):
            comparison = _compare(local, con if on_warehouse else local, on_warehouse, run_a, run_b, measures,
                                  permutations, seed, options, t_dist, runs, made, leftovers)
            drop(local, list(reversed(made)))
            comparison.names = tuple(names)
            return comparison
    except BaseException:
        drop(local, list(reversed(made)))
        for run in runs:
            run.close()
        leftovers.release()
        raise


def _compare(con, runs_on, on_warehouse: bool, run_a, run_b, measures, permutations: int, seed: int,
             options: dict, t_dist, runs: list, made: list, leftovers: Leftovers) -> Comparison:
    """:func:`compare` on the local connection ``con`` (each run evaluated on ``runs_on``);
    appends the runs' results to ``runs``, what it creates to ``made`` (or to ``leftovers``,
    what the comparison reads)."""
    with activity.doing(runs_on, "run A"):
        runs.append(evaluate(run_a, measures=measures, con=runs_on, per_query=on_warehouse, **options))
    with activity.doing(runs_on, "run B"):
        runs.append(evaluate(run_b, measures=measures, con=runs_on, per_query=on_warehouse, **options))
    a, b = runs
    if on_warehouse:
        a_table, b_table = (quote(_local_table(con, r, made)) for r in (a, b))
    else:
        a_table, b_table = (quote(_view(con, r, made)) for r in (a, b))
    query_col = quote(options.get("query_col", "query_id"))
    a_table, b_table = _query_ids_alike(con, a_table, b_table, options.get("query_col", "query_id"), made)
    segments = [quote(s) for s in a.options.get("segments", [])]
    differences = new_view_name("paired_differences")
    statement = (f"CREATE TEMP TABLE {quote(differences)} AS "
                 + templates.render("paired_differences.sql.j2", a_relation=a_table, b_relation=b_table,
                                    output_query_col=query_col, segment_cols=segments))
    interruptible(con, lambda: con.execute(statement))
    leftovers.add("TABLE", differences)
    with activity.doing(con, f"paired tests, up to {permutations} sign patterns"):
        tests = _fetched(con, templates.render(
            "paired_tests.sql.j2", differences_relation=quote(differences), output_query_col=query_col,
            permutations=int(permutations), exact_max_queries=int(permutations).bit_length() - 1,
            seed_state=int(seed) % RANDOM_PRIME, group_cols=[*segments, "measure"],
            segment_cols=segments,
        ))
    names = a.options.get("segments", [])
    key = lambda row: (*(row[n] for n in names), row["measure"])  # noqa: E731
    by_group = {key(row): row for row in tests}
    unpaired = {key(row): row for row in _fetched(con, templates.render(
        "unpaired_counts.sql.j2", a_relation=a_table, b_relation=b_table, output_query_col=query_col,
        segment_cols=segments,
    ))}
    segment_values = sorted({k[:-1] for k in (*by_group, *unpaired)}, key=_none_last)
    summary = []
    for values in segment_values:
        for name in a.options["measures"]:
            row = by_group.get((*values, name)) or {"measure": name, "queries": 0}
            counts = unpaired.get((*values, name), {})
            out = _with_t(row, t_dist, counts.get("only_a", 0), counts.get("only_b", 0))
            summary.append({**dict(zip(names, values)), **out})
    report = {**a.options, "permutations": permutations, "seed": seed}
    paired = con.table(differences)
    types = dict(zip(paired.columns, map(str, paired.types)))
    summary_relation = _summary_table(con, summary, {n: types.get(n, "VARCHAR") for n in names}, leftovers)
    # the connection compare opened goes once the comparison's relations and the runs' are collected
    leftovers.watch(paired, summary_relation, a.per_query, a.summary, b.per_query, b.summary)
    return Comparison(paired, summary_relation, a, b, report, leftovers)


def _fetched(con, sql: str) -> list[dict]:
    """The rows of a statement as dicts (interruptible by Ctrl-C)."""
    return interruptible(con, lambda: _records(con.sql(sql)))


def _view(con, result: Result, made: list) -> str:
    """A temp view over a local result's per-query rows (listed in ``made``); returns its name."""
    name = new_view_name("per_query")
    con.execute(f"CREATE TEMP VIEW {quote(name)} AS {result.per_query.sql_query()}")
    made.append(("VIEW", name))
    return name


def _none_last(values: tuple) -> tuple:
    return tuple((value is None, value) for value in values)


#: DuckDB column type by the Python type of a fetched value.
_LOCAL_TYPES = {bool: "BOOLEAN", int: "BIGINT", float: "DOUBLE", str: "VARCHAR"}


def _local_table(con, result, made: list) -> str:
    """A warehouse result's per-query rows (query, measure, value; segment
    columns first) as a local DuckDB temp table (listed in ``made``); returns its name."""
    table = new_view_name("warehouse_per_query")
    made.append(("TABLE", table))
    rows = result.per_query_records()
    query_col = next(iter(rows[0])) if rows else "query_id"
    columns = [*result.options.get("segments", []), *(list(rows[0]) if rows else [query_col, "measure", "value"])]
    columns = list(dict.fromkeys(columns))
    types = []
    for column in columns:
        kinds = {type(row.get(column)) for row in rows if row.get(column) is not None}
        kind = float if kinds == {int, float} else (kinds.pop() if len(kinds) == 1 else str)
        types.append("DOUBLE" if column == "value" else _LOCAL_TYPES.get(kind, "VARCHAR"))
    con.execute(f"CREATE TEMP TABLE {quote(table)} ("
                + ", ".join(f"{quote(c)} {t}" for c, t in zip(columns, types)) + ")")
    if rows:
        # one statement: each column a list parameter, unnested side by side (row by row, an
        # INSERT per row, took about 10 minutes a million rows)
        make = {local: python for python, local in _LOCAL_TYPES.items()}
        values = [[None if row.get(c) is None else make[t](row.get(c)) for row in rows] for c, t in zip(columns, types)]
        con.execute(f"INSERT INTO {quote(table)} SELECT "
                    + ", ".join(f"UNNEST(CAST(${i} AS {t}[]))" for i, t in enumerate(types, 1)), values)
    return table


def _with_t(row: dict, t_dist, only_a: int, only_b: int) -> dict:
    """Add the t p-value and interval (scipy's t distribution) to one SQL row."""
    n = row.get("queries", 0)
    out = {
        "measure": row["measure"], "queries": n, "mean_a": row.get("mean_a"), "mean_b": row.get("mean_b"),
        "mean_difference": row.get("mean_difference"), "stderr": row.get("stderr"),
        "ci_low": None, "ci_high": None, "t": row.get("t"), "df": row.get("df"), "t_p_value": None,
        "permutation_p_value": row.get("permutation_p_value"), "permutation_kind": row.get("permutation_kind"),
        "wins": row.get("wins", 0), "ties": row.get("ties", 0), "losses": row.get("losses", 0),
        "only_a": only_a, "only_b": only_b,
    }
    if out["stderr"] is not None:
        half = float(t_dist.ppf(0.975, n - 1)) * out["stderr"]
        out["ci_low"], out["ci_high"] = out["mean_difference"] - half, out["mean_difference"] + half
    if out["t"] is not None:
        out["t_p_value"] = float(2.0 * t_dist.sf(abs(out["t"]), n - 1))
    return out
