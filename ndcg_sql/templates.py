"""Rendering of the Jinja SQL templates shipped in ``sql/`` (installed as ``ndcg_sql.sql``).

The templates use only plain Jinja (variables, ``if``, ``for``, macros), so the
same files can be rendered by dbt. Every value placed into them is either an
identifier quoted through sqlglot (:mod:`ndcg_sql.identifiers`) or a number
validated in :mod:`ndcg_sql.options`; user text is never pasted in.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2


def template_folder():
    """Where the ``*.sql.j2`` files are: the installed ``ndcg_sql.sql`` package, or,
    when ``ndcg_sql`` is imported from a source checkout, ``sql/`` beside it."""
    try:
        return resources.files("ndcg_sql.sql")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "sql"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The Jinja environment that loads ``*.sql.j2`` from the installed package."""
    folder = template_folder()
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: folder.joinpath(name).read_text(encoding="utf-8")),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
    )


def render(template: str, **context) -> str:
    """Render ``sql/<template>`` with ``context``; raises jinja2 errors on unknown names."""
    text = environment().get_template(template).render(**context)
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line.strip()) + "\n"
