import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))  # tools/ (the dbt macro generator), not part of the installed package
EXAMPLES = ROOT / "examples"


#: Where the two pytest-xdist workers spend their time (seconds of one worker, whole suite,
#: quiet machine, 2026-12-02), longest first: ``--dist loadgroup`` hands out one group at a
#: time in collection order (pyproject.toml: ``--no-loadscope-reorder``), so the longest go
#: first and the short files fill in at the end. Each engine's tests, from every file, are one
#: group (the engine starts on one worker only: tests/engines.py ``shared``); every other test
#: file is a group of its own (its module fixtures, such as dbt builds, run once).
LONGEST_FIRST = ("spark", "snowflake", "bigquery", "test_portable_sql.py", "test_dbt_adapters.py",
                 "test_one_source.py", "postgres", "redshift", "test_dbt.py", "test_dbt_gen.py", "test_measures.py",
                 "test_properties.py", "test_reference.py", "test_one_scan.py", "test_dbt_incremental.py",
                 "test_identifiers.py", "test_id_types.py", "test_analyst.py")


def group_of(item) -> str:
    """The engine a test runs on (the ``engine`` fixture's parameter, or a test's own
    ``xdist_group`` mark naming it), else the test's file."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if isinstance(params.get("engine"), str):
        return params["engine"]
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return mark.args[0] if mark.args else mark.kwargs["name"]
    return item.path.name


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    rank = {group: place for place, group in enumerate(LONGEST_FIRST)}
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group_of(item)))
    # stable: the tests of a file keep their order (module fixtures are set up once)
    items.sort(key=lambda item: rank.get(group_of(item), len(rank)))


@pytest.fixture(scope="session", autouse=True)
def engines_stopped_at_the_end():
    yield
    import engines

    engines.close_shared()


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def per_query_map(result, query_col="query_id"):
    """{(qid, k): (cg, dcg, idcg, ndcg)} from a Result."""
    return {
        (row[query_col], row["k"]): (row["cg"], row["dcg"], row["idcg"], row["ndcg"])
        for row in result.per_query_records()
    }
