"""One batch run at a time per results file. Two runs on the same --out (a second terminal, a cron job that
overlaps) would score photos twice, and one's tail repair could cut the line the other is writing; the second is
refused instead, saying which process holds the file.

The lock is an flock on a hidden file beside --out (``.results.jsonl.lock``): the kernel drops it when its holder
dies, so a killed run leaves no stale lock, and the file is removed when a run ends. The folders made for it are
removed too when the run leaves them empty (it could not start: an input that names nothing, a Ray cluster that
cannot be joined), so such a run writes nothing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mjsnap.batch.errors import BatchError
from mjsnap.locks import flock


def lock_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.lock")


@contextmanager
def holding(out: Path) -> Iterator[None]:
    """Hold ``out``'s lock for the block; BatchError when another run holds it."""
    path = lock_path(Path(out))
    made = _missing_folders(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if not flock(fd, wait=False):
            holder = os.read(fd, 64).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise BatchError(f"{out} is being written by another mjsnap batch run{who}: let it finish (or stop it), "
                             f"or write to another --out") from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the run that held it removed it as we opened it: take the one there now
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        yield
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.close(fd)
        for folder in made:  # deepest first; one that holds anything (the results, another run's lock) stays
            try:
                folder.rmdir()
            except OSError:
                break


def _missing_folders(folder: Path) -> list[Path]:
    """``folder`` and those above it that do not exist yet, deepest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing
