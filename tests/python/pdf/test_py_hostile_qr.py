"""Hostile PDFs for ``pith-tex verify``, the QR code: tampered, moved, covered, masked and
other codes.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any, Callable, List, Tuple

import pytest

pytestmark = pytest.mark.hostile

import texbuild
from pdfclaims import qr_box, tampered
from pith_tex.include.qr import qr_rows
from hostile_corpus import (
    badge_shown, check, CLAIMED, edit_dashes, grey_levels, grid_ops, N, N2, OTHER,
    page_content, page_ops, qr_stream, verify,
)


# -- the QR code ----------------------------------------------------------------------------


_ROW = rb"\[[0-9 ]+\]0 d [0-9]+ [0-9]+\.5 m [0-9]+ [0-9]+\.5 l S "


def _edit_path(w: Any, edit: Any) -> None:
    """Page 1's content with pith.sty's QR path (``q S 0 0 S T T cm 0 G 1 w 0 J <rows> Q``,
    a row ``[D1 L2 ...]0 d L1 y.5 m SIZE y.5 l S``) changed by *edit* (bytes -> bytes)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = qr_stream(w)
    m = re.search(rb"q [0-9.]+ 0 0 [0-9.]+ [0-9.]+ [0-9.]+ cm 0 G 1 w 0 J (?:%s)+Q" % _ROW,
                  data)
    assert m, data[:2000]
    s = DecodedStreamObject()
    s.set_data(data[:m.start()] + edit(m.group(0)) + data[m.end():])
    page[NameObject("/Contents")] = w._add_object(s)


def test_one_module_changed_fails(honest, tmp_path):
    def widen(a: List[float]) -> List[float]:
        return [a[0] + 1, a[1] - 1] + a[2:]  # one light module after the first run dark

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "q.pdf",
                                     lambda w: edit_dashes(w, widen)))
    assert code in (1, 3)
    c = check(doc, "qr")
    assert c["status"] == "fail" and "modules differ" in c["detail"], c


@pytest.mark.parametrize("how, edit", [
    ("not painted", lambda p: p.replace(b" l S ", b" l n ")),
    ("white", lambda p: p.replace(b" cm 0 G ", b" cm 1 G ", 1)),
    ("round caps", lambda p: p.replace(b" 0 J ", b" 1 J ", 1)),
    ("dashes shifted by a phase", lambda p: p.replace(b"]0 d", b"]0.5 d")),
    ("inside a dark square", lambda p: p.replace(b" 0 J ", b" 0 J 0 g 0 0 29 29 re f ", 1)),
])
def test_path_a_reader_cannot_see_does_not_count(honest, tmp_path, how, edit):
    """The code drawn as dashed lines: unpainted, white, with round caps or a dash phase
    (dashes of other shapes or places than the modules'), or with a dark square filled
    over it, it is not the QR code a reader sees, and verify does not say it checked
    one."""
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf",
                                     lambda w: _edit_path(w, edit)))
    c = check(doc, "qr")
    assert c["status"] in ("warn", "fail"), c
    assert "is the code of" not in c["detail"], c


def test_dark_square_over_the_code_fails(honest, tmp_path):
    """A dark square painted over part of pith.sty's code (not one module high, so not one
    of its rows) hides those modules from a scanner: not vouched for.  (The same square
    over a code drawn by hand on a paper without the qr option leaves a symbol that
    decodes to nothing: no code of pith.sty's, as stray symbols in text are, issue 27.)"""
    def edit(w: Any) -> None:
        box = qr_box(w)
        page_ops(w, b"0 g %.2f %.2f 20 20 re f\n" % (box[0] + 10, box[1] + 10), font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "q.pdf", edit))
    c = check(doc, "qr")
    assert code in (1, 3) and c["status"] == "fail", c


def test_path_scaled_below_a_scannable_module_fails(honest, tmp_path):
    def shrink(p: bytes) -> bytes:
        return re.sub(rb"^q [0-9.]+ 0 0 [0-9.]+ ", b"q 0.1 0 0 0.1 ", p)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "s.pdf",
                                     lambda w: _edit_path(w, shrink)))
    c = check(doc, "qr")
    # too small for a scanner to find at all: never "checked"
    assert c["status"] in ("fail", "warn") and "decodes to" not in c["detail"], c


def _stroked_runs(rows: List[str], dash: bytes, x: float = 400, y: float = 300,
                  module: float = 1.5) -> bytes:
    """Each dark run of *rows* as a line one module wide, with the dash setting *dash*."""
    ops = []
    for i, row in enumerate(rows):
        yy = y - (i + 0.5) * module
        for m in re.finditer("1+", row):
            ops.append(b"q %s%.2f w 0 G %.3f %.3f m %.3f %.3f l S Q" % (
                dash, module, x + m.start() * module, yy, x + m.end() * module, yy))
    return b"\n".join(ops) + b"\n"


def test_dashed_runs_are_not_read_as_solid(honest, tmp_path):
    """The right code with every run stroked as a line dashed almost to nothing
    ([0.05 100]): a reader sees specks, and so does the scanner, which follows dashes.
    The same lines undashed are the code."""
    rows = qr_rows(N)
    bad = tampered(honest.get("plain"), tmp_path / "d.pdf", lambda w: page_ops(
        w, _stroked_runs(rows, b"[0.05 100] 0 d "), font=False))
    code, doc, err = verify(bad)
    c = check(doc, "qr")  # specks: no code of pith.sty's (none asked for), none vouched for
    assert "decodes to HTTPS" not in c["detail"] and "is the code of" not in c["detail"], c
    good = tampered(honest.get("plain"), tmp_path / "s.pdf", lambda w: page_ops(
        w, _stroked_runs(rows, b"[] 0 d "), font=False))
    code, doc, err = verify(good)
    assert code == 0 and check(doc, "qr")["status"] == "ok", doc


def test_another_numbers_code_alone_fails(honest, tmp_path):
    rows = qr_rows(N2)
    bad = tampered(honest.get("plain"), tmp_path / "q.pdf",
                   lambda w: page_ops(w, grid_ops(rows, 400, 300, 1.5), font=False))
    code, doc, err = verify(bad)
    assert code == 1 and check(doc, "qr")["status"] == "fail"
    # and the right code drawn the same way passes: the reading back is exact
    good = tampered(honest.get("plain"), tmp_path / "g.pdf",
                    lambda w: page_ops(w, grid_ops(qr_rows(N), 400, 300, 1.5), font=False))
    code, doc, err = verify(good)
    assert code == 0 and check(doc, "qr")["status"] == "ok", doc


def test_a_second_code_is_not_vouched_for(honest, tmp_path):
    bad = tampered(honest.get("qr"), tmp_path / "q.pdf",
                   lambda w: page_ops(w, grid_ops(qr_rows(N2), 400, 300, 1.5), font=False))
    code, doc, err = verify(bad)
    # another decodable code on page 1 fails: a scanner may read either
    assert code == 1
    c = check(doc, "qr")
    assert c["status"] == "fail" and N2 in c["detail"], c


@pytest.mark.parametrize("scale, ok", [(0.2, False), (0.6, True)], ids=["tiny", "small"])
def test_a_code_too_small_to_scan_fails(honest, tmp_path, scale, ok):
    """pith.sty's own code, drawn smaller (as qr-size=4mm would): module for module the
    right code, but no scanner reads modules of 0.1 mm.  The default 2 cm code has
    0.54 mm modules; 0.6 of it, 0.33 mm, still scans."""
    def edit(w):
        from pypdf.generic import DecodedStreamObject, NameObject

        x0, y0, _, _ = qr_box(w)
        page = w.pages[0]
        s = DecodedStreamObject()
        # shrink the page about the code's corner: the code stays on the page
        s.set_data(b"q %g 0 0 %g %.3f %.3f cm\n" % (scale, scale, x0 * (1 - scale),
                                                     y0 * (1 - scale))
                   + page.get_contents().get_data() + b"\nQ\n")
        page[NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "s.pdf", edit))
    c = check(doc, "qr")
    if ok:
        assert c["status"] == "ok", doc
    else:
        assert c["status"] in ("fail", "error", "warn"), doc  # never "checked"


def test_a_code_clipped_away_is_not_drawn(honest, tmp_path):
    """Modules outside the clipping area are not painted: a code clipped away is not
    pith.sty's code on the page (the badge, right of it, stays visible)."""
    def edit(w):
        from pypdf.generic import DecodedStreamObject, NameObject

        box = qr_box(w)
        page = w.pages[0]
        s = DecodedStreamObject()
        s.set_data(b"q %.2f 0 2000 2000 re W n\n" % (box[2] + 1) + page.get_contents().get_data()
                   + b"\nQ\n")
        page[NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "c.pdf", edit))
    assert badge_shown(doc), doc
    assert check(doc, "qr")["status"] != "ok", doc


def test_paint_over_the_code_fails(honest, tmp_path):
    def edit(w):

        box = qr_box(w)
        page_ops(w, b"1 g %.2f %.2f 6 6 re f\n" % (box[0] + 10, box[1] + 10), font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf", edit))
    assert code in (1, 3)
    assert check(doc, "qr")["status"] == "fail", doc


def _annotation(w: Any, rect: List[float], ops: bytes, subtype: str = "/FreeText") -> None:
    """Give page 1 an annotation of *subtype* over *rect* whose normal appearance stream
    draws *ops* (Helvetica as /F1): a viewer draws it over the page."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject, TextStringObject)

    font = w._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica")}))
    ap = DecodedStreamObject()
    ap.set_data(ops)
    box = ArrayObject([FloatObject(0), FloatObject(0), FloatObject(rect[2] - rect[0]),
                       FloatObject(rect[3] - rect[1])])
    ap.update({NameObject("/Type"): NameObject("/XObject"),
               NameObject("/Subtype"): NameObject("/Form"), NameObject("/BBox"): box,
               NameObject("/Resources"): DictionaryObject({NameObject("/Font"): DictionaryObject(
                   {NameObject("/F1"): font})})})
    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject(subtype),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
        NameObject("/AP"): DictionaryObject({NameObject("/N"): w._add_object(ap)}),
        NameObject("/F"): NumberObject(4), NameObject("/DA"): TextStringObject("/F1 10 Tf 0 g")})
    page = w.pages[0]
    annots = page.get("/Annots")
    annots = annots.get_object() if annots is not None else ArrayObject()
    annots.append(w._add_object(annot))
    page[NameObject("/Annots")] = annots


def _number_box(pdf: Path) -> Tuple[float, float, float, float]:
    """Where page 1 shows the claimed number (PDFium's box of its characters, in user
    space)."""
    from pith_tex.pdf import pageview

    v = pageview.pdfium_view(pdf.read_bytes())
    (word,) = [w for w in v.words if w.text == CLAIMED]
    b = word.box
    d = (b[3] - b[1]) * 0.15  # PDFium's loose box, to about the glyphs' own height
    return (v.crop[0] + b[0], v.crop[3] - b[3] + d, v.crop[0] + b[2], v.crop[3] - b[1] - d)


def _cover(how: str, box: Tuple[float, float, float, float]) -> Callable[[Any], None]:
    x0, y0, x1, y1 = box
    rect = b"%.2f %.2f %.2f %.2f re f" % (x0, y0, x1 - x0, y1 - y0)

    def edit(w: Any) -> None:
        if how == "annotation":
            _annotation(w, [x0, y0, x1, y1], b"1 g 0 0 %.2f %.2f re f" % (x1 - x0, y1 - y0),
                        "/Square")
        elif how in ("square, no appearance", "free text, no appearance"):
            # viewers make its appearance: poppler fills a square with its /IC, writes
            # a free text's note over a background in its /C
            from pypdf.generic import (ArrayObject, DictionaryObject, FloatObject,
                                       NameObject, TextStringObject)

            white = ArrayObject([FloatObject(1)] * 3)
            annot = DictionaryObject({
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Rect"): ArrayObject([FloatObject(v) for v in box]),
                NameObject("/C"): white, NameObject("/IC"): white,
                NameObject("/Subtype"): NameObject("/Square" if how[0] == "s" else "/FreeText"),
                NameObject("/DA"): TextStringObject("/Helv 12 Tf 0 g"),
                NameObject("/Contents"): TextStringObject("WWWWWWWWWWWWWWWWWWWWWWWW")})
            page = w.pages[0]
            page[NameObject("/Annots")].get_object().append(w._add_object(annot))
        elif how == "under":  # a white box first, the page on it: a background
            page_content(w, lambda data: b"q 1 g %s Q\n" % rect + data)
        elif how == "text":  # other glyphs drawn on the number
            page_ops(w, b"q BT /FPT %.2f Tf %.2f %.2f Td (%s) Tj ET Q\n"
                     % (y1 - y0, x0, y0 + (y1 - y0) * 0.2, b"W" * 40))
        else:
            page_ops(w, b"q %s %s Q\n" % ({"white": b"1 g", "black": b"0 g"}[how], rect),
                     font=False)
    return edit


@pytest.mark.parametrize("how, shown", [
    ("white", False), ("black", False), ("text", False), ("annotation", False),
    ("square, no appearance", False), ("free text, no appearance", False),
    ("under", True)])
def test_something_drawn_over_the_badge_hides_it(honest, tmp_path, how, shown):
    """A white or black box, other glyphs, or an annotation's appearance drawn over the
    number after it: poppler renders no number there (one colour, or other glyphs), so
    it is not vouched for; the same box drawn before it is a background."""
    box = _number_box(honest.get("qr"))
    before = grey_levels(honest.get("qr"), box, tmp_path / "a")
    pdf = tampered(honest.get("qr"), tmp_path / "c.pdf", _cover(how, box))
    after = grey_levels(pdf, box, tmp_path / "b")
    assert min(before) < 64 and max(before) > 192  # black glyphs on white
    assert (after == before) == shown, (how, min(after), max(after))
    code, doc, err = verify(pdf)
    c = check(doc, "badge")
    if shown:
        assert code == 0 and c["status"] == "ok", doc
    else:
        assert code in (1, 3) and c["status"] in ("fail", "error"), c


@pytest.mark.parametrize("subtype", ["/FreeText", "/Stamp"])
def test_an_annotation_showing_another_number_fails(honest, tmp_path, subtype):
    bad = tampered(honest.get("qr"), tmp_path / "annot.pdf", lambda w: _annotation(
        w, [100, 100, 400, 120], b"BT /F1 10 Tf 2 5 Td (%s) Tj ET" % OTHER.encode(), subtype))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert OTHER in "".join(shown.split())  # poppler reads the annotation's number
    code, doc, err = verify(bad)
    assert code in (1, 3), doc
    c = check(doc, "badge")
    assert c["status"] == "fail" and OTHER in c["detail"], c


def test_an_annotation_painted_over_the_code_fails(honest, tmp_path):
    def edit(w):

        box = qr_box(w)
        _annotation(w, [box[0] + 10, box[1] + 10, box[0] + 30, box[1] + 30],
                    b"1 g 0 0 20 20 re f", "/Square")

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf", edit))
    assert code in (1, 3), doc
    assert check(doc, "qr")["status"] == "fail", doc


def _repainted_code(w: Any, paint: Callable[[Any, float, float, float, bool], bytes]) -> None:
    """Paint, with *paint(w, x, y, module, dark)*, every module where the code of N2
    differs from page 1's code of N: a scanner then reads N2's URL."""

    box = qr_box(w)
    want, have = qr_rows(N2), qr_rows(N)
    assert len(want) == len(have)
    module = (box[2] - box[0]) / len(want)
    ops = []
    for i, row in enumerate(want):
        for j, bit in enumerate(row):
            if bit != have[i][j]:
                ops.append(paint(w, box[0] + j * module, box[3] - (i + 1) * module, module,
                                 bit == "1"))
    page_ops(w, b"\n".join(ops) + b"\n", font=False)


def _square_glyph(w: Any, x: float, y: float, module: float, dark: bool) -> bytes:
    """ZapfDingbats 'n' (a black square, a standard-14 font) over one module."""
    from pypdf.generic import DictionaryObject, NameObject

    fonts = w.pages[0]["/Resources"].get_object()["/Font"].get_object()
    if "/FZD" not in fonts:
        fonts[NameObject("/FZD")] = w._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/ZapfDingbats")}))
    size = module * 1000 / 691 * 1.08
    return b"BT %s /FZD %.3f Tf 1 0 0 1 %.3f %.3f Tm (n) Tj ET" % (
        b"0 g" if dark else b"1 g", size, x - 0.055 * size, y - 0.02 * size)


def _shaded(w: Any, x: float, y: float, module: float, dark: bool) -> bytes:
    """A constant-colour shading painted (``sh``) through a one-module clip."""
    from pypdf.generic import (ArrayObject, BooleanObject, DictionaryObject, FloatObject,
                               NameObject, NumberObject)

    res = w.pages[0]["/Resources"].get_object()
    if "/Shading" not in res:
        res[NameObject("/Shading")] = DictionaryObject()
    shadings = res["/Shading"].get_object()
    name = "/Sh%d" % int(dark)
    if name not in shadings:
        grey = ArrayObject([FloatObject(0 if dark else 1)])
        shadings[NameObject(name)] = w._add_object(DictionaryObject({
            NameObject("/ShadingType"): NumberObject(2),
            NameObject("/ColorSpace"): NameObject("/DeviceGray"),
            NameObject("/Coords"): ArrayObject([FloatObject(v) for v in (0, 0, 1, 0)]),
            NameObject("/Extend"): ArrayObject([BooleanObject(True), BooleanObject(True)]),
            NameObject("/Function"): DictionaryObject({
                NameObject("/FunctionType"): NumberObject(2),
                NameObject("/Domain"): ArrayObject([FloatObject(0), FloatObject(1)]),
                NameObject("/C0"): grey, NameObject("/C1"): grey,
                NameObject("/N"): NumberObject(1)})}))
    return b"q %.3f %.3f %.3f %.3f re W n %s sh Q" % (x, y, module, module, name.encode())


@pytest.mark.parametrize("paint", [_square_glyph, _shaded], ids=["glyphs", "shading"])
def test_modules_repainted_into_another_code_fail(honest, tmp_path, paint):
    bad = tampered(honest.get("qr"), tmp_path / "repainted.pdf",
                   lambda w: _repainted_code(w, paint))
    png = tmp_path / "page"
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "300", "-f", "1", "-l", "1", "-png",
                    str(bad), str(png)], check=True)
    read = subprocess.run([texbuild.tool("zbarimg"), "-q", "--raw",
                           str(next(tmp_path.glob("page*.png")))],
                          capture_output=True, text=True).stdout
    assert N2 in read, read  # what a scanner reads from poppler's rendering
    code, doc, err = verify(bad)
    assert code in (1, 3), doc
    assert check(doc, "qr")["status"] == "fail", doc


def test_a_square_image_is_not_vouched_for(honest, tmp_path):
    from pypdf.generic import DecodedStreamObject, NameObject, NumberObject, DictionaryObject

    def edit(w):
        img = DecodedStreamObject()
        img.set_data(b"\x00" * 4)
        img.update({NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Image"),
                    NameObject("/Width"): NumberObject(2), NameObject("/Height"): NumberObject(2),
                    NameObject("/ColorSpace"): NameObject("/DeviceGray"),
                    NameObject("/BitsPerComponent"): NumberObject(8)})
        res = w.pages[0]["/Resources"].get_object()
        if "/XObject" not in res:
            res[NameObject("/XObject")] = DictionaryObject()
        res["/XObject"].get_object()[NameObject("/ImQR")] = w._add_object(img)
        page_ops(w, b"q 60 0 0 60 400 100 cm /ImQR Do Q\n", font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "i.pdf", edit))
    assert code == 0
    c = check(doc, "qr")
    # images are decoded with the rest of the page now: a square image that is no code
    # is nothing to say
    assert c["status"] == "ok", c


