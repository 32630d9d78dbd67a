"""Reading the author's TeX sources as ``check`` needs them: comments dropped."""

from __future__ import annotations

import os
import stat
from typing import List

from ..include.discover import uncomment

DEFAULT_INCLUDE = "pith-number.tex"


def strip_comments(text: str) -> List[str]:
    """The lines of *text*, each without its comment."""
    return [uncomment(line) for line in text.splitlines()]


def shown_name(rel: str) -> str:
    """A file name for a report line: never a raw newline or control character, which
    could forge another line (``ascii()`` of it then)."""
    return rel if rel.isprintable() else ascii(rel)


def is_regular(path: str) -> bool:
    """A regular file, not through a link: the only kind ``check`` opens (a FIFO would
    block the read, a device never end it)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
