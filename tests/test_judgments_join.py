"""The judgments-join benchmark (benchmarks/judgments_join.py) on a small generated log: storing
the join's rows first changes no bit of a per-query row, and the statements it times are those
evaluate runs (the stored variant's checksum equals the one of evaluate's own per-query rows)."""

from __future__ import annotations

import duckdb

import ndcg_sql
from benchmarks import generate, judgments_join


def test_stored_join_gives_the_same_rows_to_the_bit(tmp_path):
    run, qrels = str(tmp_path / "run.parquet"), str(tmp_path / "qrels.parquet")
    generate.generate(run, 20_000, 10, judgments=qrels)
    spill = str(tmp_path / "spill")
    statement = judgments_join.statement_of(run, qrels, "1GB", spill)
    joined = judgments_join.measure("judgments", statement, "1GB", spill)
    stored = judgments_join.measure("judgments, stored", statement, "1GB", spill)
    assert len(judgments_join._statements(statement["sql"], stored=True)) == 2
    assert (stored["checksum"], stored["rows"]) == (joined["checksum"], joined["rows"])

    con = duckdb.connect()
    with ndcg_sql.evaluate(run, judgments=qrels, con=con, checks="trusted") as result:
        rows = result.per_query.aggregate("BIT_XOR(HASH(query_id, k, cg, dcg, idcg, ndcg)), COUNT(*)").fetchall()[0]
    assert rows == (joined["checksum"], joined["rows"])
