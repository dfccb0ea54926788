"""The worklist of what to judge next (ndcg_sql.unjudged, ``ndcg-sql unjudged``): against an
independent pandas reference on the bundled DL19 runs and a hand-worked example (ties included),
its options and errors, the files it writes, Postgres, and the command line."""

import csv
import io
import json
import math
import shutil

import duckdb
import pandas as pd
import pytest

import ndcg_sql
from conftest import EXAMPLES
from engines import shared
from reference import unjudged_worklist
from ndcg_sql.vocabulary import identifiers
from test_cli import run_cli

DL = EXAMPLES / "trec_dl19_passage"
RUNS = {"bm25": str(DL / "run.dl19.bm25.top100.txt"), "splade": str(DL / "run.dl19.splade_pp_ed.top100.txt"),
        "tasb": str(DL / "run.dl19.tasb.top100.txt")}
QRELS = str(DL / "qrels.dl19-passage.txt")
TOL = 1e-12


# ----------------------------------------------------------------- the reference
def read_trec_run(path) -> pd.DataFrame:
    """A TREC run file read with pandas (qid Q0 docid rank score tag), ids as text."""
    frame = pd.read_csv(path, sep=r"\s+", header=None, dtype=str, names=["q", "q0", "d", "rank", "score", "tag"])
    return frame.assign(score=frame["score"].astype(float))[["q", "d", "score"]]


def judged_pairs(path) -> set:
    frame = pd.read_csv(path, sep=r"\s+", header=None, dtype=str, names=["q", "it", "d", "rel"])
    return set(zip(frame["q"], frame["d"]))


def reference(runs: dict, judged: set, depth: int, ties: str = "average") -> dict:
    """The numpy reference's worklist (tests/reference.py) of runs read by pandas."""
    rows = {name: list(zip(frame["q"], frame["d"], frame["score"])) for name, frame in runs.items()}
    return unjudged_worklist(rows, judged, depth, ties)


def as_dict(worklist, query="query_id", item="item_id") -> dict:
    return {(str(r[query]), str(r[item])): (r["best_rank"], list(r["runs"]), r["exposure"])
            for r in worklist.records()}


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want), (set(got) ^ set(want))
    for key, (rank, names, exposure) in want.items():
        assert got[key][0] == rank, key
        assert got[key][1] == names, key
        assert math.isclose(got[key][2], exposure, rel_tol=TOL, abs_tol=TOL), (key, got[key][2], exposure)


def assert_ordered(records: list[dict]) -> None:
    exposures = [r["exposure"] for r in records]
    assert exposures == sorted(exposures, reverse=True)


# ----------------------------------------------------------------- DL19 against the reference
@pytest.mark.parametrize("depth, ties", [(10, "average"), (20, "item-desc"), (5, "item-asc")])
def test_dl19_worklist_is_the_references(depth, ties):
    """The three bundled DL19 runs at a depth: every unjudged (query, item) shown, its best rank,
    the runs that show it (in the runs' order) and its exposure, highest first."""
    with ndcg_sql.unjudged(RUNS, QRELS, depth, ties=ties) as worklist:
        got = as_dict(worklist)
        assert_ordered(worklist.records())
    want = reference({name: read_trec_run(path) for name, path in RUNS.items()}, judged_pairs(QRELS), depth, ties)
    assert want  # DL19's pool is deep, yet SPLADE++ and TAS-B show unjudged passages in their top 10
    assert_same(got, want)


def test_dl19_worklist_under_trec_evals_convention():
    """convention="trec_eval" ranks as trec_eval does: scores rounded to float32, ties by item id
    descending (the reference rounds the scores with numpy)."""
    import numpy as np

    with ndcg_sql.unjudged(RUNS, QRELS, 20, convention="trec_eval") as worklist:
        got = as_dict(worklist)
        assert worklist.options["ties"] == "item-desc" and worklist.options["score_precision"] == "float32"
    runs = {name: read_trec_run(path) for name, path in RUNS.items()}
    runs = {name: frame.assign(score=frame["score"].astype(np.float32).astype(float)) for name, frame in runs.items()}
    assert_same(got, reference(runs, judged_pairs(QRELS), 20, "item-desc"))


def test_one_run_is_named_as_compare_names_it():
    with ndcg_sql.unjudged(RUNS["tasb"], QRELS, 10) as worklist:
        assert worklist.names == ("run.dl19.tasb.top100.txt",)
        assert {tuple(r["runs"]) for r in worklist.records()} == {("run.dl19.tasb.top100.txt",)}
    with ndcg_sql.unjudged([RUNS["tasb"], RUNS["bm25"]], QRELS, 10, names=["TAS-B", "BM25"]) as worklist:
        assert worklist.names == ("TAS-B", "BM25")


# ----------------------------------------------------------------- a hand-worked example
D2, D3 = 1 / math.log2(3), 1 / math.log2(4)  # the discounts at ranks 2 and 3
RUN_A = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q1", "q2", "q2"], "item_id": ["a", "b", "c", "d", "x", "y"],
                      "score": [3.0, 2.0, 2.0, 1.0, 1.0, 1.0], "weight": [2.0, 2.0, 2.0, 2.0, 0.5, 0.5]})
RUN_B = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "item_id": ["c", "e", "a"], "score": [5.0, 4.0, 1.0],
                      "weight": [1.0, 1.0, 1.0]})
# q1's a and e are judged (e as 0: judged all the same); q2 has no judgment at all
JUDGMENTS = pd.DataFrame({"query_id": ["q1", "q1", "q3"], "item_id": ["a", "e", "z"], "label": [1, 0, 2]})


@pytest.mark.parametrize("ties, want", [
    # A ranks a, then b and c tied at positions 2 and 3 (depth 2: shown from position 2, each at
    # (D2 + 0) / 2), then d (3 or 4: not shown); x and y tied at 1 and 2, each (1 + D2) / 2. B: c at 1.
    ("average", [("q1", "c", 1, ["A", "B"], 1.0 + D2 / 2), ("q2", "x", 1, ["A"], (1 + D2) / 2),
                 ("q2", "y", 1, ["A"], (1 + D2) / 2), ("q1", "b", 2, ["A"], D2 / 2)]),
    # b before c, x before y: a 1, b 2, c 3; x 1, y 2
    ("item-asc", [("q1", "c", 1, ["B"], 1.0), ("q2", "x", 1, ["A"], 1.0), ("q1", "b", 2, ["A"], D2),
                  ("q2", "y", 2, ["A"], D2)]),
    # c before b, y before x: a 1, c 2, b 3; y 1, x 2
    ("item-desc", [("q1", "c", 1, ["A", "B"], 1.0 + D2), ("q2", "y", 1, ["A"], 1.0), ("q2", "x", 2, ["A"], D2)]),
])
def test_hand_worked_worklist(ties, want):
    with ndcg_sql.unjudged({"A": RUN_A, "B": RUN_B}, JUDGMENTS, 2, ties=ties) as worklist:
        got = [(r["query_id"], r["item_id"], r["best_rank"], list(r["runs"]), r["exposure"])
               for r in worklist.records()]
    assert [g[:4] for g in got] == [w[:4] for w in want]
    for g, w in zip(got, want):
        assert math.isclose(g[4], w[4], rel_tol=TOL)


def test_hand_worked_worklist_weighted_and_deeper():
    """Query weights multiply each run's exposure (A: q1 2, q2 0.5; B: q1 1); at depth 3 the tie
    group b, c (positions 2 and 3) is all within depth: each (D2 + D3) / 2."""
    with ndcg_sql.unjudged({"A": RUN_A, "B": RUN_B}, JUDGMENTS, 3, weight_col="weight") as worklist:
        got = {(r["query_id"], r["item_id"]): (r["best_rank"], r["exposure"]) for r in worklist.records()}
    want = {("q1", "c"): (1, 2 * (D2 + D3) / 2 + 1.0), ("q1", "b"): (2, 2 * (D2 + D3) / 2),
            ("q2", "x"): (1, 0.5 * (1 + D2) / 2), ("q2", "y"): (1, 0.5 * (1 + D2) / 2)}
    assert set(got) == set(want)
    for key, (rank, exposure) in want.items():
        assert got[key][0] == rank and math.isclose(got[key][1], exposure, rel_tol=TOL), key


def test_segments_show_items_as_runs_do():
    """One log with an arm column: each arm shows items as a run does, named "log arm=..."."""
    log = pd.concat([RUN_A.assign(arm="one"), RUN_B.assign(arm="two")])
    with ndcg_sql.unjudged({"log": log}, JUDGMENTS, 2, segments="arm", ties="item-desc") as worklist:
        got = [(r["query_id"], r["item_id"], r["best_rank"], list(r["runs"])) for r in worklist.records()]
    assert got == [("q1", "c", 1, ["log arm=one", "log arm=two"]), ("q2", "y", 1, ["log arm=one"]),
                   ("q2", "x", 2, ["log arm=one"])]


def test_logged_ranks_and_input_order():
    """A logged rank (1 = top) orders as evaluate orders it; input-order breaks ties by row_col."""
    log = pd.DataFrame({"query_id": ["q", "q", "q"], "item_id": ["a", "b", "c"], "pos": [2, 1, 1],
                        "row": [3, 2, 1]})
    qrels = pd.DataFrame({"query_id": ["q"], "item_id": ["zz"], "label": [1]})
    with ndcg_sql.unjudged(log, qrels, 2, rank_col="pos", ties="input-order", row_col="row") as worklist:
        assert [(r["item_id"], r["best_rank"]) for r in worklist.records()] == [("c", 1), ("b", 2)]


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("depth", [0, -3, 2.5, True, "10", None])
def test_a_depth_that_is_no_positive_integer_is_refused(depth):
    with pytest.raises(ndcg_sql.OptionError, match=r"depth \(--depth\) must be a positive integer"):
        ndcg_sql.unjudged(RUN_A, JUDGMENTS, depth)


def test_bad_input_is_refused_as_evaluate_refuses_it():
    with pytest.raises(ndcg_sql.OptionError, match="needs judgments"):
        ndcg_sql.unjudged(RUN_A, None, 10)
    with pytest.raises(ndcg_sql.InputError, match="itme"):
        ndcg_sql.unjudged(RUN_A, JUDGMENTS, 10, item_col="itme")
    with pytest.raises(ndcg_sql.InputError, match="NULL"):
        ndcg_sql.unjudged(RUN_A.assign(score=[1.0, None, 2.0, 3.0, 1.0, 2.0]), JUDGMENTS, 10)
    with pytest.raises(ndcg_sql.InputError, match="NULL"):
        ndcg_sql.unjudged(RUN_A, JUDGMENTS.assign(label=[1, None, 0]), 10)
    with pytest.raises(ndcg_sql.InputError, match="duplicate"):
        ndcg_sql.unjudged(pd.concat([RUN_A, RUN_A]), JUDGMENTS, 10)
    with pytest.raises(ndcg_sql.OptionError, match="exposure"):
        ndcg_sql.unjudged(RUN_A.rename(columns={"item_id": "exposure"}), JUDGMENTS, 10, item_col="exposure")
    with pytest.raises(ndcg_sql.OptionError, match="ties"):
        ndcg_sql.unjudged(RUN_A, JUDGMENTS, 10, ties="random")
    with pytest.raises(TypeError, match="gain"):
        ndcg_sql.unjudged(RUN_A, JUDGMENTS, 10, gain="linear")


# ----------------------------------------------------------------- files
def test_files_in_every_format(tmp_path):
    with ndcg_sql.unjudged({"A": RUN_A, "B": RUN_B}, JUDGMENTS, 2) as worklist:
        for name in ("w.csv", "w.json", "w.parquet", "w.txt"):
            worklist.write(tmp_path / name)
        with pytest.raises(ndcg_sql.OptionError, match="format"):
            worklist.write(tmp_path / "w.xlsx")
    rows = list(csv.DictReader(open(tmp_path / "w.csv")))
    assert [(r["query_id"], r["item_id"], r["best_rank"], r["runs"]) for r in rows] == [
        ("q1", "c", "1", "A; B"), ("q2", "x", "1", "A"), ("q2", "y", "1", "A"), ("q1", "b", "2", "A")]
    assert math.isclose(float(rows[0]["exposure"]), 1 + D2 / 2, rel_tol=TOL)
    data = json.loads((tmp_path / "w.json").read_text())
    assert data["runs"] == ["A", "B"] and data["options"]["depth"] == 2 and data["items"][0]["runs"] == ["A", "B"]
    parquet = duckdb.sql(f"SELECT * FROM '{tmp_path / 'w.parquet'}'").fetchall()
    assert parquet[0][:4] == ("q1", "c", 1, ["A", "B"])
    # the pool: a qrels file's layout, -1 (in the pool, not judged) for every line, worklist order
    assert (tmp_path / "w.txt").read_text() == "q1 0 c -1\nq2 0 x -1\nq2 0 y -1\nq1 0 b -1\n"
    pool = ndcg_sql.read_trec(str(tmp_path / "w.txt"), "qrels")
    assert pool.fetchall() == [("q1", "c", -1.0), ("q2", "x", -1.0), ("q2", "y", -1.0), ("q1", "b", -1.0)]


def test_a_pool_file_refuses_ids_a_qrels_line_cannot_hold(tmp_path):
    run = pd.DataFrame({"query_id": ["q 1"], "item_id": ["a"], "score": [1.0]})
    with ndcg_sql.unjudged(run, JUDGMENTS, 1) as worklist:
        with pytest.raises(ndcg_sql.InputError, match="column 'query_id': the id 'q 1' is empty or holds whitespace"):
            worklist.write(tmp_path / "pool.txt")
        assert not (tmp_path / "pool.txt").exists()
        worklist.write(tmp_path / "w.csv")  # CSV holds it
    assert (tmp_path / "w.csv").read_text().splitlines()[1].startswith("q 1,a,1,a DataFrame,1.0")
    with ndcg_sql.unjudged(run, run.assign(label=1), 1) as worklist:  # everything judged: an empty worklist
        assert len(worklist) == 0
        worklist.write(tmp_path / "empty.csv")
        worklist.write(tmp_path / "empty.txt")
    assert (tmp_path / "empty.csv").read_text() == "query_id,item_id,best_rank,runs,exposure\n"
    assert (tmp_path / "empty.txt").read_text() == ""


# ----------------------------------------------------------------- the command line
def test_command_line(tmp_path):
    out = tmp_path / "pool.txt"
    done = run_cli("unjudged", RUNS["splade"], RUNS["tasb"], "--judgments", QRELS, "--depth", "10", "-o", str(out))
    assert done.returncode == 0, done.stderr
    want = reference({"run.dl19.splade_pp_ed.top100.txt": read_trec_run(RUNS["splade"]),
                      "run.dl19.tasb.top100.txt": read_trec_run(RUNS["tasb"])}, judged_pairs(QRELS), 10)
    lines = out.read_text().splitlines()
    assert {tuple(line.split()[::2]) for line in lines} == {(q, d) for q, d in want} and len(lines) == len(want)
    assert all(line.split()[1::2] == ["0", "-1"] for line in lines)
    done = run_cli("unjudged", RUNS["tasb"], "--judgments", QRELS, "--depth", "5", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    want = reference({"run.dl19.tasb.top100.txt": read_trec_run(RUNS["tasb"])}, judged_pairs(QRELS), 5)
    assert {(r["query_id"], r["item_id"]) for r in rows} == set(want)
    done = run_cli("unjudged", RUNS["tasb"], "--judgments", QRELS, "--depth", "0")
    assert done.returncode == 2 and "depth (--depth) must be a positive integer" in done.stderr
    done = run_cli("unjudged", RUNS["tasb"], "--judgments", QRELS, "-o", RUNS["tasb"])
    assert done.returncode == 2 and "is an input" in done.stderr


# ----------------------------------------------------------------- Postgres
@pytest.fixture(scope="module")
def postgres():
    return shared("postgres")


def test_postgres_worklist_is_duckdbs(postgres):
    """The runs' SQL on Postgres (their checks too), put together locally: DuckDB's worklist."""
    for name, frame in (("unjudged_a", RUN_A), ("unjudged_b", RUN_B), ("unjudged_qrels", JUDGMENTS)):
        postgres.load(identifiers.table(name), list(frame.columns), list(frame.itertuples(index=False, name=None)))
    for ties in ("average", "item-desc"):
        got = ndcg_sql.unjudged({"A": "unjudged_a", "B": "unjudged_b"}, "unjudged_qrels", 2, ties=ties,
                                weight_col="weight", con=postgres.connection(), dialect="postgres")
        want = ndcg_sql.unjudged({"A": RUN_A, "B": RUN_B}, JUDGMENTS, 2, ties=ties, weight_col="weight")
        assert_same(as_dict(got), {k: v for k, v in as_dict(want).items()})
        assert [(r["query_id"], r["item_id"]) for r in got.records()] == [
            (r["query_id"], r["item_id"]) for r in want.records()]
        got.close()
        want.close()
    with pytest.raises(ndcg_sql.InputError, match="itme"):
        ndcg_sql.unjudged("unjudged_a", "unjudged_qrels", 2, item_col="itme", con=postgres.connection(),
                          dialect="postgres")


# ----------------------------------------------------------------- portable SQL
@pytest.mark.parametrize("ties", ["average", "item-desc", "input-order"])
def test_the_sql_is_portable_and_transpiles(ties):
    """Each run's statement (run on a warehouse) and the worklist's (dbt runs it there too) keep
    to the portable subset of tests/test_portable_sql.py and transpile to every dialect."""
    from ndcg_sql.building import context, templates
    from ndcg_sql.vocabulary import dialects
    from ndcg_sql.worklist import _item_sql
    from test_portable_sql import lint
    import sqlglot

    options = ndcg_sql.vocabulary.parameters.Request(k=[10], ties=ties, weight_col="w", segments=["arm"],
                                                     row_col="row" if ties == "input-order" else None).metric()
    rendered = context.render(context.resolve(options, True, segmented_judgments=False), '"run"', '"qrels"')
    worklist = templates.render(
        "unjudged_worklist.sql.j2", runs=[{"relation": '"a"', "name": "'A'"}, {"relation": '"b"', "name": "'B'"}],
        segment_cols=['"arm"'], segment_labels=["'arm='"], output_query_col='"query_id"',
        output_item_col='"item_id"', names_aggregate="STRING_AGG(shown_by, '; ' ORDER BY shown_by ASC NULLS FIRST)")
    for sql in (_item_sql(rendered, 10), worklist):
        assert lint(sql) == []
        for dialect in dialects.DIALECTS.values():
            sqlglot.transpile(sql, read="duckdb", write=dialect.sqlglot, unsupported_level=sqlglot.ErrorLevel.RAISE)


def test_write_never_replaces_an_input(tmp_path):
    """Worklist.write refuses the runs' and the judgments' own files, however named (a new user's
    trial once replaced the DL19 qrels with a two-line pool file), and leaves them as they were."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    shutil.copy(RUNS["bm25"], run)
    shutil.copy(DL / "qrels.dl19-passage.txt", qrels)
    before = {path: path.read_bytes() for path in (run, qrels)}
    with ndcg_sql.unjudged([str(run)], str(qrels), 10) as worklist:
        for target in (qrels, run, tmp_path / "." / "qrels.txt"):
            with pytest.raises(ndcg_sql.OptionError, match="input"):
                worklist.write(target, "pool")
        worklist.write(tmp_path / "pool.txt")
    assert {path: path.read_bytes() for path in (run, qrels)} == before
    assert (tmp_path / "pool.txt").is_file()


def test_a_pool_files_items_stay_on_the_worklist_until_graded(tmp_path):
    """A pool file's -1 lines appended to the judgments: under trec_eval's reading (a relevance
    below 0 is in the pool, not judged) its items are still to judge; read as 0 they are judged."""
    with ndcg_sql.unjudged([RUNS["splade"]], QRELS, 10) as worklist:
        pool = worklist.pool()
        listed = {(row["query_id"], row["item_id"]) for row in worklist.records()}
    pooled = {(line.split()[0], line.split()[2]) for line in pool.splitlines()}
    assert pooled == listed and len(listed) > 0
    qrels = tmp_path / "qrels_and_pool.txt"
    qrels.write_text(open(QRELS).read() + pool)
    for options in ({"convention": "trec_eval"}, {"negative_labels": "unjudged"}):
        with ndcg_sql.unjudged([RUNS["splade"]], str(qrels), 10, **options) as worklist:
            assert {(str(r["query_id"]), str(r["item_id"])) for r in worklist.records()} == {
                (str(q), str(i)) for q, i in listed}
    with ndcg_sql.unjudged([RUNS["splade"]], str(qrels), 10, negative_labels="zero") as worklist:
        assert len(worklist) == 0
