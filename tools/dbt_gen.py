"""Generate the dbt package's internal macros (``dbt_macros/macros/_internal/``) and its engine
pieces (``dbt_macros/macros/engine/``) from ``sql/`` and the Python tables.

A build tool, not part of the installed package: ``python -m tools.dbt_gen`` from the
repository root (``--check``: exit 1 when the committed files differ).

* ``sql/options/*.sql``, the option resolution written once as dbt-style macros, are copied
  as they are into ``_internal/options/`` (the Python runner renders the same files);
* ``sql/*.sql.j2``, the SQL templates, are rewritten into macros as described below
  (``_internal/templates/``);
* the tables of the Python package become data macros (:mod:`tools.dbt_pieces`).

The metric SQL is written once, as plain Jinja templates (``sql/*.sql.j2``) that
the Python runner renders. dbt cannot load those files (its macros live in a
flat namespace, a macro file may not nest ``{% macro %}`` blocks, and there is
no ``include``/``import`` of arbitrary files), so this module rewrites them,
mechanically and without knowing what they compute:

* every *entry* template (:data:`ENTRIES`) becomes one dbt macro whose
  arguments are the template's context variables (found by Jinja's own parser,
  :func:`jinja2.meta.find_undeclared_variables`);
* ``{% include 'x' %}`` is replaced by the text of ``x`` (recursively), wrapped
  in ``{% with %}`` so that its ``set`` statements stay local as in Jinja;
* ``{% import 'x' as alias with context %}`` (and ``from 'x' import m``) is
  dropped, every macro of ``x`` becomes its own dbt macro
  ``tmpl_<x>__<macro>(ndcg_context, ...)``, and calls ``alias.m(...)`` become
  ``ndcg_sql.tmpl_<x>__m(ndcg_context, ...)``, where ``ndcg_context`` is the
  entry macro's arguments as a dict (what "with context" gave the import).

* a cast to a DuckDB type (``AS DOUBLE``, also inside Jinja string literals)
  becomes ``AS {{ ndcg_sql.sql_type('DOUBLE') }}``: an ``adapter.dispatch``
  macro that gives the engine's spelling (:mod:`tools.dbt_pieces`, from
  the table in :mod:`ndcg_sql.dialects`), so the macros speak every engine's
  SQL; on DuckDB the text is the templates' own.

Besides the templates, :mod:`tools.dbt_pieces` writes the data the macros need (engine
differences, the option tables, the input checks) and :mod:`tools.dbt_docs` the
package's ``macros.yml``.

``python -m tools.dbt_gen [MACROS_DIR]`` writes the files (default ``dbt_macros/macros``,
its ``_internal/`` and ``engine/`` folders and ``macros.yml``); ``--check`` exits 1 when
the files on disk differ from what would be generated. ``tests/test_dbt_gen.py`` asserts
that the committed macros are byte-identical to a fresh generation.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from jinja2 import meta

from ndcg_sql import templates
from tools import dbt_docs, dbt_pieces

#: Entry templates exposed to dbt, and the name of the generated macro.
ENTRIES = {
    "per_query.sql.j2": "_tmpl_per_query",
    "summary.sql.j2": "_tmpl_summary",
    "measure_rows.sql.j2": "_tmpl_measure_rows",
    "validate_examples.sql.j2": "_tmpl_validate_examples",
}
#: The dbt package name (``name:`` in ``dbt_macros/dbt_project.yml``).
PACKAGE = "ndcg_sql"
#: Name of the dict of context variables handed to generated helper macros.
CONTEXT = "ndcg_context"
#: Prefix of every generated macro.
PREFIX = "_tmpl_"
#: Where the generated files go, relative to the repository root.
DEFAULT_OUT = Path("dbt_macros") / "macros"
#: The folders of DEFAULT_OUT this generator writes (and owns: a file there it did not write is stale).
OWNED = ("_internal", "engine")
#: The macros' documentation, written from the public macros (tools/dbt_docs.py).
YML = "macros.yml"
TEMPLATES = "_internal/templates"
OPTIONS = "_internal/options"

_SEGMENT = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\})", re.DOTALL)
_TAG = re.compile(r"^\{%([-+]?)\s*(.*?)\s*([-+]?)%\}$", re.DOTALL)
_INCLUDE = re.compile(r"^include\s+(['\"])([^'\"]+)\1\s*(?:with\s+context)?$")
_IMPORT = re.compile(r"^import\s+(['\"])([^'\"]+)\1\s+as\s+(\w+)(?:\s+with(?:out)?\s+context)?$")
_FROM = re.compile(r"^from\s+(['\"])([^'\"]+)\1\s+import\s+(.+?)(?:\s+with(?:out)?\s+context)?$")
_UNSUPPORTED = re.compile(r"^(extends|block|endblock)\b")
_MACRO = re.compile(
    r"\{%([-+]?)\s*macro\s+(\w+)\s*\((.*?)\)\s*([-+]?)%\}(.*?)\{%([-+]?)\s*endmacro\s*([-+]?)%\}",
    re.DOTALL,
)


_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def engine_neutral(text: str, found: set[str] | None = None) -> str:
    """Casts to DuckDB types made per-engine: ``AS T`` -> ``AS {{ ndcg_sql.sql_type('T') }}`` in
    SQL text, and inside string literals of Jinja code as a concatenation. The types met are
    added to ``found``."""
    found = set() if found is None else found

    def in_text(m):
        found.add(m.group(1))
        return f"AS {{{{ {PACKAGE}.sql_type('{m.group(1)}') }}}}"

    def in_string(literal):
        quote = literal.group(0)[0]
        if not dbt_pieces.TYPE_PATTERN.search(literal.group(0)):
            return literal.group(0)

        def piece(m):
            found.add(m.group(1))
            return f"AS {quote} ~ {PACKAGE}.sql_type('{m.group(1)}') ~ {quote}"

        return "(" + dbt_pieces.TYPE_PATTERN.sub(piece, literal.group(0)) + ")"

    out = []
    for segment in _SEGMENT.split(text):
        if segment.startswith("{#"):
            out.append(segment)
        elif segment.startswith(("{{", "{%")):
            out.append(_STRING.sub(in_string, segment))
        else:
            out.append(dbt_pieces.TYPE_PATTERN.sub(in_text, segment))
    return "".join(out)


class GenerationError(RuntimeError):
    """A template uses a Jinja construct the generator cannot carry into dbt."""


def _dash(flag: str) -> str:
    return "-" if flag == "-" else ""


def _stem(template: str) -> str:
    return re.sub(r"\W", "_", template.split(".", 1)[0])


@dataclass
class _Module:
    """An imported template: its macros become dbt macros."""

    template: str
    macros: dict[str, str] = field(default_factory=dict)  # macro name -> generated dbt macro name
    entry: bool = False  # macros defined in an entry template itself (no module prelude)


class Generator:
    """Turns the templates of ``source`` (a folder or package resource) into dbt macro files."""

    def __init__(self, source=None, entries: dict[str, str] | None = None, package_macros: Path = DEFAULT_OUT):
        self.package_macros = package_macros
        self.source = source if source is not None else templates.template_folder()
        self.entries = dict(ENTRIES if entries is None else entries)
        self.env = jinja2.Environment()
        self.modules: dict[str, _Module] = {}
        self.aliases: dict[str, tuple[str, str | None]] = {}  # alias -> (template, macro or None)

    def read(self, template: str) -> str:
        try:
            return self.source.joinpath(template).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GenerationError(f"template {template!r} not found") from None

    # -- imports ---------------------------------------------------------------
    def _module(self, template: str) -> _Module:
        if template not in self.modules:
            module = _Module(template)
            self.modules[template] = module
            text = self.read(template)
            for match in _MACRO.finditer(text):
                module.macros[match.group(2)] = f"{PREFIX}{_stem(template)}__{match.group(2)}"
            self._collect_imports(text)
        return self.modules[template]

    def _entry_macros(self, template: str) -> None:
        """Macros an entry template defines for its own use become dbt macros too."""
        text = self.read(template)
        found = {m.group(2) for m in _MACRO.finditer(text)}
        if found and template not in self.modules:
            module = _Module(template, entry=True)
            module.macros = {name: f"{PREFIX}{_stem(template)}__{name}" for name in sorted(found)}
            self.modules[template] = module
            for name in found:
                self._bind(name, (template, name))

    def _bind(self, alias: str, target: tuple[str, str | None]) -> None:
        if self.aliases.get(alias, target) != target:
            raise GenerationError(f"the name {alias!r} is imported from two places: {self.aliases[alias]} and {target}")
        self.aliases[alias] = target

    def _collect_imports(self, text: str, stack: tuple[str, ...] = ()) -> None:
        for segment in _SEGMENT.findall(text):
            tag = _TAG.match(segment)
            if not tag:
                continue
            statement = tag.group(2)
            if _UNSUPPORTED.match(statement):
                raise GenerationError(f"template inheritance is not supported: {segment}")
            if m := _IMPORT.match(statement):
                self._module(m.group(2))
                self._bind(m.group(3), (m.group(2), None))
            elif m := _FROM.match(statement):
                module = self._module(m.group(2))
                for part in m.group(3).split(","):
                    names = part.split()
                    if len(names) not in (1, 3) or (len(names) == 3 and names[1] != "as"):
                        raise GenerationError(f"cannot read the import {segment}")
                    if names[0] not in module.macros:
                        raise GenerationError(f"{m.group(2)} has no macro {names[0]!r}")
                    self._bind(names[-1], (m.group(2), names[0]))
            elif m := _INCLUDE.match(statement):
                if m.group(2) in stack:
                    raise GenerationError(f"templates include each other: {' -> '.join(stack + (m.group(2),))}")
                self._collect_imports(self.read(m.group(2)), stack + (m.group(2),))

    # -- rewriting -------------------------------------------------------------
    def _call(self, template: str, macro: str) -> str:
        if macro not in self.modules[template].macros:
            raise GenerationError(f"{template} has no macro {macro!r}")
        return f"{PACKAGE}.{self.modules[template].macros[macro]}"

    def _rewrite_code(self, code: str, siblings: str | None = None) -> str:
        """Inside one Jinja tag or expression: calls of imported macros (and, inside the
        imported template ``siblings``, of its own macros) -> calls of dbt macros with the
        context dict as first argument."""
        names = dict(self.aliases)
        if siblings is not None:
            names.update({name: (siblings, name) for name in self.modules[siblings].macros})
        for alias, (template, macro) in names.items():
            pattern = rf"(?<![\w.]){alias}\s*\(" if macro else rf"(?<![\w.]){alias}\s*\.\s*(\w+)\s*\("

            def call(m, template=template, macro=macro):
                empty = m.string[m.end():].lstrip().startswith(")")
                return f"{self._call(template, macro or m.group(1))}({CONTEXT}{'' if empty else ', '}"

            code = re.sub(pattern, call, code)
        return code

    def _rewrite_segments(self, text: str, siblings: str | None = None) -> str:
        return "".join(
            self._rewrite_code(s, siblings) if s.startswith(("{{", "{%")) else s for s in _SEGMENT.split(text)
        )

    def flatten(self, template: str, stack: tuple[str, ...] = ()) -> str:
        """The template's text with includes inlined, imports dropped and calls rewritten."""
        if template in stack:
            raise GenerationError(f"templates include each other: {' -> '.join(stack + (template,))}")
        text = self.read(template)
        if not stack and template in self.modules and self.modules[template].entry:
            text = _MACRO.sub("", text)  # made its own dbt macros
        out = []
        for segment in _SEGMENT.split(text):
            tag = _TAG.match(segment)
            if tag:
                left, statement, right = tag.group(1), tag.group(2), tag.group(3)
                if m := _INCLUDE.match(statement):
                    inner = self.flatten(m.group(2), stack + (template,))
                    out.append(f"{{%{_dash(left)} with %}}{inner}{{% endwith {_dash(right)}%}}")
                    continue
                if _IMPORT.match(statement) or _FROM.match(statement):
                    out.append(f"{{#{_dash(left)} {statement} (generated: see {CONTEXT}) {_dash(right)}#}}")
                    continue
                if re.match(r"^(macro|endmacro)\b", statement):
                    raise GenerationError(
                        f"{template}: define macros only in imported templates, not in entry or included ones"
                    )
            if segment.startswith(("{{", "{%")):
                segment = self._rewrite_code(segment)
            out.append(segment)
        return "".join(out)

    def free_variables(self, text: str) -> set[str]:
        """Names the text reads but never sets (a name set in one branch only, which Jinja's
        own analysis counts as possibly undeclared, is the template's own)."""
        tree = self.env.parse(text)
        assigned = {node.name for node in tree.find_all(jinja2.nodes.Name) if node.ctx in ("store", "param")}
        names = meta.find_undeclared_variables(tree)
        return set(names) - assigned - {PACKAGE, CONTEXT} - set(self.env.globals)

    def optional_variables(self, text: str) -> set[str]:
        """Variables the template gives a default (``name | default(...)``): they may be left out."""
        return {
            node.node.name
            for node in self.env.parse(text).find_all(jinja2.nodes.Filter)
            if node.name in ("default", "d") and isinstance(node.node, jinja2.nodes.Name)
        }

    # -- output ----------------------------------------------------------------
    def _header(self, template: str) -> str:
        return (
            f"{{#- Generated from sql/{template} by `python -m tools.dbt_gen`: do not edit.\n"
            f"    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}}\n"
        )

    def _prelude(self, template: str, text: str) -> str:
        """What an imported template runs besides defining macros: its statements (``set``,
        ``if``, ...), and the text of ``{% set name %}...{% endset %}`` blocks. Imports are
        dropped (calls are rewritten) and so is other text (an import outputs nothing)."""
        kept, depth = [], 0
        for segment in _SEGMENT.split(text):
            tag = _TAG.match(segment)
            if tag is None:
                if depth and not segment.startswith("{#"):
                    kept.append(segment)
                continue
            statement = tag.group(2)
            if _IMPORT.match(statement) or _FROM.match(statement):
                continue
            if re.match(r"^set\s+[\w\s,]+$", statement):
                depth += 1
            elif re.match(r"^endset\b", statement):
                depth -= 1
            kept.append(self._rewrite_code(segment, template))
        return "".join(kept)

    def _helpers(self, template: str):
        """(generated name, file text, free variables) of each macro of an imported template."""
        text = self.read(template)
        prelude = "" if self.modules[template].entry else self._prelude(template, _MACRO.sub("", text))
        for match in _MACRO.finditer(text):
            l1, name, params, r1, body, l2, r2 = match.groups()
            body = self._rewrite_segments(body, template)
            generated = self.modules[template].macros[name]
            signature = CONTEXT + (", " + params.strip() if params.strip() else "")
            free = sorted(self.free_variables(f"{{% macro probe({signature}) %}}{prelude}{body}{{% endmacro %}}"))
            sets = "".join(
                f"{{% set {var} = {CONTEXT}[{var!r}] {_dash(r1) if i == len(free) - 1 else ''}%}}"
                for i, var in enumerate(free)
            )
            file_text = (
                self._header(template)
                + f"{{%{_dash(l1)} macro {generated}({signature}) {_dash(r1)}%}}"
                + sets
                + prelude
                + body
                + f"{{%{_dash(l2)} endmacro {_dash(r2)}%}}\n"
            )
            yield generated, file_text, set(free)

    def entry_file(self, template: str, name: str) -> tuple[str, list[str]]:
        """The dbt macro file of an entry template, and the context variables it requires
        (its arguments but those the template gives a default)."""
        body = self.flatten(template)
        free = self.free_variables(body)
        helpers = {g: (text, v) for module in self.modules for g, text, v in self._helpers(module)}
        seen: set[str] = set()
        pending = [body]
        while pending:  # the helper macros this entry reaches, directly or through other helpers
            for called in re.findall(rf"\b{PACKAGE}\.({PREFIX}\w+)\(", pending.pop()):
                if called not in seen:
                    seen.add(called)
                    pending.append(helpers[called][0])
                    free |= helpers[called][1]
        args = sorted(free)
        optional = self.optional_variables(body) | {
            var for called in seen for var in self.optional_variables(helpers[called][0])
        }
        checks = "".join(
            f"{{%- if {var} is undefined %}}{{{{ exceptions.raise_compiler_error("
            f"\"{name}: the template context has no '{var}'\") }}}}{{% endif -%}}\n"
            for var in args
            if var not in optional
        )
        context = "{" + ", ".join(f"{var!r}: {var}" for var in args) + "}"
        text = (
            self._header(template)
            + f"{{% macro {name}({', '.join(args)}) -%}}\n"
            + "{#- The template's context variables are the arguments (those it gives a default may be\n"
            + "    left out); extra ones are accepted. -#}\n"
            + f"{{%- set {CONTEXT}_extra = kwargs -%}}\n"
            + checks
            + f"{{%- set {CONTEXT} = {context} -%}}\n"
            + body.rstrip("\n")
            + "\n{%- endmacro %}\n"
        )
        return text, [var for var in args if var not in optional]

    def generate(self, data: bool = False) -> dict[str, str]:
        """{path: text} of every generated macro file: the templates' macros as plain file names
        (with ``data``, under TEMPLATES, plus the option macros and the data macros of
        :mod:`tools.dbt_pieces`, each under its folder)."""
        files: dict[str, str] = {}
        for template in self.entries:
            self._entry_macros(template)
            self._collect_imports(self.read(template))
        for template, name in self.entries.items():
            files[f"{name}.sql"], _ = self.entry_file(template, name)
        for template in self.modules:
            for generated, text, _ in self._helpers(template):
                files[f"{generated}.sql"] = text
        types: set[str] = set()
        files = {name: engine_neutral(text, types) for name, text in files.items()}
        if data:
            files = {f"{TEMPLATES}/{name}": text for name, text in files.items()}
            files.update(option_macros())
            files.update(dbt_pieces.files(types))
            files[YML] = dbt_docs.macros_yml(dbt_docs.public_files(self.package_macros, files))
        return dict(sorted(files.items()))

    def context_variables(self, template: str) -> list[str]:
        """The context variables the dbt macro generated from ``template`` requires."""
        self._entry_macros(template)
        self._collect_imports(self.read(template))
        return self.entry_file(template, self.entries.get(template, "probe"))[1]


def generate(source=None, entries: dict[str, str] | None = None) -> dict[str, str]:
    """{file name: text} of the generated dbt macros, from the templates in ``source``
    (a folder as a :class:`pathlib.Path`; default: the installed ``ndcg_sql.sql``
    package, i.e. ``sql/``) and the entry templates ``entries`` ({template:
    macro name}; default :data:`ENTRIES`).

    Raises:
        GenerationError: a template uses template inheritance, defines macros
            outside an imported template, or imports a name twice differently.
    """
    return Generator(source, entries).generate(data=source is None and entries is None)


def option_macros() -> dict[str, str]:
    """The option macros of ``sql/options/`` as they are (the runner renders the same files),
    under OPTIONS, with a line saying where they come from."""
    return {
        f"{OPTIONS}/{name}": (f"{{#- Copied from sql/options/{name} by `python -m tools.dbt_gen`: do not edit. -#}}\n"
                              + text)
        for name, text in templates.option_macro_files().items()
    }


def _present(out_dir: Path) -> set[str]:
    """The files of the owned folders of ``out_dir``, as paths relative to it."""
    owned = {str(path.relative_to(out_dir)) for folder in OWNED if (out_dir / folder).is_dir()
             for path in (out_dir / folder).rglob("*.sql")}
    return owned | ({YML} if (out_dir / YML).is_file() else set())


def write(out_dir: Path) -> list[str]:
    """Write the generated files into ``out_dir`` (other files of its owned folders are removed)."""
    files = Generator(package_macros=out_dir).generate(data=True)
    for stale in _present(out_dir) - set(files):
        (out_dir / stale).unlink()
    for name, text in files.items():
        (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (out_dir / name).write_bytes(text.encode("utf-8"))
    return list(files)


def differences(out_dir: Path) -> list[str]:
    """Paths of generated files that are missing, stale or different in ``out_dir``."""
    files = Generator(package_macros=out_dir).generate(data=True)
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
