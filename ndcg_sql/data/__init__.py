"""Data in and out: DuckDB connections, rankings and judgments loaded as views, and a user's files
written atomically (docs/architecture.md, "Layers")."""
