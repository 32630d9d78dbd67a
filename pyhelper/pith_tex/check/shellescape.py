"""The ``shell-escape`` check: nothing in the paper needs the shell escape arXiv does not
allow."""

from __future__ import annotations

import os
import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..checks import Check, FAIL, OK
from ..sourcetree import SourceTree
from .minted import check_frozen_cache, frozen_minted
from .texsource import is_regular, shown_name, strip_comments

#: Packages that cannot work on arXiv, where shell escape is off, and why.
SHELL_PACKAGES: Dict[str, str] = {
    "minted": "runs Pygments through shell escape",
    "pythontex": "needs the external pythontex step between LaTeX runs, which arXiv "
                 "does not run",
    "svg": "runs Inkscape through shell escape to convert .svg files",
    "gnuplottex": "runs gnuplot through shell escape",
    "sagetex": "needs the external sage step between LaTeX runs, which arXiv does not run",
    "auto-pst-pdf": "runs latex, dvips and ps2pdf through shell escape",
    "bashful": "runs shell commands through shell escape",
}

#: Commands that run programs, and why they fail on arXiv.
_SHELL_COMMANDS: List[Tuple["re.Pattern[str]", str, str]] = [
    (re.compile(r"(?:\\immediate\s*)?\\write\s*18(?![0-9])"), "\\write18",
     "runs a shell command"),
    (re.compile(r"\\(?:Delayed)?ShellEscape(?![A-Za-z@])"), "\\ShellEscape",
     "runs a shell command (shellesc)"),
    (re.compile(r"\\tikzexternalize(?![A-Za-z@])"), "\\tikzexternalize",
     "compiles each picture through shell escape: upload the pictures as PDFs instead"),
]
_DIRECTLUA_RE = re.compile(r"\\directlua(?![A-Za-z@])")
_LUA_SHELL_RE = re.compile(r"os\.execute|io\.popen")
_PACKAGE_RE = re.compile(r"\\(?:usepackage|RequirePackage)\s*(?:\[([^\]]*)\]\s*)?\{([^{}]*)\}")


class Hit(NamedTuple):
    where: str  # file:line, relative to DIR
    what: str  # the command or package
    why: str


def _source_files(tree: SourceTree) -> List[str]:
    found: List[str] = []
    for root, dirs, files in tree.walk():
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(files):
            if n.endswith((".tex", ".sty", ".cls")) and is_regular(os.path.join(root, n)):
                found.append(os.path.join(root, n))
    return found


#: A document of its own: ``\documentclass{X}``, X not one whose files are part of
#: another document (``subfiles``, ``standalone``).
_OWN_DOCUMENT_RE = re.compile(r"\\documentclass(?![A-Za-z@])\s*(?:\[[^\]]*\]\s*)?"
                              r"\{\s*(?!subfiles\s*\}|standalone\s*\})[^{}]*\}")


def _own(lines: List[str]) -> bool:
    return _OWN_DOCUMENT_RE.search("\n".join(lines)) is not None


def own_document(tree: SourceTree, path: str) -> bool:
    """Whether the ``.tex`` file *path* is a document of its own (a cover letter, a
    rebuttal: its own ``\\documentclass``, not a ``subfiles`` or ``standalone`` part)."""
    try:
        return _own(strip_comments(tree.text(path)))
    except OSError:
        return False


def scan_shell_escape(tree: SourceTree, main: Optional[str] = None) -> List[Hit]:
    """Every use of something that needs shell escape in the author's files; with *main*
    (its name in *directory*), not in the other documents beside it (a cover letter, the
    template's variant with minted), which arXiv does not compile."""
    directory = tree.directory
    hits: List[Hit] = []
    for path in _source_files(tree):
        rel = shown_name(os.path.relpath(path, directory))
        if rel == "pith.sty":
            continue  # ours; checked by l3build, needs nothing
        try:
            lines = strip_comments(tree.text(path))
        except OSError:
            continue
        if main is not None and os.path.relpath(path, directory) != main and \
                path.endswith(".tex") and _own(lines):
            continue
        for i, line in enumerate(lines, 1):
            where = "%s:%d" % (rel, i)
            for rx, what, why in _SHELL_COMMANDS:
                if rx.search(line):
                    hits.append(Hit(where, what, why))
            if _DIRECTLUA_RE.search(line):
                body = "\n".join(lines[i - 1:i + 20])  # the \directlua and what follows
                if _LUA_SHELL_RE.search(body):
                    hits.append(Hit(where, "\\directlua", "runs a program (os.execute or "
                                    "io.popen)"))
            for m in _PACKAGE_RE.finditer(line):
                for pkg in m.group(2).split(","):
                    pkg = pkg.strip()
                    if pkg == "minted" and frozen_minted(m.group(1) or "", lines):
                        continue  # reads its frozen cache (the minted check judges it)
                    if pkg in SHELL_PACKAGES:
                        hits.append(Hit(where, pkg, SHELL_PACKAGES[pkg]))
    return hits


def check_shell_escape(tree: SourceTree, main: Optional[str] = None) -> Check:
    """The ``shell-escape`` check of the paper's directory (*main*: the main file; the
    other documents beside it are not searched)."""
    hits = scan_shell_escape(tree, main)
    if not hits and main is not None:
        cache = check_frozen_cache(tree.directory, main, tree)
        if cache is not None:
            return cache
    if not hits:
        return Check("shell-escape", OK, "nothing needs shell escape")
    return Check("shell-escape", FAIL, "arXiv has no shell escape: " + "; ".join(
        "%s %s %s" % (h.where, h.what, h.why) for h in hits))

