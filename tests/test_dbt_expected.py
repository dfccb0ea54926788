"""The expected-value seeds of the dbt integration project cannot go stale.

dbt_macros/integration_tests/seeds/expected/expected_<model>.csv are written by
make_expected.py from the numpy reference (and pytrec_eval, scikit-learn, scipy);
`dbt build` compares each model with its seed (the test equals_expected). Here the
files are regenerated in memory and compared with the committed ones, and the seeds,
their column types (dbt_project.yml) and the tests attached to the models
(models/schema.yml) are checked to cover every numeric model with the same columns.
No dbt needed.
"""

import csv
import io
import math

import pytest

from conftest import ROOT, load_script

#: slow (half a minute or more of a worker): dbt builds
pytestmark = pytest.mark.slow

PROJECT = ROOT / "dbt_macros" / "integration_tests"
#: models that compute no number: a selection of seed rows, checked by ndcg_valid_input
NOT_NUMERIC = {"dl19_bm25_run"}


@pytest.fixture(scope="module")
def make_expected():
    pytest.importorskip("scipy")
    pytest.importorskip("sklearn")
    pytest.importorskip("pytrec_eval")
    return load_script(PROJECT / "make_expected.py")


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def same_cell(committed: str, fresh: str) -> bool:
    """The same text; or, for floats, the same number to 1e-12: numpy may pick another
    implementation of log2 on another CPU (SIMD), which can move the last bit or two."""
    if committed == fresh:
        return True
    try:
        a, b = float(committed), float(fresh)
    except ValueError:
        return False
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


def test_committed_expected_seeds_are_what_make_expected_writes(make_expected):
    fresh = make_expected.expected_files()
    committed = {path.name: path.read_text(encoding="utf-8") for path in (PROJECT / "seeds" / "expected").glob("*.csv")}
    assert sorted(committed) == sorted(fresh), "run dbt_macros/integration_tests/make_expected.py"
    for name, text in fresh.items():
        new, old = rows_of(text), rows_of(committed[name])
        assert len(old) == len(new), f"{name}: {len(old)} rows committed, {len(new)} computed; run make_expected.py"
        for number, (old_row, new_row) in enumerate(zip(old, new)):
            assert len(old_row) == len(new_row) and all(map(same_cell, old_row, new_row)), (
                f"{name} line {number + 1}: committed {old_row}, computed {new_row}; run make_expected.py")
    # small: the whole folder stays well under a megabyte
    assert sum(len(text) for text in committed.values()) < 300_000


def test_every_numeric_model_has_a_seed_types_and_an_equality_test(make_expected):
    yaml = pytest.importorskip("yaml")
    models = {path.stem for path in (PROJECT / "models").glob("*.sql")}
    assert set(make_expected.MODELS) == models - NOT_NUMERIC
    project = yaml.safe_load((PROJECT / "dbt_project.yml").read_text())
    types = project["seeds"]["ndcg_sql_integration_tests"]["expected"]
    tests = {}
    for model in yaml.safe_load((PROJECT / "models" / "schema.yml").read_text())["models"]:
        for test in model.get("data_tests", []):
            if isinstance(test, dict) and "equals_expected" in test:
                tests.setdefault(model["name"], []).append(test["equals_expected"]["arguments"])
    assert set(tests) == set(make_expected.MODELS)
    for model, (keys, values, _) in make_expected.MODELS.items():
        # the seed's columns, each with its type set (text ids, double / bigint numbers, dates of
        # the daily log's key), spelled as each engine accepts it
        column_types = types[f"expected_{model}"]["+column_types"]
        assert list(column_types) == keys + values, model
        kinds = {column: seed_type(spelled) for column, spelled in column_types.items()}
        assert set(kinds.values()) <= {"text", "bigint", "double", "date"}, model
        assert kinds.get("k", "bigint") == "bigint" and all(kinds[v] in ("bigint", "double") for v in values), model
        # the test: this seed, these key and value columns
        [arguments] = tests[model]
        assert arguments == {"expected": f"{{{{ ref('expected_{model}') }}}}", "key_columns": keys,
                             "value_columns": values}, model


#: a seed column type (text, double, bigint, integer) as dbt must hand it to each adapter type:
#: Spark and Databricks have no float8 and want a length with varchar, Postgres and Redshift have
#: no string or double, BigQuery's names are its own
SEED_TYPES = {
    **dict.fromkeys(["duckdb", "postgres", "redshift", "snowflake"],
                    {"text": "varchar", "double": "float8", "bigint": "bigint", "integer": "integer", "date": "date"}),
    **dict.fromkeys(["spark", "databricks"],
                    {"text": "string", "double": "double", "bigint": "bigint", "integer": "integer", "date": "date"}),
    "bigquery": {"text": "STRING", "double": "FLOAT64", "bigint": "INT64", "integer": "INTEGER", "date": "DATE"},
}


def seed_type(spelled: str) -> str:
    """The one type a column_types entry of dbt_project.yml (Jinja on target.type) gives every
    adapter type, each in that engine's spelling."""
    import jinja2

    kinds = set()
    for adapter, names in SEED_TYPES.items():
        rendered = jinja2.Template(spelled).render(target={"type": adapter})
        kind = next((kind for kind, name in names.items() if name == rendered), None)
        assert kind is not None, (spelled, adapter, rendered)
        kinds.add(kind)
    assert len(kinds) == 1, (spelled, kinds)
    return kinds.pop()


def test_every_seed_column_type_is_spelled_for_every_adapter():
    yaml = pytest.importorskip("yaml")
    seeds = yaml.safe_load((PROJECT / "dbt_project.yml").read_text())["seeds"]["ndcg_sql_integration_tests"]
    configs = [config for name, config in seeds.items() if name != "expected"] + list(seeds["expected"].values())
    assert len(configs) == 7 + len(list((PROJECT / "seeds" / "expected").glob("*.csv")))  # 7 seeds of data
    for config in configs:
        for spelled in config["+column_types"].values():
            seed_type(spelled)
