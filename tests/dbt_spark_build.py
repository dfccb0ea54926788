"""Builds the dbt integration project with dbt-spark (method: session) in a process of its own and
writes the outcome and the rows of the models named as JSON; started by tests/test_dbt_adapters.py.

usage: python tests/dbt_spark_build.py PROJECT_DIR OUTPUT_JSON [MODEL ...]

A process of its own because a process holds one SparkContext: dbt-spark's session (its
in-memory catalog and warehouse folder, and the spark.sql.ansi.enabled=false it sets) would
otherwise be the one the warehouse tests get from tests/engines.py, or the other way round.
The SparkSession is the one dbt-spark made (profiles.yml, target spark), so the rows read here
are the tables dbt built. JSON keeps every float exactly (repr round trip).
"""

import json
import sys
from decimal import Decimal


def plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def main() -> int:
    project, output, *models = sys.argv[1:]
    from dbt.cli.main import dbtRunner

    common = ["--project-dir", project, "--profiles-dir", project, "--no-use-colors"]
    runner = dbtRunner()
    outcome: dict = {"success": False, "exception": None, "statuses": {}, "tables": {}}
    try:
        deps = runner.invoke(["deps", *common])
        if not deps.success:
            outcome["exception"] = f"dbt deps: {deps.exception}"
            return 1
        build = runner.invoke(["build", "--target", "spark", *common])
        outcome["success"] = build.success
        outcome["exception"] = None if build.exception is None else str(build.exception)
        if build.result is not None:
            outcome["statuses"] = {r.node.name: str(r.status) for r in build.result.results}
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
