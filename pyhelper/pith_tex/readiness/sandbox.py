"""The scratch copy ``check`` compiles, and TeX run in it under arXiv-like limits.

* Only regular files are copied (arXiv drops symlinks; a FIFO or a device has no place in
  an upload): the others are returned by :func:`copy_upload`, to be named.  Dot files and
  what TeX wrote for the main job (``main.aux``, ``main.log``, ...) are left out, so a stale
  build in DIR cannot hide what a fresh upload would show.
* TeX's terminal output goes to a file, not to memory; TeX is stopped (its whole process
  group) when that file or the job's log grows past :data:`OUTPUT_CAP`, or when the time
  budget runs out.
* The scratch directory is removed whatever happens: on return, on an exception, and on
  SIGTERM (turned into :class:`SystemExit` while it exists).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

#: The most TeX may write to the terminal, and to its log, in one run.
OUTPUT_CAP = 20 * 1024 * 1024
#: What LaTeX writes for a job, never part of an upload.
JOB_OUTPUTS = (".aux", ".log", ".out", ".toc", ".lof", ".lot", ".pdf", ".dvi", ".ps", ".fls",
               ".fdb_latexmk", ".synctex.gz", ".blg", ".bcf", ".run.xml", ".nav", ".snm",
               ".vrb", ".xmpi", ".xdv")


@contextlib.contextmanager
def scratch(prefix: str = "pith-check-") -> Iterator[str]:
    """A fresh temporary directory, removed on exit, on error and on SIGTERM."""
    path = tempfile.mkdtemp(prefix=prefix)
    previous: Any = None
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        def on_term(signum: int, _frame: Any) -> None:
            raise SystemExit(128 + signum)

        previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield path
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(path, ignore_errors=True)


class Refused(NamedTuple):
    path: str  # relative to DIR
    why: str


def copy_upload(directory: str, dest: str, job: str) -> List[Refused]:
    """Copy the regular files of *directory* to *dest* (see the module docstring);
    return the entries refused."""
    refused: List[Refused] = []
    outputs = {job + ext for ext in JOB_OUTPUTS}
    for root, dirs, files in os.walk(directory):
        rel_root = os.path.relpath(root, directory)
        keep = []
        for d in sorted(dirs):
            full = os.path.join(root, d)
            rel = os.path.normpath(os.path.join(rel_root, d))
            if d.startswith(".") or d == "__pycache__":
                continue
            if os.path.islink(full):
                refused.append(Refused(rel, "a symbolic link (arXiv drops links)"))
                continue
            keep.append(d)
        dirs[:] = keep
        os.makedirs(os.path.join(dest, rel_root), exist_ok=True)
        for n in sorted(files):
            if n.startswith("."):
                continue
            full = os.path.join(root, n)
            rel = os.path.normpath(os.path.join(rel_root, n))
            if rel in outputs:
                continue
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                refused.append(Refused(rel, "a symbolic link (arXiv drops links)"))
                continue
            if not stat.S_ISREG(st.st_mode):
                refused.append(Refused(rel, "not a regular file"))
                continue
            shutil.copyfile(full, os.path.join(dest, rel), follow_symlinks=False)
    return refused


class Run(NamedTuple):
    returncode: Optional[int]  # None: stopped by pith-tex
    stopped: Optional[str]  # why it was stopped: "time" | "output" | None
    output: str  # the end of TeX's terminal output


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _tail(path: str, limit: int = 16384) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, _size(path) - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def run_limited(cmd: List[str], cwd: str, env: Dict[str, str], deadline: float,
                output_file: str, watch: Tuple[str, ...] = ()) -> Run:
    """Run *cmd* in its own process group with stdout and stderr in *output_file*; stop
    the group at the monotonic *deadline* or when *output_file* or a *watch* file (the
    job's log) exceeds :data:`OUTPUT_CAP`."""
    with open(output_file, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        stopped: Optional[str] = None
        try:
            while True:
                try:
                    proc.wait(timeout=0.1)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if time.monotonic() >= deadline:
                    stopped = "time"
                elif any(_size(p) > OUTPUT_CAP for p in (output_file,) + watch):
                    stopped = "output"
                if stopped is not None:
                    break
        finally:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return Run(None if stopped else proc.returncode, stopped, _tail(output_file))
