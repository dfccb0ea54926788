"""Generate the dbt package's internal macros (``dbt_macros/macros/_internal/``) and its engine
pieces (``dbt_macros/macros/engine/``) from ``sql/`` and the Python tables.

A build tool, not part of the installed package: ``python -m tools.dbt_gen`` from the
repository root (``--check``: exit 1 when the committed files differ).

The metric SQL and the option resolution are written once, as dbt-style macros in one
namespace ``ndcg_sql`` that the Python runner renders with the same macro runtime
(:mod:`ndcg_sql.building.templates`):

* ``sql/options/*.sql`` are copied as they are into ``_internal/options/``;
* ``sql/*.sql.j2``, the SQL macros, are copied as they are into ``_internal/sql/`` (as ``.sql``,
  the name dbt loads), those the dbt entry macros reach (:data:`ENTRIES`, directly or through
  other macros; a file calling macros by a name its records give, ``ndcg_sql[...]``, reaches every
  family's macro file, ``sql/measures/*.sql.j2``, copied into ``_internal/sql/measures/``). Their
  casts name a DuckDB type through ``ndcg_sql.sql_type('DOUBLE')`` (``ndcg_sql._cast(sql, 'DOUBLE')``
  in Jinja code, sql/casts.sql.j2): the Python runner reads the name itself, dbt an
  ``adapter.dispatch`` macro giving the engine's spelling (:mod:`tools.dbt_pieces`, from the table
  in :mod:`ndcg_sql.vocabulary.dialects`), written for the types the copied files name; DuckDB's ``UNICODE`` is written
  ``ndcg_sql.char_code()`` in the templates likewise (``ASCII`` on Postgres and Spark);
* the tables of the Python package become data macros (:mod:`tools.dbt_pieces`), and
  :mod:`tools.dbt_docs` writes the package's ``macros.yml``.

``python -m tools.dbt_gen [MACROS_DIR]`` writes the files (default ``dbt_macros/macros``,
its ``_internal/`` and ``engine/`` folders and ``macros.yml``); ``--check`` exits 1 when
the files on disk differ from what would be generated. ``tests/test_dbt_gen.py`` asserts
that the committed macros are byte-identical to a fresh generation.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ndcg_sql.building import templates
from ndcg_sql.vocabulary.measures import FAMILY_MACROS
from tools import dbt_docs, dbt_pieces

#: The SQL macros the dbt package's macros call (sql/*.sql.j2); the files they reach are copied.
ENTRIES = ("_per_query", "_measure_rows", "_summary", "_validate_examples", "_input_checks", "_period_changes", "_arm_changes",
           "_unjudged_items", "_unjudged_worklist", "_sample_strata")
#: The dbt package name (``name:`` in ``dbt_macros/dbt_project.yml``).
PACKAGE = "ndcg_sql"
#: Where the generated files go, relative to the repository root.
DEFAULT_OUT = Path("dbt_macros") / "macros"
#: The folders of DEFAULT_OUT this generator writes (and owns: a file there it did not write is stale).
OWNED = ("_internal", "engine")
#: The macros' documentation, written from the public macros (tools/dbt_docs.py).
YML = "macros.yml"
SQL_MACROS = "_internal/sql"
OPTIONS = "_internal/options"

_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\s*\(")
_CALL = re.compile(rf"\b{PACKAGE}\.(\w+)\s*\(")
#: A macro called by a name computed from its record (``ndcg_sql[m.macros ~ '_value']``, a family's
#: macro file): the file that does so reaches every file of sql/measures/.
_BY_NAME = re.compile(rf"\b{PACKAGE}\[")
_SQL_TYPE = re.compile(rf"\b{PACKAGE}\.sql_type\('([^']+)'\)")


def cast_types(text: str, found: set[str] | None = None) -> set[str]:
    """The DuckDB types the text's casts name through ``ndcg_sql.sql_type('T')`` (the engine
    pieces are written for those), added to ``found``."""
    found = set() if found is None else found
    found.update(_SQL_TYPE.findall(text))
    return found


class GenerationError(RuntimeError):
    """The macros cannot be carried into dbt: a macro name defined twice, or an entry macro
    that no file of ``sql/`` defines."""


def defined_macros(files: dict[str, str]) -> dict[str, str]:
    """{macro name: file} of the macros the files define; a name defined twice is refused
    (dbt puts a package's macros in one namespace)."""
    found: dict[str, str] = {}
    for name, text in files.items():
        for macro in _MACRO.findall(text):
            if macro in found:
                raise GenerationError(f"the macro {macro} is defined in {found[macro]} and in {name}")
            found[macro] = name
    return found


def sql_macros(types: set[str] | None = None) -> dict[str, str]:
    """{path: text} of the SQL macros the entry macros reach (``sql/*.sql.j2`` as they are, casts
    made per-engine), under SQL_MACROS; the cast types met are added to ``types``."""
    files = templates.sql_macro_files()
    where = defined_macros(files)
    reached, pending = set(), list(ENTRIES)
    types = set() if types is None else types
    while pending:
        macro = pending.pop()
        if macro not in where:
            raise GenerationError(f"no file of sql/ defines the macro {macro}")
        if where[macro] not in reached:
            reached.add(where[macro])
            pending += [called for called in _CALL.findall(files[where[macro]]) if called in where]
            if _BY_NAME.search(files[where[macro]]):
                pending += [name for name, file in where.items() if file.startswith(f"{FAMILY_MACROS}/")]
    copied = {}
    for name in sorted(reached):
        cast_types(files[name], types)
        copied[f"{SQL_MACROS}/{name.split('.', 1)[0]}.sql"] = (
            f"{{#- Copied from sql/{name} by `python -m tools.dbt_gen`: do not edit. -#}}\n" + files[name])
    return copied


def option_macros() -> dict[str, str]:
    """The option macros of ``sql/options/`` as they are (the runner renders the same files),
    under OPTIONS, with a line saying where they come from."""
    return {
        f"{OPTIONS}/{name}": (f"{{#- Copied from sql/options/{name} by `python -m tools.dbt_gen`: do not edit. -#}}\n"
                              + text)
        for name, text in templates.option_macro_files().items()
    }


def generate(out_dir: Path = DEFAULT_OUT) -> dict[str, str]:
    """{path: text} of every generated file: the SQL macros, the option macros, the data macros
    of :mod:`tools.dbt_pieces` and macros.yml (written from the public macros in ``out_dir``)."""
    types: set[str] = set()
    files = {**sql_macros(types), **option_macros()}
    files.update(dbt_pieces.files(types))
    defined_macros({name: text for name, text in files.items() if name.endswith(".sql")})
    files[YML] = dbt_docs.macros_yml(dbt_docs.public_files(out_dir, files))
    return dict(sorted(files.items()))


def _present(out_dir: Path) -> set[str]:
    """The files of the owned folders of ``out_dir``, as paths relative to it."""
    owned = {str(path.relative_to(out_dir)) for folder in OWNED if (out_dir / folder).is_dir()
             for path in (out_dir / folder).rglob("*.sql")}
    return owned | ({YML} if (out_dir / YML).is_file() else set())


def write(out_dir: Path) -> list[str]:
    """Write the generated files into ``out_dir`` (other files of its owned folders are removed)."""
    files = generate(out_dir)
    for stale in _present(out_dir) - set(files):
        (out_dir / stale).unlink()
    for name, text in files.items():
        (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (out_dir / name).write_bytes(text.encode("utf-8"))
    return list(files)


def differences(out_dir: Path) -> list[str]:
    """Paths of generated files that are missing, stale or different in ``out_dir``."""
    files = generate(out_dir)
    present = _present(out_dir)
    wrong = [name for name, text in files.items()
             if name not in present or (out_dir / name).read_bytes() != text.encode("utf-8")]
    return sorted(wrong + [name for name in present if name not in files])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.dbt_gen", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_OUT, help=f"default: {DEFAULT_OUT}")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when files differ")
    args = parser.parse_args(argv)
    if args.check:
        wrong = differences(args.out_dir)
        if wrong:
            print(f"out of date in {args.out_dir}: {', '.join(wrong)}; run python -m tools.dbt_gen", file=sys.stderr)
            return 1
        return 0
    names = write(args.out_dir)
    print(f"wrote {len(names)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
