"""Honest papers that verify (issue 27, item 5): a stand-in of our own for each construct of
real templates that ``verify`` once failed, compiled with real TeX and read by the real
engines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

import hostile_pdfs as H
import recorded
import texbuild

V = recorded.vectors_with_record()[0]
N = V["number"]


def verify(pdf: Path) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def checks(doc: Dict[str, Any]) -> Dict[str, Dict[str, str]]:
    return {c["name"]: c for c in doc["files"][0]["checks"]}


def compiled(tmp_path: Path, src: str, route: str = "pdflatex") -> Path:
    b = texbuild.compile_tex(tmp_path, src, route, include=H.include_of(V))
    assert b.ok, b.describe()
    return b.pdf


# -- a font's /ToUnicode written twice (CJKutf8's subfonts) ----------------------------------

# CJKutf8 gives its subfonts a ToUnicode CMap with \pdffontattr while pdfTeX, with
# \pdfgentounicode=1, writes its own: the font dictionary holds /ToUnicode twice.  The same
# two mechanisms on a Latin font.
_TWO_TOUNICODE = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[qr]{pith}
\input glyphtounicode
\pdfgentounicode=1
\pithnumber{%s}
\title{A Paper on Recovery}\author{A. Author}\date{}
\begin{document}
\immediate\pdfobj stream {/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Pith-T1 def 1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfrange <20> <7E> <0020> endbfrange endcmap
CMapName currentdict /CMap defineresource pop end end}
\pdffontattr\font{/ToUnicode \the\pdflastobj\space 0 R}
\maketitle
Some text of the paper.
\end{document}
"""


def test_a_font_with_to_unicode_twice_verifies(tmp_path):
    pdf = compiled(tmp_path, _TWO_TOUNICODE % N)
    import logging

    from pypdf import PdfReader

    seen = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    log = logging.getLogger("pypdf")
    handler = Catch()
    log.addHandler(handler)
    try:
        reader = PdfReader(str(pdf))
        for font in reader.pages[0]["/Resources"]["/Font"].values():
            font.get_object()
    finally:
        log.removeHandler(handler)
    assert any("for key /ToUnicode" in m for m in seen), seen  # the key is there twice
    code, doc = verify(pdf)
    assert code == 0, checks(doc)
    assert checks(doc)["pdf"]["status"] == "ok"


# -- a symbol zxing-cpp finds but cannot decode, in a paper that asked for no code --------------

def _finder_figure(n: int = 29, module_mm: float = 1.2) -> str:
    """A picture of a QR code's three finder patterns and timing rows with no data: what
    zxing-cpp takes for a QR symbol it cannot decode (as it does text in some templates)."""
    def black(r: int, c: int) -> bool:
        for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):
            y, x = r - r0, c - c0
            if 0 <= y < 7 and 0 <= x < 7:
                return max(abs(y - 3), abs(x - 3)) != 2
        return (r == 6 or c == 6) and (r + c) % 2 == 0 and 7 < max(r, c) < n - 7
    puts = "".join("\\put(%d,%d){\\rule{1\\unitlength}{1\\unitlength}}" % (c, n - 1 - r)
                   for r in range(n) for c in range(n) if black(r, c))
    return ("\\begin{center}\\setlength{\\unitlength}{%gmm}\\begin{picture}(%d,%d)%s"
            "\\end{picture}\\end{center}" % (module_mm, n, n, puts))


def test_an_undecodable_symbol_without_the_qr_option_verifies(tmp_path):
    from pith_tex.pdf.pageview import page_one

    src = H.source(N, route_opts="").replace("Some text of the paper.",
                                             "Some text of the paper.\n" + _finder_figure())
    pdf = compiled(tmp_path, src)
    page = page_one(pdf.read_bytes())
    assert any(v.unreadable for v in page.views) and not any(v.codes for v in page.views)
    code, doc = verify(pdf)
    assert code == 0, checks(doc)
    assert checks(doc)["qr"]["status"] == "ok", checks(doc)["qr"]


def test_a_paper_without_the_qr_option_gets_no_qr_warning(tmp_path):
    code, doc = verify(compiled(tmp_path, H.source(N, route_opts="")))
    assert code == 0 and checks(doc)["qr"]["status"] == "ok", checks(doc)["qr"]


# -- beamer: a title frame too full for the badge at its size ---------------------------------

# TeX Live's conference-talk example, its institutes lengthened until the title page leaves
# no room: pith.sty sets the badge alone at about 4 pt (the warning beamer-fit), turned in
# the frame's margin when even that does not fit.  At 150 dpi poppler draws a 4 pt colon
# in greys of 120 to 175, which were once "no ink": verify said the viewers disagree.
_FULL_FRAME = r"""\documentclass{beamer}
\usepackage[qr]{pith}
\pithnumber{%s}
\title[Short]{A Long Title of a Conference Talk That Takes Two Lines on the Slide}
\subtitle{With a Subtitle That Is Also Quite Long}
\author[Author, Another]{F.~Author\inst{1} \and S.~Another\inst{2} \and T.~Third\inst{1}
  \and F.~Fourth\inst{2}}
\institute[Universities]{\inst{1}Department of Computer Science\\University of Somewhere
  \and \inst{2}Department of Theoretical Philosophy\\University of Elsewhere
  \\Faculty of One Thing\\Faculty of Another Thing\\Faculty of a Third Thing
  \\Faculty of a Fourth Thing\\Faculty of a Fifth Thing}
\date[CFP 2003]{Conference on Fabulous Presentations, 2003}
\begin{document}
\begin{frame}
  \titlepage
\end{frame}
\end{document}
"""


@pytest.mark.parametrize("route", ["xelatex", "dvips"])
def test_a_small_badge_on_a_full_beamer_title_frame_verifies(tmp_path, route):
    b = texbuild.compile_tex(tmp_path, _FULL_FRAME % N, route, include=H.include_of(V))
    assert b.ok, b.describe()
    assert "The title frame is full" in b.log, b.log[-2000:]
    code, doc = verify(b.pdf)
    badge = checks(doc)["badge"]
    assert code == 0 and badge["status"] == "ok", badge


def test_an_undecodable_symbol_away_from_the_qr_code_verifies(tmp_path):
    # finder patterns that line up in the body (a figure here; two columns of text in an
    # xelatex paper did it too) are no code a reader scans while pith.sty's own code
    # reads: the qr option's code verifies beside them
    from pith_tex.pdf.pageview import page_one

    src = H.source(N).replace("Some text of the paper.",
                              "Some text of the paper.\n" + _finder_figure())
    pdf = compiled(tmp_path, src)
    page = page_one(pdf.read_bytes())
    assert any(v.unreadable for v in page.views), page.views
    assert all(v.codes for v in page.views), page.views
    code, doc = verify(pdf)
    assert code == 0, checks(doc)
    assert checks(doc)["qr"]["status"] == "ok", checks(doc)["qr"]
