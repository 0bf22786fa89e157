"""The results file: JSON lines appended one record at a time, each flushed and fsynced before the next.

A run killed mid-write can leave a torn last line; ``repair_tail`` cuts it off (or completes it when the
record is whole and only its newline is missing) so the file stays valid JSONL and the photo is scored again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from mjsnap import jsontext


class JournalError(ValueError):
    """The results file is damaged somewhere other than its last line (not something a kill leaves)."""


@dataclass(frozen=True)
class TailRepair:
    """What ``repair_tail`` did: bytes dropped from a torn last line, or a newline added to a whole one."""

    dropped_bytes: int = 0
    completed_line: bool = False

    @property
    def changed(self) -> bool:
        return self.dropped_bytes > 0 or self.completed_line


def _is_record(value: Any) -> bool:
    """A photo record's shape, as far as a resume plans by it: its path and status, as text."""
    return isinstance(value, dict) and isinstance(value.get("path"), str) and isinstance(value.get("status"), str)


def _parsed(line: bytes) -> Any:
    return jsontext.loads(line.decode("utf-8"))  # UTF-8, as written: json would guess UTF-16 from stray bytes


def repair_tail(path: Path) -> TailRepair:
    """Make the file end with a complete line; returns what was changed (nothing for a sound file)."""
    if not path.exists():
        return TailRepair()
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return TailRepair()
    start = data.rfind(b"\n") + 1
    tail = data[start:]
    with path.open("r+b") as handle:
        try:
            whole = _is_record(_parsed(tail))
        except ValueError:
            whole = False
        if whole:
            handle.seek(0, os.SEEK_END)
            handle.write(b"\n")
            repair = TailRepair(completed_line=True)
        else:
            handle.truncate(start)
            repair = TailRepair(dropped_bytes=len(tail))
        handle.flush()
        os.fsync(handle.fileno())
    return repair


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """Every record in file order. A torn last line is skipped; damage anywhere else raises JournalError."""
    if not path.exists():
        return
    with path.open("rb") as handle:  # line by line: a results file of many photos is not read whole
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = _parsed(line)
            except ValueError as exc:
                if not line.endswith(b"\n"):  # no newline after it: the torn write of a killed run
                    continue
                raise JournalError(f"{path}, line {number}: not a JSON record ({exc})") from exc
            if not _is_record(record):  # another file given as --out: refused, not planned by (a path 5 crashed)
                raise JournalError(f"{path}, line {number}: not a photo record")
            yield record


def latest_by_path(path: Path, keep: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """The last record of each photo path (a retried photo has more than one), in first-seen order; ``keep`` makes
    each record into what is kept of it (of a results file of many photos, not every record whole)."""
    latest: dict[str, dict[str, Any]] = {}
    for record in iter_records(path):
        latest[record["path"]] = keep(record) if keep is not None else record
    return latest


class JournalWriter:
    """Appends records durably: one write, flush and fsync per record."""

    def __init__(self, path: Path):
        self.path = path
        self._handle: IO[bytes] | None = None

    def __enter__(self) -> JournalWriter:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        created = not self.path.exists()
        self._handle = self.path.open("ab")
        if created:  # make the new directory entry itself durable
            dir_fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def append(self, record: dict[str, Any]) -> None:
        if self._handle is None:
            raise RuntimeError("JournalWriter.append outside its `with` block")
        line = jsontext.dumps(record, separators=(",", ":")) + "\n"
        self._handle.write(line.encode("utf-8"))
        self._handle.flush()
        os.fsync(self._handle.fileno())
