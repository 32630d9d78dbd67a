"""Every reader's view (issue 27, item 3): what prints, and what Firefox shows, over the
badge, the QR code and the title.

Each attack is built from a real pith-compiled paper (tests/support/print_pdfs.py) and
passed ``verify`` before the ``print`` check (PDFium's and poppler's screens show the
honest badge): ``pith-tex verify`` must now say FAIL or could not check.  The tests show
with the readers' engines what a reader sees there, read here directly, not through
pith_tex: PDFium through pypdfium2 (its screen, and ``FPDF_PRINTING`` as Chrome prints),
poppler's pdftoppm, and pdf.js (Firefox's engine, tests/pdfjs/render.mjs: its screen with
its form layer, and its print).  Honest papers on every route verify, and pdf.js shows
and prints their badge.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

import hostile_pdfs as H
import pdfjs
import print_pdfs as P
import recorded
import texbuild
from qrdecode import read_pgm, zxing

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
V2 = next(v for v in VECTORS[1:] if v["number"] != V["number"])
CLAIMED = "pith:%d:%s" % (V["year"], V["number"])
OTHER = "pith:%d:%s" % (V2["year"], V2["number"])
URL = "HTTPS://PITH.SCIENCE/pith/" + V["number"]
TITLE = "A Paper on Recovery"
DPI = 150
#: A place looks different in two renderings when this many of its pixels are dark in
#: one and light in the other (the same engine renders an unchanged place identically).
DIFFERENT = 40

Box = Tuple[float, float, float, float]


# -- the paper, the verdict, and the engines' pixels -------------------------------------------

@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    return H.paper(tmp_path_factory.mktemp("honest"), V)


@pytest.fixture(scope="module")
def where(honest) -> P.Places:
    found = P.places(honest, CLAIMED, TITLE)
    assert found.qr is not None
    return found


def verify(pdf: Path) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def print_line(doc: Dict[str, Any]) -> Dict[str, Any]:
    lines = [c for f in doc["files"] for c in f["checks"] if c["name"] == "print"]
    assert len(lines) == 1, json.dumps(doc, indent=1)[:3000]
    return lines[0]


def refused_by_print(pdf: Path, status: str, words: str, alone: bool = True) -> None:
    """``verify`` does not say verified, and the ``print`` check says why (*alone*: the
    only line that does, so the exit code is the print line's)."""
    code, doc = verify(pdf)
    want = (1,) if status == "FAIL" else (1, 3) if not alone else (3,)
    assert code in want, json.dumps(doc, indent=1)[:3000]
    line = print_line(doc)
    assert line["status"] == status.lower() and words in line["detail"], line


def pdfium_pixels(pdf: Path, printing: bool = False) -> Tuple[int, int, bytes, float]:
    """PDFium's page 1 (grey, annotations and forms drawn), on screen or as printed."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        bitmap = page.render(scale=DPI / 72, grayscale=True, draw_annots=True,
                             extra_flags=raw.FPDF_PRINTING if printing else 0)
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
        height = page.get_height()
    finally:
        doc.close()
    return w, h, b"".join(buf[r * stride:r * stride + w] for r in range(h)), height


def poppler_pixels(pdf: Path) -> Tuple[int, int, bytes, float]:
    out = pdf.with_name(pdf.stem + "-poppler")
    subprocess.run([texbuild.tool("pdftoppm"), "-q", "-f", "1", "-l", "1", "-r", str(DPI),
                    "-gray", "-singlefile", str(pdf), str(out)], check=True)
    w, h, px = read_pgm(out.with_suffix(".pgm"))
    return w, h, px, h * 72 / DPI


def pdfjs_pixels(pdf: Path, intent: str) -> Tuple[int, int, bytes, float]:
    r = pdfjs.render(pdf, intent, DPI)
    return r.width, r.height, r.pixels, float(r.info["height"])


def differing(a: Tuple[int, int, bytes, float], b: Tuple[int, int, bytes, float],
              box: Box) -> int:
    """Pixels of *box* (user space) dark in one rendering and light in the other."""
    w, h, pa, height = a
    assert (w, h) == b[:2]
    pb = b[2]
    s = DPI / 72
    n = 0
    for y in range(max(0, int((height - box[3]) * s)), min(h, int((height - box[1]) * s) + 1)):
        for x in range(max(0, int(box[0] * s)), min(w, int(box[2] * s) + 1)):
            p, q = pa[y * w + x], pb[y * w + x]
            n += (p < 128 and q > 192) or (q < 128 and p > 192)
    return n


def ink(pixels: Tuple[int, int, bytes, float], box: Box) -> int:
    w, h, px, height = pixels
    s = DPI / 72
    return sum(1 for y in range(max(0, int((height - box[3]) * s)),
                                min(h, int((height - box[1]) * s) + 1))
               for x in range(max(0, int(box[0] * s)), min(w, int(box[2] * s) + 1))
               if px[y * w + x] < 128)


def screens_unchanged(honest: Path, pdf: Path, box: Box) -> None:
    """PDFium's and poppler's screens show the honest pixels at *box*: the attack passes
    the screen engines, as it passed verify before the print check."""
    assert differing(pdfium_pixels(honest), pdfium_pixels(pdf), box) == 0
    assert differing(poppler_pixels(honest), poppler_pixels(pdf), box) < DIFFERENT


def test_pdfjs_is_installed():
    assert pdfjs.missing() == ""


# -- print-only covers ---------------------------------------------------------------------------

def test_an_annotation_printed_and_never_shown_covers_the_badge(honest, where, tmp_path):
    pdf = P.print_only_cover(honest, tmp_path / "annot.pdf", where, OTHER)
    refused_by_print(pdf, "FAIL", "prints otherwise than it shows over the badge")
    screens_unchanged(honest, pdf, where.badge)
    # Chrome's print (PDFium, FPDF_PRINTING) and Firefox's (pdf.js, print intent) draw it
    for printed in (lambda p: pdfium_pixels(p, True), lambda p: pdfjs_pixels(p, "print")):
        assert differing(printed(honest), printed(pdf), where.badge) >= DIFFERENT
        assert differing(printed(honest), printed(pdf), where.qr) >= DIFFERENT
    # Firefox's screen does not
    assert differing(pdfjs_pixels(honest, "display"), pdfjs_pixels(pdf, "display"),
                     where.badge) == 0


def test_an_annotation_printed_and_never_shown_covers_the_title(honest, where, tmp_path):
    pdf = P.print_only_cover(honest, tmp_path / "title.pdf", where, None, title=True)
    refused_by_print(pdf, "FAIL", "prints otherwise than it shows over the title")
    screens_unchanged(honest, pdf, where.title)
    assert ink(pdfjs_pixels(pdf, "print"), where.title) == 0
    assert ink(pdfjs_pixels(pdf, "display"), where.title) > 100


def test_a_layer_on_only_in_print_covers_the_badge(honest, where, tmp_path):
    """/Usage /Print /PrintState /ON, /View /ViewState /OFF through /AS events, off in the
    default configuration: PDFium prints it (as Acrobat, by the events), no screen shows
    it; pdf.js applies no /AS event, so Firefox prints the honest page."""
    pdf = P.print_only_layer(honest, tmp_path / "layer.pdf", where)
    refused_by_print(pdf, "FAIL", "prints otherwise than it shows over the badge")
    screens_unchanged(honest, pdf, where.badge)
    assert ink(pdfium_pixels(pdf, True), where.badge) == 0  # a blank badge in print
    assert ink(pdfium_pixels(pdf, True), where.qr) == 0
    assert differing(pdfjs_pixels(honest, "print"), pdfjs_pixels(pdf, "print"),
                     where.badge) == 0


def test_a_layer_not_printed_holds_the_badge(honest, where, tmp_path):
    """The badge and the code in a group on by default whose /Usage says /PrintState
    /OFF: every screen shows them, Chrome and Firefox print the page without them."""
    pdf = P.not_printed_layer(honest, tmp_path / "noprint.pdf")
    refused_by_print(pdf, "FAIL", "prints otherwise than it shows over the badge")
    screens_unchanged(honest, pdf, where.badge)
    assert ink(pdfjs_pixels(pdf, "display"), where.badge) > 100
    assert ink(pdfjs_pixels(honest, "print"), where.badge) > 100
    for printed in (pdfium_pixels(pdf, True), pdfjs_pixels(pdf, "print")):
        assert ink(printed, where.badge) == 0 and ink(printed, where.qr) == 0


#: Optional content groups: (the default configuration, the group's extra entries).
GROUPS = {
    "on": (b"<< /ON [5 0 R] >>", b""),
    "off": (b"<< /OFF [5 0 R] >>", b""),
    "print only": (b"<< /OFF [5 0 R] >>",
                   b"/Usage << /Print << /PrintState /ON >> /View << /ViewState /OFF >> >>"),
    "not printed": (b"<< >>", b"/Usage << /Print << /PrintState /OFF >> >>"),
    "view off": (b"<< >>", b"/Usage << /View << /ViewState /OFF >> >>"),
    "usage on, configuration off": (
        b"<< /OFF [5 0 R] >>",
        b"/Usage << /View << /ViewState /ON >> /Print << /PrintState /ON >> >>"),
    "design intent, off": (b"<< /OFF [5 0 R] >>", b"/Intent /Design"),
}


@pytest.mark.parametrize("case", sorted(GROUPS))
def test_which_layers_pdfium_and_pdfjs_switch_differently(case, tmp_path):
    """:func:`pith_tex.pdf.layers.engines_disagree` against the engines: a black square
    in the group, drawn or not by PDFium (screen, print) and pdf.js (display, print)."""
    from pypdf import PdfReader

    from pith_tex.pdf.layers import engines_disagree

    config, extra = GROUPS[case]
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R] /D %s >> >>"
               % config,
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
               b"/Resources << /Properties << /G 5 0 R >> >> /Contents 4 0 R >>",
            4: H.stream(b"/OC /G BDC 0 g 50 50 100 100 re f EMC"),
            5: b"<< /Type /OCG /Name (g) %s >>" % extra}
    pdf = tmp_path / "layer.pdf"
    pdf.write_bytes(H.raw_pdf(objs))
    square = (60.0, 60.0, 140.0, 140.0)
    shown = {"pdfium": ink(pdfium_pixels(pdf), square) > 0,
             "pdfium print": ink(pdfium_pixels(pdf, True), square) > 0,
             "pdf.js": ink(pdfjs_pixels(pdf, "display"), square) > 0,
             "pdf.js print": ink(pdfjs_pixels(pdf, "print"), square) > 0}
    disagree = (shown["pdfium"] != shown["pdf.js"]
                or shown["pdfium print"] != shown["pdf.js print"])
    assert bool(engines_disagree(PdfReader(str(pdf)).pages[0])) == disagree, shown


def test_a_title_link_in_ocgcolorlinks_layers_is_refused(tmp_path):
    """hyperref's ocgcolorlinks draws a link's text twice, in a View group (on) and a
    Print group (off by default, printed by its /Usage): PDFium shows the one and prints
    the other, pdf.js prints neither, so Firefox prints the title without its linked
    word.  Over the title that is refused (could not check), not verified."""
    src = _source("ocgcolorlinks", "qr").replace(
        "\\title{%s}" % TITLE, "\\title{A Paper on \\href{https://example.org}{Recovery}}")
    assert "\\href" in src
    b = texbuild.compile_tex(tmp_path / "p", src, "pdflatex", include=H.include_of(V))
    assert b.ok, b.describe()
    refused_by_print(b.pdf, "ERROR", "the title lies in a layer")
    word = P.places(b.pdf, CLAIMED, "Recovery").title
    assert ink(pdfium_pixels(b.pdf), word) > 100 and ink(pdfium_pixels(b.pdf, True), word) > 100
    assert ink(pdfjs_pixels(b.pdf, "display"), word) > 100
    assert ink(pdfjs_pixels(b.pdf, "print"), word) == 0


# -- a form field, an /ActualText ---------------------------------------------------------------

def test_a_text_field_over_the_badge(honest, where, tmp_path):
    pdf = P.form_field(honest, tmp_path / "field.pdf", where, OTHER)
    refused_by_print(pdf, "ERROR", "form field")
    screens_unchanged(honest, pdf, where.badge)
    # Firefox's form layer puts the field, with the other number, over the badge
    shown = pdfjs.render(pdf, "display", DPI)
    field = [f for f in shown.info["fields"] if f["fieldType"] == "Tx"]
    assert [f["value"] for f in field] == [OTHER] and field[0]["backgroundColor"]
    assert differing(pdfjs_pixels(honest, "display"), (shown.width, shown.height,
                                                       shown.pixels, shown.info["height"]),
                     where.badge) >= DIFFERENT


@pytest.mark.parametrize("in_form", [False, True], ids=["page", "form"])
def test_an_actual_text_that_is_not_what_is_painted(honest, where, tmp_path, in_form):
    """In a form too, where PDFium gives the characters' boxes in the form's space (its
    badge line then finds the number unpainted as well: a FAIL beside the refusal).  On
    the page, the badge line fails it too: its pixels read the other number (OCR)."""
    pdf = P.actual_text_lie(honest, tmp_path / "actual.pdf", OTHER, in_form)
    refused_by_print(pdf, "ERROR", "/ActualText", alone=False)
    text = P.engines_text(pdf)
    assert CLAIMED in text["pdfium"] and CLAIMED in text["poppler"]  # what they extract
    firefox = pdfjs.render(pdf, "display", DPI)  # pdf.js reads the glyphs drawn
    assert OTHER in firefox.text and CLAIMED not in firefox.text
    assert differing(pdfium_pixels(honest), pdfium_pixels(pdf), where.badge) >= DIFFERENT


# -- honest papers ------------------------------------------------------------------------------

def _source(hyperref: str, options: str) -> str:
    src = H.source(V["number"], TITLE, options)
    line = "\\usepackage[colorlinks]{hyperref}\n"
    assert line in src
    return src.replace(line, "" if hyperref == "none" else
                       "\\usepackage[%s]{hyperref}\n" % hyperref)


@pytest.mark.parametrize("route,hyperref,options", [
    ("pdflatex", "colorlinks", "qr"), ("pdflatex", "none", ""),
    ("pdflatex", "ocgcolorlinks", "qr"), ("dvips", "colorlinks", "qr"),
    ("dvips", "none", "qr"), ("xelatex", "colorlinks", "qr"), ("xelatex", "none", "")])
def test_honest_papers_verify_and_firefox_shows_and_prints_the_badge(
        route, hyperref, options, tmp_path):
    b = texbuild.compile_tex(tmp_path / "p", _source(hyperref, options), route,
                             include=H.include_of(V))
    assert b.ok, b.describe()
    code, doc = verify(b.pdf)
    assert code == 0, json.dumps(doc, indent=1)[:3000]
    assert print_line(doc)["status"] == "ok"
    where = P.places(b.pdf, CLAIMED, TITLE)
    for intent in ("display", "print"):
        firefox = pdfjs.render(b.pdf, intent, DPI)
        assert CLAIMED in firefox.text, firefox.text[:400]
        assert firefox.ink(where.badge) > 100, intent
        assert (options == "qr") == (URL in zxing(firefox.pgm)), intent
