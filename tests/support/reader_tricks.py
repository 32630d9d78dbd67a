"""What one reader's engine draws and the others do not (issue 27, "every reader's
view"), built on a real pith-compiled paper (``hostile_pdfs.paper``)::

    import reader_tricks as A
    A.empty_box_cover(honest, tmp / "x.pdf", tmp)

* :func:`empty_box_cover`: an annotation over the badge whose appearance stream has an
  empty bounding box (``/BBox [0 0 0 h]``, zero wide).  PDF 32000-1 (12.5.5) maps the
  box onto the annotation's /Rect, which an empty box cannot be: PDFium and poppler
  draw nothing (and poppler reports no error); pdf.js (Firefox) draws the stream
  unscaled at the /Rect's corner, clipped to it.  The stream paints the badge's place
  white and, over it, the *swapped* number (glyph_lies.swapped) as a stencil image of
  its honest painting: Firefox shows another number, PDFium and poppler the claimed one.
* :func:`transfer_two_ways`: the badge drawn in a graphics state whose /TR maps every
  colour to white and whose /TR2 is /Identity.  PDFium and poppler apply /TR2 (which
  takes the place of /TR), pdf.js ignores /TR2 and applies /TR: Firefox paints the badge
  white (through an SVG filter, which pdf.js under node does not draw:
  tests/pdfjs/gstates.mjs shows the map it applies).
* :func:`symbol_map_font`: the badge set in a TrueType font (DejaVu Sans Mono, made over
  with fontTools) flagged symbolic, with /WinAnsiEncoding, whose Unicode (3, 1)
  character map is the font's own and whose Symbol (3, 0) map draws the *swapped*
  number's letters.  PDFium and poppler draw through (3, 1): the claimed number; pdf.js
  draws through (3, 0): Firefox shows the swapped number.  Every engine's text is the
  claimed one (the codes under /WinAnsiEncoding).  Not symbolic and without an
  /Encoding, a (0, 3) map drawing the swapped letters beside an honest (3, 0) map: the
  other way round, the same sight.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, Dict, Tuple

import glyph_lies as G
import hostile_pdfs as H

def badge_rect(src: Path) -> Tuple[float, float, float, float]:
    """The badge's box on page 1 of *src* (PDF points, y up), a point around it."""
    data, a, b, _font, num = G._badge(src)
    year = re.search(rb"pith:([0-9]{4}):", data[a:b]).group(1).decode()  # type: ignore
    x0, y0, x1, y1 = G.badge_box_pdf(src, "pith:%s:%s" % (year, num.decode()))
    return x0 - 1, y0 - 1, x1 + 1, y1 + 1


def empty_box_cover(src: Path, dst: Path, work: Path) -> Path:
    from pypdf import PdfReader
    from pypdf.generic import (ArrayObject, DecodedStreamObject,
                               DictionaryObject, FloatObject, NameObject, NumberObject)

    rect = badge_rect(src)
    height = float(PdfReader(str(src)).pages[0].mediabox.height)
    w, h, bits = G.mono_box(G.painted_swapped(src, work / "swapped.pdf"), rect, height)
    width, tall = rect[2] - rect[0], rect[3] - rect[1]
    # in the stream's space, as pdf.js draws it: the /Rect's lower-left corner at 0 0
    content = b"1 g 0 0 %.4f %.4f re f q 0 g %.4f 0 0 %.4f 0 0 cm /Lie Do Q" % (
        width, tall, w * 72 / G.STENCIL_DPI, h * 72 / G.STENCIL_DPI)

    def edit(wr: Any) -> None:
        image = G.stencil(bits, w, h)
        ap = DecodedStreamObject()
        ap.set_data(content)
        ap.update({NameObject("/Type"): NameObject("/XObject"),
                   NameObject("/Subtype"): NameObject("/Form"),
                   NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (0, 0, 0, tall)]),
                   NameObject("/Resources"): DictionaryObject({NameObject("/XObject"): DictionaryObject(
                       {NameObject("/Lie"): wr._add_object(image)})})})
        annot = DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Square"),
            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
            NameObject("/F"): NumberObject(4),  # printed too
            NameObject("/AP"): DictionaryObject({NameObject("/N"): wr._add_object(ap)})})
        page = wr.pages[0]
        old = page.get("/Annots")
        annots = ArrayObject(list(old.get_object()) if old is not None else [])
        annots.append(wr._add_object(annot))
        page[NameObject("/Annots")] = annots

    return H.rewritten(src, dst, [H.content(src)], edit)


def transfer_two_ways(src: Path, dst: Path) -> Path:
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject

    data = H.content(src)
    a, b = H.badge_line(data)
    bt, et = data.rindex(b"BT", 0, a), data.index(b"ET", b) + 2
    content = data[:bt] + b"q /GSTransfer gs " + data[bt:et] + b" Q" + data[et:]

    def edit(wr: Any) -> None:
        white = DictionaryObject({  # 1 whatever the colour: white
            NameObject("/FunctionType"): NumberObject(2),
            NameObject("/Domain"): ArrayObject([FloatObject(0), FloatObject(1)]),
            NameObject("/C0"): ArrayObject([FloatObject(1)]),
            NameObject("/C1"): ArrayObject([FloatObject(1)]), NameObject("/N"): FloatObject(1)})
        gs = DictionaryObject({NameObject("/TR"): wr._add_object(white),
                               NameObject("/TR2"): NameObject("/Identity")})
        res = wr.pages[0]["/Resources"]
        if "/ExtGState" not in res:
            res[NameObject("/ExtGState")] = DictionaryObject()
        res["/ExtGState"].get_object()[NameObject("/GSTransfer")] = wr._add_object(gs)

    return H.rewritten(src, dst, [content], edit)


DEJAVU_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"  # fonts-dejavu-core


def _two_maps(swap: Dict[str, str], symbolic: bool = True) -> bytes:
    """DejaVu Sans Mono with a Unicode (3, 1) map of its own glyphs for ASCII and a
    Symbol (3, 0) map (codes F020-F07E) that draws *swap*'s letters in their place
    (*symbolic* False: a Unicode map of the Unicode platform (0, 3) draws them, the
    Symbol map the font's own)."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = TTFont(DEJAVU_MONO)
    own = font.getBestCmap()
    cmap = newTable("cmap")
    cmap.tableVersion = 0
    cmap.tables = []
    maps = ((3, 0, 0xF000, True), (3, 1, 0, False)) if symbolic else (
        (0, 3, 0, True), (3, 0, 0xF000, False))
    for platform, encoding, base, swapped in maps:
        sub = CmapSubtable.newSubtable(4)
        sub.platformID, sub.platEncID, sub.language = platform, encoding, 0
        sub.cmap = {base + c: own[ord(swap.get(chr(c), chr(c)) if swapped else chr(c))]
                    for c in range(32, 127)}
        cmap.tables.append(sub)
    font["cmap"] = cmap
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def symbol_map_font(src: Path, dst: Path, lie: bool = True, symbolic: bool = True) -> Path:
    """(*lie* False: both maps the font's own, an honest painting in the same font;
    *symbolic* False: the font not flagged symbolic and without an /Encoding, the
    swapped letters in a (0, 3) map, which pdf.js takes and PDFium and poppler do not.)"""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               NameObject, NumberObject)

    data, a, b, font, num = G._badge(src)
    program = _two_maps(G._swap_map(num.decode()) if lie else {}, symbolic)
    line = re.sub(rb"(/F\d+) ([0-9.]+ Tf)", rb"/FLie \2", data[a:b], count=1)

    def edit(wr: Any) -> None:
        stream = DecodedStreamObject()
        stream.set_data(program)
        stream[NameObject("/Length1")] = NumberObject(len(program))
        descriptor = DictionaryObject({
            NameObject("/Type"): NameObject("/FontDescriptor"),
            NameObject("/FontName"): NameObject("/DejaVuSansMono"),
            NameObject("/Flags"): NumberObject((4 if symbolic else 32) + 1),  # fixed pitch
            NameObject("/FontBBox"): ArrayObject([NumberObject(v) for v in (-558, -375, 718, 1042)]),
            NameObject("/ItalicAngle"): NumberObject(0), NameObject("/Ascent"): NumberObject(760),
            NameObject("/Descent"): NumberObject(-240), NameObject("/CapHeight"): NumberObject(729),
            NameObject("/StemV"): NumberObject(80), NameObject("/FontFile2"): wr._add_object(stream)})
        lie = DictionaryObject({
            NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/TrueType"),
            NameObject("/BaseFont"): NameObject("/DejaVuSansMono"),
            NameObject("/FirstChar"): NumberObject(32), NameObject("/LastChar"): NumberObject(126),
            NameObject("/Widths"): ArrayObject([NumberObject(602)] * 95),
            NameObject("/FontDescriptor"): wr._add_object(descriptor)})
        if symbolic:
            lie[NameObject("/Encoding")] = NameObject("/WinAnsiEncoding")
        wr.pages[0]["/Resources"]["/Font"].get_object()[NameObject("/FLie")] = wr._add_object(lie)

    return H.rewritten(src, dst, [data[:a] + line + data[b:]], edit)
