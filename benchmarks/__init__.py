"""Benchmarks of ndcg_sql against the scan floor and peer libraries (not part of the package)."""
