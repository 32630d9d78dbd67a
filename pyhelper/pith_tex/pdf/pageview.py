"""Page 1 as the readers' PDF engines show it: the one reading of a PDF page that the
verdicts of ``verify`` and ``check`` rest on.

A reader sees what their viewer's engine draws, not what a parser of ours reads.  So page
1 is read by the engines readers use, each on the *same bytes*:

``pdfium``
    PDFium through pypdfium2, in process: Chrome, Edge, Android and many desktop viewers.
``poppler``
    poppler's command-line tools (``pdftotext -bbox-layout``, ``pdftoppm``): Evince,
    Okular, most Linux viewers, and the tools TeX users have.  The bytes go to them on
    standard input, so no file is opened twice (nothing can change between the readings).

Each engine gives a :class:`View`: its text of page 1 as words with boxes and font sizes,
and the QR codes that zxing-cpp decodes from its rendering of page 1 (PDFium also renders
it as printed: :attr:`PageOne.printed`, which :mod:`pith_tex.pdf.printed` compares with
the screen).  The callers compare
the views (the engines may disagree: that is a finding, not an error here).  Where poppler is
not installed, :func:`page_one` says so in :attr:`PageOne.missing` and gives PDFium's view
alone: the caller must name that in its output.

Coordinates are PDF points with the origin at the top-left corner of the page's crop box
and y growing downwards (poppler's convention; PDFium's are turned to it), so both
engines' boxes compare directly.

This module reads PDFium's view and puts both engines' views together (:func:`page_one`);
poppler's is :mod:`pith_tex.pdf.poppler`'s, the shapes of both :mod:`pith_tex.pdf.views`'.
It decides nothing about Pith Numbers or titles: it only reads.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Pattern, Sequence, Tuple

from .marks import page_marks
from .ocr import ocr_regions, read_regions
from .poppler import poppler_missing, poppler_view
from .views import (DPI, Box, EngineFailed, Glyph, Ink, PageOne, Raster, View, Word, dpi_for,
                    qr_found)

# --- PDFium ------------------------------------------------------------------------


def to_view(crop: Box, rotation: int, box: Box) -> Box:
    """A user-space rectangle (x0, y0, x1, y1, y up) in the frame of a view: points from
    the top-left corner of the crop box as the page is displayed (its /Rotate applied,
    clockwise), y down: poppler's frame, and what a reader sees."""
    left, bottom, right, top = crop
    xs, ys = (box[0], box[2]), (box[1], box[3])
    r = rotation % 360
    if r == 90:
        px, py = [y - bottom for y in ys], [x - left for x in xs]
    elif r == 180:
        px, py = [right - x for x in xs], [y - bottom for y in ys]
    elif r == 270:
        px, py = [top - y for y in ys], [right - x for x in xs]
    else:
        px, py = [x - left for x in xs], [top - y for y in ys]
    return (min(px), min(py), max(px), max(py))


def _char_size(textpage: Any, raw: Any, i: int) -> float:
    """The font size a reader sees of character *i*: the size set with Tf times the
    smaller scale of the character's matrix (text matrix and CTM), so that text set at
    ``1 Tf`` and scaled up (Ghostscript's way), or set large and scaled down, has its
    real size."""
    size = raw.FPDFText_GetFontSize(textpage.raw, i)
    m = raw.FS_MATRIX()
    if raw.FPDFText_GetMatrix(textpage.raw, i, m):
        size *= min((m.a * m.a + m.b * m.b) ** 0.5, (m.c * m.c + m.d * m.d) ** 0.5)
    return float(size)


def _pdfium_chars(textpage: Any, raw: Any, crop: Box, rotation: int) -> Any:
    """(index, character, box, size) of each character PDFium reads on page 1 (None for
    the character and box of one it generated: its own spaces and line ends)."""
    for i in range(textpage.count_chars()):
        code = raw.FPDFText_GetUnicode(textpage.raw, i)
        ch = chr(code) if 0 < code < 0x110000 else "\ufffd"
        if raw.FPDFText_IsGenerated(textpage.raw, i) == 1:
            yield i, None, None, 0.0
            continue
        if ch.isspace():
            yield i, ch, None, 0.0
            continue
        x0, y0, x1, y1 = textpage.get_charbox(i, loose=True)
        yield i, ch, to_view(crop, rotation, (x0, y0, x1, y1)), _char_size(textpage, raw, i)


def _pdfium_words(chars: Any) -> Tuple[Word, ...]:
    """PDFium's characters of page 1 joined into words: a word ends at white space, at a
    character PDFium generated (its own spaces and line ends) and at a change of line."""
    words: List[Word] = []
    text: List[str] = []
    box: Optional[List[float]] = None
    size = 0.0

    def flush() -> None:
        nonlocal text, box, size
        if text and box is not None:
            words.append(Word("".join(text), (box[0], box[1], box[2], box[3]), size))
        text, box, size = [], None, 0.0

    for _i, ch, cbox, csize in chars:
        if ch is None or cbox is None:
            flush()
            continue
        b = list(cbox)
        if box is not None and (b[1] >= box[3] or b[3] <= box[1]):
            flush()  # no vertical overlap with the word so far: another line
        if box is None:
            box = b
        else:
            box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
        size = max(size, csize)
        text.append(ch)
    flush()
    return tuple(words)


#: A character paints when hiding its text objects changes at least INK_PIXELS pixels of
#: its box by at least INK_DELTA grey levels (of 255; a fifth of black on white, as
#: translucent text at alpha 0.2 gives), in a rendering where the smallest character is
#: INK_HEIGHT pixels high: honest black glyphs change dozens of pixels by
#: ~255; text hidden, covered or clipped changes none.
INK_DELTA = 48
INK_PIXELS = 3
INK_HEIGHT = 24
MAX_INK = 16  # matches rendered (a page that repeats the badge more is odd, not hidden)
MAX_INK_PIXELS = 8_000_000  # one region's rendering is scaled down beyond this


def _region_pixels(raw: Any, page: Any, region: Box, scale: float) -> Tuple[int, int, bytes]:
    """PDFium's 8-bit grey rendering of *region* (the view's frame) of page 1 at *scale*
    pixels a point, annotations included (a viewer draws them over the page)."""
    import ctypes

    w = max(1, int((region[2] - region[0]) * scale + 0.999))
    h = max(1, int((region[3] - region[1]) * scale + 0.999))
    bitmap = raw.FPDFBitmap_CreateEx(w, h, raw.FPDFBitmap_Gray, None, 0)
    if not bitmap:
        raise EngineFailed("PDFium cannot allocate a %d x %d rendering" % (w, h))
    try:
        raw.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xFFFFFFFF)
        matrix = raw.FS_MATRIX(scale, 0, 0, scale, -region[0] * scale, -region[1] * scale)
        clip = raw.FS_RECTF(0, 0, w, h)
        raw.FPDF_RenderPageBitmapWithMatrix(bitmap, page.raw, matrix, clip, raw.FPDF_ANNOT)
        stride = raw.FPDFBitmap_GetStride(bitmap)
        buf = ctypes.string_at(raw.FPDFBitmap_GetBuffer(bitmap), stride * h)
    finally:
        raw.FPDFBitmap_Destroy(bitmap)
    if stride != w:
        buf = b"".join(buf[r * stride:r * stride + w] for r in range(h))
    return w, h, buf


def _changed(a: bytes, b: bytes, w: int, h: int, box: Box, region: Box,
             scale: float) -> int:
    """How many pixels of *box* differ by INK_DELTA or more between renderings *a*, *b*
    of *region*."""
    x0 = max(0, int((box[0] - region[0]) * scale))
    x1 = min(w, int((box[2] - region[0]) * scale + 0.999))
    y0 = max(0, int((box[1] - region[1]) * scale))
    y1 = min(h, int((box[3] - region[1]) * scale + 0.999))
    n = 0
    for y in range(y0, y1):
        row = y * w
        for pa, pb in zip(a[row + x0:row + x1], b[row + x0:row + x1], strict=False):
            if pa - pb >= INK_DELTA or pb - pa >= INK_DELTA:
                n += 1
    return n


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _core(b: Box) -> Box:
    """The middle of a character's box: a quarter of its smaller side in from each side
    (neighbours' loose boxes touch its edges)."""
    d = min(b[2] - b[0], b[3] - b[1]) / 4
    return (b[0] + d, b[1] + d, b[2] - d, b[3] - d)


def _with_and_without(raw: Any, page: Any, textpage: Any, part: Any, width: float,
                      height: float) -> Optional[Tuple[Box, float, int, int, bytes, bytes]]:
    """The region around *part*'s characters rendered with and without the text objects
    that carry them: (region, scale, width and height in pixels, pixels with, pixels
    without); None when there is nothing to render."""
    import ctypes

    boxes = [c[2] for c in part]
    objects: Dict[int, object] = {}
    for c in part:
        obj = raw.FPDFText_GetTextObject(textpage.raw, c[0])
        if obj:
            objects.setdefault(ctypes.cast(obj, ctypes.c_void_p).value or 0, obj)
    # the region: the characters' boxes and a point around, on the page
    region = (max(0.0, min(b[0] for b in boxes) - 1), max(0.0, min(b[1] for b in boxes) - 1),
              min(width, max(b[2] for b in boxes) + 1),
              min(height, max(b[3] for b in boxes) + 1))
    if region[2] - region[0] < 0.5 or region[3] - region[1] < 0.5 or not objects:
        return None
    least = max(0.1, min(b[3] - b[1] for b in boxes))
    scale = max(DPI / 72.0, INK_HEIGHT / least)
    area = (region[2] - region[0]) * (region[3] - region[1])
    if area * scale * scale > MAX_INK_PIXELS:
        scale = (MAX_INK_PIXELS / area) ** 0.5
    w, h, before = _region_pixels(raw, page, region, scale)
    modes = [(obj, raw.FPDFTextObj_GetTextRenderMode(obj)) for obj in objects.values()]
    try:
        for obj, _mode in modes:
            raw.FPDFTextObj_SetTextRenderMode(obj, raw.FPDF_TEXTRENDERMODE_INVISIBLE)
        _w, _h, after = _region_pixels(raw, page, region, scale)
    finally:
        for obj, mode in modes:
            if mode >= 0:
                raw.FPDFTextObj_SetTextRenderMode(obj, mode)
    return region, scale, w, h, before, after


def _paints(raw: Any, page: Any, textpage: Any, kept: Any, part: Any,
            measure: Sequence[Box], width: float,
            height: float, crop: Box, rotation: int, *, among_part: bool = False
            ) -> Tuple[bool, ...]:
    """Whether each character of *part* (some of *kept*, PDFium's characters of page 1 as
    :func:`_pdfium_chars` gives them, white space left out) paints: page 1 is rendered
    (annotations included) with and without the text objects that carry *part*'s
    characters, and a character paints when the two renderings differ clearly inside its
    box in *measure*, and no other character of *kept* is drawn over its middle (another
    glyph on it makes it unreadable however its own glyph paints; *among_part*: the
    characters of *part* count as others to each other too, and only letters and digits
    over letters and digits count, another one than itself: an accent or a stroke
    composed over a letter, or a letter drawn twice for a bold, leaves it readable)."""

    if not part:
        return ()
    renders = _with_and_without(raw, page, textpage, part, width, height)
    if renders is None:
        return (False,) * len(part)
    region, scale, w, h, before, after = renders

    # (the glyphs' own, tight boxes: loose ones of the lines above and below touch)
    def tight(i: int) -> Box:
        return to_view(crop, rotation, textpage.get_charbox(i))

    mine = set() if among_part else {c[0] for c in part}
    others = [(c[0], c[1], tight(c[0])) for c in kept
              if c[0] not in mine and _overlaps(c[2], region)
              and (not among_part or c[1].isalnum())]
    rows: Dict[int, List[Tuple[int, str, Box]]] = {}  # others by 8-point band: fast look-up
    for i, ch, o in others:
        for r in range(int(o[1] // 8), int(o[3] // 8) + 1):
            rows.setdefault(r, []).append((i, ch, o))

    def covered(c: Any) -> bool:
        if among_part and not c[1].isalnum():
            return False
        own = tight(c[0])
        core = _core(own)
        # (the characters of one ligature glyph, "fi" read as f and i, have its box each)
        return any(i != c[0] and _overlaps(o, core) and not (among_part and ch == c[1])
                   and not (abs(i - c[0]) <= 2 and o == own)
                   for r in range(int(core[1] // 8), int(core[3] // 8) + 1)
                   for i, ch, o in rows.get(r, ()))

    return tuple(_changed(before, after, w, h, b, region, scale) >= INK_PIXELS
                 and not covered(c) for b, c in zip(measure, part, strict=False))


def _ink(raw: Any, page: Any, textpage: Any, chars: Any, pattern: Pattern[str],
         width: float,
         height: float, crop: Box, rotation: int) -> Tuple[Ink, ...]:
    """The :class:`Ink` of each match of *pattern* in PDFium's text of page 1 with the
    white space removed (at most :data:`MAX_INK`)."""
    kept = [c for c in chars if c[1] is not None and c[2] is not None]
    squeezed = "".join(c[1] for c in kept)
    found: List[Ink] = []
    for m in pattern.finditer(squeezed):
        if len(found) >= MAX_INK:
            break
        part = kept[m.start():m.end()]
        if not part:
            continue
        boxes = tuple(c[2] for c in part)
        painted = _paints(raw, page, textpage, kept, part, boxes, width, height, crop,
                          rotation)
        found.append(Ink(m.group(0), boxes, tuple(c[3] for c in part), painted, tuple(
            to_view(crop, rotation, textpage.get_charbox(c[0])) for c in part)))
    return tuple(found)


#: At most this many characters are tested for :func:`pdfium_view`'s *glyphs* (the
#: largest first); the others are not returned.
MAX_GLYPHS = 2000
#: Fewer characters than this on the page: the page's median size is not its body
#: text's, and every character of the part asked for is tested.
GLYPH_BODY_CHARS = 200
#: When nothing in the part asked for is set larger than the body, this many of its
#: topmost characters at the body's size are tested instead.
GLYPH_FALLBACK = 600


def _upright(raw: Any, textpage: Any, i: int, rotation: int) -> bool:
    """Is character *i* drawn upright as the page is displayed (its /Rotate applied)?"""
    import math

    angle = raw.FPDFText_GetCharAngle(textpage.raw, i)
    if angle < 0:
        return True  # PDFium does not know: as most text is
    turned = (math.degrees(angle) + rotation) % 360
    return min(turned, 360 - turned) < 5


def _glyphs(raw: Any, page: Any, textpage: Any, chars: Any, top: float, factor: float,
            width: float,
            height: float, crop: Box, rotation: int) -> Tuple[Glyph, ...]:
    """The :class:`Glyph` of every character in the upper *top* part of the page set at
    least *factor* times the page's median size (every one there on a page of fewer
    than :data:`GLYPH_BODY_CHARS` characters; the topmost :data:`GLYPH_FALLBACK` at the
    median size or larger when none is set larger); and of every other character there that
    is set turned, untested (``painted`` False): where turned text lies, which the
    other engines do not tell."""
    kept = [c for c in chars if c[1] is not None and c[2] is not None]
    sizes = sorted(c[3] for c in kept)
    body = sizes[len(sizes) // 2] if len(sizes) >= GLYPH_BODY_CHARS else 0.0
    part = [c for c in kept if c[2][1] < height * top and c[3] > 0 and c[3] >= body * factor]
    if not part:  # nothing set larger there (a title set at the body's size): the
        # topmost text at the body's size or larger, where such a title is
        part = sorted((c for c in kept if c[2][1] < height * top and c[3] > 0
                       and c[3] >= body), key=lambda c: c[2][1])[:GLYPH_FALLBACK]
    if len(part) > MAX_GLYPHS:
        largest = set(c[0] for c in sorted(part, key=lambda c: -c[3])[:MAX_GLYPHS])
        part = [c for c in part if c[0] in largest]

    def measured(c: Any) -> Box:
        b = to_view(crop, rotation, textpage.get_charbox(c[0]))
        return b if b[2] - b[0] > 0.05 and b[3] - b[1] > 0.05 else c[2]

    painted = _paints(raw, page, textpage, kept, part, [measured(c) for c in part], width,
                      height, crop, rotation, among_part=True)
    tested = {c[0] for c in part}
    turned = [c for c in kept if c[0] not in tested and c[2][1] < height * top
              and not _upright(raw, textpage, c[0], rotation)][:MAX_GLYPHS]
    return tuple(Glyph(c[1], c[2], c[3], p, _upright(raw, textpage, c[0], rotation))
                 for c, p in zip(part, painted, strict=False)) + tuple(
        Glyph(c[1], c[2], c[3], False, False) for c in turned)


def raster_ink(raster: Raster, box: Box) -> bool:
    """Does *raster* (page 1 as one engine rendered it) show ink in *box* (the view's
    frame): at least :data:`INK_PIXELS` pixels that differ by :data:`INK_DELTA` or more
    from the box's middle grey level (its background: dark text on light paper and
    light text on a dark panel alike)?  A box that is one flat colour (text hidden,
    white on white, covered, clipped) has none."""
    k = raster.dpi / 72.0
    x0, x1 = max(0, int(box[0] * k)), min(raster.width, int(box[2] * k + 0.999))
    y0, y1 = max(0, int(box[1] * k)), min(raster.height, int(box[3] * k + 0.999))
    values = sorted(b for y in range(y0, y1)
                    for b in raster.pixels[y * raster.width + x0:y * raster.width + x1])
    if not values:
        return False
    middle = values[len(values) // 2]
    return sum(1 for v in values if abs(v - middle) >= INK_DELTA) >= INK_PIXELS


#: The resolution at which a decoded QR code's box is measured again: a pixel is 0.04 mm,
#: so a module's size is known to about 1 % (at 150 dpi, 5 %: too coarse to tell a
#: 0.243 mm module from the 0.25 mm floor verify holds codes to).
QR_MEASURE_DPI = 600
QR_MEASURE_PIXELS = 8_000_000


def _finer(raw: Any, page: Any,
           code: Tuple[Optional[str], Box, Tuple[Tuple[float, float], ...]]) -> Any:
    """*code* (from :func:`qr_found` on the page's rendering) with its box measured again
    in a rendering of its surroundings at :data:`QR_MEASURE_DPI`; as it was when that
    rendering would be too large (a code that big is far above any size floor) or does
    not show the same code."""
    text, box, corners = code
    if text is None:
        return code
    pad = 0.2 * (box[2] - box[0]) + 4
    region = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
    scale = QR_MEASURE_DPI / 72.0
    if (region[2] - region[0]) * (region[3] - region[1]) * scale * scale > QR_MEASURE_PIXELS:
        return code
    w, h, pixels = _region_pixels(raw, page, region, scale)
    px = 1 / scale  # qr_found's box runs to the far edge of the last pixel: centre to centre
    for t, b, _ in qr_found(Raster(w, h, float(QR_MEASURE_DPI), pixels)):
        if t == text:
            return text, (region[0] + b[0], region[1] + b[1], region[0] + b[2] - px,
                          region[1] + b[3] - px), corners
    return code


def _pixels(bitmap: Any) -> bytes:
    """A pypdfium2 bitmap's rows without their padding."""
    w, h, stride = bitmap.width, bitmap.height, bitmap.stride
    buf = bytes(bitmap.buffer)
    return buf if stride == w else b"".join(buf[r * stride:r * stride + w] for r in range(h))


def pdfium_view(data: bytes, *, dpi: float = DPI, ink: Optional[Pattern[str]] = None,
                meta: Sequence[str] = (), glyphs: Optional[Tuple[float, float]] = None,
                index: int = 0) -> View:
    """PDFium's view of page 1 of the PDF *data*; with *ink*, the :class:`Ink` of each
    match of that pattern in its text (white space removed); with *meta*, the Info
    values of those keys as PDFium reads them (FPDF_GetMetaText); with *glyphs*
    ``(top, factor)``, the :class:`Glyph` of each character in the upper *top* part of
    the page set at least *factor* times the page's median size.  *index*: the page
    read instead of page 1 (0-based)."""
    return _pdfium_views(data, dpi=dpi, ink=ink, meta=meta, glyphs=glyphs, index=index,
                         printed=False)[0]


def _pdfium_views(data: bytes, *, dpi: float, ink: Optional[Pattern[str]],
                  meta: Sequence[str], glyphs: Optional[Tuple[float, float]], index: int,
                  printed: bool) -> Tuple[View, Optional[View]]:
    """:func:`pdfium_view`, and with *printed* the page as PDFium prints it
    (:attr:`PageOne.printed`), from the same document."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise EngineFailed("PDFium cannot open the PDF: %s" % e) from None
    try:
        pages = len(pdf)
        if pages < 1 + index:
            raise EngineFailed("PDFium finds no page %d in the PDF" % (index + 1))
        page = pdf[index]
        crop = _crop_box(raw, page)
        rotation = int(page.get_rotation())
        width, height = page.get_size()
        textpage = page.get_textpage()
        chars = list(_pdfium_chars(textpage, raw, crop, rotation))
        words = _pdfium_words(chars)
        scale = dpi_for(width, height, dpi) / 72.0
        bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True)
        raster = Raster(bitmap.width, bitmap.height, scale * 72.0, _pixels(bitmap))
        printing: Optional[Raster] = None
        if printed:  # as Chrome prints: print-flagged annotations, layers' print state
            bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True,
                                 extra_flags=raw.FPDF_PRINTING)
            printing = Raster(bitmap.width, bitmap.height, scale * 72.0, _pixels(bitmap))
        marks = tuple((kind, text, box if kind == "cap" else to_view(crop, rotation, box))
                      for kind, text, box in page_marks(raw, page))
        inks = () if ink is None else _ink(raw, page, textpage, chars, ink, width, height,
                                              crop, rotation)
        tested = () if glyphs is None else _glyphs(raw, page, textpage, chars, glyphs[0],
                                                   glyphs[1], width, height, crop, rotation)
        values = []
        for key in meta:
            value = pdf.get_metadata_value(key)
            if value:
                values.append((key, value))
        found = tuple(_finer(raw, page, code) for code in qr_found(raster))
        reads, unread = read_regions(ocr_regions(inks, width, height), lambda r: _region_pixels(
            raw, page, r.box, r.scale))
    except pdfium.PdfiumError as e:
        raise EngineFailed("PDFium cannot read page 1: %s" % e) from None
    finally:
        pdf.close()
    codes = [c for c in found if c[0] is not None]
    screen = View("pdfium", pdfium.version.PDFIUM_INFO.version, pages, float(width),
                  float(height), words, tuple(c[0] for c in codes), crop,
                  rotation, inks, tuple(values), tuple(c[1] for c in codes),
                  tuple(c[1] for c in found if c[0] is None), raster,
                  tuple(c[2] for c in codes), marks=marks, glyphs=tested,
                  read=reads, unread=unread)
    return screen, None if printing is None else _printed_view(screen, printing)


def _crop_box(raw: Any, page: Any) -> Box:
    """The crop box in user space (l, b, r, t), inherited from the page tree where the
    page has none (pypdfium2's get_cropbox falls back to US Letter then)."""
    rect = raw.FS_RECTF()
    if not raw.FPDF_GetPageBoundingBox(page.raw, rect):
        raise EngineFailed("PDFium cannot read page 1's crop box")
    return (float(min(rect.left, rect.right)), float(min(rect.bottom, rect.top)),
            float(max(rect.left, rect.right)), float(max(rect.bottom, rect.top)))


def _printed_view(screen: View, printing: Raster) -> View:
    """PDFium's view of the page as printed: the *screen* view with the print rendering
    *printing* and the QR codes read from it."""
    if screen.raster is not None and printing.pixels == screen.raster.pixels:
        # the same pixels hold the same codes
        return screen._replace(engine="pdfium-print", ink=(), read=(), raster=printing)
    found = qr_found(printing)
    codes = [(text, box, corners) for text, box, corners in found if text is not None]
    return screen._replace(
        engine="pdfium-print", codes=tuple(c[0] for c in codes), ink=(), read=(), raster=printing,
        code_boxes=tuple(c[1] for c in codes), code_corners=tuple(c[2] for c in codes),
        unreadable=tuple(c[1] for c in found if c[0] is None))


# --- both --------------------------------------------------------------------------


#: At most this many pages are read after page 1 when *then* asks for them.
MAX_FOLLOWING = 2


def page_one(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None,
             ink: Optional[Pattern[str]] = None, meta: Sequence[str] = (),
             glyphs: Optional[Tuple[float, float]] = None,
             then: Optional[Callable[["PageOne"], bool]] = None, index: int = 0) -> PageOne:
    """Page 1 of the PDF *data* as every engine available here shows it (*ink*, *meta*,
    *glyphs* and *index*: see :func:`pdfium_view` and :func:`poppler_view`); when *then*
    says so of it, the next page too (:attr:`PageOne.following`, with *glyphs* alone).

    Raises :class:`EngineFailed` when an engine cannot read page 1 at all: an engine that
    cannot show the page is a finding the caller reports (could not check).
    """
    first, printed = _pdfium_views(data, dpi=dpi, ink=ink, meta=meta, glyphs=glyphs,
                                   index=index, printed=index == 0)
    missing = poppler_missing()
    if missing is not None:
        shown = PageOne((first,), (missing,), printed)
    else:
        second = poppler_view(data, dpi=dpi, deadline=deadline, index=index,
                              width_hint=(first.width, first.height), meta=meta,
                              regions=ocr_regions(first.ink, first.width, first.height))
        shown = PageOne((first, second), (), printed)
    if (then is not None and first.pages is not None and first.pages > index + 1
            and index < MAX_FOLLOWING and then(shown)):
        try:
            shown = shown._replace(following=page_one(data, dpi=dpi, deadline=deadline,
                                                      glyphs=glyphs, then=then,
                                                      index=index + 1))
        except EngineFailed:
            pass  # the caller finds no following page, and says so
    return shown
