"""What a comparison runs once its runs are evaluated (:mod:`ndcg_sql.compare`), as data: a
:class:`Program` of steps stored (a temp table or view, :class:`ndcg_sql.building.plan.Step`),
tables of bound rows (:class:`Rows`) and queries fetched (:class:`Fetch`), built by the functions
here without running anything; on a warehouse the runs' values are :class:`Shared` relations
folded into each statement that reads them (:func:`warehouse_comparison`). An executor runs a
program (:meth:`ndcg_sql.running.executors.DuckDB.run_program`,
:meth:`ndcg_sql.running.executors.Warehouse.run_program`); the SQL templates compute every number.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Mapping, Sequence

from sqlglot import exp

from . import templates

from ..vocabulary.identifiers import quote
from .id_types import pair_forms as id_type_pair_forms
from .plan import RANDOM_PRIME, Step, _as_cte
from .sql_text import prefixed_ctes


@dataclasses.dataclass(frozen=True)
class Rows:
    """A temp table of rows computed outside SQL (a comparison's summary with scipy's t p-values,
    rows fetched from a warehouse, the run names of pairs): the empty typed table (``create``,
    sql/empty_table.sql.j2), then its rows bound as parameters, never pasted (``insert``,
    sql/bound_rows.sql.j2)."""
    name: str  # the table's name, quoted
    create: str
    insert: str | None  # None: no row to put in
    parameters: tuple  # by_row: one tuple a row (one statement, run per row); else one tuple of lists, one a column
    by_row: bool = True


@dataclasses.dataclass(frozen=True)
class Shared:
    """A relation several statements of a warehouse's comparison read (a run's values), as CTEs
    (in order, the last named ``name``): a warehouse folds them into each statement that reads
    them (:attr:`Fetch.reads`); a SparkSession computes them once and keeps them in the session
    (:meth:`ndcg_sql.running.executors.Warehouse.kept`), the statements reading that."""
    name: str
    ctes: tuple[tuple[str, str | exp.Expr], ...]


@dataclasses.dataclass(frozen=True)
class Fetch:
    """A query whose rows come back (as records), by ``name``; ``doing``: the progress line while it
    runs. Where steps are folded into one statement (a warehouse): ``ctes``, its own CTEs, and
    ``reads``, the :class:`Shared` relations it reads, in order, their CTEs first."""
    name: str
    sql: str
    doing: str | None = None
    ctes: tuple[tuple[str, str | exp.Expr], ...] = ()
    reads: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Program:
    """Statements run one after another where steps are stored (DuckDB's
    :meth:`ndcg_sql.running.executors.DuckDB.run_program`): each item a step stored (a temp table
    or view), a table of bound rows (:class:`Rows`) or a query fetched (:class:`Fetch`), in order,
    each over the relations of those before it. Data, built by the functions below without running
    anything; the SQL templates compute every number."""
    items: tuple[Step | Rows | Shared | Fetch, ...]
    kept: frozenset[str] = frozenset()  # the names of the stored items a result reads (the others: only this work)

    def __add__(self, other: Program) -> Program:
        return Program(self.items + other.items, self.kept | other.kept)

    def statements(self) -> list[str]:
        """Every statement text of the program, in order (a :class:`Rows`: its CREATE, then its INSERT)."""
        out: list[str] = []
        for item in self.items:
            if isinstance(item, Rows):
                out.extend([item.create, *([item.insert] if item.insert else [])])
            elif not isinstance(item, Shared):  # a shared relation is no statement of its own but on Spark
                out.append(item.sql)
        return out


#: DuckDB type of a fetched value by its Python type (:func:`fetched_types`).
LOCAL_TYPES = {bool: "BOOLEAN", int: "BIGINT", float: "DOUBLE", str: "VARCHAR"}


def fetched_types(columns: Sequence[str], rows: Sequence[Mapping]) -> dict[str, str]:
    """The DuckDB type of each of ``columns`` from its values in rows fetched from a warehouse:
    BIGINT, DOUBLE (integers and floats mixed), BOOLEAN or VARCHAR (any other or no value)."""
    types = {}
    for column in columns:
        kinds = {type(row.get(column)) for row in rows if row.get(column) is not None}
        kind = float if kinds == {int, float} else (kinds.pop() if len(kinds) == 1 else str)
        types[column] = LOCAL_TYPES.get(kind, "VARCHAR")
    return types


def rows_table(name: str, columns: Mapping[str, str], rows: Sequence[Mapping] = (), by_row: bool = True) -> Rows:
    """``rows`` (dicts) as a temp table ``name`` (quoted) of ``columns`` ({column name: DuckDB type},
    in order): ``by_row``, a statement of one row's parameters run per row (values as they come,
    DuckDB casting each to its column's type); else one statement, each column one list parameter
    cast to its type (values made BIGINT, DOUBLE, BOOLEAN or VARCHAR first: :data:`LOCAL_TYPES`;
    row by row, a million rows took about 10 minutes)."""
    create = templates.render("empty_table.sql.j2", table=name,
                              columns=[[quote(column), kind] for column, kind in columns.items()])
    if not rows:
        return Rows(name, create, None, (), by_row)
    if by_row:
        insert = templates.render("bound_rows.sql.j2", table=name, width=len(columns), types=None)
        return Rows(name, create, insert, tuple(tuple(row.get(c) for c in columns) for row in rows), True)
    make = {local: python for python, local in LOCAL_TYPES.items()}
    lists = tuple([None if row.get(c) is None else make[t](row.get(c)) for row in rows] for c, t in columns.items())
    insert = templates.render("bound_rows.sql.j2", table=name, width=len(columns), types=list(columns.values()))
    return Rows(name, create, insert, lists, False)


def ids_alike(relations: Sequence[str], types: Sequence[Mapping[str, str]], id_col: str,
              named: Callable[[str], str] = _as_cte) -> tuple[list[str], list[Step]]:
    """Runs' relations with the id column ``id_col`` (its name) in one type, by the id rule of
    :mod:`ndcg_sql.building.id_types` (an integer run against a TREC file's text ids: both as text in
    TREC form), so that pairing them is never an engine's implicit cast: each run's ids in the form
    :func:`ndcg_sql.building.id_types.pair_forms` gives it against the other runs (sql/paired_ids.sql.j2),
    as stored where it gives "native". ``types``: each relation's {column: DuckDB type}.

    Returns:
        (the relations to read, the steps of the views that recast ids: none when no run needs it).
    """
    if any(id_col not in t for t in types):
        return list(relations), []
    kinds = [t[id_col] for t in types]
    out, steps = [], []
    for index, (relation, kind) in enumerate(zip(relations, kinds)):
        # its form against every other run (pair_forms is symmetric: two runs get pair_forms(a, b))
        forms = {id_type_pair_forms(kind, other)[0] for j, other in enumerate(kinds) if j != index} - {"native"}
        if not forms:
            out.append(relation)
            continue
        steps.append(Step(named("query_ids_as_text"), templates.render(
            "paired_ids.sql.j2", relation=relation, id_col=quote(id_col), form=sorted(forms)[0])))
        out.append(steps[-1].name)
    return out, steps


def _literals(names: frozenset[str]) -> list[str]:
    """Measure names as SQL string literals, sorted (the geometric measures paired_tests.sql.j2 reads)."""
    return [exp.Literal.string(name).sql(dialect="duckdb") for name in sorted(names)]


#: The names of a comparison's fetched rows (:func:`comparison_statistics`).
TESTS, UNPAIRED, TUKEY = "tests", "unpaired", "tukey"


def comparison_statistics(runs: Sequence[str], types: Sequence[Mapping[str, str]], pairs: Sequence[tuple[int, int]],
                          query_col: str, segments: Sequence[str], permutations: int, seed: int,
                          named: Callable[[str], str] = _as_cte, pair_index: bool = True,
                          geometric: frozenset[str] = frozenset()) -> Program:
    """What a comparison runs on DuckDB once its runs are evaluated: each run's per-query rows a view
    (``runs``: the SQL of each run's rows, ``types`` their {column: DuckDB type}), the query ids in one
    type (:func:`ids_alike`), the paired differences of every pair kept in a table (``pair_index``:
    led by the pair's number, sql/run_pairs.sql.j2, else the one pair's sql/paired_differences.sql.j2),
    then fetched: the paired tests (sql/paired_tests.sql.j2, :data:`TESTS`), the unpaired counts
    (:data:`UNPAIRED`) and, with three runs or more, the randomized Tukey HSD test over the runs'
    stacked values (sql/tukey_hsd.sql.j2, :data:`TUKEY`). ``query_col`` and ``segments``: names.
    Pure: nothing runs. Of one pair (not ``pair_index``) the differences table is what the result
    reads (the one step :attr:`Program.kept` names); of several, the result reads them named
    (:func:`comparison_tables`), and no step here is kept."""
    query, segment_cols = quote(query_col), [quote(s) for s in segments]
    views = [Step(named("per_query"), sql) for sql in runs]
    relations, recast = ids_alike([step.name for step in views], types, query_col, named)
    pair_list = [{"pair_index": index, "a_relation": relations[i], "b_relation": relations[j]}
                 for index, (i, j) in enumerate(pairs)]
    if pair_index:
        differences = templates.render("run_pairs.sql.j2", pairs=pair_list, what="differences",
                                       output_query_col=query, segment_cols=segment_cols)
        unpaired = templates.render("run_pairs.sql.j2", pairs=pair_list, what="unpaired",
                                    output_query_col=query, segment_cols=segment_cols)
    else:
        [pair] = pair_list
        inner = dict(a_relation=pair["a_relation"], b_relation=pair["b_relation"], output_query_col=query,
                     segment_cols=segment_cols)
        differences = templates.render("paired_differences.sql.j2", **inner)
        unpaired = templates.render("unpaired_counts.sql.j2", **inner)
    stored = Step(named("paired_differences"), differences, keep=True)
    tested = "paired tests" + (f" of {len(pairs)} pairs" if pair_index else "")
    groups = [*(["pair_index"] if pair_index else []), *segment_cols, "measure"]
    items: list[Step | Rows | Shared | Fetch] = [*views, *recast, stored, Fetch(TESTS, templates.render(
        "paired_tests.sql.j2", differences_relation=stored.name, output_query_col=query,
        permutations=int(permutations), exact_max_queries=int(permutations).bit_length() - 1,
        seed_state=int(seed) % RANDOM_PRIME, group_cols=groups, geometric_measures=_literals(geometric),
        segment_cols=segment_cols), f"{tested}, up to {permutations} sign patterns"), Fetch(UNPAIRED, unpaired)]
    if len(runs) >= 3:
        stacked = Step(named("run_values"), templates.render("run_values.sql.j2", relations=relations,
                                                             segment_cols=segment_cols, output_query_col=query))
        items += [stacked, Fetch(TUKEY, templates.render(
            "tukey_hsd.sql.j2", values_relation=stacked.name, group_cols=[*segment_cols, "measure"],
            output_query_col=query, permutations=int(permutations), runs=len(runs),
            seed_state=int(seed) % RANDOM_PRIME, segment_cols=segment_cols),
            f"Tukey HSD test of {len(runs)} runs, {permutations} permutations")]
    return Program(tuple(items), frozenset() if pair_index else frozenset({stored.name}))


def comparison_tables(summary: Sequence[Mapping], summary_columns: Mapping[str, str],
                      named: Callable[[str], str] = _as_cte, pair_names: Sequence[tuple[str, str]] | None = None,
                      differences: str | None = None) -> Program:
    """What a comparison stores for its result once its summary rows are computed: the summary
    rows (``summary_columns``: {column: DuckDB type}, in order) in a table, and for several runs
    (``pair_names``: each pair's (run a, run b), in pair order) the pairs' names in a table and the
    per-query differences (``differences``, led by pair_index) with the names in place of the number
    (sql/run_pairs.sql.j2's ``_named_pair_rows``). Names are bound, never pasted. Pure: nothing runs;
    every table is one the result reads (:attr:`Program.kept`)."""
    table = rows_table(named("comparison_summary"), summary_columns, summary)
    items: list[Step | Rows | Shared | Fetch] = [table]
    if pair_names is not None and differences is not None:
        names = rows_table(named("pair_names"), {"pair_index": "BIGINT", "run_a": "VARCHAR", "run_b": "VARCHAR"},
                           [{"pair_index": index, "run_a": a, "run_b": b} for index, (a, b) in enumerate(pair_names)])
        items += [names, Step(named("pairs_per_query"), templates.render_macro(
            "_named_pair_rows", differences_relation=differences, names_relation=names.name), keep=True)]
    return Program(tuple(items), frozenset(item.name for item in items if isinstance(item, (Step, Rows))))


def no_differences(segment_types: Mapping[str, str], query_col: str, named: Callable[[str], str] = _as_cte,
                   pair_index: bool = False, kept: bool = True) -> Program:
    """An empty table with the columns of the per-query differences (``pair_index`` first, for
    several runs): a comparison on a warehouse keeps its differences there, only the statistics come
    back. ``kept``: the result reads it (else only the work after it does)."""
    columns = {**({"pair_index": "BIGINT"} if pair_index else {}), **segment_types, query_col: "VARCHAR",
               "measure": "VARCHAR", "a": "DOUBLE", "b": "DOUBLE", "difference": "DOUBLE"}
    table = rows_table(named("paired_differences"), columns)
    return Program((table,), frozenset({table.name}) if kept else frozenset())


#: The columns of a pair's row (sql/compared_pair.sql.j2's _compared_pair) that its unpaired counts give.
UNPAIRED_COLUMNS = ("only_a", "only_b")


def warehouse_comparison(sources: Sequence[str | exp.Expr], pairs: Sequence[tuple[int, int]], query_col: str,
                         segments: Sequence[str], permutations: int, seed: int,
                         geometric: frozenset[str] = frozenset()) -> Program:
    """What a comparison runs on a warehouse once its runs are evaluated there: each run's values a
    :class:`Shared` relation (``sources``: each run's per-query statement, :attr:`Result.source`,
    its CTEs prefixed, :func:`ndcg_sql.building.sql_text.prefixed_ctes`, then its values as
    sql/compared_pair.sql.j2's ``_compared_values`` reads them); then per pair one statement, fetched
    as ``pair_<index>``, over the two runs' values: the differences (sql/paired_differences.sql.j2),
    the unpaired counts (sql/unpaired_counts.sql.j2) and the tests (sql/paired_tests.sql.j2) as CTEs,
    one row back per ([segment values,] measure) (``_compared_pair``); with three runs or more one
    more over every run's values, the randomized Tukey HSD test (sql/tukey_hsd.sql.j2, :data:`TUKEY`).
    ``query_col`` and ``segments``: names. Pure: nothing runs; the per-query rows never leave the
    warehouse."""
    query, segment_cols = quote(query_col), [quote(s) for s in segments]
    runs = []
    for index, source in enumerate(sources):
        rows = f"run_{index}_rows"
        runs.append(Shared(f"run_{index}_values", (
            (rows, prefixed_ctes(source, f"r{index}_")),
            (f"run_{index}_values", templates.render_macro("_compared_values", values_relation=rows,
                                                           output_query_col=query, segment_cols=segment_cols)))))
    tests = templates.render(
        "paired_tests.sql.j2", differences_relation="pair_differences", output_query_col=query,
        permutations=int(permutations), exact_max_queries=int(permutations).bit_length() - 1,
        seed_state=int(seed) % RANDOM_PRIME, group_cols=[*segment_cols, "measure"], segment_cols=segment_cols,
        geometric_measures=_literals(geometric))
    final = templates.render_macro("_compared_pair", unpaired_relation="pair_unpaired", tests_relation="pair_tests",
                                   segment_cols=segment_cols)
    items: list[Step | Rows | Shared | Fetch] = [*runs]
    for index, (i, j) in enumerate(pairs):
        inner = dict(a_relation=runs[i].name, b_relation=runs[j].name, output_query_col=query,
                     segment_cols=segment_cols)
        items.append(Fetch(f"pair_{index}", final, None, (
            ("pair_differences", templates.render("paired_differences.sql.j2", **inner)),
            ("pair_unpaired", templates.render("unpaired_counts.sql.j2", **inner)),
            ("pair_tests", tests)), (runs[i].name, runs[j].name)))
    if len(sources) >= 3:
        stacked = templates.render("run_values.sql.j2", relations=[run.name for run in runs], segment_cols=segment_cols,
                                   output_query_col=query)
        items.append(Fetch(TUKEY, templates.render(
            "tukey_hsd.sql.j2", values_relation="stacked_values", group_cols=[*segment_cols, "measure"],
            output_query_col=query, permutations=int(permutations), runs=len(sources),
            seed_state=int(seed) % RANDOM_PRIME, segment_cols=segment_cols), None, (("stacked_values", stacked),),
            tuple(run.name for run in runs)))
    return Program(tuple(items))
