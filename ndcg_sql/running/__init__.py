"""Running: a plan run on an executor (DuckDB, a DB-API connection, Spark), the results, and
``evaluate`` on DuckDB or a warehouse (docs/architecture.md, "Layers")."""
