"""Glyph lies (issue 27): copies of a real pith-compiled paper whose badge paints another
number than the one every engine's text layer extracts.  Each keeps the claimed number
in the text layer and paints the *swapped* number (:func:`swapped`: two pairs of the
number's own letters exchanged, so that every glyph painted is in the subset font)::

    import glyph_lies as G
    G.tounicode(honest, tmp / "x.pdf")

* :func:`tounicode`: the content shows the swapped number; the font's /ToUnicode maps
  each code back to the claimed character.
* :func:`glyph_names`: the embedded Type 1 program's glyphs renamed (the glyph the
  /Differences name ``/A`` selects draws a B): names and /ToUnicode say the claimed one.
* :func:`type3`: a Type 3 font whose glyph procedures, named for the claimed
  characters, draw the swapped ones (with the badge's own font).
* :func:`actual_text`: the swapped number shown inside an ``/ActualText`` span that
  carries the claimed one.
* :func:`under_stencil`: the claimed number as a faint outline under a stencil image
  (/ImageMask) of the swapped number, rendered by poppler from an honest painting of it.
* :func:`painted_swapped`: the honest painting of the swapped number at the same place
  (what a reader of the attacks reads): the tests' reference pixels.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any, Dict, Tuple

import hostile_pdfs as H
from texbuild import tool


def swapped(number: str) -> str:
    """*number* with its first four distinct letters exchanged in pairs (a<->b, c<->d)."""
    letters = [c for i, c in enumerate(number) if c.isalpha() and c not in number[:i]]
    a, b, c, d = letters[:4]
    return number.translate(str.maketrans(a + b + c + d, b + a + d + c))


def _swap_map(number: str) -> Dict[str, str]:
    other = swapped(number)
    return {x: y for x, y in zip(number, other) if x != y}


def _badge(src: Path) -> Tuple[bytes, int, int, bytes, bytes]:
    """(content, start and end of the badge's line, its font name, its number)."""
    data = H.content(src)
    a, b = H.badge_line(data)
    font = re.search(rb"(/F\d+) [0-9.]+ Tf", data[a:b])
    num = re.search(rb"\(pith:[0-9]{4}:([A-Z2-7]{26})\)", data[a:b])
    assert font is not None and num is not None, data[a:b]
    return data, a, b, font.group(1), num.group(1)


def _font_of(w: Any, name: bytes) -> Any:
    return w.pages[0]["/Resources"]["/Font"][name.decode()].get_object()


def painted_swapped(src: Path, dst: Path) -> Path:
    """The honest painting of the swapped number where the badge is (no lie)."""
    data, a, b, _font, num = _badge(src)
    line = data[a:b].replace(num, swapped(num.decode()).encode())
    return H.rewritten(src, dst, [data[:a] + line + data[b:]])


def tounicode(src: Path, dst: Path) -> Path:
    from pypdf.generic import DecodedStreamObject, NameObject

    data, a, b, font, num = _badge(src)
    line = data[a:b].replace(num, swapped(num.decode()).encode())
    swap = _swap_map(num.decode())
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Lie def /CMapType 2 def\n1 begincodespacerange <00> <FF> "
            "endcodespacerange\n%d beginbfchar\n" % (126 - 32 + 1))
    for code in range(32, 127):
        ch = swap.get(chr(code), chr(code))
        # the painted character's code reads as the claimed one (swap is its own inverse)
        cmap += "<%02X> <%04X>\n" % (code, ord(ch))
    cmap += "endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"

    def edit(w: Any) -> None:
        s = DecodedStreamObject()
        s.set_data(cmap.encode("ascii"))
        _font_of(w, font)[NameObject("/ToUnicode")] = w._add_object(s)

    return H.rewritten(src, dst, [data[:a] + line + data[b:]], edit)


# --- Type 1 programs: eexec ----------------------------------------------------------

def _eexec(data: bytes, decrypt: bool) -> bytes:
    r, out = 55665, bytearray()
    for byte in data:
        c = byte ^ (r >> 8)
        r = (((byte if decrypt else c) + r) * 52845 + 22719) & 0xFFFF
        out.append(c)
    return bytes(out)


def _rename_charstrings(plain: bytes, swap: Dict[str, str]) -> bytes:
    """The decrypted private part with the CharStrings of *swap*'s letters renamed."""
    k = plain.index(b"/CharStrings")
    out = bytearray(plain[:k])
    pos = k
    entry = re.compile(rb"/([^\s/]+) (\d+) (RD|-\|) ")
    renamed = 0
    while True:
        m = entry.search(plain, pos)
        if m is None:
            break
        out += plain[pos:m.start()]
        name = m.group(1).decode("latin-1")
        new = swap.get(name, name) if len(name) == 1 else name
        renamed += new != name
        out += b"/" + new.encode() + plain[m.start() + 1 + len(m.group(1)):m.end()]
        end = m.end() + int(m.group(2))
        out += plain[m.end():end]
        pos = end
    out += plain[pos:]
    assert renamed == len(swap), (renamed, swap)
    return bytes(out)


def glyph_names(src: Path, dst: Path) -> Path:
    from pypdf.generic import NameObject, NumberObject

    data, _a, _b, font, num = _badge(src)
    swap = _swap_map(num.decode())

    def edit(w: Any) -> None:
        f = _font_of(w, font)
        stream = f["/FontDescriptor"].get_object()["/FontFile"].get_object()
        prog = stream.get_data()
        n1, n2 = int(stream["/Length1"]), int(stream["/Length2"])
        plain = _eexec(prog[n1:n1 + n2], True)
        lied = _eexec(_rename_charstrings(plain, swap), False)
        assert len(lied) == n2
        stream.set_data(prog[:n1] + lied + prog[n1 + n2:])
        stream[NameObject("/Length2")] = NumberObject(n2)

    return H.rewritten(src, dst, [data], edit)


def type3(src: Path, dst: Path) -> Path:
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject)

    data, a, b, font, num = _badge(src)
    swap = _swap_map(num.decode())
    line = data[a:b].replace(font + b" ", b"/FLie ", 1)

    def edit(w: Any) -> None:
        real = w.pages[0]["/Resources"]["/Font"].raw_get(font.decode())
        procs = DictionaryObject()
        names = ArrayObject([NumberObject(32)])
        for code in range(32, 127):
            ch = chr(code)
            names.append(NameObject("/" + _std_name(ch)))
            s = DecodedStreamObject()
            drawn = swap.get(ch, ch)
            s.set_data(b"525 0 d0 BT /Real 1000 Tf 0 0 Td (" + _pdf_char(drawn) + b") Tj ET")
            procs[NameObject("/" + _std_name(ch))] = w._add_object(s)
        t3 = DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type3"),
            NameObject("/FontBBox"): ArrayObject([NumberObject(0), NumberObject(-300),
                                                  NumberObject(600), NumberObject(900)]),
            NameObject("/FontMatrix"): ArrayObject([FloatObject(0.001), NumberObject(0),
                                                    NumberObject(0), FloatObject(0.001),
                                                    NumberObject(0), NumberObject(0)]),
            NameObject("/CharProcs"): procs,
            NameObject("/Encoding"): DictionaryObject({
                NameObject("/Type"): NameObject("/Encoding"),
                NameObject("/Differences"): names}),
            NameObject("/FirstChar"): NumberObject(32),
            NameObject("/LastChar"): NumberObject(126),
            NameObject("/Widths"): ArrayObject([NumberObject(525)] * 95),
            NameObject("/Resources"): DictionaryObject({NameObject("/Font"): DictionaryObject(
                {NameObject("/Real"): real})}),
        })
        w.pages[0]["/Resources"]["/Font"][NameObject("/FLie")] = w._add_object(t3)

    return H.rewritten(src, dst, [data[:a] + line + data[b:]], edit)


_NAMES = {":": "colon", " ": "space", "0": "zero", "1": "one", "2": "two", "3": "three",
          "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine"}


def _std_name(ch: str) -> str:
    if ch.isalpha():
        return ch
    return _NAMES.get(ch, "uni%04X" % ord(ch))


def _pdf_char(ch: str) -> bytes:
    return (b"\\" + ch.encode()) if ch in "()\\" else ch.encode("latin-1")


def actual_text(src: Path, dst: Path) -> Path:
    data, a, b, _font, num = _badge(src)
    line = data[a:b]
    k = line.index(b"[(pith:")
    claimed = line[k + 2:line.index(b")", k)]
    shown = line[k:].replace(num, swapped(num.decode()).encode())
    lie = (line[:k] + b" /Span <</ActualText (" + claimed + b")>> BDC " + shown + b" EMC")
    return H.rewritten(src, dst, [data[:a] + lie + data[b:]])


def badge_box_pdf(pdf: Path, text: str) -> Tuple[float, float, float, float]:
    """PDFium's box (left, bottom, right, top; PDF points) of *text* on page 1."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        tp = doc[0].get_textpage()
        full = tp.get_text_range()
        i = full.find(text)
        assert i >= 0, full[:400]
        boxes = [tp.get_charbox(k) for k in range(i, i + len(text))]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))
    finally:
        doc.close()


STENCIL_DPI = 600


def stencil(bits: bytes, w: int, h: int) -> Any:
    """An image mask (a stencil: 1 bit a pixel, 0 paints) of *w* x *h* pixels *bits*, as a
    pypdf stream to add to a PDF."""
    from pypdf.generic import (ArrayObject, BooleanObject, NameObject, NumberObject,
                               StreamObject)

    s = StreamObject()
    s._data = bits
    s.update({NameObject("/Type"): NameObject("/XObject"),
              NameObject("/Subtype"): NameObject("/Image"),
              NameObject("/Width"): NumberObject(w), NameObject("/Height"): NumberObject(h),
              NameObject("/ImageMask"): BooleanObject(True),
              NameObject("/BitsPerComponent"): NumberObject(1),
              NameObject("/Decode"): ArrayObject([NumberObject(1), NumberObject(0)])})
    return s


def mono_box(pdf: Path, box: Tuple[float, float, float, float], height: float
             ) -> Tuple[int, int, bytes]:
    """A 1-bit rendering (poppler's, at :data:`STENCIL_DPI`) of *box* (PDF points, y up)
    of page 1 of *pdf*, whose page is *height* points tall: its width and height in pixels
    and its rows (PBM bits)."""
    k = STENCIL_DPI / 72
    px, py = int(box[0] * k), int((height - box[3]) * k)
    pw, ph = int((box[2] - box[0]) * k) + 1, int((box[3] - box[1]) * k) + 1
    pbm = subprocess.run([tool("pdftoppm"), "-f", "1", "-l", "1", "-r", str(STENCIL_DPI),
                          "-x", str(px), "-y", str(py), "-W", str(pw), "-H", str(ph),
                          "-mono", str(pdf)], capture_output=True, check=True).stdout
    m = re.match(rb"P4\s+(\d+)\s+(\d+)\s", pbm)
    assert m is not None
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, pbm[m.end():m.end() + ((w + 7) // 8) * h]


def under_stencil(src: Path, dst: Path, work: Path) -> Path:
    from pypdf.generic import NameObject

    data, a, b, _font, num = _badge(src)
    other = swapped(num.decode())
    honest_other = painted_swapped(src, work / "swapped.pdf")
    year = re.search(rb"pith:([0-9]{4}):", data[a:b]).group(1).decode()  # type: ignore
    x0, y0, x1, y1 = badge_box_pdf(honest_other, "pith:%s:%s" % (year, other))
    x0, y0, x1, y1 = x0 - 1, y0 - 1, x1 + 1, y1 + 1
    from pypdf import PdfReader

    height = float(PdfReader(str(src)).pages[0].mediabox.height)
    w, h, bits = mono_box(honest_other, (x0, y0, x1, y1), height)
    k = STENCIL_DPI / 72
    px, py = int(x0 * k), int((height - y1) * k)
    # the claimed number: a thin grey outline (text render mode 1) under the image
    line = data[a:b]
    faint = b"0.6 G 0.15 w 1 Tr " + line + b" 0 Tr 0 G"
    # the image where the swapped number's pixels were (the grid of 1/600 in)
    ox, oy = px / k, height - (py + h) / k
    image = b"q 0 g %.4f 0 0 %.4f %.4f %.4f cm /ImLie Do Q" % (w / k, h / k, ox, oy)
    end = data.index(b"ET", b)
    content = data[:a] + faint + data[b:end + 2] + b"\n" + image + b"\n" + data[end + 2:]

    def edit(wr: Any) -> None:
        s = stencil(bits, w, h)
        res = wr.pages[0]["/Resources"]
        from pypdf.generic import DictionaryObject

        if "/XObject" not in res:
            res[NameObject("/XObject")] = DictionaryObject()
        res["/XObject"].get_object()[NameObject("/ImLie")] = wr._add_object(s)

    return H.rewritten(src, dst, [content], edit)
