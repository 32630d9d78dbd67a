"""The title badge is on page 1 where it is shipped out, not only where it was set.

pith.sty sets the title badge in the title block and counted it as placed there; two
mechanisms still carried it off page 1 without a word (docs/badge.md): a title block
typeset in a box to measure it and then unboxed onto the page when it is taller than the
page (Springer Nature's sn-jnl), and a page break TeX prefers before the badge for another
reason than room (a title over fil stretch, ended by a list's negative penalty, with text
going on past the page).  The badge's line now carries a non-immediate ``\\write``: its
expansion at shipout tells page 1's ``shipout/after`` whether the badge was on it.  The
first run says so and asks for a rerun, the ``.aux`` remembers it, the next run puts the
corner stamp on page 1 (and keeps the record, so the runs after it do the same).

Each stand-in is written here (no class file is used), compiled on arXiv's three routes
and read back with poppler; the log and the ``.aux`` are read as LaTeX wrote them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import texrun
from texrun import NUM, URL

ROUTES3 = ("pdflatex", "dvips", "xelatex")
FULL = f"pith:{NUM}"

SENTENCE = ("This abstract is long, so that the title block it belongs to is taller than "
            "the page: the class sets the block aside in a box to measure it and then puts "
            "its lines on the page one by one. ")
BODY = ("Body text goes on past the end of the page, so that the page builder must "
        "choose where page one ends. ")

# sn-jnl's mechanism: \@maketitle typeset into a box to measure it; taller than the
# page, the box is unboxed onto the page and its lines break across pages.  (pith appends
# the badge to \@maketitle, so it is set inside the box.)
UNBOXED = r"""\documentclass%(opt)s{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\makeatletter
\renewcommand\maketitle{\par\begingroup
  \setbox0=\vbox{\@maketitle}%%
  \ifdim\ht0>\textheight \unvbox0 \else \box0 \fi
  \endgroup}
\def\@maketitle{{\centering\LARGE\bfseries\@title\par}\vskip 1em
  {\centering\large\@author\par}\vskip 1em
  \noindent\textbf{Abstract.} %(abstract)s\par}
\makeatother
\title{A Title Block Taller Than the Page}\author{Ada Author}
\begin{document}
\maketitle
Body text.
\end{document}
"""

# A title over fil stretch (\null\vfil, a title page's way), ended by a list's
# negative \@endparpenalty, then text that goes on past page 1: with infinite stretch
# every break has badness 0, and the title's end is the cheapest break of the page.
FIL_BREAK = r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\makeatletter
\renewcommand\maketitle{\null\vfil
  \begin{center}{\LARGE\bfseries \@title\par}\vskip 1em{\large\@author\par}\end{center}}
\makeatother
\title{A Title Over Fil Stretch}\author{Ada Author}
\begin{document}
\maketitle
%(body)s
\end{document}
"""


def source(name: str) -> str:
    if name == "unboxed":
        return UNBOXED % {"opt": "", "num": NUM, "abstract": SENTENCE * 24}
    if name == "unboxed-twocolumn":
        # Over both columns of page 1: the badge is set at the end of a block that
        # fills the first column, the second, and goes on to page 2.
        return UNBOXED % {"opt": "[twocolumn]", "num": NUM, "abstract": SENTENCE * 40}
    if name == "unboxed-second-column":
        # Taller than the page but shorter than two columns: the badge ends in the
        # second column of page 1.  Shipped out on page 1: no miss.
        return UNBOXED % {"opt": "[twocolumn]", "num": NUM, "abstract": SENTENCE * 18}
    if name == "unboxed-hyperref-first":
        # hyperref loaded before pith: on pdfTeX pith's page-1 code then runs from
        # shipout/before and the check shares the shipout/after of the /Info entries.
        return (UNBOXED % {"opt": "", "num": NUM, "abstract": SENTENCE * 24}).replace(
            "\\usepackage{pith}\n\\usepackage{hyperref}\n",
            "\\usepackage{hyperref}\n\\usepackage{pith}\n")
    if name == "fil-break":
        return FIL_BREAK % {"num": NUM, "body": "\n\n".join([BODY * 6] * 14)}
    raise KeyError(name)


def joined(log: str) -> str:
    """The log with pith's continuation lines joined to the line they continue."""
    return re.sub(r"\n\(pith\)\s+", " ", log)


def aux(b: texrun.Build) -> str:
    return (b.dir / "main.aux").read_text(encoding="latin-1")


def pages(b: texrun.Build) -> int:
    import pypdf

    return len(pypdf.PdfReader(str(b.pdf)).pages)


def badge_words(b: texrun.Build, page: int) -> list[tuple[str, float, float, float, float]]:
    return [w for w in texrun.words(b.pdf, page) if w[0].startswith("pith:")]


def run(tmp: Path, src: str, route: str, include: str | None = None) -> texrun.Build:
    """One LaTeX run (no automatic rerun), keeping the directory's .aux from before."""
    b = texrun.compile_tex(tmp, src, route, include=include, max_runs=1)
    assert b.ok, b.describe()
    return b


MISSED = "Page 1 was shipped out without the title badge, although it was set in the title block"
RERUN = "Rerun to get the badge on page 1."
AGAIN = "The title badge went to page 2 in the last run"


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("name", ["unboxed", "unboxed-twocolumn", "unboxed-hyperref-first",
                                  "fil-break"])
def test_missed_badge_is_said_then_put_on_page_one(tmp_path: Path, name: str,
                                                   route: str) -> None:
    src = source(name)
    assert src != source("unboxed") or name == "unboxed"
    # Run 1: the stand-in does carry the badge off page 1 (onto page 2), and the log
    # says so, with what happens next, and asks for a rerun.
    first = run(tmp_path, src, route)
    assert FULL not in texrun.text(first.pdf, 1)
    assert FULL in texrun.text(first.pdf, 2)
    log = joined(first.log)
    assert MISSED in log, log[-3000:]
    assert "the next run puts the badge at the top right of page 1" in log
    assert "The title badge went to page 2, not to page 1." in log
    assert RERUN in log
    # The .aux line is pith's own data command, safe without pith (\providecommand).
    assert r"\providecommand \pith@badgemissed [1]{}\pith@badgemissed {2}" in aux(first)

    # Run 2: the corner stamp on page 1, top right; the badge nowhere else; no rerun.
    second = run(tmp_path, src, route)
    words = badge_words(second, 1)
    assert [w[0] for w in words] == [FULL], words
    x0, y0, x1, y1 = texrun.mediabox(second.pdf)
    _, bx0, by0, bx1, by1 = words[0]
    assert bx0 > (x0 + x1) / 2 and bx1 <= x1 - 30, words  # right half, clear of the edge
    assert by1 < y0 + 0.12 * (y1 - y0), words  # at the top, above the text block
    for page in range(2, pages(second) + 1):
        assert "pith:" not in texrun.text(second.pdf, page), page
    # The stamp is the badge as ever: a link to its page, and nothing overfull.
    assert (1, URL) in texrun.urls(second.pdf), texrun.urls(second.pdf)
    assert "Overfull \\hbox" not in second.log
    log = joined(second.log)
    assert AGAIN in log and "top right of page 1" in log, log[-3000:]
    assert MISSED not in log and RERUN not in log
    assert r"\pith@badgemissed {2}" in aux(second)

    # Run 3: the same page 1 (no going back and forth between runs).
    third = run(tmp_path, src, route)
    assert badge_words(third, 1) == words
    assert texrun.text(third.pdf, 1) == texrun.text(second.pdf, 1)
    assert RERUN not in third.log and AGAIN in joined(third.log)


@pytest.mark.parametrize("route", ROUTES3)
def test_badge_in_the_second_column_of_page_one_is_no_miss(tmp_path: Path,
                                                           route: str) -> None:
    """The unboxed block fills the first column and ends in the second: the badge is
    shipped out with page 1, so nothing is said or recorded (the check is where the
    badge ships out, not where it was set)."""
    b = run(tmp_path, source("unboxed-second-column"), route)
    words = badge_words(b, 1)
    assert [w[0] for w in words] == [FULL], words
    assert words[0][1] > texrun.mediabox(b.pdf)[2] / 2  # the right-hand column
    assert FULL not in texrun.text(b.pdf, 2)
    assert "without the title badge" not in b.log and "Rerun to get the badge" not in b.log
    assert "pith@badgemissed" not in aux(b)


def test_nofiles_still_warns(tmp_path: Path) -> None:
    """With \\nofiles there is no .aux to remember the miss: every run says so, and what
    to do instead; no rerun is asked for (it would not help)."""
    src = source("unboxed").replace(r"\pithnumber", r"\nofiles\pithnumber")
    for _ in range(2):
        b = run(tmp_path, src, "pdflatex")
        log = joined(b.log)
        assert MISSED in log, log[-3000:]
        assert "With \\nofiles pith cannot record it for the next run" in log
        assert RERUN not in log
        assert FULL not in texrun.text(b.pdf, 1)


def test_aux_line_is_harmless_without_pith(tmp_path: Path) -> None:
    """LaTeX executes the .aux: once pith is taken out of the document, the line it left
    must not be an undefined command."""
    first = run(tmp_path, source("unboxed"), "pdflatex")
    assert r"\pith@badgemissed" in aux(first)
    src = source("unboxed").replace(r"\usepackage{pith}", "").replace(
        r"\pithnumber{%s}" % NUM, "")
    b = run(tmp_path, src, "pdflatex")
    assert "Undefined control sequence" not in b.log and "! " not in b.log


def test_verify_reads_the_missed_badge_as_no_badge(tmp_path: Path) -> None:
    """What `pith-tex verify` says of run 1's PDF (badge on page 2): it counts only a
    badge on page 1 (issue 8, item 4), so the badge check is not OK (a warning: verify
    cannot tell a missed badge from `hide`); the rerun's PDF passes it."""
    from pith_tex.pdf.claims import verify_pdf

    def badge(b: texrun.Build) -> tuple[str, str]:
        out = verify_pdf(str(b.pdf))
        assert out.outcome is not None, out
        (c,) = [c for c in out.outcome.checks if c.name == "badge"]
        return c.status, c.detail

    first = run(tmp_path, source("unboxed"), "pdflatex", include=texrun.README_INCLUDE)
    status, detail = badge(first)
    assert status == "warn" and "page 1 shows no pith:NUMBER badge" in detail, detail
    second = run(tmp_path, source("unboxed"), "pdflatex", include=texrun.README_INCLUDE)
    status, detail = badge(second)
    assert status == "ok" and "page 1 shows pith:2025:" in detail, detail


# The ordinary title mechanisms: the \write that finds where the badge shipped out must
# not move anything.  The same document with the mark and its check switched off (a
# redefinition of pith's internal commands, for this test only) gives the same pages.
ORDINARY = {
    "article": r"""\documentclass{article}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
%(off)s
\title{An Ordinary Title}\author{Ada Author}
\begin{document}
\maketitle
Body text.\newpage Page two.
\end{document}
""",
    "twocolumn-spanning": r"""\documentclass[twocolumn]{article}
\usepackage{times}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
%(off)s
\title{A Title Across Both Columns}\author{Ada Author}
\begin{document}
\maketitle
Body text.
\end{document}
""",
    # The badge with its QR code (beside it, or under it in a column), verified include.
    "qr-column": r"""\documentclass[twocolumn]{article}
\usepackage[qr]{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
%(off)s
\title{A Title With a QR Code}\author{Ada Author}
\begin{document}
\twocolumn[\centerline{\Large A Title Built By Hand}\vskip 1em]
Body text.
\end{document}
""",
}
# (Switched off with the check that reads it, else page 1 would count as a miss.)
MARK_OFF = (r"\ExplSyntaxOn \cs_gset_protected:Npn \__pith_title_mark: { }"
            r"\cs_gset_protected:Npn \__pith_title_check: { } \ExplSyntaxOff")


def page_streams(b: texrun.Build) -> list[tuple[bytes, list]]:
    """Each page's content stream and its link rectangles."""
    import pypdf

    res = []
    for page in pypdf.PdfReader(str(b.pdf)).pages:
        rects = [[float(v) for v in a.get_object()["/Rect"]]
                 for a in page.get("/Annots") or []]
        res.append((page.get_contents().get_data(), rects))
    return res


def dvi_body(b: texrun.Build) -> bytes:
    """The DVI file from its first page on: the preamble is 15 bytes and a comment
    (" TeX output YYYY.MM.DD:HHMM") of the length its 15th byte gives."""
    data = (b.dir / "main.dvi").read_bytes()
    assert data[0] == 247, data[:2]  # pre
    return data[15 + data[14]:]


@pytest.mark.parametrize("route", ROUTES3)
@pytest.mark.parametrize("name", list(ORDINARY))
def test_the_mark_changes_nothing_on_the_page(tmp_path: Path, name: str, route: str) -> None:
    inc = texrun.README_INCLUDE if name == "qr-column" else None
    on = texrun.compile_tex(tmp_path / "on", ORDINARY[name] % {"num": NUM, "off": ""},
                            route, include=inc)
    off = texrun.compile_tex(tmp_path / "off", ORDINARY[name] % {"num": NUM,
                                                               "off": MARK_OFF},
                             route, include=inc)
    assert on.ok and off.ok, (on.describe(), off.describe())
    assert NUM in texrun.text(on.pdf, 1)
    assert page_streams(on) == page_streams(off)
    if route == "dvips":
        # The DVI itself, byte for byte (a \write leaves nothing in it), after the
        # preamble's comment: it holds the minute of the run.
        assert dvi_body(on) == dvi_body(off)
    # ... and the mark was there to switch off: the .aux got its line (blank).
    assert aux(on).count("\n") == aux(off).count("\n") + 1, (aux(on), aux(off))
    assert "without the title badge" not in on.log and "pith@badgemissed" not in aux(on)


def test_lualatex_too(tmp_path: Path) -> None:
    """LuaLaTeX (not one of arXiv's routes): the same miss, said, and the corner stamp
    in the rerun."""
    src = source("unboxed")
    first = run(tmp_path, src, "lualatex")
    assert FULL not in texrun.text(first.pdf, 1) and FULL in texrun.text(first.pdf, 2)
    assert MISSED in joined(first.log) and RERUN in joined(first.log)
    second = run(tmp_path, src, "lualatex")
    assert [w[0] for w in badge_words(second, 1)] == [FULL]
    assert "pith:" not in texrun.text(second.pdf, 2)
    assert AGAIN in joined(second.log) and RERUN not in second.log
