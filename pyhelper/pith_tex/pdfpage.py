"""What page 1 of a PDF shows, as far as pith-tex can tell without rendering it.

One pass of pypdf's text extraction over page 1's content stream, with two visitors:
pypdf decodes the text (fonts, encodings, ToUnicode maps); the visitors follow the
graphics state next to it (transformation matrix, form XObjects, clipping, text render
mode, font size, fill colour, line width, cap and dash array, an ExtGState's soft mask,
transfer function and blend mode) and collect the filled rectangles (and the
dashes of stroked axis-aligned lines) and images.  From that:

* the text of page 1, and the part of it that is *visible*: shown with a text render
  mode that paints (not 3 or 7), at an effective size of at least
  :data:`MIN_FONT_PT` points (with the page's /UserUnit, and a size an ExtGState /Font
  sets), in a fill colour that is not white, with its start and end (from the font's
  glyph widths, from where the shows before it on its line ended: pypdf does not move
  the text matrix over a show) inside the crop box and inside the clipping area, not
  mirrored, its glyphs not set apart, and where each piece of it lies (the badge's
  links) and where a piece does not follow the text read before it (PageScan.breaks);
* the dark filled rectangles, from which :func:`qr_grids` rebuilds any grid of square
  modules (a QR code drawn with rules, or with dashed lines as pith.sty draws it);
* the images (XObject and inline), with the area they cover;
* everything painted, in content order (PageScan.paint), so that paint drawn over the
  badge after it is seen, and the replacement texts of marked content (/ActualText).

What this cannot see (docs/verification.md): glyphs whose ToUnicode map lies (the text
read is not the text drawn), glyph shapes, text drawn as paths or inside images,
overprinting, optional content other than marked content (``/OC ...
BDC``: followed).  Annotations are read apart
(:func:`scan_annotations`): the text and places of their appearance streams.

The walk is bounded: at most :data:`MAX_OPERATIONS` content operations (forms included).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

#: The smallest effective font size (points) at which the badge counts as readable.
MIN_FONT_PT = 4.0
#: Below this constant alpha (ExtGState /ca, /CA) paint counts as not painted, as a
#: fill darkness below 0.1 counts as white.
MIN_ALPHA = 0.1
#: Glyphs pulled back by more than this (em, by Tc or a TJ number) are drawn over each
#: other: TeX's kerns stay under 0.1 em.
MAX_OVERLAP = 0.3
#: Text drawn further on than this (em, along its line) after the text before it is
#: not read with it: a reader sees two things, not one word (TeX's widest spaces in a
#: title are about 1 em).
MAX_GAP = 2.0
#: Content operations looked at on page 1, forms included.
MAX_OPERATIONS = 400_000
#: Fonts, and glyph widths of all fonts together, read on page 1 to place its text.
MAX_FONTS = 1000
MAX_WIDTHS = 1_000_000
#: The widest glyph of the standard 14 fonts (em): where a show in one of them without
#: /Widths may end.
MAX_STANDARD_WIDTH = 1.02
#: Dashes followed along one stroked line (and elements of a dash array).
MAX_DASHES = 4096

Matrix = Tuple[float, float, float, float, float, float]
Box = Tuple[float, float, float, float]  # x0, y0, x1, y1
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_EVERYWHERE: Box = (-math.inf, -math.inf, math.inf, math.inf)


class TooComplex(Exception):
    """Page 1 has more operations than :data:`MAX_OPERATIONS`."""


class Unfollowed(Exception):
    """Page 1 does something the text extraction cannot follow, so what it reads may not
    be what a viewer shows (a font chosen by an ExtGState, an unreadable /UserUnit)."""


def mul(m: Any, n: Any) -> Matrix:
    """``m x n`` for PDF matrices ``[a b c d e f]`` (``m`` applied first)."""
    a, b, c, d, e, f = (float(x) for x in m)
    p, q, r, s, t, u = (float(x) for x in n)
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s,
            e * p + f * r + t, e * q + f * s + u)


def apply(m: Matrix, x: float, y: float) -> Tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _object_key(ref: Any) -> Tuple[Any, ...]:
    """What tells two PDF objects apart: the number of an indirect one, else itself."""
    if hasattr(ref, "idnum"):
        return ("ref", ref.idnum, ref.generation)
    return ("direct", id(ref))


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def bbox(points: List[Tuple[float, float]]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def inside(box: Box, x: float, y: float, tol: float = 0.5) -> bool:
    return box[0] - tol <= x <= box[2] + tol and box[1] - tol <= y <= box[3] + tol


def _axis_box(pts: List[Tuple[float, float]]) -> Optional[Box]:
    """The box of the quadrilateral *pts* when its sides are upright (a rectangle not
    turned, or turned by quarters), else None."""
    for k in range(4):
        (px, py), (qx, qy) = pts[k], pts[(k + 1) % 4]
        if abs(px - qx) > 1e-6 and abs(py - qy) > 1e-6:
            return None
    return bbox(pts)


def _turning(pts: List[Tuple[float, float]]) -> int:
    """+1 for a quadrilateral drawn counter-clockwise, -1 clockwise, 0 flat."""
    area = sum(pts[k][0] * pts[(k + 1) % 4][1] - pts[(k + 1) % 4][0] * pts[k][1]
               for k in range(4))
    return (area > 0) - (area < 0)


#: Overlapping rectangles of one clipping path worked out cell by cell, at most this many.
MAX_CLIP_RECTS = 16


def _clip_region(rects: List[Tuple[Box, int]], evenodd: bool) -> Optional[List[Box]]:
    """The area the clipping path made of the upright rectangles *rects* (each with its
    turning) encloses, as boxes, by the nonzero winding rule (``W``) or the even-odd
    one (``W*``): a rectangle inside another cuts a hole with ``W*``, or with ``W`` when
    drawn the other way round.  None when there are too many overlapping ones to work
    out."""
    def overlap(a: Box, b: Box) -> bool:
        return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])

    if not any(overlap(rects[i][0], rects[j][0])
               for i in range(len(rects)) for j in range(i)):
        return [b for b, _ in rects]  # apart: their union, by either rule
    if len(rects) > MAX_CLIP_RECTS:
        return None
    xs = sorted({v for b, _ in rects for v in (b[0], b[2])})
    ys = sorted({v for b, _ in rects for v in (b[1], b[3])})
    out: List[Box] = []
    open_runs: Dict[Tuple[float, float], Box] = {}
    for j in range(len(ys) - 1):
        cy = (ys[j] + ys[j + 1]) / 2
        runs: List[Tuple[float, float]] = []
        for i in range(len(xs) - 1):
            cx = (xs[i] + xs[i + 1]) / 2
            w = sum(t for b, t in rects if b[0] < cx < b[2] and b[1] < cy < b[3])
            if (w % 2 == 1) if evenodd else w != 0:
                if runs and runs[-1][1] == xs[i]:
                    runs[-1] = (runs[-1][0], xs[i + 1])
                else:
                    runs.append((xs[i], xs[i + 1]))
        now: Dict[Tuple[float, float], Box] = {}
        for run in runs:  # a run under one of the same extent grows it
            prev = open_runs.pop(run, None)
            now[run] = (run[0], prev[1] if prev else ys[j], run[1], ys[j + 1])
        out.extend(open_runs.values())
        open_runs = now
    out.extend(open_runs.values())
    return out


def intersect(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Rect(NamedTuple):
    box: Box
    dark: bool  # filled in black or a dark colour
    skewed: bool  # not axis-aligned after the transformation


class PageScan(NamedTuple):
    text: str  # everything the extractor read
    visible: str  # the visible text; "\x00" where invisible text was
    hidden: List[Tuple[str, str]]  # (invisible text, why)
    rects: List[Rect]  # filled rectangles, in page space
    other_paint: List[Box]  # other filled or stroked paths
    images: List[Box]
    crop: Box
    shows: int = 0  # text-showing operations met
    #: Where painted text (any render mode but 3 and 7, any colour) lies, in page space:
    #: glyphs drawn over a QR code change what a scanner reads.
    text_paint: Tuple[Box, ...] = ()
    #: Where each piece of *visible* lies: (start, end, box) for visible[start:end]
    #: (None: not located), so that links over the badge can be found.
    spans: Tuple[Tuple[int, int, Optional[Box]], ...] = ()
    #: The page's /UserUnit: points per unit of default user space (PDF 1.6).
    unit: float = 1.0
    #: Where in *visible* a piece of text starts that is not drawn where the text before
    #: it ends (on its line, or at the start of a following one): text read across such
    #: a place is not one run a reader sees, in that order.
    breaks: Tuple[int, ...] = ()
    #: Everything painted, in the order it is painted: (when, where), *when* the number
    #: of shows before it (a show's own glyphs: its number, from 1; other paint after
    #: show k: k + 0.5), *where* its box in page space (glyphs: -0.2 to 0.8 em).
    paint: Tuple[Tuple[float, Box], ...] = ()
    #: Per piece of *spans*: the number of its last show (what is painted after it).
    span_shows: Tuple[int, ...] = ()
    #: The replacement texts of marked content (/ActualText, /Alt, /E), one a line.
    marked: str = ""


class _Place(NamedTuple):
    """Where a show draws its glyphs, in page space: where it starts and ends on its
    baseline, the unit vector along the baseline, and the font size."""

    start: Tuple[float, float]
    end: Tuple[float, float]
    u: Tuple[float, float]
    em: float


def _follows(prev: _Place, nxt: _Place) -> bool:
    """Whether a reader reads *nxt* right after *prev*: in the same direction, starting
    where *prev* ends on its line (from :data:`MAX_OVERLAP` em back to :data:`MAX_GAP` em
    on; a sub- or superscript within 0.8 em across), or on a following line (0.8 to 3.5
    em below, not further on than that)."""
    (ux, uy), em = prev.u, prev.em
    if ux * nxt.u[0] + uy * nxt.u[1] < 0.99:
        return False
    dx, dy = nxt.start[0] - prev.end[0], nxt.start[1] - prev.end[1]
    along = (dx * ux + dy * uy) / em
    across = (dy * ux - dx * uy) / em  # towards the glyphs' top
    if abs(across) < 0.8:
        return -MAX_OVERLAP <= along <= MAX_GAP
    return -3.5 <= across <= -0.8 and along <= MAX_GAP


class _Metrics:
    """The advance widths of one font's glyphs, in em, from its dictionary: viewers place
    glyphs by them (/Widths and /FirstChar, a descendant CID font's /W and /DW, a Type 3
    font's /FontMatrix); a simple font without /Widths (a standard font, placed by its own
    metrics): 0.6 em in Courier, else the widest a standard font's glyph is; a Type 0
    font with another CMap than Identity-H/V: a glyph a byte, each the font's widest."""

    __slots__ = ("two_byte", "first", "widths", "cids", "default", "scale", "bound",
                 "vertical", "flip", "type3", "_blank")

    def __init__(self, font: Any = None) -> None:
        self.two_byte = False
        #: Written vertically (a Type 0 font's CMap -V, /WMode 1): where a show ends is
        #: not followed.
        self.vertical = False
        #: The widths are a bound, not the glyphs' own (a CID font's codes not read).
        self.bound = False
        self.first = 0
        self.widths: List[float] = []
        self.cids: Dict[int, float] = {}
        self.default = 0.5
        self.scale = 0.001
        #: A Type 3 font's /FontMatrix mirrors its glyphs (-1; 1 otherwise).
        self.flip = 1.0
        #: A Type 3 font: its glyphs are drawn by its own procedures (/CharProcs).
        self.type3: Any = None
        self._blank: Dict[int, bool] = {}
        if font is None:
            return
        try:
            font = font.get_object()
            subtype = font.get("/Subtype")
            if subtype == "/Type0":
                self.two_byte = True
                desc = font["/DescendantFonts"][0].get_object()
                self.default = float(desc.get("/DW", 1000)) * 0.001
                self._cid_widths(desc.get("/W"))
                encoding = font.get("/Encoding")
                # (a vertical CMap: glyphs advance down the page, not placed here)
                self.vertical = (str(encoding).endswith("-V") if not hasattr(
                    encoding, "get") else encoding.get("/WMode") == 1)
                if encoding not in ("/Identity-H", "/Identity-V"):
                    # Another CMap reads codes of its own lengths (one byte, ...): at
                    # most a glyph a byte, each at most the widest of the font.
                    self.two_byte, self.bound = False, True
                    self.default = max([self.default, *self.cids.values()])
                    self.cids = {}
                return
            if subtype == "/Type3":
                a, b, c, d = (float(v) for v in list(font["/FontMatrix"])[:4])
                self.scale = a
                self.flip = -1.0 if a * d - b * c < 0 else 1.0
                self.type3 = font
            if "/Widths" in font:
                self.first = int(font.get("/FirstChar", 0))
                self.widths = [float(w) for w in list(font["/Widths"])[:256]]
                desc = font.get("/FontDescriptor")
                desc = desc.get_object() if desc is not None else {}
                self.default = float(desc.get("/MissingWidth", 0)) * self.scale
            elif "Courier" in str(font.get("/BaseFont", "")):
                self.default = 0.6
            else:
                # A standard font without /Widths: viewers use its own metrics, up to
                # Helvetica's @ (1.015 em).  Where a show ends is then taken as far as it
                # could be (0.5 em put a number running off the page inside it).
                self.default = MAX_STANDARD_WIDTH
        except Exception:
            # what was read so far, the rest as wide as a standard font's glyph can be
            self.default = max(self.default, MAX_STANDARD_WIDTH)

    def _cid_widths(self, w: Any) -> None:
        items = list(w.get_object())[:65536] if w is not None else []
        i = 0
        while i + 1 < len(items) and len(self.cids) < 65536:
            first, nxt = int(items[i]), items[i + 1].get_object()
            if isinstance(nxt, list):
                for k, v in enumerate(list(nxt)[:65536]):
                    self.cids[first + k] = float(v) * 0.001
                i += 2
            else:
                last = min(int(nxt), first + 65536 - len(self.cids))
                for c in range(first, last + 1):
                    self.cids[c] = float(items[i + 2]) * 0.001
                i += 3

    def codes(self, data: bytes) -> List[int]:
        if self.two_byte:
            return [data[i] << 8 | data[i + 1] for i in range(0, len(data) - 1, 2)]
        return list(data)

    def blank(self, code: int) -> bool:
        """Whether a Type 3 font's procedure for *code* paints nothing at all (no fill,
        stroke, image, shading or text operator; a missing procedure draws nothing
        either); a space (code 32, /space) is meant to be blank."""
        if code not in self._blank:
            self._blank[code] = _blank_glyph(self.type3, code)
        return self._blank[code]

    def width(self, code: int) -> float:
        if self.two_byte:
            return self.cids.get(code, self.default)
        i = code - self.first
        return self.widths[i] * self.scale if 0 <= i < len(self.widths) else self.default


_UNKNOWN_FONT = _Metrics()
_GLYPH_PAINT = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s", b"sh", b"Do",
                b"INLINE IMAGE", b"Tj", b"TJ", b"'", b'"'}


def _blank_glyph(font: Any, code: int) -> bool:
    """See :meth:`_Metrics.blank` (a procedure that cannot be read is not blank: what it
    draws is unknown, as any Type 3 glyph's shape is)."""
    from pypdf.generic import ContentStream

    try:
        name: Any = None
        encoding = font["/Encoding"].get_object()
        differences = list(encoding.get("/Differences", []))[:4096]
        at = 0
        for item in differences:  # [code /name /name ... code /name ...]
            if isinstance(item, int):
                at = int(item)
            else:
                if at == code:
                    name = item
                at += 1
        if name is None or name == "/space" or code == 32:
            return False
        proc = font["/CharProcs"].get_object().get(name)
        if proc is None:
            return True
        ops = ContentStream(proc.get_object(), None).operations
        return not any(op in _GLYPH_PAINT for _, op in ops[:MAX_OPERATIONS])
    except Exception:
        return False


def _string_bytes(item: Any) -> bytes:
    """The bytes of a string operand as written in the content stream."""
    raw = getattr(item, "original_bytes", None)
    if isinstance(raw, bytes):
        return raw
    if isinstance(item, bytes):
        return item
    return str(item).encode("latin-1", "replace")


class _GState:
    __slots__ = ("tr", "size", "clip", "fill", "stroke", "stroke_space", "width", "cap",
                 "hscale", "rise", "space", "palette", "stroke_palette", "parts", "fill_alpha", "stroke_alpha", "char_space", "font",
                 "font_unfollowed", "metrics", "word_space", "leading",
                 "dash", "smask", "transfer", "blend", "text_clip", "shape_clip")

    def __init__(self, tr: int, size: float, clip: Box, fill: Optional[float],
                 stroke: Optional[float] = 1.0, width: float = 1.0, cap: int = 0,
                 hscale: float = 100.0, rise: float = 0.0) -> None:
        self.tr = tr
        self.size = size
        self.clip = clip
        self.fill = fill  # darkness 0 (white) .. 1 (black); None: unknown colour
        self.stroke = stroke  # the same, for strokes
        self.stroke_space = 1  # the same as space, for strokes
        #: An Indexed fill (stroke) space's base components and lookup table.
        #: (A Separation's or DeviceN's: its alternate space's components and tint
        #: transform, :func:`_tints`.)
        self.palette: Optional[Tuple[int, Any]] = None
        self.stroke_palette: Optional[Tuple[int, Any]] = None
        self.width = width  # line width, user space
        self.cap = cap  # line cap style
        self.hscale = hscale  # Tz, per cent
        self.rise = rise  # Ts, text space units
        #: components of the fill colour space if gray, RGB or CMYK; PATTERN, INKS or
        #: NO_INK for those spaces; else 0
        self.space = 1
        #: The clipping area as a union of boxes inside *clip* (a clip made of several
        #: rectangles has holes its bounding box hides); empty: all of *clip*.
        self.parts: Tuple[Box, ...] = ()
        #: Constant alpha (ExtGState /ca and /CA): 0 paints nothing at all.
        self.fill_alpha = 1.0
        self.stroke_alpha = 1.0
        self.char_space = 0.0  # Tc, unscaled text space units
        self.font: Any = None  # the font set by Tf (what pypdf decodes the text with)
        #: An ExtGState /Font chose another font than Tf: pypdf does not follow it.
        self.font_unfollowed = False
        self.metrics = _UNKNOWN_FONT  # its glyph widths: where a show ends
        self.word_space = 0.0  # Tw
        self.leading = 0.0  # TL
        #: The dash array (d), user space: None solid, () one that is not followed.
        self.dash: Optional[Tuple[float, ...]] = None
        #: An ExtGState's soft mask (/SMask) or transfer function (/TR, /TR2), which can
        #: hide or whiten everything painted under it: why nothing under it is counted.
        self.smask: Optional[str] = None
        self.transfer: Optional[str] = None
        #: A blend mode (/BM) that can lighten what is painted (black text under
        #: /Difference or /Screen on a white page is white), or None.
        self.blend: Optional[str] = None
        #: The clipping path holds the outlines of glyphs (text shown in render modes 4
        #: to 7): what is painted in it shows only inside glyph shapes pith-tex does not
        #: know.
        self.text_clip = False
        #: The clipping path has a shape pith-tex does not follow (lines, curves, a
        #: turned rectangle, rectangles whose overlaps its winding rule cuts out in a
        #: way not worked out): what is painted in it may be cut anywhere.
        self.shape_clip = False

    def masked(self) -> Optional[str]:
        return self.smask or self.transfer or self.blend

    def copy(self) -> "_GState":
        gs = _GState(self.tr, self.size, self.clip, self.fill, self.stroke, self.width,
                     self.cap, self.hscale, self.rise)
        gs.space = self.space
        gs.stroke_space = self.stroke_space
        gs.palette = self.palette
        gs.stroke_palette = self.stroke_palette
        gs.parts = self.parts
        gs.fill_alpha = self.fill_alpha
        gs.stroke_alpha = self.stroke_alpha
        gs.char_space = self.char_space
        gs.font = self.font
        gs.font_unfollowed = self.font_unfollowed
        gs.metrics = self.metrics
        gs.word_space = self.word_space
        gs.leading = self.leading
        gs.dash = self.dash
        gs.smask = self.smask
        gs.transfer = self.transfer
        gs.blend = self.blend
        gs.text_clip = self.text_clip
        gs.shape_clip = self.shape_clip
        return gs

    def shows(self, *points: Tuple[float, float], tol: float = 0.5) -> bool:
        """Whether every one of *points* lies inside the clipping area, in one part of
        it (text that starts in one rectangle and ends in another is cut between), within
        *tol* units."""
        if not all(inside(self.clip, x, y, tol) for x, y in points):
            return False
        return not self.parts or any(all(inside(p, x, y, tol) for x, y in points)
                                     for p in self.parts)


_SHOW = {b"Tj", b"TJ", b"'", b'"'}
#: The operands each operator takes (PDF 32000-1, annex A): with fewer, poppler stops
#: drawing the content stream there (pdf.js skips the one operator).
_ARITY = {b"BDC": 2, b"BMC": 1, b"c": 6, b"cm": 6, b"CS": 1, b"cs": 1, b"d": 2, b"d0": 2,
          b"d1": 6, b"Do": 1, b"DP": 2, b"G": 1, b"g": 1, b"gs": 1, b"i": 1, b"j": 1,
          b"J": 1, b"K": 4, b"k": 4, b"l": 2, b"m": 2, b"M": 1, b"MP": 1, b"re": 4,
          b"RG": 3, b"rg": 3, b"ri": 1, b"sh": 1, b"Tc": 1, b"TD": 2, b"Td": 2, b"Tf": 2,
          b"TJ": 1, b"Tj": 1, b"TL": 1, b"Tm": 6, b"Tr": 1, b"Ts": 1, b"Tw": 1, b"Tz": 1,
          b"v": 4, b"w": 1, b"y": 4, b"'": 1, b'"': 3}
_FILL = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
_STROKE = {b"S", b"s"}


def _darkness(ops: List[Any]) -> Optional[float]:
    """1 - luminance of a DeviceGray, DeviceRGB or DeviceCMYK colour (0 white, 1 black)."""
    try:
        v = [min(1.0, max(0.0, float(x))) for x in ops]
    except (TypeError, ValueError):
        return None
    if len(v) == 1:
        return 1.0 - v[0]
    if len(v) == 3:
        return 1.0 - (0.3 * v[0] + 0.59 * v[1] + 0.11 * v[2])
    if len(v) == 4:
        c, m, y, k = v
        return 1.0 - (0.3 * (1 - c) + 0.59 * (1 - m) + 0.11 * (1 - y)) * (1 - k)
    return None


_DEVICE = {"/DeviceGray": 1, "/G": 1, "/DeviceRGB": 3, "/RGB": 3, "/DeviceCMYK": 4,
           "/CMYK": 4}


#: Colour spaces that are not gray, RGB or CMYK but followed (see :func:`_components`).
PATTERN, INKS, NO_INK, LAB, INDEXED, ICC = -1, -2, -3, -4, -5, -6


def _profile(space: Any) -> Tuple[int, Any]:
    """An ``[/ICCBased stream]`` space's components and the function from its colours to
    their luminance through its profile (:func:`pith_tex.icc.luminance`; None when the
    profile is not followed)."""
    from .icc import MAX_PROFILE, luminance

    stream = space[1].get_object()
    n = int(stream["/N"])
    try:
        data = stream.get_data()
    except Exception:
        return n, None
    return n, (luminance(data, n) if len(data) <= MAX_PROFILE else None)


def _palette(name: Any, resources: Any) -> Optional[Tuple[int, bytes]]:
    """An Indexed space's base (gray, RGB or CMYK: its components) and lookup table."""
    try:
        space = resources["/ColorSpace"][name].get_object()
        base = space[1].get_object()
        lum = None
        if isinstance(base, list) and base and base[0] == "/ICCBased":
            n, lum = _profile(base)
            if lum is None:  # its entries are painted through a profile not followed
                return (n, None)
        else:
            n = _DEVICE.get(str(base), 0)
        table = space[3].get_object()
        data = table.get_data() if hasattr(table, "get_data") else bytes(
            getattr(table, "original_bytes", b"") or str(table).encode("latin-1"))
        return (n, (bytes(data[:256 * 4]), lum)) if n in (1, 3, 4) else None
    except Exception:
        return None


#: The darkness of a colour that is not followed: a Separation or DeviceN space whose
#: tint transform is not evaluated (it may map full ink to white, in the alternate space
#: viewers paint with), an ICC-based one whose profile is not (it may paint 0 white).
UNFOLLOWED_COLOUR = -1.0


def _tints(name: Any, resources: Any) -> Optional[Tuple[int, Any]]:
    """A Separation's or one-colorant DeviceN's alternate space (its gray, RGB or CMYK
    components) and tint transform, when that is a function pith-tex evaluates (type 2,
    or type 3 stitching type 2 ones); else None."""
    try:
        space = resources["/ColorSpace"][name].get_object()
        inks = space[1].get_object()
        if isinstance(inks, list) and len(inks) != 1:
            return None
        alternate = space[2].get_object()
        lum = None
        if isinstance(alternate, list) and alternate and alternate[0] == "/ICCBased":
            n, lum = _profile(alternate)
            if lum is None:
                return None
        else:
            n = _DEVICE.get(str(alternate), 0)
        function = space[3].get_object()
        return (n, (function, lum)) if n in (1, 3, 4) and _evaluate(
            function, 0.0) is not None else None
    except Exception:
        return None


def _evaluate(function: Any, x: float, depth: int = 0) -> Optional[List[float]]:
    """The outputs of a type 2 (exponential) function, or a type 3 one stitching such
    functions, at *x*; None for any other function."""
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", [0, 1])][:2]
    if len(domain) == 2:
        x = min(max(x, domain[0]), domain[1])
    if kind == 2:
        c0 = [float(v) for v in function.get("/C0", [0.0])]
        c1 = [float(v) for v in function.get("/C1", [1.0])]
        e = float(function["/N"])
        if len(c0) != len(c1) or not (x > 0 or e > 0):
            return None
        t = x ** e if x > 0 else 0.0
        return [a + t * (b - a) for a, b in zip(c0, c1)]
    if kind == 3 and depth == 0 and len(domain) == 2:
        subs = [f.get_object() for f in function["/Functions"]][:64]
        bounds = [float(v) for v in function.get("/Bounds", [])]
        encode = [float(v) for v in function["/Encode"]]
        if len(bounds) != len(subs) - 1 or len(encode) != 2 * len(subs):
            return None
        k = sum(1 for b in bounds if x >= b)
        lo = domain[0] if k == 0 else bounds[k - 1]
        hi = domain[1] if k == len(subs) - 1 else bounds[k]
        e0, e1 = encode[2 * k], encode[2 * k + 1]
        y = e0 if hi == lo else e0 + (x - lo) * (e1 - e0) / (hi - lo)
        return _evaluate(subs[k], y, 1)
    return None


def _colour_in(space: int, palette: Optional[Tuple[int, Any]],
               args: List[Any]) -> Optional[float]:
    """The darkness of the colour *args* of an sc/scn (SC/SCN) in *space*, or None when
    it is not followed (:data:`UNFOLLOWED_COLOUR` when it may be white)."""
    if space == 0:  # a space not known (poppler keeps the colour before a bad ``cs``)
        return UNFOLLOWED_COLOUR
    try:
        if space > 0:
            return _darkness(args) if len(args) == space else None
        if space == NO_INK:
            return 0.0
        if space == INKS:  # no ink laid down is white; some ink, as viewers paint it
            if args and all(float(v) == 0 for v in args):
                return 0.0
            if palette is None or len(args) != 1:
                return UNFOLLOWED_COLOUR
            n, (function, lum) = palette
            out = _evaluate(function, float(args[0]))
            if out is None or len(out) != n:
                return UNFOLLOWED_COLOUR
            return (1.0 - lum([min(1.0, max(0.0, v)) for v in out]) if lum is not None
                    else _darkness(out))
        if space == LAB and len(args) == 3:  # L* from 0 (black) to 100 (white)
            return 1.0 - min(100.0, max(0.0, float(args[0]))) / 100
        if space == INDEXED and palette is None:  # a lookup table or base not read
            return UNFOLLOWED_COLOUR
        if space == INDEXED and len(args) == 1:
            n, look = palette
            if look is None:
                return UNFOLLOWED_COLOUR
            table, lum = look
            i = int(float(args[0]))
            entry = table[i * n:(i + 1) * n]
            if len(entry) != n:
                return None
            return (1.0 - lum([b / 255 for b in entry]) if lum is not None
                    else _darkness([b / 255 for b in entry]))
        if space == ICC:  # through its profile, when that is followed
            if palette is None or palette[1] is None or len(args) != palette[0]:
                return UNFOLLOWED_COLOUR
            return 1.0 - palette[1]([min(1.0, max(0.0, float(v))) for v in args])
    except (TypeError, ValueError, OverflowError, KeyError, ZeroDivisionError):
        if space in (INKS, ICC):
            return UNFOLLOWED_COLOUR
    return None


def _components(name: Any, resources: Any) -> int:
    """The components of the colour space *name* (``cs`` operand) when it is a gray, RGB
    or CMYK one (a device space, a resource naming one, an ICC-based space); PATTERN for
    a pattern space, INKS for a Separation or DeviceN (tints of inks: 0 lays none), NO_INK
    for one whose only colorant is /None (it never paints); else 0."""
    try:
        if str(name) in _DEVICE:
            return _DEVICE[str(name)]
        if str(name) == "/Pattern":
            return PATTERN
        space = resources["/ColorSpace"][name].get_object()
        if str(space) in _DEVICE:
            return _DEVICE[str(space)]
        if isinstance(space, list) and space and space[0] == "/ICCBased":
            return ICC
        if isinstance(space, list) and space and space[0] in ("/CalGray", "/CalRGB"):
            return ICC  # read through its gamma and matrix, as a profile
        if isinstance(space, list) and space and space[0] == "/Lab":
            return LAB
        if isinstance(space, list) and len(space) == 4 and space[0] in ("/Indexed", "/I"):
            return INDEXED
        if isinstance(space, list) and space and space[0] == "/Pattern":
            return PATTERN
        if isinstance(space, list) and len(space) > 1 and space[0] in ("/Separation",
                                                                       "/DeviceN"):
            inks = space[1].get_object()
            inks = list(inks) if isinstance(inks, list) else [inks]
            return NO_INK if inks and all(i == "/None" for i in inks) else INKS
    except Exception:
        pass
    return 0


def _calibrated(space: Any) -> Tuple[int, Any]:
    """A CalGray or CalRGB space's components and the luminance of its colours: Y of
    ``A^Gamma`` (CalGray), of ``/Matrix`` times ``(A^GR, B^GG, C^GB)`` (CalRGB), as
    viewers paint them (a matrix may make red white)."""
    d = space[1].get_object()
    if space[0] == "/CalGray":
        g = float(d.get("/Gamma", 1))
        return 1, ((lambda v: min(1.0, max(0.0, v[0] ** g))) if g > 0 else None)
    gammas = [float(x) for x in d.get("/Gamma", [1, 1, 1])]
    m = [float(x) for x in d.get("/Matrix", [1, 0, 0, 0, 1, 0, 0, 0, 1])]
    if len(gammas) != 3 or len(m) != 9 or not all(x > 0 for x in gammas):
        return 3, None
    return 3, lambda v: min(1.0, max(0.0, sum(m[3 * i + 1] * v[i] ** gammas[i]
                                               for i in range(3))))


_COMPONENTS = {b"g": 1, b"rg": 3, b"k": 4, b"G": 1, b"RG": 3, b"K": 4}


def _operands(op: bytes, args: List[Any]) -> List[Any]:
    """The operands a viewer takes for ``g``/``rg``/``k`` (``G``/``RG``/``K``): the last
    ones when there are too many (poppler: ``0 0 1 g`` is white).  Too few never get
    here: :meth:`Scanner.before` refuses them (poppler stops drawing there)."""
    return args[-_COMPONENTS[op]:]


def _initial_colour(space: int, data: Optional[Tuple[int, Any]]) -> Optional[float]:
    """The colour ``cs`` (``CS``) sets with the space *space* (:func:`_components`, its
    *data* :func:`_space_data`): black (Lab: L* 0; Indexed: entry 0; ICC-based or
    calibrated: all components 0), a Separation's or DeviceN's full ink (tints 1), none
    for a pattern; a space not known: :data:`UNFOLLOWED_COLOUR`."""
    if space > 0:
        return 1.0
    if space == LAB:
        return _colour_in(space, data, [0] * 3)
    if space == INDEXED:
        return _colour_in(space, data, [0])
    if space == NO_INK:
        return 0.0
    if space == INKS:
        return _colour_in(space, data, [1])
    if space == ICC:
        return _colour_in(space, data, [0] * (data[0] if data else 1))
    return None if space == PATTERN else UNFOLLOWED_COLOUR


def _space_data(space: int, name: Any, resources: Any) -> Optional[Tuple[int, Any]]:
    """What the colours of the space *name* (code *space*, :func:`_components`) are read
    with: an Indexed space's lookup table, a Separation's tint transform, an ICC-based
    space's profile."""
    if space == INDEXED:
        return _palette(name, resources)
    if space == INKS:
        return _tints(name, resources)
    if space == ICC:
        try:
            found = resources["/ColorSpace"][name].get_object()
            return _calibrated(found) if found[0] in ("/CalGray", "/CalRGB") else _profile(
                found)
        except Exception:
            return None
    return None


def _unpainted(space: int, colour: Optional[float], way: str, tr: int) -> Optional[str]:
    """Why text painted (*way*: "fill" or "stroke") in colour space *space* and colour
    *colour* leaves nothing a reader sees (a pattern is not followed), or None."""
    if space == PATTERN:
        return "%sed with a pattern, which pith-tex does not follow" % way.rstrip("e")
    if space in (INKS, NO_INK) and colour == 0.0:
        return "no ink (a Separation or DeviceN at tint 0, or its colorant /None)"
    if space == INKS and colour == UNFOLLOWED_COLOUR:
        return ("in a Separation or DeviceN colour whose tint transform pith-tex does not "
                "evaluate (viewers paint it in its alternate space, white or not)")
    if colour == UNFOLLOWED_COLOUR:
        return ("in a colour pith-tex does not follow (an ICC profile, a calibrated, "
                "indexed or unknown space it does not read: viewers paint it their way, "
                "white or not)")
    if colour is not None and colour < 0.1:
        return ("a white fill colour" if way == "fill" else
                "a white stroke colour (render mode %d strokes only)" % tr)
    return None


def _pulled_back(array: Any) -> bool:
    """Whether a TJ array moves a glyph back onto the one before it by more than
    :data:`MAX_OVERLAP` em (a number followed by more text)."""
    items = list(array)[:100_000]
    for here, after in zip(items, items[1:]):
        if isinstance(here, (int, float)) and not isinstance(after, (int, float)):
            if float(here) > 1000 * MAX_OVERLAP:
                return True
    return False


def _scale(m: Matrix) -> float:
    """How a matrix scales a line's width whichever way the line runs: its scale when it
    scales both axes alike (turning by a multiple of a quarter or not at all), else 0 (a
    matrix that squeezes one way makes a stroke thinner across some lines than its mean
    scale says: not a rule of known thickness)."""
    for a, d, b, c in ((m[0], m[3], m[1], m[2]), (m[1], m[2], m[0], m[3])):
        if abs(b) <= 1e-9 and abs(c) <= 1e-9 and abs(abs(a) - abs(d)) <= 1e-6 * abs(a):
            return abs(a)
    return 0.0


def _stroked_rule(seg: Tuple[Tuple[float, float], Tuple[float, float], float],
                  cap: int) -> Optional[Box]:
    """The rectangle an axis-aligned line segment of width *w* paints with butt (0) or
    projecting square (2) caps, or None."""
    (x0, y0), (x1, y1), w = seg
    if w <= 0 or cap not in (0, 2):
        return None
    ext = w / 2 if cap == 2 else 0.0
    if abs(y0 - y1) < 1e-6:  # horizontal
        return (min(x0, x1) - ext, y0 - w / 2, max(x0, x1) + ext, y0 + w / 2)
    if abs(x0 - x1) < 1e-6:  # vertical
        return (x0 - w / 2, min(y0, y1) - ext, x0 + w / 2, max(y0, y1) + ext)
    return None


def _identity_transfer(value: Any) -> bool:
    """Whether an ExtGState's /TR or /TR2 leaves colours as they are: /Identity,
    /Default, or an exponential function from 0 to 1 of exponent 1 (one, or four alike);
    any other function is not followed."""
    value = value.get_object()
    if value in ("/Identity", "/Default"):
        return True
    if isinstance(value, list):
        return len(value) == 4 and all(_identity_transfer(f) for f in value)
    try:
        def floats(key: str, default: List[float]) -> List[float]:
            v = value.get(key)
            return default if v is None else [float(x) for x in v.get_object()]

        return bool(int(value["/FunctionType"]) == 2 and float(value["/N"]) == 1
                    and floats("/C0", [0.0]) == [0.0] and floats("/C1", [1.0]) == [1.0])
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


#: Blend modes whose result is never lighter than what is painted (b x s, min(b, s)):
#: text and modules painted under them are as dark as their colour says.
_DARKENING = ("/Normal", "/Compatible", "/Multiply", "/Darken")


def _lightening(value: Any) -> Optional[str]:
    """Why the blend mode *value* (an ExtGState /BM: a name, or an array of names a viewer
    takes the first it knows of) is not followed, or None when it never lightens what is
    painted."""
    value = value.get_object()
    names = list(value)[:16] if isinstance(value, list) else [value]
    bad = next((str(n) for n in names if n not in _DARKENING), None)
    if bad is None and names:
        return None
    return "a blend mode (ExtGState /BM %s)" % (bad[:40] if bad else "[]")


def _one_pixel_mask(args: Any) -> Optional[bool]:
    """For an inline 1 x 1 image mask: whether its one sample paints; else None."""
    try:
        settings, data = args["settings"], args["data"]
        get = settings.get
        mask = get("/IM", get("/ImageMask"))
        if not (mask is not None and bool(mask) and get("/W", get("/Width")) == 1
                and get("/H", get("/Height")) == 1):
            return None
        bit = (bytes(data)[0] >> 7) & 1
        decode = get("/D", get("/Decode"))
        inverted = decode is not None and len(decode) == 2 and float(decode[0]) == 1
        return bit == (1 if inverted else 0)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


class Scanner:
    """The visitors of one extraction (see the module docstring)."""

    def __init__(self, crop: Box, resources: Any, off: "frozenset[int]" = frozenset(),
                 unit: float = 1.0) -> None:
        self.crop = crop
        # Sizes are judged in points, and the half-point tolerance of the crop box and
        # clipping tests is half a point whatever the page's /UserUnit.
        self.unit = unit
        #: Sizes count a /UserUnit below 1 (Acrobat shrinks the page) but not one above
        #: (poppler ignores it: the badge is drawn at its nominal size there).
        self.size_unit = min(unit, 1.0)
        self.tol = 0.5 / unit
        self.off = off  # the optional content groups (object numbers) that are off
        self.layers: List[bool] = []  # per open marked-content sequence: is it hidden?
        self.gs = [_GState(0, 0.0, crop, 1.0)]
        self.base: List[Matrix] = [IDENTITY]  # form XObject space -> page space
        self.resources: List[Any] = [resources]
        self.forms: List[bool] = []  # per Do: did it open a form?
        self.form_layers: List[int] = []  # per open form: len(self.layers) before it
        self.form_gs: List[int] = []  # per open form: len(self.gs) before it
        self.path: List[Tuple[float, float]] = []
        self.path_rects: List[Tuple[List[Tuple[float, float]], bool]] = []
        self.path_curved = False
        self.segments: List[Tuple[Tuple[float, float], Tuple[float, float], float]] = []
        self.clip_next = False
        self.clip_evenodd = False
        self.ops = 0
        self.rects: List[Rect] = []
        self.other_paint: List[Box] = []
        self.images: List[Box] = []
        self.pending: List[Optional[str]] = []  # per show since the last text: why hidden
        self.text: List[str] = []
        self.visible: List[str] = []
        self.hidden: List[Tuple[str, str]] = []
        self._last_why: Optional[str] = None
        self.shows = 0
        self.text_paint: List[Box] = []
        #: Per piece of visible text: where its shows lie (see PageScan.spans).
        self.spans: List[Tuple[int, int, Optional[Box]]] = []
        self._visible_len = 0
        self._show_box: Optional[Box] = None  # where the show under way lies
        self._metrics: Dict[Tuple[Any, ...], _Metrics] = {}  # per font object
        self._widths_read = 0
        self._boxes_since: List[Box] = []  # boxes of the shows since the last piece
        self._widen: Optional[int] = None  # the piece a show still open belongs to
        self._open = False  # between a show's before and after
        #: How far the shows since the start of the line moved the text position (text
        #: space units): pypdf's text matrix stays at the line's start.
        self._moved = 0.0
        self._clip_text = False  # text shown in a clipping render mode since BT
        #: Where the shows since the last piece lie (None: not located), the show under
        #: way's, and the last show of the text read before (see PageScan.breaks).
        self._places_since: List[Optional[_Place]] = []
        self._open_place: Optional[_Place] = None
        self._place_taken = False
        self._last_place: Optional[_Place] = None
        self.breaks: List[int] = []
        self.paint: List[Tuple[float, Box]] = []
        self.marked: List[str] = []
        self.span_shows: List[int] = []
        self._handlers = self._table()

    # -- helpers ------------------------------------------------------------------------
    def _m(self, cm: Any) -> Matrix:
        if len(self.base) == 1:  # no form XObject: page space already
            return cm  # type: ignore[no-any-return]
        return mul(cm, self.base[-1])

    def _painted(self, box: Box, alpha: float, when: Optional[float] = None) -> None:
        """Something is painted over *box* (with constant alpha *alpha*): recorded in
        PageScan.paint unless it paints nothing (a hidden layer, alpha near 0)."""
        # (bounded by MAX_OPERATIONS: one item an operation at most)
        if (alpha >= MIN_ALPHA and not any(self.layers)
                and all(math.isfinite(v) for v in box)):
            self.paint.append((self.shows + 0.5 if when is None else when,
                               intersect(box, self.gs[-1].clip)))

    def _end_path(self, op: bytes, cm: Any) -> None:
        gs = self.gs[-1]
        if self.path and (op in _FILL or op in _STROKE):
            self._painted(bbox(self.path), max(
                gs.fill_alpha if op in _FILL else 0.0,
                gs.stroke_alpha if op in _STROKE or op[:1] in (b"B", b"b") else 0.0))
        if op in _FILL or op in _STROKE:
            if op in _FILL and not self.path_curved and self.path_rects:
                dark = (gs.fill is not None and gs.fill >= 0.5 and gs.fill_alpha >= MIN_ALPHA
                        and not gs.masked())
                for pts, skewed in self.path_rects:
                    # a module in a hidden layer, or clipped away, is not drawn
                    if not any(self.layers) and not self._clipped(bbox(pts)):
                        self.rects.append(Rect(bbox(pts), dark, skewed))
            elif op == b"S" and len(self.segments) == 1 and len(self.path) == 2:
                # xdvipdfmx draws a rule as one axis-aligned line stroked as wide as the
                # rule is thick (butt caps): that is a filled rectangle; pith.sty draws a
                # QR code's row as one such line, dashed by its runs: a rectangle a dash
                rects = self._stroked(self.segments[0], gs, cm)
                if rects is not None:
                    dark = (gs.stroke is not None and gs.stroke >= 0.5
                            and gs.stroke_alpha >= MIN_ALPHA and not gs.masked())
                    for rect in rects:
                        if not any(self.layers) and not self._clipped(rect):
                            self.rects.append(Rect(rect, dark, False))
                    self.path = []
            if self.path and (op in _STROKE or self.path_curved or not self.path_rects):
                self.other_paint.append(bbox(self.path))
        if self.clip_next and self.path:
            gs.clip = intersect(gs.clip, bbox(self.path))
            boxes = [] if self.path_curved else [_axis_box(pts) for pts, _ in self.path_rects]
            new = None
            if boxes and all(b is not None for b in boxes):
                new = _clip_region([(b, _turning(pts)) for b, (pts, _) in
                                    zip(boxes, self.path_rects)],  # type: ignore[misc]
                                   self.clip_evenodd)
            if new is None:  # its shape is not followed (its bounding box over-reaches)
                gs.shape_clip = True
            else:
                parts = [intersect(a, b) for a in new for b in (gs.parts or (gs.clip,))]
                parts = [b for b in parts if b[0] <= b[2] and b[1] <= b[3]]
                if not parts:  # nothing left to paint in
                    parts = [(math.inf, math.inf, -math.inf, -math.inf)]
                if len(parts) <= 64:
                    gs.parts = tuple(parts)
                else:  # too many to follow (their bounding box would over-reach)
                    gs.shape_clip = True
        self.clip_next = False
        self.clip_evenodd = False
        self.path = []
        self.path_rects = []
        self.path_curved = False
        self.segments = []

    def _stroked(self, seg: Tuple[Tuple[float, float], Tuple[float, float], float],
                 gs: "_GState", cm: Any) -> Optional[List[Box]]:
        """The rectangles an axis-aligned stroked segment paints, solid or dashed (a dash
        array followed only under a matrix that scales both axes alike, turning by a
        multiple of a quarter or not at all: the dashes' lengths along the line are then
        known), or None."""
        if gs.dash is None:
            rect = _stroked_rule(seg, gs.cap)
            return None if rect is None else [rect]
        m = self._m(cm)
        # (a page or box turned a quarter, dvips's landscape or lscape's, turns the
        # rows into columns: the lengths along the line scale alike)
        a, b, c, d = (m[0], m[3], m[1], m[2]) if abs(m[1]) <= 1e-9 else (
            m[1], m[2], m[0], m[3])
        scale = abs(a)
        if (not gs.dash or abs(c) > 1e-9 or abs(d) > 1e-9 or not scale > 0
                or abs(abs(b) - scale) > 1e-9 * scale):
            return None
        (x0, y0), (x1, y1), w = seg
        length = math.hypot(x1 - x0, y1 - y0)
        if not math.isfinite(length) or length <= 0:
            return None
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        rects: List[Box] = []
        pos, i, on = 0.0, 0, True
        while pos < length:
            if i >= MAX_DASHES:
                return None
            step = gs.dash[i % len(gs.dash)] * scale
            end = min(pos + step, length)
            if on and (end > pos or gs.cap == 2):
                rect = _stroked_rule(((x0 + ux * pos, y0 + uy * pos),
                                      (x0 + ux * end, y0 + uy * end), w), gs.cap)
                if rect is None:
                    return None
                rects.append(rect)
            pos, i, on = pos + step, i + 1, not on
        return rects

    def _clipped(self, box: Box) -> bool:
        """Whether the middle of *box* lies outside a clipping path set on the page (the
        crop box alone is the ``qr`` check's own test, with its own message), or the
        clipping path holds glyph outlines (nothing under it is followed)."""
        gs = self.gs[-1]
        if gs.text_clip or gs.shape_clip:
            return True
        if gs.clip == self.crop and not gs.parts:
            return False
        return not gs.shows(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), tol=self.tol)

    def _why_hidden(self, cm: Any, tm: Any) -> Optional[str]:
        gs = self.gs[-1]
        if gs.tr in (3, 7):
            return "render mode %d (invisible)" % gs.tr
        if any(self.layers):
            return "in optional content (a layer) that is off"
        if gs.masked():
            return "under %s, which pith-tex does not follow" % gs.masked()
        if len(self.base) > 1 and not all(math.isfinite(x) for x in self.base[-1]):
            return "an unreadable form matrix"
        m = mul(tm, self._m(cm))
        size = abs(gs.size) * math.hypot(m[2], m[3]) * self.size_unit
        if not size >= MIN_FONT_PT:
            return "%.2g pt, smaller than %g pt" % (size, MIN_FONT_PT)
        if abs(gs.hscale) < 50:
            return "squeezed to %g %% of its width" % gs.hscale
        # The matrices squeeze too: the glyphs' width across their height (a shear that
        # lays the two directions on one line leaves no area at all).
        height = math.hypot(m[2], m[3])
        if not height > 0:  # an infinite font size times a flat matrix
            return "an unreadable text matrix"
        across = abs(m[0] * m[3] - m[1] * m[2]) / height * abs(gs.hscale) / 100
        if not across >= 0.5 * height:
            return "squeezed to %.2g %% of its width by its matrix" % (100 * across / height)
        if (m[0] * m[3] - m[1] * m[2]) * gs.hscale * gs.metrics.flip < 0:
            return "mirrored (its glyphs drawn as their mirror image, right to left)"
        # modes 1 and 5 stroke the glyphs' outlines only, 2 and 6 fill and stroke them
        fill_gone = _unpainted(gs.space, gs.fill, "fill", gs.tr)
        stroke_gone = _unpainted(gs.stroke_space, gs.stroke, "stroke", gs.tr)
        if gs.tr in (1, 5) and stroke_gone:
            return stroke_gone
        filled, stroked = gs.fill_alpha >= MIN_ALPHA, gs.stroke_alpha >= MIN_ALPHA
        if not (filled if gs.tr in (0, 4) else stroked if gs.tr in (1, 5) else
                filled or stroked):
            return "fully transparent (constant alpha /ca or /CA below %g)" % MIN_ALPHA
        if gs.tr in (0, 4) and fill_gone or gs.tr in (2, 6) and fill_gone and stroke_gone:
            return fill_gone
        # Glyphs pulled back onto each other (TeX never sets Tc; its kerns in TJ stay
        # under 0.1 em): an unreadable pile however large.
        if gs.char_space < -MAX_OVERLAP * abs(gs.size):
            return "glyphs drawn over each other (character spacing Tc)"
        x, y = apply(m, 0.0, gs.rise)  # the baseline, raised or lowered by Ts
        if not inside(self.crop, x, y, self.tol):
            return "outside the crop box"
        if gs.text_clip:
            return ("clipped to the outlines of text shown in render modes 4 to 7, which "
                    "pith-tex does not follow")
        if gs.shape_clip:
            return ("clipped to a path not made of upright rectangles (lines, curves, a "
                    "turned rectangle) or whose rectangles overlap, which pith-tex does "
                    "not follow")
        if not gs.shows((x, y), tol=self.tol):
            return "clipped away"
        return None

    # -- the visitors -------------------------------------------------------------------
    def before(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.ops += 1
        if self.ops > MAX_OPERATIONS:
            raise TooComplex("more than %d content operations on page 1" % MAX_OPERATIONS)
        need = _ARITY.get(op)
        if need is not None and len(args) != need and not (
                len(args) > need and op in _COMPONENTS):
            raise Unfollowed(
                ("its content gives the operator %s too few operands (%d): poppler stops "
                 "drawing the content there, other viewers go on" if len(args) < need else
                 "its content gives the operator %s too many operands (%d): viewers take "
                 "the last ones, the text extraction the first")
                % (op.decode("latin-1")[:8], len(args)))
        handler = self._handlers.get(op)
        if handler is None:  # cm, ET, ...: nothing to follow here
            return
        try:
            handler(op, args, cm, tm)
        except (TypeError, ValueError, OverflowError, IndexError):
            if op in _SHOW:
                self.pending.append("an unreadable operand")

    def _re(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        x, y, w, h = (float(v) for v in args)
        m = self._m(cm)
        pts = [apply(m, x, y), apply(m, x + w, y), apply(m, x + w, y + h), apply(m, x, y + h)]
        self.path.extend(pts)
        self.path_rects.append((pts, abs(m[1]) > 1e-9 or abs(m[2]) > 1e-9))

    def _line(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        m = self._m(cm)
        start = self.path[-1] if self.path else None
        for i in range(0, len(args) - 1, 2):
            self.path.append(apply(m, float(args[i]), float(args[i + 1])))
        if op != b"m":
            self.path_curved = True
            if op == b"l" and start is not None:  # a rule may be one stroked segment
                self.segments.append((start, self.path[-1], self.gs[-1].width * _scale(m)))

    def _clip(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.clip_next = True
        self.clip_evenodd = op == b"W*"

    def _paint(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self._end_path(op, cm)

    def _save(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs.append(self.gs[-1].copy())

    def _restore(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        if len(self.gs) > 1:
            self.gs.pop()

    def _tr(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].tr = int(args[0])

    def _tf(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        gs = self.gs[-1]
        gs.font_unfollowed = False
        gs.size = float(args[1])
        gs.font, gs.metrics = None, _UNKNOWN_FONT
        try:
            fonts = self.resources[-1]["/Font"]
            gs.font = _object_key(fonts.raw_get(args[0]))
        except Exception:
            return
        if gs.font not in self._metrics:
            # a font whose widths are not read would place its glyphs unknown: refused
            metrics = _Metrics(fonts.raw_get(args[0]))
            self._widths_read += len(metrics.widths) + len(metrics.cids)
            if len(self._metrics) >= MAX_FONTS or self._widths_read > MAX_WIDTHS:
                raise TooComplex("more than %d fonts or %d glyph widths on page 1"
                                 % (MAX_FONTS, MAX_WIDTHS))
            self._metrics[gs.font] = metrics
        gs.metrics = self._metrics[gs.font]

    def _tz(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].hscale = float(args[0])

    def _tc(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].char_space = float(args[0])

    def _ts(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].rise = float(args[0])

    def _dash(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``d``: a dash array of finite lengths not all zero, phase 0, is followed; an
        empty one is a solid line; any other is not followed (its strokes are paint of
        unknown shape)."""
        gs = self.gs[-1]
        gs.dash = ()
        values = [float(v) for v in list(args[0])[:MAX_DASHES + 1]]
        if not values:
            gs.dash = None
        elif (len(values) <= MAX_DASHES and float(args[1]) == 0 and sum(values) > 0
              and all(math.isfinite(v) and v >= 0 for v in values)):
            gs.dash = tuple(values)

    def _colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        args = _operands(op, args)
        self.gs[-1].fill = _darkness(args)
        self.gs[-1].space = len(args)

    def _colour_space(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``cs``: a device space by name (``/DeviceGray cs 1 sc`` is white), or a named
        resource that is one or an ICC-based space of 1, 3 or 4 components; its initial
        colour is black.  Any other space: the colour is not followed."""
        gs = self.gs[-1]
        gs.space = _components(args[0], self.resources[-1])
        gs.palette = _space_data(gs.space, args[0], self.resources[-1])
        gs.fill = _initial_colour(gs.space, gs.palette)

    def _other_colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        gs = self.gs[-1]  # sc/scn: in the spaces followed (_colour_in)
        if gs.space > 0 and len(args) != gs.space:
            return  # viewers refuse it and keep the colour (poppler: 1 g 0 0 0 sc is white)
        gs.fill = _colour_in(gs.space, gs.palette, args)

    def _stroke_colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        args = _operands(op, args)
        self.gs[-1].stroke = _darkness(args)
        self.gs[-1].stroke_space = len(args)

    def _other_stroke_colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``CS``, ``SC``, ``SCN``: the stroke colour, as ``cs``, ``sc``, ``scn`` set the
        fill colour (the same spaces followed)."""
        gs = self.gs[-1]
        if op == b"CS":
            space = gs.stroke_space = _components(args[0], self.resources[-1])
            gs.stroke_palette = _space_data(space, args[0], self.resources[-1])
            gs.stroke = _initial_colour(space, gs.stroke_palette)
            return
        if gs.stroke_space > 0 and len(args) != gs.stroke_space:
            return  # refused by viewers: the colour stays
        gs.stroke = _colour_in(gs.stroke_space, gs.stroke_palette, args)

    def _ext_gstate(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``gs``: the constant alphas of the named ExtGState (a name that is not there
        changes nothing, as in viewers)."""
        try:
            egs = self.resources[-1]["/ExtGState"][args[0]].get_object()
        except (KeyError, TypeError, AttributeError, IndexError):
            return
        gs = self.gs[-1]
        for key, slot in (("/ca", "fill_alpha"), ("/CA", "stroke_alpha")):
            value = egs.get(key)
            if value is not None:
                alpha = float(value)
                setattr(gs, slot, alpha if math.isfinite(alpha) else 1.0)
        if "/SMask" in egs:
            gs.smask = (None if egs["/SMask"] == "/None"
                        else "a soft mask (ExtGState /SMask)")
        if "/BM" in egs:
            gs.blend = _lightening(egs["/BM"])
        tr = "/TR2" if "/TR2" in egs else "/TR" if "/TR" in egs else None
        if tr is not None:
            gs.transfer = (None if _identity_transfer(egs[tr])
                           else "a transfer function (ExtGState %s)" % tr)
        # Line width, cap and dashes as w, J and d set them: a code's rows stroked
        # otherwise are another picture.  One that cannot be read leaves the strokes
        # that follow unfollowed (paint of unknown shape).
        try:
            for name, handler in (("/LW", self._width), ("/LC", self._cap)):
                if name in egs:
                    handler(op, [egs[name]], cm, tm)
            if "/D" in egs:
                dash = list(egs["/D"].get_object())
                self._dash(op, [list(dash[0].get_object()), dash[1]], cm, tm)
        except (TypeError, ValueError, OverflowError, IndexError, AttributeError):
            gs.dash = ()
        if "/Font" in egs:
            # [font size] sets both, as Tf does.  pypdf's text extraction ignores it and
            # decodes with the font of the last Tf: the same font is followed (its new
            # size counts), another one cannot be (shows then refuse the page's text).
            gs.font_unfollowed = True
            value = egs["/Font"]
            items = list(value) if isinstance(value, list) else []
            if len(items) == 2:
                size = float(items[1])
                gs.size = size if math.isfinite(size) else 0.0
                gs.font_unfollowed = gs.font is None or _object_key(items[0]) != gs.font

    def _width(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].width = abs(float(args[0]))

    def _cap(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].cap = int(args[0])

    def _show(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        gs = self.gs[-1]
        if gs.font_unfollowed:
            raise Unfollowed("text shown in a font chosen by an ExtGState /Font, which the "
                             "text extraction does not follow: what it reads may not be "
                             "what a viewer shows")
        self.shows += 1
        if gs.tr >= 4:
            self._clip_text = True
        self._open = True
        self._show_box = None
        self._open_place, self._place_taken = None, False
        if op == b'"':  # aw ac string: the word and character spacing are set first
            gs.word_space, gs.char_space = float(args[0]), float(args[1])
        if op in (b"'", b'"'):  # T* first: the text starts a line lower
            tm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -gs.leading), tm)
            self._moved = 0.0
        elif self._moved:  # after the shows since the line's start (pypdf's matrix)
            tm = mul((1.0, 0.0, 0.0, 1.0, self._moved, 0.0), tm)
        try:
            advance, glyphs, em, gap = self._advance(op, args)
            self._moved += advance
            m = mul(tm, self._m(cm))
            ends = [apply(m, x, gs.rise) for x in (0.0, advance)]
            corners = [apply(m, x, gs.rise + k * gs.size) for x in (0.0, advance)
                       for k in (-0.2, 0.8)]
            size = abs(gs.size) * math.hypot(m[2], m[3])
        except (TypeError, ValueError, OverflowError, IndexError):
            self.pending.append("an unreadable operand")
            self._moved = math.nan  # where the next shows start is not known either
            return
        finite = all(math.isfinite(v) for p in corners for v in p)
        if finite:
            self._show_box = bbox(corners)
            if gs.tr not in (3, 7):  # glyphs painted over what is under them
                self._painted(self._show_box, max(gs.fill_alpha, gs.stroke_alpha),
                              float(self.shows))
            along = math.hypot(m[0], m[1])
            if size > 0 and along > 0 and math.isfinite(size):
                self._open_place = _Place(ends[0], ends[1], (m[0] / along, m[1] / along),
                                          size)
        if gs.tr not in (3, 7) and finite:  # (bounded by MAX_OPERATIONS)
            # painted glyphs, a font size around their baseline (any colour: glyphs
            # drawn over a QR code change what a scanner reads)
            box = bbox(ends)
            box = (box[0] - size, box[1] - size, box[2] + size, box[3] + size)
            if all(math.isfinite(v) for v in box):
                self.text_paint.append(box)
        why = self._why_hidden(cm, tm)
        if why is None and gs.metrics.vertical:
            why = "written vertically (a vertical CMap), which pith-tex does not follow"
        if why is None and op == b"TJ" and _pulled_back(args[0]):
            why = "glyphs drawn over each other (TJ moves them back)"
        if why is None and gs.metrics.type3 is not None:
            why = self._blank_glyphs(op, args)
        if why is None and gap > MAX_GAP * abs(gs.size):
            why = "glyphs drawn apart (%.3g em between two of them)" % (gap / abs(gs.size))
        if why is None and glyphs >= 2 and em < 0.2 * glyphs:
            why = "glyphs drawn over each other (the font's widths are %.2g em)" % (
                em / glyphs)
        if why is None:
            # where it ends, too: on the page and in the same part of the clipping area
            (x0, y0), (x1, y1) = ends
            if not inside(self.crop, x1, y1, self.tol):
                why = "running out of the crop box"
            elif not gs.shows((x0, y0), (x1, y1), tol=self.tol):
                why = "clipped away"
        self.pending.append(why)

    def _blank_glyphs(self, op: bytes, args: List[Any]) -> Optional[str]:
        """Why a show in a Type 3 font leaves glyphs out: one whose procedure paints
        nothing (at most the first 256 glyphs looked at), or None."""
        metrics = self.gs[-1].metrics
        items = list(args[0])[:100_000] if op == b"TJ" else [args[-1]]
        codes = [c for item in items if not isinstance(item, (int, float))
                 for c in metrics.codes(_string_bytes(item))]
        if any(metrics.blank(c) for c in codes[:256]):
            return "a Type 3 glyph whose procedure draws nothing"
        return None

    def _advance(self, op: bytes, args: List[Any]) -> Tuple[float, int, float, float]:
        """How far the show moves the text position (text space units, as a viewer
        places the glyphs: their widths, Tc, Tw, TJ numbers, Tz), how many glyphs it
        shows, the sum of their widths in em, and the widest gap between two glyphs that
        are not spaces (text space units: Tc, Tw, TJ numbers, spaces, and what a glyph's
        width goes beyond the widest glyph of a standard font)."""
        gs = self.gs[-1]
        if op == b"TJ":
            items = list(args[0])
            if len(items) > 100_000:  # not followed whole: where it ends is unknown
                raise ValueError("a TJ array of more than 100000 items")
        else:
            items = [args[-1]]
        metrics = gs.metrics
        total = 0.0
        glyphs = 0
        em = 0.0
        size = gs.size
        ink: Optional[float] = None  # where the last glyph that is not a space ends
        gap = 0.0
        for item in items:
            if isinstance(item, (int, float)):
                total -= float(item) / 1000 * size
                continue
            for code in metrics.codes(_string_bytes(item)):
                w = metrics.width(code)
                em += w
                glyphs += 1
                if code == 32 and not metrics.two_byte:
                    total += w * size + gs.char_space
                    # (a byte 32 of a bound need not be a code 32: not pulled back)
                    total += max(gs.word_space, 0.0) if metrics.bound else gs.word_space
                    continue
                if ink is not None:
                    gap = max(gap, total - ink if size >= 0 else ink - total)
                ink = total + (w if metrics.bound else min(w, MAX_STANDARD_WIDTH)) * size
                total += w * size + gs.char_space
        return total * gs.hscale / 100, glyphs, em, gap

    def _show_done(self) -> None:
        """The box of the show just done, for the piece of text it belongs to (see
        :meth:`_piece`)."""
        self._open = False
        if not self._place_taken:
            self._places_since.append(self._open_place)
        self._open_place = None
        box, self._show_box = self._show_box, None
        widen, self._widen = self._widen, None
        if box is None:
            return
        if widen is not None:  # pypdf passed the text on before the show was done
            i, j, old = self.spans[widen]
            self.spans[widen] = (i, j, old if old is None else _union(old, box))
        else:
            self._boxes_since.append(box)

    def _tl(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        # TL sets the leading, TD moves and sets it: ' and " start a line lower by it
        self.gs[-1].leading = float(args[0]) if op == b"TL" else -float(args[1])
        if op == b"TD":
            self._moved = 0.0

    def _line_start(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``BT``, ``Td``, ``Tm``, ``T*``: the text position goes to (a) line's start,
        where pypdf's text matrix is (it does not move it over a show)."""
        self._moved = 0.0
        if op == b"BT":
            self._clip_text = False

    def _end_text(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``ET``: text shown in render modes 4 to 7 since ``BT`` becomes part of the
        clipping path (its glyph outlines)."""
        if self._clip_text:
            self.gs[-1].text_clip = True
        self._clip_text = False

    def _tw(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].word_space = float(args[0])

    def _marked(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        """``BMC``/``BDC`` open a marked-content sequence (``/OC`` ones may be hidden),
        ``EMC`` closes one."""
        if op == b"EMC":
            if self.layers:
                self.layers.pop()
            return
        hidden = False
        if op == b"BDC" and len(args) == 2 and args[0] == "/OC" and self.off:
            props = args[1]
            try:
                if not hasattr(props, "keys"):
                    props = self.resources[-1]["/Properties"].raw_get(props)
                hidden = _is_off(props, self.off)
            except Unfollowed:
                raise
            except Exception:
                hidden = False
        elif op == b"BDC" and len(args) == 2:
            self._replacement(args[1])
        if len(self.layers) >= 10_000:
            # (one not followed would let its EMC close another: a hidden layer lost)
            raise TooComplex("more than 10000 nested marked-content sequences on page 1")
        self.layers.append(hidden)

    def _replacement(self, props: Any) -> None:
        """The /ActualText, /Alt and /E of a marked-content property list: what copying,
        pdftotext and screen readers give in place of the glyphs (PageScan.marked)."""
        try:
            if not hasattr(props, "keys"):
                props = self.resources[-1]["/Properties"].raw_get(props)
            props = props.get_object()
            for key in ("/ActualText", "/Alt", "/E"):
                value = props.get(key)
                if isinstance(value, bytes):
                    value = value.decode("latin-1")
                if isinstance(value, str) and len(self.marked) < 100_000:
                    self.marked.append(value[:100_000])
        except Exception:
            pass  # (nothing to read: the glyphs are what is read)

    def _shade(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        # ``sh`` paints a shading over the whole clipping area
        self.other_paint.append(intersect(self.gs[-1].clip, self.crop))
        self._painted(self.crop, self.gs[-1].fill_alpha)

    def _xobject(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self._do(args[0], cm)

    def _inline_image(self, op: bytes, args: Any, cm: Any, tm: Any) -> None:
        m = self._m(cm)
        box = bbox([apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1), apply(m, 1, 1)])
        painted = _one_pixel_mask(args)
        if painted is not False:
            self._painted(box, self.gs[-1].fill_alpha)
        if painted is None:
            self.images.append(box)
        elif painted and not any(self.layers) and not self._clipped(box):
            # ghostscript draws a rule as a 1 x 1 image mask, in the fill colour (and
            # with its alpha, soft mask and blend mode, as a filled rectangle)
            gs = self.gs[-1]
            dark = (gs.fill is not None and gs.fill >= 0.5 and gs.fill_alpha >= MIN_ALPHA
                    and not gs.masked())
            self.rects.append(Rect(box, dark, abs(m[1]) > 1e-9 or abs(m[2]) > 1e-9))

    def _table(self) -> Dict[bytes, Callable[[bytes, List[Any], Any, Any], None]]:
        """The operators followed, with their handlers (one lookup per operation)."""
        table: Dict[bytes, Callable[[bytes, List[Any], Any, Any], None]] = {
            b"re": self._re, b"m": self._line, b"l": self._line, b"c": self._line,
            b"v": self._line, b"y": self._line, b"W": self._clip, b"W*": self._clip,
            b"n": self._paint, b"q": self._save, b"Q": self._restore, b"Tr": self._tr,
            b"Tf": self._tf, b"g": self._colour, b"rg": self._colour, b"k": self._colour,
            b"sc": self._other_colour, b"scn": self._other_colour, b"cs": self._colour_space,
            b"Do": self._xobject, b"INLINE IMAGE": self._inline_image,
            b"G": self._stroke_colour, b"RG": self._stroke_colour, b"K": self._stroke_colour,
            b"CS": self._other_stroke_colour, b"SC": self._other_stroke_colour,
            b"SCN": self._other_stroke_colour, b"w": self._width, b"J": self._cap,
            b"gs": self._ext_gstate, b"Tc": self._tc, b"TL": self._tl, b"TD": self._tl,
            b"Tw": self._tw, b"d": self._dash,
            b"Tz": self._tz, b"Ts": self._ts, b"sh": self._shade, b"BMC": self._marked,
            b"BDC": self._marked, b"EMC": self._marked, b"BT": self._line_start,
            b"Td": self._line_start, b"Tm": self._line_start, b"T*": self._line_start,
            b"ET": self._end_text}
        for o in _FILL | _STROKE:
            table[o] = self._paint
        for o in _SHOW:
            table[o] = self._show
        return table

    def after(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        if op in _SHOW:
            self._show_done()
        elif op == b"Do" and self.forms:
            if self.forms.pop():
                self.base.pop()
                self.resources.pop()
                if self.form_layers:  # the form's own /OC, and what it left open
                    del self.layers[self.form_layers.pop():]
                if self.form_gs:  # its /BBox clip, and any q it left unclosed
                    del self.gs[max(1, self.form_gs.pop()):]

    def _do(self, name: Any, cm: Any) -> None:
        xobj: Any = None
        try:
            xobj = self.resources[-1]["/XObject"][name].get_object()
            subtype = xobj.get("/Subtype")
        except Exception:
            subtype = None
        m = self._m(cm)
        if subtype == "/Form":
            mat = xobj.get("/Matrix", IDENTITY)
            # A form's own /OC entry: a viewer draws none of it when that group is off.
            hidden = False
            if self.off and "/OC" in xobj:
                try:
                    hidden = _is_off(xobj.raw_get("/OC"), self.off)
                except Unfollowed:
                    raise
                except Exception:
                    hidden = False
            self.form_layers.append(len(self.layers))
            self.layers.append(hidden)
            self.forms.append(True)
            self.base.append(mul(mat, m) if len(mat) == 6 else m)
            # A viewer draws a form only inside its /BBox: a clip for its content.
            self.form_gs.append(len(self.gs))
            gs = self.gs[-1].copy()
            try:
                x0, y0, x1, y1 = (float(v) for v in xobj["/BBox"])
                corners = [apply(self.base[-1], x, y)
                           for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
                box = bbox(corners)
                if _axis_box(corners) is None:  # turned: its bounding box over-reaches
                    gs.shape_clip = True
                if all(math.isfinite(v) for v in box):
                    gs.clip = intersect(gs.clip, box)
                    if gs.parts:
                        gs.parts = tuple(p for p in (intersect(q, box) for q in gs.parts)
                                         if p[0] <= p[2] and p[1] <= p[3]) or (
                            (math.inf, math.inf, -math.inf, -math.inf),)
            except (KeyError, TypeError, ValueError):
                pass  # no readable /BBox: the form is followed unclipped
            self.gs.append(gs)
            self.resources.append(xobj.get("/Resources", self.resources[-1]))
            return
        self.forms.append(False)
        if subtype == "/Image":
            self.images.append(bbox([apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1),
                                     apply(m, 1, 1)]))
            self._painted(self.images[-1], self.gs[-1].fill_alpha)

    def _piece(self, text: str) -> None:
        """*text* (or the mark of hidden text) joins the visible text, with where the
        shows it came from lie: those since the last piece, the same as the last piece's
        when pypdf split their text, and a show not yet done when pypdf passed its text
        on in the middle of it (widened when it is done)."""
        boxes, self._boxes_since = self._boxes_since, []
        start = self._visible_len
        self._visible_len += len(text)
        self.visible.append(text)
        if boxes:
            box: Optional[Box] = boxes[0]
            for b in boxes[1:]:
                box = _union(box, b) if box is not None else b
        elif self.spans:
            box = self.spans[-1][2]
        else:
            box = None
        if len(self.spans) < 100_000:
            if self._open and self._show_box is not None:
                self._widen = len(self.spans)
            self.spans.append((start, self._visible_len, box))
            self.span_shows.append(self.shows)

    def _order(self) -> Optional[str]:
        """Why the shows of the piece of text passed on are not read in the order they
        are drawn (each after the one before, :func:`_follows`), or None; a piece that
        does not follow the text read before it starts a break (PageScan.breaks)."""
        places, self._places_since = self._places_since, []
        if self._open and not self._place_taken:  # its text was passed on: it is here
            places.append(self._open_place)
            self._place_taken = True
        if not places:  # more text of the shows already seen (pypdf split it)
            return None
        if any(p is None for p in places):
            self._last_place = None
            return "glyphs at a place that cannot be read"
        here = [p for p in places if p is not None]
        for a, b in zip(here, here[1:]):
            if not _follows(a, b):
                self._last_place = None
                return ("its glyphs not drawn one after the other (text moved back over "
                        "itself, before what it follows, or apart)")
        last, self._last_place = self._last_place, here[-1]
        if last is None or not _follows(last, here[0]):
            self.breaks.append(self._visible_len)
        return None

    def on_text(self, text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if not text:
            return
        self.text.append(text)
        disorder = self._order()
        if not text.strip():
            self._piece(text)
            return
        if self.pending:
            why = next((w for w in self.pending if w is not None), None)
            self._last_why = why
            self.pending = []
        else:  # more text of the operations already seen (pypdf split it)
            why = self._last_why
        if why is None and disorder is not None:
            why = self._last_why = disorder
        if why is None:
            self._piece(text)
        else:
            self._piece("\x00")
            if len(self.hidden) < 64:
                self.hidden.append((text, why))


def page_box(page: Any) -> Box:
    """Page 1's crop box (within its media box), in default user space."""
    media = [float(v) for v in page.mediabox]
    crop = [float(v) for v in page.cropbox]
    m = (min(media[0], media[2]), min(media[1], media[3]), max(media[0], media[2]),
         max(media[1], media[3]))
    c = (min(crop[0], crop[2]), min(crop[1], crop[3]), max(crop[0], crop[2]),
         max(crop[1], crop[3]))
    return intersect(m, c)


class Undecodable(Exception):
    """A content stream of page 1 could not be decoded."""


def _check_contents(page: Any) -> None:
    """pypdf logs a content stream it cannot decode and reads it as empty: the page would
    look blank, so the text was not read, and that must be said."""
    contents = page.get("/Contents")
    if contents is None:
        return
    contents = contents.get_object()
    streams = list(contents) if isinstance(contents, list) else [contents]
    for ref in streams[:10000]:
        stream = ref.get_object()
        encoded = getattr(stream, "_data", b"")
        if "/Filter" in stream and encoded and encoded.strip() and not stream.get_data():
            raise Undecodable("a content stream of page 1 could not be decoded (%s)"
                              % stream.get("/Filter"))


#: Entries of a list of groups read (/OCGs, /ON, /OFF); a longer list is not followed.
MAX_GROUPS = 10000


def _group_list(value: Any, what: str) -> List[int]:
    """The object numbers of the groups in the array *value* (``[]`` when absent).
    Raises :class:`Unfollowed` for anything but an array of references to dictionaries:
    viewers read such a list each their own way (poppler drops all optional content for
    a null in /OCGs, keeps a group off after a null in /ON), so which layers are off is
    not known."""
    if value is None:
        return []
    items = value.get_object()
    if not isinstance(items, list) or len(items) > MAX_GROUPS:
        raise Unfollowed("its optional content configuration's %s is not an array of at "
                         "most %d groups: which layers are off is not known"
                         % (what, MAX_GROUPS))
    out = []
    for ref in items:
        if not hasattr(ref, "idnum") or not isinstance(ref.get_object(), dict):
            raise Unfollowed("its optional content configuration's %s holds %.40s, not a "
                             "group: viewers read it differently, so which layers are off "
                             "is not known" % (what, ref))
        out.append(ref.idnum)
    return out


def _off_groups(page: Any) -> "frozenset[int]":
    """The optional content groups (object numbers) that the document's default
    configuration switches off: what a viewer hides when it opens the file.  Raises
    :class:`Unfollowed` when the configuration is not one every viewer reads alike."""
    try:
        pdf = page.pdf  # a reader (the raw trailer's /Root), or a library caller's writer
        root = (pdf.trailer["/Root"] if hasattr(pdf, "trailer") else pdf.root_object
                ).get_object()
        props = root.get("/OCProperties")
        if props is None:
            return frozenset()
        props = props.get_object()
        config = props.get("/D") if isinstance(props, dict) else None
        if config is None:  # no default configuration: every group is on
            return frozenset()
        config = config.get_object()
        if not isinstance(config, dict):
            raise Unfollowed("its optional content configuration /D is not a dictionary")
        base = config.get("/BaseState", "/ON")
        # only the groups /OCGs lists are groups at all: poppler and pdf.js show content
        # marked with any other (a box in one, "off" in /OFF, is drawn: it covers)
        groups = _group_list(props.get("/OCGs"), "/OCGs")
        if base == "/OFF":
            on = set(_group_list(config.get("/ON"), "/ON"))
            return frozenset(n for n in groups if n not in on)
        if base not in ("/ON", "/Unchanged"):
            raise Unfollowed("its optional content configuration's /BaseState is %.40s"
                             % base)
        return frozenset(_group_list(config.get("/OFF"), "/OFF")).intersection(groups)
    except Unfollowed:
        raise
    except Exception as e:
        raise Unfollowed("its optional content configuration cannot be read (%s): which "
                         "layers are off is not known" % type(e).__name__)


def _ve_shows(expr: Any, off: "frozenset[int]", depth: int) -> bool:
    """Whether the visibility expression *expr* of a membership dictionary shows what it
    marks: ``[/And|/Or|/Not operands...]``, each operand a group or an expression.
    Raises :class:`Unfollowed` for anything else (and past 16 levels or 64 operands):
    whether the content is shown, and so whether it hides what it covers, is not known."""
    if hasattr(expr, "idnum"):  # a reference: a group, or an expression elsewhere
        target = expr.get_object()
        if isinstance(target, dict) and target.get("/Type") == "/OCG":
            return expr.idnum not in off
        expr = target
    if isinstance(expr, list) and depth < 16 and 2 <= len(expr) <= 65:
        op, args = expr[0], expr[1:]
        if op == "/Not" and len(args) == 1:
            return not _ve_shows(args[0], off, depth + 1)
        if op == "/And":
            return all([_ve_shows(a, off, depth + 1) for a in args])
        if op == "/Or":
            return any([_ve_shows(a, off, depth + 1) for a in args])
    raise Unfollowed("a membership dictionary (/OCMD) on page 1 has a visibility "
                     "expression (/VE) pith-tex cannot evaluate: whether what it marks is "
                     "shown is not known")


def _is_off(ref: Any, off: "frozenset[int]") -> bool:
    """Whether the group or membership dictionary *ref* is hidden (a membership
    dictionary by its /VE expression when it has one, else by its /OCGs and /P)."""
    if getattr(ref, "idnum", None) in off:
        return True
    d = ref.get_object()
    if d.get("/Type") != "/OCMD":
        return False
    if "/VE" in d:  # a visibility expression decides, not /OCGs and /P
        return not _ve_shows(d["/VE"], off, 0)
    groups = d.get("/OCGs")
    groups = groups.get_object() if groups is not None else []
    refs = list(groups) if isinstance(groups, list) else [groups]
    if len(refs) > 64 or not all(hasattr(g, "idnum") and isinstance(g.get_object(), dict)
                                 for g in refs):
        # poppler skips a null (its other groups decide), another viewer may not
        raise Unfollowed("a membership dictionary (/OCMD) on page 1 lists something else "
                         "than its (at most 64) groups: whether what it marks is shown is "
                         "not known")
    states = [g.idnum in off for g in refs]
    policy = d.get("/P", "/AnyOn")
    if policy == "/AllOn":
        return any(states)
    if policy == "/AnyOff":
        return not any(states)
    if policy == "/AllOff":
        return not all(states)
    return bool(states) and all(states)  # /AnyOn


def user_unit(page: Any) -> float:
    """The page's /UserUnit (PDF 1.6): how many points one unit of its default user space
    is (1 when absent).  Raises :class:`Unfollowed` when it is not a positive number:
    the size of everything on the page is then unknown."""
    raw = page.get("/UserUnit")
    if raw is None:
        return 1.0
    try:
        unit = float(raw)
    except (TypeError, ValueError):
        unit = math.nan
    if not (math.isfinite(unit) and unit > 0):
        raise Unfollowed("its /UserUnit %.40s is not a positive number: the size of what "
                         "it shows is unknown" % raw)
    return unit


def scan_page(page: Any) -> PageScan:
    """Scan *page* (a pypdf page).  Raises :class:`TooComplex`, :class:`Unfollowed`, or
    what pypdf raises on a content stream it cannot read."""
    crop = page_box(page)
    unit = user_unit(page)
    _check_contents(page)
    try:
        resources = page["/Resources"].get_object()
    except Exception:
        resources = {}
    s = Scanner(crop, resources, _off_groups(page), unit)
    visitor_text: Callable[..., None] = s.on_text
    page.extract_text(visitor_operand_before=s.before, visitor_operand_after=s.after,
                      visitor_text=visitor_text)
    return PageScan("".join(s.text), "".join(s.visible), s.hidden, s.rects, s.other_paint,
                    s.images, crop, s.shows, tuple(s.text_paint), tuple(s.spans), unit,
                    tuple(s.breaks), tuple(s.paint), tuple(s.span_shows),
                    "\n".join(s.marked))


#: Annotations of page 1 looked at for what a viewer draws from them.
MAX_ANNOTATIONS = 1000


def annot_rect(annot: Any) -> Optional[Box]:
    """An annotation's /Rect as (x0, y0, x1, y1) with x0 <= x1, y0 <= y1; None if unreadable."""
    try:
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
    except Exception:
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def scan_annotations(page: Any) -> Tuple[str, List[Box]]:
    """What page 1's annotations give a viewer to show: the text of their normal
    appearance streams (every appearance state; a viewer draws them over the page, and
    pdftotext reads them) and their ``/Contents`` notes, and the rectangles of those that
    draw an appearance.  Bounded by :data:`MAX_ANNOTATIONS` and, all streams together,
    :data:`MAX_OPERATIONS` (raises :class:`TooComplex`)."""
    from pypdf import PageObject
    from pypdf.generic import ArrayObject, NameObject

    annots = page.get("/Annots")
    annots = annots.get_object() if annots is not None else []
    texts: List[str] = []
    boxes: List[Box] = []
    ops = 0
    for ref in list(annots)[:MAX_ANNOTATIONS]:
        annot = ref.get_object()
        if not hasattr(annot, "get"):
            continue
        note = annot.get("/Contents")
        if isinstance(note, (str, bytes)):
            texts.append(note if isinstance(note, str) else note.decode("latin-1"))
        ap = annot.get("/AP")
        normal = ap.get_object().get("/N") if hasattr(ap, "get_object") else None
        normal = normal.get_object() if normal is not None else None
        if normal is None:
            # no appearance of its own: viewers make one (poppler and pdf.js fill a
            # /Square with its /IC, write a /FreeText, paint a /Highlight...), all but a
            # link's (its border, around the text) and a closed pop-up's
            subtype = annot.get("/Subtype")
            if subtype != "/Link" and (subtype != "/Popup" or annot.get("/Open") is True):
                box = annot_rect(annot)
                if box is not None:
                    boxes.append(box)
            continue
        streams = [normal] if hasattr(normal, "get_data") else [
            v.get_object() for v in list(normal.values())[:64]] if hasattr(
                normal, "values") else []
        drawn = False
        for stream in streams:
            if not hasattr(stream, "get_data"):
                continue
            drawn = True
            form = PageObject(page.pdf)
            form[NameObject("/Contents")] = stream
            form[NameObject("/Resources")] = stream.get("/Resources", {})
            form[NameObject("/MediaBox")] = ArrayObject(stream.get("/BBox", [0, 0, 1, 1]))
            s = Scanner(_EVERYWHERE, form["/Resources"])
            s.ops = ops
            form.extract_text(visitor_operand_before=s.before,
                              visitor_operand_after=s.after, visitor_text=s.on_text)
            ops = s.ops
            texts.append("".join(s.text))
        box = annot_rect(annot) if drawn else None
        if box is not None:
            boxes.append(box)
    return "\n".join(texts), boxes


# -- QR codes drawn with rules --------------------------------------------------------------

class Grid(NamedTuple):
    rows: List[str]  # "1" dark, "0" light
    box: Box
    module: float  # points
    #: Read from runs down the page (a code turned a quarter): *rows* are then the code
    #: turned, and its runs are one module wide.
    turned: bool = False


def _valid_size(n: int) -> bool:
    return 21 <= n <= 177 and (n - 17) % 4 == 0


def _clusters(rects: List[Rect]) -> List[List[Box]]:
    """Dark axis-aligned rectangles grouped by height (within 5 %: a renderer rounds each
    rule to its device pixels)."""
    boxes = sorted((r.box for r in rects if r.dark and not r.skewed
                    and 0.05 < r.box[3] - r.box[1] <= 50), key=lambda b: b[3] - b[1])
    groups: List[List[Box]] = []
    low = 0.0
    for b in boxes:
        h = b[3] - b[1]
        if not groups or h > low * 1.05:
            groups.append([])
            low = h
        groups[-1].append(b)
    return groups


def _near_groups(boxes: List[Box], reach: float) -> List[List[Box]]:
    """*boxes* split into groups of boxes chained by gaps of at most *reach* (two codes on
    a page stand apart by their quiet zones; the modules of one code do not)."""
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cell = max(reach, 1e-3) * 2
    buckets: Dict[Tuple[int, int], List[int]] = {}

    def cells(x0: float, y0: float, x1: float, y1: float) -> List[Tuple[int, int]]:
        return [(cx, cy) for cx in range(int(x0 // cell), int(x1 // cell) + 1)
                for cy in range(int(y0 // cell), int(y1 // cell) + 1)]

    for i, b in enumerate(boxes):
        seen = set()
        for key in cells(b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach):
            for j in buckets.get(key, ()):
                if j in seen:
                    continue
                seen.add(j)
                ri, rj = root(i), root(j)
                if ri == rj:
                    continue
                o = boxes[j]
                if (o[0] - b[2] <= reach and b[0] - o[2] <= reach
                        and o[1] - b[3] <= reach and b[1] - o[3] <= reach):
                    parent[ri] = rj
        for key in cells(*b):
            buckets.setdefault(key, []).append(i)
    groups: Dict[int, List[Box]] = {}
    for i, b in enumerate(boxes):
        groups.setdefault(root(i), []).append(b)
    return list(groups.values())


def qr_grids(rects: List[Rect]) -> Tuple[List[Grid], int]:
    """Every square grid of modules drawn by dark axis-aligned rectangles one module high
    and whole modules wide (one rectangle per run of dark modules, as pith.sty draws
    them), and how many such groups did not make a grid; then the grids read from runs one
    module wide (a page turned a quarter, dvips's landscape: the grid's rows are the code
    turned, Grid.turned)."""
    flat, odd = _grids(rects)
    # turned a quarter clockwise, (x, y) -> (y, -x); the grids' boxes turned back
    turned, _ = _grids([r._replace(box=(r.box[1], -r.box[2], r.box[3], -r.box[0]))
                        for r in rects])
    turned = [(g._replace(box=(-g.box[3], g.box[0], -g.box[1], g.box[2]), turned=True), runs)
              for g, runs in turned]
    # One drawing read both ways: a code's single modules are squares either way, so
    # the wrong reading is a grid of squares alone (a QR code's finder patterns have runs
    # of 7 along and across); a drawing of squares alone is read along the page.
    grids = [g for g, runs in flat
             if runs or not any(r and overlaps(g.box, t.box) for t, r in turned)]
    grids += [t for t, runs in turned
              if not any(overlaps(t.box, g.box) and (r or not runs) for g, r in flat)]
    return grids, odd


def turns(rows: List[str]) -> List[List[str]]:
    """*rows* turned by 0, 1, 2 and 3 quarters (a scanner reads a code in any of them)."""
    out = [rows]
    for _ in range(3):
        last = out[-1]
        out.append(["".join(last[len(last) - 1 - j][i] for j in range(len(last)))
                    for i in range(len(last[0]))] if last else [])
    return out


def _grids(rects: List[Rect]) -> Tuple[List[Tuple[Grid, bool]], int]:
    """The grids of :func:`qr_grids` read from runs along the page, each with whether
    one of its runs is longer than a module."""
    grids: List[Tuple[Grid, bool]] = []
    odd = 0
    groups = []
    for cluster in _clusters(rects):
        if len(cluster) >= 15:
            h = sorted(b[3] - b[1] for b in cluster)[len(cluster) // 2]
            groups.extend(_near_groups(cluster, 3 * h))
    for boxes in groups:
        if len(boxes) < 15:  # a QR code of version 1 has far more runs
            continue
        h = sorted(b[3] - b[1] for b in boxes)[len(boxes) // 2]
        x0 = min(b[0] for b in boxes)
        y0 = min(b[1] for b in boxes)
        x1 = max(b[2] for b in boxes)
        y1 = max(b[3] for b in boxes)
        # the finder patterns make the dark bounding box exactly n x n modules
        n = min(range(21, 178, 4), key=lambda k: abs((x1 - x0) / h - k))
        pitch = (x1 - x0) / n
        if (abs((x1 - x0) / h - n) > 0.05 * n or abs((y1 - y0) - (x1 - x0)) > pitch / 2
                or abs(h - pitch) > 0.1 * pitch):
            odd += 1
            continue
        cells = [[False] * n for _ in range(n)]
        whole = True
        for b in boxes:
            width = (b[2] - b[0]) / pitch
            if abs(width - round(width)) > 0.25:
                whole = False
                break
            row = int(round((y1 - b[3]) / pitch))
            col = int(round((b[0] - x0) / pitch))
            if not 0 <= row < n:
                whole = False
                break
            for c in range(max(0, col), min(n, col + int(round(width)))):
                cells[row][c] = True
        if not whole:
            odd += 1
            continue
        grids.append((Grid(["".join("1" if c else "0" for c in row) for row in cells],
                           (x0, y0, x1, y1), pitch),
                      any(b[2] - b[0] > 1.5 * pitch for b in boxes)))
    return grids, odd
