"""The badge and the QR code are links without hyperref, on every route (issue 8, 4 and 6).

pith.sty never loads hyperref; without it each route writes the link itself: pdfTeX and
LuaTeX an annotation of the box's size, xdvipdfmx a ``pdf:ann`` special, dvips a pdfmark
``/ANN`` whose rectangle ghostscript maps from dvips's coordinates.  Each document is
compiled for real and read back: poppler gives where the badge's text is, pypdf the
annotations, zbar decodes the part of the page each QR link covers, and
``pith-tex verify`` must count the badge as linked (OK, not the warning).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM, URL, YEAR

ROUTES = ("pdflatex", "dvips", "xelatex", "lualatex")
BADGE = f"pith:{YEAR}:{NUM}"
QR_TEXT = f"HTTPS://PITH.SCIENCE/pith/{NUM}"
TOL = 1.0  # pt

CASES = {
    # the badge after the title, the QR code beside it
    "title": ("qr", ""),
    # the same under the kernel's PDF management
    "docmeta": ("qr", "\\DocumentMetadata{}"),
    # the corner stamp and the code under it, with the page origin moved (jheppub, PoS)
    "corner": ("qr,placement=corner", "\\hoffset=25pt\n\\voffset=-30pt\n"),
}


def source(options: str, preamble: str) -> str:
    first = ""
    if preamble.startswith("\\DocumentMetadata"):  # before \documentclass
        first, preamble = preamble + "\n", ""
    return (first + "\\documentclass{article}\n\\usepackage[%s]{pith}\n\\pithnumber{%s}\n%s"
            "\\title{A Paper}\\author{A. Author}\\date{}\n"
            "\\begin{document}\n\\typeout{PAPERWIDTH=\\the\\paperwidth}\n\\maketitle\n"
            "Some text.\n\\end{document}\n"
            % (options, NUM, preamble))


def annotations(pdf: Path) -> list[dict]:
    import pypdf

    page = pypdf.PdfReader(str(pdf)).pages[0]
    return [a.get_object() for a in page.get("/Annots") or []]


def rect(annot: dict) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def contains(outer: tuple[float, ...], inner: tuple[float, ...], tol: float) -> bool:
    return (outer[0] - tol <= inner[0] and inner[2] <= outer[2] + tol
            and outer[1] - tol <= inner[1] and inner[3] <= outer[3] + tol)


def decode_area(pdf: Path, box: tuple[float, ...], page_height: float, tmp: Path) -> list[str]:
    """What zbar reads in *box* (PDF points) of page 1, rendered at 144 dpi."""
    s = 2.0
    out = tmp / "area"
    subprocess.run([texrun.tool("pdftoppm"), "-r", "144", "-gray", "-singlefile",
                    "-f", "1", "-l", "1",
                    "-x", str(int(box[0] * s)), "-y", str(int((page_height - box[3]) * s)),
                    "-W", str(int((box[2] - box[0]) * s) + 1),
                    "-H", str(int((box[3] - box[1]) * s) + 1), str(pdf), str(out)],
                   check=True)
    p = subprocess.run([texrun.tool("zbarimg"), "-q", "--raw", str(out) + ".pgm"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.split()


def verify(pdf: Path) -> tuple[int, dict[str, dict]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True)
    doc = json.loads(r.stdout)
    return r.returncode, {c["name"]: c for c in doc["files"][0]["checks"]}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("route", ROUTES)
def test_links_without_hyperref(tmp_path: Path, route: str, case: str) -> None:
    options, preamble = CASES[case]
    b = texrun.compile_tex(tmp_path / "doc", source(options, preamble), route,
                           include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert "hyperref.sty" not in b.log  # nobody loaded it

    page = texrun.mediabox(b.pdf)
    words = [w for w in texrun.words(b.pdf) if w[0].startswith("pith:")]
    assert [w[0] for w in words] == [BADGE], words
    _, x0, top, x1, bottom = words[0]
    text = (x0, page[3] - bottom, x1, page[3] - top)  # PDF coordinates

    annots = annotations(b.pdf)
    assert len(annots) == 2, annots  # the badge's link and the code's, nothing else
    for a in annots:
        assert a["/Subtype"] == "/Link"
        assert [float(v) for v in a["/Border"]] == [0, 0, 0], a
        action = a["/A"].get_object()
        assert action["/S"] == "/URI" and str(action["/URI"]) == URL, a
        assert "/Dest" not in a and "/AA" not in a
        r = rect(a)
        assert contains(page, r, 0), (r, page)
        assert r[0] >= texrun.ARXIV_STAMP_X, r

    over = [a for a in annots if overlaps(rect(a), text)]
    assert len(over) == 1, (text, [rect(a) for a in annots])
    assert contains(rect(over[0]), text, TOL), (rect(over[0]), text)
    if case == "corner":  # top right (36pt, 24pt in), whatever \\hoffset and \\voffset
        m = re.search(r"PAPERWIDTH=([0-9.]+)pt", b.log)
        assert m, b.log
        pt = 72 / 72.27
        # From the media's right edge where the engine knows it (pdfTeX, LuaTeX: this
        # document states no paper size, so the media is the installation's, which may
        # not be \\paperwidth); else from \\paperwidth (docs/badge.md, "The media").
        right = page[2] if route in ("pdflatex", "lualatex") else float(m.group(1)) * pt
        assert rect(over[0])[2] == pytest.approx(right - 36 * pt, abs=TOL)
        assert page[3] - rect(over[0])[3] == pytest.approx(24 * pt, abs=TOL), rect(over[0])

    code = next(a for a in annots if a is not over[0])
    r = rect(code)
    side = 2 / 2.54 * 72  # qr-size 2cm: the symbol with its quiet zone
    assert r[2] - r[0] == pytest.approx(side, abs=TOL) and \
        r[3] - r[1] == pytest.approx(side, abs=TOL), r
    assert decode_area(b.pdf, r, page[3], tmp_path) == [QR_TEXT]

    rc, checks = verify(b.pdf)
    assert rc == 0, checks
    assert checks["badge"]["status"] == "ok", checks["badge"]
    assert checks["badge"]["detail"].endswith("linked to https://pith.science/pith/" + NUM)
    assert checks["qr"]["status"] == "ok", checks["qr"]


@pytest.mark.parametrize("route", ROUTES)
def test_inline_badge_link_without_hyperref(tmp_path: Path, route: str) -> None:
    """\\pithbadge in running text, no include: the link is the badge's own box, in the
    line where the badge is, and nothing else on the page is a link."""
    src = ("\\documentclass{article}\n\\usepackage[include=false,placement=manual]{pith}\n"
           "\\pithnumber{%s}\n\\begin{document}\nSome words before the badge "
           "\\pithbadge{} and after it.\n\\end{document}\n" % NUM)
    b = texrun.compile_tex(tmp_path / "doc", src, route)
    assert b.ok, b.describe()
    page = texrun.mediabox(b.pdf)
    words = texrun.words(b.pdf)
    badge = [w for w in words if w[0] == f"pith:{NUM}"]
    assert len(badge) == 1, words
    _, x0, top, x1, bottom = badge[0]
    text = (x0, page[3] - bottom, x1, page[3] - top)
    annots = annotations(b.pdf)
    assert len(annots) == 1, annots
    r = rect(annots[0])
    assert contains(r, text, TOL), (r, text)
    assert str(annots[0]["/A"].get_object()["/URI"]) == URL
    # The rectangle is the badge's: it starts right after "badge" and ends before "and".
    before = next(w for w in words if w[0] == "badge")
    after = next(w for w in words if w[0] == "and")
    assert before[3] - TOL <= r[0] and r[2] <= after[1] + TOL, (before, r, after)


def test_dvips_link_follows_mag(tmp_path: Path) -> None:
    """dvips: the rectangle is taken from the current point in dvips's own coordinates, so
    a magnified page (\\mag) needs no unit conversion in TeX: the link still holds the
    badge's (magnified) text."""
    src = ("\\mag=1440\n\\documentclass{article}\n"
           "\\usepackage[include=false,placement=manual]{pith}\n\\pithnumber{%s}\n"
           "\\begin{document}\nSome words before the badge \\pithbadge{} and after it.\n"
           "\\end{document}\n" % NUM)
    b = texrun.compile_tex(tmp_path / "doc", src, "dvips")
    assert b.ok, b.describe()
    page = texrun.mediabox(b.pdf)
    badge = [w for w in texrun.words(b.pdf) if w[0] == f"pith:{NUM}"]
    assert len(badge) == 1
    _, x0, top, x1, bottom = badge[0]
    text = (x0, page[3] - bottom, x1, page[3] - top)
    assert x1 - x0 > 150  # magnified (about 113 pt at \mag=1000)
    annots = annotations(b.pdf)
    assert len(annots) == 1 and contains(rect(annots[0]), text, TOL), (annots, text)
    assert contains(page, rect(annots[0]), 0)
