"""The regression tests (issue 32, items 5 and 6): the daily gate against the trailing window
(sql/period_changes.sql.j2: Welch's t-test) and the arms against a baseline arm
(sql/arm_changes.sql.j2: the paired t-test), as the dbt package's ndcg_compare_arms and
ndcg_no_regression and `ndcg-sql plot --over` run them.

- The critical-value table (sql/options/t_critical_values.sql) is what tools/t_table.py writes,
  and each value is scipy.stats.t.ppf's.
- On the seeded daily logs (dbt_macros/integration_tests/make_seeds.py) the per-query NDCG@5 of
  the numpy reference (tests/reference.py) gives, through scipy.stats.ttest_ind(equal_var=False)
  and ttest_rel, the same t and df as the SQL; the p-value bracket and the decision are those of
  scipy's t distribution at the tabulated df, the bracket holds scipy's exact p-value, and
  exactly the seeded regression (treatment, last day) is significant.
- Bonferroni's level is alpha / m rounded down to a tabulated level (hand-worked); bad options
  stop with the option's name.
"""

import csv
from collections import defaultdict

import duckdb
import numpy as np
import pytest

import dbt_standin
import ndcg_sql
import reference
from conftest import ROOT
from ndcg_sql.vocabulary.errors import OptionError
from ndcg_sql.plot import period_changes
from tools import t_table

stats = pytest.importorskip("scipy.stats")

SEEDS = ROOT / "dbt_macros" / "integration_tests" / "seeds"
MACROS = dbt_standin.package_files(ROOT / "dbt_macros")
LAST_DAY = "2026-11-10"
#: the tabulated levels and df, read from the generated file (t_table's constants are checked apart)
LEVELS, DFS = list(t_table.LEVELS), list(t_table.DFS)


def test_critical_value_table_is_scipys():
    committed = (ROOT / t_table.OUT).read_text(encoding="utf-8")
    assert committed == t_table.text(), "run python -m tools.t_table"
    table = ndcg_sql.building.context.option_macros()._t_critical_values()
    assert table["levels"] == LEVELS and table["df"] == DFS
    for df, row in zip(DFS, table["critical"]):
        for level, c in zip(LEVELS, row):
            # ppf(1 - level) another route than the table's isf(level): 1 - level rounds, so to 1e-9
            assert c == pytest.approx(stats.t.ppf(1 - level, df), rel=1e-9)
    # the last row stands for every larger df: above the normal limit, by less than 3e-4
    for level, c in zip(LEVELS, table["critical"][-1]):
        assert 0 < c - stats.norm.isf(level) < 3e-4


def per_query_ndcg(name: str, k: int = 5) -> dict:
    """{(day, arm, query): NDCG@k} of a seeded log, by the numpy reference."""
    lists = defaultdict(list)
    with open(SEEDS / f"{name}.csv", newline="") as source:
        for row in csv.DictReader(source):
            lists[(row["day"], row["arm"])].append((row["query_id"], row["item_id"], float(row["score"]), int(row["label"])))
    values = {}
    for (day, arm), rows in lists.items():
        per_query, _ = reference.evaluate(rows, [k])
        values.update({(day, arm, q): v[3] for (q, _), v in per_query.items()})
    return values


def tabulated_df(df: float) -> int:
    return max(d for d in DFS if d <= df) if df >= 1 else DFS[0]


def bracket(t: float, df: float):
    """The smallest level whose critical value (scipy's, at the tabulated df) t reaches."""
    reached = [level for level in LEVELS if t <= -stats.t.isf(level, tabulated_df(df))]
    return min(reached) if reached else None


def bonferroni_level(alpha: float, tests: int):
    fitting = [level for level in LEVELS if level * tests <= alpha * (1 + 1e-12)]
    return max(fitting) if fitting else None


def load_per_query(con, values: dict, k: int = 5):
    """The reference's per-query values as ndcg_per_query's rows, a table of ``con``."""
    con.execute("CREATE TABLE per_query (day DATE, arm VARCHAR, query_id VARCHAR, k BIGINT, ndcg DOUBLE)")
    con.executemany("INSERT INTO per_query VALUES (?, ?, ?, ?, ?)",
                    [(day, arm, q, k, v) for (day, arm, q), v in sorted(values.items())])


@pytest.mark.parametrize("name, dropped", [("regression_log", {("treatment", LAST_DAY)}), ("steady_log", set())])
def test_period_changes_are_welchs_test(name, dropped):
    values = per_query_ndcg(name)
    days = sorted({day for day, _, _ in values})
    with ndcg_sql.evaluate(str(SEEDS / f"{name}.csv"), k=[5], segments=["arm", "day"]) as result:
        rows = period_changes(result.per_query, "day", 5, segments=["arm"], window=7)
    assert len(rows) == 2 * len(days)
    tests_per_day = defaultdict(int)
    expected = {}
    for arm in ("control", "treatment"):
        for place, day in enumerate(days):
            x = [v for (d, a, _), v in values.items() if (d, a) == (day, arm)]
            y = [v for (d, a, _), v in values.items() if a == arm and d in days[max(0, place - 7):place]]
            want = dict(queries=len(x), mean=np.mean(x), window_queries=len(y), window_periods=min(place, 7))
            if place >= 1:
                test = stats.ttest_ind(x, y, equal_var=False, alternative="less")
                a, b = np.var(x, ddof=1) / len(x), np.var(y, ddof=1) / len(y)
                df = (a + b) ** 2 / (a * a / (len(x) - 1) + b * b / (len(y) - 1))
                want.update(window_mean=np.mean(y), t=test.statistic, df=df, p=test.pvalue)
                tests_per_day[day] += 1
            expected[(arm, day)] = want
    for row in rows:
        want = expected[(row["arm"], str(row["day"]))]
        assert row["measure"] == "nDCG@5"
        assert (row["queries"], row["window_queries"], row["window_periods"]) == (
            want["queries"], want["window_queries"], want["window_periods"])
        assert row["mean"] == pytest.approx(want["mean"], abs=1e-12)
        if "t" not in want:
            assert row["t"] is None and row["significant_drop"] is False
            continue
        assert row["t"] == pytest.approx(want["t"], rel=1e-9) and row["df"] == pytest.approx(want["df"], rel=1e-9)
        assert row["change"] == pytest.approx(want["mean"] - want["window_mean"], abs=1e-12)
        p_below = bracket(want["t"], want["df"])
        assert row["p_value_below"] == p_below
        if p_below is not None:  # the bracket holds the exact p-value (conservative: a smaller df)
            assert want["p"] <= p_below
        tests = tests_per_day[str(row["day"])]
        assert row["tests"] == tests and row["decision_level"] == bonferroni_level(0.05, tests)
        assert row["adjusted_p_value_below"] == (None if p_below is None else min(1.0, p_below * tests))
    assert {(row["arm"], str(row["day"])) for row in rows if row["significant_drop"]} == dropped


def arm_rows(name: str, **options) -> tuple[list[dict], dict]:
    """ndcg_compare_arms (dbt stand-in) per day over the reference's per-query rows, and those values."""
    values = per_query_ndcg(name)
    con = duckdb.connect()
    load_per_query(con, values)
    macros = dbt_standin.load(MACROS)
    sql = macros.ndcg_compare_arms("per_query", "arm", "control", k=5, segment_cols=["day"], **options)
    relation = con.sql(sql)
    return [dict(zip(relation.columns, row)) for row in relation.fetchall()], values


@pytest.mark.parametrize("name, dropped", [("regression_log", {LAST_DAY}), ("steady_log", set())])
def test_compare_arms_is_the_paired_t_test(name, dropped):
    rows, values = arm_rows(name)
    days = sorted({day for day, _, _ in values})
    assert [str(row["day"]) for row in rows] == days and {row["arm"] for row in rows} == {"treatment"}
    for row in rows:
        day = str(row["day"])
        queries = sorted(q for d, a, q in values if (d, a) == (day, "control"))
        a = np.array([values[(day, "treatment", q)] for q in queries])
        b = np.array([values[(day, "control", q)] for q in queries])
        test = stats.ttest_rel(a, b, alternative="less")
        assert row["queries"] == len(queries) and row["df"] == len(queries) - 1
        assert row["mean"] == pytest.approx(a.mean(), abs=1e-12)
        assert row["baseline_mean"] == pytest.approx(b.mean(), abs=1e-12)
        assert row["change"] == pytest.approx((a - b).mean(), abs=1e-12)
        assert row["t"] == pytest.approx(test.statistic, rel=1e-9)
        assert row["p_value_below"] == bracket(test.statistic, len(queries) - 1)
        assert row["tests"] == len(days) and row["decision_level"] == 0.005  # 0.05 / 10, tabulated
    assert {str(row["day"]) for row in rows if row["significant_drop"]} == dropped


def test_min_effect_and_no_correction():
    """A drop must be at least min_effect (the seeded one is 0.23); without a correction each
    test is decided at alpha itself."""
    rows, _ = arm_rows("regression_log", min_effect=0.2, correction="none", alpha=0.1)
    assert {row["decision_level"] for row in rows} == {0.1}
    assert [str(row["day"]) for row in rows if row["significant_drop"]] == [LAST_DAY]
    rows, _ = arm_rows("regression_log", min_effect=0.3)
    assert not any(row["significant_drop"] for row in rows)


@pytest.mark.parametrize("alpha, tests, level", [(0.05, 1, 0.05), (0.05, 2, 0.025), (0.05, 3, 0.01), (0.05, 10, 0.005),
                                                 (0.01, 7, 0.001), (0.1, 40, 0.0025), (0.05, 60000, None)])
def test_bonferroni_rounds_down_to_a_tabulated_level(alpha, tests, level):
    """alpha / m, rounded down to a level of the table (hand-worked: 0.05 / 3 = 0.0167 -> 0.01)."""
    from ndcg_sql.building import templates
    from ndcg_sql.building.context import option_macros

    context = option_macros()._regression_context(dict(
        per_query_relation="x", query_col="query_id", segment_cols=[], group_col="day", k=[5], measures=None,
        alpha=alpha, correction="bonferroni", min_effect=0, window=7))
    sql = "SELECT " + templates.sql_macros()._decision_level(context, str(tests))
    assert duckdb.sql(sql).fetchall() == [(level,)]


@pytest.mark.parametrize("change, message", [
    (dict(correction="holm"), "correction='holm' needs each test's p-value"),
    (dict(alpha=0.03), "alpha must be one of the tabulated one-sided levels"),
    (dict(window=0), "window must be a positive integer"),
    (dict(min_effect=-0.1), "min_effect must be a number >= 0"),
    (dict(correction="sidak"), "correction must be one of"),
])
def test_bad_options_are_refused(change, message):
    with ndcg_sql.evaluate(str(SEEDS / "steady_log.csv"), k=[5], segments=["arm", "day"]) as result:
        options = {**dict(segments=["arm"], window=7, alpha=0.05, correction="bonferroni", min_effect=0.0), **change}
        with pytest.raises(OptionError, match=message):
            period_changes(result.per_query, "day", 5, **options)
    macros = dbt_standin.load(MACROS)
    dbt_options = {name: value for name, value in change.items() if name != "window"}
    if dbt_options:
        with pytest.raises(dbt_standin.CompilerError, match=message):  # dbt: a compiler error
            macros.ndcg_compare_arms("per_query", "arm", "control", k=5, **dbt_options)


def test_no_regression_test_returns_one_row_per_failing_segment():
    """The generic test (dbt stand-in) on the seeded logs, over the ranking itself: one failing row
    for the regression (the treatment arm on the last day, in both forms), none without it."""
    macros = dbt_standin.load(MACROS)
    con = duckdb.connect()
    for name in ("regression_log", "steady_log"):
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_csv('{SEEDS / (name + '.csv')}', "
                    "types={'day': 'DATE', 'query_id': 'VARCHAR', 'item_id': 'VARCHAR'})")
    values = per_query_ndcg("regression_log")
    treatment = [v for (d, a, _), v in values.items() if (d, a) == (LAST_DAY, "treatment")]
    control = [v for (d, a, _), v in values.items() if (d, a) == (LAST_DAY, "control")]
    window = [v for (d, a, _), v in values.items() if a == "treatment" and "2026-11-03" <= d < LAST_DAY]
    for name, failing in (("regression_log", 1), ("steady_log", 0)):
        by_period = con.sql(macros.test_ndcg_no_regression(
            name, None, None, "day", 7, 5, None, "query_id", ["arm"], 0.05, "bonferroni", 0, {})).fetchall()
        by_arm = con.sql(macros.test_ndcg_no_regression(
            name, "arm", "control", None, 7, 5, None, "query_id", ["day"], 0.05, "bonferroni", 0, {})).fetchall()
        assert (len(by_period), len(by_arm)) == (failing, failing)
        if failing:
            arm, measure, day, mean, baseline, drop, *_ = by_period[0]
            assert (arm, measure, str(day)) == ("treatment", "nDCG@5", LAST_DAY)
            assert drop == pytest.approx(np.mean(window) - np.mean(treatment), abs=1e-12)
            day, measure, arm, mean, baseline, drop, *_ = by_arm[0]
            assert (str(day), measure, arm) == (LAST_DAY, "nDCG@5", "treatment")
            assert drop == pytest.approx(np.mean(control) - np.mean(treatment), abs=1e-12)


def test_no_regression_test_on_measure_rows():
    """measures= tests ndcg_measures' rows (here computed from the ranking): nDCG@5 fails as with
    k=5, with the same drop; P@3 (item-id ties) is tested in the same family (2 tests a day)."""
    macros = dbt_standin.load(MACROS)
    con = duckdb.connect()
    con.execute(f"CREATE TABLE regression_log AS SELECT * FROM read_csv('{SEEDS / 'regression_log.csv'}', "
                "types={'day': 'DATE', 'query_id': 'VARCHAR', 'item_id': 'VARCHAR'})")
    by_k = con.sql(macros.test_ndcg_no_regression(
        "regression_log", "arm", "control", None, 7, 5, None, "query_id", ["day"], 0.05, "none", 0, {})).fetchall()
    by_measures = con.sql(macros.test_ndcg_no_regression(
        "regression_log", "arm", "control", None, 7, None, ["nDCG@5", "P@3"], "query_id", ["day"], 0.05, "none", 0,
        {"ties": "item-asc"})).fetchall()
    ndcg = [row for row in by_measures if row[1] == "nDCG@5"]
    assert len(by_k) == 1 and ndcg[0][:8] == pytest.approx(by_k[0][:8], abs=1e-12)  # ties do not move NDCG@5 here
    assert {str(row[0]) for row in by_measures} == {LAST_DAY}
