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

import jinja2
import pytest

import dbt_standin as dbt_standin_module
from conftest import ROOT
from dbt_standin import CompilerError
from ndcg_sql import dbt_gen, dialects, templates
from ndcg_sql.evaluate import Columns, template_context
from ndcg_sql.identifiers import quote
from ndcg_sql.options import Options

GENERATED = ROOT / "dbt_macros" / "macros" / "generated"


def dbt_standin(files: dict[str, str]):
    """The generated macros loaded as dbt would: one flat namespace `ndcg_sql`."""
    return dbt_standin_module.load(files)


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


def option_sets():
    """(options of evaluate / ndcg_per_query, Options) for every combination of conventions."""
    for judged, ties, gain, no_relevant, kind in itertools.product(
        (False, True),
        ("average", "item-asc", "item-desc"),
        ("exponential", "linear", {0: 0, 1: 1.5, 2: 3}),
        ("zero", "skip", "one"),
        ("score", "rank"),
    ):
        for missing in ("ignore", "zero") if judged else ("ignore",):
            given = dict(k=[10, 1, None, 3], gain=gain, ties=ties, no_relevant=no_relevant, missing_queries=missing)
            yield judged, kind, given, Options.build(judgments=judged, input_kind=kind, **given)


def runner_context(judged: bool, options: Options) -> dict:
    columns = Columns("Query Id", "item", "order", None if judged else 'lab"el')
    if judged:
        columns.j_query, columns.j_item, columns.j_label = "qid", "docno", "rel"
    return template_context(options, columns, quote("run"), quote("qrels") if judged else None)


def dbt_arguments(judged: bool, kind: str, given: dict) -> dict:
    """The same computation as runner_context, as arguments of the dbt macro ndcg_per_query."""
    arguments = dict(given, relation=quote("run"), query_col="Query Id", item_col="item")
    arguments["rank_col" if kind == "rank" else "score_col"] = "order"
    if judged:
        arguments.update(judgments=quote("qrels"), judgments_query_col="qid", judgments_item_col="docno",
                         judgments_label_col="rel")
    else:
        arguments["label_col"] = 'lab"el'
    return arguments


def contexts():
    for judged, _, _, options in option_sets():
        yield runner_context(judged, options)


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
        "SELECT {{ lib.col(name) }}, {{ dbl(3) }}, {{ lib.noargs() }}, {{ lib.wrap('w') }}\n"
        "{% include 'part.sql.j2' %} local={{ local }} {{ flag | default('unflagged') }}\n"
        "{%- for x in items %}\n{% include 'loop_part.sql.j2' %}{% endfor %}\n"
    ),
    "lib.sql.j2": (
        "{#- a module of macros -#}\n"
        "{%- import 'twice.sql.j2' as t -%}\n"
        "{%- set sep = ' || ' -%}\n"
        "module text that an import does not output\n"
        "{%- set block %}<{{ prefix }}>{% endset -%}\n"
        "{%- macro col(c) -%}{{ prefix }}{{ sep }}{{ c }}{{ sep }}{{ t.twice(c | length) }}{%- endmacro -%}\n"
        "{%- macro noargs() %}[{{ prefix }}{{ block }}]{% endmacro -%}\n"
        "{%- macro wrap(c) -%}({{ col(c) }}{{ noargs( ) }}){%- endmacro -%}\n"
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
    assert sorted(files) == [
        "tmpl_entry.sql", "tmpl_lib__col.sql", "tmpl_lib__noargs.sql", "tmpl_lib__wrap.sql", "tmpl_twice__twice.sql"
    ]
    got = dbt_standin(files).tmpl_entry(**context)
    assert tidy(str(got)) == tidy(expected)
    assert "unflagged" in expected  # a variable with a default may be left out
    flagged = dict(context, flag="flagged")
    assert tidy(str(dbt_standin(files).tmpl_entry(**flagged))) == tidy(
        jinja.get_template("entry.sql.j2").render(**flagged)
    )
    with pytest.raises(CompilerError, match="no 'table'"):
        dbt_standin(files).tmpl_entry(**{key: value for key, value in context.items() if key != "table"})
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


PACKAGE_MACROS = dbt_standin_module.package_files(ROOT / "dbt_macros")


def comparable(context: dict) -> dict:
    """Numbers of the gain mapping as the SQL text they become."""
    return dict(context, gain_mapping=[tuple(str(number) for number in pair) for pair in context["gain_mapping"]])


def test_dbt_macros_build_the_runners_template_context():
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    for judged, kind, given, options in option_sets():
        arguments = dbt_arguments(judged, kind, given)
        relation = arguments.pop("relation")
        built = macros.ranking_context(
            relation, arguments.pop("query_col"), arguments.pop("item_col"), arguments.pop("score_col", None),
            arguments.pop("rank_col", None), arguments.pop("label_col", "label"), arguments.pop("k"),
            arguments.pop("gain"), arguments.pop("ties"), arguments.pop("no_relevant"),
            arguments.pop("judgments", None), arguments.pop("missing_queries"),
            arguments.pop("judgments_query_col", None), arguments.pop("judgments_item_col", None),
            arguments.pop("judgments_label_col", None),
        )
        expected = comparable(runner_context(judged, options))
        assert comparable({key: built[key] for key in expected if key in built}) == expected
    # and it has every variable the generated macro needs (it may carry more)
    assert set(dbt_gen.Generator().context_variables("per_query.sql.j2")) <= set(built)


def test_dbt_per_query_macro_renders_the_runners_sql():
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    for judged, kind, given, options in option_sets():
        sql = macros.ndcg_per_query(**dbt_arguments(judged, kind, given))
        assert tidy(sql) == templates.render("per_query.sql.j2", **runner_context(judged, options))


def test_dbt_summary_macro_renders_the_runners_sql():
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    options = Options.build(k=[5, None, 1])
    context = runner_context(False, options)
    expected = templates.render("summary.sql.j2", **dict(context, per_query_relation='"pq"'))
    assert tidy(macros.ndcg_summary('"pq"', query_col="Query Id", k=[5, None, 1])) == expected


@pytest.mark.parametrize(
    "arguments, message",
    [
        (dict(k=[0]), "k must be a positive integer"),
        (dict(k=[True]), "k must be a positive integer"),
        (dict(k=["ten"]), "k must be a positive integer"),
        (dict(k=[]), "at least one cutoff"),
        (dict(gain="cubic"), "gain must be one of"),
        (dict(gain={}), "at least one label"),
        (dict(gain={1: "x"}), "finite number labels"),
        (dict(gain={1: -1}), "non-negative gains"),
        (dict(ties="random"), "ties must be one of"),
        (dict(no_relevant="nan"), "no_relevant must be one of"),
        (dict(missing_queries="drop"), "missing_queries must be one of"),
        (dict(score_col="s", rank_col="r"), "not both"),
        (dict(query_col="NDCG"), "may not be named"),
        (dict(item_col=""), "non-empty string"),
        (dict(segment_cols=["arm"], judgments='"q"', missing_queries="zero"), "segment_cols"),
    ],
)
def test_dbt_macros_refuse_bad_options(arguments, message):
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    with pytest.raises(CompilerError, match=message):
        macros.ndcg_per_query('"run"', **arguments)


@pytest.mark.parametrize(
    "adapter, quoted",
    [("duckdb", '"a""b`c"'), ("postgres", '"a""b`c"'), ("snowflake", '"a""b`c"'),
     ("bigquery", "`a\"b\\`c`"), ("spark", '`a"b``c`'), ("databricks", '`a"b``c`')],
)
def test_names_are_quoted_as_sqlglot_quotes_them(adapter, quoted):
    macros = dbt_standin_module.load(PACKAGE_MACROS, adapter=adapter)
    name = 'a"b`c'
    assert macros.quote_identifier(name) == quoted == quote(name, "spark" if adapter == "databricks" else adapter)


def test_dbt_segments_without_judgments_run_in_duckdb():
    """ndcg_per_query with segment_cols, rendered by the stand-in and run by DuckDB: every
    (arm, query) is evaluated on its own rows, as the numpy reference does per arm."""
    import duckdb
    import pandas as pd

    import reference

    data = pd.read_csv(ROOT / "examples" / "lightgbm_lambdarank" / "rank.test.scored.csv")
    arms = pd.concat([data.assign(arm="a"), data.assign(arm="b", score=-data["score"], label=data["label"] % 3)])
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    sql = macros.ndcg_per_query("arms", item_col="doc_id", k=[1, 5, None], segment_cols=["arm"], ties="item-asc")
    con = duckdb.connect()
    con.register("arms", arms)
    rows = con.sql(sql).fetchall()
    assert len(rows) == 2 * data["query_id"].nunique() * 3
    got = {(arm, q, k): (cg, dcg, idcg, ndcg) for arm, q, k, cg, dcg, idcg, ndcg in rows}
    for arm, part in arms.groupby("arm"):
        expected, _ = reference.evaluate(
            zip(part["query_id"], part["doc_id"], part["score"], part["label"]), [1, 5, None], ties="item-asc"
        )
        for (q, k), values in expected.items():
            assert all(reference.close(a, b) for a, b in zip(got[(arm, q, k)], values)), (arm, q, k)


def test_dbt_measures_per_segment_with_segmented_judgments_run_in_duckdb():
    """ndcg_measures / ndcg_measures_summary with segment_cols and judgments per (segment, query)
    (segmented_judgments, missing_queries='zero'), rendered by the stand-in and run by DuckDB:
    the numpy reference per arm, and the Python runner's evaluate(measures=..., segments=...)."""
    import duckdb
    import pandas as pd

    import ndcg_sql
    import reference

    data = pd.read_csv(ROOT / "examples" / "lightgbm_lambdarank" / "rank.test.scored.csv")
    data["doc_id"] = data["doc_id"].astype(str)
    arms = pd.concat([data.assign(arm="a"), data.assign(arm="b", score=-data["score"])])
    # judgments per arm: arm b's labels differ, and arm b lacks query 1 in the run (judged: counts 0)
    judgments = pd.concat([data.assign(arm="a"), data.assign(arm="b", label=data["label"] % 3)])[
        ["arm", "query_id", "doc_id", "label"]]
    run = arms.drop(columns=["label"])
    run = run[~((run["arm"] == "b") & (run["query_id"] == 1))]
    names = ["nDCG@5", "P@5", "AP", "RR", "R@10"]
    options = dict(item_col="doc_id", ties="item-desc", missing_queries="zero")
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    sql = macros.ndcg_measures("run", names, judgments="qrels", segment_cols=["arm"], segmented_judgments=True,
                               **options)
    con = duckdb.connect()
    con.register("run", run)
    con.register("qrels", judgments)
    got = {(arm, q, m): v for arm, q, m, v in con.sql(sql).fetchall()}
    asked = [("P@5", "P", 5, 1.0), ("AP", "AP", None, 1.0), ("RR", "RR", None, 1.0), ("R@10", "R", 10, 1.0)]
    expected = {}
    for arm in ("a", "b"):
        part = run[run["arm"] == arm]
        rows = list(zip(part["query_id"], part["doc_id"], part["score"], [0] * len(part)))
        judged = judgments[judgments["arm"] == arm]
        qrels = list(zip(judged["query_id"], judged["doc_id"], judged["label"]))
        values = reference.measures(rows, asked, ties="item-desc", judgments=qrels, missing_queries="zero")
        ndcg, _ = reference.evaluate(rows, [5], ties="item-desc", judgments=qrels, missing_queries="zero")
        values.update({(q, "nDCG@5"): v[3] for (q, k), v in ndcg.items()})
        expected.update({(arm, q, m): v for (q, m), v in values.items()})
    assert set(got) == set(expected)
    assert all(reference.close(got[key], value) for key, value in expected.items())
    assert got[("b", 1, "AP")] == 0.0  # judged in arm b, absent from its run
    summary = con.sql(macros.ndcg_measures_summary(f"({sql}) AS m", names, segment_cols=["arm"])).fetchall()
    result = ndcg_sql.evaluate(run, judgments=judgments, measures=names, segments="arm", **options)
    want = [tuple(r.values()) for r in result.summary_records()]
    assert [row[:2] for row in summary] == [row[:2] for row in want]
    for row, record in zip(summary, want):
        assert row[3] == record[3]
        assert all(reference.close(a, b, 1e-13) for a, b in zip(row[2:], record[2:]))


@pytest.mark.parametrize(
    "arguments, message",
    [(dict(segment_cols=["arm"], judgments='"q"', missing_queries="zero"), "segmented_judgments=true"),
     (dict(segment_cols=["value"]), "may not be named"),
     (dict(segment_cols=["arm"], segmented_judgments="yes"), "true or false")],
)
def test_dbt_measures_refuse_bad_segments(arguments, message):
    with pytest.raises(CompilerError, match=message):
        dbt_standin_module.load(PACKAGE_MACROS).ndcg_measures('"run"', ["nDCG@5"], **arguments)


def without_comments_and_order(sql: str, dialect: str) -> str:
    import sqlglot

    tree = sqlglot.parse_one(sql, read=dialect)
    tree.set("order", None)  # to_sql orders the per-query rows; the macro leaves that to the model
    for node in tree.find_all(sqlglot.exp.Expression):
        node.comments = None
    return tree.sql(dialect=dialect, pretty=True)


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_dbt_macros_render_the_sql_to_sql_transpiles_for_each_engine(dialect):
    """For every adapter type, the macros (engine pieces generated from ndcg_sql/dialects.py,
    chosen by adapter.dispatch) render the same statement as sqlglot's translation of the
    runner's SQL (`to_sql(dialect=...)`): equal syntax trees, option set by option set.
    (tests/test_dbt_warehouses.py executes both on each engine.)"""
    import ndcg_sql
    from ndcg_sql import identifiers

    target = dialects.get(dialect)
    macros = dbt_standin_module.load(PACKAGE_MACROS, adapter=dialect)
    run = identifiers.table(["runs"], target.fold).sql(dialect=target.sqlglot)
    qrels = identifiers.table(["qrels"], target.fold).sql(dialect=target.sqlglot)
    checked = 0
    for index, (judged, kind, given, _) in enumerate(option_sets()):
        if index % 16 != 3:  # every 16th combination (parsing large statements takes time); each value appears
            continue
        given = dict(given, k=[1, 3, 40, None] if index % 2 else [10, 2])
        order = {"rank_col": "position"} if kind == "rank" else {}
        dbt_sql = macros.ndcg_per_query(run, judgments=qrels if judged else None, **order, **given)
        emitted = ndcg_sql.to_sql("runs", judgments_table="qrels" if judged else None, dialect=dialect, **order, **given)
        assert without_comments_and_order(dbt_sql, target.sqlglot) == without_comments_and_order(emitted, target.sqlglot), given
        checked += 1
    assert checked == 10


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_engine_pieces_are_sqlglots_translation(dialect):
    """The generated per-engine macros hold sqlglot's spelling of each cast type and of the
    byte-order expression of ndcg_sql/dialects.py, and the engine's name case rule."""
    import sqlglot

    target = dialects.get(dialect)
    macros = dbt_standin_module.load(PACKAGE_MACROS, adapter=dialect)
    cast = sqlglot.parse_one("CAST(x AS DOUBLE)", read="duckdb").sql(dialect=target.sqlglot)
    assert f"CAST(x AS {macros.sql_type('DOUBLE')})" == cast
    byte_order = target.byte_order.format(item="item")
    assert macros.item_byte_order() == sqlglot.parse_one(byte_order, read="duckdb").sql(dialect=target.sqlglot)
    assert macros.name_fold() == target.fold
    if target.float32:
        assert macros.sql_type("FLOAT") in ("FLOAT", "REAL")
    else:
        with pytest.raises(CompilerError, match="float32"):
            macros.sql_type("FLOAT")
    literal = macros.string_literal("it's a \\ name")
    assert sqlglot.parse_one(literal, read=target.sqlglot).this == "it's a \\ name"


@pytest.mark.parametrize(
    "names",
    [["nDCG@10", "P@5", "R@100", "AP", "RR", "P(rel=2)@5"], ["map", "MRR", "Hit@3", "ndcg", "P(rel=2.5)@2", "P@5", "cg@4"],
     "nDCG@10, P(rel=2)@5 AP", ["DCG@3", "AP@10", "RR@5", "Success@1", "P(rel=0.5)@1"]],
)
def test_dbt_measure_names_parse_as_the_runners(names):
    from ndcg_sql.measures import parse_measures

    macros = dbt_standin_module.load(PACKAGE_MACROS)
    parsed = macros.parse_measures(names)
    assert [(m["family"], m["k"], m["rel"], m["name"]) for m in parsed] == [
        (m.family, m.k, m.rel, m.name) for m in parse_measures(names)
    ]
    from ndcg_sql.suite import measure_context

    assert macros.measure_context(parsed, "item-desc") == measure_context(parse_measures(names), "item-desc")


@pytest.mark.parametrize(
    "names, message",
    [(["nDCG@x"], "positive integer"), (["P"], "needs a cutoff"), (["nDCG(rel=2)@5"], "gain option"),
     (["Q@5"], "unknown measure"), (["P(lvl=2)@5"], "only parameter"), ([], "at least one")],
)
def test_dbt_measure_names_are_refused_as_by_the_runner(names, message):
    from ndcg_sql.measures import parse_measures
    from ndcg_sql.options import OptionError

    with pytest.raises(OptionError, match=message):
        parse_measures(names)
    with pytest.raises(CompilerError, match=message):
        dbt_standin_module.load(PACKAGE_MACROS).parse_measures(names)


@pytest.mark.parametrize(
    "arguments, message",
    [(dict(convention="lightgbm", gain="linear"), "sets gain"), (dict(convention="nope"), "convention must be one of"),
     (dict(convention="sklearn", judgments='"q"'), "give labels, not judgments"), (dict(ties="input-order"), "needs row_col:"),
     (dict(row_col="row"), "row_col is only used with ties='input-order' \\(ties is 'average'\\)"),
     (dict(missing_queries="zero"), "missing_queries='zero' needs judgments"),
     (dict(measures=["AP"], ties="average"), "need ties")],
)
def test_dbt_conventions_refuse_contradictions(arguments, message):
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    arguments = dict(arguments)
    measures = arguments.pop("measures", ["nDCG@5"])
    with pytest.raises(CompilerError, match=message):
        macros.ndcg_measures('"run"', measures, **arguments)


def test_input_checks_are_the_runners():
    """ndcg_sql.input_checks holds validation.checks_for's checks (all on DuckDB, the portable ones
    transpiled elsewhere)."""
    from ndcg_sql import validation

    for dialect in dialects.DIALECTS:
        table = dbt_standin_module.load(PACKAGE_MACROS, adapter=dialect).input_checks()
        options = Options.build(judgments=True, input_kind="rank", gain="linear")
        roles = {"query": "@query@", "item": "@item@", "order": "@order@", "label": "@label@",
                 "j_query": "@query@", "j_item": "@item@", "j_label": "@label@"}
        checks = validation.checks_for(options, roles, portable=dialect != "duckdb")
        assert [c["problem"] for c in table["judgments|rank|linear"]] == [c.problem for c in checks]
        assert len(table) == 8


@pytest.mark.parametrize("convention", ["lightgbm", "xgboost", "xgboost-minus", "sklearn"])
def test_dbt_convention_with_row_order_runs_in_duckdb(convention):
    """convention= with the input row order (LightGBM, XGBoost: row_col) in the dbt macros, rendered
    by the stand-in and run by DuckDB: the Python runner's numbers (which tests/test_conventions.py
    proves equal to LightGBM's and XGBoost's own metrics)."""
    import duckdb
    import numpy as np
    import pandas as pd

    import ndcg_sql

    data = pd.read_csv(ROOT / "examples" / "lightgbm_lambdarank" / "rank.test.scored.csv")
    data["row"] = np.arange(len(data))
    data["score"] = data["score"].round(1)  # ties, so that the row order matters
    row = {} if convention == "sklearn" else {"row_col": "row"}
    macros = dbt_standin_module.load(PACKAGE_MACROS)
    sql = macros.ndcg_per_query("lr", item_col="doc_id", k=[1, 5, None], convention=convention, **row)
    con = duckdb.connect()
    con.register("lr", data)
    got = {(q, k): ndcg for q, k, _, _, _, ndcg in con.sql(sql).fetchall()}
    result = ndcg_sql.evaluate(data, item_col="doc_id", k=[1, 5, None], convention=convention, **row)
    want = {(r["query_id"], r["k"]): r["ndcg"] for r in result.per_query_records()}
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_readme_dbt_snippets_are_models_and_tests_of_the_integration_project():
    """Every `-- models/NAME.sql` snippet of README's dbt section is that model of
    dbt_macros/integration_tests (which tests/test_dbt.py builds with dbt), and every test
    in its YAML snippets is declared there, with the same arguments."""
    import re

    import yaml

    project = ROOT / "dbt_macros" / "integration_tests"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## dbt\n"):]
    section = section[:section.index("\n## ", 5)]
    squash = lambda text: re.sub(r"\s+", "", text)  # noqa: E731
    models = re.findall(r"^-- models/(\w+)\.sql[^\n]*\n(\{\{.*?\}\})\n", section, flags=re.S | re.M)
    assert len(models) >= 6
    for name, call in models:
        body = "\n".join(line for line in (project / "models" / f"{name}.sql").read_text().splitlines()
                         if not line.startswith("--"))
        assert squash(call) == squash(body), name
    declared = {}
    for kind in ("models", "seeds"):
        for entry in yaml.safe_load((project / "models" / "schema.yml").read_text())[kind]:
            declared.setdefault(entry["name"], []).extend(entry.get("data_tests", []))
    blocks = re.findall(r"```yaml\n(.*?)```", section, flags=re.S)
    shown = 0
    for block in blocks:
        data = yaml.safe_load(block)
        for kind in ("models", "seeds"):
            for entry in (data.get(kind) or []) if isinstance(data, dict) else []:
                for test in entry["data_tests"]:
                    name, arguments = next(iter(test.items()))
                    matching = [t for t in declared.get(entry["name"], []) if isinstance(t, dict) and name in t]
                    want = arguments["arguments"]
                    assert any(_var_defaults(t[name]["arguments"]) == want for t in matching), (entry["name"], name, want)
                    shown += 1
    assert shown >= 4


def _var_defaults(arguments: dict) -> dict:
    """Test arguments with "{{ var('name', default) }}" replaced by the default."""
    import re

    def value(text):
        found = re.fullmatch(r"\{\{ var\('\w+', ([\d.]+)\) \}\}", text) if isinstance(text, str) else None
        return float(found.group(1)) if found else text

    return {key: value(text) for key, text in arguments.items()}

