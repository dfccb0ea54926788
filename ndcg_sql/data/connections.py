"""DuckDB connections: those ndcg_sql opens, and how a call uses any of them.

* :func:`connect`: a new in-memory connection with a memory limit and a temp folder of its own
  (``tempfile.mkdtemp`` in the system's temp dir, or in ``temp_directory``) where DuckDB spills;
  the folder is removed when the connection is closed by :func:`close`, when it is collected,
  or at exit (``weakref.finalize``); with ``strict_memory_limit``, DuckDB's partitioned execution
  turned off (:data:`STRICT_MEMORY_OPTIMIZER`). A caller's connection keeps its own settings
  (threads excepted, when asked).
* :func:`turn`: one call at a time per connection (a call from another thread waits for its turn;
  DuckDB refuses a second statement on a busy connection).
* :func:`interruptible`: a statement run while the main thread waits, so that Ctrl-C (or a
  SIGTERM turned into an exception by the command line) interrupts it within a moment
  (``con.interrupt()``); DuckDB sees no signal while a statement runs. :func:`terminated_as_exit`
  turns SIGTERM into that exception for the command line.
* :class:`Leftovers`: the temp tables and views a result reads, dropped when it is closed or
  when its relations are collected.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import weakref
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

import duckdb

from ..vocabulary.errors import OptionError
from ..vocabulary.identifiers import quote
from ..vocabulary.parameters import DEFAULTS, MEMORY_LIMIT_RULE, MEMORY_SIZE, threads_problem, spoken

#: DuckDB memory_limit of a connection this package opens itself (the option memory_limit's default):
#: large logs then spill to disk instead of growing hash tables and sorts up to DuckDB's own default
#: (80 % of RAM). A 100M-row log (10 items a query) peaks at about 1.5 GB resident with it
#: (docs/performance.md, DuckDB's memory).
DEFAULT_MEMORY_LIMIT = DEFAULTS.memory_limit
#: The DuckDB optimizer strict_memory_limit turns off: partitioned execution splits a window partitioned by
#: a key whose row groups are sorted on it (Parquet min/max statistics) into a UNION of windows, one per range
#: of the key, and memory outside DuckDB's memory_limit grows with the number of ranges (docs/performance.md,
#: DuckDB's memory).
STRICT_MEMORY_OPTIMIZER = "partitioned_execution"
#: The temp folder removal of each connection :func:`connect` opened.
_folders: "weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, weakref.finalize]" = weakref.WeakKeyDictionary()
T = TypeVar("T")


def connect(memory_limit: str | None = DEFAULT_MEMORY_LIMIT, threads: int | None = None,
            temp_directory: str | os.PathLike | None = None,
            strict_memory_limit: bool = DEFAULTS.strict_memory_limit) -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB connection with ``memory_limit`` (e.g. "4GB"; None: DuckDB's default)
    that spills to a new folder of its own in ``temp_directory`` (None: the system's temp dir),
    removed when the connection is closed (:func:`close`) or collected, or at exit. With
    ``strict_memory_limit`` (a bool), :data:`STRICT_MEMORY_OPTIMIZER` is added to the connection's
    ``disabled_optimizers`` (ndcg_sql/vocabulary/parameters.py says what it does and costs).

    Raises:
        OptionError: a memory limit that is not a number with a unit (B, KB, MB, GB, TB, KiB, ...),
            threads that is not a positive integer or too many (:func:`set_threads`), a
            temp_directory where no folder can be made, a strict_memory_limit that is not a bool,
            or strict_memory_limit on a DuckDB without the optimizer it turns off.
    """
    check_connection_options(memory_limit, strict_memory_limit)
    config = {} if memory_limit is None else {"memory_limit": memory_limit.strip()}
    if strict_memory_limit:  # a new connection has no optimizer disabled yet: the setting is this one
        config["disabled_optimizers"] = STRICT_MEMORY_OPTIMIZER
    check_threads(threads)
    try:
        folder = tempfile.mkdtemp(prefix="ndcg_sql_", dir=temp_directory)
    except (OSError, TypeError) as error:
        raise OptionError(f"temp_directory must be an existing folder ndcg_sql may write in; got "
                          f"{temp_directory!r} ({getattr(error, 'strerror', None) or error})") from None
    try:
        con = duckdb.connect(config={**config, "temp_directory": folder})
    except BaseException as error:
        shutil.rmtree(folder, ignore_errors=True)
        if strict_memory_limit and isinstance(error, duckdb.ParserException) and "Optimizer type" in str(error):
            raise OptionError(f"strict_memory_limit turns off DuckDB's optimizer {STRICT_MEMORY_OPTIMIZER!r}, which "
                              f"DuckDB {duckdb.__version__} does not have; leave strict_memory_limit out") from None
        raise
    _folders[con] = weakref.finalize(con, shutil.rmtree, folder, ignore_errors=True)
    try:
        set_threads(con, threads)
    except BaseException:
        close(con)
        raise
    return con


def opened_here(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` is one :func:`connect` opened (the package's or the command line's own),
    not a connection the caller gave: then no table of the caller's can be meant by a name."""
    return con in _folders


def close(con: duckdb.DuckDBPyConnection) -> None:
    """Close a connection and remove the temp folder :func:`connect` gave it (errors ignored:
    it may be closed already)."""
    try:
        con.close()
    except duckdb.Error:
        pass
    removal = _folders.pop(con, None)
    if removal is not None:
        removal()


def check_threads(threads: int | None) -> None:
    """Raises OptionError unless None or a positive int of at most THREADS_PER_CORE per CPU core
    (the rule: :func:`ndcg_sql.vocabulary.parameters.threads_problem`)."""
    problem = threads_problem(threads)
    if problem:
        raise OptionError(f"threads {problem}")


def check_connection_options(memory_limit: str | None, strict_memory_limit: bool) -> None:
    """The options of a connection ndcg_sql opens itself, checked whether or not it opens one (a
    caller's ``con=`` ignores them, but a bad value is still refused before any work).

    Raises:
        OptionError: a memory limit that is not a number with a unit, or a strict_memory_limit not a bool.
    """
    if memory_limit is not None and (not isinstance(memory_limit, str) or not MEMORY_SIZE.match(memory_limit.strip())):
        raise OptionError(f"memory_limit {spoken(MEMORY_LIMIT_RULE, 'python')}; got {memory_limit!r}")
    if not isinstance(strict_memory_limit, bool):
        raise OptionError(f"strict_memory_limit must be True or False; got {strict_memory_limit!r}")


def set_threads(con: duckdb.DuckDBPyConnection, threads: int | None) -> None:
    """SET threads on a DuckDB connection (None: leave it). Raises OptionError as :func:`check_threads`."""
    check_threads(threads)
    if threads is not None:
        con.execute(f"SET threads = {int(threads)}")


class _Turns:
    """A connection's lock (one call at a time) and the drops waiting for it."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.pending: list[tuple[str, str]] = []


_turns: "weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, _Turns]" = weakref.WeakKeyDictionary()
_turns_lock = threading.Lock()


def _turns_of(con) -> _Turns:
    with _turns_lock:
        found = _turns.get(con)
        if found is None:
            found = _turns[con] = _Turns()
        return found


@contextmanager
def turn(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """The body is the only call of ours on ``con``: another thread's call waits until it ends
    (the same thread may nest). Drops put off while the connection was busy run at the end."""
    turns = _turns_of(con)
    with turns.lock:
        try:
            yield
        finally:
            pending = []
            while turns.pending:  # one at a time: a finalizer in another thread may add more
                pending.append(turns.pending.pop(0))
            _drop_now(con, pending, turns)


def interruptible(con: duckdb.DuckDBPyConnection, run: Callable[[], T]) -> T:
    """``run()`` (statements on ``con``), interrupted when the main thread gets an exception
    (Ctrl-C's KeyboardInterrupt, the command line's SIGTERM) while it runs: then
    ``con.interrupt()`` stops the statement, and the exception is raised once it has stopped.
    Off the main thread, which gets no signal, ``run()`` is simply called."""
    if threading.current_thread() is not threading.main_thread():
        return run()
    outcome: dict = {}
    phase = ["waiting"]  # -> "running" (the worker took it) or "cancelled" (the caller did, first)
    phase_lock = threading.Lock()
    finished = threading.Event()

    def work():
        with phase_lock:
            if phase[0] == "cancelled":  # the exception came before the thread ran: run nothing
                return
            phase[0] = "running"
        try:
            outcome["value"] = run()
        except BaseException as error:  # raised in the caller's thread below
            outcome["error"] = error
        finally:
            finished.set()

    # not a daemon: the interpreter never exits while a statement runs in C++ (a daemon thread would
    # be torn down there, which aborts the process); started inside the try, so an exception
    # arriving as it starts still interrupts it
    worker = threading.Thread(target=work, name="ndcg_sql statement", daemon=False)
    try:
        worker.start()
        worker.join()
    except BaseException:
        # the exception may come inside start(), when the thread exists but is not yet "alive":
        # whichever of the two takes the phase first decides whether the statement runs at all
        with phase_lock:
            running = phase[0] == "running"
            phase[0] = "cancelled"
        while running and not finished.is_set():  # interrupt until the statement has stopped
            con.interrupt()
            finished.wait(0.05)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@contextmanager
def terminated_as_exit() -> Iterator[None]:
    """While the body runs, SIGTERM is a SystemExit (status 143) in the main thread: the running
    statement is interrupted (:func:`interruptible`) and every cleanup runs (temp views dropped,
    the temp folders removed at exit). For the command line; off the main thread, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def exit_on(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, exit_on)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _drop_now(con, objects: list[tuple[str, str]], turns: _Turns) -> None:
    """Drop (kind, name) objects; those the connection is too busy for wait for its next turn."""
    for kind, name in objects:
        try:
            if kind == "VIEW":  # a registered Python frame is a view too, and unregistering lets it go
                con.unregister(name)
            con.execute(f"DROP {kind} IF EXISTS {quote(name)}")
        except duckdb.ResourceInUseException:
            turns.pending.append((kind, name))
        except duckdb.Error:  # closed, or gone already
            pass


def drop(con: duckdb.DuckDBPyConnection, objects: list[tuple[str, str]]) -> None:
    """Drop objects ("TABLE" or "VIEW", name) of ours now if no call of ours is
    running on ``con``, else when that call's turn ends (never waiting: this runs in finalizers)."""
    turns = _turns_of(con)
    if turns.lock.acquire(blocking=False):
        try:
            _drop_now(con, objects, turns)
        finally:
            turns.lock.release()
    else:
        turns.pending.extend(objects)


class Leftovers:
    """What a result leaves on a DuckDB connection: the temp tables and views its relations read,
    and, when it was opened for the result (``owned``), the connection itself. They go on
    :meth:`release`: called by the result's ``close()``, or once every relation :meth:`watch`
    follows has been collected."""

    def __init__(self, con: duckdb.DuckDBPyConnection, owned: bool = False):
        self.con = con
        self.owned = owned
        self.objects: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._watched = 0
        self._released = False

    def add(self, kind: str, name: str) -> None:
        """Keep ("TABLE" or "VIEW", name) until released."""
        self.objects.append((kind, name))

    def watch(self, *holders) -> None:
        """Release once all of these (DuckDB relations; other values are ignored) are collected."""
        for holder in holders:
            if isinstance(holder, duckdb.DuckDBPyRelation):
                with self._lock:
                    self._watched += 1
                weakref.finalize(holder, self._forget)

    def _forget(self) -> None:
        with self._lock:
            self._watched -= 1
            last = self._watched == 0
        if last:
            self.release()

    @property
    def released(self) -> bool:
        return self._released

    def release(self) -> None:
        """Drop the objects (and close an owned connection); once."""
        with self._lock:
            if self._released:
                return
            self._released = True
        if self.owned:
            close(self.con)
        else:
            drop(self.con, list(reversed(self.objects)))
