"""The ``main`` check: which ``.tex`` file arXiv compiles (``check`` and ``fetch``).

arXiv compiles the top-level ``.tex`` file with an uncommented ``\\documentclass`` and a
``\\begin{document}`` that no other file ``\\input``\\s or ``\\include``\\s; a
``standalone`` document is a figure's source, not the paper.  A cover letter, a
rebuttal or an editor's temp file beside the paper is a second candidate: then
``--main FILE`` decides, and the error says so.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional, Set

from ..sourcetree import SourceTree
from ..errors import UsageError, safe_name
from ..title.source import (BEGIN_DOC_RE, DOCCLASS_RE, INPUT_RE, Reader, expanded_source,
                           resolve_input, source_text)
from .texsource import strip_comments

_PITHNUMBER_RE = re.compile(r"\\pithnumber(?![A-Za-z@])")
_DOCUMENTCLASS_RE = re.compile(r"\\documentclass(?![A-Za-z@])")


def _has_documentclass(path: str, read: Reader) -> bool:
    try:
        text = read(path)
    except OSError:
        return False
    return any(_DOCUMENTCLASS_RE.search(line) for line in strip_comments(text))


def _given_or_sole(tree: SourceTree, main: Optional[str] = None) -> str:
    """The name of the main ``.tex`` file of *directory* (arXiv's rule: the top-level file
    with an uncommented ``\\documentclass``); :class:`UsageError` if there is none or
    several, or if *main* (``--main``) is not such a file directly in *directory*."""
    directory = tree.directory
    if not os.path.isdir(directory):
        raise UsageError("%s is not a directory" % directory)
    if main is not None:
        path = main if os.path.isabs(main) else os.path.join(directory, main)
        if not os.path.isfile(path) and os.path.isfile(main):
            path = main  # given relative to the current directory
        if not os.path.isfile(path):
            raise UsageError("--main %s: no such file in %s" % (main, directory))
        if os.path.dirname(os.path.abspath(path)) != os.path.abspath(directory):
            raise UsageError("--main %s: the main file must be at the top of %s, where arXiv "
                             "compiles it" % (main, directory))
        if not _has_documentclass(path, tree.text):
            raise UsageError("--main %s: it has no uncommented \\documentclass" % main)
        return os.path.basename(path)
    names = _tex_files(tree)
    found = [n for n in names if _has_documentclass(os.path.join(directory, n), tree.text)]
    if not found:
        raise UsageError("no main file in %s: no .tex file there has an uncommented "
                         "\\documentclass" % directory)
    if len(found) > 1:
        raise UsageError("several main files in %s (each has a \\documentclass): %s; name the "
                         "one arXiv should compile with --main FILE"
                         % (directory, ", ".join(found)))
    return found[0]



#: An editor's or a person's spare copy: hidden, backup or temp names.
_SPARE_RE = re.compile(r"^[.~#]|~|[-_. ](bak|backup|tmp|temp|copy|orig|old)([-_. ]\w*)?\.tex$"
                       r"|\(\d+\)\.tex$|^texput\.tex$", re.I)


def _tex_files(tree: SourceTree) -> List[str]:
    """The ``.tex`` files at the top of the directory (links to files too)."""
    directory = tree.directory
    try:
        return sorted(n for n in tree.listdir()
                      if n.endswith(".tex") and os.path.isfile(os.path.join(directory, n)))
    except OSError as e:
        raise UsageError("cannot list %s: %s" % (directory, e.strerror or e)) from e


def _candidate(path: str, read: Reader) -> Optional[str]:
    """Why *path* is not a main file (None: it is one)."""
    try:
        text = source_text(path, read)
    except OSError:
        return "unreadable"
    m = DOCCLASS_RE.search(text)
    if m is None:
        return "no \\documentclass"
    if not BEGIN_DOC_RE.search(text):
        return "no \\begin{document}"
    if m.group(1).strip() == "standalone":
        return "a standalone document"
    return None


def _included_by_others(directory: str, names: List[str], read: Reader) -> Set[str]:
    out: Set[str] = set()
    for n in names:
        try:
            text = source_text(os.path.join(directory, n), read)
        except OSError:
            continue
        for m in INPUT_RE.finditer(text):
            target = resolve_input(directory, m.group(1) or m.group(2))
            if target is not None and os.path.basename(target) != n:
                out.add(os.path.basename(target))
    return out


def find_main(directory: str, main: Optional[str] = None, *, paper: bool = False,
              tree: Optional[SourceTree] = None) -> str:
    """The name of the main ``.tex`` file of *directory* (see the module docstring);
    :class:`UsageError` if there is none or several, or if *main* (``--main``) is not a
    file with ``\\documentclass`` directly in *directory*.

    *paper* (``fetch``, which needs the paper, not arXiv's choice): of several, the one
    that names a ``\\pithnumber`` (the cover letter and the rebuttal do not).  *tree*:
    the directory as check read it (default: read here)."""
    tree = tree or SourceTree(directory)
    if main is not None:
        return _given_or_sole(tree, main)
    if not os.path.isdir(directory):
        raise UsageError("%s is not a directory" % directory)
    names = _tex_files(tree)
    read = tree.text
    with_class = [n for n in names if _candidate(os.path.join(directory, n), read) != "no "
                  "\\documentclass"]
    found = [n for n in with_class if _candidate(os.path.join(directory, n), read) is None]
    included = _included_by_others(directory, names, read)
    found = [n for n in found if n not in included]
    if len(found) > 1:  # a spare copy beside the paper is not the paper
        found = [n for n in found if not _SPARE_RE.search(n)] or found
    if len(found) > 1 and paper:
        found = [n for n in found if _PITHNUMBER_RE.search(
            expanded_source(directory, n, read).text)] or found
    if not found:
        if with_class:
            return _given_or_sole(tree, None)  # arXiv's rule alone: its own message
        raise UsageError("no main file in %s: no .tex file there has an uncommented "
                         "\\documentclass" % directory)
    if len(found) > 1:
        raise UsageError("several main files in %s (each has a \\documentclass and a "
                         "\\begin{document}): %s; name the one arXiv should compile with "
                         "--main FILE" % (safe_name(directory), ", ".join(found)))
    return found[0]
