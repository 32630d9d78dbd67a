"""Reading files that may be hostile: regular files only, every read capped.

Whatever a path names (a FIFO, a device node, a socket, a symlink to ``/dev/zero``, a
300 MB "record"), pith-tex must neither block nor read without bound.  Every read of a
file goes through :func:`read_regular`:

* the path is ``stat``-ed first and anything but a regular file is refused *before it is
  opened* (opening a device can have side effects; opening a FIFO for reading blocks
  until a writer appears);
* it is then opened with ``O_NONBLOCK`` (a FIFO swapped in after the ``stat`` still
  cannot block the ``open``), ``O_NOCTTY`` and, where a symlink must not be followed,
  ``O_NOFOLLOW``, and ``fstat``-ed: it must be the same regular file that was checked;
* at most *cap* bytes are read (a file that grows while it is read is caught too).

The caps, in one place:

====================  =========  ==================================================
:data:`MAX_JSON`      1 MiB      resolver JSON and bundles (disk, HTTP, mirror)
:data:`MAX_CACHE`     1 MiB      an entry of the record cache
:data:`MAX_INCLUDE`   1 MiB      ``pith-number.tex`` (about 3 KiB when well formed)
:data:`MAX_TEX`       8 MiB      a ``.tex``/``.sty`` file read to find ``\\pithnumber``
====================  =========  ==================================================

(A Paper Citation Record states its own cap, ``pith_tex.citations.record.MAX_RECORD``, and is
read through the same :func:`read_regular`.)

This is a bottom module: it imports nothing from pith_tex.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Optional, Tuple

MIB = 1 << 20
MAX_JSON = MIB
MAX_CACHE = MIB
MAX_INCLUDE = MIB
MAX_TEX = 8 * MIB


def describe_mode(mode: int) -> str:
    """What a non-regular file is, for a message ("a FIFO (named pipe)", ...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


class NotRegularFile(OSError):
    """*path* is a FIFO, device, socket, directory or (where not followed) a symlink.

    An :class:`OSError` so that every caller that already reports unreadable files
    (``e.strerror``) reports these too; :attr:`kind` is :func:`describe_mode`'s text.
    """

    def __init__(self, path: str, kind: str) -> None:
        code = errno.EISDIR if kind == "a directory" else errno.EINVAL
        super().__init__(code, "%s, not a regular file" % kind, path)
        self.kind = kind


class FileTooLarge(OSError):
    """A regular file larger than the cap for its kind."""

    def __init__(self, path: str, cap: int) -> None:
        super().__init__(errno.EFBIG, "larger than %s" % format_size(cap), path)
        self.cap = cap


def format_size(n: int) -> str:
    return "%d MiB" % (n >> 20) if n % MIB == 0 else "%d bytes" % n


def check_regular(path: str, *, follow_symlinks: bool = True) -> os.stat_result:
    """The ``stat`` of *path* when it is a regular file; :class:`NotRegularFile` else
    (``FileNotFoundError`` and other :class:`OSError` pass through).  Nothing is opened."""
    st = os.stat(path) if follow_symlinks else os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path, describe_mode(st.st_mode))
    return st


_OPEN_FLAGS = (os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0))


def open_regular(path: str, *, follow_symlinks: bool = True) -> int:
    """A read-only descriptor of the regular file *path* (see the module docstring)."""
    return _open_regular(path, follow_symlinks)[0]


def _open_regular(path: str, follow_symlinks: bool) -> Tuple[int, os.stat_result]:
    """:func:`open_regular`, and the ``fstat`` of what it opened."""
    before = check_regular(path, follow_symlinks=follow_symlinks)
    flags = _OPEN_FLAGS if follow_symlinks else _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow_symlinks:
            raise NotRegularFile(path, "a symbolic link") from e
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, describe_mode(st.st_mode))
        if (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            raise OSError(errno.EAGAIN, "the file was replaced while it was opened", path)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_fd_capped(fd: int, cap: int, size: Optional[int] = None) -> Optional[bytes]:
    """At most *cap* bytes from *fd*, or None when there are more (sized with ``fstat``
    unless *size* is given, so a small file costs one read and no *cap*-sized buffer)."""
    if size is None:
        size = os.fstat(fd).st_size
    if size > cap:
        return None
    first = os.read(fd, size + 1)
    if len(first) == size:  # the usual case: the whole file in one read
        return first
    chunks = [first]
    total = len(first)
    if total > cap:
        return None
    while first:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        total += len(chunk)
        if total > cap:
            return None
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_regular(path: str, cap: int, *, follow_symlinks: bool = True) -> Optional[bytes]:
    """The bytes of the regular file *path*, or None when it is larger than *cap*.

    Raises :class:`NotRegularFile` for anything but a regular file (and, with
    ``follow_symlinks=False``, for a symlink), ``FileNotFoundError`` and the other
    :class:`OSError` of ``open``/``read``.
    """
    fd, st = _open_regular(path, follow_symlinks)
    try:
        return read_fd_capped(fd, cap, st.st_size)
    finally:
        os.close(fd)


def read_regular_or_raise(path: str, cap: int, *, follow_symlinks: bool = True) -> bytes:
    """:func:`read_regular`, with :class:`FileTooLarge` instead of None."""
    data = read_regular(path, cap, follow_symlinks=follow_symlinks)
    if data is None:
        raise FileTooLarge(path, cap)
    return data


def read_tex(path: str, cap: int = MAX_TEX) -> str:
    """The text of a TeX file (source, package or log); undecodable bytes replaced.

    Raises :class:`OSError`: :class:`NotRegularFile` for a FIFO, device, socket or
    directory (refused before it is opened), :class:`FileTooLarge` beyond *cap*
    (8 MiB: :data:`MAX_TEX`).
    """
    return read_regular_or_raise(path, cap).decode("utf-8", "replace")
