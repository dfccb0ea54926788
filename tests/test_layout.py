"""The package's structure holds: layers import only downward (docs/architecture.md is the map),
no import cycle, small modules; the command line is built from the option table."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT
from ndcg_sql import cli, parameters


def layers() -> dict[str, int]:
    """Module -> its layer's place in the table of docs/architecture.md (0 = lowest)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("## Layers"):].split("\n## ")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    return {module: place for place, row in enumerate(rows) for module in re.findall(r"`(\w+)\.py`", row)}


def imports() -> dict[str, set[str]]:
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "layers.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr  # no cycle
    graph = {}
    for line in done.stdout.splitlines():
        module, _, uses = line.partition("<-")
        graph[module.strip()] = set() if "nothing" in uses else {u.strip() for u in uses.split(",")}
    return graph


def test_layers_import_only_downward():
    place = layers()
    graph = imports()
    assert set(graph) - {"__init__"} == set(place), "every module is in the table of docs/architecture.md"
    upward = [(module, used) for module, uses in graph.items() if module in place
              for used in uses if place[used] > place[module]]
    assert not upward, upward


def test_modules_are_small():
    """A guard against a module that holds everything, not a style target: modules are grouped by
    what changes together (a split only to meet a line count makes near-synonym modules)."""
    sizes = {path.name: len(path.read_text().splitlines()) for path in (ROOT / "ndcg_sql").glob("*.py")}
    assert max(sizes.values()) <= 400, sizes


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
            assert action.help.replace("%%", "%").startswith(p.cli.helps.get(command, p.doc))

