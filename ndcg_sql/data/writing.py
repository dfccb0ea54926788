"""Writing a user's file (a per-query CSV, a plot's PNG): the one way ndcg_sql does it.

An output is never one of the run's inputs (:func:`refuse_inputs`, before any work), and it is
written atomically (:func:`atomic`): into a temporary file in the output's folder, renamed over
the output (``os.replace``) only once complete. A failure or Ctrl-C leaves the previous file as
it was and removes the temporary file. An existing output that is not an input is replaced.
"""

from __future__ import annotations

import errno
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Mapping

import duckdb

from ..vocabulary.errors import OptionError

#: What makes an input a pattern (``logs/*/*.parquet``) rather than one file.
PATTERN_CHARACTERS = "*?["


def _files(given) -> list[str]:
    """The existing local files an input names: the file, or every file its pattern matches as
    DuckDB reads it (DuckDB's own glob: ``**``, names starting with a dot)."""
    if not isinstance(given, (str, os.PathLike)):
        return []  # a relation, a frame: no file of the user's
    text = os.fspath(given)
    if os.path.isfile(text):
        return [text]
    if "://" in text or not any(c in text for c in PATTERN_CHARACTERS):
        return []  # a table name, a remote store
    try:
        matched = duckdb.connect().execute("SELECT file FROM glob(?)", [text]).fetchall()
    except duckdb.Error:
        return []
    return [path for path, in matched if os.path.isfile(path)]


def refuse_inputs(outputs: Mapping[str, str | os.PathLike[str] | None], inputs: Iterable[object]) -> None:
    """Refuse an output that is one of the inputs (the same file, however named: a relative
    path, a symbolic or hard link, a file a pattern matches).

    Args:
        outputs: {how the output was given, e.g. "--per-query" or "output": its path (or None)}.
        inputs: the rankings and judgments read: paths, patterns such as ``logs/*/*.parquet``,
            or anything else (a table name, a relation, a frame), which names no file.

    Raises:
        OptionError: an output is an input; the message names both.
    """
    existing = {}
    for name, path in outputs.items():
        if path is not None and os.path.isfile(path):
            found = os.stat(path)
            existing[(found.st_dev, found.st_ino)] = (name, path)
    if not existing:
        return  # an output that does not exist yet is no input
    for given in inputs:
        if not isinstance(given, (str, os.PathLike)):
            continue  # a relation, a frame: no file of the user's
        for path in _files(given):
            found = os.stat(path)
            if (found.st_dev, found.st_ino) in existing:
                name, output = existing[(found.st_dev, found.st_ino)]
                same = "" if os.fspath(output) == path else f" {path},"
                how = "" if os.fspath(given) == path else f" (matched by {os.fspath(given)})"
                raise OptionError(f"{name} {os.fspath(output)} is{same} an input of this run{how}: "
                                  "an output never replaces an input; write it elsewhere")


def _failed(path, error: OSError) -> OSError:
    """``error`` naming the output it failed to write (the same OSError subclass, by errno)."""
    folder = os.path.dirname(os.fspath(path))
    if error.errno == errno.ENOENT and folder and not os.path.isdir(folder):  # the cause a user can act on: make the folder
        return OSError(error.errno, f"cannot write {os.fspath(path)}: its folder {folder} does not exist")
    return OSError(error.errno, f"cannot write {os.fspath(path)}: {error.strerror or error}")


def _new_file_mode() -> int:
    """The permissions a new file gets here (0666 less the umask), as ``open`` would give."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic(path, binary: bool = False):
    """A file handle whose content replaces ``path`` only when the body completes.

    The handle writes a temporary file in the folder of ``path`` (of its target, for a
    symbolic link: the link stays); on success it is flushed to disk and renamed over
    ``path``, keeping the permissions of the file it replaces. On any exception (Ctrl-C
    included) the temporary file is removed and ``path`` is left as it was. A ``path`` that
    exists and is no regular file (``/dev/stdout``, a pipe) is written in place.

    Args:
        path: the output (str or Path).
        binary: bytes (a PNG) rather than text (UTF-8, newlines as written).

    Raises:
        OSError: the file cannot be written (no such folder, no permission, a full disk);
            the message names ``path`` and the cause (an OSError of the body that names a
            file of its own passes unchanged).
    """
    mode, encoding, newline = ("wb", None, None) if binary else ("w", "utf-8", "")
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        # opened by the name given: /dev/stdout's target, a pipe, has no path of its own
        try:
            with open(path, mode, encoding=encoding, newline=newline) as handle:
                yield handle
        except OSError as error:
            if error.filename not in (None, os.fspath(path)):
                raise
            raise _failed(path, error) from error
        return
    target = os.path.realpath(path)
    try:
        permissions = os.stat(target).st_mode & 0o7777 if os.path.isfile(target) else _new_file_mode()
    except OSError as error:
        raise _failed(path, error) from error
    # named before it exists (as tempfile.mkstemp names it, but outside it): a Ctrl-C or SIGTERM
    # arriving as the file is created still finds its name in the cleanup below
    named = os.path.join(os.path.dirname(target), f".{Path(target).name}.{secrets.token_hex(6)}.tmp")
    ours: str | None = named  # removed on the way out, unless another's
    try:
        try:
            descriptor = os.open(named, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            ours = None
            raise
        with os.fdopen(descriptor, mode, encoding=encoding, newline=newline) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(named, permissions)
        os.replace(named, target)
    except OSError as error:
        if error.filename not in (None, named):
            raise
        raise _failed(path, error) from error
    finally:
        if ours is not None and os.path.lexists(ours):
            os.unlink(ours)
