import os
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))  # tools/ (the dbt macro generator), not part of the installed package
EXAMPLES = ROOT / "examples"


def sigint_as_in_a_terminal() -> None:
    """``preexec_fn`` of a child process that a test sends Ctrl-C (SIGINT): the signal at its
    default, as for a terminal's foreground job. A job a shell starts in the background (``.ci/run
    &``) inherits SIGINT ignored, and Python then keeps ignoring it, so without this the test would
    report how its parent was started instead of what ndcg-sql does on Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def load_script(path: Path):
    """A script of the repository that is no part of the package (.ci/floors.py, docs/generate.py,
    a data maker), loaded as a module named after its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The groups that take the two pytest-xdist workers longest, longest first (per-test times of a
#: whole-suite run, quiet machine, 2026-12-02). A group runs on one worker, and groups are handed
#: out one at a time in this order (then the other files in collection order), so the longest
#: go first and the short files fill in at the end. Each engine's tests, from every file, are one
#: group (the engine starts on one worker only: tests/engines.py ``shared``); every other test
#: file is a group of its own (its module fixtures, such as dbt builds, run once).
LONGEST_FIRST = ("spark", "snowflake", "bigquery", "test_portable_sql.py", "test_dbt_adapters.py",
                 "test_one_source.py", "postgres", "redshift", "test_dbt.py", "test_docs.py", "test_dbt_gen.py", "test_dbt_starter.py",
                 "test_measures.py", "test_properties.py", "test_reference.py", "test_one_scan.py", "test_dbt_incremental.py",
                 "test_identifiers.py", "test_id_types.py", "test_analyst.py")


def engine_of(item) -> str | None:
    """The engine of tests/engines.py a collected test starts, as the test says it: the ``engine``
    fixture's parameter, the ``postgres`` fixture (tests/test_warehouses.py), or an
    ``on_engine(name)`` mark on the test or its module (``pytestmark``)."""
    if "engine" in item.fixturenames:
        return item.callspec.params["engine"]
    if "postgres" in item.fixturenames:
        return "postgres"
    mark = item.get_closest_marker("on_engine")
    return mark.args[0] if mark else None


#: Examples drawn per property (hypothesis profiles): the full run draws 40; the quick run
#: (``-m "not slow"``) draws 12 of the same strategies, the same tests on fewer random tables.
settings.register_profile("full", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", settings.get_profile("full"), max_examples=12)


def pytest_configure(config):
    """Load the ``quick`` hypothesis profile in a run that leaves ``slow`` out, unless
    ``--hypothesis-profile`` names one; else ``full``. Runs before any test module is imported,
    so the module-level ``settings()`` of the tests inherit it."""
    if config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("quick" if "not slow" in (config.getoption("markexpr") or "") else "full")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker turns the xdist_group marks into groups
def pytest_collection_modifyitems(config, items):
    """Group and order the tests for ``--dist loadgroup`` (pyproject's addopts): a test that starts
    an engine (:func:`engine_of`) is marked ``engines`` and put in that engine's ``xdist_group``,
    every other test in its file's; the groups go out in the order of LONGEST_FIRST. The marks
    ``slow`` and ``engines`` (for tests that need a system package without starting an engine) are
    written on the tests themselves (``pytestmark`` or a decorator)."""
    if "not engines" in (config.getoption("markexpr") or ""):
        import engines

        os.environ[engines.QUICK_RUN] = "1"  # starting an engine is then an error (engines.starting)
    group = {}
    for item in items:
        engine = engine_of(item)
        if engine is not None:
            item.add_marker(pytest.mark.engines)
        group[item.nodeid] = engine or item.path.name
        item.add_marker(pytest.mark.xdist_group(group[item.nodeid]))
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    # stable: the tests of a file keep their order (module fixtures are set up once)
    items.sort(key=lambda item: rank.get(group[item.nodeid], len(rank)))


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
