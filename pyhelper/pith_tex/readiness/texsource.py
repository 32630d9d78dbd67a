"""Reading the author's TeX sources as ``check`` needs them: comments dropped."""

from __future__ import annotations

from typing import List

from ..discover import uncomment

DEFAULT_INCLUDE = "pith-number.tex"


def strip_comments(text: str) -> List[str]:
    """The lines of *text*, each without its comment."""
    return [uncomment(line) for line in text.splitlines()]
