"""The public functions' signatures are the option table: each option a function takes is a
keyword argument with the table's type and default (or its declared variant for that function),
each choice option a ``Literal`` of the table's choices, and the docstrings (as written in the
source, which a static reader sees) document every option with the table's text."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import typing

import pytest

import ndcg_sql
from conftest import ROOT
from ndcg_sql import cli
from ndcg_sql.building import context
from ndcg_sql.data import connections
from ndcg_sql.vocabulary import dialects, parameters
from ndcg_sql.vocabulary.parameters import BY_NAME, METRIC, PARAMETERS
from ndcg_sql.plot import plot

FUNCTIONS = {"evaluate": ndcg_sql.evaluate, "to_sql": ndcg_sql.to_sql, "compare": ndcg_sql.compare,
             "compare_runs": ndcg_sql.compare_runs, "plot": plot, "unjudged": ndcg_sql.unjudged}
#: The metric options a function does not take, and why: compare's cutoffs are in its measures'
#: names and its paired tests weigh every query alike; plot draws NDCG@k of whole runs.
LEFT_OUT = {"evaluate": set(), "to_sql": set(), "compare": {"k", "intervals", "bootstrap", "sample", "weight_col"},
            "compare_runs": {"k", "intervals", "bootstrap", "sample", "weight_col"},
            "plot": {"measures", "max_grade", "intervals", "sample"},
            # the worklist ranks the runs as evaluate does, and computes no metric of them
            "unjudged": {"k", "gain", "no_relevant", "missing_queries", "unjudged", "measures", "max_grade", "intervals",
                         "bootstrap", "sample", "seed"}}
#: Options the command line handles itself instead of passing them to the Python function.
CLI_OWN = {"sql": {"judgments"}}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_each_option_of_a_signature_is_the_tables(name, tmp_path):
    """And any other keyword is a TypeError, raised before anything runs."""
    function = FUNCTIONS[name]
    args = {"evaluate": ("missing.parquet",), "to_sql": ("runs",), "compare": ("a.parquet", "b.parquet"),
            "compare_runs": (["a.parquet", "b.parquet", "c.parquet"],),
            "plot": (["a.parquet"], str(tmp_path / "p.png")), "unjudged": ("a.parquet", "q.parquet")}[name]
    with pytest.raises(TypeError, match="itme_col"):
        function(*args, itme_col="x")
    assert not (tmp_path / "p.png").exists()
    hints = typing.get_type_hints(function)
    taken = {p: q for p, q in inspect.signature(function).parameters.items() if p in BY_NAME}
    assert set(METRIC) - LEFT_OUT[name] <= set(taken), set(METRIC) - LEFT_OUT[name] - set(taken)
    assert not LEFT_OUT[name] & set(taken)
    for option, parameter in taken.items():
        want = BY_NAME[option].taken_by(name)
        assert hints[option] == want.annotation, (name, option, hints[option], want.annotation)
        assert parameter.default == want.default and type(parameter.default) is type(want.default), (name, option)
        assert parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD), (name, option)
    for option in (o for o in BY_NAME if name in BY_NAME[o].variants):
        assert option in taken, f"{option} has a variant for {name}, which does not take it"


@pytest.mark.parametrize("command", ["evaluate", "compare", "plot", "sql", "unjudged"])
def test_every_option_of_a_command_is_a_parameter_of_its_function(command):
    """The command line passes its options by name: its Python function must take each one."""
    taken = set(inspect.signature(cli.TARGETS[command]).parameters)
    given = {p.name for p in PARAMETERS if p.cli is not None and command in p.cli.commands}
    assert given - CLI_OWN.get(command, set()) <= taken, given - taken


def test_choices_are_the_literal_types():
    """Each option with allowed values has a Literal type of exactly those values, and the
    tables that list them elsewhere agree: the dialects (and their aliases), the statements of
    to_sql, the choices the resolution macros read."""
    with_choices = [p for p in PARAMETERS if p.choices]
    assert {p.name for p in with_choices} >= {"discount", "ties", "no_relevant", "missing_queries", "unjudged",
                                             "score_precision", "negative_labels", "input_format",
                                             "judgments_format", "dialect", "item_type"}
    for p in with_choices:
        literal = p.annotation if typing.get_origin(p.annotation) is typing.Literal else next(
            a for a in typing.get_args(p.annotation) if typing.get_origin(a) is typing.Literal)
        assert typing.get_args(literal) == p.choices, p.name
    assert set(typing.get_args(dialects.DialectName)) == set(dialects.DIALECTS) | set(dialects.ALIASES)
    assert typing.get_args(typing.get_type_hints(ndcg_sql.to_sql)["what"]) == parameters.STATEMENTS
    assert typing.get_args(parameters.Gain) == ("exponential", "linear")
    table = parameters.option_table()
    for name, values in table["choices"].items():
        assert tuple(values) == BY_NAME[name].choices


def _docstring_in_source(module, name: str) -> str:
    """The docstring of ``name`` as written in the module's source (what a static reader sees)."""
    tree = ast.parse((ROOT / (module.__name__.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_docstring(node) or ""


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_docstring_documents_every_option_with_the_tables_text(name):
    function = FUNCTIONS[name]
    written = _docstring_in_source(importlib.import_module(function.__module__), name)
    assert inspect.getdoc(function) == written  # help() shows the same text
    section = " ".join(written.split("Keyword Args:", 1)[1].split())
    for option in inspect.signature(function).parameters:
        if option in BY_NAME:
            doc = " ".join(str(BY_NAME[option].taken_by(name).doc).split())
            assert f"{option}: {doc}" in section, (name, option)


def test_the_keyword_args_are_as_the_tool_writes_them():
    from tools import option_docs

    assert option_docs.stale() == [], "run python -m tools.option_docs"


def test_a_default_is_written_once():
    """The memory limit, the permutations and the seed's rule each have one home: the option
    table (ndcg_sql/vocabulary/parameters.py), and sql/options/seed.sql for the seed, which compare calls."""
    literals = {}
    for path in sorted((ROOT / "ndcg_sql").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ("1400MB", 10_000) and node.value is not True:
                literals.setdefault(node.value, set()).add(path.name)
    assert literals == {"1400MB": {"parameters.py"}, 10_000: {"parameters.py"}}, literals
    assert connections.DEFAULT_MEMORY_LIMIT == parameters.DEFAULTS.memory_limit == "1400MB"
    assert parameters.DEFAULTS.permutations == 10_000
    check = context.option_macros()._checked_seed
    assert check(2**63 - 1) == 2**63 - 1
    for seed in (-1, 2**63, True, 1.5, "3"):
        with pytest.raises(ndcg_sql.OptionError) as by_the_rule:
            check(seed)
        with pytest.raises(ndcg_sql.OptionError) as by_compare:
            ndcg_sql.compare("a.parquet", "b.parquet", seed=seed)
        with pytest.raises(ndcg_sql.OptionError) as by_to_sql:
            ndcg_sql.to_sql("runs", seed=seed)
        assert str(by_compare.value) == str(by_the_rule.value) == str(by_to_sql.value), seed


#: Fields of Options named as an option of the table but meaning something else: judgments (whether they
#: are given; the option is the judgments) and max_grade (None without ERR among the measures).
OTHER_MEANING = {"judgments", "max_grade"}
#: The option each field of Options resolves (its own name, but the cutoffs: k), the values a field
#: takes beyond the option's choices (a gain given as a mapping resolves to "mapping"), and those it
#: does not take (the cutoff "all" resolves to None, the whole list).
RESOLVES = {"cutoffs": "k"}
BEYOND = {"gain": {"mapping"}}
AWAY = {"cutoffs": {"all"}}


def _literal_values(annotation) -> tuple:
    """The values of every Literal in a type (a union's members too, a nested Literal flattened)."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return tuple(v for member in typing.get_args(annotation) for v in _literal_values(member))


def test_options_take_the_literal_types_and_the_defaults_of_the_table():
    """Options (the resolved conventions) types each field that resolves an option with that option's
    Literal values (and what it resolves to beyond them), and defaults to the table's default read from
    DEFAULTS: in ndcg_sql/vocabulary/parameters.py no default of an option, outside the table (Given),
    is written again as a literal, in a dataclass field or a function's signature."""
    hints = typing.get_type_hints(parameters.Options)
    options = parameters.Options()
    resolved = [f.name for f in dataclasses.fields(parameters.Options)
                if RESOLVES.get(f.name, f.name) in BY_NAME and f.name not in OTHER_MEANING]
    assert set(resolved) >= {"cutoffs", "gain", "discount", "log_base", "ties", "no_relevant", "missing_queries",
                             "unjudged", "score_precision", "negative_labels", "sample"}
    for name in resolved:
        option = BY_NAME[RESOLVES.get(name, name)]
        assert sorted(_literal_values(hints[name])) == sorted(
            (set(_literal_values(option.annotation)) - AWAY.get(name, set())) | BEYOND.get(name, set())), name
        default = getattr(options, name)
        assert default == (tuple(option.default) if isinstance(default, tuple) else option.default), name
    assert _literal_values(hints["input_kind"]) == ("score", "rank")
    tree = ast.parse((ROOT / "ndcg_sql" / "vocabulary" / "parameters.py").read_text(encoding="utf-8"))
    written = []
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.FunctionDef):
            positional = node.args.posonlyargs + node.args.args
            pairs += [(a.arg, d) for a, d in zip(positional[len(positional) - len(node.args.defaults):],
                                                  node.args.defaults)]
            pairs += [(a.arg, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None]
        elif isinstance(node, ast.ClassDef) and node.name != "Given":
            pairs += [(s.target.id, s.value) for s in node.body if isinstance(s, ast.AnnAssign)
                      and isinstance(s.target, ast.Name) and s.value is not None]
        for name, default in pairs:
            option = RESOLVES.get(name, name)
            if option in BY_NAME and name not in OTHER_MEANING and any(
                    isinstance(n, ast.Constant) and n.value is not None for n in ast.walk(default)):
                written.append(f"{name} = {ast.unparse(default)} (line {default.lineno})")
    assert written == [], "read the default from DEFAULTS: " + "; ".join(written)


def test_the_package_says_it_is_typed():
    """py.typed (PEP 561) is in the package and among the files installed with it."""
    assert (ROOT / "ndcg_sql" / "py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"ndcg_sql" = ["py.typed"]' in pyproject.split("[tool.setuptools.package-data]", 1)[1]
