"""File formats: by name, or from a file's ending (a TREC file otherwise)."""

from __future__ import annotations

from .errors import InputError
from .parameters import FORMATS

SUFFIXES = {
    ".parquet": "parquet", ".pq": "parquet",
    ".csv": "csv", ".tsv": "csv", ".csv.gz": "csv", ".tsv.gz": "csv",
    ".json": "json", ".jsonl": "json", ".ndjson": "json", ".json.gz": "json",
}


def file_format(path: str, role: str, given: str | None = None) -> str:
    """The format of ``path``: ``given`` if set, else from its ending.

    Files with another ending (``.txt``, ``.run``, ``.qrels``, none) are read as TREC run
    files when ``role`` is "run" and as TREC qrels for "judgments".

    Raises:
        InputError: ``given`` is not one of :data:`ndcg_sql.parameters.FORMATS`.
    """
    if given is not None:
        if given not in FORMATS:
            raise InputError(f"unknown input format {given!r}; use one of {', '.join(FORMATS)}")
        return given
    name = path.lower()
    for suffix, fmt in sorted(SUFFIXES.items(), key=lambda item: -len(item[0])):
        if name.endswith(suffix):
            return fmt
    return "trec-run" if role == "run" else "trec-qrels"
