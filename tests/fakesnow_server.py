"""Runs SQL on fakesnow for the Snowflake tests; started by tests/engines.py in fakesnow's own venv.

Reads one JSON object per line on stdin, {"sql": "..."}, executes it through
fakesnow's patched ``snowflake.connector`` and answers one JSON line:
{"names": [...], "rows": [[...], ...]} or {"error": "..."}. Numbers stay
exact: Decimals are sent as ints when integral, else as floats (repr).
"""

import json
import sys
from decimal import Decimal

import fakesnow
import snowflake.connector


def plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def main():
    with fakesnow.patch():
        con = snowflake.connector.connect(database="NDCG", schema="PUBLIC")
        cur = con.cursor()
        cur.execute("CREATE DATABASE IF NOT EXISTS NDCG")
        cur.execute("CREATE SCHEMA IF NOT EXISTS NDCG.PUBLIC")
        cur.execute("USE SCHEMA NDCG.PUBLIC")
        for line in sys.stdin:
            try:
                cur.execute(json.loads(line)["sql"])
                names = [d[0] for d in cur.description] if cur.description else []
                rows = [[plain(v) for v in row] for row in cur.fetchall()] if names else []
                answer = {"names": names, "rows": rows}
            except Exception as error:  # reported to the test, which fails
                answer = {"error": f"{type(error).__name__}: {error}"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
