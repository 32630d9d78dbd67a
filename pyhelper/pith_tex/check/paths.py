"""The ``paths`` check: every file the paper names is inside the upload.

arXiv compiles the upload alone, so ``\\input{/etc/...}`` or ``\\input{../x}`` fails
there even when it works on the author's machine (and would let ``check`` read files
that are not the paper's).  The commands that open files are searched in every ``.tex``
file under DIR (comments ignored); the compile's own list of files read backs this up
(:func:`pith_tex.check.upload.outside_reads`).
"""

from __future__ import annotations

import os
import re
from typing import List

from ..checks import Check, FAIL, OK
from ..include.discover import read_tex
from .texsource import is_regular, shown_name, strip_comments

_FILE_CMD_RE = re.compile(
    r"\\(input|include|InputIfFileExists|IfFileExists|includegraphics|includepdf|"
    r"lstinputlisting|verbatiminput|bibliography|addbibresource|subfile|includeonly|"
    r"import|subimport|inputminted|pithsetup|usepackage|RequirePackage|documentclass)"
    r"(?![A-Za-z@])\*?\s*(?:\[[^\]]*\]\s*)?(?:\{([^{}]*)\}|([^\s{}\\]+))")


def leaves_upload(name: str) -> bool:
    """Whether *name*, as written, opens a file outside the upload.  A name made by a
    macro (``\\jobname.aux``, ``\\figdir/plot``) cannot be told from the source: the
    compile's list of files read judges it."""
    name = name.strip()
    if name.startswith("\\"):
        return False
    if name.startswith(("/", "~")) or re.match(r"[A-Za-z]:[\\/]", name):
        return True
    return ".." in re.split(r"[\\/]", name)


def _names(cmd: str, arg: str) -> List[str]:
    if cmd in ("usepackage", "RequirePackage", "documentclass", "bibliography",
               "includeonly"):
        return [a for a in arg.split(",")]
    if cmd == "pithsetup":
        return [v for k, _, v in (o.partition("=") for o in arg.split(","))
                if k.strip() == "include"]
    return [arg]


def scan_paths(directory: str) -> List[str]:
    """``file:line name`` for each file name that leaves the upload."""
    found: List[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(files):
            if not n.endswith(".tex") or not is_regular(os.path.join(root, n)):
                continue
            path = os.path.join(root, n)
            rel = shown_name(os.path.relpath(path, directory))
            try:
                lines = strip_comments(read_tex(path))
            except OSError:
                continue
            for i, line in enumerate(lines, 1):
                for m in _FILE_CMD_RE.finditer(line):
                    arg = m.group(2) if m.group(2) is not None else m.group(3)
                    for name in _names(m.group(1), arg):
                        if leaves_upload(name):
                            found.append("%s:%d \\%s{%s}" % (rel, i, m.group(1), name.strip()))
    return found


def check_paths(directory: str, outside: List[str]) -> Check:
    """*outside*: files the compile read from outside the upload and TeX's trees."""
    named = scan_paths(directory)
    if named or outside:
        parts = named + ["the compile read %s" % p for p in outside]
        return Check("paths", FAIL, "files outside the upload, which arXiv does not have "
                     "(the compile there fails): %s; copy them into the paper's directory "
                     "and name them relative to it" % "; ".join(parts))
    return Check("paths", OK, "every file the paper names is inside the upload")
