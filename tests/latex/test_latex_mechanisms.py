"""Title mechanisms of real templates, each reproduced in a stand-in of our own (issue 22):
no template is copied, only the mechanism that broke the badge.

Each stand-in is compiled on pdflatex, the dvips route and xelatex and read back: the badge
is on page 1, inside the page (and the frame), where the mechanism wants it, with no
overrun, and ``pith-tex verify`` says verified.
"""

from __future__ import annotations

import json
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


# -- The corner stamp's QR code with narrow margins: cas-sc -----------------------------------
# cas-sc's narrow margins put the corner stamp's QR code (under the stamp, 2 cm) over the
# Highlights title.  It stays in a margin: under the stamp when clear of the text, else
# smaller in the right margin or left of the stamp in the top margin (never under 1.5 cm),
# else left out.
CORNER_QR = r"""\documentclass{article}
\usepackage[%s,left=0.7in,bottom=0.7in]{geometry}
\usepackage[placement=corner,qr]{pith}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
\section*{Highlights}
Text of the highlights, long enough to run to the right edge of the text block and to
show where the text is: words and words and words and words and words and words.
\end{document}
"""
# geometry, what becomes of the code: "under" (as before), "smaller" (in the right
# margin, smaller), "out" (no room: left out)
CORNER_QR_CASES = {
    "wide-top-margin": ("right=0.5in,top=1.5in", "under"),
    "narrow-right-margin": ("right=1.25in,top=0.6in", "smaller"),
    "narrow-margins": ("margin=0.5in", "out"),
}


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("case", list(CORNER_QR_CASES))
def test_corner_qr_stays_in_the_margins(tmp_path: Path, case: str, route: str) -> None:
    from test_latex_links import QR_TEXT, decode_area, overlaps

    geometry, fate = CORNER_QR_CASES[case]
    b = texrun.compile_tex(tmp_path, CORNER_QR % geometry, route,
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    badge = badge_word(b.pdf)
    text = [w for w in texrun.words(b.pdf) if w[0] not in (FULL, "checked")]
    assert badge[1] >= texrun.ARXIV_STAMP_X
    if fate == "out":
        assert "cannot hold the QR code of the corner stamp" in log, b.log
        assert len(links) == 1, links  # the stamp's own
        assert_verified(b)
        return
    assert len(links) == 2, links
    qr = min(links, key=lambda r: abs(abs(r[2] - r[0]) - abs(r[3] - r[1])))
    side = abs(qr[2] - qr[0])
    # Inside the page, right of arXiv's band, over no word of the text.
    assert x0 + texrun.ARXIV_STAMP_X <= min(qr[0], qr[2]) and max(qr[0], qr[2]) <= x1, qr
    assert y0 <= min(qr[1], qr[3]) and max(qr[1], qr[3]) <= y1, qr
    for w in text:
        assert not overlaps(tuple(qr), (w[1], y1 - w[4], w[3], y1 - w[2])), (w, qr)
    if fate == "smaller":
        assert "it is drawn" in log and side < 56.0, (side, b.log)
    else:
        assert "corner stamp" not in log and abs(side - 56.7) < 1, side
    assert decode_area(b.pdf, tuple(qr), y1, tmp_path) == [QR_TEXT]
    assert_verified(b)


# -- beamer: a full title frame -------------------------------------------------------------
# TeX Live's conference-talk example: a two-line title, a subtitle, four authors, two
# institutes and the conference as the date fill the title frame; the badge and QR code
# under it were pushed below the frame, unseen, with no warning.
BEAMER = r"""\documentclass{beamer}
\usetheme{Warsaw}
\usepackage[qr]{pith}
\title[Short]{A Long Title of a Conference Talk That Takes Two Lines on the Slide}
\subtitle{With a Subtitle That Is Also Quite Long}
\author[Author, Another]{F.~Author\inst{1} \and S.~Another\inst{2} \and T.~Third\inst{1}
  \and F.~Fourth\inst{2}}
\institute[Universities]{\inst{1}Department of Computer Science\\University of Somewhere
  \and \inst{2}Department of Theoretical Philosophy\\University of Elsewhere%s}
\date[CFP 2003]{Conference on Fabulous Presentations, 2003}
\begin{document}
\begin{frame}
  \titlepage
\end{frame}
\begin{frame}{Outline}Text.\end{frame}
\end{document}
"""
# what is added to the institutes, what becomes of the badge
BEAMER_CASES = {
    "room-for-all": (None, "all"),
    "full": ("", "no-qr"),
    "fuller": (r"\\Faculty of One Thing\\Faculty of Another Thing", "smaller"),
}
# Nothing fits, not even at 4 pt: the last resort.  The frame has a title and the talk has
# sections, so that Warsaw paints a headline (the section and subsection) and a frame title
# bar across the whole slide, margins included, above the title page.
FULLEST = (r"\\Faculty of One Thing\\Faculty of Another Thing\\Faculty of a Third Thing"
           r"\\Faculty of a Fourth Thing\\Faculty of a Fifth Thing")
BEAMER_LAST = {
    # the badge turned in the frame's right text margin (1 cm), under the frame title
    "margin": "",
    # a right margin of 0.3 cm cannot hold it: left off the frame, with a warning
    "out": r"\setbeamersize{text margin right=0.3cm}",
}


def beamer_source(case: str) -> str:
    extra, fate = BEAMER_CASES[case]
    if extra is None:  # a short title frame: badge and code under it, as before
        return (BEAMER % "").replace(
            r"\subtitle{With a Subtitle That Is Also Quite Long}", "").replace(
            r"\title[Short]{A Long Title of a Conference Talk That Takes Two Lines on the "
            r"Slide}", r"\title[Short]{A Short Title}").replace(
            r"\and \inst{2}Department of Theoretical Philosophy\\University of Elsewhere", "")
    return BEAMER % extra


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("case", list(BEAMER_CASES))
def test_beamer_full_title_frame_keeps_the_badge_in_the_frame(tmp_path: Path, case: str,
                                                               route: str) -> None:
    extra, fate = BEAMER_CASES[case]
    src = beamer_source(case)
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    _, x0, top, x1, bottom = badge_word(b.pdf)
    # Inside the frame, above its footline (the short author list is set there).
    foot = min(w[2] for w in texrun.words(b.pdf) if w[0] == "Author,")
    px0, py0, px1, py1 = texrun.mediabox(b.pdf)
    assert px0 <= x0 and x1 <= px1 and py0 <= top, (x0, x1, top)
    assert bottom < foot, (bottom, foot)
    # Under the date, not over the title.
    assert top > word(b.pdf, "2003")[4]
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    for r in links:
        assert py1 - max(r[1], r[3]) >= 0 and py1 - min(r[1], r[3]) < foot, (r, foot)
    if fate == "all":
        assert "title frame is full" not in log
        assert len(links) == 2, links
        # (The qr check once found "something else painted over" the code on Warsaw's
        # title frame; it reads it now, on every route.)
        v = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json",
                            str(b.pdf)], capture_output=True, text=True, timeout=300)
        checks = {c["name"]: c for c in json.loads(v.stdout)["files"][0]["checks"]}
        assert checks["badge"]["status"] == "ok", checks["badge"]
        assert checks["qr"]["status"] == "ok", checks["qr"]
        assert v.returncode == 0, v.stdout
        return
    elif fate == "no-qr":
        assert "It is set without the QR code instead" in log, b.log
        assert len(links) == 1, links
    else:
        assert "It is set at " in log, b.log
        assert len(links) == 1, links
    assert_verified(b)


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("last", list(BEAMER_LAST))
def test_beamer_last_resort_keeps_clear_of_the_frame_title(tmp_path: Path, last: str,
                                                           route: str) -> None:
    """Where nothing fits under the title page, the badge was the corner stamp of the
    frame, 24 pt below the slide's top: over the frame title bar.  Now it is turned in the
    frame's right text margin, between the frame title and the footline, over no word of
    the frame (headline, frame title, title page, footline), inside the slide; or, when
    that margin is too narrow, left off the frame with a warning."""
    from test_latex_links import overlaps

    src = (BEAMER % FULLEST).replace(r"\usepackage[qr]{pith}",
                                     BEAMER_LAST[last] + "\n" + r"\usepackage[qr]{pith}")
    src = src.replace("\\begin{document}\n\\begin{frame}\n",
                      "\\begin{document}\n\\section{Introduction}\\subsection{Motivation}\n"
                      "\\begin{frame}{Welcome to the Talk}\n")
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    words = texrun.words(b.pdf)
    others = [w for w in words if not (w[0].startswith("pith:") or w[0] == "checked")]
    # The headline and the frame title are there, above the title page.
    for w in ("Introduction", "Motivation", "Welcome"):
        assert word(b.pdf, w)[4] < word(b.pdf, "Long")[2], w
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    if last == "out":
        assert not [w for w in words if w[0].startswith("pith:")] and not links, (words, links)
        assert "cannot hold the badge turned at 4pt" in log, b.log
        return
    _, x0, top, x1, bottom = badge_word(b.pdf)
    px0, py0, px1, py1 = texrun.mediabox(b.pdf)
    assert len(links) == 1, links
    r = links[0]
    stamp = (min(r[0], r[2]), py1 - max(r[1], r[3]), max(r[0], r[2]), py1 - min(r[1], r[3]))
    assert px0 <= stamp[0] and stamp[2] <= px1 and py0 <= stamp[1] and stamp[3] <= py1
    # Below the frame title (Warsaw paints its bar across the slide: not over its words
    # is not enough), above the footline, right of the title page's text.
    assert stamp[1] > word(b.pdf, "Welcome")[4], (stamp, word(b.pdf, "Welcome"))
    for w in others:
        assert not overlaps(stamp, w[1:]), (w, stamp)
        assert not overlaps((x0, top, x1, bottom), w[1:]), (w, (x0, top, x1, bottom))
    assert bottom - top > 5 * (x1 - x0), (x0, top, x1, bottom)  # turned
    assert "It is set turned in the frame's right margin" in log, b.log
    assert stamp[3] < word(b.pdf, "Author,")[2], stamp
    assert stamp[0] > max(w[3] for w in others if w[2] > word(b.pdf, "Welcome")[4]
                          and w[4] < word(b.pdf, "Author,")[2])
    assert_verified(b)


@pytest.mark.parametrize("route", ROUTES3)
def test_beamer_frame_title_counts_in_the_room(tmp_path: Path, route: str) -> None:
    """The room under the title page is the frame's text height less the frame title, as
    beamer counts it: with a frame title (Goettingen, whose sidebar takes the right
    margin) the badge and its QR code were "fitted" in the whole text height and the code
    went past the slide's bottom edge.  Now everything pith draws is on the slide, over no
    word of it."""
    from test_latex_links import overlaps

    src = (BEAMER % "").replace(r"\usetheme{Warsaw}", r"\usetheme{Goettingen}").replace(
        "\\begin{frame}\n  \\titlepage", "\\begin{frame}{Welcome to the Talk}\n  \\titlepage")
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    px0, py0, px1, py1 = texrun.mediabox(b.pdf)
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    assert links
    others = [w for w in texrun.words(b.pdf) if not (w[0].startswith("pith:")
                                                     or w[0] == "checked")]
    for r in links:
        assert px0 <= min(r[0], r[2]) and max(r[0], r[2]) <= px1, r
        assert py0 <= min(r[1], r[3]) and max(r[1], r[3]) <= py1, r
        box = (min(r[0], r[2]), py1 - max(r[1], r[3]), max(r[0], r[2]), py1 - min(r[1], r[3]))
        for w in others:
            assert not overlaps(box, w[1:]), (w, box)
    _, x0, top, x1, bottom = badge_word(b.pdf)
    assert px0 <= x0 and x1 <= px1 and py0 <= top and bottom <= py1
    assert_verified(b)


# -- A page before the title: elsarticle's graphical abstract --------------------------------
# elsarticle's \maketitle ships the graphical abstract (and the highlights) as pages of
# their own, then sets the title.  The badge went beside the graphical abstract, in its
# second column, with no warning.  TeX Live's own elsarticle.cls, in the two-column 5p
# format, with a graphical abstract and highlights.
ELS_GA = r"""\documentclass[5p]{elsarticle}
\usepackage{pith}
\begin{document}
\begin{frontmatter}
\title{A Paper with a Graphical Abstract}
\author{Ada Author}
\affiliation{organization={A University},country={Nowhere}}
\begin{graphicalabstract}
\rule{0.8\textwidth}{5cm}
\end{graphicalabstract}
%s
\begin{abstract}An abstract of the paper.\end{abstract}
\end{frontmatter}
\section{Introduction}
Body text.
\end{document}
"""
ELS_HIGHLIGHTS = r"\begin{highlights}\item One result.\item Another result.\end{highlights}"


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("highlights", [False, True], ids=["ga", "ga-highlights"])
def test_graphical_abstract_page_gets_the_corner_stamp(tmp_path: Path, route: str,
                                                       highlights: bool) -> None:
    src = ELS_GA % (ELS_HIGHLIGHTS if highlights else "")
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    assert "Page 1 was shipped out without the title badge" in log, b.log
    # The corner stamp on page 1, above the graphical abstract, not in its column.
    _, x0, top, x1, bottom = badge_word(b.pdf)
    heading = word(b.pdf, "Graphical")
    assert bottom < heading[2], (bottom, heading)
    px0, py0, px1, py1 = texrun.mediabox(b.pdf)
    assert x1 <= px1 and x0 >= texrun.ARXIV_STAMP_X
    # Once: not also under the title.
    for page in (2, 3):
        assert FULL not in texrun.text(b.pdf, page)
    assert_verified(b)


def without_pith(tmp_path: Path, src: str, route: str) -> texrun.Build:
    """The same document without pith: where its words are when nothing is added."""
    b = texrun.compile_tex(tmp_path / "without-pith", src.replace(r"\usepackage{pith}", ""),
                           route)
    assert b.ok, b.describe()
    assert FULL not in texrun.text(b.pdf)
    return b


# -- lineno and a copyright block as page 1's footer: LIPIcs ----------------------------------
# lipics-v2021.cls (article, twoside: \flushbottom) numbers the lines of every paper
# (lineno), sets the authors' footnotes where they are in the title block (an insert on the
# main vertical list before the badge), and makes page 1's footer a copyright block that
# hangs into the bottom margin.  With the badge, page 1 ran over by the footnote's height
# and the footnote was printed on the copyright block: lineno's \par put its line penalty
# into the box the badge is set in, which, unboxed on the main vertical list, started
# lineno's output routine with \holdinginserts 0, and TeX took the footnote off the page
# the page builder was counting.  Other classes set such a block as an insert of its own
# at the end of the title block, under the footnotes: the same mechanism.
LINENO_FOOTER = r"""\documentclass[twoside]{article}
\usepackage{lineno}
\makeatletter
\def\standin@copyright{\scriptsize\noindent Copyright held by the authors of this paper\par
  Licensed under a licence of the series\par
  Proceedings of a Conference, Article No.~23\par
  A Series of Proceedings, Somewhere Publishing\par}
\setlength\footskip{3mm}
\setlength{\skip\footins}{2\baselineskip plus 4pt minus 2pt}
\def\@maketitle{\newpage\null\vskip-\baselineskip
  {\LARGE\bfseries\@title\par}\vskip1em
  {\large\@author\par}\vskip1em%(block)s}
\renewcommand\maketitle{\par\begingroup\thispagestyle{plain}\@maketitle\endgroup}
%(footer)s
\makeatother
\linenumbers
\usepackage{pith}
\title{A Title}
\author{Ada Author\footnote{Corresponding author of the paper.}\\ Firstplace University}
\begin{document}
\maketitle
\def\x{Words of the body text that fill page one to its last line and go on. }
\def\y{\x\x\x\x\x\x\x\x\par}
Body \y\y\y\y\y\y\y\y\y\y\y\y\y\y\y\y
\end{document}
"""
LINENO_FOOTER_CASES = {
    # LIPIcs: page 1's footer (the plain page style \maketitle asks for), hanging into the
    # bottom margin from the footer's baseline
    "footer": {"last": "Corresponding", "block": "", "footer": r"""\def\ps@plain{\let\@oddhead\@empty
  \let\@evenhead\@empty\def\@oddfoot{\vtop{\hsize\textwidth\null\standin@copyright}}%
  \let\@evenfoot\@oddfoot}"""},
    # an insert of the title block, set under the footnotes
    "insert": {"last": "Publishing", "block": r"\insert\footins{\standin@copyright}",
               "footer": ""},
}


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("case", list(LINENO_FOOTER_CASES))
def test_lineno_footer_page_one_does_not_run_over(tmp_path: Path, case: str,
                                                  route: str) -> None:
    src = LINENO_FOOTER % LINENO_FOOTER_CASES[case]
    last = LINENO_FOOTER_CASES[case]["last"]  # the last line of page 1's text block
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Overfull \\vbox" not in b.log, b.log
    assert "without the title badge" not in b.log
    # Under the title block, above the body, on page 1.
    badge = badge_word(b.pdf)
    assert word(b.pdf, "University")[4] < badge[2] and badge[4] < word(b.pdf, "Body")[2]
    # The footnote above the copyright block, and page 1's text block ending where it ends
    # without pith (only fewer lines of the body fit on it; with \flushbottom the glue
    # between the lines above may stretch differently).
    note, copyright = word(b.pdf, "Corresponding"), word(b.pdf, "Copyright")
    assert note[4] < copyright[2], (note, copyright)
    plain = without_pith(tmp_path, src, route)
    assert abs(word(b.pdf, last)[4] - word(plain.pdf, last)[4]) < 0.5, last
    assert_verified(b)


# -- A title block made in steps at \begin{document}: MDPI ------------------------------------
# mdpi.cls: its \maketitle sets the logo, the title and the authors only; the class's own
# code at the end of \begin{document} (\AfterEndPreamble) then runs \maketitle, sets the
# affiliations (\maketitlen), turns line numbers on and sets the abstract and keywords
# above a rule.  The badge after \maketitle fell between the authors and the affiliations;
# it belongs at the end of the block, under the rule.
STEPS_AT_BEGIN = r"""\documentclass{article}
\usepackage{etoolbox,lineno}
\makeatletter
\def\@maketitle{\begin{flushleft}{\LARGE\bfseries\@title\par}\vspace{12pt}%
  {\bfseries\@author\par}\end{flushleft}}
\newcommand\address[1]{\gdef\@address{#1}}
\renewcommand\abstract[1]{\gdef\@abstract{#1}}
\newcommand\keyword[1]{\gdef\@keyword{#1}}
\newcommand\maketitlen{\begin{flushleft}\footnotesize\@address\par\end{flushleft}}
\newcommand\abstractkeywords{\noindent\textbf{Abstract}\\ \@abstract\par\vspace{12pt}%
  \noindent\textbf{Keywords:} \@keyword\par\vspace{4pt}\hrule\vspace{12pt}}
\AfterEndPreamble{\maketitle\let\maketitle\relax\maketitlen\linenumbers
  \abstractkeywords}
\makeatother
\usepackage{pith}
\title{A Title Made in Steps}
\author{Ada Author and Bob Writer}
\address{Firstplace University\\ Secondplace Institute}
\abstract{What the paper is about, in a few words.}
\keyword{titles; steps}
\begin{document}
\section{Introduction}
Body text of the paper.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_title_block_in_steps_at_begin_document_gets_the_badge_at_its_end(
        tmp_path: Path, route: str) -> None:
    b = texrun.compile_tex(tmp_path, STEPS_AT_BEGIN, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "without the title badge" not in b.log
    badge = badge_word(b.pdf)
    # Below the whole block: the authors, the affiliations, the abstract, the keywords.
    for last in ("Writer", "Secondplace", "words.", "steps"):
        assert badge[2] > word(b.pdf, last)[4], (last, badge, word(b.pdf, last))
    assert badge[4] < word(b.pdf, "Introduction")[2]
    # The block itself as without pith: only what follows it moves down.
    plain = without_pith(tmp_path, STEPS_AT_BEGIN, route)
    for w in ("Title", "Writer", "Secondplace", "words.", "steps"):
        assert abs(word(b.pdf, w)[2] - word(plain.pdf, w)[2]) < 0.5, w
    links = [r for u, r in texrun.link_annots(b.pdf) if u == texrun.URL]
    assert len(links) == 1, links
    assert_verified(b)


# A class that makes a title page and the contents at \begin{document} (wsemclassic:
# \AtBeginDocument{\maketitle\tableofcontents}): the title page's end ends the block, so
# the badge stays at the foot of the title page, not after the contents.
TITLEPAGE_AT_BEGIN = r"""\documentclass[titlepage]{article}
\AtBeginDocument{\maketitle\tableofcontents}
\usepackage{pith}
\title{A Title on a Page of Its Own}
\author{Ada Author}
\begin{document}
\section{Introduction}
Body text of the paper.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_title_page_made_at_begin_document_keeps_the_badge(tmp_path: Path,
                                                           route: str) -> None:
    b = texrun.compile_tex(tmp_path, TITLEPAGE_AT_BEGIN, route,
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "without the title badge" not in b.log
    badge = badge_word(b.pdf)
    assert badge[2] > word(b.pdf, "Author")[4]
    assert "Contents" in texrun.text(b.pdf, 2) and FULL not in texrun.text(b.pdf, 2)
    assert_verified(b)
