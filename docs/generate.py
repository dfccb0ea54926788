"""The generated parts of the documentation, written into the Markdown files from the code.

A page holds a region ``<!-- generated: NAME -->`` ... ``<!-- end generated: NAME -->``, whose
lines are ``GENERATED[NAME]()``, written there by ``python docs/generate.py`` (so the pages read on
the forge and in an editor too; tests/test_docs.py fails when a region is stale, naming this
command), and filled in afresh by mkdocs (``hooks:`` in mkdocs.yml calls
:func:`on_page_markdown`) when the site is built. The generated parts: the measures
table from ``ndcg_sql/vocabulary/measures.py``, the conventions table from ``ndcg_sql/vocabulary/conventions.py``,
the options reference from ``ndcg_sql.vocabulary.parameters.PARAMETERS``, each subcommand's ``--help``
from the command line's parser, and the dbt macros' reference from
``dbt_macros/macros/macros.yml`` (itself written from the macros by ``python -m tools.dbt_gen``).
So the pages cannot disagree with the code. An unknown NAME stops the build.
"""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import sys
from pathlib import Path

import yaml

from ndcg_sql import cli
from ndcg_sql.vocabulary import conventions, measures, parameters

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools/, the dbt package's generator (not installed)
from tools.dbt_docs import DBT_NAMES  # noqa: E402
#: A generated region: its opening line, what was written there, its closing line.
REGION = re.compile(r"^<!-- generated: ([\w-]+) -->\n(.*?)^<!-- end generated: \1 -->$", re.MULTILINE | re.DOTALL)
#: An opening line alone (a page not written yet): the region is made around it.
OPENING = re.compile(r"^<!-- generated: ([\w-]+) -->$(?!\n(?:.*\n)*?<!-- end generated: \1 -->)", re.MULTILINE)
PAGES = sorted((ROOT / "docs").glob("*.md"))


def cell(text: object) -> str:
    """Text as one cell of a Markdown table: nothing in it read as Markdown or HTML."""
    text = html.escape(str(text), quote=False)
    return re.sub(r"([\\`*_\[\]|])", r"\\\1", text).replace("\n", " ")


def code(text: object) -> str:
    """Text as code in a table cell."""
    return "<code>" + html.escape(str(text), quote=False).replace("|", "&#124;") + "</code>"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# ----------------------------------------------------------------- measures
def _names(family: measures.Family) -> list[str]:
    """How a family is written: with a cutoff, and without one (the whole list) where allowed."""
    name, params = family.name, []
    if family.takes_threshold:
        params.append("rel=2")
    if family.persistence:
        params.append("p=0.9")
    with_params = f"{name}({','.join(params)})" if params else None
    at = {"cutoff": "@k", "recall": "@x", "none": ""}[family.at]
    forms = [f"{name}{at}"] if family.needs_cutoff or not at else [f"{name}{at}", name]
    if with_params:
        forms.append(f"{with_params}{at}" if family.needs_cutoff else with_params)
    return forms


def _values(family: measures.Family) -> str:
    """The range of a family's per-query values and the interval it picks (sql/options/value_range.sql)."""
    if family.values == "zero_one":
        return "0 or 1 (interval: Wilson)"
    if family.values == "unbounded":
        return "≥ 0, unbounded (interval: normal)"
    if family.values == "log":
        return ("ln of a value in (0, 1]; the summary is their geometric mean (interval: normal of the mean log, "
                "exponentiated, clipped)")
    at_1 = " (at @1: 0 or 1, Wilson)" if family.zero_one_at_1 else ""
    return f"in [0, 1] (interval: normal, clipped){at_1}"


#: What each relevance kind of measures.RELEVANCE reads, as the table says it.
_RELEVANCE = {"gain": "gain", "judged": "whether judged", "threshold": "label ≥ rel (default 1)",
              "grade": f"graded: the label, at most max_grade (default {measures.ERR_MAX_GRADE})",
              "pool": "label ≥ rel (default 1); judged or not, a label below 0 pooled but unjudged"}


def measures_table() -> str:
    """A table of the families of ``measures.FAMILIES`` (how each is written, what counts as
    relevant, the tie orders it takes, the range of its values), then each family's formula and
    source."""
    rows, formulas = [], []
    for family in measures.FAMILIES:
        names = ", ".join(code(n) for n in _names(family))
        if family.aliases:
            names += " (also " + ", ".join(code({"hit": "Hit"}.get(a, a.upper())) for a in family.aliases) + ")"
        ties = "any" if family.linear else "item-asc, item-desc or input-order"
        relevant = _RELEVANCE[family.relevance]
        if family.persistence:
            relevant += f"; persistence p (default {measures.DEFAULT_P})"
        rows.append([names, cell(relevant), cell(ties), cell(_values(family))])
        formulas.append(f"- **{family.name}**: `{family.formula}`. {cell(family.source)}.")
    return (table(["name", "relevance", "ties", "per-query values"], rows)
            + "\n\nFormulas and sources (rel(r) = 1 when the label at rank r is relevant, else 0):\n\n"
            + "\n".join(formulas))


# ----------------------------------------------------------------- conventions
def _convention_rows() -> list[tuple[str, object]]:
    """(row label, function of a convention's entry, or None for the defaults -> text)."""
    default = {name: parameters.BY_NAME[name].default for name in
               ("discount", "log_base", "gain", "ties", "no_relevant", "score_precision", "negative_labels")}

    def option(name):
        return lambda entry: str(default[name] if entry is None else entry.get(name, "as given"))

    def weights(entry):
        if entry is None or entry.get("weights", True) and entry.get("no_relevant_weight") != "one":
            return "sum(w x) / sum(w)"
        if entry.get("weights", True) is False:
            return "refused"
        return "sum(w x) / sum(w), a query with no relevant item adding 1, not w (k only)"

    return [
        ("tool", lambda entry: "—" if entry is None else entry["peer"]),
        ("discount", option("discount")), ("log base", option("log_base")), ("gain", option("gain")),
        ("ties", option("ties")), ("no relevant item", option("no_relevant")),
        ("scores compared as", option("score_precision")), ("negative labels", option("negative_labels")),
        ("labels read", lambda entry: "whole part (atol)" if entry and entry.get("label_reading") == "atol"
         else "as given"),
        ("ids compared", lambda entry: "as text" if entry and entry.get("ids") == "text" else "by their types"),
        ("judgments", lambda entry: "refused" if entry and entry.get("judgments_allowed") is False else "yes"),
        ("query weights", weights),
        ("measures", lambda entry: "all" if entry is None else ", ".join(entry["peer_measures"])),
    ]


def conventions_table() -> str:
    names = list(conventions.CONVENTIONS)
    header = ["", "default (no convention)"] + [code(name) for name in names]
    rows = [[cell(label), cell(value(None))] + [cell(value(conventions.CONVENTIONS[name])) for name in names]
            for label, value in _convention_rows()]
    out = table(header, rows)
    aliases = ", ".join(f"{code(alias)} = {code(name)}" for alias, name in conventions.ALIASES.items())
    return out + f"\n\nOther names accepted: {aliases}."


# ----------------------------------------------------------------- options
def _dbt_arguments() -> set[str]:
    macros = yaml.safe_load((ROOT / "dbt_macros" / "macros" / "macros.yml").read_text(encoding="utf-8"))["macros"]
    return {argument["name"] for macro in macros for argument in macro.get("arguments", [])}


def options_reference() -> str:
    """One section per option: its Python type and default, allowed values, command-line flag and
    subcommands, dbt argument, and its documentation."""
    dbt_names = {python: dbt for dbt, python in DBT_NAMES.items()}
    in_dbt = _dbt_arguments()
    out = []
    for p in parameters.PARAMETERS:
        default = "the whole list and " + ", ".join(map(str, p.default[:-1])) if p.name == "k" else repr(p.default)
        facts = [f"Python: `{p.name}: {shown_type(p.annotation)}`, default `{default}`"]
        facts += [f"`{function}()`: default `{variant.default!r}`" for function, variant in p.variants.items()]
        if p.choices:
            facts.append("one of " + ", ".join(f"`{c}`" for c in p.choices))
        if p.cli is not None:
            if p.cli.flag:
                spelled = p.flag
            elif p.choices and p.cli.metavar is None:
                spelled = f"{p.flag} {{{','.join(p.choices)}}}"
            else:
                spelled = f"{p.flag} {p.cli.metavar or p.name.upper()}" + (" ..." if p.cli.nargs == "+" else "")
            facts.append(f"command line: `{spelled}` ({', '.join(p.cli.commands)})")
        else:
            facts.append("not on the command line")
        dbt = dbt_names.get(p.name, p.name)
        facts.append(f"dbt: `{dbt}`" if dbt in in_dbt else "not an argument of the dbt macros")
        helps = "".join(f"\n\n`ndcg-sql {command}`: {cell(p.help(command))}" for command in p.cli.helps
                        if p.help(command) != p.doc) if p.cli else ""
        out.append(f"### `{p.name}`\n\n" + " · ".join(facts) + f"\n\n{cell(p.doc)}{helps}")
    return "\n\n".join(out)


def shown_type(annotation) -> str:
    """A type as the signatures write it (``typing`` objects without the module's name)."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    return text.replace("typing.", "").replace("collections.abc.", "")


# ----------------------------------------------------------------- command line
def cli_help() -> str:
    parser = cli.build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    blocks = []
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal's width
    try:
        for name, sub in subcommands.items():
            with contextlib.redirect_stdout(io.StringIO()) as text:
                sub.print_help()
            blocks.append(f"### ndcg-sql {name}\n\n```text\n{text.getvalue().rstrip()}\n```")
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return "\n\n".join(blocks)


# ----------------------------------------------------------------- dbt macros
def dbt_macros() -> str:
    macros = yaml.safe_load((ROOT / "dbt_macros" / "macros" / "macros.yml").read_text(encoding="utf-8"))["macros"]
    kinds = [("Models", lambda n: n.startswith("ndcg_")), ("Generic tests", lambda n: n.startswith("test_")),
             ("Helpers and engine pieces", lambda n: not n.startswith(("ndcg_", "test_")))]
    out = []
    for title, belongs in kinds:
        out.append(f"## {title}")
        for macro in sorted((m for m in macros if belongs(m["name"])), key=lambda m: m["name"]):
            name = macro["name"].removeprefix("test_")
            out.append(f"### `ndcg_sql.{name}`\n\n{cell(macro['description'])}")
            if macro.get("arguments"):
                out.append(table(["argument", "description"],
                                 [[code(a["name"]), cell(a["description"])] for a in macro["arguments"]]))
    return "\n\n".join(out)


GENERATED = {"measures": measures_table, "conventions": conventions_table, "options": options_reference,
             "cli-help": cli_help, "dbt-macros": dbt_macros}


def _generated(name: str) -> str:
    if name not in GENERATED:
        raise KeyError(f"no generated part named {name!r}; known: {', '.join(GENERATED)}")
    return GENERATED[name]()


def expand(markdown: str) -> str:
    """The page with each generated region (or a lone opening line) holding what its NAME
    generates now, between its opening and closing lines."""
    def one(match: re.Match) -> str:
        name = match.group(1)
        return f"<!-- generated: {name} -->\n{_generated(name)}\n<!-- end generated: {name} -->"
    return REGION.sub(one, OPENING.sub(lambda m: f"{m.group(0)}\n<!-- end generated: {m.group(1)} -->", markdown))


def stale_pages() -> list[Path]:
    """The pages whose generated regions differ from what the code generates now."""
    return [page for page in PAGES if expand(page.read_text(encoding="utf-8")) != page.read_text(encoding="utf-8")]


def write_pages() -> list[Path]:
    """Write every page's generated regions afresh; returns the pages that changed."""
    changed = stale_pages()
    for page in changed:
        page.write_text(expand(page.read_text(encoding="utf-8")), encoding="utf-8")
    return changed


def on_page_markdown(markdown: str, **_) -> str:
    """mkdocs hook: the page's generated parts filled in."""
    return expand(markdown)


if __name__ == "__main__":
    written = write_pages()
    print("\n".join(f"wrote {page.relative_to(ROOT)}" for page in written) or "every generated region is up to date")
