"""The ``main`` check: which ``.tex`` file arXiv compiles."""

from __future__ import annotations

import os
import re
from typing import Optional

from ..discover import read_tex
from ..errors import UsageError
from .texsource import strip_comments

_DOCUMENTCLASS_RE = re.compile(r"\\documentclass(?![A-Za-z@])")


def _has_documentclass(path: str) -> bool:
    try:
        text = read_tex(path)
    except OSError:
        return False
    return any(_DOCUMENTCLASS_RE.search(line) for line in strip_comments(text))


def find_main(directory: str, main: Optional[str] = None) -> str:
    """The name of the main ``.tex`` file of *directory* (arXiv's rule: the top-level file
    with an uncommented ``\\documentclass``); :class:`UsageError` if there is none or
    several, or if *main* (``--main``) is not such a file directly in *directory*."""
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
        if not _has_documentclass(path):
            raise UsageError("--main %s: it has no uncommented \\documentclass" % main)
        return os.path.basename(path)
    try:
        names = sorted(n for n in os.listdir(directory)
                       if n.endswith(".tex") and os.path.isfile(os.path.join(directory, n)))
    except OSError as e:
        raise UsageError("cannot list %s: %s" % (directory, e.strerror or e))
    found = [n for n in names if _has_documentclass(os.path.join(directory, n))]
    if not found:
        raise UsageError("no main file in %s: no .tex file there has an uncommented "
                         "\\documentclass" % directory)
    if len(found) > 1:
        raise UsageError("several main files in %s (each has a \\documentclass): %s; name the "
                         "one arXiv should compile with --main FILE"
                         % (directory, ", ".join(found)))
    return found[0]

