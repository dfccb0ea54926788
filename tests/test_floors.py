"""CI's floor run (.ci/floors.py) pins pyproject.toml's floors: every core dependency has one
``>=`` floor, which the script reads and installs exactly, and the tests it runs exist."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, load_script


def floor_script():
    """.ci/floors.py, loaded as a module (it is no part of the package)."""
    return load_script(ROOT / ".ci" / "floors.py")


def test_every_core_dependency_is_pinned_at_its_floor():
    floors = floor_script()
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    written = dict(re.findall(r'^\s*"([A-Za-z0-9_.-]+)>=([0-9.]+)",', listed, re.M))
    assert written and floors.floors() == written
    assert {"duckdb", "sqlglot", "jinja2", "tqdm"} <= set(written)


@pytest.mark.parametrize("requirement", ["duckdb", "duckdb>=2,<3", "duckdb~=2.0", "duckdb==2.0.0",
                                         "duckdb>=2; python_version < '4'"])
def test_a_dependency_without_one_floor_is_refused(requirement):
    with pytest.raises(ValueError, match="floor"):
        floor_script().floors([requirement])


def test_the_floor_run_is_in_ci_and_its_tests_exist():
    floors = floor_script()
    assert ".venv/bin/python .ci/floors.py" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert len(floors.test_tools()) == len(floors.TEST_TOOLS)
    for test in floors.FLOOR_TESTS:
        path, _, name = test.partition("::")
        assert (ROOT / path).is_file(), test
        assert not name or f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), test
