"""The package's structure holds: the import-linter contracts of pyproject.toml (layers that import
only downward, no import cycle), each module has a line in docs/architecture.md saying what it holds,
grouped by the contract's layers; the command line is built from the option table."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT
from ndcg_sql import cli
from ndcg_sql.vocabulary import parameters


def contract_layers() -> list[set[str]]:
    """The modules of each layer of pyproject.toml's layers contracts, lowest layer first: the
    contract over the package's root, each folder (subpackage) in it replaced by the layers of its
    own contract, its modules written ``folder/module``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts = {c["containers"][0]: c for c in config["contracts"] if c["type"] == "layers"}

    def layers(container: str, prefix: str) -> list[set[str]]:
        out: list[set[str]] = []
        for layer in reversed(contracts[container]["layers"]):
            names = re.split(r"\s*[:|]\s*", layer.strip())
            if len(names) == 1 and f"{container}.{names[0]}" in contracts:
                out += layers(f"{container}.{names[0]}", f"{prefix}{names[0]}/")
            else:
                out.append({prefix + name for name in names})
        return out

    return layers("ndcg_sql", "")


def documented_layers() -> list[tuple[str, dict[str, str]]]:
    """The table of docs/architecture.md's "Layers", lowest first: (layer, {module: what it holds})."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("\n## Layers\n"):].split("\n## ")[1]
    layers: list[tuple[str, dict[str, str]]] = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        found = re.fullmatch(r"`((?:\w+/)?\w+)\.py`", cells[1]) if line.startswith("|") and len(cells) == 3 else None
        if found:
            if cells[0]:
                layers.append((cells[0], {}))
            layers[-1][1][found[1]] = cells[2]
    return layers


def test_the_import_contracts_hold():
    """lint-imports checks pyproject.toml's contracts: no module imports from a higher layer, every
    module is in a layer (exhaustive), no import cycle."""
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_every_module_says_what_it_holds_in_its_layer():
    """docs/architecture.md's table has one line for each module of the package, saying what it
    holds, in the layers of the contract and in their order (the review of what goes together)."""
    documented = documented_layers()
    package = ROOT / "ndcg_sql"
    modules = {path.relative_to(package).with_suffix("").as_posix() for path in package.rglob("*.py")
               if path.name != "__init__.py"}
    listed = [module for _, held in documented for module in held]
    assert sorted(listed) == sorted(modules), "one row per module of ndcg_sql/"
    assert all(what for _, held in documented for what in held.values()), "each row says what its module holds"
    assert [set(held) for _, held in documented] == contract_layers(), "the table's layers are the contract's"


@pytest.mark.parametrize("command", ["evaluate", "compare", "plot", "sql"])
def test_the_command_line_is_the_option_table(command):
    """Each subcommand has exactly the table's options for it, with the table's choices and help."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    flags = {o: a for a in sub._actions for o in a.option_strings}
    for p in parameters.PARAMETERS:
        wanted = p.cli is not None and command in p.cli.commands
        assert (p.flag in flags) == wanted, (command, p.name)
        if wanted:
            action = flags[p.flag]
            assert action.dest == p.name
            assert action.choices == (list(p.choices) if p.choices and action.choices is not None and isinstance(action.choices, list) else p.choices)
            assert action.help.replace("%%", "%").startswith(p.help(command))



def test_one_version():
    """The package's version is written once in the code (parameters.VERSION) and is pyproject's."""
    import tomllib

    import ndcg_sql
    from ndcg_sql.vocabulary.parameters import VERSION

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == VERSION == ndcg_sql.__version__


def test_the_templates_are_the_checkouts_own():
    """Imported from a checkout, ndcg_sql renders the sql/ beside it, even where an editable install
    of another checkout maps the package ndcg_sql.sql to that checkout's folder."""
    from ndcg_sql.building import templates

    assert Path(str(templates.template_folder())).resolve() == (ROOT / "sql").resolve()


def test_an_options_text_is_spelled_for_each_reader():
    """An option's text is written once; its marks are written for a Python caller and for the
    command line, and a mark that names nothing known is an error, not text shown as it is."""
    from ndcg_sql.vocabulary.parameters import spoken

    text = 'with {ties="input-order"}, {row_col} of {bootstrap=N}, {None}; {raises OptionError}; {label: gain}'
    assert spoken(text, "python") == 'with ties="input-order", row_col of bootstrap=N, None; raises OptionError; {label: gain}'
    assert spoken(text, "cli") == ("with --ties input-order, --row-col of --bootstrap N, 'none'; is refused with an error; "
                                   "{label: gain}")
    with pytest.raises(ValueError, match="tie"):
        spoken("{tie}", "cli")
