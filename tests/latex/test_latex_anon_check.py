"""`pith-tex check`'s pdf step on an anonymous paper reads the PDF once.

It verifies the claims (none, as anonymous asks) and looks for the number in every page's
text and in the file's bytes: all from one read of the file and one pypdf reader (it read
the file three times, and parsed it twice).  The verdicts are those of before: a number
written on page 3 of an anonymous paper is found there.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

import texrun
from texrun import NUM

DOC = (r"\documentclass{article}\usepackage[anonymous]{pith}\pithnumber{%s}"
       r"\title{T}\author{A}\begin{document}\maketitle x\newpage y\newpage %s\end{document}")

_opened: list[str] = []
_listening = [False]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _listening[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # observes the interpreter's own open() and os.open(); changes nothing


@pytest.mark.parametrize("page3,status,detail", [
    ("z", "ok", "carries no Pith metadata and does not show the number"),
    (NUM, "fail", "is anonymous but page 3 shows the Pith Number"),
], ids=["clean", "number-on-page-3"])
def test_anonymous_pdf_check_reads_the_pdf_once(tmp_path: Path, page3: str, status: str,
                                                detail: str) -> None:
    from pith_tex.check.pdfcheck import check_pdf

    b = texrun.compile_tex(tmp_path, DOC % (NUM, page3), "pdflatex",
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Package pith Info: Anonymous (option anonymous)" in b.log
    _opened.clear()
    _listening[0] = True
    try:
        c, _ = check_pdf(str(b.pdf), "main.pdf", NUM, anonymous=True)
    finally:
        _listening[0] = False
    reads = [p for p in _opened if os.path.basename(p) == "main.pdf"]
    assert c.status == status and detail in c.detail, c
    assert len(reads) == 1, reads
