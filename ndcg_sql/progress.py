"""Progress of long DuckDB queries, drawn by tqdm on stderr (never on stdout,
where JSON and CSV results go). DuckDB's own bar prints to stdout, so it is
switched off and its progress figure is polled from a watcher thread instead."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import duckdb


@contextmanager
def reported(con: duckdb.DuckDBPyConnection, description: str = "ndcg-sql", delay: float = 1.0):
    """While the body runs queries on ``con``, show their progress on stderr.

    The bar appears only after ``delay`` seconds, so short runs print nothing.
    """
    from tqdm import tqdm

    con.execute("SET enable_progress_bar = true")
    con.execute("SET enable_progress_bar_print = false")
    stop = threading.Event()
    bar = tqdm(total=100, desc=description, unit="%", delay=delay, leave=False,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")

    def watch():
        while not stop.wait(0.2):
            try:
                value = con.query_progress()
            except duckdb.Error:
                continue
            if value is not None and value >= 0:
                bar.n = min(100.0, float(value))
                bar.refresh()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
        bar.close()
