import os
import re
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
#: The engines of tests/engines.py (ENGINES), and the files whose tests take one of them as the
#: ``engine`` fixture, its name first in the test's id (``test_x[spark-case]``).
ENGINE_NAMES = ("bigquery", "postgres", "redshift", "snowflake", "spark")
ENGINE_FIXTURE_FILES = ("test_warehouses.py", "test_measures_warehouses.py", "test_dbt_warehouses.py",
                        "test_caller_transaction.py", "test_readable_sql.py")
#: Tests (or whole files) that use one engine without the ``engine`` fixture.
ON_ENGINE = {"test_spark_scale.py": "spark",
             "test_warehouses.py::test_postgres_matches_duckdb_on_generated_tables": "postgres",
             "test_warehouses.py::test_ids_without_a_text_form_on_a_warehouse_are_refused": "postgres",
             "test_warehouses.py::test_postgres_catalog_type_names_give_the_kinds_of_the_driver_codes": "postgres",
             "test_warehouses.py::test_to_sql_with_the_catalogs_id_types_on_postgres": "postgres",
             "test_warehouses.py::test_bigquery_qualified_names_resolve_in_zetasql": "bigquery"}


def group_of(nodeid: str) -> str:
    """The group of a test: the engine it runs on, else its file. From the test's id alone, as
    the scheduler (which collects nothing) sees it; checked against each test's fixtures at
    collection (:func:`pytest_collection_modifyitems`)."""
    path, _, name = nodeid.partition("::")
    file = path.rsplit("/", 1)[-1]
    function, _, params = name.partition("[")
    first = re.split(r"[-\]]", params, maxsplit=1)[0]
    if file in ENGINE_FIXTURE_FILES and first in ENGINE_NAMES:
        return first
    return ON_ENGINE.get(f"{file}::{function}", ON_ENGINE.get(file, file))


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the groups of :func:`group_of` (pytest-xdist's own ``xdist_group``
    marks no longer reach its scheduler under pytest 9.2), in the order of LONGEST_FIRST."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Groups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return Groups(config, log)


def engine_of(item) -> str | None:
    """The engine a collected test starts, from its fixtures: the ``engine`` fixture's parameter,
    the ``postgres`` fixture of tests/test_warehouses.py, or Spark in tests/test_spark_scale.py."""
    if "engine" in item.fixturenames:
        return item.callspec.params["engine"]
    if "postgres" in item.fixturenames:
        return "postgres"
    return "spark" if item.path.name == "test_spark_scale.py" else None


#: Tests that need a system package besides Python's (PostgreSQL's server, Java for Spark, perl, the
#: fakesnow environment) without starting an engine of tests/engines.py through the ``engine``
#: fixture: a fixture's name, a file, or a test (file::function), or (file, fixture, parameter).
SYSTEM_FIXTURES = ("postgres_project",)
SYSTEM_TESTS = ("test_dbt_adapters.py", "test_beyond_measures.py::test_err_is_gdevals_through_ir_measures",
                "test_beyond_measures.py::test_err_with_a_top_grade_of_three_is_gdevals_with_max_judgment_three")
SYSTEM_PARAMETERS = (("test_dbt_incremental.py", "target", "postgres"),)


def needs_system_packages(item) -> bool:
    """Whether a collected test needs more than ``pip install '.[test]'`` (marked ``engines``)."""
    file, function = item.path.name, getattr(item, "originalname", item.name)
    params = getattr(getattr(item, "callspec", None), "params", {})
    return (engine_of(item) is not None or group_of(item.nodeid) in ENGINE_NAMES
            or any(name in item.fixturenames for name in SYSTEM_FIXTURES)
            or file in SYSTEM_TESTS or f"{file}::{function}" in SYSTEM_TESTS
            or any(file == f and params.get(fixture) == value for f, fixture, value in SYSTEM_PARAMETERS))


#: Files that need no system package but take half a minute or more of a worker (dbt builds, every
#: adapter's macros rendered, mypy, property tests, the documentation's examples, statement counts):
#: left out of the quick run with ``slow``, which then takes under 3 minutes on 2 cores.
SLOW_FILES = ("test_dbt.py", "test_dbt_incremental.py", "test_dbt_expected.py", "test_one_source.py",
              "test_portable_sql.py", "test_typing.py", "test_properties.py", "test_one_scan.py",
              "test_dbt_gen.py", "test_docs.py", "test_analyst.py",
              "test_id_types.py::test_one_logical_input_in_every_physical_type_gives_the_same_values",
              "test_measures.py::test_measures_do_not_depend_on_row_order_or_threads",
              "test_edges_cli.py::test_a_signal_as_the_output_opens_exits_with_its_status_never_aborts")


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


def pytest_collection_modifyitems(config, items):
    """Mark each test ``engines`` (it needs a system package: :func:`needs_system_packages`) or
    ``slow`` (SLOW_FILES), and order the tests by LONGEST_FIRST, after checking that
    :func:`group_of` (test ids) puts every test that starts an engine in that engine's group
    (else each worker might start it)."""
    if "not engines" in (config.getoption("markexpr") or ""):
        import engines

        os.environ[engines.QUICK_RUN] = "1"  # starting an engine is then an error (engines.starting)
    wrong = [item.nodeid for item in items if engine_of(item) not in (None, group_of(item.nodeid))]
    if wrong:
        raise pytest.UsageError(f"tests/conftest.py group_of misses the engine of: {wrong[:5]}")
    for item in items:
        if needs_system_packages(item):
            item.add_marker(pytest.mark.engines)
        elif item.path.name in SLOW_FILES or f"{item.path.name}::{getattr(item, 'originalname', item.name)}" in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
    rank = {group: place for place, group in enumerate(LONGEST_FIRST)}
    # stable: the tests of a file keep their order (module fixtures are set up once)
    items.sort(key=lambda item: rank.get(group_of(item.nodeid), len(rank)))


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
