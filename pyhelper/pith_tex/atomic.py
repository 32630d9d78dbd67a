"""Atomic file replacement, shared by the include writer and the cache."""

from __future__ import annotations

import os
import tempfile
from typing import Callable

Writer = Callable[[int, memoryview], int]


def write_atomic(path: str, data: bytes, *, write: Writer = os.write,
                 fsync: Callable[[int], None] = os.fsync) -> None:
    """Replace *path* with *data* atomically: temp file in the same directory, fsync,
    ``os.replace``.  On any failure the old file is untouched and the temp file removed.

    *write* and *fsync* are injection points for tests (e.g. a writer raising ENOSPC).
    """
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=directory)
    try:
        view = memoryview(data)
        while view:
            n = write(fd, view)
            if not n:
                raise OSError("short write")
            view = view[n:]
        fsync(fd)
        os.fchmod(fd, mode)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename durable; not every filesystem allows fsync on a directory
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


