"""Title mechanisms of real templates, each reproduced in a stand-in of our own (issue 22):
no template is copied, only the mechanism that broke the badge.

Each stand-in is compiled on pdflatex, the dvips route and xelatex and read back: the badge
is on page 1, inside the page (and the frame), where the mechanism wants it, with no
overrun, and ``pith-tex verify`` says verified.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM

FULL = f"pith:2025:{NUM}"
ROUTES3 = ("pdflatex", "dvips", "xelatex")


def verify(pdf: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(pdf)],
                          capture_output=True, text=True, timeout=300)


def badge_word(pdf: Path, page: int = 1) -> tuple[str, float, float, float, float]:
    words = [w for w in texrun.words(pdf, page) if w[0].startswith("pith:")]
    assert [w[0] for w in words] == [FULL], words
    return words[0]


def word(pdf: Path, text: str, page: int = 1) -> tuple[str, float, float, float, float]:
    found = [w for w in texrun.words(pdf, page) if w[0] == text]
    assert found, (text, texrun.text(pdf, page))
    return found[0]


def assert_verified(b: texrun.Build) -> None:
    v = verify(b.pdf)
    assert v.returncode == 0, v.stdout + v.stderr


# -- A title block made in steps: ECAI ------------------------------------------------------
# ecai.cls (2023-): its frontmatter environment ends with
# \twocolumn[\maketitle \makeauthors \begin{center}\makeaddresses ...\end{center}], and its
# \maketitle sets the title only.  The badge after \maketitle fell between the title and
# the authors; it belongs at the end of the block.
ECAI_LIKE = r"""\documentclass[twocolumn]{article}
\makeatletter
\def\@maketitle{\newpage\null\begin{center}{\LARGE\bfseries\@title\par}\end{center}}
\renewcommand\maketitle{\par\begingroup\@maketitle\endgroup
  \global\let\maketitle\relax\global\let\@maketitle\relax}
\newcommand\makeauthors{\begin{center}{\large\bfseries Ada Author and Bob Writer\par}%
  \end{center}}
\newcommand\makeaddresses{Firstplace University\\ Secondplace Institute}
\newenvironment{frontmatter}{}{\twocolumn[\maketitle\makeauthors
  \begin{center}\makeaddresses\end{center}]}
\makeatother
\usepackage{pith}
\title{A Title Made in Steps}
\begin{document}
\begin{frontmatter}\end{frontmatter}
Body text of the paper, in the first column.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_title_block_in_steps_gets_the_badge_at_its_end(tmp_path: Path, route: str) -> None:
    b = texrun.compile_tex(tmp_path, ECAI_LIKE, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    badge = badge_word(b.pdf)
    # Below the whole block: the title, the authors and the last address line.
    for last in ("Steps", "Writer", "Secondplace"):
        assert badge[2] > word(b.pdf, last)[4], (last, badge, word(b.pdf, last))
    # Above the body, centred on the page (the block spans both columns).
    assert badge[4] < word(b.pdf, "Body")[2]
    title = word(b.pdf, "Title")
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    assert len(links) == 1, links
    mid = (links[0][0] + links[0][2]) / 2
    x0, _, x1, _ = texrun.mediabox(b.pdf)
    assert abs(mid - (x0 + x1) / 2) < 25 and title[1] < mid, (links, title)
    assert "without the title badge" not in b.log
    assert_verified(b)
