"""The dbt package is generated from sql/ and the Python tables, and renders the runner's SQL.

- The committed generated files (dbt_macros/macros/_internal/, engine/, macros.yml) are
  byte-identical to a fresh generation (``python -m tools.dbt_gen``), so nobody edits the
  metric SQL, the option rules or the macros' documentation in two places.
- The SQL macros, copied with casts made per engine, give the very SQL text the runner renders,
  for every option; each CTE is written in one file (no chain repeated), and only the files the
  dbt macros reach are copied.
- The package follows dbt-utils' layout: one public macro a file, internals underscored in
  _internal/, every public macro and argument documented in macros.yml.
(tests/test_one_source.py: the macros and the runner resolve options alike on every adapter;
tests/test_dbt.py runs the macros in dbt itself.)
"""

import itertools
import re

import pytest

import dbt_standin as dbt_standin_module
from conftest import ROOT, load_script
from dbt_standin import CompilerError
from ndcg_sql.building import templates
from ndcg_sql.vocabulary import dialects
from ndcg_sql.building.context import render, resolve
from ndcg_sql.vocabulary.identifiers import quote
from ndcg_sql.vocabulary.parameters import Options
from ndcg_sql.vocabulary.parameters import Request
from tools import dbt_docs, dbt_gen

#: slow (half a minute or more of a worker): the dbt package generated and compared
pytestmark = pytest.mark.slow

MACROS = ROOT / "dbt_macros" / "macros"


def dbt_standin(files: dict[str, str]):
    """Generated macros loaded as dbt would: one flat namespace `ndcg_sql`."""
    return dbt_standin_module.load(files)


def tidy(text: str) -> str:
    """The runner's own clean-up of rendered SQL (templates.render): no blank lines or trailing blanks."""
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line.strip()) + "\n"


def test_committed_macros_are_in_sync_with_sql_and_the_tables():
    assert dbt_gen.differences(MACROS) == [], "run: python -m tools.dbt_gen"
    assert dbt_gen.main(["--check", str(MACROS)]) == 0


def test_check_reports_a_stale_file(tmp_path):
    import shutil

    shutil.copytree(MACROS, tmp_path / "macros")
    out = tmp_path / "macros"
    assert dbt_gen.differences(out) == []
    first = sorted((out / "_internal" / "sql").glob("*.sql"))[0]
    first.write_text(first.read_text() + " ")
    (out / "_internal" / "_tmpl_gone.sql").write_text("")
    assert dbt_gen.differences(out) == sorted([str(first.relative_to(out)), "_internal/_tmpl_gone.sql"])
    assert dbt_gen.main(["--check", str(out)]) == 1
    dbt_gen.write(out)
    assert dbt_gen.differences(out) == []


def option_sets():
    """The metric options of every combination of conventions (and both kinds of ordering)."""
    for judged, ties, gain, no_relevant, kind in itertools.product(
        (False, True),
        ("average", "item-asc", "item-desc", "input-order"),
        ("exponential", "linear", {0: 0, 1: 1.5, 2: 3}),
        ("zero", "skip", "one"),
        ("score", "rank"),
    ):
        for missing in ("ignore", "zero") if judged else ("ignore",):
            given = dict(k=[10, 1, None, 3], gain=gain, ties=ties, no_relevant=no_relevant, missing_queries=missing,
                         query_col="Query Id", item_col="item", label_col='lab"el',
                         row_col="rn" if ties == "input-order" else None)
            given["rank_col" if kind == "rank" else "score_col"] = "order"
            yield judged, given


def contexts():
    for judged, given in option_sets():
        yield render(resolve(Request(**given).metric(), judged), quote("run"), quote("qrels") if judged else None).context


def test_generated_per_query_macro_renders_the_runners_sql():
    macros = dbt_standin(dbt_gen.generate())
    count = 0
    for context in contexts():
        assert tidy(macros._per_query(context)) == templates.render("per_query.sql.j2", **context)
        count += 1
    assert count == 72 + 144  # every combination above: without judgments, and with (x2 missing_queries)


@pytest.mark.parametrize("segments, intervals, measures", [
    ([], False, None), (["arm"], True, None), (["arm", "day"], True, ["CG@3", "nDCG@5", "P@2"]), ([], False, ["DCG@2"]),
])
def test_generated_summary_macro_renders_the_runners_sql(segments, intervals, measures):
    macros = dbt_standin(dbt_gen.generate())
    request = Request(k=[3, 10, None] if measures is None else Request().k, segments=segments or None,
                      intervals=intervals, measures=measures, ties="item-asc")
    context = dict(render(resolve(request.metric(), False), quote("run")).context, per_query_relation='"per_query"')
    assert tidy(macros._summary(context)) == templates.render("summary.sql.j2", **context)


def test_each_cte_is_written_in_one_file():
    """The SQL macros call each other (measure_rows calls per_query's and measures_per_query's
    macros, which call normalised_rows' ...): a CTE's text is in one generated file only."""
    import re

    files = {name: text for name, text in dbt_gen.generate().items() if name.startswith("_internal/sql/")}
    written = {}
    for name, text in files.items():
        for cte in set(re.findall(r"^(\w+) AS \( --", text, re.MULTILINE)):
            written.setdefault(cte, []).append(name)
    assert written and {cte: names for cte, names in written.items() if len(names) > 1} == {}
    assert max(len(text.splitlines()) for text in files.values()) < 300
    assert "_internal/sql/per_query.sql" in files and "_internal/sql/paired_tests.sql" not in files  # only what dbt reaches


def test_a_macro_defined_twice_is_refused():
    """dbt puts a package's macros in one namespace: two files defining one name are refused."""
    with pytest.raises(dbt_gen.GenerationError, match="_twice"):
        dbt_gen.defined_macros({"a.sql": "{% macro _twice() %}{% endmacro %}",
                                "b.sql": "{%- macro _twice(x) -%}{%- endmacro -%}"})


def test_integration_seeds_are_the_bundled_examples(tmp_path):
    load_script(ROOT / "dbt_macros" / "integration_tests" / "make_seeds.py").write_seeds(tmp_path)
    committed = ROOT / "dbt_macros" / "integration_tests" / "seeds"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in committed.glob("*.csv"))
    for name in names:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name


PACKAGE_MACROS = dbt_standin_module.package_files(ROOT / "dbt_macros")


def test_package_layout_is_dbt_utils_style():
    """One public macro a file (plus its dispatch variants); internals start with an underscore
    and live in _internal/; every public macro and argument is in macros.yml, in order."""
    import re

    import yaml

    public = dbt_docs.public_macros(dbt_docs.public_files(MACROS, {}))
    by_file = {}
    for macro in public:
        by_file.setdefault(macro["path"], []).append(macro["name"])
    assert all(len(names) == 1 for names in by_file.values()), by_file
    for path, text in PACKAGE_MACROS.items():
        names = re.findall(r"\{%-?\s*(?:macro|test)\s+(\w+)", text)
        if path.startswith("macros/_internal/"):
            assert all(name.startswith("_") or "__" in name for name in names), (path, names)
        else:
            assert not any(name.startswith("_") for name in names), (path, names)
    documented = {m["name"]: [a["name"] for a in m.get("arguments", [])]
                  for m in yaml.safe_load((MACROS / "macros.yml").read_text())["macros"]}
    assert documented == {m["name"]: [name for name, _ in m["arguments"]] for m in public}
    assert {"ndcg_per_query", "ndcg_measures", "ndcg_summary", "ndcg_measures_summary", "test_ndcg_at_least",
            "test_ndcg_valid_input", "quote_identifier", "sql_type", "item_byte_order"} <= set(documented)


def test_macros_yml_fails_the_check_when_a_macro_changes(tmp_path):
    import shutil

    shutil.copytree(MACROS, tmp_path / "macros")
    out = tmp_path / "macros"
    path = out / "ndcg_summary.sql"
    path.write_text(path.read_text().replace("sample_strata=none) -%}", "sample_strata=none, extra=1) -%}", 1))
    with pytest.raises(KeyError, match="extra"):  # an argument nobody described
        dbt_gen.differences(out)


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


@pytest.mark.parametrize("dialect", sorted(dialects.DIALECTS))
def test_engine_pieces_are_sqlglots_translation(dialect):
    """The generated per-engine macros hold sqlglot's spelling of each cast type and of the
    byte-order expression of ndcg_sql/vocabulary/dialects.py, and the engine's name case rule."""
    import sqlglot

    target = dialects.get(dialect)
    macros = dbt_standin_module.load(PACKAGE_MACROS, adapter=dialect)
    cast = sqlglot.parse_one("CAST(x AS DOUBLE)", read="duckdb").sql(dialect=target.sqlglot)
    assert f"CAST(x AS {macros.sql_type('DOUBLE')})" == cast
    byte_order = target.byte_order.format(item="item")
    assert macros.item_byte_order() == sqlglot.parse_one(byte_order, read="duckdb").sql(dialect=target.sqlglot)
    assert macros.name_fold() == target.fold
    assert macros._engine() == {"name": target.name, "float32": target.float32, "top_n": target.top_n,
                                "position_lists": target.position_lists}
    assert (macros.sql_type("FLOAT") in ("FLOAT", "REAL")) if target.float32 else macros.sql_type("FLOAT") is None
    literal = macros.string_literal("it's a \\ name")
    assert sqlglot.parse_one(literal, read=target.sqlglot).this == "it's a \\ name"


def test_float32_on_an_engine_without_it_stops_only_the_executed_model():
    """Parsing a project (dbt's execute is false) renders every model, so an engine limit must
    not stop it: only the model that asks for float32 scores fails, when it is executed."""
    macros = dbt_standin_module.load(PACKAGE_MACROS, adapter="bigquery")
    with pytest.raises(CompilerError, match="no 32-bit float"):
        macros.ndcg_per_query("`runs`", convention="trec_eval", judgments="`qrels`")
    parsing = dbt_standin_module.load(PACKAGE_MACROS, adapter="bigquery", execute=False)
    assert "FROM `runs`" in parsing.ndcg_per_query("`runs`", convention="trec_eval", judgments="`qrels`")


def test_input_checks_are_the_runners():
    """dbt's ndcg_valid_input builds its checks with the runner's macros (sql/input_checks.sql.j2):
    for each engine, the records of _input_checks with the engine's _check_numbers are
    validation.checks_for's checks, each condition and source the syntax tree of the runner's
    transpiled to the engine by sqlglot."""
    import dataclasses

    import sqlglot

    from ndcg_sql.building import validation

    options = Options(judgments=True, input_kind="rank", gain="mapping", gain_mapping=((0.0, 0.0), (1.0, 2.0)),
                      negative_labels="zero", ties="input-order", max_grade=4, binary_labels="XGBoost's AP@5")
    roles = {"query": "q", "item": "i", "order": "r", "j_query": "q", "j_item": "i", "j_label": "l", "weight": "w",
             "row": "n"}
    for dialect in dialects.DIALECTS:
        target = dialects.get(dialect)
        macros = dbt_standin_module.load(PACKAGE_MACROS, adapter=dialect)
        records = macros._input_checks({**dataclasses.asdict(options), "weight_col": "w"}, macros._check_numbers(),
                                       macros._option_table()["check_limits"])
        checks = validation.checks_for(options, roles, dialect=dialect)
        assert [r["name"] for r in records] == [c.name for c in checks]
        for record, check in zip(records, checks):
            assert macros._check_problem(record, dataclasses.asdict(options)) == check.problem
            for key in ("condition", "source"):
                ours = getattr(check, key)
                if ours is None:
                    assert record[key] is None
                    continue
                want = sqlglot.parse_one(ours, read="duckdb").sql(dialect=target.sqlglot)
                assert _canonical(record[key], target.sqlglot) == _canonical(want, target.sqlglot), (dialect, check.name, key)


def _canonical(sql: str, dialect: str) -> str:
    """SQL as sqlglot writes it back for ``dialect``, "NOT x IS NULL" written "x IS NOT NULL"."""
    import re

    import sqlglot

    return re.sub(r"\bNOT (\w+) IS NULL", r"\1 IS NOT NULL", sqlglot.parse_one(sql, read=dialect).sql(dialect=dialect))


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


#: A cast written in SQL text to a DuckDB type name (``AS DOUBLE``, ``AS DECIMAL(38, 30)``).
_BARE_CAST = re.compile(r"\bAS\s+(DOUBLE|BIGINT|INTEGER|HUGEINT|FLOAT|REAL|VARCHAR|TEXT|BOOLEAN|DATE|TIMESTAMP"
                        r"|DECIMAL\(\s*\d+\s*,\s*\d+\s*\))(?![\w(])")


def test_every_cast_of_the_sql_macros_names_its_type_through_sql_type():
    """dbt carries the SQL macros over as they are, so a cast's type is written by the macro
    ``ndcg_sql.sql_type`` (or ``ndcg_sql._cast``) in the template, never left as DuckDB's
    spelling: a bare ``AS DOUBLE`` would reach Snowflake or BigQuery untranslated."""
    comment = re.compile(r"\{#.*?#\}", re.DOTALL)
    bare = {name: [m.group(0) for m in _BARE_CAST.finditer(comment.sub("", text))]
            for name, text in templates.sql_macro_files().items()}
    assert {name: found for name, found in bare.items() if found} == {}
