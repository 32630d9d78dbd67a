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


# -- One font object per font: cmap and T1 fonts (acmart, many journal classes) ----------

def raw_objects(pdf: Path) -> list[bytes]:
    """The body of every object of *pdf* as written: the plain ``N G obj ... endobj``
    ones and those packed in object streams (/Type /ObjStm, FlateDecode), read from the
    bytes, not through a PDF library that would keep one value of a repeated key."""
    import re
    import zlib

    data = pdf.read_bytes()
    out = [m.group(1) for m in re.finditer(rb"\d+\s+\d+\s+obj\b(.*?)endobj", data, re.S)]
    for m in re.finditer(rb"<<((?:(?!>>\s*stream).)*?/Type\s*/ObjStm.*?)>>\s*stream\r?\n",
                         data, re.S):
        head = m.group(1)
        n = int(re.search(rb"/N\s+(\d+)", head).group(1))
        first = int(re.search(rb"/First\s+(\d+)", head).group(1))
        length = int(re.search(rb"/Length\s+(\d+)", head).group(1))
        body = zlib.decompress(data[m.end():m.end() + length])
        nums = [int(x) for x in body[:first].split()]
        offs = [first + nums[2 * i + 1] for i in range(n)] + [len(body)]
        out += [body[offs[i]:offs[i + 1]] for i in range(n)]
    return out


def top_keys(obj: bytes) -> list[bytes]:
    """The keys of the outermost dictionary of one object, in order, repeats kept."""
    import re

    token = re.compile(rb"\s*(<<|>>|\[|\]|\(|/[^\s/<>\[\]()%]*|<[0-9A-Fa-f\s]*>"
                       rb"|[^\s/<>\[\]()%]+)")

    def value(i: int) -> int:
        """The end of the one value starting at *i*."""
        m = token.match(obj, i)
        t, i = m.group(1), m.end()
        if t == b"(":  # a literal string: balanced parentheses, backslash escapes
            level = 1
            while level:
                c = obj[i:i + 1]
                level += {b"(": 1, b")": -1}.get(c, 0)
                i += 2 if c == b"\\" else 1
            return i
        if t in (b"<<", b"["):
            close = b">>" if t == b"<<" else b"]"
            while True:
                m = token.match(obj, i)
                if m.group(1) == close:
                    return m.end()
                i = value(i)
        ref = re.match(rb"\s*\d+\s+R\b", obj[i:])  # "N G R": a reference
        if re.fullmatch(rb"\d+", t) and ref:
            return i + ref.end()
        return i

    m = token.match(obj, 0)
    assert m and m.group(1) == b"<<", obj[:40]
    i, keys = m.end(), []
    while True:
        m = token.match(obj, i)
        if m.group(1) == b">>":
            return keys
        keys.append(m.group(1))
        i = value(m.end())


def font_dicts(pdf: Path) -> list[list[bytes]]:
    import re

    return [top_keys(o) for o in raw_objects(pdf)
            if re.match(rb"\s*<<", o) and re.search(rb"/Type\s*/Font\b", o)]


CMAP_DOC = r"""\documentclass{article}
\usepackage{cmap}
\usepackage[T1]{fontenc}
%(fonts)s
\usepackage{pith}
\title{A Title}\author{Ada Author}
\begin{document}
\maketitle
Text with \texttt{typewriter words} after the badge.
\end{document}
"""
CMAP_FONTS = {
    "lmodern": r"\usepackage{lmodern}",
    # acmart's set-up: cmap, T1, and pdfTeX's own ToUnicode switched on for every font.
    "acmart-like": r"\usepackage{lmodern}\ifdefined\pdfglyphtounicode"
                   r"\input{glyphtounicode}\pdfgentounicode=1 \fi",
    "courier": r"\renewcommand\ttdefault{pcr}",
}


@pytest.mark.parametrize("route", ["pdflatex", "dvips", "xelatex"])
@pytest.mark.parametrize("fonts", list(CMAP_FONTS))
def test_cmap_t1_one_font_object_no_repeated_key(tmp_path: Path, fonts: str, route: str) -> None:
    """The badge's size of the typewriter font is loaded as every other font is (through
    NFSS): pdfTeX writes one object for all sizes of one font file, and that object
    carries /ToUnicode once; pith-tex verify accepts the paper."""
    import re
    import subprocess
    import sys

    src = CMAP_DOC % {"fonts": CMAP_FONTS[fonts]}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert FULL in texrun.text(b.pdf), texrun.text(b.pdf)
    dicts = font_dicts(b.pdf)
    assert dicts, "no font dictionary read"
    for keys in dicts:
        assert len(keys) == len(set(keys)), keys
    # One font object per font file: the badge's 7 pt and the text's 10 pt share it.
    bases = [re.search(rb"/BaseFont\s*/(?:[A-Z]{6}\+)?([^\s/<>]+)", o).group(1)
             for o in raw_objects(b.pdf)
             if re.match(rb"\s*<<", o) and re.search(rb"/Type\s*/Font\b", o)
             and re.search(rb"/BaseFont", o)]
    assert len(bases) == len(set(bases)), bases
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(b.pdf)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("route", ["pdflatex", "dvips"])
def test_microtype_sets_up_the_documents_fonts_not_the_badges(tmp_path: Path,
                                                              route: str) -> None:
    # microtype sets up each font NFSS loads for protrusion and expansion, which act on a
    # paragraph's lines, never inside the badge's \hbox: for the badge's font that was
    # 14-40M instructions of nothing, half of pith's cost in a paper with microtype.
    from test_latex_mechanisms import assert_verified

    src = DOC % {"clsopt": "", "preamble": r"\usepackage[T1]{fontenc}\usepackage{lmodern}"
                 r"\usepackage{microtype}", "before": "", "num": NUM}
    b = texrun.compile_tex(tmp_path, src, route, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    setup = [ln for ln in b.log.splitlines() if ln.startswith("(microtype)")]
    assert any("lmtt" in ln for ln in setup), setup  # the document's typewriter font
    assert not [ln for ln in setup if "pith@" in ln], setup
    assert FULL in texrun.text(b.pdf)
    assert all(abs(s - SIZE) < 0.05 for t, s in text_sizes(b.pdf) if "pith:" in t)
    assert_verified(b)
