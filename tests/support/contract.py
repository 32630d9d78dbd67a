"""The include format is the contract between pith-tex and pith.sty; README.md shows it.

Tests and benchmarks take the example include from the README itself, so there is one
statement of the contract and every suite exercises exactly that text.
"""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_include() -> str:
    """The README's example ``pith-number.tex`` (the one ```latex block with \\pithrecord)."""
    blocks = re.findall(r"```latex\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    (block,) = [b for b in blocks if r"\pithrecord{" in b]
    return block
