"""``dbt_macros/macros/macros.yml``, written from the public macros themselves and the option table.

Every public macro (a file of ``macros/``, ``macros/generic_tests/`` or the generated
``macros/engine/``; internals are in ``macros/_internal/`` and start with an underscore) is
listed with its description (the macro's leading comment, first paragraph) and every
argument, in the macro's order, with its default. An argument that is an option of the
Python runner is described by :data:`ndcg_sql.vocabulary.parameters.PARAMETERS`; the others by
:data:`ARGUMENTS`. Written by ``python -m tools.dbt_gen``, so the yml cannot lag the macros.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
from jinja2 import nodes

from ndcg_sql.vocabulary.parameters import BY_NAME

#: Folders of macros/ that hold public macros.
PUBLIC = ("", "generic_tests", "engine")
#: dbt spellings of options of the Python runner.
DBT_NAMES = {"segment_cols": "segments"}
#: Arguments that are not options of the Python runner.
ARGUMENTS = {
    "relation": "the ranking: ref(), source() or a CTE name; one row per (query, item)",
    "judgments_query_col": "query column of the judgments (default: query_col)",
    "judgments_item_col": "item column of the judgments (default: item_col)",
    "judgments_label_col": "label column of the judgments (default: label_col)",
    "per_query": "the per-query rows: ref(), source() or a CTE name",
    "sample_strata": "the strata of a sample of the queries (a ref() of an ndcg_sample_strata model given the "
                     "arguments the per-query rows were sampled with): the summary is an estimate, with the column "
                     "population, its standard error and interval carrying the finite-population correction "
                     "sqrt(1 - n/N) of each segment, as Python's sample=",
    "weighted": "the per-query rows carry a weight column (weight_col): the summary is the weighted mean",
    "model": "the tested model",
    "threshold": "lowest accepted mean NDCG@k, in [0, 1]",
    "ranking": "options of ndcg_per_query when the model is a ranking, not per-query rows",
    "limit": "at most this many query ids per check (default 100)",
    "name": "a column name exactly as spelled (engine pieces: a DuckDB type name)",
    "partition_col": "the partition column (a day): all rows of a query in one partition, carried by the model's output",
    "lookback": "also recompute the last this-many partitions already in the model",
    "partitions": "the partition values to compute (a list; default: the var ndcg_partitions, else the new ones)",
    "text": "the text",
    "arm_col": "the experiment arm column of the per-query rows",
    "baseline": "the baseline arm's value in arm_col (a string or a number)",
    "period_col": "the period column (a day): the latest period is tested against the trailing window",
    "window": "how many periods before the latest one the trailing window holds (default 7)",
    "alpha": "the one-sided level of the family, one of the tabulated levels 0.1, 0.05, 0.025, 0.01, ... 1e-6",
    "correction": "'bonferroni' (each of m tests at alpha / m, rounded down to a tabulated level) or 'none'",
    "min_effect": "a drop smaller than this (in the measure's units) is never significant (default 0)",
    "run_name": "the name of what shows an item in the runs column (default: the relation's name)",
    "column": "a column of names (engine piece: the names of a group joined by '; ')",
}
#: (macro, argument): what the argument means in that macro, where the option's own text (written
#: for the Python runner) would say something untrue there.
IN_MACRO = {
    ("test_ndcg_at_least", "k"): "the one cutoff whose mean NDCG@k is tested: a positive int, or 'all' (the whole list)",
    ("test_ndcg_at_least", "segment_cols"): "column name(s) of the model: the mean is tested per segment (e.g. each "
                                            "experiment arm), a failing row naming the segment",
    ("test_ndcg_one_partition_per_query", "segment_cols"): "column name(s) of the ranking that act as part of the "
                                                           "query key: one partition per (segment values, query)",
    ("ndcg_unjudged", "judgments"): "the judgments relation (required): an item is judged when it has a row there, "
                                    "whatever its label",
    ("ndcg_unjudged", "segment_cols"): "column name(s) of the ranking (a run or arm column): each segment's values "
                                       "show items as a run does, named run_name and the values (\"dl19_runs arm=bm25\")",
    ("test_ndcg_valid_input", "segment_cols"): "column name(s) of the ranking that act as part of the query key, "
                                               "as in ndcg_per_query: duplicates are (segment values, query, item) rows",
}
#: How an option's text states the Python runner's default; left out where the macro has a default
#: of its own, which is shown instead (one default per argument).
_STATED_DEFAULT = (re.compile(r" Default(?: None)?: [^.]*\."), re.compile(r" \(default [^)]*\)"),
                   re.compile(r"; default [^)]*(?=\))"))
_DECLARATION = re.compile(r"(\{#-(?P<doc>(?:(?!\{#).)*?)-#\}\s*)?\{%-?\s*(?P<kind>macro|test)\s+(?P<name>\w+)\s*\(",
                          re.DOTALL)


def _signature(text: str, start: int, kind: str, name: str) -> list[tuple[str, object]]:
    """(argument, default) of the macro declared at ``start``; the default is ... when there is none."""
    end = text.index("%}", start) + 2
    declaration = text[start:end].replace(f"{kind} ", "macro ", 1)
    declaration = re.sub(r"^\{%-?\s*", "{% ", declaration)
    macro = jinja2.Environment().parse(declaration + "{% endmacro %}").find(nodes.Macro)
    defaults = [None] * (len(macro.args) - len(macro.defaults)) + list(macro.defaults)
    return [(arg.name, ... if default is None else default.as_const()) for arg, default in zip(macro.args, defaults)]


def public_files(macros_dir: Path, generated: dict[str, str]) -> dict[str, str]:
    """{path under macros/: text} of the files that hold public macros: those on disk, and the
    freshly ``generated`` ones in their place."""
    files = {str(path.relative_to(macros_dir)): path.read_text(encoding="utf-8")
             for folder in PUBLIC for path in (macros_dir / folder).glob("*.sql")}
    files.update({path: text for path, text in generated.items() if path.rsplit("/", 1)[0] in PUBLIC})
    return dict(sorted(files.items()))


def public_macros(files: dict[str, str]) -> list[dict]:
    """Every public macro of ``files`` ({path: text}): name, arguments, description, file."""
    found = []
    for path, text in files.items():
        for match in _DECLARATION.finditer(text):
            name = match.group("name")
            if name.startswith("_") or "__" in name:
                continue
            doc = " ".join((match.group("doc") or "").strip().split("\n\n")[0].split())
            found.append({
                "name": f"test_{name}" if match.group("kind") == "test" else name,
                "arguments": _signature(text, text.rindex("{%", 0, match.start("kind")), match.group("kind"), name),
                "description": doc,
                "path": path,
            })
    return found


def _describe(macro: str, argument: str, default) -> str:
    """An argument's description in ``macro``, ending with its default there: the macro's own
    (an option's text stating the Python runner's is then cut), "required", or, for a default of
    none, the option's text as it is (none means: as the Python runner does) or "optional"."""
    option = BY_NAME.get(DBT_NAMES.get(argument, argument))
    if (macro, argument) in IN_MACRO:
        text = IN_MACRO[macro, argument]
    elif option is not None:
        text = option.doc
    elif argument in ARGUMENTS:
        text = ARGUMENTS[argument]
    else:
        raise KeyError(f"the public macro argument {argument!r} has no description: add it to tools/dbt_docs.py")
    if default is ...:
        return f"{text} (required)"
    if default is None:
        return text if re.search(r"\bdefault\b", text, re.IGNORECASE) else f"{text} (optional)"
    for stated in _STATED_DEFAULT:
        text = stated.sub("", text)
    return f"{text} ({_default(default)})"


def _quoted(text: str) -> str:
    """A YAML string of a description. dbt renders descriptions as Jinja: one that shows Jinja
    (a usage example such as ``{{ ndcg_sql.ndcg_summary(...) }}``) is kept literal in a raw block."""
    if any(mark in text for mark in ("{{", "{%", "{#")):
        text = "{% raw %}" + text + "{% endraw %}"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _default(value) -> str:
    if value is ...:
        return "required"
    return "default " + repr(value).replace("None", "none").replace("True", "true").replace("False", "false")


def macros_yml(files: dict[str, str]) -> str:
    """The text of macros.yml for the public macros of ``files`` (:func:`public_files`)."""
    lines = ["# Generated by `python -m tools.dbt_gen` from the public macros and ndcg_sql/vocabulary/parameters.py: do not edit.",
             "version: 2", "", "macros:"]
    for macro in public_macros(files):
        lines += [f"  - name: {macro['name']}", f"    description: {_quoted(macro['description'] + ' (' + macro['path'] + ')')}"]
        if macro["arguments"]:
            lines.append("    arguments:")
        for argument, default in macro["arguments"]:
            lines.append(f"      - name: {argument}")
            lines.append(f"        description: {_quoted(_describe(macro['name'], argument, default))}")
    return "\n".join(lines) + "\n"
