"""Runs SQL on fakesnow for the Snowflake tests; started by tests/engines.py in fakesnow's own venv.

Reads one JSON object per line on stdin, {"sql": "..."}, executes it through
fakesnow's patched ``snowflake.connector`` and answers one JSON line:
{"names": [...], "rows": [[...], ...], "types": [[type code, scale], ...]} or
{"error": "..."}. Numbers stay
exact: Decimals are sent as ints when integral, else as floats (repr).

One shim, the only change made to our SQL: fakesnow runs on DuckDB, which has
no Snowflake 'utf8' collation, so ``COLLATE(x, 'utf8')`` (Snowflake's byte
order) is replaced by ``x``, whose order in DuckDB already is byte order. The
Snowflake SQL itself is reviewed in tests/golden/snowflake/.
"""

import json
import sys
from decimal import Decimal

import fakesnow
import snowflake.connector
import sqlglot
from sqlglot import exp


def plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def without_utf8_collation(sql: str) -> str:
    if "COLLATE" not in sql.upper():
        return sql
    tree = sqlglot.parse_one(sql, read="snowflake")
    for node in list(tree.find_all(exp.Collate)):
        if isinstance(node.expression, exp.Literal) and node.expression.this.lower() == "utf8":
            node.replace(node.this)
    return tree.sql(dialect="snowflake")


def main():
    with fakesnow.patch():
        con = snowflake.connector.connect(database="NDCG", schema="PUBLIC")
        cur = con.cursor()
        cur.execute("CREATE DATABASE IF NOT EXISTS NDCG")
        cur.execute("CREATE SCHEMA IF NOT EXISTS NDCG.PUBLIC")
        cur.execute("USE SCHEMA NDCG.PUBLIC")
        for line in sys.stdin:
            try:
                cur.execute(without_utf8_collation(json.loads(line)["sql"]))
                described = list(cur.description) if cur.description else []
                names = [d[0] for d in described]
                rows = [[plain(v) for v in row] for row in cur.fetchall()] if names else []
                # snowflake.connector's type code and scale of each column (what a cursor describes)
                answer = {"names": names, "rows": rows, "types": [[d[1], d[5]] for d in described]}
            except Exception as error:  # reported to the test, which fails
                answer = {"error": f"{type(error).__name__}: {error}"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
