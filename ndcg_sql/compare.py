"""Comparing two runs on the same queries: paired differences and tests.

Every number except the t distribution's p-value and quantile is computed in
SQL (``sql/paired_differences.sql.j2``, ``sql/paired_tests.sql.j2``); those two
come from scipy (``pip install 'ndcg_sql[stats]'``), the well-kept library for
Student's t distribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb

from . import templates
from .evaluate import Result, _records, evaluate
from .identifiers import quote
from .inputs import new_view_name
from .options import OptionError

#: Default sign patterns of the permutation test (exact below 2^13 queries' worth).
DEFAULT_PERMUTATIONS = 10_000
#: Largest number of sign patterns accepted (rows = queries x patterns).
MAX_PERMUTATIONS = 1_000_000


@dataclass
class Comparison:
    """The outcome of :func:`compare`.

    Attributes:
        per_query: DuckDB relation, one row per (query, measure) both runs
            evaluated: query id, measure, a, b, difference (= a - b).
        summary: list of dicts, one per measure in the order asked: measure,
            queries (paired), mean_a, mean_b, mean_difference, stderr, ci_low,
            ci_high (t interval, 95%), t, df, t_p_value (two-sided paired t-test,
            as scipy.stats.ttest_rel), permutation_p_value, permutation_kind
            ("exact" or "sampled"), wins, ties, losses (queries where a is
            better, equal, worse), only_a, only_b (queries one run lacks).
        a, b: the two :class:`~ndcg_sql.Result` objects.
        options: the conventions used, plus permutations and seed.
    """

    per_query: duckdb.DuckDBPyRelation
    summary: list
    a: Result = field(repr=False)
    b: Result = field(repr=False)
    options: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"options": self.options, "summary": self.summary}


def _t_distribution():
    try:
        from scipy import stats
    except ImportError:  # pragma: no cover - the test extra installs scipy
        raise OptionError(
            "compare needs scipy for the t distribution: pip install 'ndcg_sql[stats]'"
        ) from None
    return stats.t


def compare(
    run_a,
    run_b,
    measures=("nDCG@10",),
    *,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    con: duckdb.DuckDBPyConnection | None = None,
    **options,
) -> Comparison:
    """Compare two runs on the queries both evaluated, per measure.

    For each measure, with d_i = a_i - b_i over the n paired queries: mean
    difference, standard error s_d / sqrt(n), the 95% t interval
    dbar -/+ t_{0.975, n-1} SE, the paired t-test (Student 1908; equal to
    scipy.stats.ttest_rel), a two-sided sign-flip permutation test (Fisher
    1935; Smucker, Allan & Carterette, CIKM 2007; exact when 2^n <=
    permutations, else ``permutations`` patterns fixed by ``seed``), and
    wins / ties / losses.

    Args:
        run_a, run_b: two rankings, any input :func:`ndcg_sql.evaluate` takes.
        measures: names in ir_measures notation (default nDCG@10).
        permutations: sign patterns of the permutation test (1 .. 1,000,000).
        seed: integer fixing the sampled patterns (same DuckDB version, same
            patterns).
        con: DuckDB connection (default: a new in-memory one).
        **options: passed to :func:`ndcg_sql.evaluate` for both runs
            (judgments, gain, ties, column names, ...).

    Returns:
        :class:`Comparison`.

    Raises:
        OptionError: bad options, permutations or seed; scipy missing.
        InputError: bad input in either run.
    """
    if isinstance(permutations, bool) or not isinstance(permutations, int) or not 1 <= permutations <= MAX_PERMUTATIONS:
        raise OptionError(f"permutations must be an integer from 1 to {MAX_PERMUTATIONS}; got {permutations!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"seed must be a non-negative integer; got {seed!r}")
    if options.get("segments") is not None:
        raise OptionError("compare per segment is not supported yet: compare each segment's rows")
    if "k" in options or "intervals" in options:
        raise OptionError("compare takes measures (e.g. ['nDCG@10', 'P@5']), not k or intervals")
    t_dist = _t_distribution()
    con = con or duckdb.connect()
    a = evaluate(run_a, measures=measures, con=con, **options)
    b = evaluate(run_b, measures=measures, con=con, **options)
    query_col = quote(options.get("query_col", "query_id"))
    a_table, b_table = (quote(r.per_query.alias) for r in (a, b))
    differences = new_view_name("paired_differences")
    con.execute(
        f"CREATE TEMP TABLE {quote(differences)} AS "
        + templates.render("paired_differences.sql.j2", a_relation=a_table, b_relation=b_table,
                           output_query_col=query_col)
    )
    tests = _records(con.sql(templates.render(
        "paired_tests.sql.j2", differences_relation=quote(differences), output_query_col=query_col,
        permutations=int(permutations), seed=int(seed),
    )))
    by_measure = {row["measure"]: row for row in tests}
    unpaired = {row["measure"]: row for row in _records(con.sql(templates.render(
        "unpaired_counts.sql.j2", a_relation=a_table, b_relation=b_table, output_query_col=query_col,
    )))}
    summary = []
    for name in a.options["measures"]:
        row = by_measure.get(name) or {"measure": name, "queries": 0}
        counts = unpaired.get(name, {})
        summary.append(_with_t(row, t_dist, counts.get("only_a", 0), counts.get("only_b", 0)))
    report = {**a.options, "permutations": permutations, "seed": seed}
    return Comparison(con.table(differences), summary, a, b, report)


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
