"""mjsnap.locks: exclusive flocks between commands; a file system without flock runs unlocked, not refused."""

from __future__ import annotations

import errno
import fcntl
import os

import pytest

from mjsnap import locks


def test_a_second_holder_is_told_the_lock_is_taken(tmp_path):
    first, second = (os.open(tmp_path, os.O_RDONLY) for _ in range(2))
    try:
        assert locks.flock(first, wait=False)
        assert not locks.flock(second, wait=False)  # flocks belong to open files: even in one process
        os.close(first)
        first = -1
        assert locks.flock(second, wait=False)  # free once its holder is gone
    finally:
        for fd in (first, second):
            if fd >= 0:
                os.close(fd)


@pytest.mark.parametrize(("code", "goes_on"), [(errno.ENOLCK, True), (errno.EOPNOTSUPP, True), (errno.EIO, False)])
def test_a_file_system_without_flock_runs_unlocked(tmp_path, monkeypatch, code, goes_on):
    def no_flock(fd, operation):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fcntl, "flock", no_flock)
    if goes_on:
        with locks.holding_folder(tmp_path):
            (tmp_path / "written").write_text("ok")
        assert (tmp_path / "written").read_text() == "ok"
    else:  # a real error is not taken for a missing feature
        with pytest.raises(OSError), locks.holding_folder(tmp_path):
            pass
