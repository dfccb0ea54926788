"""Rendering of the Jinja files shipped in ``sql/`` (installed as ``ndcg_sql.sql``).

Both kinds of file are macros written in dbt's style (``{{ return(value) }}``, ``{% do %}``,
``modules.re``, every macro in one namespace ``ndcg_sql``, calling the others as
``ndcg_sql.<macro>(...)``), which the dbt package loads too (tools/dbt_gen.py copies them):

* ``sql/*.sql.j2``: the SQL. ``sql/<name>.sql.j2`` holds the macro ``_<name>(ctx)`` that writes
  a statement or a CTE from the context ``ctx`` (one dict), and the helpers it needs;
  :func:`render` calls it; ``sql/measures/<family>.sql.j2``: the pieces of one measure family's
  SQL, which ``sql/measures_per_query.sql.j2`` calls by the names its record gives
  (:class:`ndcg_sql.vocabulary.measures.Family`);
* ``sql/options/*.sql``: the macros that turn options into that context. :func:`macros` loads
  them into a namespace, beside the Python pieces that dbt gets as generated macros (the option
  tables, the engine's quoting).

Every value placed into SQL is an identifier quoted through sqlglot
(:mod:`ndcg_sql.vocabulary.identifiers`) or a number written by the macros from a checked
number; user text is never pasted in.
"""

from __future__ import annotations

import re
import types
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Callable, Mapping

import jinja2

from ..vocabulary.measures import FAMILY_MACROS

#: The folder (of the template folder) holding the option macros.
OPTION_MACROS = "options"
_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\s*\(")


def template_folder():
    """Where the ``sql/`` files are: when ``ndcg_sql`` is imported from a source checkout (its
    ``pyproject.toml`` and ``sql/`` beside the package), that ``sql/``; else the installed
    ``ndcg_sql.sql`` package (an editable install of another checkout maps ``ndcg_sql.sql`` to
    that checkout's folder, which must not win over the one beside the code imported)."""
    checkout = Path(__file__).resolve().parents[2]  # ndcg_sql/building/templates.py
    if (checkout / "pyproject.toml").is_file() and (checkout / "sql" / "per_query.sql.j2").is_file():
        return checkout / "sql"
    try:
        return resources.files("ndcg_sql.sql")
    except ModuleNotFoundError:
        return checkout / "sql"


def render(template: str, **context) -> str:
    """The SQL of ``sql/<template>``: its macro ``_<name>`` (``per_query.sql.j2``: ``_per_query``)
    called with ``context`` as one dict, blank lines and trailing blanks removed.

    Raises:
        jinja2.UndefinedError: the SQL reads a name the context lacks.
    """
    return render_macro("_" + template.split(".", 1)[0], **context)


def render_macro(name: str, **context) -> str:
    """The SQL of the macro ``name`` of ``sql/*.sql.j2`` (one file may hold several), called as
    :func:`render` calls a file's own."""
    text = getattr(sql_macros(), name)(context)
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line.strip()) + "\n"


@lru_cache(maxsize=1)
def sql_macros() -> types.SimpleNamespace:
    """The SQL macros (``sql/*.sql.j2``) in their namespace ``ndcg_sql``, as dbt loads them, with
    :func:`sql_type` and :func:`char_code` (dbt's are macros per engine)."""
    return macros({"sql_type": sql_type, "char_code": char_code}, sql_macro_files())


def sql_type(name: str) -> str:
    """The type of a cast in the templates (``CAST(x AS {{ ndcg_sql.sql_type('DOUBLE') }})``) as the
    Python runner writes it: the DuckDB type name itself, the templates being written in DuckDB's
    SQL (other engines get sqlglot's translation of the statement). dbt's ``ndcg_sql.sql_type``
    gives each engine's spelling (tools/dbt_pieces.py, from :mod:`ndcg_sql.vocabulary.dialects`)."""
    return name


def char_code() -> str:
    """The function giving a character's code point as the Python runner writes it: DuckDB's
    ``UNICODE`` (dbt's ``ndcg_sql.char_code`` gives each engine's name, sqlglot's spelling)."""
    return "UNICODE"


@lru_cache(maxsize=1)
def sql_macro_files() -> dict[str, str]:
    """{file name: text} of the SQL macros: ``sql/*.sql.j2``, then the families' macro files
    ``sql/measures/*.sql.j2`` (named ``measures/<family>.sql.j2``)."""
    families = _files(template_folder().joinpath(FAMILY_MACROS), ".sql.j2")
    return {**_files(template_folder(), ".sql.j2"),
            **{f"{FAMILY_MACROS}/{name}": text for name, text in families.items()}}


def _files(folder, suffix: str) -> dict[str, str]:
    return {entry.name: entry.read_text(encoding="utf-8")
            for entry in sorted(folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(suffix)}


@lru_cache(maxsize=1)
def option_macro_files() -> dict[str, str]:
    """{file name: text} of the option macros (``sql/options/*.sql``)."""
    return _files(template_folder().joinpath(OPTION_MACROS), ".sql")


class _Return(Exception):
    """dbt's ``return()``: ends a macro with a value."""

    def __init__(self, value):
        self.value = value


def _return(value):
    raise _Return(value)


def _returning(macro) -> Callable:
    def call(*args, **kwargs):
        try:
            return macro(*args, **kwargs)
        except _Return as done:
            return done.value

    call.__name__ = macro.name
    return call


def macros(pieces: Mapping[str, Callable], files: Mapping[str, str] | None = None,
           **names) -> types.SimpleNamespace:
    """Macro files in one namespace ``ndcg_sql``, as dbt loads a package's macros.

    Args:
        pieces: the namespace's other members by name (Python functions standing for the
            macros dbt generates: ``_option_table``, ``quote_identifier``, ``_option_error``, ...).
        files: {name: text} of the macro files (default: the option macros, ``sql/options/``).
        names: more global names the macros see (dbt's ``adapter``, ``target``, ...).

    Returns:
        A namespace whose attributes are the macros (a call returns what the macro
        ``return()``s) and the pieces.
    """
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             extensions=["jinja2.ext.do"])
    namespace = types.SimpleNamespace(**pieces)
    env.globals.update(ndcg_sql=namespace, modules=types.SimpleNamespace(re=re), **names)
    env.globals["return"] = _return
    for text in (option_macro_files() if files is None else files).values():
        # run the file's top level in a context of its own: its macros, private ones (a
        # leading underscore, which Jinja does not export) included, are then its variables
        template = env.from_string(text)
        scope = template.new_context()
        for _ in template.root_render_func(scope):
            pass
        for name in _MACRO.findall(text):
            setattr(namespace, name, _returning(scope.vars[name]))
    return namespace
