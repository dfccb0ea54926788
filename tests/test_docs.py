"""The documentation is true: every ``python`` and ``sh`` block of README.md, CONTRIBUTING.md,
dbt_macros/README.md and docs/*.md runs on the bundled data, each output shown is what its block
prints, the dbt snippets are the integration project's files, README stays a short front page
whose first two commands are CI's, and the site builds with ``mkdocs build --strict``.

A block is not run only under a visible marker, an HTML comment on the line before it:
``<!-- not run: REASON -->``. ``<!-- output of the block above -->`` before a ``text`` block
compares it with what the block before printed; ``<!-- file: PATH[:SECTION] -->`` before a
``sql`` or ``yaml`` block compares it with that file (or the part of it between the comments
``--8<-- [start:SECTION]`` and ``--8<-- [end:SECTION]``), as the site's ``--8<--`` includes do.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest

from conftest import ROOT, load_script
from ndcg_sql.vocabulary import measures, parameters

#: slow (half a minute or more of a worker): the documentation's examples run and the site built
pytestmark = pytest.mark.slow

DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "dbt_macros" / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]
#: What a block's marker may say.
MARKER = re.compile(r"^<!-- (not run|output of the block above|file)(?::\s*(.*?))?\s*-->$")
FENCE = re.compile(r"^```(\w*)(?:\s+[^`]*)?$")  # a language, then attributes such as title="..."
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$')
#: Top-level entries of the repository a page's examples never see (a page runs in a folder
#: of its own, with links to everything else): outputs, environments, caches.
PRIVATE = {".git", "out", "site", "build", "dist", ".tmp", ".pytest_cache", ".hypothesis", "__pycache__"}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int          # of the opening fence, 1-based
    language: str
    text: str
    marker: str | None = None    # "not run", "output of the block above", "file"
    argument: str = ""           # the reason, or the file

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order, each with the marker on the line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, index = [], 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].rstrip() == "```")
        before = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        marker = MARKER.match(before)
        found.append(Block(path, index + 1, opening.group(1), "\n".join(lines[index + 1:end]),
                           marker.group(1) if marker else None, (marker.group(2) or "") if marker else ""))
        index = end + 1
    return found


ALL = [block for path in DOCUMENTS for block in blocks(path)]
RUNNABLE = ("python", "sh")
#: sh blocks already run in this session, by their text, with what they printed: a block written
#: the same on two pages (README's and the analyst path's) runs once.
RAN: dict[str, str] = {}


def section(path: Path, name: str | None) -> str:
    """A file, or the part of it between its ``--8<-- [start:name]`` and ``--8<-- [end:name]`` lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if name is not None:
        starts = [i for i, line in enumerate(lines) if line.strip().endswith(f"--8<-- [start:{name}]")]
        ends = [i for i, line in enumerate(lines) if line.strip().endswith(f"--8<-- [end:{name}]")]
        assert len(starts) == len(ends) == 1, f"{path}: one section {name!r}"
        lines = lines[starts[0] + 1:ends[0]]
    return "\n".join(line for line in lines if "--8<-- [" not in line)


def included(reference: str) -> tuple[Path, str | None]:
    file, _, name = reference.partition(":")
    return ROOT / file, name or None


# ----------------------------------------------------------------- README
def test_readme_is_a_short_front_page_starting_with_cis_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    first = next(block for block in blocks(ROOT / "README.md") if block.language == "sh")
    commands = first.text.splitlines()
    assert len(commands) == 2, ".ci/run runs the first two lines of README's first sh block"
    assert commands[0].startswith("python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/ndcg-sql evaluate ")
    assert "'.[test]'" in commands[1] and commands[1].endswith("&& .venv/bin/pytest")
    awk = subprocess.run(["awk", r'/^```sh$/ {inside=1; next} inside && /^```/ {exit} inside {print}', "README.md"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    assert awk.stdout.splitlines()[:2] == commands, "the lines .ci/run reads"


def test_outputs_of_examples_are_ignored_by_git():
    for path in ("out/ndcg.png", "site/index.html"):
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0, path


# ----------------------------------------------------------------- markers and snippets
def test_every_marker_is_known_and_not_run_blocks_say_why():
    assert all(block.language for block in ALL), [block.where for block in ALL if not block.language]
    assert sum(block.language in RUNNABLE and block.marker != "not run" for block in ALL) >= 30
    for block in ALL:
        if block.marker == "not run":
            assert len(block.argument) > 10, f"{block.where}: say why the block is not run"
        if block.marker == "output of the block above":
            assert block.language == "text", block.where
        if block.marker == "file":
            assert block.language in ("sql", "yaml"), block.where
    texts = [path.read_text(encoding="utf-8") for path in DOCUMENTS]
    comments = [c for text in texts for c in re.findall(r"^<!-- .*-->$", text, re.MULTILINE)
                if not c.startswith(("<!-- generated: ", "<!-- end generated: "))]
    assert all(MARKER.match(c) for c in comments), [c for c in comments if not MARKER.match(c)]


def test_dbt_snippets_are_the_integration_projects_files():
    """Every sql or yaml block is a file of the repository (included by the site, or compared
    here), or says why not: no hand-made copy can drift from the models the tests build."""
    for block in ALL:
        if block.language not in ("sql", "yaml") or block.marker == "not run":
            continue
        snippet = SNIPPET.match(block.text.strip())
        if snippet:
            path, name = included(snippet.group(1))
            assert path.is_file(), block.where
            assert section(path, name), f"{block.where}: section {name!r} of {path}"
            continue
        assert block.marker == "file", f"{block.where}: a {block.language} block should be a file of the repository"
        path, name = included(block.argument)
        assert block.text == section(path, name), f"{block.where} differs from {block.argument}"


# ----------------------------------------------------------------- the examples run
def pages() -> list[Path]:
    return [path for path in DOCUMENTS if any(b.language in RUNNABLE and b.marker != "not run" for b in blocks(path))]


@pytest.mark.parametrize("path", pages(), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_examples_run_as_written(path, tmp_path, monkeypatch):
    """The page's blocks in order, in a folder of their own holding links to the repository's
    files: Python blocks in one namespace, sh blocks by bash with ndcg-sql on the PATH."""
    for entry in ROOT.iterdir():
        if entry.name not in PRIVATE and not entry.name.startswith(".venv"):
            (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__main__"}
    printed = None
    for block in blocks(path):
        if block.marker == "not run":
            continue
        if block.language == "python":
            with contextlib.redirect_stdout(io.StringIO()) as out:
                exec(compile(block.text, block.where, "exec"), namespace)  # noqa: S102 - the page's own example
            printed = out.getvalue()
        elif block.language == "sh" and block.text in RAN:
            printed = RAN[block.text]
        elif block.language == "sh":
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.text], capture_output=True, text=True,
                                  timeout=600)
            assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{done.stderr}"
            printed = RAN[block.text] = done.stdout
        elif block.marker == "output of the block above":
            assert printed is not None, block.where
            assert [line.rstrip() for line in printed.strip("\n").splitlines()] == block.text.splitlines(), block.where


# ----------------------------------------------------------------- the site
def load_generator():
    return load_script(ROOT / "docs" / "generate.py")


def test_generated_tables_hold_every_measure_option_and_convention():
    generate = load_generator()
    measures_text = generate.measures_table()
    rows = [line for line in measures_text.splitlines() if line.startswith("| <code>")]
    assert len(rows) == len(measures.FAMILIES)
    assert all(f"- **{family.name}**: `{family.formula}`" in measures_text for family in measures.FAMILIES)
    options = generate.options_reference()
    for p in parameters.PARAMETERS:
        assert f"### `{p.name}`" in options, p.name
        if p.cli is not None:
            assert f"`{p.flag}" in options, p.flag
    with pytest.raises(KeyError, match="no generated part"):
        generate.expand("<!-- generated: nothing -->")
    assert generate.expand("a\n<!-- generated: conventions -->\nb") == (
        "a\n<!-- generated: conventions -->\n" + generate.conventions_table() + "\n<!-- end generated: conventions -->\nb")


def test_generated_regions_in_the_pages_are_fresh():
    """The generated tables are written into the Markdown files (they read on the forge and in an
    editor, not only on the site): each region holds what the code generates now."""
    generate = load_generator()
    assert {page.name for page in generate.PAGES if "<!-- generated:" in page.read_text(encoding="utf-8")} == {
        "cli.md", "conventions.md", "dbt-macros.md", "measures.md", "options.md"}
    stale = [page.name for page in generate.stale_pages()]
    assert not stale, f"generated regions out of date in {stale}: run python docs/generate.py"


def test_the_site_builds_strictly_offline(tmp_path):
    """``mkdocs build --strict``: every link and anchor resolves, every included file exists, every
    API page renders; the generated parts are filled in from the code. (Not ``--quiet``: mkdocs
    then counts no warning.)"""
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    pages = {path.relative_to(site).as_posix(): path.read_text(encoding="utf-8") for path in site.rglob("*.html")}
    # every generated part filled in (each region keeps its opening and closing comments)
    assert not [name for name, html in pages.items() if html.count("<!-- generated:") != html.count("<!-- end generated:")]
    assert "--8&lt;--" not in pages["dbt/index.html"]  # every snippet included
    assert "Rules of the project" in pages["contributing/index.html"] and "0.1.0" in pages["changelog/index.html"]
    options = pages["options/index.html"]
    assert all(f'id="{p.name}"' in options for p in parameters.PARAMETERS)
    assert all(family in pages["measures/index.html"] for family in measures.BY_NAME)
    assert "usage: ndcg-sql evaluate" in pages["cli/index.html"]
    assert "ndcg_per_query" in pages["dbt-macros/index.html"]
    assert "ndcg_partitions_to_compute" in pages["dbt/index.html"]  # an included model
    api = pages["api/index.html"]
    assert all(name in api for name in ("ndcg_sql.evaluate", "ndcg_sql.to_sql", "ndcg_sql.compare",
                                        "ndcg_sql.compare_runs", "ndcg_sql.plot.plot", "ndcg_sql.read_trec",
                                        "ndcg_sql.Result", "ndcg_sql.Comparison", "ndcg_sql.InputError",
                                        "ndcg_sql.OptionError"))
    headings = [re.sub(r"<[^>]+>", "", text) for _, text in re.findall(r"<h([23])[^>]*>(.*?)</h\1>", api, re.S)]
    shown = {unescape(h).split("(")[0].strip().rstrip("¶").strip() for h in headings}
    assert {"compare", "ndcg_sql.compare", "ndcg_sql.compare_runs"} <= shown  # the function under the name that works
    assert not [h for h in shown if h.startswith("ndcg_sql.compare.")]  # no heading a reader cannot type
    assert "fonts.googleapis.com" not in pages["index.html"]


def test_no_page_states_a_count_of_tests_that_would_go_stale():
    """How many tests there are changes with every commit: the pages give times, never counts (the
    CHANGELOG records what was measured when)."""
    counted = re.compile(r"\b\d(?:[\d,]*\d)?\s+(?:tests|passed)\b")
    found = [f"{path.name}: {match.group(0)}" for path in DOCUMENTS if path.name not in ("changelog.md",)
             for match in counted.finditer(path.read_text(encoding="utf-8"))]
    assert not found


def test_every_dotted_name_on_the_api_page_resolves_as_a_reader_types_it():
    """Every ``ndcg_sql.x.y`` written in docs/api.md (a ::: identifier or a name in the text) is
    reached in Python as a reader types it: ``import ndcg_sql`` (and ``import ndcg_sql.x`` where
    ndcg_sql.x is a module), then attribute after attribute. ``ndcg_sql.compare`` is the function
    (the package imports it over its module's name), so ``ndcg_sql.compare.compare`` would fail."""
    import importlib

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    names = sorted(set(re.findall(r"\bndcg_sql(?:\.[A-Za-z_]\w*)+", text)))
    assert "ndcg_sql.compare" in names and "ndcg_sql.compare_runs" in names and "ndcg_sql.plot.plot" in names
    unresolved = []
    for name in names:
        parts = name.split(".")
        for end in range(2, len(parts) + 1):
            try:
                importlib.import_module(".".join(parts[:end]))
            except ImportError:
                break
        value = importlib.import_module("ndcg_sql")
        try:
            for part in parts[1:]:
                value = getattr(value, part)
        except AttributeError:
            unresolved.append(name)
    assert not unresolved, f"docs/api.md names what Python does not reach: {unresolved}"
