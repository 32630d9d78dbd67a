"""The badge's font where the document's typewriter font will not do (docs/badge.md,
"Design").

IEEEtran (and Interspeech's class) set ``\\ttdefault`` to ``pcr``: under XeLaTeX there is
no TU/pcr, and the badge's number came out in the proportional Latin Modern Roman NFSS
substitutes, with a font warning.  Under ``times`` (ICLR's) or IEEEtran on pdfLaTeX the
number was thin Courier beside Times.  pith.sty now takes Latin Modern Mono in bold
(``lmtt/b/n``: TeX Live's lm, OT1, T1 and TU), whose PDF font is LMMonoLt10-Bold on every
route.  The stand-ins reproduce the classes' font set-up (their own lines, not their
files); PDFium names the font of each character of the badge's number.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM

FULL = f"pith:2025:{NUM}"
ROUTES3 = ("pdflatex", "dvips", "xelatex")
CHOSEN = "LMMonoLt10-Bold"

# IEEEtran.cls (and Interspeech.cls): "The IEEE uses Times Roman font" -- the three lines
# of times.sty, set by the class.
IEEE_CLS = r"""\ProvidesClass{ieeelike}
\LoadClass[twocolumn]{article}
\renewcommand{\sfdefault}{phv}
\renewcommand{\rmdefault}{ptm}
\renewcommand{\ttdefault}{pcr}
"""

SETUPS = {
    "ieeetran": (r"\documentclass{ieeelike}", ""),
    "times": (r"\documentclass{article}", r"\usepackage{times}"),
    "times-T1": (r"\documentclass{article}", r"\usepackage[T1]{fontenc}\usepackage{times}"),
}

DOC = r"""%(cls)s
%(pre)s
\usepackage{pith}
\pithnumber{%(num)s}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
Text of the paper.
\end{document}
"""


def badge_fonts(pdf: Path) -> set[str]:
    """The fonts (subset prefix dropped) PDFium gives the characters of the badge's
    number on page 1."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    try:
        textpage = doc[0].get_textpage()
        count = textpage.count_chars()
        chars = "".join(chr(raw.FPDFText_GetUnicode(textpage.raw, i)) for i in range(count))
        start = chars.find(NUM)
        assert start >= 0, chars
        names = set()
        buf = ctypes.create_string_buffer(256)
        flags = ctypes.c_int()
        for i in range(start, start + len(NUM)):
            n = raw.FPDFText_GetFontInfo(textpage.raw, i, buf, len(buf), ctypes.byref(flags))
            names.add(re.sub(r"^[A-Z]{6}\+", "", buf.raw[:max(n - 1, 0)].decode()))
        return names
    finally:
        doc.close()


def pdffonts(pdf: Path) -> list[str]:
    p = subprocess.run([texrun.tool("pdffonts"), str(pdf)], capture_output=True, text=True,
                       check=True)
    return [line.split()[0] for line in p.stdout.splitlines()[2:] if line.strip()]


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("setup", list(SETUPS))
def test_badge_font_is_latin_modern_mono_bold(tmp_path: Path, setup: str, route: str) -> None:
    cls, pre = SETUPS[setup]
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "ieeelike.cls").write_text(IEEE_CLS, encoding="ascii")
    b = texrun.compile_tex(tmp_path, DOC % {"cls": cls, "pre": pre, "num": NUM}, route,
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert FULL in texrun.text(b.pdf).replace("\n", ""), texrun.text(b.pdf)
    assert badge_fonts(b.pdf) == {CHOSEN}, badge_fonts(b.pdf)
    # One font object for the badge's font (the number and the state share it).
    # (xdvipdfmx names a CID font <name>-Identity-H)
    fonts = [re.sub(r"^[A-Z]{6}\+|-Identity-H$", "", f) for f in pdffonts(b.pdf)]
    assert fonts.count(CHOSEN) == 1, fonts
    assert not any("Courier" in f or "NimbusMon" in f for f in fonts), fonts
    # No font substituted for the badge: the only substitutions are of the body's Times,
    # which XeLaTeX has no TU shape of (the document's own, not pith's).
    subst = re.findall(r"Font shape `([^']*)' undefined", b.log)
    assert all(s.split("/")[1] in ("ptm", "phv") for s in subst), subst
    if route != "xelatex":
        assert not subst, subst
    # pith-tex verify reads the number from the painted pixels too: the new face reads.
    v = subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(b.pdf)],
                       capture_output=True, text=True, timeout=300)
    assert v.returncode == 0, v.stdout + v.stderr
