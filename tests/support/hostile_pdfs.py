"""Hostile PDFs built from a real pith-compiled paper, one generator per attack on what
readers' viewers show (issue 19), and a writer of small PDFs from raw objects.

Each generator takes the honest PDF (``paper()``: article, T1 + lmodern, ``[qr]{pith}``,
hyperref, compiled with pdfTeX from a verified include) and writes a copy whose page 1
reads one way in pypdf and another way in the viewers' engines, or says another thing
than the metadata in a way only pixels show::

    import hostile_pdfs as H
    honest = H.paper(tmp / "a", vector)
    H.split_in_comment(honest, tmp / "x.pdf")

Page 1's content is rewritten as uncompressed streams by pypdf's writer (a clone of the
whole file); the rewrites work on the bytes pdfTeX writes for pith.sty's badge (one
``[(pith:YYYY:NUM)]TJ`` line after ``BT``) and QR code (one ``q ... cm ... S Q`` line of
dashed rows), and assert that they found them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import texbuild

# --- the honest paper -------------------------------------------------------------------


def include_of(v: Dict[str, Any]) -> str:
    """The include ``pith-tex fetch`` writes for the vector *v* (unsigned)."""
    from pith_tex.include.include import IncludeData, render

    return render(IncludeData(v["number"], v["year"], v["canonical_hash"],
                              v["canonical_record"], "absent", None, None)).decode("ascii")


def source(number: str, title: str = "A Paper on Recovery", route_opts: str = "qr") -> str:
    return ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
            "\\usepackage[%s]{pith}\n\\usepackage[colorlinks]{hyperref}\n"
            "\\pithnumber{%s}\n\\title{%s}\\author{A. Author}\\date{}\n"
            "\\begin{document}\n\\maketitle\nSome text of the paper.\n\\end{document}\n"
            % (route_opts, number, title))


def paper(workdir: Path, v: Dict[str, Any], route: str = "pdflatex",
          title: str = "A Paper on Recovery", options: str = "qr") -> Path:
    """An honest paper for the vector *v*, compiled with pith.sty (the PDF's path)."""
    b = texbuild.compile_tex(workdir, source(v["number"], title, options), route,
                             include=include_of(v))
    assert b.ok, b.describe()
    return b.pdf


# --- page 1's content -------------------------------------------------------------------


def content(pdf: Path) -> bytes:
    """Page 1's content, decoded and joined (one stream in what TeX writes)."""
    from pypdf import PdfReader

    data = PdfReader(str(pdf)).pages[0].get_contents().get_data()
    assert isinstance(data, bytes)
    return data


_BADGE_LINE = re.compile(rb"^[^\n]*\(pith:[0-9]{4}:[A-Z2-7]{26}\)\]TJ", re.M)
_QR_LINE = re.compile(rb"^q [0-9. ]+ cm 0 G [^\n]*\]0 d [^\n]* S Q$", re.M)


def badge_line(data: bytes) -> Tuple[int, int]:
    """Start and end of the line that shows the badge: ``/F.. s Tf x y Td [(pith:..)]TJ``
    (the first text positioning after ``BT``: its place is in the page's coordinates)."""
    found = list(_BADGE_LINE.finditer(data))
    assert len(found) == 1, data[:2000]
    m = found[0]
    assert data[:m.start()].rstrip().endswith(b"BT"), data[m.start() - 80:m.end()]
    return m.start(), m.end()


def badge_place(data: bytes) -> Tuple[bytes, bytes]:
    """(font and place: ``/F.. s Tf x y Td``, the show: ``[(pith:...)]TJ``) of the badge."""
    a, b = badge_line(data)
    line = data[a:b]
    k = line.index(b"[(pith:")
    return line[:k].rstrip(), line[k:]


def qr_line(data: bytes) -> Tuple[int, int]:
    """Start and end of the line that draws pith.sty's QR code."""
    found = list(_QR_LINE.finditer(data))
    assert len(found) == 1, data[:2000]
    return found[0].start(), found[0].end()


def rewritten(src: Path, dst: Path, streams: Sequence[bytes],
              edit: Optional[Callable[[Any], None]] = None) -> Path:
    """A clone of *src* whose page 1 ``/Contents`` is *streams* (uncompressed; an array
    when there are several), then *edit* of the writer."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, NameObject

    w = PdfWriter(clone_from=str(src))
    refs = []
    for data in streams:
        s = DecodedStreamObject()
        s.set_data(data)
        refs.append(w._add_object(s))
    page = w.pages[0]
    page[NameObject("/Contents")] = refs[0] if len(refs) == 1 else ArrayObject(refs)
    if edit is not None:
        edit(w)
    with open(dst, "wb") as f:
        w.write(f)
    return dst


# --- contents split inside a comment or a token -----------------------------------------


def split_in_comment(src: Path, dst: Path) -> Path:
    """Two content streams: the first ends in ``%``, the badge's line starts the second.
    Viewers read the streams as one, so the badge's line is a comment; pypdf joins them
    with a line end and reads it."""
    data = content(src)
    a, _ = badge_line(data)
    return rewritten(src, dst, [data[:a] + b"%", data[a:]])


def split_in_token(src: Path, dst: Path) -> Path:
    """Two content streams split inside the badge's string, after ``pith:YYYY:`` and one
    character of the number.  Each reader joins the streams its own way: poppler with
    nothing between them (it shows the number), PDFium (Chrome, Edge, Android) with a
    space (the badge's T1 font draws it as a visible glyph inside the number), pypdf with
    a line end (verify on main took it for white space and read the number)."""
    data = content(src)
    a, b = badge_line(data)
    k = data.index(b"(pith:", a) + len(b"(pith:2025:") + 1
    assert k < b
    return rewritten(src, dst, [data[:k], data[k:]])


# --- inline images whose end readers find elsewhere -------------------------------------


def inline_image(entries: bytes, data: bytes, end: bytes = b"\nEI") -> bytes:
    """``q`` (scaled to nothing) ``BI entries ID data EI Q``."""
    return b"q 0.01 0 0 0.01 0 0 cm BI " + entries + b" ID " + data + end + b" Q"


def badge_in_image_data(src: Path, dst: Path) -> Path:
    """The badge's show moved into the data of an image mask.  Its size (8 x N, one bit
    a pixel) makes it N bytes long for PDFium and poppler, which so draw no number;
    pypdf and pdf.js end the image at the ``EI`` planted in its data and show the badge."""
    data = content(src)
    a, b = badge_line(data)
    place, show = badge_place(data)
    inner = b"\xff\nEI\nQ BT " + place + b" " + show + b" ET q "
    n = len(inner) + 40
    image = inline_image(b"/IM true /W 8 /H %d" % n, inner + b" " * (n - len(inner)))
    # the badge's text object ends before the image and starts again after it, at the
    # badge's place (BT resets the text matrix; the place is the first after BT)
    new = data[:a] + b"ET " + image + b" BT " + place + data[b:]
    return rewritten(src, dst, [new])


def other_number_after_image(src: Path, dst: Path, other: str) -> Path:
    """Another paper's number drawn over the badge where pypdf reads image data.

    An image mask of 8 x 1 pixels is one byte for PDFium, poppler and pdf.js, which end it
    at the ``EI`` after that byte and draw what follows: a box the page's colour over the
    badge and the other number in its place.  pypdf passes that ``EI`` by (a word of five
    letters follows it, which it takes for image data) and ends the image at the next one,
    so it reads only the badge.  No ``EI`` is ambiguous for the viewers' engines: the
    verdict that sees this is the engines' own reading of page 1 (issue 19)."""
    data = content(src)
    a, b = badge_line(data)
    place, show = badge_place(data)
    m = re.search(rb"Tf ([0-9.]+) ([0-9.]+) Td", place)
    assert m, place
    x, y = float(m.group(1)), float(m.group(2))
    other_show = show.replace(re.search(rb"pith:[0-9]{4}:[A-Z2-7]{26}", show).group(0),
                              other.encode("ascii"))
    viewers = (b"\nEI\nQQQQQ Q q 1 g %.3f %.3f 150 10 re f Q BT 0 g %s %s ET q"
               % (x - 2, y - 2.5, place, other_show))
    image = inline_image(b"/IM true /W 8 /H 1", b"\x00" + viewers)
    i = data.index(b"ET", b)  # after the badge's text object
    new = data[:i + 2] + b"\n" + image + b"\n" + data[i + 2:]
    return rewritten(src, dst, [new])


# --- the QR code --------------------------------------------------------------------------


def dashed_rows(rows: Sequence[str]) -> bytes:
    """*rows* drawn as pith.sty draws its code: in module units, one dashed line a row."""
    out = []
    n = len(rows)
    for i, row in enumerate(rows):
        if "1" not in row:
            continue
        start = row.index("1")
        runs = [len(r) for r in re.findall("1+|0+", row[start:])]
        if len(runs) % 2:
            runs.append(1)  # the pattern ends light: the line does not repeat it
        y = n - i - 0.5
        out.append(b"[%s ]0 d %d %g m %d %g l S" % (
            b" ".join(b"%d" % r for r in runs), start, y, n, y))
    return b" ".join(out)


def evil_rows(number: str) -> List[str]:
    """The QR symbol of ``HTTPS://EVIL.EXAMPLE/pith/NUM``: pith's segments, another host
    of the same length, so the same version and size."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M
    from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData

    code = qrcode.QRCode(version=3, error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(QRData(b"HTTPS://EVIL.EXAMPLE", mode=MODE_ALPHA_NUM))
    code.add_data(QRData(b"/pith/", mode=MODE_8BIT_BYTE))
    code.add_data(QRData(number.encode("ascii"), mode=MODE_ALPHA_NUM))
    code.make(fit=False)
    return ["".join("1" if m else "0" for m in row) for row in code.get_matrix()]


EVIL_URL = "HTTPS://EVIL.EXAMPLE/pith/"


def qr_swapped(src: Path, dst: Path, number: str) -> Path:
    """The real code's line moved behind a comment (a content array whose first stream
    ends in ``%``), and the code of ``HTTPS://EVIL.EXAMPLE/pith/NUM`` drawn in its place
    where pypdf reads image data (as in :func:`other_number_after_image`)."""
    data = content(src)
    a, b = qr_line(data)
    real = data[a:b]
    m = re.match(rb"q ([0-9. ]+) cm", real)
    assert m, real[:80]
    evil = b"q %s cm 0 G 1 w 0 J %s Q" % (m.group(1), dashed_rows(evil_rows(number)))
    image = inline_image(b"/IM true /W 8 /H 1", b"\x00\nEI\nQQQQQ Q " + evil + b" q")
    return rewritten(src, dst, [data[:a] + b"%", real + b"\n" + image + data[b:]])


# --- the page tree ------------------------------------------------------------------------


def count_lie(src: Path, other: Path, dst: Path) -> Path:
    """Page 1 of *other* appended as a second page, and the real page 1 put alone in a
    subtree that claims ``/Count 0``: pdf.js, which skips subtrees by their count, opens
    *other*'s page as page 1; poppler and PDFium walk the kids and open the real one."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    def edit(w: Any) -> None:
        w.add_page(PdfReader(str(other)).pages[0])
        root_ref = w._root_object.raw_get("/Pages")
        root = root_ref.get_object()
        first, second = list(root["/Kids"])
        sub = DictionaryObject({NameObject("/Type"): NameObject("/Pages"),
                                NameObject("/Kids"): ArrayObject([first]),
                                NameObject("/Count"): NumberObject(0),
                                NameObject("/Parent"): root_ref})
        sub_ref = w._add_object(sub)
        first.get_object()[NameObject("/Parent")] = sub_ref
        root[NameObject("/Kids")] = ArrayObject([sub_ref, second])
        root[NameObject("/Count")] = NumberObject(1)

    return rewritten(src, dst, [content(src)], edit)


# --- the badge drawn and not seen ---------------------------------------------------------


def badge_edited(src: Path, dst: Path, how: str, edit: Optional[Callable[[Any], None]] = None
                 ) -> Path:
    """The badge's line changed *how*:

    ``white``   shown in white (``1 g``) on the white page;
    ``clipped`` its text object drawn inside a clip of one square point far from it;
    ``covered`` a box of the page's colour painted over it after it;
    ``form``    the same box painted by a form XObject;
    ``layer``   in a layer (optional content group) that is off.
    """
    from pypdf.generic import (ArrayObject, DictionaryObject, NameObject, NumberObject,
                               StreamObject, TextStringObject)

    data = content(src)
    a, b = badge_line(data)
    place, show = badge_place(data)
    bt = data.rindex(b"BT", 0, a)
    et = data.index(b"ET", b)
    if how == "white":
        new = data[:a] + b"1 g 1 G " + data[a:b] + b" 0 g 0 G" + data[b:]
    elif how == "clipped":
        new = data[:bt] + b"q 0 0 1 1 re W n " + data[bt:et + 2] + b" Q" + data[et + 2:]
    elif how in ("covered", "form"):
        m = re.search(rb"Tf ([0-9.]+) ([0-9.]+) Td", place)
        assert m, place
        x, y = float(m.group(1)), float(m.group(2))
        if how == "covered":
            box = b"q 1 g %.3f %.3f 150 10 re f Q" % (x - 2, y - 2.5)
        else:
            box = b"q 1 0 0 1 %.3f %.3f cm /FmWhite Do Q" % (x - 2, y - 2.5)

            def edit(w: Any) -> None:
                form = StreamObject()
                form._data = b"1 g 0 0 150 10 re f"
                form.update({NameObject("/Type"): NameObject("/XObject"),
                             NameObject("/Subtype"): NameObject("/Form"),
                             NameObject("/BBox"): ArrayObject(
                                 [NumberObject(0), NumberObject(0), NumberObject(150),
                                  NumberObject(10)])})
                res = w.pages[0]["/Resources"].get_object()
                if "/XObject" not in res:
                    res[NameObject("/XObject")] = DictionaryObject()
                res["/XObject"].get_object()[NameObject("/FmWhite")] = w._add_object(form)
        new = data[:et + 2] + b"\n" + box + b"\n" + data[et + 2:]
    elif how == "layer":
        new = data[:a] + b"/OC /PithOff BDC " + data[a:b] + b" EMC" + data[b:]

        def layer(w: Any) -> None:
            ocg = w._add_object(DictionaryObject({
                NameObject("/Type"): NameObject("/OCG"),
                NameObject("/Name"): TextStringObject("hidden")}))
            w._root_object[NameObject("/OCProperties")] = DictionaryObject({
                NameObject("/OCGs"): ArrayObject([ocg]),
                NameObject("/D"): DictionaryObject({
                    NameObject("/OFF"): ArrayObject([ocg])})})
            res = w.pages[0]["/Resources"].get_object()
            props = res.get("/Properties")
            if props is None:
                res[NameObject("/Properties")] = DictionaryObject()
                props = res["/Properties"]
            props.get_object()[NameObject("/PithOff")] = ocg

        edit = layer
    else:
        raise ValueError(how)
    return rewritten(src, dst, [new], edit)


def another_number(src: Path, dst: Path, other: str, size: float = 9) -> Path:
    """``other`` (a ``pith:YYYY:NUM``) drawn in Helvetica under the text of page 1."""
    from pypdf.generic import DictionaryObject, NameObject

    def font(w: Any) -> None:
        res = w.pages[0]["/Resources"].get_object()
        res["/Font"].get_object()[NameObject("/FHv")] = w._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
            NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))

    ops = b"\nq 1 0 0 1 0 0 cm BT /FHv %g Tf 1 0 0 1 72 120 Tm (%s) Tj ET Q\n" % (
        size, other.encode("ascii"))
    return rewritten(src, dst, [b"q\n" + content(src) + b"\nQ" + ops], font)


# --- small PDFs from raw objects ----------------------------------------------------------


def raw_pdf(objects: Dict[int, bytes], root: int = 1) -> bytes:
    """A PDF of *objects* (number -> the bytes between ``obj`` and ``endobj``) with a
    correct cross-reference table; object *root* is the catalog.  Streams are written by
    the caller (``<< /Length n >> stream ... endstream``): see :func:`stream`."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: Dict[int, int] = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        if num in offsets:
            out += b"%010d 00000 n \n" % offsets[num]
        else:
            out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        size, root, xref)
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    """An uncompressed stream object's bytes."""
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def one_page(contents: Sequence[bytes], resources: bytes = b"<< >>") -> bytes:
    """A one-page PDF whose page has *contents* as its content streams (an array when
    there are several)."""
    objs: Dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
    }
    refs = []
    for k, data in enumerate(contents):
        objs[10 + k] = stream(data)
        refs.append(b"%d 0 R" % (10 + k))
    target = refs[0] if len(refs) == 1 else b"[" + b" ".join(refs) + b"]"
    objs[2] = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
    objs[3] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources %s "
               b"/Contents %s >>" % (resources, target))
    return raw_pdf(objs)
