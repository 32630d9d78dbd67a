"""placement=margin: the stamp in the outer margin of page 1 (docs/badge.md, "Margin stamp").

The stamp is the badge turned to read from the bottom up, like arXiv's own identifier
stamp, drawn in page 1's foreground: it must change no line and no page of the paper.
The "just full" documents are filled to the last line of their last page (one more line
makes a new page, which the test checks on the document without pith): with
placement=margin the page count and every word of every page, with its position, are the
same as without pith, on pdflatex, the dvips route and xelatex; the stamp is on page 1,
in the right margin, inside the page, right of arXiv's band, selectable as one word,
linked, and ``pith-tex verify`` says verified.  The title badge of the same document costs
a page (what the margin placement is for).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM, URL

FULL = f"pith:2025:{NUM}"
ROUTES3 = ("pdflatex", "dvips", "xelatex")

WORDS = ("results measured under the same conditions show that the method holds for every "
         "case we tried while the baseline drifts as the load grows and the error bars of "
         "both stay within the bounds given by the analysis in the previous section").split()


def filler(paragraphs: int, lines: int) -> str:
    """*paragraphs* paragraphs of varying length, then *lines* one-line paragraphs: the
    one-liners set how full the last page is, a line at a time."""
    out = []
    for i in range(paragraphs):
        n = 25 + (i * 17) % 60
        words = [WORDS[(i * 5 + j) % len(WORDS)] for j in range(n)]
        out.append(f"Paragraph {i + 1}: " + " ".join(words) + ".")
    out += [f"\\noindent Line {j + 1}." for j in range(lines)]
    return "\n\n".join(out)


# class line, what comes between \begin{document} and the filler, paragraphs, one-liners:
# the one-liners fill the last page to its last line (see test_just_full_baseline_is_full).
JUST_FULL = {
    "article-twocolumn": (r"\documentclass[twocolumn]{article}",
                          r"\title{A Paper Filled to Its Page Limit}\author{Ada Author}"
                          r"\maketitle", 60, 40),
    "ieeetran": (r"\documentclass{IEEEtran}",
                 r"\title{A Paper Filled to Its Page Limit}\author{Ada Author}\maketitle",
                 60, 106),
    "revtex": (r"\documentclass[aps,prl,twocolumn]{revtex4-2}",
               r"\title{A Paper Filled to Its Page Limit}\author{Ada Author}"
               r"\affiliation{A University}\begin{abstract}An abstract.\end{abstract}"
               r"\maketitle", 40, 72),
}

# IEEEtran without Times on xelatex (Computer Modern) holds more lines.
LINES_ON_ROUTE = {("ieeetran", "xelatex"): 196}

DOC = r"""%(cls)s
%(pith)s
\begin{document}
%(front)s
%(body)s
\end{document}
"""


def source(name: str, pith: str | None, extra: int = 0, route: str = "pdflatex") -> str:
    cls, front, paragraphs, lines = JUST_FULL[name]
    lines = LINES_ON_ROUTE.get((name, route), lines)
    use = "" if pith is None else "\\usepackage[%s]{pith}" % pith
    return DOC % {"cls": cls, "pith": use, "front": front,
                  "body": filler(paragraphs, lines + extra)}


def pages(pdf: Path) -> int:
    p = subprocess.run([texrun.tool("pdfinfo"), str(pdf)], stdout=subprocess.PIPE, text=True,
                       check=True)
    return int(next(line.split()[-1] for line in p.stdout.splitlines()
                    if line.startswith("Pages:")))


def stamp_word(w: tuple[str, float, float, float, float]) -> bool:
    """A word of the stamp: its identifier or its state."""
    return w[0].startswith("pith:") or w[0] in ("checked", "verified", "unverified")


def page_words(pdf: Path, page: int) -> list[tuple[str, float, float]]:
    """Every word of *page* with its position, to a tenth of a point, top to bottom and
    left to right (pdftotext's reading order may put the stamp's text elsewhere)."""
    return sorted((round(w[2], 1), round(w[1], 1), w[0]) for w in texrun.words(pdf, page))


def verify(pdf: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(pdf)],
                          capture_output=True, text=True, timeout=300)


def assert_margin_stamp(b: texrun.Build) -> None:
    """The stamp on page 1: one selectable word pith:YYYY:NUM, turned (taller than
    wide), in the right margin right of the text, inside the page, right of arXiv's band,
    under a link to its Pith page; verify says verified."""
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    words = [w for w in texrun.words(b.pdf) if w[0].startswith("pith:")]
    assert [w[0] for w in words] == [FULL], words
    _, wx0, top, wx1, bottom = words[0]
    assert bottom - top > 5 * (wx1 - wx0), words  # read from the bottom up
    text = [w for w in texrun.words(b.pdf) if not stamp_word(w)]
    assert wx0 > max(w[3] for w in text), (words, max(w[3] for w in text))
    assert x0 + texrun.ARXIV_STAMP_X <= wx0 and wx1 <= x1, words
    assert y0 <= top and bottom <= y1, words
    assert FULL not in texrun.text(b.pdf, 2)
    links = [r for u, r in texrun.link_annots(b.pdf) if u == URL]
    assert links, texrun.link_annots(b.pdf)
    page_h = y1
    assert any(min(r[0], r[2]) <= wx0 + 0.5 and wx1 - 0.5 <= max(r[0], r[2])
               and min(r[1], r[3]) <= page_h - bottom + 0.5
               and page_h - top - 0.5 <= max(r[1], r[3]) for r in links), (links, words)
    v = verify(b.pdf)
    assert v.returncode == 0, v.stdout + v.stderr


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("name", list(JUST_FULL))
def test_just_full_margin_changes_no_line_or_page(tmp_path: Path, name: str,
                                                  route: str) -> None:
    base = texrun.compile_tex(tmp_path / "base", source(name, None, route=route), route)
    assert base.ok, base.describe()
    n = pages(base.pdf)
    # Full to the last line: one line more makes a new page.
    more = texrun.compile_tex(tmp_path / "more", source(name, None, extra=1, route=route), route)
    assert more.ok, more.describe()
    assert pages(more.pdf) == n + 1, (n, pages(more.pdf))

    b = texrun.compile_tex(tmp_path / "margin", source(name, "placement=margin", route=route),
                           route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert pages(b.pdf) == n
    for page in range(1, n + 1):
        got = [w for w in page_words(b.pdf, page)
               if not (page == 1 and stamp_word((w[2], w[1], w[0], 0.0, 0.0)))]
        assert got == page_words(base.pdf, page), page
    assert_margin_stamp(b)

    # The title badge of the same paper costs a page: what the margin is for.
    t = texrun.compile_tex(tmp_path / "title", source(name, "placement=title", route=route), route,
                           include=texrun.README_INCLUDE)
    assert t.ok, t.describe()
    assert pages(t.pdf) == n + 1


QR_DOC = r"""\documentclass{article}
%(pre)s
\usepackage[placement=margin,qr%(opts)s]{pith}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
%(body)s
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_margin_qr_in_the_margin(tmp_path: Path, route: str) -> None:
    """One column, wide margins: the QR code under the stamp, in the same margin, clear
    of the text, decoded from page 1's pixels; verify checks it."""
    from test_latex_links import QR_TEXT, decode_area, overlaps

    src = QR_DOC % {"pre": "", "opts": "", "body": filler(12, 0)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Package pith Warning" not in b.log
    assert_margin_stamp(b)
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    text = [w for w in texrun.words(b.pdf) if not stamp_word(w)]
    right = max(w[3] for w in text)
    qr = [r for u, r in texrun.link_annots(b.pdf) if u == URL]
    assert len(qr) == 2, qr
    for r in qr:
        assert right < min(r[0], r[2]) and max(r[0], r[2]) <= x1, (r, right)
        box = tuple(r)
        assert not any(overlaps(box, (w[1], y1 - w[4], w[3], y1 - w[2])) for w in text)
    square = min(qr, key=lambda r: abs(abs(r[2] - r[0]) - abs(r[3] - r[1])))
    assert decode_area(b.pdf, tuple(square), y1, tmp_path) == [QR_TEXT]
    v = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(b.pdf)],
                       capture_output=True, text=True, timeout=300)
    checks = {c["name"]: c for c in json.loads(v.stdout)["files"][0]["checks"]}
    assert v.returncode == 0 and checks["qr"]["status"] == "ok", checks["qr"]


@pytest.mark.parametrize("route", ROUTES3)
def test_narrow_margin_is_warned_and_stays_on_the_page(tmp_path: Path, route: str) -> None:
    """A 0.3 in margin: the stamp is drawn at its smallest (4 pt), stays inside the page
    and clear of the text, with a warning; the QR code, which cannot fit, is left out with
    a warning instead of being drawn over the text."""
    src = QR_DOC % {"pre": r"\usepackage[margin=0.3in]{geometry}", "opts": "",
                    "body": filler(12, 0)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.split())
    assert "the stamp of placement=margin" in log.replace("(pith) ", ""), b.log
    assert "cannot hold the QR code" in log.replace("(pith) ", ""), b.log
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    words = [w for w in texrun.words(b.pdf) if w[0].startswith("pith:")]
    assert [w[0] for w in words] == [FULL]
    text = [w for w in texrun.words(b.pdf) if not stamp_word(w)]
    assert max(w[3] for w in text) < words[0][1] and words[0][3] <= x1, words
    assert len([u for u, _ in texrun.link_annots(b.pdf) if u == URL]) == 1


# -- The media's width, not \paperwidth -----------------------------------------------------
# A paper that states no paper size (no hyperref, no geometry, no \DocumentMetadata) is laid
# out for the class's \paperwidth but printed on the paper the TeX installation is
# configured for: pdftexconfig.tex of an A4 TeX sets \pdfpagewidth to 210 mm, which the
# class's letter default (8.5 in) does not change, and the reverse on a letter TeX.  The
# stamps were placed from \paperwidth: 17 pt off on such a page, and the margin stamp's QR
# code off the page's edge (verify's qr check fails).  The stand-in states the engine's page
# size the way such an installation does, under a class layout with 1 in margins on letter
# paper (the text block's right edge at 7.5 in from the paper's left edge).
MEDIA_DOC = r"""\documentclass%(cls)s{article}
\setlength\textwidth{6.5in}\setlength\oddsidemargin{0pt}\setlength\evensidemargin{0pt}
\ifdefined\pagewidth \pagewidth=%(w)s \pageheight=%(h)s
\else \pdfpagewidth=%(w)s \pdfpageheight=%(h)s \fi
\usepackage[placement=%(placement)s,qr]{pith}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
%(body)s
\end{document}
"""
TEXT_RIGHT = 540.0  # pt: 1 in + \oddsidemargin + \textwidth
MEDIA = {
    # the class's letter default printed on A4: the margin (55 pt) cannot hold the code
    "a4-media": ("", "210truemm", "297truemm"),
    # a4paper printed on letter: the margin (72 pt) holds it
    "letter-media": ("[a4paper]", "8.5truein", "11truein"),
}
# pdfTeX in PDF mode, XeTeX and LuaTeX know the media; dvips does not (docs/badge.md).
MEDIA_ROUTES = ("pdflatex", "xelatex", "lualatex")


@pytest.mark.parametrize("route", MEDIA_ROUTES)
@pytest.mark.parametrize("media", list(MEDIA))
def test_margin_stamp_is_placed_on_the_media(tmp_path: Path, media: str, route: str) -> None:
    """The margin stamp centred across the margin the reader sees (media edge less the
    text block's right edge), its QR code inside the page or left out with a warning;
    verify says verified."""
    from test_latex_links import QR_TEXT, decode_area

    cls, w, h = MEDIA[media]
    src = MEDIA_DOC % {"cls": cls, "w": w, "h": h, "placement": "margin",
                       "body": filler(6, 0)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    log = " ".join(b.log.replace("(pith)", "").split())
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    margin = x1 - TEXT_RIGHT
    words = [w for w in texrun.words(b.pdf) if w[0].startswith("pith:")]
    assert [w[0] for w in words] == [FULL], words
    _, wx0, top, wx1, bottom = words[0]
    assert TEXT_RIGHT < wx0 and wx1 <= x1 and y0 <= top and bottom <= y1, (words, x1)
    links = [r for u, r in texrun.link_annots(b.pdf) if u == URL]
    # The stamp's link covers the badge's box: the tall one.
    stamp = max(links, key=lambda r: abs(r[3] - r[1]) - abs(r[2] - r[0]))
    assert abs((stamp[0] + stamp[2]) / 2 - (TEXT_RIGHT + x1) / 2) < 1, (stamp, x1)
    if margin < 56.7 + 12:
        assert "cannot hold the QR code" in log, b.log
        assert len(links) == 1, links
    else:
        assert "Package pith Warning" not in b.log, b.log
        assert len(links) == 2, links
        qr = min(links, key=lambda r: abs(abs(r[2] - r[0]) - abs(r[3] - r[1])))
        assert TEXT_RIGHT < min(qr[0], qr[2]) and max(qr[0], qr[2]) <= x1, (qr, x1)
        assert abs((qr[0] + qr[2]) / 2 - (TEXT_RIGHT + x1) / 2) < 1, (qr, x1)
        assert decode_area(b.pdf, tuple(qr), y1, tmp_path) == [QR_TEXT]
    v = verify(b.pdf)
    assert v.returncode == 0, v.stdout + v.stderr


@pytest.mark.parametrize("route", MEDIA_ROUTES)
def test_corner_stamp_is_placed_on_the_media(tmp_path: Path, route: str) -> None:
    """The corner stamp's right edge 36 pt in from the media's right edge, its QR code
    under it, inside the page and decoded; verify says verified."""
    from test_latex_links import QR_TEXT, decode_area

    cls, w, h = MEDIA["a4-media"]
    src = MEDIA_DOC % {"cls": cls, "w": w, "h": h, "placement": "corner",
                       "body": filler(6, 0)}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    links = [r for u, r in texrun.link_annots(b.pdf) if u == URL]
    assert len(links) == 2, links
    qr = min(links, key=lambda r: abs(abs(r[2] - r[0]) - abs(r[3] - r[1])))
    stamp = max(links, key=lambda r: abs(r[2] - r[0]))
    assert abs(max(stamp[0], stamp[2]) - (x1 - 36)) < 1.5, (stamp, x1)
    assert abs(max(qr[0], qr[2]) - (x1 - 36)) < 1.5, (qr, x1)
    assert decode_area(b.pdf, tuple(qr), y1, tmp_path) == [QR_TEXT]
    v = verify(b.pdf)
    assert v.returncode == 0, v.stdout + v.stderr
