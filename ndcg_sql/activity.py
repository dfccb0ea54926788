"""What the package is computing now, by connection: the names a progress bar shows.

The steps that take time -- reading and checking the input, the per-query values and their
means, the bootstrap, the paired tests of ``compare`` -- run inside :func:`doing`, which
names them for the connection they run on. Names nest ("run A: bootstrap interval, 1000
resamples"). :mod:`ndcg_sql.progress` shows the current name beside DuckDB's own estimate;
:func:`listening` lets a caller hear every step as it starts. Nothing here changes a result.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

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
