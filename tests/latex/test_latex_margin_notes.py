"""placement=margin and page 1's margin notes (docs/badge.md, "Margin stamp").

The margin stamp is drawn in page 1's foreground, in the right margin.  A note in that
margin (the kernel's ``\\marginpar`` and what is built on it: tufte's margin notes and
figures, todonotes' ``\\todo``; marginnote's ``\\marginnote``) used to lie under it,
silently.  pith.sty now puts the stamp in the left margin when only the right one holds
notes of page 1, and warns (``margin-notes``) when the margin the stamp is in holds one.
The stand-ins reproduce the mechanisms: a tufte-like class (a 12pc margin, notes and a
margin figure made with ``\\marginpar``), TeX Live's marginnote and todonotes packages in
the same wide margin.  The note's words and the stamp's word are read back from the PDF
(poppler's word boxes) and must not overlap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import texrun
from texrun import NUM

FULL = f"pith:2025:{NUM}"
ROUTES3 = ("pdflatex", "dvips", "xelatex")

# tufte-handout's page (letter: 1in left, 26pc text, 2pc gap, a 12pc margin) and its notes
# and margin figures, which tufte-common.def sets with \marginpar.
TUFTE_CLS = r"""\ProvidesClass{tuftelike}
\LoadClass{article}
\RequirePackage[letterpaper,left=1in,top=1in,textwidth=26pc,marginparsep=2pc,
  marginparwidth=12pc,textheight=44\baselineskip]{geometry}
\newcommand\sidenote[1]{\marginpar{\footnotesize #1}}
\newcommand\marginfigure[1]{\marginpar{\rule{10pc}{6pc}\par\footnotesize #1}}
"""

WIDE = (r"\usepackage[letterpaper,left=1in,top=1in,textwidth=26pc,marginparsep=2pc,"
        r"marginparwidth=12pc,textheight=44\baselineskip]{geometry}")

NOTE = " ".join(["NOTEWORD"] * 40)

# class and preamble, the note command: every note in page 1's right margin.
SETUPS = {
    "tufte-figure": (r"\documentclass{tuftelike}", r"\marginfigure{%s}"),
    "tufte-note": (r"\documentclass{tuftelike}", r"\sidenote{%s}"),
    "marginpar": (r"\documentclass{article}" + WIDE, r"\marginpar{%s}"),
    "marginnote": (r"\documentclass{article}" + WIDE + r"\usepackage{marginnote}",
                   r"\marginnote{%s}"),
    "todonotes": (r"\documentclass{article}" + WIDE + r"\usepackage{todonotes}",
                  r"\todo[size=\footnotesize]{%s}"),
}

PARA = ("Results measured under the same conditions show that the method holds for every "
        "case we tried while the baseline drifts as the load grows. ")

DOC = r"""%(head)s
\usepackage[placement=margin]{pith}
\pithnumber{%(num)s}
\begin{document}
%(body)s
\end{document}
"""


def body(note: str, where: int = 3, count: int = 12) -> str:
    """*count* paragraphs, the note in paragraph *where* (mid-page for the defaults,
    beside the stamp, which is centred on the text block's height)."""
    paras = []
    for i in range(count):
        extra = note if i == where else ""
        paras.append(PARA * 3 + extra)
    return "\n\n".join(paras)


def boxes_overlap(a: tuple[float, float, float, float],
                  b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def stamp_and_notes(b: texrun.Build) -> tuple[tuple[float, float, float, float],
                                               list[tuple[float, float, float, float]]]:
    words = texrun.words(b.pdf)
    stamp = [w[1:] for w in words if w[0] == FULL]
    # (a narrow margin hyphenates the note's words: NOTE- WORD)
    notes = [w[1:] for w in words if "NOTE" in w[0] or "WORD" in w[0]]
    assert len(stamp) == 1, words
    assert notes, "the margin note is not on page 1"
    return stamp[0], notes


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("setup", list(SETUPS))
def test_margin_stamp_avoids_the_notes(tmp_path: Path, setup: str, route: str) -> None:
    head, cmd = SETUPS[setup]
    (tmp_path).mkdir(parents=True, exist_ok=True)
    (tmp_path / "tuftelike.cls").write_text(TUFTE_CLS, encoding="ascii")
    src = DOC % {"head": head, "num": NUM, "body": body(cmd % NOTE)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    stamp, notes = stamp_and_notes(b)
    assert not any(boxes_overlap(stamp, n) for n in notes), (stamp, notes)
    # In the left margin, right of arXiv's band, left of the text.
    x0 = texrun.mediabox(b.pdf)[0]
    assert x0 + texrun.ARXIV_STAMP_X <= stamp[0] and stamp[2] < 72, stamp
    assert "the stamp of placement=margin is in the left margin" in " ".join(
        b.log.replace("(pith)", "").split()), b.log
    assert "margin notes in its" not in b.log


TWOCOL = r"""\documentclass[twocolumn]{article}
\usepackage[placement=margin]{pith}
\pithnumber{%(num)s}
\begin{document}
%(left)s
\newpage
%(right)s
\end{document}
"""


def test_two_columns_left_notes_keep_the_stamp_right(tmp_path: Path) -> None:
    """Notes of the first column go in the left margin: the stamp stays in the right one,
    with nothing said."""
    src = TWOCOL % {"num": NUM, "left": body(r"\marginpar{%s}" % NOTE, 2, 4),
                    "right": body("", 2, 4)}
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    stamp, notes = stamp_and_notes(b)
    assert max(n[2] for n in notes) < 300 < stamp[0], (stamp, notes)
    assert "Package pith Warning" not in b.log and "left margin" not in b.log, b.log


@pytest.mark.parametrize("route", ROUTES3)
def test_notes_in_both_margins_are_warned(tmp_path: Path, route: str) -> None:
    """Notes in both margins of page 1 (two columns): no margin is free, so the stamp
    stays in the right one and the warning names the way out."""
    src = TWOCOL % {"num": NUM, "left": body(r"\marginpar{%s}" % NOTE, 2, 4),
                    "right": body(r"\marginpar{%s}" % NOTE, 2, 4)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    assert ("Package pith Warning: Page 1 has margin notes in its right margin" in log
            and "Use placement=title or placement=corner" in log), b.log


def test_marginfix_notes_are_warned(tmp_path: Path) -> None:
    """marginfix replaces the kernel's \\@addmarginpar: the side is not read, so a note of
    page 1 counts in both margins and the warning is given."""
    src = DOC % {"head": r"\documentclass{article}" + WIDE + r"\usepackage{marginfix}",
                 "num": NUM, "body": body(r"\marginpar{%s}" % NOTE)}
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    assert "Package pith Warning: Page 1 has margin notes in its right margin" in log, b.log
