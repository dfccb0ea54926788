"""The "Keyword Args" of the public functions' docstrings, written from the option table.

Each public function (:data:`FUNCTIONS`) writes the options of
:data:`ndcg_sql.vocabulary.parameters.PARAMETERS` it takes in its signature; their documentation is the
table's (or the entry point's :class:`~ndcg_sql.vocabulary.parameters.Variant`), written here into the
docstring's "Keyword Args:" section, in signature order, so that every reader (``help()``, an
editor, a static documentation tool) finds it in the source.

A build tool, not part of the installed package: ``python -m tools.option_docs`` from the
repository root rewrites the sections; ``--check`` exits 1 when a committed docstring differs
(tests/test_signatures.py runs it).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path

from ndcg_sql.vocabulary.parameters import BY_NAME

ROOT = Path(__file__).resolve().parent.parent
#: The public functions whose docstrings list their options: {module: function names}.
FUNCTIONS = {"ndcg_sql.api": ("evaluate", "to_sql"), "ndcg_sql.compare": ("compare", "compare_runs"), "ndcg_sql.plot": ("plot",),
             "ndcg_sql.worklist": ("unjudged",)}
HEADER = "    Keyword Args:\n"
#: Documentation that gives the default itself ("(default 2)", "; default: ...", "Default: ...").
STATES_DEFAULT = re.compile(r"\(default|; default|Default")
#: The docstring's line length (the code's lines are at most about 120 columns).
WIDTH = 119


def entries(function) -> str:
    """The body of the "Keyword Args:" section of ``function``: each of its table options, in
    signature order, with its documentation there and its default when the text does not give it."""
    out = []
    for name, parameter in inspect.signature(function).parameters.items():
        if name not in BY_NAME:
            continue
        taken = BY_NAME[name].taken_by(function.__name__)
        text = " ".join(str(taken.doc).split())
        if not STATES_DEFAULT.search(text):
            text += f" Default: {taken.default!r}."
        if "\\" in text or '"""' in text:
            raise ValueError(f"the documentation of {name} cannot go into a docstring as it is")
        out.append(textwrap.fill(text, WIDTH, initial_indent=f"        {name}: ", subsequent_indent=" " * 12,
                                 break_on_hyphens=False, break_long_words=False))
    return "\n".join(out) + "\n"


def rewritten(text: str, function) -> str:
    """``text`` (a module's source) with the "Keyword Args:" section of ``function``'s docstring
    written from the table: from its header to the next section header (an indented ``Name:``)."""
    start = re.search(rf"^def {function.__name__}\(", text, re.MULTILINE)
    if start is None:
        raise ValueError(f"no def {function.__name__} in {function.__module__}")
    header = text.index(HEADER, start.end())
    body = header + len(HEADER)
    end = re.compile(r"^    \w[\w ]*:\n", re.MULTILINE).search(text, body)
    if end is None:
        raise ValueError(f"no section after the Keyword Args of {function.__name__}")
    return text[:body] + entries(function) + "\n" + text[end.start():]


def generate() -> dict[Path, str]:
    """{module path: its text with every listed docstring section written from the table}."""
    out = {}
    for module_name, names in FUNCTIONS.items():
        module = importlib.import_module(module_name)
        path = ROOT / (module_name.replace(".", "/") + ".py")
        text = path.read_text(encoding="utf-8")
        for name in names:
            text = rewritten(text, getattr(module, name))
        out[path] = text
    return out


def stale() -> list[str]:
    """The modules whose committed text differs from :func:`generate`'s (relative paths)."""
    return [str(path.relative_to(ROOT)) for path, text in generate().items()
            if path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed docstring differs")
    args = parser.parse_args(argv)
    if args.check:
        differing = stale()
        for path in differing:
            print(f"{path}: its Keyword Args differ from the option table (run python -m tools.option_docs)")
        return 1 if differing else 0
    for path, text in generate().items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
