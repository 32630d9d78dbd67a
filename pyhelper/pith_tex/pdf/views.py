"""What a reading of page 1 is: the :class:`View` each engine gives (words with boxes and
sizes, QR codes, its rendering), :class:`PageOne` for all of them, and the QR decoding and
resolution rule both engines' readings share.  :mod:`pith_tex.pdf.pageview` fills them
from PDFium, :mod:`pith_tex.pdf.poppler` from poppler's tools.

Coordinates are PDF points with the origin at the top-left corner of the page's crop box
and y growing downwards.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from .ocr import Reading

Box = Tuple[float, float, float, float]  # x0, y0 (top), x1, y1 (bottom), in points

DPI = 150  # enough for the QR code's modules (>= 4 px each at pith.sty's smallest code)
MAX_PIXELS = 40_000_000  # a render larger than this is scaled down (a 200-inch page)


class EngineFailed(Exception):
    """The engine could not read page 1 (damaged, encrypted, a time-out): the message
    says which engine and why."""


class Word(NamedTuple):
    text: str
    box: Box
    size: float  # font size in points (PDFium's; poppler's is the word box's height)


class Raster(NamedTuple):
    """An 8-bit grey rendering of page 1 (0 black, 255 white), rows without padding."""

    width: int
    height: int
    dpi: float
    pixels: bytes


class Ink(NamedTuple):
    """One place where PDFium's text of page 1 matches the pattern asked for, and whether
    each of its characters really paints there: page 1 is rendered (annotations
    included) with and without the text objects that carry the match's characters, and
    a character paints when the two renderings differ clearly inside its box.  Whatever
    keeps a glyph from a reader's eyes (white or transparent text, a cover drawn over
    it, a clip, a hidden layer, a blend mode, a soft mask, an annotation on top) leaves
    the two renderings alike there: the renderer decides, not a model of ours."""

    text: str  # the matched text (white space removed)
    boxes: Tuple[Box, ...]  # each character's box (as View.words)
    sizes: Tuple[float, ...]  # each character's font size in points (as Word.size)
    painted: Tuple[bool, ...]  # each character: hiding its text objects changes its pixels
    tight: Tuple[Box, ...] = ()  # each glyph's own box: where OCR reads (:class:`Reading`)


class Glyph(NamedTuple):
    """One character PDFium reads in the part of the page a caller asked about
    (:func:`pdfium_view`'s *glyphs*), and whether it paints, tested as :class:`Ink`'s
    characters are: a character hidden, white, covered or clipped does not, nor a letter
    or digit with another letter or digit drawn over its middle (two texts set one on
    the other: the same letter again, a poor man's bold, is no other)."""

    text: str
    box: Box  # as Word.box (the character's loose box)
    size: float  # as Word.size
    painted: bool
    upright: bool  # drawn upright as the page is displayed (not turned, as a margin stamp)


class View(NamedTuple):
    """What one engine shows of page 1."""

    engine: str  # "pdfium" or "poppler"
    version: str
    pages: Optional[int]  # the page count the engine sees (None: not asked)
    width: float  # the crop box, in points
    height: float
    words: Tuple[Word, ...]  # in the engine's reading order
    codes: Tuple[str, ...]  # every QR code decoded from the rendering, as text
    #: PDFium only: the crop box in user space (left, bottom, right, top) and the page's
    #: rotation in degrees, to place user-space rectangles (links) in the view's frame
    #: (:func:`to_view`).
    crop: Box = (0.0, 0.0, 0.0, 0.0)
    rotation: int = 0
    #: The matches of the ``ink`` pattern asked for (PDFium only): :class:`Ink`.
    ink: Tuple["Ink", ...] = ()
    #: The Info values of the keys asked for (``meta``), as the engine reads them
    #: (absent keys missing).
    meta: Tuple[Tuple[str, str], ...] = ()
    #: The box of each of *codes*, in the view's frame.
    code_boxes: Tuple[Box, ...] = ()
    #: The boxes of the QR symbols zxing-cpp finds in the rendering but cannot decode.
    unreadable: Tuple[Box, ...] = ()
    #: The rendering the codes were decoded from (its pixels for a caller's own look:
    #: whether a place has ink in this engine, a code's modules).
    raster: Optional[Raster] = None
    #: Each decoded code's corners in *raster*'s pixels (top-left, top-right,
    #: bottom-right, bottom-left of the symbol as zxing-cpp reads it, turns included).
    code_corners: Tuple[Tuple[Tuple[float, float], ...], ...] = ()
    #: What the engine reported while reading page 1 (poppler's error lines): a page an
    #: engine has to repair is drawn by each viewer its own way.
    errors: Tuple[str, ...] = ()
    read: Tuple[Reading, ...] = ()  # OCR of this engine's rendering at each ``ink`` match
    unread: Optional[str] = None  # why no OCR ran here
    #: PDFium only: the page objects of page 1 (forms' too) in optional content or under
    #: an /ActualText, as (``"OC"`` and the group's /Name, or ``"ActualText"`` and its
    #: text; the object's box in the view's frame).
    marks: Tuple[Tuple[str, str, Box], ...] = ()
    #: PDFium only: the characters of the part asked for (*glyphs*), each with whether
    #: it paints (:class:`Glyph`).
    glyphs: Tuple[Glyph, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


class PageOne(NamedTuple):
    views: Tuple[View, ...]  # PDFium first
    missing: Tuple[str, ...]  # engines not available here, each with why
    #: PDFium's page 1 as printed (``FPDF_PRINTING``: annotations flagged for print,
    #: optional content in its print state), its text and QR codes; None when not asked.
    printed: Optional[View] = None
    #: The next page, read as this one when the caller's *then* asked for it (a title
    #: that sits after a page of highlights): :func:`page_one`.
    following: Optional["PageOne"] = None


# --- QR codes ----------------------------------------------------------------------


def qr_found(raster: Raster) -> Tuple[Tuple[Optional[str], Box, Tuple[Tuple[float, float], ...]], ...]:
    """Every QR-family code zxing-cpp finds in *raster* (also Micro QR and rMQR: another
    code on page 1 is a finding for the caller), with the box of its symbol (quiet zone
    excluded) in points from the top-left corner of the rendering; a symbol zxing-cpp
    finds but cannot decode (damaged, covered in part) has None for its text."""
    import zxingcpp

    formats = zxingcpp.barcode_formats_from_str("QRCode,MicroQRCode,rMQRCode")
    image = memoryview(raster.pixels).cast("B", (raster.height, raster.width))
    k = 72.0 / raster.dpi
    found = []
    for r in zxingcpp.read_barcodes(image, formats=formats, return_errors=True):
        p = r.position
        xs = [c.x for c in (p.top_left, p.top_right, p.bottom_left, p.bottom_right)]
        ys = [c.y for c in (p.top_left, p.top_right, p.bottom_left, p.bottom_right)]
        corners = tuple((float(c.x), float(c.y)) for c in (
            p.top_left, p.top_right, p.bottom_right, p.bottom_left))
        found.append((r.text if r.valid else None, (min(xs) * k, min(ys) * k, (max(xs) + 1) * k,
                                                    (max(ys) + 1) * k), corners))
    return tuple(found)


def dpi_for(width_pt: float, height_pt: float, dpi: float) -> float:
    pixels = (width_pt * dpi / 72.0) * (height_pt * dpi / 72.0)
    if pixels > MAX_PIXELS:
        dpi *= (MAX_PIXELS / pixels) ** 0.5
    return dpi
