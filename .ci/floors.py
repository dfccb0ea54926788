"""CI's floor run: the core dependencies at the lowest versions pyproject.toml allows.

Each core dependency of pyproject.toml (``[project] dependencies``) names its lowest version
as ``name>=X``; this script installs exactly those versions (``name==X``) in an environment of
their own, ``.venv-floor``, with the test tools the floor tests need (at the test extra's
requirements), and runs the tests that need no warehouse engine, no dbt and no peer library
(FLOOR_TESTS). Golden SQL is written by the test extra's pinned sqlglot, so here the golden
files are not compared; every golden case is instead transpiled to every dialect as one
statement. When the code needs a newer version, raise its floor in pyproject.toml.

Run from anywhere, after README's test command (it uses ``.venv``'s Python, 3.11 or later for
tomllib, its uv and packaging); ``.ci/run`` runs it last:

    .venv/bin/python .ci/floors.py
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-floor"

#: The test extra's packages the floor tests import (installed as the test extra requires them).
TEST_TOOLS = ("pytest", "pytest-xdist", "hypothesis", "numpy", "pandas", "pyarrow", "polars", "scipy")

#: The tests run at the floors: the numbers against the hand-worked and the reference ones, every
#: input path and check, the command line, label expressions, and to_sql in every dialect.
FLOOR_TESTS = (
    "tests/test_worked_example.py",
    "tests/test_reference.py",
    "tests/test_real_data.py",
    "tests/test_cli.py",
    "tests/test_validation.py",
    "tests/test_hidden_nan.py",
    "tests/test_resources.py",
    "tests/test_inputs.py",
    "tests/test_labels.py",
    "tests/test_identifiers.py",
    "tests/test_connection.py",
    "tests/test_golden_sql.py::test_golden_cases_are_one_statement_with_one_with_in_every_dialect",
    "tests/test_portable_sql.py::test_lint_finds_each_problem",
    "tests/test_portable_sql.py::test_suite_statements_are_portable_and_transpile",
    "tests/test_portable_sql.py::test_warehouse_id_casts_and_probe_are_portable_and_transpile",
)


def pyproject() -> dict:
    """pyproject.toml, read."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def floors(dependencies: list[str] | None = None) -> dict[str, str]:
    """{name: lowest version} of every core dependency, from its ``name>=X``.

    Args:
        dependencies: requirement strings (default: pyproject.toml's ``[project] dependencies``).

    Raises:
        ValueError: a dependency whose requirement is not exactly one ``>=`` (its floor would
            be unknown, or not the lowest version it allows).
    """
    found = {}
    for text in pyproject()["project"]["dependencies"] if dependencies is None else dependencies:
        requirement = Requirement(text)
        specifiers = list(requirement.specifier)
        if len(specifiers) != 1 or specifiers[0].operator != ">=" or requirement.marker or requirement.extras:
            raise ValueError(f"core dependency {text!r}: write its floor as 'name>=X', nothing else")
        found[requirement.name] = specifiers[0].version
    return found


def test_tools() -> list[str]:
    """TEST_TOOLS as pyproject's test extra requires them.

    Raises:
        ValueError: one of TEST_TOOLS is not in the test extra.
    """
    extra = {Requirement(text).name: text for text in pyproject()["project"]["optional-dependencies"]["test"]}
    missing = [name for name in TEST_TOOLS if name not in extra]
    if missing:
        raise ValueError(f"not in pyproject's test extra: {missing}")
    return [extra[name] for name in TEST_TOOLS]


def main() -> int:
    """Create .venv-floor at the floors, check what it holds, run FLOOR_TESTS there; pytest's exit code."""
    pins = floors()
    uv = Path(sys.executable).parent / "uv"
    subprocess.run([uv, "venv", "--quiet", "--clear", "--python", sys.executable, VENV], check=True)
    subprocess.run([uv, "pip", "install", "--quiet", "--python", VENV, ".",
                    *(f"{name}=={version}" for name, version in pins.items()), *test_tools()],
                   check=True, cwd=ROOT)
    python = VENV / "bin" / "python"
    shown = subprocess.run([python, "-c", "import sys; from importlib.metadata import version; "
                            "print(' '.join(f'{n}=={version(n)}' for n in sys.argv[1:]))", *pins],
                           check=True, capture_output=True, text=True).stdout.strip()
    print(f"floors: {shown}", flush=True)
    return subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", *FLOOR_TESTS], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
