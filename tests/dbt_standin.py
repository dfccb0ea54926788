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

import jinja2

#: Adapters whose dispatch search goes through a parent adapter's macros first (as in dbt).
PARENTS = {"redshift": ("postgres",), "databricks": ("spark",)}
_MACRO = re.compile(r"\{%-?\s*(macro|test)\s+(\w+)\s*\(")


class CompilerError(Exception):
    """dbt's compiler error, raised by ``exceptions.raise_compiler_error``."""


class _Return(Exception):
    def __init__(self, value):
        self.value = value


def _raise_return(value):
    raise _Return(value)


def _raise_compiler_error(message):
    raise CompilerError(message)


def load(files: dict[str, str], adapter: str = "duckdb", execute: bool = True) -> types.SimpleNamespace:
    """The macros of ``files`` ({file name: text}) in one namespace, as dbt loads a package
    (``execute``: dbt's flag, false while it parses a project)."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, extensions=["jinja2.ext.do"])
    namespace = types.SimpleNamespace()

    def dispatch(name, package=None):
        for prefix in (adapter, *PARENTS.get(adapter, ()), "default"):
            if hasattr(namespace, f"{prefix}__{name}"):
                return getattr(namespace, f"{prefix}__{name}")
        raise CompilerError(f"no macro {name} for {adapter}")

    env.globals.update(
        ndcg_sql=namespace,
        exceptions=types.SimpleNamespace(raise_compiler_error=_raise_compiler_error),
        adapter=types.SimpleNamespace(dispatch=dispatch),
        modules=types.SimpleNamespace(re=re),
        target=types.SimpleNamespace(type=adapter),
        execute=execute,
    )
    env.globals["return"] = _raise_return
    for name_, text in files.items():
        if not name_.endswith(".sql"):  # macros.yml
            continue
        # dbt's `{% test name(...) %}` is a macro called test_<name>
        text = re.sub(r"\{%(-?)\s*test\s+(\w+)\s*\(", r"{%\1 macro test_\2(", text)
        text = re.sub(r"\{%(-?)\s*endtest\s*(-?)%\}", r"{%\1 endmacro \2%}", text)
        template = env.from_string(text)
        scope = template.new_context()  # private macros (a leading underscore) included
        for _ in template.root_render_func(scope):
            pass
        for _, name in _MACRO.findall(text):
            setattr(namespace, name, _returning(scope.vars[name]))
    return namespace


def _returning(macro):
    def call(*args, **kwargs):
        try:
            return macro(*args, **kwargs)
        except _Return as done:
            return done.value

    call.__name__ = macro.name
    return call


def package_files(root: Path) -> dict[str, str]:
    """{relative path: text} of every macro file of the package at ``root`` (dbt_macros/)."""
    return {str(path.relative_to(root)): path.read_text() for path in sorted((root / "macros").rglob("*.sql"))}
