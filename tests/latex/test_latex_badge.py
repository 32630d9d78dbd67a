"""The badge on page 1 of real-world title mechanisms, read back from the PDF.

Each document is a stand-in written here for a mechanism found in real templates
(none of their files is used): a ``\\maketitle`` redefined in ``\\AtBeginDocument``
(acl.sty), a title built by hand in ``\\twocolumn[...]`` (ICML), a ``\\maketitle``
that only ends the page (PoS, iopart), two columns in Times (AAAI, IJCAI), a
6.5 cm column, ``\\hoffset``/``\\voffset`` with the corner stamp (JHEP, LIPIcs),
small paper, a title block or title page that fills page 1 (long author lists,
abstracts in the block), beamer with the title frame second.  Each is compiled
on arXiv's three routes and read back with poppler and pypdf: the badge's text
is on page 1, inside the page and its column, pith caused no ``Overfull \\hbox``,
and its link has no border.
"""

from __future__ import annotations

import re
import subprocess
import zlib
from pathlib import Path

import pytest

import texrun
from texrun import NUM, URL

ROUTES3 = ("pdflatex", "dvips", "xelatex")
FULL = f"pith:{NUM}"

# Stand-in packages, written next to the document at test time.
ACL_LIKE = r"""\ProvidesPackage{aclish}
\AtBeginDocument{\renewcommand\maketitle{\par\begin{center}{\Large\bfseries\@title\par}
  \vskip 1em{\large\@author\par}\end{center}\par\vskip 1em}}
"""

STANDINS: dict[str, tuple[str, dict[str, str]]] = {
    # acl.sty: \maketitle (re)defined in \AtBeginDocument, after pith wrapped it.
    "atbegindocument": (r"""\documentclass{article}
\usepackage{aclish}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Title Made Late}\author{Ada Author}
\begin{document}
\maketitle
Body text.\newpage Page two.
\end{document}
""", {"aclish.sty": ACL_LIKE}),
    # ICML: the title block is built by hand in \twocolumn[...]; no \maketitle.
    "twocolumn-by-hand": (r"""\documentclass[twocolumn]{article}
\usepackage{times}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\begin{document}
\twocolumn[\centerline{\Large\bfseries A Title Built By Hand}
  \vskip 0.5em\centerline{Ada Author}\vskip 1.5em]
Body text in the left column.
\end{document}
""", {}),
    # PoS / iopart: the title is typeset by hand, \maketitle only ends the page.
    "maketitle-newpage": (r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\renewcommand\maketitle{\newpage}
\begin{document}
{\centering\Large A Title Typed By Hand\par}
Body text on page one.
\maketitle
Page two.
\end{document}
""", {}),
    # AAAI / IJCAI: two columns in Times, so \ttfamily is Courier.
    "twocolumn-times": (r"""\documentclass[twocolumn]{article}
\usepackage{times}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Title Across Both Columns}\author{Ada Author}
\begin{document}
\maketitle
Body text. \pithbadge\ inline in the left column.
\end{document}
""", {}),
    # A 6.5 cm column, Courier: the badge must shrink, not overflow.
    "narrow-column": (r"""\documentclass{article}
\usepackage{mathptmx}
\usepackage[textwidth=6.5cm,paperwidth=12cm,paperheight=18cm]{geometry}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\pithsetup{size=large}
\title{Narrow}\author{Ada Author}
\begin{document}
\maketitle
Body text.
\end{document}
""", {}),
    # Non-zero offsets (jheppub, PoS, LIPIcs) with the corner stamp.
    "offsets-corner": (r"""\documentclass{article}
\usepackage[placement=corner]{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\hoffset=-0.6in \voffset=0.8in
\title{Offsets}\author{Ada Author}
\begin{document}
\maketitle
Body text.
\end{document}
""", {}),
    # Small paper, the badge as a corner stamp.
    "b6-corner": (r"""\documentclass{article}
\usepackage[b6paper,margin=1.5cm]{geometry}
\usepackage[placement=corner]{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{Small}\author{Ada Author}
\begin{document}
\maketitle
Body text.
\end{document}
""", {}),
    # A title block that ends near the foot of page 1 (a long author list, an
    # abstract in the block): the badge under it would be pushed onto page 2.
    "title-fills-page": (r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Title Block Filling Page One}\author{Ada Author}
\date{\rule{0pt}{\dimexpr\textheight-115pt\relax}}
\begin{document}
\maketitle
Body text.\newpage Page two.
\end{document}
""", {}),
    # The titlepage option (report, book...): the badge goes at the foot of the
    # title page, which is nearly full here.
    "titlepage-full": (r"""\documentclass{report}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Full Title Page}\author{Ada Author}
\date{\rule{0pt}{\dimexpr\textheight-190pt\relax}}
\begin{document}
\maketitle
Body text.\newpage Page two.
\end{document}
""", {}),
    # CVPR/ICCV papers' teaser: \maketitle (itself \twocolumn[\@maketitle]) inside
    # \twocolumn[...] with \twocolumn redefined to typeset its argument.
    "twocolumn-teaser": (r"""\documentclass[twocolumn]{article}
\usepackage{times}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\makeatletter
\def\maketitle{\par\begingroup\twocolumn[\@maketitle]\endgroup}
\makeatother
\title{A Title Above a Teaser}\author{Ada Author}
\begin{document}
\twocolumn[{\renewcommand\twocolumn[1][]{#1}\maketitle
  \begin{center}\rule{0.9\textwidth}{3cm}\par Teaser.\end{center}}]
Body text in the left column.
\end{document}
""", {}),
    # Springer Nature's sn-jnl (two columns): \@maketitle is typeset into a box to
    # measure it, thrown away, typeset again in \twocolumn[...], then \relax'ed.
    "measured-title": (r"""\documentclass[twocolumn]{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\makeatletter
\newdimen\titleht
\renewcommand\maketitle{\par\begingroup
  \setbox0=\vbox{\@maketitle}\titleht=\ht0 \advance\titleht by \dp0
  \ifdim\titleht>\textheight \unvbox0 \else \twocolumn[\@maketitle]\fi
  \endgroup \global\let\maketitle\relax \global\let\@maketitle\relax}
\makeatother
\title{A Measured Title}\author{Ada Author}
\begin{document}
\maketitle
Body text in the left column.
\end{document}
""", {}),
    # A title page made by hand (theses, reports): no \maketitle at all.  The badge
    # goes at its foot, not in the corner.
    "titlepage-by-hand": (r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\begin{document}
\begin{titlepage}
\centering\vspace*{3cm}{\Huge A Title Page By Hand\par}\vspace{1cm}{\Large Ada Author\par}
\vfill
\end{titlepage}
Body text.\newpage Page two.
\end{document}
""", {}),
    # jheppub: \maketitle sets the whole title page itself (title, authors, abstract),
    # then ends it with \newpage before the table of contents.
    "maketitle-ends-title-page": (r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\makeatletter
\renewcommand\maketitle{\thispagestyle{empty}%%
  {\LARGE\sffamily\bfseries\@title\par}\vskip23pt plus0.06fil
  {\sffamily\@author\par}\vskip16pt plus9pt
  \noindent\textsc{Abstract:} What the paper says.\vskip16pt plus9pt
  \newpage\pagestyle{plain}}
\makeatother
\title{A Title Page That Ends Itself}\author{Ada Author}
\begin{document}
\maketitle
Body text on page two.\newpage Page three.
\end{document}
""", {}),
    # Beamer: the title frame is not the first one (an outline first).
    "beamer-title-second": (r"""\documentclass{beamer}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Talk}\author{Ada Author}
\begin{document}
\begin{frame}{Outline}First things first.\end{frame}
\begin{frame}\titlepage\end{frame}
\end{document}
""", {}),
}

# Where the badge must end up: inside a column ("column"), centred in a block
# spanning both columns ("spanning"), or anywhere on the page.
SPANNING = {"twocolumn-by-hand", "twocolumn-times", "twocolumn-teaser", "measured-title"}
FOOT = {"titlepage-by-hand"}
CORNER_LOGGED = {"maketitle-newpage", "title-fills-page", "titlepage-full",
                 "beamer-title-second"}


def build(tmp_path: Path, name: str, route: str) -> texrun.Build:
    src, files = STANDINS[name]
    tmp_path.mkdir(parents=True, exist_ok=True)
    for fname, body in files.items():
        (tmp_path / fname).write_text(body, encoding="ascii")
    return texrun.compile_tex(tmp_path, src % {"num": NUM}, route)


def badge_words(pdf: Path, page: int = 1) -> list[tuple[str, float, float, float, float]]:
    return [w for w in texrun.words(pdf, page) if w[0].startswith("pith:")]


def pith_overfull(log: str) -> list[str]:
    """Overfull \\hbox warnings (each followed by the box's contents)."""
    return re.findall(r"Overfull \\hbox[^\n]*\n[^\n]*", log)


def annots(pdf: Path, page: int = 1) -> list[dict]:
    import pypdf

    res = []
    for a in pypdf.PdfReader(str(pdf)).pages[page - 1].get("/Annots") or []:
        a = a.get_object()
        if a.get("/Subtype") == "/Link":
            res.append(a)
    return res


def border_width(annot: dict) -> float:
    """The border width a viewer draws: /BS /W, else /Border's third number,
    else the PDF default of 1."""
    bs = annot.get("/BS")
    if bs is not None and "/W" in bs.get_object():
        return float(bs.get_object()["/W"])
    border = annot.get("/Border")
    if border is not None:
        return float(border[2])
    return 1.0


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("name", list(STANDINS))
def test_badge_on_page_one(tmp_path: Path, name: str, route: str) -> None:
    b = build(tmp_path, name, route)
    assert b.ok, b.describe()
    words = badge_words(b.pdf)
    assert len(words) >= 1, texrun.text(b.pdf)
    assert any(w[0] == FULL for w in words), words
    x0, y0, x1, y1 = texrun.mediabox(b.pdf)
    for w, bx0, by0, bx1, by1 in words:
        assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1, (w, bx0, bx1, x1)
        assert bx0 >= texrun.ARXIV_STAMP_X, w
    # Nowhere else: the badge appears once, on page 1.
    assert FULL not in texrun.text(b.pdf, 2)
    assert not pith_overfull(b.log), pith_overfull(b.log)
    # It is a link, to the right place, without a border box.
    links = [a for a in annots(b.pdf) if URL in str(a.get("/A", {}).get("/URI", ""))]
    assert links, "no link on the badge"
    for a in links:
        assert border_width(a) == 0, a
        rx0, ry0, rx1, ry1 = (float(v) for v in a["/Rect"])
        assert x0 <= min(rx0, rx1) and max(rx0, rx1) <= x1, a["/Rect"]
        assert y0 <= min(ry0, ry1) and max(ry0, ry1) <= y1, a["/Rect"]
    if name in SPANNING:
        # In the block over both columns, centred on it (the text block is centred
        # on the page in these set-ups): the highest link is the title badge's.
        top = max((a for a in links), key=lambda a: max(float(a["/Rect"][1]),
                                                        float(a["/Rect"][3])))
        mid = (float(top["/Rect"][0]) + float(top["/Rect"][2])) / 2
        assert abs(mid - (x0 + x1) / 2) < 2, (mid, x1)
    if name in FOOT:
        # Under the title, in the lower half of the page, not the corner stamp.
        assert all(by0 > (y0 + y1) / 2 for _, _, by0, _, _ in words), words
    if name in CORNER_LOGGED:
        assert "without the title badge" in re.sub(r"\n\(pith\)\s+", " ", b.log)
    else:
        assert "without the title badge" not in b.log
    # The title badge shipped out where it was set: no miss noticed at shipout, nothing
    # recorded for the next run, no rerun asked for (test_latex_badge_shipped.py).
    assert "pith@badgemissed" not in (b.dir / "main.aux").read_text(encoding="latin-1")
    assert "Rerun to get the badge" not in b.log
    assert "in the last run" not in b.log


@pytest.mark.parametrize("route", ROUTES3)
def test_spanning_title_block_centres_the_badge(tmp_path: Path, route: str) -> None:
    """Two columns: the title badge sits in the full-width block, centred on
    the page's text width, above both columns; the inline one stays inside
    the left column."""
    b = build(tmp_path, "twocolumn-times", route)
    assert b.ok, b.describe()
    words = sorted(badge_words(b.pdf), key=lambda w: w[2])
    assert len(words) == 2, words
    title, inline = words
    body = [w for w in texrun.words(b.pdf) if w[0] == "Body"][0]
    # 1in margin + \oddsidemargin etc.: the text block is centred on the page
    # in these article set-ups, so the title badge is centred on the page.
    # The badge's extent is its link rectangle (it covers mark and frame;
    # the text alone sits right of the mark).
    pw, ph = texrun.mediabox(b.pdf)[2:]
    rects = [[float(v) for v in a["/Rect"]] for a in annots(b.pdf)
             if URL in str(a.get("/A", {}).get("/URI", ""))]
    top = max(rects, key=lambda r: max(r[1], r[3]))  # the title badge: highest
    assert min(top[0], top[2]) <= title[1] and title[3] <= max(top[0], top[2])
    mid = (top[0] + top[2]) / 2
    assert abs(mid - pw / 2) < 2, (mid, pw / 2)
    assert title[4] < body[2], "the badge is above the columns"
    # The inline badge stays in the left column (left of the page's middle).
    assert inline[3] < pw / 2, inline


# -- monochrome ------------------------------------------------------------

def saturated_pixels(pdf: Path, tmp: Path) -> int:
    """Pixels of page 1 (rendered by pdftoppm at 100 dpi) whose channels
    differ by more than 40 of 255: colour, not black/grey."""
    subprocess.run([texrun.tool("pdftoppm"), "-r", "100", "-f", "1", "-l", "1",
                    str(pdf), str(tmp / "page")], check=True)
    ppm = next(tmp.glob("page*.ppm")).read_bytes()
    # P6 header: magic, width, height, maxval, each followed by whitespace.
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", ppm)
    assert m, ppm[:20]
    data = ppm[m.end():]
    count = 0
    for i in range(0, len(data) - 2, 3):
        r, g, b = data[i], data[i + 1], data[i + 2]
        if max(r, g, b) - min(r, g, b) > 40:
            count += 1
    return count


MONO_DOC = r"""\documentclass{article}
%(before)s
\usepackage[monochrome]{pith}
%(after)s
\pithnumber{%(num)s}
\title{Monochrome}\author{Ada Author}
\begin{document}
\maketitle
Text.
\end{document}
"""
HYPER_MAGENTA = r"\usepackage[colorlinks,urlcolor=magenta,linkcolor=red]{hyperref}"


@pytest.mark.parametrize("route,order", [("pdflatex", "before"), ("pdflatex", "after"),
                                         ("dvips", "after"), ("xelatex", "before")])
def test_monochrome_has_no_colour(tmp_path: Path, route: str, order: str) -> None:
    src = MONO_DOC % {"num": NUM,
                      "before": HYPER_MAGENTA if order == "before" else "",
                      "after": HYPER_MAGENTA if order == "after" else ""}
    b = texrun.compile_tex(tmp_path, src, route)
    assert b.ok, b.describe()
    assert FULL in texrun.text(b.pdf)
    assert saturated_pixels(b.pdf, tmp_path) == 0
    # The same page in colour does have colour: the scan can fail.
    colour = texrun.compile_tex(tmp_path / "colour",
                                src.replace("[monochrome]", ""), route)
    assert colour.ok, colour.describe()
    (tmp_path / "c").mkdir()
    assert saturated_pixels(colour.pdf, tmp_path / "c") > 0


# -- anonymous -------------------------------------------------------------

def all_pdf_bytes(pdf: Path) -> bytes:
    """The file's raw bytes plus every stream decompressed (pypdf), so that a
    number inside a compressed content or object stream is found too."""
    import pypdf

    raw = pdf.read_bytes()
    out = [raw]
    for m in re.finditer(rb"stream\r?\n", raw):
        chunk = raw[m.end():m.end() + 2_000_000]
        try:
            out.append(zlib.decompressobj().decompress(chunk))
        except zlib.error:
            pass
    reader = pypdf.PdfReader(str(pdf))
    for page in reader.pages:
        out.append(page.get_contents().get_data() if page.get_contents() else b"")
    return b"\n".join(out)


def assert_no_trace(b: texrun.Build) -> None:
    assert b.ok, b.describe()
    blob = all_pdf_bytes(b.pdf)
    for needle in (NUM, NUM.lower(), texrun.SHA, "pith.science", "PithNumber"):
        assert needle.encode() not in blob, needle
    text = "".join(texrun.text(b.pdf, p) for p in (1, 2))
    assert NUM not in text and "pith:" not in text
    assert not any(k.startswith("Pith") for k in texrun.info(b.pdf))
    assert NUM not in texrun.xmp(b.pdf)
    assert len(re.findall(r"Package pith Info: Anonymous", b.log)) == 1, b.log


ANON_DOC = r"""%(docmeta)s\documentclass%(clsopt)s{%(cls)s}
%(pkg)s
\usepackage[%(pithopt)s]{pith}
\usepackage[pdfusetitle,bookmarks]{hyperref}
\pithnumber{%(num)s}
\pithsetup{qr}
\title{Anonymous \pithbadge}\author{Ada Author}
%(front)s
\begin{document}
\maketitle
\section{Intro \pithbadge}
Text \pithbadge\ \pithqr.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_anonymous_option_leaves_no_trace(tmp_path: Path, route: str) -> None:
    src = ANON_DOC % {"docmeta": "", "clsopt": "", "cls": "article", "pkg": "",
                      "pithopt": "anonymous", "num": NUM, "front": ""}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert_no_trace(b)


def test_anonymous_under_documentmetadata(tmp_path: Path) -> None:
    src = ANON_DOC % {"docmeta": r"\DocumentMetadata{}", "clsopt": "", "cls": "article",
                      "pkg": "", "pithopt": "anonymous", "num": NUM, "front": ""}
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert_no_trace(b)


# Stand-ins for the venues' review switches (the names their style files use;
# the real files are not used).  (package file, option, its source)
VENUES = {
    "neurips": ("neurips_2099", "", r"\newif\if@neuripsfinal\@neuripsfinalfalse"
                r"\DeclareOption{final}{\@neuripsfinaltrue}\ProcessOptions\relax"),
    "iclr": ("iclr2099_conference", "", r"\newif\ificlrfinal\iclrfinalfalse"
             r"\def\iclrfinalcopy{\iclrfinaltrue}"),
    "icml": ("icml2099", "", r"\newif\ificmlshowauthors\icmlshowauthorsfalse"
             r"\DeclareOption{accepted}{\icmlshowauthorstrue}\ProcessOptions\relax"),
    # ICML 2024 and 2025 (icml2024.sty, icml2025.sty): no switch; accepted defines \isaccepted.
    "icml-2025": ("icml2098", "", r"\DeclareOption{accepted}{\gdef\isaccepted{1}}"
                  r"\ProcessOptions\relax\long\def\icmltitle#1{#1}"),
    "acl": ("acl", "review", r"\newif\ifacl@finalcopy"
            r"\DeclareOption{final}{\acl@finalcopytrue}\DeclareOption{review}{\acl@finalcopyfalse}"
            r"\ExecuteOptions{final}\ProcessOptions\relax"),
    "acl-2020": ("naacl2099", "", r"\newif\ifaclfinal\aclfinalfalse"
                 r"\def\aclfinalcopy{\global\aclfinaltrue}"),
    "cvpr": ("cvpr", "review", r"\newif\ifcvprfinal\cvprfinaltrue"
             r"\DeclareOption{review}{\cvprfinalfalse}\ProcessOptions\relax"),
    # CVPR/ICCV kits from 2025 (cvpr-org/author-kit): an etoolbox toggle, not a \newif.
    "cvpr-2025": ("cvpr", "review", r"\RequirePackage{etoolbox}\newtoggle{cvprfinal}"
                  r"\toggletrue{cvprfinal}\DeclareOption{review}{\togglefalse{cvprfinal}}"
                  r"\ProcessOptions\relax"),
    # ECCV 2024 on (a kvoptions bool, true in review), WACV (CVPR's old mechanism).
    "eccv": ("eccv", "review", r"\newif\ifeccv@review\DeclareOption{review}{\eccv@reviewtrue}"
             r"\DeclareOption{final}{\eccv@reviewfalse}\ProcessOptions\relax"),
    "wacv": ("wacv", "", r"\newif\ifwacvfinal\wacvfinalfalse"
             r"\def\wacvfinalcopy{\global\wacvfinaltrue}"),
    "aaai": ("aaai2026", "submission", r"\DeclareOption{submission}{}\ProcessOptions\relax"),
    # COLM 2024: ICLR's mechanism renamed; \colmfinalcopy in the preamble.
    "colm-2024": ("colm2099_conference", "", r"\newif\ifcolmfinal\colmfinalfalse"
                  r"\def\colmfinalcopy{\colmfinaltrue}"),
    # COLM 2025: three exclusive options, submission by default; its title
    # asks \ifcolmfinal first, then \ifcolmpreprint.
    "colm-2025": ("colm2098_conference", "",
                  r"\newif\ifcolmsubmission\newif\ifcolmpreprint\newif\ifcolmfinal"
                  r"\colmsubmissiontrue\colmpreprintfalse\colmfinalfalse"
                  r"\DeclareOption{submission}{\colmsubmissiontrue\colmpreprintfalse\colmfinalfalse}"
                  r"\DeclareOption{preprint}{\colmsubmissionfalse\colmpreprinttrue\colmfinalfalse}"
                  r"\DeclareOption{final}{\colmsubmissionfalse\colmpreprintfalse\colmfinaltrue}"
                  r"\ProcessOptions\relax"),
    # TMLR: tmlr.sty (no \ProvidesPackage of its own); preprint implies accepted.
    "tmlr": ("tmlr", "", r"\newif\if@accepted\@acceptedfalse"
             r"\DeclareOption{accepted}{\@acceptedtrue}"
             r"\newif\if@preprint\@preprintfalse"
             r"\DeclareOption{preprint}{\@preprinttrue\@acceptedtrue}"
             r"\DeclareOption*{\PackageWarning{tmlr}{Unknown `\CurrentOption'}}"
             r"\ProcessOptions\relax"),
    # UAI (uai2025.cls, uai2026.cls): a class; the kvoptions bool accepted.
    "uai": ("uai2099", "", r"\LoadClass{article}\RequirePackage{kvoptions}"
            r"\SetupKeyvalOptions{family=UAI,prefix=UAI@}\DeclareBoolOption{accepted}"
            r"\ProcessKeyvalOptions*"
            r"\AtBeginDocument{\ifUAI@accepted\else\renewcommand{\@author}{}\fi}"),
    # COLT (colt2023.cls, colt2025.cls): a class; \ifanonsubmission, option anon.
    "colt": ("colt2099", "anon",
             r"\@ifundefined{ifanonsubmission}{\newif\ifanonsubmission\anonsubmissionfalse}{}"
             r"\@ifundefined{iffinalsubmission}{\newif\iffinalsubmission"
             r"\finalsubmissionfalse}{}"
             r"\DeclareOption{anon}{\anonsubmissiontrue}"
             r"\DeclareOption{final}{\finalsubmissiontrue}\ProcessOptions\relax"
             r"\LoadClass{article}\ifanonsubmission\newcommand{\coltauthor}[1]{}"
             r"\author{author names withheld}\else\newcommand{\coltauthor}[1]{\author{#1}}\fi"),
    # elsarticle (elsarticle.cls): option doubleblind sets \ifdoubleblind.
    "elsarticle": ("elsarticle2099", "doubleblind",
                   r"\newif\ifdoubleblind\doubleblindfalse"
                   r"\DeclareOption{doubleblind}{\doubleblindtrue}\ProcessOptions\relax"
                   r"\LoadClass{article}"),
    # ECAI (ecai.cls, 2023-): option doubleblind sets \if@double@blind@; the authors are
    # left out of the title block in \twocolumn[...].
    "ecai": ("ecai2099", "doubleblind",
             r"\newif\if@double@blind@\DeclareOption{doubleblind}{\@double@blind@true}"
             r"\ProcessOptions\relax\LoadClass{article}"),
    # AISTATS (aistats2025.sty; 2026 adds preprint): \statePaper 0 until accepted.
    "aistats": ("aistats2099", "",
                r"\DeclareOption{accepted}{\renewcommand{\statePaper}{\acceptedPaper}}"
                r"\newcommand{\statePaper}{0}\newcommand{\acceptedPaper}{1}"
                r"\newif\if@preprint\@preprintfalse"
                r"\DeclareOption{preprint}{\@preprinttrue"
                r"\renewcommand{\statePaper}{\acceptedPaper}}\ProcessOptions\relax"
                r"\long\def\aistatstitle#1{{\centering\Large\bfseries #1\par}}"
                r"\long\def\aistatsauthor#1{\ifnum\statePaper=0 Anonymous Author\else #1\fi"
                r"\par}"),
    # APA 7 (apa7.cls): a class; its option mask defines \apaSeven@maskauthoridentity,
    # which its title page and author note test.
    "apa7": ("apa7", "man,mask",
             r"\DeclareOption{man}{}\DeclareOption{mask}{\def\apaSeven@maskauthoridentity{\relax}}"
             # apa7.cls loads article with options of its own ([11pt] for man), which
             # LaTeXML's \@classoptionslist then holds instead of the paper's
             r"\ProcessOptions\relax\LoadClass[11pt]{article}"),
    # Interspeech (Interspeech.cls of 2024 and 2025): a class; \ifinterspeechfinal false
    # until \interspeechcameraready, the title block anonymous until then.
    "interspeech": ("Interspeech", "",
                    r"\ProcessOptions\relax\LoadClass[a4paper]{article}"
                    r"\newif\ifinterspeechfinal\interspeechfinalfalse"
                    r"\def\interspeechcameraready{\global\interspeechfinaltrue}"
                    r"\def\@author{\ifinterspeechfinal Ada Author\else"
                    r" Anonymous submission to Interspeech\fi}"),
    # Interspeech's class of 2026: the option cameraready sets \ifcameraready.
    "interspeech-2026": ("Interspeech", "",
                         r"\newif\ifcameraready\DeclareOption{cameraready}{\camerareadytrue}"
                         r"\ProcessOptions\relax\LoadClass[a4paper]{article}"),
    # CoRL (corl_2024.sty, corl_2025.sty): options final and preprint.
    "corl": ("corl_2099", "", r"\newif\if@conferencefinal\@conferencefinalfalse"
             r"\DeclareOption{final}{\@conferencefinaltrue}"
             r"\newif\if@preprinttype\@preprinttypefalse"
             r"\DeclareOption{preprint}{\@preprinttypetrue}\ProcessOptions\relax"),
}
# The stand-ins that are classes (\documentclass), not packages.
CLASSES = {"uai", "colt", "elsarticle", "ecai", "apa7", "interspeech", "interspeech-2026"}
# What pith's log line says for each (acmart's class option anonymous reaches
# pith as a global option, before its switch is read).
VENUE_WHY = {"acmart": "option anonymous", "neurips": "NeurIPS submission",
             "iclr": "ICLR submission", "icml": "ICML submission",
             "icml-2025": "ICML submission", "acl": "ACL review",
             "acl-2020": "ACL review", "cvpr": "CVPR review", "cvpr-2025": "CVPR review",
             "eccv": "ECCV review", "wacv": "WACV review", "aaai": "AAAI submission",
             "colm-2024": "COLM submission", "colm-2025": "COLM submission",
             "tmlr": "TMLR submission", "uai": "UAI submission",
             "colt": "COLT submission", "aistats": "AISTATS submission",
             "corl": "CoRL submission", "elsarticle": "double-blind submission",
             "ecai": "ECAI submission", "apa7": "APA mask",
             "interspeech": "Interspeech review", "interspeech-2026": "Interspeech review"}
# The stand-ins that, like the real files, say no \ProvidesPackage (TMLR's
# switch is read only when tmlr.sty is known to be loaded).
NO_PROVIDES = {"tmlr", "colm-2024", "colm-2025"}


def venue_package(tmp_path: Path, venue: str, opt: str) -> str:
    """Write the venue's stand-in next to the document; its \\usepackage line."""
    name, _, body = VENUES[venue]
    tmp_path.mkdir(parents=True, exist_ok=True)
    head = "" if venue in NO_PROVIDES else rf"\ProvidesPackage{{{name}}}" "\n"
    (tmp_path / f"{name}.sty").write_text(head + body + "\n", encoding="ascii")
    return rf"\usepackage[{opt}]{{{name}}}" if opt else rf"\usepackage{{{name}}}"


def venue_fields(tmp_path: Path, venue: str, opt: str, after: str = "") -> dict:
    """The document's class, class options and package lines for the venue's stand-in
    (written next to it) in mode *opt*, with *after* in the preamble after it."""
    if venue not in CLASSES:
        return {"clsopt": "", "cls": "article", "pkg": venue_package(tmp_path, venue, opt)
                + after}
    name, _, body = VENUES[venue]
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / f"{name}.cls").write_text(rf"\ProvidesClass{{{name}}}" "\n" + body + "\n",
                                          encoding="ascii")
    return {"clsopt": f"[{opt}]" if opt else "", "cls": name, "pkg": after}


@pytest.mark.parametrize("venue", list(VENUES) + ["acmart"])
def test_venue_review_mode_is_anonymous(tmp_path: Path, venue: str) -> None:
    if venue == "acmart":
        src = ANON_DOC % {
            "docmeta": "", "clsopt": "[sigconf,anonymous]", "cls": "acmart", "pkg": "",
            "pithopt": "", "num": NUM,
            "front": r"\settopmatter{printacmref=false}\setcopyright{none}"
                     r"\affiliation{\institution{X}\country{Y}}"}
        src = src.replace(r"\usepackage[pdfusetitle,bookmarks]{hyperref}", "")
    else:
        src = ANON_DOC % {"docmeta": "", "pithopt": "", "num": NUM, "front": "",
                          **venue_fields(tmp_path, venue, VENUES[venue][1])}
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert_no_trace(b)
    # The log line names the venue whose switch was read.
    assert f"Package pith Info: Anonymous ({VENUE_WHY[venue]})" in b.log, b.log


# The modes in which a venue prints the authors: (venue, package option, what
# the preamble says after loading it).
FINAL_MODES = [
    ("neurips", "final", ""),
    ("cvpr", "", ""),
    ("cvpr-2025", "", ""),
    ("icml-2025", "accepted", ""),
    ("eccv", "final", ""),
    ("eccv", "", ""),
    ("wacv", "", r"\wacvfinalcopy"),
    ("colm-2024", "", r"\colmfinalcopy"),
    ("colm-2025", "final", ""),
    ("colm-2025", "preprint", ""),
    ("tmlr", "accepted", ""),
    ("tmlr", "preprint", ""),
    ("uai", "accepted", ""),
    ("colt", "", ""),
    ("colt", "final", ""),
    ("aistats", "accepted", ""),
    ("aistats", "preprint", ""),
    ("corl", "final", ""),
    ("corl", "preprint", ""),
    ("elsarticle", "", ""),
    ("ecai", "", ""),
    ("apa7", "man", ""),
    ("interspeech", "", r"\interspeechcameraready"),
    ("interspeech-2026", "cameraready", ""),
]


def assert_badge(b: texrun.Build) -> None:
    assert b.ok, b.describe()
    assert f"pith:2025:{NUM}" in texrun.text(b.pdf)
    assert texrun.info(b.pdf)["PithNumber"] == f"pith:2025:{NUM}"
    assert "Anonymous" not in b.log


@pytest.mark.parametrize("venue,opt,after", FINAL_MODES,
                         ids=[f"{v}-{o or a.strip(chr(92)) or 'default'}"
                              for v, o, a in FINAL_MODES])
def test_venue_final_mode_keeps_the_badge(tmp_path: Path, venue: str, opt: str,
                                          after: str) -> None:
    src = ANON_DOC % {"docmeta": "", "pithopt": "", "num": NUM, "front": "",
                      **venue_fields(tmp_path, venue, opt, after)}
    assert_badge(texrun.compile_tex(tmp_path, src, "pdflatex",
                                    include=texrun.README_INCLUDE))


ELS_DOC = r"""\documentclass[doubleblind]{elsarticle}
\usepackage{hyperref}
\usepackage{pith}
\pithnumber{%s}
\pithsetup{qr}
\begin{document}
\begin{frontmatter}
\title{Anonymous \pithbadge}
\author{Ada Author}
\affiliation{organization={A University},country={Nowhere}}
\begin{abstract}An abstract. \pithbadge\end{abstract}
\end{frontmatter}
\section{Intro \pithbadge}
Text \pithbadge\ \pithqr.
\end{document}
"""


@pytest.mark.parametrize("route", ROUTES3)
def test_elsarticle_doubleblind_is_anonymous(tmp_path: Path, route: str) -> None:
    """TeX Live's own elsarticle.cls with its option doubleblind (the review copy)."""
    src = ELS_DOC % NUM
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert_no_trace(b)
    assert "Package pith Info: Anonymous (double-blind submission)" in b.log, b.log
    final = texrun.compile_tex(tmp_path / "final", src.replace("[doubleblind]", ""), route,
                               include=texrun.README_INCLUDE)
    assert_badge(final)


def test_class_option_anon_without_the_switch_is_anonymous(tmp_path: Path) -> None:
    """COLT's class option anon, in a class not read for its switch (as LaTeXML reads
    none): the HTML can only see the option, so the PDF takes it too."""
    (tmp_path / "someconf.cls").write_text(
        r"\ProvidesClass{someconf}\DeclareOption{anon}{}\ProcessOptions\relax"
        r"\LoadClass{article}" "\n", encoding="ascii")
    src = ANON_DOC % {"docmeta": "", "clsopt": "[anon]", "cls": "someconf", "pkg": "",
                      "pithopt": "", "num": NUM, "front": ""}
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert_no_trace(b)
    assert "Package pith Info: Anonymous (class option anon)" in b.log, b.log


# Switch names too generic to trust alone, each false in a package that is not the
# venue's: TMLR's \if@accepted, CoRL's \if@conferencefinal and \if@preprinttype,
# AISTATS's \statePaper.
GENERIC = {
    "tmlr": r"\newif\if@accepted\@acceptedfalse",
    "corl": r"\newif\if@conferencefinal\@conferencefinalfalse"
            r"\newif\if@preprinttype\@preprinttypefalse",
    "aistats": r"\newcommand{\statePaper}{0}",
    # a paper's own camera-ready switch, as Interspeech 2026's is named
    "interspeech-2026": r"\newif\ifcameraready\camerareadyfalse",
}


@pytest.mark.parametrize("like", list(GENERIC))
def test_generic_switch_of_another_style_keeps_the_badge(tmp_path: Path, like: str) -> None:
    """A venue's switch under a name any style may use: false in some other package
    is no review mode."""
    (tmp_path / "otherjournal.sty").write_text(
        r"\ProvidesPackage{otherjournal}" + GENERIC[like] + "\n", encoding="ascii")
    src = ANON_DOC % {"docmeta": "", "clsopt": "", "cls": "article",
                      "pkg": r"\usepackage{otherjournal}", "pithopt": "", "num": NUM,
                      "front": ""}
    assert_badge(texrun.compile_tex(tmp_path, src, "pdflatex",
                                    include=texrun.README_INCLUDE))


# -- placement=manual without \pithbadge --------------------------------------

def test_manual_without_badge_warns(tmp_path: Path) -> None:
    src = (r"\documentclass{article}\usepackage[placement=manual]{pith}" "\n"
           rf"\pithnumber{{{NUM}}}" "\n" r"\begin{document}Text.\end{document}" "\n")
    b = texrun.compile_tex(tmp_path, src, "pdflatex")
    assert b.ok, b.describe()
    log = re.sub(r"\n\(pith\)\s+", " ", b.log)
    assert "placement=manual, but no \\pithbadge was used" in log
    assert FULL not in texrun.text(b.pdf)


# -- the QR code's link ---------------------------------------------------------

@pytest.mark.parametrize("route", ROUTES3)
def test_badge_and_qr_links_have_no_border(tmp_path: Path, route: str) -> None:
    """hyperref's default draws a border box around every link; pith's two
    links (badge and QR code) must not get one, other links keep theirs."""
    src = (r"\documentclass{article}\usepackage[qr]{pith}\usepackage{hyperref}" "\n"
           r"\title{QR}\author{Ada Author}" "\n"
           r"\begin{document}\maketitle See \url{https://example.org}.\end{document}" "\n")
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    pith = [a for a in annots(b.pdf) if URL in str(a.get("/A", {}).get("/URI", ""))]
    other = [a for a in annots(b.pdf) if "example.org" in str(a.get("/A", {}).get("/URI", ""))]
    assert len(pith) == 2, pith  # the badge and the QR code
    assert all(border_width(a) == 0 for a in pith), pith
    assert other and border_width(other[0]) > 0, other


@pytest.mark.parametrize("cls", ["revtex", "acmart", "ieeetran"])
def test_class_two_column_title_block_holds_the_badge(tmp_path: Path, cls: str) -> None:
    """REVTeX, acmart sigconf and IEEEtran conference make a title block over
    both columns: the badge is inside it, centred like the title, above the
    first words of the body."""
    import texdocs

    b = texrun.compile_tex(tmp_path, texdocs.document(cls, "after"), "pdflatex")
    assert b.ok, b.describe()
    words = texrun.words(b.pdf)
    title = [w for w in words if w[0] in texdocs.TITLE.split()]
    assert title, words
    t_mid = (min(w[1] for w in title) + max(w[3] for w in title)) / 2
    rects = [[float(v) for v in a["/Rect"]] for a in annots(b.pdf)
             if URL in str(a.get("/A", {}).get("/URI", ""))]
    assert len(rects) == 1, rects
    r = rects[0]
    assert abs((r[0] + r[2]) / 2 - t_mid) < 2, (r, t_mid)
    body = [w for w in words if w[0] == "Some"][0]
    ph = texrun.mediabox(b.pdf)[3]
    assert ph - min(r[1], r[3]) < body[2], "the badge is above the body text"
    assert not pith_overfull(b.log)
    # IEEEtran typesets its title twice (one copy measured and thrown away): only the
    # copy shipped out counts, so no miss is seen (test_latex_badge_shipped.py).
    assert "without the title badge" not in b.log and "Rerun to get the badge" not in b.log
    assert "pith@badgemissed" not in (b.dir / "main.aux").read_text(encoding="latin-1")


LATE_ANON = (r"\documentclass{article}\usepackage[qr]{pith}\pithnumber{%s}"
             r"\title{T}\author{A}%s\begin{document}\maketitle%s x\end{document}")


def test_anonymous_set_late_but_in_time_is_logged(tmp_path: Path) -> None:
    """\\pithsetup{anonymous} in \\AtBeginDocument (after the review-mode decision, before
    anything is drawn): the PDF keeps no trace, and the log says anonymous, as for the
    option, so that `pith-tex check` treats the paper as the review copy it is."""
    from pith_tex.check.pdfcheck import check_pdf

    src = LATE_ANON % (NUM, r"\AtBeginDocument{\pithsetup{anonymous}}", "")
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Package pith Info: Anonymous (option anonymous, set late)" in b.log
    assert NUM not in texrun.text(b.pdf) and NUM.encode() not in b.pdf.read_bytes()
    c, _ = check_pdf(str(b.pdf), "main.pdf", NUM, anonymous=True)
    assert c.status == "ok", c


def test_anonymous_set_after_the_badge_is_not_claimed(tmp_path: Path) -> None:
    """\\pithsetup{anonymous} after \\maketitle: the badge is already on page 1. pith.sty must
    not log "Anonymous (...): no badge", and the pdf check, told the paper is anonymous,
    finds the number on the page and fails instead of saying "no Pith metadata: OK"."""
    from pith_tex.check.pdfcheck import check_pdf

    src = LATE_ANON % (NUM, "", r"\pithsetup{anonymous}")
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "Anonymous" not in b.log
    assert NUM in texrun.text(b.pdf)
    c, _ = check_pdf(str(b.pdf), "main.pdf", NUM, anonymous=True)
    assert c.status == "fail" and "page 1 shows the Pith Number" in c.detail, c
