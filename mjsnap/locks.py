"""Exclusive locks between mjsnap processes and threads, as flocks: the kernel drops one when its holder dies, so a
killed command leaves none behind. On a file system without flock (some network mounts) the work goes on unlocked:
refusing would stop every command there, to guard against a race that needs two of them at once."""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_NO_FLOCK = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EINVAL, errno.ENOSYS})


def flock(fd: int, *, wait: bool = True) -> bool:
    """Take an exclusive flock on ``fd``; False when another holds it and ``wait`` is False."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError as exc:
        if exc.errno not in _NO_FLOCK:
            raise
    return True


@contextmanager
def holding_folder(folder: Path) -> Iterator[None]:
    """Hold an exclusive flock on ``folder`` itself (no lock file is added to it), waiting for another holder."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        flock(fd)
        yield
    finally:
        os.close(fd)  # releases the lock


def file_stamp(path: Path) -> tuple[int, int] | None:
    """Which version of a file is at ``path``: its inode and modification time (a file replaced by os.replace or a
    folder swap gets a new inode, one rewritten a new time); None where there is none. Compared before and after a
    step, it tells whether another process changed the file meanwhile."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return stat.st_ino, stat.st_mtime_ns
