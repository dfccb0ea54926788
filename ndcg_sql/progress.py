"""Progress of long DuckDB queries, drawn by tqdm on stderr (never on stdout,
where JSON and CSV results go), and only when stderr is a terminal. DuckDB's
own bar prints to stdout, so it is switched off and its progress figure is
polled from a watcher thread instead."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import duckdb


@contextmanager
def reported(con: duckdb.DuckDBPyConnection, description: str = "ndcg-sql", delay: float = 1.0,
             only_on_terminal: bool = True):
    """While the body runs queries on ``con``, show their progress on stderr.

    The bar appears only after ``delay`` seconds, so short runs print nothing.
    The body runs several queries (checks, metric, summary); each restarts
    DuckDB's figure at 0, so the bar names the step it is on.
    """
    from tqdm import tqdm

    con.execute("SET enable_progress_bar = true")
    con.execute("SET enable_progress_bar_print = false")
    stop = threading.Event()
    bar = tqdm(total=100, desc=f"{description} step 1", unit="%", delay=delay, leave=False,
               disable=None if only_on_terminal else False,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
    step = 1

    def watch():
        nonlocal step
        unknown = False
        while not stop.wait(0.2):
            try:
                value = con.query_progress()
            except duckdb.Error:
                continue
            if value is None or value < 0:
                # DuckDB gives no figure for some queries (one reading a constant
                # table, such as the cutoffs, among them): keep the elapsed time going
                if not unknown:
                    unknown = True
                    step += 1
                    bar.n = 0
                    bar.set_description_str(f"{description} step {step} (no estimate)", refresh=False)
                bar.refresh()
                continue
            if unknown or value + 5 < bar.n:  # a new query started
                if not unknown:
                    step += 1
                unknown = False
                bar.set_description_str(f"{description} step {step}", refresh=False)
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
