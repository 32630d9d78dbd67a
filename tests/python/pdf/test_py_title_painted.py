"""The title as readers see it (issue 27, item 2): ``verify`` compares the record's title
with the title block that page 1 *paints*, whole.  Real fetch (the example mirror), real
pdflatex, real engines; TeX is required (a missing program is an error, never a skip).

Forgeries: another paper's title is what every reader sees, while the record's title is
in the text layer, hidden four ways (text render mode 3, white, under a white box,
clipped away), or painted smaller below a larger title, or painted with words added.
Each gets exit 1, and the test shows from PDFium's, poppler's and pdf.js's renderings that no ink
is where the hidden title's words are.

Honest papers: stand-ins of ICLR's small-capital title (Times, whose small capitals are
capitals scaled down: the engines read mixed sizes), a letter-spaced title (microtype and
soul), the margin and the corner stamps, and a first page of highlights before the title
page (Elsevier's cas).  Each verifies (exit 0) and check is ready on the title line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, List, Tuple

import pytest

import pdfjs
from test_py_title_pdf import TITLE, build, lines, paper, pith_tex, verify
from texbuild import compile_tex

OTHER = "Slow and Costly Recovery of Small Jobs on Tiny Clusters"

#: A title block made by hand, as a class's \@maketitle makes it: the badge goes
#: after it (pith wraps \@maketitle).
MAKETITLE = r"""\makeatletter
\def\@maketitle{\begin{center}%(title)s\par\vskip 1.5em%(author)s\end{center}}
\makeatother
"""


def titled(d: Path, block: str, preamble: str = "", body: str = "Text.",
           route: str = "pdflatex", author: str = r"{\large A. Author}") -> Path:
    """A paper with the example's number whose title block is *block* (LaTeX), built by
    *route*."""
    paper(d, TITLE)
    main = d / "main.tex"
    src = main.read_text()
    src = src.replace("\\begin{document}", preamble + MAKETITLE % {"title": block, "author": author}
                      + "\\begin{document}").replace("Text.", body)
    if route == "pdflatex":
        main.write_text(src)
        return build(d)
    b = compile_tex(d, src, route, include=(d / "pith-number.tex").read_text())
    assert b.ok, b.describe()
    return b.pdf


# --- what readers see -----------------------------------------------------------------


def _dark(raster, box: Tuple[float, float, float, float]) -> int:
    """Pixels darker than mid-grey inside *box* (points, top-left origin) of *raster*."""
    k = raster.dpi / 72.0
    x0, x1 = int(box[0] * k), int(box[2] * k + 0.999)
    y0, y1 = int(box[1] * k), int(box[3] * k + 0.999)
    return sum(1 for y in range(max(0, y0), min(raster.height, y1))
               for v in raster.pixels[y * raster.width + max(0, x0):y * raster.width
                                      + min(raster.width, x1)] if v < 128)


def seen(pdf: Path, words: List[str]) -> Dict[str, Dict[str, int]]:
    """For each engine, the dark pixels its rendering of page 1 has inside the box of each
    of *words* (as poppler's text layer places them: the first occurrence of each)."""
    from pith_tex.pdf.pageview import page_one

    page = page_one(pdf.read_bytes())
    poppler = next(v for v in page.views if v.engine == "poppler")
    boxes = {}
    for w in poppler.words:
        if w.text in words and w.text not in boxes:
            boxes[w.text] = w.box
    assert set(boxes) == set(words), (boxes, words)
    shown = {v.engine: {w: _dark(v.raster, boxes[w]) for w in words} for v in page.views}
    firefox = pdfjs.render(pdf)  # the third oracle: what Firefox paints
    raster = SimpleNamespace(dpi=firefox.info["dpi"], width=firefox.width,
                             height=firefox.height, pixels=firefox.pixels)
    shown["pdf.js"] = {w: _dark(raster, boxes[w]) for w in words}
    return shown


# --- forgeries --------------------------------------------------------------------------

#: The record's title in the text layer, at the largest size, where nobody sees it; the
#: title every reader sees (another paper's) below it, smaller.
HIDDEN = {
    "render mode 3": r"{\LARGE\pdfliteral direct{3 Tr}%s\pdfliteral direct{0 Tr}}",
    "white": r"{\LARGE\textcolor{white}{%s}}",
    "under a white box": (r"\sbox0{\parbox{\textwidth}{\centering\LARGE %s}}"
                          r"\leavevmode\rlap{\usebox0}\textcolor{white}{\rule[-\dimexpr\dp0+3pt\relax]"
                          r"{\wd0}{\dimexpr\ht0+\dp0+6pt\relax}}"),
    "clipped": (r"\sbox0{\parbox{\textwidth}{\centering\LARGE %s}}"
                r"\pdfliteral page{q 0 0 0 0 re W n}\usebox0\pdfliteral page{Q}"),
}


@pytest.mark.parametrize("how", sorted(HIDDEN))
def test_a_hidden_title_under_another_papers_fails(tmp_path: Path, how: str) -> None:
    block = HIDDEN[how] % TITLE + r"\par\vskip 1em{\Large %s}" % OTHER
    pdf = titled(tmp_path / "p", block, preamble="\\usepackage{xcolor}\n")
    # every reader sees the other title, and no ink where the record's title's words are
    # (their boxes as poppler's text layer has them)
    ink = seen(pdf, ["FlashRecovery:", "Low-Cost", "Costly", "Tiny"])
    for engine, dark in ink.items():
        assert dark["FlashRecovery:"] == 0 and dark["Low-Cost"] == 0, (engine, dark)
        assert dark["Costly"] > 20 and dark["Tiny"] > 20, (engine, dark)
    doc = verify(pdf)
    assert doc["rc"] == 1, doc
    t = lines(doc)["title"]
    assert t["status"] == "fail", t
    assert t["detail"].startswith("different: this PDF is titled '%s'; the number is for "
                                  "'%s'" % (OTHER, TITLE)), t
    assert "the record's title is in page 1's text but does not paint there" in t["detail"]


def test_a_hidden_title_alone_fails(tmp_path: Path) -> None:
    # nothing else set large: page 1 shows no title at all, though its text layer has one
    pdf = titled(tmp_path / "p", HIDDEN["white"] % TITLE,
                 preamble="\\usepackage{xcolor}\n")
    doc = verify(pdf)
    assert doc["rc"] == 1, doc
    t = lines(doc)["title"]
    assert t["status"] == "fail" and "does not paint there" in t["detail"], t


def test_another_title_set_larger_above_fails(tmp_path: Path) -> None:
    # the record's title painted, but below another paper's, set larger: that is what a
    # reader takes for the title (a venue's name above a title is one short line)
    block = r"{\huge %s\par}\vskip 1em{\LARGE %s}" % (OTHER, TITLE)
    pdf = titled(tmp_path / "p", block)
    ink = seen(pdf, ["Costly", "FlashRecovery:"])
    assert all(d["Costly"] > 20 and d["FlashRecovery:"] > 20 for d in ink.values()), ink
    doc = verify(pdf)
    assert doc["rc"] == 1, doc
    t = lines(doc)["title"]
    assert t["status"] == "fail" and t["detail"].startswith(
        "different: this PDF is titled '%s" % OTHER), t


@pytest.mark.parametrize("added", [", with an Application to Protein Folding",
                                   r"\\ and Its Application to Protein Folding",
                                   r"\\ {\Large and Its Application to Protein Folding}"])
def test_the_records_title_with_words_added_fails(tmp_path: Path, added: str) -> None:
    pdf = titled(tmp_path / "p", r"{\LARGE %s%s}" % (TITLE, added))
    doc = verify(pdf)
    assert doc["rc"] == 1, doc
    t = lines(doc)["title"]
    assert t["status"] == "fail", t
    assert t["detail"].startswith("different: this PDF is titled '%s" % TITLE[:60]), t


# --- honest papers ----------------------------------------------------------------------


def ready(d: Path) -> Dict[str, str]:
    """check's title line for the paper in *d* (which must be ready for arXiv there)."""
    r = pith_tex("check", "--json", d, cwd=d.parent)
    doc = json.loads(r.stdout)
    (title,) = [c for c in doc["checks"] if c["name"] == "title"]
    assert title["status"] == "ok", (title, r.stdout[-2000:])
    return title


def honest(pdf: Path) -> str:
    doc = verify(pdf)
    assert doc["rc"] == 0, lines(doc)
    t = lines(doc)["title"]
    assert t["status"] == "ok", t
    return t["detail"]


@pytest.mark.parametrize("route", ["pdflatex", "dvips"])
def test_iclr_small_capitals(tmp_path: Path, route: str) -> None:
    # ICLR: Times, the title in \sc: capitals at 17 pt, small capitals (capitals scaled
    # down) at 14 pt; the engines read the sizes apart, and the small words (AND, FROM,
    # FOR, OF) are small capitals only.  Through dvips and Ghostscript, poppler's word
    # boxes are only as high as the capitals: the lines are still one block
    pdf = titled(tmp_path / "p", r"{\LARGE\sc %s\par}" % TITLE,
                 preamble="\\usepackage{times}\n", route=route)
    detail = honest(pdf)
    assert detail.startswith("same: page 1's title is the record's title 'FLASHRECOVERY: "
                             "FAST AND LOW-COST RECOVERY FROM FAILURES FOR LARGE-SCALE "
                             "TRAINING OF LLMS'"), detail
    ready(pdf.parent)


@pytest.mark.parametrize("how", ["microtype", "soul"])
def test_a_letter_spaced_title(tmp_path: Path, how: str) -> None:
    if how == "microtype":
        block, pre = r"{\LARGE\scshape\textls[200]{%s}\par}" % TITLE, "\\usepackage{microtype}\n"
    else:
        block, pre = r"{\LARGE\so{%s}\par}" % TITLE, "\\usepackage{soul}\n"
    pdf = titled(tmp_path / "p", block, preamble=pre)
    detail = honest(pdf)
    assert detail.startswith(("same: page 1's title", "same up to formatting: page 1's "
                              "title")), detail
    ready(pdf.parent)


@pytest.mark.parametrize("placement", ["margin", "corner"])
def test_the_stamps_are_never_the_title(tmp_path: Path, placement: str) -> None:
    # a page of body text, the stamp beside it: the stamp is pith's, not the title
    d = tmp_path / "p"
    paper(d, TITLE)
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage{pith}", "\\usepackage[placement="
                                             "%s]{pith}\n\\usepackage{lipsum}" % placement)
                    .replace("Text.", "\\lipsum[1-6]"))
    detail = honest(build(d))
    assert detail.startswith("same: page 1's title is the record's title '%s'" % TITLE), \
        detail
    ready(d)


HIGHLIGHTS = r"""\begin{titlepage}
{\fontsize{14pt}{16pt}\selectfont %(heading)s\par}
\vskip 12pt
%(title)s
\begin{itemize}
\item Jobs recover in seconds after a failure.
\item The cost of a checkpoint falls by an order of magnitude.
\item Thousands of accelerators train on.
\end{itemize}
\end{titlepage}
"""


@pytest.mark.parametrize("heading,with_title", [("Highlights", True),
                                                 ("Highlights", False),
                                                 ("Graphical Abstract", True)])
def test_a_first_page_of_highlights(tmp_path: Path, heading: str, with_title: bool) -> None:
    # Elsevier's cas: page 1 is "Highlights" (14 pt), the title in 12 pt bold (or not at
    # all), bullets; the title page is page 2
    d = tmp_path / "p"
    paper(d, TITLE)
    main = d / "main.tex"
    prelim = HIGHLIGHTS % {"heading": heading, "title": "{\\fontsize{12pt}{14pt}\\bfseries "
                           "%s\\par}\\vskip 6pt" % TITLE if with_title else ""}
    main.write_text(main.read_text().replace("\\begin{document}\n",
                                             "\\begin{document}\n" + prelim))
    detail = honest(build(d))
    assert detail.startswith("same: page 2's title is the record's title '%s'" % TITLE), \
        detail
    ready(d)


def test_a_title_drawn_twice_for_a_shadow(tmp_path: Path) -> None:
    # a grey copy under the title, a point off: the same letters over each other are
    # read once, and neither copy hides the other
    block = (r"\sbox0{\parbox{\textwidth}{\centering\LARGE %s}}\leavevmode"
             r"\rlap{\raisebox{-0.8pt}{\hspace{0.8pt}\textcolor{black!40}{\usebox0}}}"
             r"\usebox0" % TITLE)
    pdf = titled(tmp_path / "p", block, preamble="\\usepackage{xcolor}\n")
    detail = honest(pdf)
    assert detail.startswith("same: page 1's title is the record's title '%s'" % TITLE), \
        detail


def test_arxivs_stamp_up_the_left_edge(tmp_path: Path) -> None:
    # arXiv stamps its identifier and the date up the left edge of page 1, turned, in
    # 20 pt Times: larger than many titles, and poppler's box of a short word turned
    # ("17") looks like an upright word's
    stamp = (r"\AddToShipoutPictureFG*{\AtPageLowerLeft{\put(20,230){\rotatebox{90}{"
             r"\fontsize{20}{20}\usefont{T1}{ptm}{m}{n}\color{gray}arXiv:2509.03047v1"
             r"\ \ [cs.DC]\ \ 17 Sep 2025}}}}" "\n")
    # and an axis label turned beside the text, in the page's upper part: poppler's box
    # of it is as high as the label is long
    body = r"\rotatebox{90}{\footnotesize Accuracy of recovery (\%)}\ \lipsum[1-4]"
    pdf = titled(tmp_path / "p", r"{\LARGE %s\par}" % TITLE, body=body,
                 preamble="\\usepackage{eso-pic,graphicx,xcolor,lipsum}\n" + stamp)
    detail = honest(pdf)
    assert detail.startswith("same: page 1's title is the record's title '%s'" % TITLE), \
        detail


def test_type3_fonts_through_dvips(tmp_path: Path) -> None:
    # T1 text without outline fonts: dvips embeds TeX's bitmaps as Type 3 fonts, whose
    # boxes in poppler are 1.7 times the size high (a narrow word, "for", is taller than
    # wide there)
    pdf = titled(tmp_path / "p", r"{\LARGE %s\par}" % TITLE,
                 preamble="\\usepackage[T1]{fontenc}\n", route="dvips")
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "Type 3" in fonts, fonts
    detail = honest(pdf)
    assert detail.startswith("same: page 1's title is the record's title '%s'" % TITLE), \
        detail


def test_a_title_set_at_the_body_size(tmp_path: Path) -> None:
    # amsart: the title in bold capitals at the body's size, the authors in small
    # capitals at that size too: nothing on page 1 is larger
    pdf = titled(tmp_path / "p", r"{\bfseries\MakeUppercase{%s}\par}" % TITLE,
                 body=r"\lipsum[1-4]", preamble="\\usepackage{lipsum}\n",
                 author=r"{\scshape A. Author}")
    detail = honest(pdf)
    assert detail.startswith("same: page 1's title is the record's title '%s'"
                             % TITLE.upper()), detail


def test_another_title_on_the_highlights_page_fails(tmp_path: Path) -> None:
    # the page of highlights passed over shows another paper's title where cas sets the
    # paper's: that is a title a reader sees first
    d = tmp_path / "p"
    paper(d, TITLE)
    main = d / "main.tex"
    prelim = HIGHLIGHTS % {"heading": "Highlights", "title": "{\\fontsize{12pt}{14pt}"
                           "\\bfseries %s\\par}\\vskip 6pt" % OTHER}
    main.write_text(main.read_text().replace("\\begin{document}\n",
                                             "\\begin{document}\n" + prelim))
    pdf = build(d)
    ink = seen(pdf, ["Costly", "Tiny"])
    assert all(v["Costly"] > 20 and v["Tiny"] > 20 for v in ink.values()), ink
    doc = verify(pdf)
    assert doc["rc"] == 1, lines(doc)
    t = lines(doc)["title"]
    assert t["status"] == "fail" and t["detail"].startswith(
        "different: page 1, of highlights or a graphical abstract, shows the title '%s'"
        % OTHER), t
