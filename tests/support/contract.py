"""The include format is the contract between pith-tex and pith.sty; docs/include-format.md
states it, with an example include.

Tests and benchmarks take the example include from that document itself, so there is one
statement of the contract and every suite exercises exactly that text.
"""
from __future__ import annotations

import re
from pathlib import Path

CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "include-format.md"


def readme_include(title: bool = True) -> str:
    """The example ``pith-number.tex`` of docs/include-format.md (the one ```latex block
    with \\pithrecord).  The name is historical: the contract used to live in README.md.
    *title* False: without its optional ``title-utf16`` line (an include of a record whose
    title was not at hand)."""
    blocks = re.findall(r"```latex\n(.*?)```", CONTRACT.read_text(encoding="utf-8"), flags=re.S)
    (block,) = [b for b in blocks if r"\pithrecord{" in b]
    if not title:
        block = re.sub(r"(?m)^  title-utf16 = [0-9a-f]*,\n", "", block)
    return block
