"""A small stand-in for dbt's macro runtime, to call the package's macros from Python fast.

dbt puts every macro of a package in one namespace (``ndcg_sql.<macro>``), offers
``return()``, ``adapter.dispatch``, ``exceptions.raise_compiler_error``,
``modules.re`` and the ``do`` statement. This reproduces just that (dispatch to
``<adapter>__``, then to the adapter's parents as dbt searches them - dbt-redshift
falls back to ``postgres__``, dbt-databricks to ``spark__`` - then ``default__``),
so unit tests can compare what the macros build, for any adapter type, with what
the Python runner builds. tests/test_dbt.py runs real dbt.
"""

from __future__ import annotations

import re
import types
from pathlib import Path

from ndcg_sql.building import templates

#: Adapters whose dispatch search goes through a parent adapter's macros first (as in dbt).
PARENTS = {"redshift": ("postgres",), "databricks": ("spark",)}


class CompilerError(Exception):
    """dbt's compiler error, raised by ``exceptions.raise_compiler_error``."""


def _raise_compiler_error(message):
    raise CompilerError(message)


def load(files: dict[str, str], adapter: str = "duckdb", execute: bool = True) -> types.SimpleNamespace:
    """The macros of ``files`` ({file name: text}) in one namespace, as dbt loads a package
    (``execute``: dbt's flag, false while it parses a project). The macro runtime is the
    package's own (ndcg_sql/building/templates.py); this adds dbt's dispatch and its other globals."""
    loaded = {}

    def dispatch(name, package=None):
        for prefix in (adapter, *PARENTS.get(adapter, ()), "default"):
            if hasattr(loaded["namespace"], f"{prefix}__{name}"):
                return getattr(loaded["namespace"], f"{prefix}__{name}")
        raise CompilerError(f"no macro {name} for {adapter}")

    macro_files = {}
    for name, text in files.items():
        if name.endswith(".sql"):  # not macros.yml
            # dbt's `{% test name(...) %}` is a macro called test_<name>
            text = re.sub(r"\{%(-?)\s*test\s+(\w+)\s*\(", r"{%\1 macro test_\2(", text)
            macro_files[name] = re.sub(r"\{%(-?)\s*endtest\s*(-?)%\}", r"{%\1 endmacro \2%}", text)
    loaded["namespace"] = templates.macros(
        {}, macro_files,
        exceptions=types.SimpleNamespace(raise_compiler_error=_raise_compiler_error),
        adapter=types.SimpleNamespace(dispatch=dispatch),
        target=types.SimpleNamespace(type=adapter),
        execute=execute,
    )
    return loaded["namespace"]


def package_files(root: Path) -> dict[str, str]:
    """{relative path: text} of every macro file of the package at ``root`` (dbt_macros/)."""
    return {str(path.relative_to(root)): path.read_text() for path in sorted((root / "macros").rglob("*.sql"))}
