"""Builds the dbt integration project on one target in a process of its own and writes the outcome
(and, on Spark, the rows of the models named) as JSON; started by tests/test_dbt_adapters.py.

usage: python tests/dbt_build.py TARGET PROJECT_DIR OUTPUT_JSON [MODEL ...]

A process of its own:
- spark (method: session): a process holds one SparkContext, and dbt-spark's session (its
  in-memory catalog and warehouse folder, the spark.sql.ansi.enabled=false it sets) would otherwise
  be the one the warehouse tests get from tests/engines.py, or the other way round. The rows of the
  models are read here, from the SparkSession dbt-spark made.
- fakesnow: the Snowflake connector retries a failed request without end (dbt-snowflake sets no
  network_timeout), so a build that goes wrong would hang the tests; a process can be stopped.
JSON keeps every float exactly (repr round trip).
"""

import json
import sys
from decimal import Decimal


def plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def main() -> int:
    target, project, output, *models = sys.argv[1:]
    from dbt.cli.main import dbtRunner

    common = ["--project-dir", project, "--profiles-dir", project, "--no-use-colors"]
    runner = dbtRunner()
    outcome: dict = {"success": False, "exception": None, "statuses": {}, "tables": {}}
    try:
        deps = runner.invoke(["deps", *common])
        if not deps.success:
            outcome["exception"] = f"dbt deps: {deps.exception}"
            return 1
        build = runner.invoke(["build", "--target", target, *common])
        outcome["success"] = build.success
        outcome["exception"] = None if build.exception is None else str(build.exception)
        if build.result is not None:
            outcome["statuses"] = {r.node.name: str(r.status) for r in build.result.results}
        if target == "spark":
            from pyspark.sql import SparkSession

            spark = SparkSession.builder.getOrCreate()
            for name in models:
                if outcome["statuses"].get(name) == "success":
                    rows = spark.table(f"ndcg_sql_it.{name}").collect()
                    outcome["tables"][name] = [{k: plain(v) for k, v in row.asDict().items()} for row in rows]
            spark.stop()
        return 0
    finally:
        with open(output, "w", encoding="utf-8") as out:
            json.dump(outcome, out)


if __name__ == "__main__":
    sys.exit(main())
