"""Copying a paper's files into a scratch directory without trusting them.

Shared by ``check``'s compile copy (:mod:`pith_tex.check.sandbox`) and LaTeXML's
copy (:mod:`pith_tex.check.html`):

* regular files only, opened without following a link and without blocking, the same
  file that was ``lstat``-ed, written to a new file (``O_EXCL``, never through a link);
* at most :data:`COPY_CAP` bytes in all (:class:`Budget`), each file charged the larger
  of its size and the blocks it holds, and never more read than was charged;
* nothing a tool would run as code (:func:`code_file`).

This is a bottom module: it imports nothing from pith_tex.
"""

from __future__ import annotations

import os
import stat
from typing import List, NamedTuple, Optional


class Refused(NamedTuple):
    path: str  # relative to the paper's directory
    why: str


#: The most ``check`` copies of a paper, in all, counted per file as the larger of its
#: size and the blocks it takes on disk: arXiv's limit on an upload (50 MB), so that a
#: sparse 4 GiB file cannot become 4 GiB of scratch copies.
COPY_CAP = 50 * 1000 * 1000

#: Files LaTeXML runs as Perl when it finds them beside the paper (``X.sty.ltxml`` for
#: ``\usepackage{X}``, ``X.latexml`` before ``X.tex``): arXiv's HTML conversion would.
BINDINGS = (".ltxml", ".latexml")
#: Other files a tool of ``check`` takes as code from the paper's directory: LaTeXML's
#: post-processing takes ``LaTeXML-html5.xsl`` from there (XSLT can write files), and
#: TeX takes ``pdflatex.fmt`` from there (``TEXFORMATS`` starts with ``.``) in place of
#: TeX Live's format.  (``texmf.cnf`` is not read from there; ``latexmkrc``, ``.lua`` and
#: Perl scripts are run by no tool ``check`` runs: arXiv runs none of them either.)
CODE_FILES = BINDINGS + (".xsl", ".xslt", ".fmt")


def code_file(name: str) -> Optional[str]:
    """Why a tool of ``check`` would run the file *name* as code, or None."""
    low = name.lower()
    if low.endswith(BINDINGS):
        return ("a LaTeXML binding: Perl, which LaTeXML runs when it converts the paper "
                "(arXiv's HTML view would run it): remove it")
    if low.endswith((".xsl", ".xslt")):
        return ("an XSLT stylesheet, which LaTeXML's post-processing takes from the "
                "paper's directory (and XSLT can write files): remove it")
    if low.endswith(".fmt"):
        return ("a TeX format, which TeX loads from the paper's directory in place of "
                "TeX Live's own: remove it")
    return None


def _charge(st: os.stat_result) -> int:
    """What copying a file costs: its size, or the blocks it holds if more."""
    return max(st.st_size, getattr(st, "st_blocks", 0) * 512)


def _mb(n: int) -> str:
    return "%.1f MB" % (n / 1e6)


def _too_big(st: os.stat_result) -> str:
    blocks = getattr(st, "st_blocks", 0) * 512
    sparse = (" (a sparse file, %s on disk)" % _mb(blocks)
              if blocks < st.st_size - (1 << 20) else "")
    alone = max(st.st_size, blocks) > COPY_CAP
    return ("%s%s: %s more than the %d MB arXiv takes for a whole upload; not copied, so "
            "not checked" % (_mb(st.st_size), sparse, "alone" if alone
                             else "with the files before it,", COPY_CAP // 1000000))


class Budget:
    """The bytes ``check`` may still copy (:data:`COPY_CAP`), shared by its copies."""

    def __init__(self, cap: int = COPY_CAP) -> None:
        self.left = cap


def copy_file(src: str, dst: str, budget: Budget) -> Optional[str]:
    """Copy the regular file *src* (never through a link, never blocking) to the new file
    *dst*, charged to *budget*; why it was not copied, or None."""
    try:
        st = os.lstat(src)
    except OSError as e:
        return "unreadable (%s)" % (e.strerror or e)
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link (arXiv drops links)"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if _charge(st) > budget.left:
        return _too_big(st)
    flags = (os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    fd = os.open(src, flags)
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            return "replaced while it was copied"
        out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                      | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            # Never more than was charged: a file that grows while it is read is cut.
            room = max(_charge(now), 0)
            while room > 0:
                chunk = os.read(fd, min(1 << 20, room))
                if not chunk:
                    break
                os.write(out, chunk)
                room -= len(chunk)
        finally:
            os.close(out)
        budget.left -= _charge(now)
    finally:
        os.close(fd)
    return None


def copy_listed(directory: str, names: List[str], dest: str,
                budget: Optional[Budget] = None) -> List[Refused]:
    """Copy exactly the files *names* (relative to *directory*: the upload list) to a new
    tree *dest*, nothing a tool would run as code, within *budget*; the ones refused."""
    budget = budget or Budget()
    refused: List[Refused] = []
    for rel in names:
        parts = rel.split(os.sep)
        if os.path.isabs(rel) or ".." in parts or any(p.startswith(".") for p in parts):
            refused.append(Refused(rel, "not a name inside the upload"))
            continue
        code = code_file(rel)
        if code is not None:
            refused.append(Refused(rel, code))
            continue
        # Each directory on the way is checked: a link swapped in is not followed.
        here = directory
        for p in parts[:-1]:
            here = os.path.join(here, p)
            if not os.path.isdir(here) or os.path.islink(here):
                break
        else:
            os.makedirs(os.path.join(dest, *parts[:-1]), exist_ok=True)
            why = copy_file(os.path.join(directory, rel), os.path.join(dest, rel), budget)
            if why is not None:
                refused.append(Refused(rel, why))
            continue
        refused.append(Refused(rel, "its directory is a symbolic link"))
    return refused


def code_written(paper: str) -> List[str]:
    """The files under *paper* (a scratch copy that held no such file) that a tool would
    run as code: TeX wrote them (``\\openout``, no shell escape needed)."""
    found: List[str] = []
    for root, dirs, files in os.walk(paper):
        dirs.sort()
        found.extend(os.path.relpath(os.path.join(root, n), paper) for n in sorted(files)
                     if code_file(n) is not None)
    return found
