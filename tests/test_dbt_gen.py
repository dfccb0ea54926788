"""The dbt macros are generated from sql/ and say the same SQL as the Python runner.

- The committed files in dbt_macros/macros/generated/ are byte-identical to a
  fresh generation (so nobody edits the metric SQL in two places).
- Rendered by plain Jinja with a stand-in for dbt's macro namespace, the
  generated macros give the very SQL text the runner renders, for every option.
- The generator is driven by the templates, not their content: toy templates
  with includes, imports, from-imports, module-level sets and loops come out the
  same as Jinja renders them.
(tests/test_dbt.py runs the macros in dbt itself.)
"""

import itertools
import types
from pathlib import Path

import jinja2
import pytest

from conftest import ROOT
from ndcg_sql import dbt_gen, templates
from ndcg_sql.evaluate import Columns, template_context
from ndcg_sql.identifiers import quote
from ndcg_sql.options import Options

GENERATED = ROOT / "dbt_macros" / "macros" / "generated"


class CompilerError(Exception):
    pass


def dbt_standin(files: dict[str, str]) -> types.SimpleNamespace:
    """The generated macros loaded as dbt would: one flat namespace `ndcg_sql`."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    namespace = types.SimpleNamespace()

    def raise_compiler_error(message):
        raise CompilerError(message)

    env.globals.update(ndcg_sql=namespace, exceptions=types.SimpleNamespace(raise_compiler_error=raise_compiler_error))
    for name, text in files.items():
        macro = name[: -len(".sql")]
        setattr(namespace, macro, getattr(env.from_string(text).module, macro))
    return namespace


def tidy(text: str) -> str:
    """The runner's own clean-up of rendered SQL (templates.render): no blank lines or trailing blanks."""
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line.strip()) + "\n"


def test_committed_macros_are_in_sync_with_sql_templates():
    assert dbt_gen.differences(GENERATED) == [], "run: python -m ndcg_sql.dbt_gen"
    assert dbt_gen.main(["--check", str(GENERATED)]) == 0


def test_check_reports_a_stale_file(tmp_path):
    dbt_gen.write(tmp_path)
    assert dbt_gen.differences(tmp_path) == []
    first = sorted(tmp_path.glob("tmpl_*.sql"))[0]
    first.write_text(first.read_text() + " ")
    (tmp_path / "tmpl_gone.sql").write_text("")
    assert dbt_gen.differences(tmp_path) == sorted([first.name, "tmpl_gone.sql"])
    assert dbt_gen.main(["--check", str(tmp_path)]) == 1
    dbt_gen.write(tmp_path)
    assert dbt_gen.differences(tmp_path) == []


def contexts():
    for judged, ties, gain, no_relevant, kind in itertools.product(
        (False, True),
        ("average", "item-asc", "item-desc"),
        ("exponential", "linear", {0: 0, 1: 1.5, 2: 3}),
        ("zero", "skip", "one"),
        ("score", "rank"),
    ):
        for missing in ("ignore", "zero") if judged else ("ignore",):
            options = Options.build(
                k=[1, 3, 10, None], gain=gain, ties=ties, no_relevant=no_relevant,
                missing_queries=missing, judgments=judged, input_kind=kind,
            )
            columns = Columns("Query Id", "item", "order", None if judged else "lab\"el")
            if judged:
                columns.j_query, columns.j_item, columns.j_label = "qid", "docno", "rel"
            yield template_context(options, columns, quote("run"), quote("qrels") if judged else None)


def test_generated_per_query_macro_renders_the_runners_sql():
    macros = dbt_standin(dbt_gen.generate())
    count = 0
    for context in contexts():
        assert tidy(macros.tmpl_per_query(**context)) == templates.render("per_query.sql.j2", **context)
        count += 1
    assert count == 54 + 108  # every combination above: without judgments, and with (x2 missing_queries)


@pytest.mark.parametrize("segments", [[], ['"arm"'], ['"arm"', '"day"']])
def test_generated_summary_macro_renders_the_runners_sql(segments):
    macros = dbt_standin(dbt_gen.generate())
    context = dict(
        per_query_relation='"per_query"', output_query_col='"query_id"', segment_cols=segments,
        cutoffs=[{"id": 1, "k": 3}, {"id": 2, "k": 10}, {"id": 3, "k": None}],
    )
    assert tidy(macros.tmpl_summary(**context)) == templates.render("summary.sql.j2", **context)


def test_generated_macro_arguments_are_the_runners_context():
    generator = dbt_gen.Generator()
    context = next(contexts())
    assert set(generator.context_variables("per_query.sql.j2")) <= set(context)


def test_missing_context_variable_is_a_compiler_error():
    macros = dbt_standin(dbt_gen.generate())
    context = next(contexts())
    del context["ties"]
    with pytest.raises(CompilerError, match="ties"):
        macros.tmpl_per_query(**context)


TOY = {
    "entry.sql.j2": (
        "{#- a toy entry template -#}\n"
        "{%- import 'lib.sql.j2' as lib with context -%}\n"
        "{%- from 'twice.sql.j2' import twice as dbl with context -%}\n"
        "{%- set local = 'L' -%}\n"
        "SELECT {{ lib.col(name) }}, {{ dbl(3) }}, {{ lib.noargs() }}\n"
        "{% include 'part.sql.j2' %} local={{ local }}\n"
        "{%- for x in items %}\n{% include 'loop_part.sql.j2' %}{% endfor %}\n"
    ),
    "lib.sql.j2": (
        "{#- a module of macros -#}\n"
        "{%- import 'twice.sql.j2' as t -%}\n"
        "{%- set sep = ' || ' -%}\n"
        "{%- macro col(c) -%}{{ prefix }}{{ sep }}{{ c }}{{ sep }}{{ t.twice(c | length) }}{%- endmacro -%}\n"
        "{%- macro noargs() %}[{{ prefix }}]{% endmacro -%}\n"
    ),
    "twice.sql.j2": "{%- macro twice(n) -%}{{ n * 2 }}{%- endmacro -%}\n",
    "part.sql.j2": "{%- set local = 'P' -%}\nFROM {{ table }} {% include 'inner.sql.j2' %} {{ local }}",
    "inner.sql.j2": "AS t{{ dbl(5) }}",
    "loop_part.sql.j2": "UNION SELECT {{ x }} {{- lib.col(x) }}",
}


def test_generator_is_driven_by_the_templates(tmp_path):
    for name, text in TOY.items():
        (tmp_path / name).write_text(text)
    context = dict(name="n", prefix="p", table="tbl", items=["a", "bb"])
    jinja = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), undefined=jinja2.StrictUndefined,
                               keep_trailing_newline=True)
    expected = jinja.get_template("entry.sql.j2").render(**context)
    files = dbt_gen.generate(tmp_path, {"entry.sql.j2": "tmpl_entry"})
    assert sorted(files) == ["tmpl_entry.sql", "tmpl_lib__col.sql", "tmpl_lib__noargs.sql", "tmpl_twice__twice.sql"]
    got = dbt_standin(files).tmpl_entry(**context)
    assert tidy(str(got)) == tidy(expected)
    assert "local=L" in expected and "tbl AS t10 P" in expected  # include scoping kept


@pytest.mark.parametrize(
    "templates_, message",
    [
        ({"e.sql.j2": "{% extends 'b.sql.j2' %}", "b.sql.j2": ""}, "inheritance"),
        ({"e.sql.j2": "{% include 'p.sql.j2' %}", "p.sql.j2": "{% macro m() %}{% endmacro %}"}, "define macros"),
        ({"e.sql.j2": "{% include 'e.sql.j2' %}"}, "include each other"),
        ({"e.sql.j2": "{% include 'nowhere.sql.j2' %}"}, "not found"),
        ({"e.sql.j2": "{% import 'm.sql.j2' as m %}{{ m.nope() }}", "m.sql.j2": "{% macro yes() %}{% endmacro %}"}, "no macro"),
    ],
)
def test_generator_refuses_what_dbt_cannot_carry(tmp_path, templates_, message):
    for name, text in templates_.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(dbt_gen.GenerationError, match=message):
        dbt_gen.generate(tmp_path, {"e.sql.j2": "tmpl_e"})


def test_integration_seeds_are_the_bundled_examples(tmp_path):
    import importlib.util

    path = ROOT / "dbt_macros" / "integration_tests" / "make_seeds.py"
    spec = importlib.util.spec_from_file_location("make_seeds", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_seeds(tmp_path)
    committed = ROOT / "dbt_macros" / "integration_tests" / "seeds"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in committed.glob("*.csv"))
    for name in names:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name
