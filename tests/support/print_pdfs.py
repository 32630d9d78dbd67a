"""Hostile PDFs on what readers see beyond the screen (issue 27, item 3), each built from a
real pith-compiled paper (:func:`hostile_pdfs.paper`) and edited with pypdf:

``print_only_cover``   a white box with another number, in an annotation flagged
                       Print|NoView over the badge and the QR code: drawn when the page
                       is printed (Chrome, Firefox, "print to PDF"), never on screen;
``print_only_layer``   the white boxes in an optional content group whose /Usage says
                       printed, not viewed (/AS events for View and Print);
``not_printed_layer``  the badge and the QR code in a group whose /Usage says not
                       printed: Chrome and Firefox print the page without them;
``form_field``         a text field over the badge: white background, another number as
                       its value, an empty appearance (PDFium and poppler draw nothing,
                       Firefox lays its own <input> there);
``actual_text_lie``    the badge painted as another number inside a /Span whose
                       /ActualText is the claimed number (what the engines extract).

Where things are is read from the honest PDF with PDFium (the badge's and the title's
characters) and zxing-cpp (the QR code in PDFium's rendering): :func:`places`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

import hostile_pdfs as H

Box = Tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF user space (y up)

PRINT, NO_VIEW = 4, 32  # annotation flags (PDF 32000-1, 12.5.3)


class Places(NamedTuple):
    badge: Box
    qr: Optional[Box]
    title: Box


def _chars_box(tp: Any, text: str, what: str) -> Box:
    i = tp.get_text_range().find(what)
    assert i >= 0, (what, tp.get_text_range()[:400])
    boxes = [tp.get_charbox(k) for k in range(i, i + len(what))]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def places(pdf: Path, claimed: str, title: str) -> Places:
    """The badge, QR code and title of page 1 of *pdf*, in user space."""
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        tp = page.get_textpage()
        badge = _chars_box(tp, tp.get_text_range(), claimed)
        head = _chars_box(tp, tp.get_text_range(), title)
        scale = 150 / 72
        bitmap = page.render(scale=scale, grayscale=True)
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
        height = page.get_height()
    finally:
        doc.close()
    pixels = b"".join(buf[r * stride:r * stride + w] for r in range(h))
    image = memoryview(pixels).cast("B", (h, w))
    qr = None
    for r in zxingcpp.read_barcodes(image):
        p = r.position
        xs = [c.x / scale for c in (p.top_left, p.top_right, p.bottom_left, p.bottom_right)]
        ys = [height - c.y / scale for c in (p.top_left, p.top_right, p.bottom_left,
                                            p.bottom_right)]
        qr = (min(xs), min(ys), max(xs), max(ys))
    return Places(badge, qr, head)


def _pad(b: Box, d: float = 2.0) -> Box:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _helvetica(w: Any, res: Any) -> None:
    from pypdf.generic import DictionaryObject, NameObject

    fonts = res.get("/Font")
    if fonts is None:
        res[NameObject("/Font")] = DictionaryObject()
        fonts = res["/Font"]
    fonts.get_object()[NameObject("/FHv")] = w._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
        NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))


def _cover_ops(boxes: List[Box], origin: Tuple[float, float], other: Optional[str],
               badge: Box, size: float) -> bytes:
    """White boxes over *boxes*, and *other* (if any) in Helvetica where the badge is, in
    a frame whose origin is *origin* (user space)."""
    ox, oy = origin
    ops = [b"q 1 g"]
    for b in boxes:
        ops.append(b"%.3f %.3f %.3f %.3f re" % (b[0] - ox, b[1] - oy, b[2] - b[0], b[3] - b[1]))
    ops.append(b"f")
    if other is not None:
        ops.append(b"0 g BT /FHv %g Tf %.3f %.3f Td (%s) Tj ET"
                   % (size, badge[0] - ox, badge[1] - oy + 0.5, other.encode("ascii")))
    return b"\n".join(ops + [b"Q"])


def print_only_cover(src: Path, dst: Path, where: Places, other: Optional[str],
                     title: bool = False) -> Path:
    """An annotation flagged Print|NoView whose appearance covers the badge and the QR
    code with white and writes *other* (if any) where the badge was; with *title*, it
    covers the title alone."""
    from pypdf import PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject)

    boxes = ([_pad(where.title)] if title else
             [_pad(where.badge)] + ([_pad(where.qr)] if where.qr else []))
    rect = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))
    w = PdfWriter(clone_from=str(src))
    res = DictionaryObject()
    _helvetica(w, res)
    ap = DecodedStreamObject()
    ap.set_data(_cover_ops(boxes, rect[:2], other, where.badge, 7))
    ap.update({NameObject("/Type"): NameObject("/XObject"),
               NameObject("/Subtype"): NameObject("/Form"),
               NameObject("/Resources"): res,
               NameObject("/BBox"): ArrayObject([FloatObject(0), FloatObject(0),
                                                 FloatObject(rect[2] - rect[0]),
                                                 FloatObject(rect[3] - rect[1])])})
    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Square"),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
        NameObject("/F"): NumberObject(PRINT | NO_VIEW),
        NameObject("/AP"): DictionaryObject({NameObject("/N"): w._add_object(ap)})})
    page = w.pages[0]
    if "/Annots" not in page:
        page[NameObject("/Annots")] = ArrayObject()
    page["/Annots"].get_object().append(w._add_object(annot))
    with open(dst, "wb") as f:
        w.write(f)
    return dst


def print_only_layer(src: Path, dst: Path, where: Places, default_on: bool = False) -> Path:
    """The white boxes of :func:`print_only_cover` drawn on page 1 inside an optional
    content group used for printing only: /Usage /Print /PrintState /ON, /View /ViewState
    /OFF, applied by /AS events for View and Print (PDF 32000-1, 8.11.4.4); the default
    configuration has it off (*default_on*: on, which poppler's screen shows).  (No text
    in it: the engines extract the text of a hidden layer.)"""
    from pypdf.generic import (ArrayObject, DictionaryObject, NameObject,
                               TextStringObject)

    boxes = [_pad(where.badge)] + ([_pad(where.qr)] if where.qr else [])
    ops = b"\n/OC /PithPrint BDC " + _cover_ops(boxes, (0, 0), None, where.badge, 7) + b" EMC\n"

    def layer(w: Any) -> None:
        n = NameObject
        ocg = w._add_object(DictionaryObject({
            n("/Type"): n("/OCG"), n("/Name"): TextStringObject("print"),
            n("/Usage"): DictionaryObject({
                n("/Print"): DictionaryObject({n("/PrintState"): n("/ON")}),
                n("/View"): DictionaryObject({n("/ViewState"): n("/OFF")})})}))
        config = DictionaryObject({
            n("/AS"): ArrayObject([
                DictionaryObject({n("/Event"): n("/View"), n("/OCGs"): ArrayObject([ocg]),
                                  n("/Category"): ArrayObject([n("/View")])}),
                DictionaryObject({n("/Event"): n("/Print"), n("/OCGs"): ArrayObject([ocg]),
                                  n("/Category"): ArrayObject([n("/Print")])})])})
        if not default_on:
            config[n("/OFF")] = ArrayObject([ocg])
        w._root_object[n("/OCProperties")] = DictionaryObject({
            n("/OCGs"): ArrayObject([ocg]), n("/D"): config})
        res = w.pages[0]["/Resources"].get_object()
        if "/Properties" not in res:
            res[n("/Properties")] = DictionaryObject()
        res["/Properties"].get_object()[n("/PithPrint")] = ocg
        _helvetica(w, res)

    return H.rewritten(src, dst, [b"q\n" + H.content(src) + b"\nQ" + ops], layer)


def not_printed_layer(src: Path, dst: Path) -> Path:
    """The badge's line and the QR code in an optional content group on in the default
    configuration whose /Usage says /PrintState /OFF (no /AS event): every screen shows
    them, Chrome (PDFium) and Firefox (pdf.js) print the page without them."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    data = H.content(src)
    a, b = H.badge_line(data)
    qa, qb = H.qr_line(data)
    assert qb < a, "the QR code is drawn before the badge"
    new = (data[:qa] + b"/OC /PithNoPrint BDC " + data[qa:qb] + b" EMC" + data[qb:a]
           + b"/OC /PithNoPrint BDC " + data[a:b] + b" EMC" + data[b:])

    def layer(w: Any) -> None:
        n = NameObject
        ocg = w._add_object(DictionaryObject({
            n("/Type"): n("/OCG"), n("/Name"): TextStringObject("screen"),
            n("/Usage"): DictionaryObject({
                n("/Print"): DictionaryObject({n("/PrintState"): n("/OFF")})})}))
        w._root_object[n("/OCProperties")] = DictionaryObject({
            n("/OCGs"): ArrayObject([ocg]), n("/D"): DictionaryObject({
                n("/ON"): ArrayObject([ocg])})})
        res = w.pages[0]["/Resources"].get_object()
        if "/Properties" not in res:
            res[n("/Properties")] = DictionaryObject()
        res["/Properties"].get_object()[n("/PithNoPrint")] = ocg

    return H.rewritten(src, dst, [new], layer)


def form_field(src: Path, dst: Path, where: Places, other: str) -> Path:
    """A text field over the badge: white background (/MK /BG), *other* as its value, an
    empty normal appearance (PDFium and poppler draw the appearance: nothing)."""
    from pypdf import PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject, TextStringObject)

    n = NameObject
    rect = _pad(where.badge, 3)
    w = PdfWriter(clone_from=str(src))
    ap = DecodedStreamObject()
    ap.set_data(b"")
    ap.update({n("/Type"): n("/XObject"), n("/Subtype"): n("/Form"),
               n("/BBox"): ArrayObject([FloatObject(0), FloatObject(0),
                                        FloatObject(rect[2] - rect[0]),
                                        FloatObject(rect[3] - rect[1])])})
    helv = w._add_object(DictionaryObject({
        n("/Type"): n("/Font"), n("/Subtype"): n("/Type1"), n("/BaseFont"): n("/Helvetica"),
        n("/Encoding"): n("/WinAnsiEncoding")}))
    field = w._add_object(DictionaryObject({
        n("/Type"): n("/Annot"), n("/Subtype"): n("/Widget"), n("/FT"): n("/Tx"),
        n("/T"): TextStringObject("number"), n("/V"): TextStringObject(other),
        n("/DA"): TextStringObject("/Helv 7 Tf 0 g"), n("/F"): NumberObject(PRINT),
        n("/MK"): DictionaryObject({n("/BG"): ArrayObject([FloatObject(1)])}),
        n("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
        n("/AP"): DictionaryObject({n("/N"): w._add_object(ap)})}))
    page = w.pages[0]
    if "/Annots" not in page:
        page[n("/Annots")] = ArrayObject()
    page["/Annots"].get_object().append(field)
    w._root_object[n("/AcroForm")] = DictionaryObject({
        n("/Fields"): ArrayObject([field]),
        n("/DA"): TextStringObject("/Helv 7 Tf 0 g"),
        n("/DR"): DictionaryObject({n("/Font"): DictionaryObject({n("/Helv"): helv})})})
    with open(dst, "wb") as f:
        w.write(f)
    return dst


def actual_text_lie(src: Path, dst: Path, other: str, in_form: bool = False) -> Path:
    """The badge's show replaced by *other* in Helvetica, inside ``/Span << /ActualText
    (the claimed number) >> BDC ... EMC``: the engines' text layers read the claimed
    number, every rendering paints the other one.  *in_form*: the span is drawn by a form
    XObject (moved by the ``cm`` before its ``Do``), where PDFium gives its objects' boxes
    in the form's space."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, FloatObject, NameObject,
                               DictionaryObject)

    data = H.content(src)
    a, b = H.badge_line(data)
    place, show = H.badge_place(data)
    claimed = re.search(rb"pith:[0-9]{4}:[A-Z2-7]{26}", show).group(0)
    m = re.search(rb"([0-9.]+) Tf ([-0-9.]+) ([-0-9.]+) Td", place)
    assert m, place
    x, y = float(m.group(2)), float(m.group(3))
    shift = 300.0 if in_form else 0.0  # the form's space is far from the badge's place
    span = (b"/Span << /ActualText (%s) >> BDC /FHv %s Tf %.3f %.3f Td (%s) Tj EMC"
            % (claimed, m.group(1), x, y - shift, other.encode("ascii")))
    if not in_form:
        new = data[:a] + span + data[b:]
    else:  # the badge's text object ends; the form draws the span where the badge was
        new = (data[:a] + b"ET q 1 0 0 1 0 %.3f cm /FmSpan Do Q BT " % shift + place
               + data[b:])

    def edit(w: Any) -> None:
        res = w.pages[0]["/Resources"].get_object()
        _helvetica(w, res)
        if in_form:
            form = DecodedStreamObject()
            form.set_data(b"BT " + span + b" ET")
            form_res = DictionaryObject()
            form_res[NameObject("/Font")] = res["/Font"]
            form.update({NameObject("/Type"): NameObject("/XObject"),
                         NameObject("/Subtype"): NameObject("/Form"),
                         NameObject("/Resources"): form_res,
                         NameObject("/BBox"): ArrayObject([FloatObject(v) for v in
                                                           (-1000, -1000, 2000, 2000)])})
            if "/XObject" not in res:
                res[NameObject("/XObject")] = DictionaryObject()
            res["/XObject"].get_object()[NameObject("/FmSpan")] = w._add_object(form)

    return H.rewritten(src, dst, [new], edit)


def engines_text(pdf: Path) -> Dict[str, str]:
    """Page 1's text as PDFium and poppler extract it, white space removed."""
    import subprocess

    import pypdfium2 as pdfium
    from texbuild import tool

    doc = pdfium.PdfDocument(str(pdf))
    try:
        pdfium_text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    poppler = subprocess.run([tool("pdftotext"), "-q", "-f", "1", "-l", "1", str(pdf), "-"],
                             capture_output=True, text=True, check=True).stdout
    return {"pdfium": "".join(pdfium_text.split()), "poppler": "".join(poppler.split())}
