"""Attacks on what readers' viewers show (issue 19): each hostile PDF is built from a real
pith-compiled paper (tests/support/hostile_pdfs.py), ``pith-tex verify`` must not say
verified (exit 1 or 3), and the test shows with the readers' engines what a reader sees
there (PDFium through pypdfium2, poppler's pdftotext and pdftoppm, zbar and zxing-cpp on
their pixels), so that each attack is proven real, not only refused.

The evidence is read here with the engines directly, not through pith_tex: the verdict
under test and the proof must not share code.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import hostile_pdfs as H
import recorded
from qrdecode import read_pgm, zbar, zxing
from texbuild import tool

pytestmark = pytest.mark.hostile

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
N = V["number"]
V2 = next(v for v in VECTORS[1:] if v["number"] != N)
CLAIMED = "pith:%d:%s" % (V["year"], N)
OTHER = "pith:%d:%s" % (V2["year"], V2["number"])
URL = "HTTPS://PITH.SCIENCE/pith/" + N
EVIL = H.EVIL_URL + N
DPI = 150


# -- the paper, and the engines' readings ----------------------------------------------------

@pytest.fixture(scope="module")
def papers(tmp_path_factory) -> Dict[str, Path]:
    root = tmp_path_factory.mktemp("papers")
    return {"honest": H.paper(root / "honest", V),
            "other": H.paper(root / "other", V2, title="NOT THIS PAPER")}


def verify(pdf: Path) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def not_verified(pdf: Path) -> None:
    code, doc = verify(pdf)
    assert code in (1, 3), json.dumps(doc, indent=1)[:3000]


def squeezed(text: str) -> str:
    return "".join(text.split())


def pypdf_text(pdf: Path, page: int = 0) -> str:
    from pypdf import PdfReader

    return squeezed(PdfReader(str(pdf)).pages[page].extract_text())


def pdfium_text(pdf: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return squeezed(doc[0].get_textpage().get_text_range())
    finally:
        doc.close()


def poppler_text(pdf: Path) -> str:
    return squeezed(subprocess.run([tool("pdftotext"), "-q", "-f", "1", "-l", "1", str(pdf),
                                    "-"], capture_output=True, text=True,
                                   check=True).stdout)


def poppler_pgm(pdf: Path) -> Path:
    out = pdf.with_name(pdf.stem + "-poppler")
    subprocess.run([tool("pdftoppm"), "-q", "-f", "1", "-l", "1", "-r", str(DPI), "-gray",
                    "-singlefile", str(pdf), str(out)], check=True)
    return out.with_suffix(".pgm")


def pdfium_pgm(pdf: Path) -> Path:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        bitmap = doc[0].render(scale=DPI / 72, grayscale=True)
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
    finally:
        doc.close()
    pixels = b"".join(buf[r * stride:r * stride + w] for r in range(h))
    out = pdf.with_name(pdf.stem + "-pdfium.pgm")
    out.write_bytes(b"P5\n%d %d\n255\n" % (w, h) + pixels)
    return out


def badge_box(pdf: Path) -> Tuple[float, float, float, float]:
    """Where PDFium places the claimed number on page 1 (left, bottom, right, top in
    points): the honest paper's badge, where the attacks' pixels are looked at."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        tp = doc[0].get_textpage()
        text = tp.get_text_range()
        i = text.find(CLAIMED)
        assert i >= 0, text[:500]
        boxes = [tp.get_charbox(k) for k in range(i, i + len(CLAIMED))]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))
    finally:
        doc.close()


def ink(pgm: Path, box: Tuple[float, float, float, float], page_height: float = 792) -> int:
    """Dark pixels (under half grey) of *pgm* inside *box* (points, PDF coordinates)."""
    w, h, px = read_pgm(pgm)
    s = DPI / 72
    x0, x1 = int(box[0] * s), int(box[2] * s) + 1
    y0, y1 = int((page_height - box[3]) * s), int((page_height - box[1]) * s) + 1
    return sum(1 for y in range(max(y0, 0), min(y1, h)) for x in range(max(x0, 0), min(x1, w))
               if px[y * w + x] < 128)


def qr_seen(pdf: Path) -> Dict[str, List[str]]:
    """What each decoder reads on each engine's rendering of page 1."""
    pop, pdfium = poppler_pgm(pdf), pdfium_pgm(pdf)
    return {"zbar/poppler": zbar(pop), "zxing/poppler": zxing(pop),
            "zbar/pdfium": zbar(pdfium), "zxing/pdfium": zxing(pdfium)}


# -- the honest paper: verified, and every engine sees its number and code --------------------

def test_the_honest_paper_verifies_and_every_engine_shows_it(papers):
    pdf = papers["honest"]
    code, doc = verify(pdf)
    assert code == 0, doc
    assert CLAIMED in pdfium_text(pdf) and CLAIMED in poppler_text(pdf)
    box = badge_box(pdf)
    assert ink(poppler_pgm(pdf), box) > 100 and ink(pdfium_pgm(pdf), box) > 100
    assert all(found == [URL] for found in qr_seen(pdf).values())


# -- content arrays split inside a comment or a token -----------------------------------------

def test_contents_split_inside_a_comment(papers, tmp_path):
    pdf = H.split_in_comment(papers["honest"], tmp_path / "comment.pdf")
    not_verified(pdf)
    # pypdf reads the badge; the viewers' engines read its line as a comment
    assert CLAIMED in pypdf_text(pdf)
    assert CLAIMED not in pdfium_text(pdf) and CLAIMED not in poppler_text(pdf)
    box = badge_box(papers["honest"])
    assert ink(poppler_pgm(pdf), box) == 0 and ink(pdfium_pgm(pdf), box) == 0


def test_contents_split_inside_a_token(papers, tmp_path):
    pdf = H.split_in_token(papers["honest"], tmp_path / "token.pdf")
    not_verified(pdf)
    # PDFium (Chrome, Edge, Android) joins the streams with a space, which the badge's
    # font draws as a visible glyph inside the number; poppler joins them with nothing
    # and shows the number: the viewers disagree
    assert CLAIMED not in pdfium_text(pdf) and CLAIMED[:11] in pdfium_text(pdf)
    assert CLAIMED in poppler_text(pdf)


# -- inline images whose end readers find at different places ---------------------------------

def test_the_badge_inside_inline_image_data(papers, tmp_path):
    pdf = H.badge_in_image_data(papers["honest"], tmp_path / "image.pdf")
    not_verified(pdf)
    assert CLAIMED in pypdf_text(pdf)  # pypdf ends the image at the planted EI
    assert CLAIMED not in pdfium_text(pdf) and CLAIMED not in poppler_text(pdf)
    box = badge_box(papers["honest"])
    assert ink(poppler_pgm(pdf), box) == 0 and ink(pdfium_pgm(pdf), box) == 0


def test_another_number_where_pypdf_reads_image_data(papers, tmp_path):
    pdf = H.other_number_after_image(papers["honest"], tmp_path / "other.pdf", OTHER)
    not_verified(pdf)
    assert OTHER not in pypdf_text(pdf) and CLAIMED in pypdf_text(pdf)
    # both engines draw the other paper's number, over the badge
    assert OTHER in pdfium_text(pdf) and OTHER in poppler_text(pdf)
    box = badge_box(papers["honest"])
    assert ink(poppler_pgm(pdf), box) > 100 and ink(pdfium_pgm(pdf), box) > 100


# -- the QR code ----------------------------------------------------------------------------

def test_the_code_swapped_behind_a_comment(papers, tmp_path):
    pdf = H.qr_swapped(papers["honest"], tmp_path / "qr.pdf", N)
    not_verified(pdf)
    # every decoder, on every engine's pixels, reads the evil URL, and none the real one
    assert all(found == [EVIL] for found in qr_seen(pdf).values()), qr_seen(pdf)


# -- the page tree --------------------------------------------------------------------------

def test_a_count_that_lies(papers, tmp_path):
    pdf = H.count_lie(papers["honest"], papers["other"], tmp_path / "count.pdf")
    not_verified(pdf)
    # The file holds two pages (pypdf walks the kids: the second is the other paper's);
    # poppler and PDFium go by the count and see one.  pdf.js skips the subtree that
    # claims no page and opens the other paper's page as page 1 (not run here).
    from pypdf import PdfReader

    import pypdfium2 as pdfium

    assert len(PdfReader(str(pdf)).pages) == 2
    assert OTHER in pypdf_text(pdf, 1) and "NOTTHISPAPER" in pypdf_text(pdf, 1)
    info = subprocess.run([tool("pdfinfo"), str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1) == "1", info
    doc = pdfium.PdfDocument(str(pdf))
    try:
        assert len(doc) == 1
    finally:
        doc.close()


# -- the badge drawn where nobody sees it, another number drawn -------------------------------

@pytest.mark.parametrize("how", ["white", "clipped", "covered", "form", "layer"])
def test_a_badge_nobody_sees(papers, tmp_path, how):
    pdf = H.badge_edited(papers["honest"], tmp_path / (how + ".pdf"), how)
    not_verified(pdf)
    # the number is in PDFium's text of the page, but no engine paints it
    assert CLAIMED in pdfium_text(pdf)
    box = badge_box(papers["honest"])
    assert ink(poppler_pgm(pdf), box) == 0 and ink(pdfium_pgm(pdf), box) == 0


def test_another_number_drawn_on_page_1(papers, tmp_path):
    pdf = H.another_number(papers["honest"], tmp_path / "another.pdf", OTHER)
    not_verified(pdf)
    assert OTHER in pdfium_text(pdf) and OTHER in poppler_text(pdf)
