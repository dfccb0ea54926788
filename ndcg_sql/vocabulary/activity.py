"""What the package is computing now, by connection, and the progress bar that shows it.

The steps that take time -- reading and checking the input, the per-query values and their
means, the bootstrap, the paired tests of ``compare`` -- run inside :func:`doing`, which
names them for the connection they run on. Names nest ("run A: bootstrap interval, 1000
resamples"). :func:`reported` shows the current name beside DuckDB's own estimate;
:func:`listening` lets a caller hear every step as it starts. Nothing here changes a result.

The bar (:func:`reported`) is drawn by tqdm on stderr (never on stdout, where JSON and CSV
results go), and only when stderr is a terminal. It shows DuckDB's estimate of the running
query's progress where DuckDB gives one; where it gives none (a query over a table of
constants, such as the bootstrap's resamples) it says so and the elapsed time keeps going.
DuckDB's own bar prints to stdout, so it is switched off and its figure is polled from a
watcher thread instead.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

import duckdb

_lock = threading.Lock()
_names: dict[int, list[str]] = {}
_listeners: list[Callable[[object, str], None]] = []


def current(con) -> str | None:
    """The name of what runs on ``con`` now (outer steps first, joined by ": "), or None."""
    with _lock:
        names = _names.get(id(con))
        return ": ".join(names) if names else None


@contextmanager
def doing(con, name: str) -> Iterator[None]:
    """Name the step run on ``con`` by the body (``con`` None: nothing to name)."""
    if con is None:
        yield
        return
    with _lock:
        names = _names.setdefault(id(con), [])
        names.append(name)
        full = ": ".join(names)
        listeners = list(_listeners)
    for listener in listeners:
        listener(con, full)
    try:
        yield
    finally:
        with _lock:
            names = _names[id(con)]
            names.pop()
            if not names:
                del _names[id(con)]


@contextmanager
def listening(listener: Callable[[object, str], None]) -> Iterator[None]:
    """Call ``listener(con, full name)`` as each step starts, while the body runs."""
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


#: The bar with DuckDB's estimate, and the line without one.
WITH_ESTIMATE = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}"
WITHOUT_ESTIMATE = "{desc}: no estimate from DuckDB | {elapsed}"


@contextmanager
def reported(con: duckdb.DuckDBPyConnection, description: str = "ndcg-sql", delay: float = 1.0,
             only_on_terminal: bool = True, interval: float = 0.2):
    """While the body runs queries on ``con``, show their progress on stderr.

    Args:
        con: the DuckDB connection the body computes on.
        description: the bar's first word.
        delay: seconds before the bar appears (short runs print nothing).
        only_on_terminal: draw only when stderr is a terminal.
        interval: seconds between two looks at DuckDB's figure.
    """
    from tqdm import tqdm

    con.execute("SET enable_progress_bar = true")
    con.execute("SET enable_progress_bar_print = false")
    stop = threading.Event()
    bar = tqdm(total=100, desc=description, unit="%", delay=delay, leave=False,
               disable=None if only_on_terminal else False, bar_format=WITHOUT_ESTIMATE)

    def watch():
        while not stop.wait(interval):
            step = current(con) or "starting"
            try:
                value = con.query_progress()
            except duckdb.Error:
                continue
            known = value is not None and value >= 0
            bar.bar_format = WITH_ESTIMATE if known else WITHOUT_ESTIMATE
            bar.n = min(100.0, float(value)) if known else 0
            bar.set_description_str(f"{description}: {step}", refresh=False)
            bar.refresh()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
        bar.close()
