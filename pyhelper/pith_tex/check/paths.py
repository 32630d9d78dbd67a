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
from typing import Dict, List, Optional, Set

from ..checks import Check, FAIL, OK
from ..sourcetree import SourceTree
from ..title.source import expanded_source
from .shellescape import own_document
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


#: ``\graphicspath{{dir1/}{dir2/}}``: where ``\includegraphics`` looks for its files.
_GRAPHICSPATH_RE = re.compile(r"\\graphicspath\s*\{((?:\s*\{[^{}]*\})*)\s*\}")
_INCLUDEGRAPHICS_RE = re.compile(r"\\includegraphics\*?\s*(?:\[[^\]]*\]\s*)*\{([^{}]*)\}")
_SHOWN_PATH_RE = re.compile(r"\\graphicspath\{\{([^{}]*)\}\}")
_FIGURE_EXTS = ("", ".pdf", ".png", ".jpg", ".jpeg", ".eps", ".ps", ".mps")


def _graphicspath(directory: str, rel: str, i: int, line: str,
                  figures: List[str]) -> List[str]:
    """``\\graphicspath`` entries of *line* that leave the upload, each with the figures
    of the paper (*figures*: the names its ``\\includegraphics`` give) found there."""
    found = []
    for m in _GRAPHICSPATH_RE.finditer(line):
        for entry in re.findall(r"\{([^{}]*)\}", m.group(1)):
            if not leaves_upload(entry):
                continue
            there = [os.path.normpath(os.path.join(entry, f + ext)) for f in figures
                     for ext in _FIGURE_EXTS
                     if os.path.isfile(os.path.join(directory, entry, f + ext))]
            found.append("%s:%d \\graphicspath{{%s}}%s" % (
                rel, i, entry, " (the paper's figure%s %s, found there on this machine "
                "only)" % ("" if len(set(there)) == 1 else "s", ", ".join(
                    shown_name(p) for p in sorted(set(there)))) if there else ""))
    return found


def _scanned(tree: SourceTree, main: Optional[str]) -> List[str]:
    """The ``.tex`` files searched: every one under *directory* but, with *main*, the
    other documents beside it (a cover letter, a rebuttal: their own \\documentclass)
    that the main file does not read; arXiv compiles the main file only."""
    directory = tree.directory
    read: Set[str] = set()
    if main is not None:
        read = {os.path.normpath(f) for f in expanded_source(directory, main,
                                                             tree.text).files}
    out: List[str] = []
    for root, dirs, files in tree.walk():
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(files):
            path = os.path.join(root, n)
            if not n.endswith(".tex") or not is_regular(path):
                continue
            rel = os.path.normpath(os.path.relpath(path, directory))
            if main is not None and rel not in read and own_document(tree, path):
                continue
            out.append(path)
    return out


def scan_paths(tree: SourceTree, main: Optional[str] = None) -> List[str]:
    """``file:line name`` for each file name that leaves the upload (with *main*, in the
    files :func:`_scanned` searches)."""
    directory = tree.directory
    found: List[str] = []
    paths = _scanned(tree, main)
    texts: Dict[str, List[str]] = {}
    for path in paths:
        try:
            texts[path] = strip_comments(tree.text(path))
        except OSError:
            continue
    figures = [m.group(1).strip() for lines in texts.values() for line in lines
               for m in _INCLUDEGRAPHICS_RE.finditer(line)]
    for path in paths:
        if path not in texts:
            continue
        rel = shown_name(os.path.relpath(path, directory))
        for i, line in enumerate(texts[path], 1):
            found += _graphicspath(directory, rel, i, line, figures)
            for m in _FILE_CMD_RE.finditer(line):
                arg = m.group(2) if m.group(2) is not None else m.group(3)
                for name in _names(m.group(1), arg):
                    if leaves_upload(name):
                        found.append("%s:%d \\%s{%s}" % (rel, i, m.group(1), name.strip()))
    return found


def check_paths(tree: SourceTree, outside: List[str], main: Optional[str] = None) -> Check:
    """*tree*: the paper's directory; *outside*: files the compile read from outside the
    upload and TeX's trees; *main*: the main file (other documents beside it are not
    searched)."""
    named = scan_paths(tree, main)
    if named or outside:
        parts = named + ["the compile read %s" % p for p in outside]
        way = "copy them into the paper's directory and name them relative to it"
        dirs = [m.group(1) for p in named for m in [_SHOWN_PATH_RE.search(p)] if m]
        if dirs:
            base = os.path.basename(os.path.normpath(dirs[0]))
            inside = (base if base not in ("", ".", "..") else "figures") + "/"
            way = ("copy %s into the paper's directory (as %s) and write "
                   "\\graphicspath{{%s}}%s" % (dirs[0], inside, inside, "" if len(parts) ==
                                               len(dirs) else "; copy the other files into "
                                               "it too and name them relative to it"))
        return Check("paths", FAIL, "files outside the upload, which arXiv does not have "
                     "(the compile there fails): %s; %s" % ("; ".join(parts), way))
    return Check("paths", OK, "every file the paper names is inside the upload")
