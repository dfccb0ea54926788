"""fakesnow's server for the Snowflake tests, run in fakesnow's own venv (it pins sqlglot) by
tests/engines.py's :func:`fakesnow_server`.

Starts ``fakesnow.server()`` (a Snowflake HTTP endpoint on DuckDB, on a free local port), prints
the keyword arguments of ``snowflake.connector.connect`` it gives as one JSON line, and serves
until its stdin closes. The tests and dbt-snowflake connect to it through the real
``snowflake.connector``.
"""

import json
import sys

import fakesnow

if __name__ == "__main__":
    with fakesnow.server() as connect_arguments:
        sys.stdout.write(json.dumps(connect_arguments) + "\n")
        sys.stdout.flush()
        sys.stdin.read()
