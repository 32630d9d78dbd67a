"""The badge's font: the document's normal-size typewriter font, loaded by name at the
badge's size (``\\__pith_badge_font:``, ``\\fontname``), on the font set-ups where that name
is unusual.

Each document is compiled and read back: it compiles, the badge's full identifier is
extracted whole, and it is set at exactly the badge's size (7 pt by default) whatever size
and scaling the document's own typewriter font has.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import texrun
from texrun import NUM

FULL = f"pith:2025:{NUM}"
SIZE = 7.0  # pt: option size=normal

DOC = r"""\documentclass%(clsopt)s{article}
%(preamble)s
\usepackage{pith}
\pithnumber{%(num)s}
\title{A Title}\author{Ada Author}
\begin{document}
%(before)s\maketitle
Text with \texttt{typewriter words}.
\end{document}
"""

# (class options, preamble, what comes before \maketitle, routes)
SETUPS = {
    # \fontname is cmtt10 at 10.95pt / lmtt12: another size than the design size.
    "11pt": ("[11pt]", "", "", ("pdflatex", "dvips", "xelatex")),
    "12pt-lmodern": ("[12pt]", r"\usepackage[T1]{fontenc}\usepackage{lmodern}", "",
                     ("pdflatex", "dvips", "xelatex")),
    # Courier, a virtual font over the PostScript one.
    "pcr-T1": ("", r"\usepackage[T1]{fontenc}\renewcommand\ttdefault{pcr}", "",
               ("pdflatex", "dvips")),
    # A scaled font shape, as beramono's and inconsolata's scaled= declare it.
    "scaled-shape": ("", r"\DeclareFontFamily{OT1}{sctt}{\hyphenchar\font=-1}"
                         r"\DeclareFontShape{OT1}{sctt}{m}{n}{<-> s*[0.85] cmtt10}{}"
                         r"\renewcommand\ttdefault{sctt}", "", ("pdflatex", "dvips")),
    # microtype's letterspacing in force where the badge is drawn: pdfTeX names the
    # letterspaced font <tfm>+<amount>ls, which is no TFM file.
    "letterspaced": ("", r"\usepackage[T1]{fontenc}\usepackage{lmodern}"
                         r"\usepackage[letterspace=100]{microtype}", r"\lsstyle ",
                     ("pdflatex", "dvips")),
    # fontspec: a quoted name with OpenType features, scaled to match the x-height.  Fonts
    # by file name from TeX Live's lmodern: a system font (DejaVu, Liberation) is not on
    # every machine CI or a newer TeX Live runs on.
    "fontspec-matchlowercase": ("", r"\usepackage{fontspec}"
                                    r"\setmonofont{lmmonolt10-regular.otf}[Scale=MatchLowercase]",
                                "", ("xelatex", "lualatex")),
    "fontspec-features": ("[11pt]", r"\usepackage{fontspec}"
                                    r"\setmonofont{Latin Modern Mono}[Ligatures=TeX,Scale=1.1]",
                          "", ("xelatex", "lualatex")),
}
CASES = [(name, route) for name, (_, _, _, routes) in SETUPS.items() for route in routes]


def _mul(m, n):
    return (m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
            m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
            m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5])


def text_sizes(pdf: Path) -> list[tuple[str, float]]:
    """Each piece of page 1's text with the size it is set at (font size times the text
    and current matrices), as pypdf extracts it."""
    import pypdf

    out: list[tuple[str, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            m = _mul(tm, cm)
            out.append((text, abs(size) * math.hypot(m[2], m[3])))

    pypdf.PdfReader(str(pdf)).pages[0].extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("name,route", CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_badge_font(tmp_path: Path, name: str, route: str) -> None:
    clsopt, preamble, before, _ = SETUPS[name]
    src = DOC % {"clsopt": clsopt, "preamble": preamble, "before": before, "num": NUM}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Missing character" not in b.log, b.log
    assert FULL in texrun.text(b.pdf), texrun.text(b.pdf)
    sizes = [s for t, s in text_sizes(b.pdf) if NUM[:8] in t or "pith:" in t]
    assert sizes, text_sizes(b.pdf)
    if route == "lualatex":
        # LuaTeX goes through NFSS (its \fontname lacks the features), so fontspec's
        # Scale applies there: not one of arXiv's routes, left as it is.
        return
    for s in sizes:
        assert abs(s - SIZE) < 0.05, (sizes, text_sizes(b.pdf))


def test_a_coloured_typewriter_font_does_not_colour_a_monochrome_badge(tmp_path: Path) -> None:
    """XeTeX: fontspec's Color= puts color=RRGGBBAA into the font's name, which would
    paint the badge's number red whatever pith's own colours (monochrome included)."""
    from test_latex_badge import saturated_pixels

    src = (DOC % {"clsopt": "", "before": "", "num": NUM,
                  "preamble": r"\usepackage{fontspec}"
                              r"\setmonofont{lmmonolt10-regular.otf}[Color=FF0000]"}
           ).replace(r"\usepackage{pith}", r"\usepackage[monochrome]{pith}").replace(
               r"Text with \texttt{typewriter words}.", "Text.")
    b = texrun.compile_tex(tmp_path, src, "xelatex", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert FULL in texrun.text(b.pdf)
    assert saturated_pixels(b.pdf, tmp_path) == 0
    # The font is red where the document uses it: the scan sees colour.
    red = texrun.compile_tex(tmp_path / "red", src.replace("Text.", r"\texttt{Red text.}"),
                             "xelatex", include=texrun.README_INCLUDE)
    assert red.ok, red.describe()
    (tmp_path / "r").mkdir()
    assert saturated_pixels(red.pdf, tmp_path / "r") > 0
