"""The badge's number is read from pixels (issue 27, item 1).

Glyph lies: every engine's text layer extracts the claimed number while the page paints
another one (tests/support/glyph_lies.py: a /ToUnicode map, Type 1 glyphs renamed under
their /Differences names, a Type 3 font, an /ActualText span, a faint outline under a
stencil image).  ``pith-tex verify`` must not say verified (exit 1 or 3); each test shows
with PDFium and poppler that the attack is real: both extract the claimed number, and
their renderings of the badge, and pdf.js's (Firefox's), are the pixels of the swapped
number (the same page with that number honestly painted), not those of the claimed one.  The papers have no QR code:
nothing else on the page proves the number.

And honest badges verify on every route, size, placement and the fonts of real classes:
OCR must read pith.sty's own badges.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

import glyph_lies as G
import hostile_pdfs as H
import pdfjs
import recorded
import texbuild
from texbuild import tool

pytestmark = pytest.mark.hostile

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
N = V["number"]
CLAIMED = "pith:%d:%s" % (V["year"], N)
SWAPPED = "pith:%d:%s" % (V["year"], G.swapped(N))
DPI = 300  # the badge is 7 pt: at 300 dpi its letters are 20 pixels high


def verify(pdf: Path) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=180)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def badge_status(doc: Dict[str, Any]) -> str:
    return next(c for c in doc["files"][0]["checks"] if c["name"] == "badge")["status"]


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    return H.paper(tmp_path_factory.mktemp("glyphs") / "honest", V, options="")


def pdfium_text(pdf: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return "".join(doc[0].get_textpage().get_text_range().split())
    finally:
        doc.close()


def poppler_text(pdf: Path) -> str:
    return "".join(subprocess.run([tool("pdftotext"), "-q", "-f", "1", "-l", "1", str(pdf),
                                   "-"], capture_output=True, text=True,
                                  check=True).stdout.split())


def pdfium_dark(pdf: Path, box: Tuple[float, float, float, float]) -> set:
    """The dark pixels (under half grey) of PDFium's rendering of *box* (PDF points)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        height = page.get_height()
        bitmap = page.render(scale=DPI / 72, grayscale=True)
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
    finally:
        doc.close()
    return _dark(w, h, lambda x, y: buf[y * stride + x], box, height)


def poppler_dark(pdf: Path, box: Tuple[float, float, float, float]) -> set:
    """The dark pixels of poppler's (pdftoppm's) rendering of *box*."""
    from pypdf import PdfReader

    height = float(PdfReader(str(pdf)).pages[0].mediabox.height)
    out = subprocess.run([tool("pdftoppm"), "-q", "-f", "1", "-l", "1", "-r", str(DPI),
                          "-gray", str(pdf)], capture_output=True, check=True).stdout
    head = out.split(b"\n", 3)
    w, h = (int(v) for v in head[1].split())
    px = head[3]
    return _dark(w, h, lambda x, y: px[y * w + x], box, height)


def pdfjs_dark(pdf: Path, box: Tuple[float, float, float, float]) -> set:
    """The dark pixels of pdf.js's (Firefox's) rendering of *box*."""
    shown = pdfjs.render(pdf, dpi=DPI)
    w, px = shown.width, shown.pixels
    return _dark(w, shown.height, lambda x, y: px[y * w + x], box, shown.info["height"])


def _dark(w: int, h: int, at, box, height: float) -> set:
    k = DPI / 72
    x0, x1 = int(box[0] * k), int(box[2] * k) + 1
    y0, y1 = int((height - box[3]) * k), int((height - box[1]) * k) + 1
    return {(x, y) for y in range(max(y0, 0), min(y1, h)) for x in range(max(x0, 0), min(x1, w))
            if at(x, y) < 128}


LIES = {
    "tounicode": G.tounicode,
    "glyph_names": G.glyph_names,
    "type3": G.type3,
    "actual_text": G.actual_text,
    "under_stencil": lambda src, dst: G.under_stencil(src, dst, dst.parent),
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_a_glyph_lie_is_not_verified(honest, tmp_path, lie):
    pdf = LIES[lie](honest, tmp_path / (lie + ".pdf"))
    code, doc = verify(pdf)
    assert code in (1, 3), json.dumps(doc, indent=1)[:3000]
    assert badge_status(doc) in ("fail", "error"), doc
    # every engine's text layer has the claimed number, none the painted one
    for text in (pdfium_text(pdf), poppler_text(pdf)):
        assert CLAIMED in text and SWAPPED not in text
    # and both engines paint the swapped number: the badge's pixels are (nearly) those of
    # the same page with the swapped number honestly set, far from the claimed number's
    swapped = G.painted_swapped(honest, tmp_path / "swapped.pdf")
    box = G.badge_box_pdf(honest, CLAIMED)
    for dark in (pdfium_dark, poppler_dark, pdfjs_dark):
        lie_px, other_px, claimed_px = dark(pdf, box), dark(swapped, box), dark(honest, box)
        assert len(lie_px) > 100
        near, far = _apart(lie_px, other_px), _apart(lie_px, claimed_px)
        assert near * 3 < far, (dark.__name__, near, far)


def _apart(a: set, b: set) -> int:
    """Dark pixels of each set with none of the other's within a pixel (a glyph drawn
    through a Type 3 procedure or an image may sit a pixel off; another letter does not
    match)."""
    def alone(p: set, q: set) -> int:
        return sum(1 for x, y in p if not any((x + i, y + j) in q for i in (-1, 0, 1)
                                              for j in (-1, 0, 1)))
    return alone(a, b) + alone(b, a)


# -- honest badges: OCR reads pith.sty's own ----------------------------------------------

FONTS = {
    "lmodern": ("article", "\\usepackage[T1]{fontenc}\\usepackage{lmodern}"),
    "cm": ("article", ""),
    "times": ("article", "\\usepackage[T1]{fontenc}\\usepackage{times}"),  # Courier
    "txfonts": ("article", "\\usepackage[T1]{fontenc}\\usepackage{txfonts}"),
    "ieeetran": ("[conference]{IEEEtran", ""),
    "fontspec": ("article", "\\usepackage{fontspec}"),  # Latin Modern Mono, OpenType
}

HONEST = [
    *((route, "fontspec" if route in ("xelatex", "lualatex") else "lmodern", opts)
      for route in ("pdflatex", "dvips", "xelatex", "lualatex")
      for opts in ("size=small", "size=large", "placement=margin")),
    ("pdflatex", "times", "monochrome"), ("dvips", "ieeetran", "size=normal"),
    ("pdflatex", "txfonts", "placement=corner"), ("xelatex", "cm", "size=normal"),
]


def _source(v: Dict[str, Any], font: str, opts: str) -> str:
    cls, pre = FONTS[font]
    cls = "\\documentclass%s}" % (cls if cls.startswith("[") else "{" + cls)
    return (cls + "\n" + pre + "\n\\usepackage[%s]{pith}\n\\usepackage{hyperref}\n"
            "\\pithnumber{%s}\n\\title{A Paper on Recovery}\\author{A. Author}\\date{}\n"
            "\\begin{document}\n\\maketitle\nSome text of the paper.\n\\end{document}\n"
            % (opts, v["number"]))


@pytest.mark.parametrize("k,case", list(enumerate(HONEST)),
                         ids=["-".join(c) for c in HONEST])
def test_an_honest_badge_is_read_from_its_pixels(tmp_path, k, case):
    route, font, opts = case
    v = VECTORS[(k + 1) % len(VECTORS)]  # many numbers: many glyphs read
    b = texbuild.compile_tex(tmp_path, _source(v, font, opts), route,
                             include=H.include_of(v))
    assert b.ok, b.describe()
    code, doc = verify(b.pdf)
    assert code == 0 and badge_status(doc) == "ok", json.dumps(doc, indent=1)[:3000]


def test_no_ocr_means_could_not_check_with_the_install_command(honest, tmp_path):
    # an rapidocr_onnxruntime without its model first on the path (page 1 is read in a
    # child process, which inherits it): verify cannot read the badge's pixels
    (tmp_path / "rapidocr_onnxruntime").mkdir()
    (tmp_path / "rapidocr_onnxruntime" / "__init__.py").write_text("")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]))
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(honest)],
                       capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "pip install 'rapidocr_onnxruntime" in r.stdout, r.stdout
    assert "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_turned_page_is_read_upright(honest, tmp_path, rotate):
    # /Rotate turns the badge in the view; its line is set upright before it is read (a
    # page turned upside down was "not set one after the other" before)
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, NumberObject

    w = PdfWriter(clone_from=str(honest))
    w.pages[0][NameObject("/Rotate")] = NumberObject(rotate)
    pdf = tmp_path / "turned.pdf"
    with open(pdf, "wb") as f:
        w.write(f)
    code, doc = verify(pdf)
    assert code == 0 and badge_status(doc) == "ok", json.dumps(doc, indent=1)[:3000]
