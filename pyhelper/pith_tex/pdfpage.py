"""What page 1 of a PDF shows, as far as pith-tex can tell without rendering it.

One pass of pypdf's text extraction over page 1's content stream, with two visitors:
pypdf decodes the text (fonts, encodings, ToUnicode maps); the visitors follow the
graphics state next to it (transformation matrix, form XObjects, clipping, text render
mode, font size, fill colour) and collect the filled rectangles and images.  From that:

* the text of page 1, and the part of it that is *visible*: shown with a text render
  mode that paints (not 3 or 7), at an effective size of at least
  :data:`MIN_FONT_PT` points, in a fill colour that is not white, with its start and
  end inside the crop box and inside the clipping area;
* the dark filled rectangles, from which :func:`qr_matrices` rebuilds any grid of square
  modules (a QR code drawn with rules, as pith.sty draws it);
* the images (XObject and inline), with the area they cover.

What this cannot see (docs/verification.md): glyphs whose ToUnicode map lies (the text
read is not the text drawn), glyph shapes, text drawn as paths or inside images,
overprinting and blend modes, annotations' appearance streams, optional content.

The walk is bounded: at most :data:`MAX_OPERATIONS` content operations (forms included).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

#: The smallest effective font size (points) at which the badge counts as readable.
MIN_FONT_PT = 4.0
#: Content operations looked at on page 1, forms included.
MAX_OPERATIONS = 400_000

Matrix = Tuple[float, float, float, float, float, float]
Box = Tuple[float, float, float, float]  # x0, y0, x1, y1
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_EVERYWHERE: Box = (-math.inf, -math.inf, math.inf, math.inf)


class TooComplex(Exception):
    """Page 1 has more operations than :data:`MAX_OPERATIONS`."""


def mul(m: Any, n: Any) -> Matrix:
    """``m x n`` for PDF matrices ``[a b c d e f]`` (``m`` applied first)."""
    a, b, c, d, e, f = (float(x) for x in m)
    p, q, r, s, t, u = (float(x) for x in n)
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s,
            e * p + f * r + t, e * q + f * s + u)


def apply(m: Matrix, x: float, y: float) -> Tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def bbox(points: List[Tuple[float, float]]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def inside(box: Box, x: float, y: float, tol: float = 0.5) -> bool:
    return box[0] - tol <= x <= box[2] + tol and box[1] - tol <= y <= box[3] + tol


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


class _GState:
    __slots__ = ("tr", "size", "clip", "fill")

    def __init__(self, tr: int, size: float, clip: Box, fill: Optional[float]) -> None:
        self.tr = tr
        self.size = size
        self.clip = clip
        self.fill = fill  # darkness 0 (white) .. 1 (black); None: unknown colour

    def copy(self) -> "_GState":
        return _GState(self.tr, self.size, self.clip, self.fill)


_SHOW = {b"Tj", b"TJ", b"'", b'"'}
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


class Scanner:
    """The visitors of one extraction (see the module docstring)."""

    def __init__(self, crop: Box, resources: Any) -> None:
        self.crop = crop
        self.gs = [_GState(0, 0.0, crop, 1.0)]
        self.base: List[Matrix] = [IDENTITY]  # form XObject space -> page space
        self.resources: List[Any] = [resources]
        self.forms: List[bool] = []  # per Do: did it open a form?
        self.path: List[Tuple[float, float]] = []
        self.path_rects: List[Tuple[List[Tuple[float, float]], bool]] = []
        self.path_curved = False
        self.clip_next = False
        self.ops = 0
        self.rects: List[Rect] = []
        self.other_paint: List[Box] = []
        self.images: List[Box] = []
        self.pending: List[Optional[str]] = []  # per show since the last text: why hidden
        self.text: List[str] = []
        self.visible: List[str] = []
        self.hidden: List[Tuple[str, str]] = []
        self._start: Optional[Tuple[float, float]] = None
        self._last_why: Optional[str] = None
        self._handlers = self._table()

    # -- helpers ------------------------------------------------------------------------
    def _m(self, cm: Any) -> Matrix:
        if len(self.base) == 1:  # no form XObject: page space already
            return cm  # type: ignore[no-any-return]
        return mul(cm, self.base[-1])

    def _end_path(self, op: bytes, cm: Any) -> None:
        gs = self.gs[-1]
        if op in _FILL or op in _STROKE:
            if op in _FILL and not self.path_curved and self.path_rects:
                dark = gs.fill is not None and gs.fill >= 0.5
                for pts, skewed in self.path_rects:
                    self.rects.append(Rect(bbox(pts), dark, skewed))
            if self.path and (op in _STROKE or self.path_curved or not self.path_rects):
                self.other_paint.append(bbox(self.path))
        if self.clip_next and self.path:
            gs.clip = intersect(gs.clip, bbox(self.path))
        self.clip_next = False
        self.path = []
        self.path_rects = []
        self.path_curved = False

    def _why_hidden(self, cm: Any, tm: Any) -> Optional[str]:
        gs = self.gs[-1]
        if gs.tr in (3, 7):
            return "render mode %d (invisible)" % gs.tr
        if len(self.base) > 1 and not all(math.isfinite(x) for x in self.base[-1]):
            return "an unreadable form matrix"
        m = mul(tm, self._m(cm))
        size = abs(gs.size) * math.hypot(m[2], m[3])
        if size < MIN_FONT_PT:
            return "%.2g pt, smaller than %g pt" % (size, MIN_FONT_PT)
        if gs.fill is not None and gs.fill < 0.1:
            return "a white fill colour"
        x, y = m[4], m[5]
        if not inside(self.crop, x, y):
            return "outside the crop box"
        if not inside(gs.clip, x, y):
            return "clipped away"
        self._start = (x, y)
        return None

    # -- the visitors -------------------------------------------------------------------
    def before(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.ops += 1
        if self.ops > MAX_OPERATIONS:
            raise TooComplex("more than %d content operations on page 1" % MAX_OPERATIONS)
        handler = self._handlers.get(op)
        if handler is None:  # cm, w, d, gs, BT, ET, Td, ...: nothing to follow here
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
        for i in range(0, len(args) - 1, 2):
            self.path.append(apply(m, float(args[i]), float(args[i + 1])))
        if op != b"m":
            self.path_curved = True

    def _clip(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.clip_next = True

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
        self.gs[-1].size = float(args[1])

    def _colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].fill = _darkness(args)

    def _other_colour(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.gs[-1].fill = None  # a colour space we do not follow

    def _show(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self.pending.append(self._why_hidden(cm, tm))

    def _xobject(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        self._do(args[0], cm)

    def _inline_image(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        m = self._m(cm)
        self.images.append(bbox([apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1),
                                 apply(m, 1, 1)]))

    def _table(self) -> Dict[bytes, Callable[[bytes, List[Any], Any, Any], None]]:
        """The operators followed, with their handlers (one lookup per operation)."""
        table: Dict[bytes, Callable[[bytes, List[Any], Any, Any], None]] = {
            b"re": self._re, b"m": self._line, b"l": self._line, b"c": self._line,
            b"v": self._line, b"y": self._line, b"W": self._clip, b"W*": self._clip,
            b"n": self._paint, b"q": self._save, b"Q": self._restore, b"Tr": self._tr,
            b"Tf": self._tf, b"g": self._colour, b"rg": self._colour, b"k": self._colour,
            b"sc": self._other_colour, b"scn": self._other_colour, b"cs": self._other_colour,
            b"Do": self._xobject, b"INLINE IMAGE": self._inline_image}
        for o in _FILL | _STROKE:
            table[o] = self._paint
        for o in _SHOW:
            table[o] = self._show
        return table

    def after(self, op: bytes, args: List[Any], cm: Any, tm: Any) -> None:
        if op in _SHOW and self.pending and self.pending[-1] is None:
            try:
                m = mul(tm, self._m(cm))
                x, y = m[4], m[5]
                if not inside(self.crop, x, y):
                    self.pending[-1] = "running out of the crop box"
                elif not inside(self.gs[-1].clip, x, y):
                    self.pending[-1] = "clipped away"
            except (TypeError, ValueError, OverflowError):
                self.pending[-1] = "an unreadable operand"
        elif op == b"Do" and self.forms:
            if self.forms.pop():
                self.base.pop()
                self.resources.pop()

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
            self.forms.append(True)
            self.base.append(mul(mat, m) if len(mat) == 6 else m)
            self.resources.append(xobj.get("/Resources", self.resources[-1]))
            return
        self.forms.append(False)
        if subtype == "/Image":
            self.images.append(bbox([apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1),
                                     apply(m, 1, 1)]))

    def on_text(self, text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if not text:
            return
        self.text.append(text)
        if not text.strip():
            self.visible.append(text)
            return
        if self.pending:
            why = next((w for w in self.pending if w is not None), None)
            self._last_why = why
            self.pending = []
        else:  # more text of the operations already seen (pypdf split it)
            why = self._last_why
        if why is None:
            self.visible.append(text)
        else:
            self.visible.append("\x00")
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


def scan_page(page: Any) -> PageScan:
    """Scan *page* (a pypdf page).  Raises :class:`TooComplex`, or what pypdf raises on
    a content stream it cannot read."""
    crop = page_box(page)
    _check_contents(page)
    try:
        resources = page["/Resources"].get_object()
    except Exception:
        resources = {}
    s = Scanner(crop, resources)
    visitor_text: Callable[..., None] = s.on_text
    page.extract_text(visitor_operand_before=s.before, visitor_operand_after=s.after,
                      visitor_text=visitor_text)
    return PageScan("".join(s.text), "".join(s.visible), s.hidden, s.rects, s.other_paint,
                    s.images, crop)


# -- QR codes drawn with rules --------------------------------------------------------------

class Grid(NamedTuple):
    rows: List[str]  # "1" dark, "0" light
    box: Box
    module: float  # points


def _valid_size(n: int) -> bool:
    return 21 <= n <= 177 and (n - 17) % 4 == 0


def qr_grids(rects: List[Rect]) -> Tuple[List[Grid], int]:
    """Every square grid of modules drawn by dark axis-aligned rectangles whose heights are
    one module and widths whole modules (one rectangle per run of dark modules, as
    pith.sty draws them), and how many such groups did not make a grid."""
    groups: Dict[int, List[Box]] = {}
    for r in rects:
        if not r.dark or r.skewed:
            continue
        x0, y0, x1, y1 = r.box
        h = y1 - y0
        if h <= 0.05 or h > 50:
            continue
        groups.setdefault(int(round(h * 100)), []).append(r.box)
    grids: List[Grid] = []
    odd = 0
    for key, boxes in groups.items():
        if len(boxes) < 15:  # a QR code of version 1 has far more runs
            continue
        h = key / 100.0
        boxes = [b for b in boxes if abs((b[2] - b[0]) / h - round((b[2] - b[0]) / h)) < 0.1]
        x0 = min(b[0] for b in boxes)
        y0 = min(b[1] for b in boxes)
        x1 = max(b[2] for b in boxes)
        y1 = max(b[3] for b in boxes)
        n = int(round((x1 - x0) / h))
        if not _valid_size(n) or abs((y1 - y0) / h - n) > 0.3 or abs((x1 - x0) / h - n) > 0.3:
            odd += 1
            continue
        cells = [[False] * n for _ in range(n)]
        for b in boxes:
            row = int(round((y1 - b[3]) / h))
            col = int(round((b[0] - x0) / h))
            for c in range(col, min(n, col + int(round((b[2] - b[0]) / h)))):
                if 0 <= row < n:
                    cells[row][c] = True
        grids.append(Grid(["".join("1" if c else "0" for c in row) for row in cells],
                          (x0, y0, x1, y1), h))
    return grids, odd
