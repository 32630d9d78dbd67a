"""The scratch copy ``check`` compiles, and TeX run in it under arXiv-like limits.

* Only regular files are copied (arXiv drops symlinks; a FIFO or a device has no place in
  an upload), at most 50 MB in all and nothing a tool would run as code
  (:mod:`pith_tex.check.safecopy`): the others are returned by :func:`copy_upload`, to be named.  Dot files and
  what TeX wrote for the main job (``main.aux``, ``main.log``, ...) are left out, so a stale
  build in DIR cannot hide what a fresh upload would show.
* TeX's terminal output goes to a file, not to memory; TeX is stopped (its whole process
  group) when that file or the job's log grows past :data:`pith_tex.check.bounded.OUTPUT_CAP`, or when the time
  budget runs out.
* The scratch directory is removed whatever happens: on return, on an exception, and on
  SIGTERM (turned into :class:`SystemExit` while it exists).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from typing import Any, Dict, Iterator, List, Optional

from ..sourcetree import SourceTree
from .safecopy import Budget, Refused, code_file, copy_file

#: What LaTeX writes for a job, never part of an upload.
JOB_OUTPUTS = (".aux", ".log", ".out", ".toc", ".lof", ".lot", ".pdf", ".dvi", ".ps", ".fls",
               ".fdb_latexmk", ".synctex.gz", ".blg", ".bcf", ".run.xml", ".nav", ".snm",
               ".vrb", ".xmpi", ".xdv")


#: The signals that end ``check`` with its clean-up (Ctrl-C is Python's KeyboardInterrupt).
ENDING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def scratch(prefix: str = "pith-check-") -> Iterator[str]:
    """A fresh temporary directory, removed on exit, on error, on SIGTERM and on SIGHUP
    (the terminal closed, the ssh connection lost: Python's default for SIGHUP ends it
    with no clean-up, and LaTeXML, TeX, in their own sessions, ran on with the
    directory left)."""
    path = tempfile.mkdtemp(prefix=prefix)
    previous: Dict[int, Any] = {}
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        def on_term(signum: int, _frame: Any) -> None:
            raise SystemExit(128 + signum)

        for sig in ENDING:
            old = signal.getsignal(sig)
            if old is not signal.SIG_IGN:  # nohup: left ignored
                previous[sig] = signal.signal(sig, on_term)
    try:
        yield path
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        shutil.rmtree(path, ignore_errors=True)


def copy_upload(directory: str, dest: str, job: str, budget: Optional[Budget] = None,
                tree: Optional[SourceTree] = None) -> List[Refused]:
    """Copy the regular files of *directory* to *dest* (see the module docstring), at
    most :data:`COPY_CAP` bytes in all; return the entries refused (links, devices, files
    tools would run as code (:func:`code_file`), files past the cap).  *tree*: the
    directory as check listed it (default: listed here)."""
    budget = budget or Budget()
    refused: List[Refused] = []
    outputs = {job + ext for ext in JOB_OUTPUTS}
    for root, dirs, files in (tree or SourceTree(directory)).walk():
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
            rel = os.path.normpath(os.path.join(rel_root, n))
            if rel in outputs:
                continue
            code = code_file(n)
            if code is not None:
                refused.append(Refused(rel, code))
                continue
            why = copy_file(os.path.join(root, n), os.path.join(dest, rel), budget)
            if why is not None:
                refused.append(Refused(rel, why))
    return refused
