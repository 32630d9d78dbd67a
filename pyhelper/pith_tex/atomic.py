"""Atomic file replacement, shared by the include writer, the cache, ``check --fix`` and
``check --tarball``.

:func:`write_atomic` replaces *path* with new bytes so that *path* always holds either
the old file or the whole new one:

* *path* must be a new path or an existing **regular** file (:func:`check_target`): a
  device node, FIFO, socket, directory or symlink is refused before anything is created
  (``os.replace`` would otherwise swap ``/dev/null`` for a regular file, and a symlink's
  target is someone else's file);
* the new file gets mode ``0644 & ~umask``, never the old file's mode (no setuid or
  exec bit carried over from whatever was there);
* the bytes go to an unnamed ``O_TMPFILE`` in the target's directory (Linux), which is
  given a name (``.NAME.XXXX.tmp``) only once it is complete and fsynced, just before
  the ``os.replace``; elsewhere, or when the filesystem has no ``O_TMPFILE``, to a
  ``mkstemp`` file of that name;
* on any error, and on SIGTERM, SIGINT or SIGHUP, the temp file is removed and the old
  file is untouched; the signal is then delivered again with its previous handler
  (SIGTERM kills the process as it would have, SIGINT raises ``KeyboardInterrupt``).

What SIGKILL (or a power cut) can leave: with ``O_TMPFILE``, nothing while the bytes
are written; a ``.NAME.XXXX.tmp`` only if the kill lands between the ``link`` and the
``rename`` (two system calls).  Without ``O_TMPFILE``, a ``.NAME.XXXX.tmp`` for as long
as the write lasts.  The old file is intact in every case.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import tempfile
import threading
from types import FrameType
from typing import Any, Callable, Dict, List, Optional, Tuple

from .safeio import NotRegularFile, describe_mode

Writer = Callable[[int, memoryview], int]

#: Signals that remove the temp file before the process goes.
CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                        if hasattr(signal, name))


def new_file_mode() -> int:
    """``0644 & ~umask``: the mode of every file pith-tex writes."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o644 & ~mask


def check_target(path: str) -> Optional[os.stat_result]:
    """``lstat`` of an existing regular file at *path*, None for a new path;
    :class:`~pith_tex.safeio.NotRegularFile` for anything else (a symlink too: it is not
    followed, and never replaced by a file)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path, describe_mode(st.st_mode))
    return st


class _Signalled(BaseException):
    """A cleanup signal arrived while a temp file existed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _SignalGuard:
    """While active (main thread only), SIGTERM/SIGINT/SIGHUP raise :class:`_Signalled`
    (once; later ones are only remembered), so that ``except``/``finally`` cleanup runs.
    On exit the old handlers are back and a caught signal is raised again with them."""

    def __init__(self) -> None:
        self.old: Dict[int, Any] = {}
        self.pending: Optional[int] = None

    def _handler(self, signum: int, frame: Optional[FrameType]) -> None:
        if self.pending is None:
            self.pending = signum
            raise _Signalled(signum)

    def __enter__(self) -> "_SignalGuard":
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum in CLEANUP_SIGNALS:
            current = signal.getsignal(signum)
            # an ignored signal stays ignored; a caller's own handler stays in charge
            if current in (signal.SIG_DFL, signal.default_int_handler):
                self.old[signum] = current
                signal.signal(signum, self._handler)
        return self

    def __exit__(self, typ: Any, exc: Any, tb: Any) -> None:
        for signum, handler in self.old.items():
            signal.signal(signum, handler)
        if self.pending is not None:
            signum = self.pending
            signal.raise_signal(signum)  # SIG_DFL: the process ends here, as it would have
            raise SystemExit(128 + signum)  # a handler that returned: still stop


def _named_temp(directory: str, base: str) -> Tuple[int, str]:
    return tempfile.mkstemp(prefix="." + base + ".", suffix=".tmp", dir=directory)


def _anonymous_temp(directory: str) -> Optional[int]:
    """An unnamed ``O_TMPFILE`` in *directory*, or None where there is none."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag:
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as e:
        if e.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOTSUP):
            return None
        raise


def _give_name(fd: int, directory: str, base: str) -> Optional[str]:
    """Link the ``O_TMPFILE`` *fd* into *directory* as ``.BASE.XXXX.tmp``; None when it
    cannot be linked (no ``/proc``), so the caller writes a named temp file instead."""
    dfd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for _ in range(100):
            name = ".%s.%s.tmp" % (base, os.urandom(6).hex())
            try:
                # linkat(AT_SYMLINK_FOLLOW) of /proc/self/fd/N: a dir_fd makes os.link
                # use linkat, so that follow_symlinks is honoured
                os.link("/proc/self/fd/%d" % fd, name, dst_dir_fd=dfd, follow_symlinks=True)
            except FileExistsError:
                continue
            except OSError as e:
                if e.errno in (errno.ENOENT, errno.EXDEV, errno.EPERM, errno.EACCES,
                               errno.ENOTSUP, errno.EOPNOTSUPP):
                    return None
                raise
            return os.path.join(directory, name)
        raise FileExistsError(errno.EEXIST, "no free temp file name", directory)
    finally:
        os.close(dfd)


def _write_all(fd: int, data: bytes, write: Writer) -> None:
    view = memoryview(data)
    while view:
        n = write(fd, view)
        if not n:
            raise OSError(errno.EIO, "short write")
        view = view[n:]


def write_atomic(path: str, data: bytes, *, write: Writer = os.write,
                 fsync: Callable[[int], None] = os.fsync, anonymous: bool = True) -> None:
    """Replace *path* with *data* atomically (see the module docstring).

    Raises :class:`~pith_tex.safeio.NotRegularFile` when *path* exists and is not a
    regular file, and :class:`OSError` on a write failure; in both cases *path* and its
    directory are as they were.  *write* and *fsync* are injection points for tests
    (e.g. a writer raising ENOSPC); ``anonymous=False`` skips ``O_TMPFILE``.
    """
    write_atomic_with(path, lambda fd: _write_all(fd, data, write), fsync=fsync,
                      anonymous=anonymous)


def write_atomic_with(path: str, fill: Callable[[int], None], *,
                      fsync: Callable[[int], None] = os.fsync,
                      anonymous: bool = True) -> None:
    """:func:`write_atomic` for bytes too many to hold: *fill* writes them to the
    descriptor it is given (a new, empty temp file; it may be called a second time, on a
    new one, when the ``O_TMPFILE`` cannot be named).  ``check --tarball`` writes its
    tarball this way, as ``fetch`` writes the include."""
    path = os.path.abspath(path)
    directory, base = os.path.split(path)
    check_target(path)
    mode = new_file_mode()
    temps: List[str] = []  # the named temp file, once there is one
    fd = -1
    with _SignalGuard():
        try:
            anon = _anonymous_temp(directory) if anonymous else None
            if anon is None:
                fd, tmp = _named_temp(directory, base)
                temps.append(tmp)
            else:
                fd = anon
            fill(fd)
            os.fchmod(fd, mode)
            fsync(fd)
            if not temps:
                named = _give_name(fd, directory, base)
                if named is None:  # no /proc: start again with a named temp file
                    os.close(fd)
                    fd = -1
                    fd, tmp = _named_temp(directory, base)
                    temps.append(tmp)
                    fill(fd)
                    os.fchmod(fd, mode)
                    fsync(fd)
                else:
                    temps.append(named)
            os.close(fd)
            fd = -1
            os.replace(temps[0], path)
            temps.clear()
        except BaseException:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
            for tmp in temps:
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
