"""A document whose hyperref links are off: the badge is not a link, and pith says so.

Interspeech's class (Interspeech.cls of 2024 and 2025) loads hyperref and says
``\\AtBeginDocument{\\NoHyper}``: no link in the whole paper.  hyperref's ``draft`` option
(or ``\\hypersetup{draft}`` in the preamble) does the same.  The badge used to be linked on
XeLaTeX (pith's own annotation) and silently not on pdfLaTeX and dvips (``\\href`` gives
text only); now it is not linked on any route, and the warning ``no-link`` names the
cause.  The stand-in class reproduces Interspeech's lines; the PDF's annotations are read
back with pypdf.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import texrun
from texrun import NUM, URL

ROUTES3 = ("pdflatex", "dvips", "xelatex")

# Interspeech.cls's hyperref lines (2025): metadata withheld, links off at \begin{document}.
ISP_CLS = r"""\ProvidesClass{isplike}
\ProcessOptions\relax
\LoadClass[a4paper]{article}
\RequirePackage[pdfauthor={Author name(s) withheld},pdftitle={Under review},
  colorlinks=false,pdfborder={0 0 0}]{hyperref}
\AtBeginDocument{\NoHyper}
\newif\ifinterspeechfinal
\interspeechfinalfalse
\def\interspeechcameraready{\global\interspeechfinaltrue}
"""

# (class and preamble, the cause the warning names)
SETUPS = {
    "interspeech": (r"\documentclass{isplike}\interspeechcameraready", r"\NoHyper"),
    "draft-option": (r"\documentclass{article}\usepackage[draft]{hyperref}", "option draft"),
    "hypersetup-draft": (r"\documentclass{article}\usepackage{hyperref}\hypersetup{draft}",
                         "option draft"),
}

DOC = r"""%(head)s
\usepackage{pith}
\pithnumber{%(num)s}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
Text of the paper.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("setup", list(SETUPS))
def test_links_off_badge_unlinked_and_warned(tmp_path: Path, setup: str, route: str) -> None:
    head, cause = SETUPS[setup]
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "isplike.cls").write_text(ISP_CLS, encoding="ascii")
    b = texrun.compile_tex(tmp_path, DOC % {"head": head, "num": NUM}, route,
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert f"pith:2025:{NUM}" in texrun.text(b.pdf).replace("\n", "")
    assert not [u for u, _ in texrun.link_annots(b.pdf) if u == URL], texrun.link_annots(b.pdf)
    log = " ".join(b.log.replace("(pith)", "").split())
    assert "Package pith Warning: hyperref's links are off in this document" in log, b.log
    assert cause in log and "the badge is not a link to its Pith page" in log, b.log
    assert log.count("hyperref's links are off") == 1, b.log


@pytest.mark.parametrize("route", ROUTES3)
def test_links_on_after_a_nohyper_environment(tmp_path: Path, route: str) -> None:
    """hyperref's NoHyper environment ends with its group: the badge after it is linked,
    with nothing said."""
    src = (DOC % {"head": r"\documentclass{article}\usepackage{hyperref}", "num": NUM}
           ).replace(r"\maketitle", r"\begin{NoHyper}No links here.\end{NoHyper}\maketitle")
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert [u for u, _ in texrun.link_annots(b.pdf) if u == URL], texrun.link_annots(b.pdf)
    assert "links are off" not in b.log
