"""arXiv's HTML view gives the include the verdict the PDF gives it.

An include with a byte-order mark, a character that is not ASCII, or a NUL is refused by
the PDF build on every engine (test_latex_include_bytes.py); LaTeXML's path in pith.sty
(as arXiv reads it) and pith's binding showed it "checked", and the path also took any
signature value other than "verified" for "checked".  Now both show the badge
unverified.  A FIFO hung LaTeXML as it hung TeX.  (One limit, in docs/reader.md: LaTeXML
drops a byte that is not UTF-8 before pith.sty's path sees the line; the binding, which
reads the bytes, refuses it.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import texrun
from texrun import NUM
from test_latex_html import assert_clean, badge, convert, paper

GOOD = texrun.README_INCLUDE.encode("ascii")
CASES = {
    "good": (GOOD, "checked"),
    "utf8-bom": (b"\xef\xbb\xbf" + GOOD, "unverified"),
    "utf8-comment": (GOOD.replace(b"% Do not edit", "% Do not édit".encode()), "unverified"),
    "trailing-nul": (GOOD + b"\0", "unverified"),
    "fifo": (None, "unverified"),
    # Not bytes, but the same rule: a value the PDF path refuses (the binding too).
    "bogus-signature": (GOOD.replace(b"signature = absent", b"signature = bogus"),
                        "unverified"),
}


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_html_badge_agrees_with_the_pdf(tmp_path: Path, case: str, binding: bool) -> None:
    data, state = CASES[case]
    d = paper(tmp_path / "paper", include=None)
    if data is None:
        os.mkfifo(d / "pith-number.tex")
    else:
        (d / "pith-number.tex").write_bytes(data)
    output, page = convert(d, binding)
    assert_clean(output, page)
    text = badge(page)
    assert text.endswith(state), text
    assert (f"pith:2025:{NUM}" in text) is (state == "checked"), text


def test_binding_refuses_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    d = paper(tmp_path / "paper", include=None)
    (d / "pith-number.tex").write_bytes(GOOD.replace(b"% Do not edit", b"% Do not \xe9dit"))
    output, page = convert(d, True)
    assert_clean(output, page)
    assert badge(page).endswith("unverified")
