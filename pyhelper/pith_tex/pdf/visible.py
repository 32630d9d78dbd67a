"""What page 1 shows, as the readers' engines show it: the ``badge``, ``qr`` and
``viewers`` checks of ``pith-tex verify paper.pdf``.

The verdicts rest on :mod:`pith_tex.pdf.pageview` (PDFium and poppler, each reading the same
bytes; zxing-cpp decoding their renderings), never on a reading of our own:

``badge``
    every engine finds the claimed ``pith:YYYY:NUM`` in its text of page 1, inside the
    crop box, at :data:`MIN_FONT_PT` or more; every character of one such copy really
    paints (PDFium renders page 1 with and without the text objects carrying it:
    :class:`pith_tex.pdf.pageview.Ink`); no engine reads another Pith Number anywhere in page
    1's text or its links; every link over the badge opens the number's Pith page.
``qr``
    every engine's rendering of page 1 decodes to exactly ``HTTPS://PITH.SCIENCE/pith/NUM``
    and to no other code; links over the code open that page.
``viewers``
    which engines (and versions) were asked; poppler missing is said here.

Engines that disagree (one shows the number, another does not) make the check an error
(exit 3: "viewers disagree"), naming which engine showed what.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..record.identifier import URL_BASE
from .pageview import INK_DELTA, to_view
from .views import Box, PageOne, Raster, View
from .links import Link, link_problem
from ..errors import show
from ..include.qr import qr_rows, qr_text

#: Text smaller than this (points) is not shown to a reader.
MIN_FONT_PT = 4.0
#: poppler gives no font size: a word's box is the font's ascent to descent, 0.7-1.2 em
#: in the fonts TeX uses, so a box this much of MIN_FONT_PT high stands for it.
POPPLER_HEIGHT = 0.6
#: The smallest QR module (points) that counts as scannable: 0.25 mm, the usual floor for
#: printed codes (pith.sty's default 2 cm code has 0.54 mm modules).
MIN_QR_MODULE_PT = 0.25 / 25.4 * 72
#: The side under which a link is not pith.sty's over its QR code (its smallest code,
#: qr-size 9.25 mm, is 26 pt).
MIN_QR_LINK_PT = 20.0

# The visible badge in page 1's text, with every whitespace removed first (extractors
# may split the monospaced string or put spaces between its glyphs).
BADGE_RE = re.compile(r"pith:(?:([0-9]{4}):)?([A-Z2-7]{26})")
# Any Pith Number on the page: full or short (8+ characters), or in a Pith URL.
_ANY_RE = re.compile(r"pith:(?:([0-9]{4}):)?([A-Z2-7]{8,26})")
_URL_NUMBER_RE = re.compile(r"(?i)pith\.science/pith/([A-Z2-7]{8,26})")
# In what a link opens: also with a port, dot segments or doubled slashes on the way to
# /pith/ (a browser normalises them away).
_LINK_NUMBER_RE = re.compile(r"(?i)pith\.science[^\s'\"<>]*?/pith/+([A-Z2-7]{8,26})")
# The same in any letter case (``PITH:2025:...``, a lower-case number: base32 is read
# either way), with the year, so that a title such as "PITH: A NEW METHOD" is not one.
_ANY_CASE_RE = re.compile(r"(?i)pith:([0-9]{4}):([A-Z2-7]{8,26})")

_NAMES = {"pdfium": "PDFium", "poppler": "poppler"}


def display(year: Optional[int], number: str) -> str:
    return "pith:%d:%s" % (year, number) if year is not None else "pith:%s" % number


def visible_numbers(text: str) -> List[Tuple[Optional[int], str]]:
    """Every ``pith:YYYY:NUM`` / ``pith:NUM`` in *text*, as ``(year or None, NUM)``."""
    squeezed = "".join(text.split())
    return [(int(m.group(1)) if m.group(1) else None, m.group(2))
            for m in BADGE_RE.finditer(squeezed)]


def other_numbers(text: str, links: Tuple[str, ...], number: str,
                  year: Optional[int]) -> List[str]:
    """Every Pith Number in *text* (whitespace removed) or *links* that is not *number*
    (nor a short form of it) of *year*: ``pith:YYYY:XXXXXXXX...`` forms and numbers in
    Pith URLs, as they appear."""
    squeezed = "".join(text.split())
    found: List[str] = []
    for m in _ANY_RE.finditer(squeezed):
        n, y = m.group(2), m.group(1)
        if not number.startswith(n) or (y is not None and year is not None
                                        and int(y) != year):
            found.append(m.group(0))
    for m in _ANY_CASE_RE.finditer(squeezed):
        n = m.group(2).upper()
        if (not number.startswith(n) or (year is not None and int(m.group(1)) != year)) \
                and m.group(0) not in found:
            found.append(m.group(0))
    for where, pattern in [(squeezed, _URL_NUMBER_RE),
                           *((link, _LINK_NUMBER_RE) for link in links)]:
        for m in pattern.finditer(where):
            if m.group(1).upper() != number:
                found.append(m.group(0))
    return found


def _name(view: View) -> str:
    return "%s %s" % (_NAMES.get(view.engine, view.engine), view.version.split("@")[0])


def _ours(m_year: Optional[str], m_number: str, number: str, year: Optional[int]) -> bool:
    y = int(m_year) if m_year else None
    return m_number == number and (y is None or year is None or y == year)


def _inside(box: Box, view: View) -> bool:
    tol = 0.5
    return (-tol <= box[0] and box[2] <= view.width + tol
            and -tol <= box[1] and box[3] <= view.height + tol)


def _text_copies(view: View, number: str, year: Optional[int]) -> List[Tuple[Box, float]]:
    """Each copy of the number in *view*'s words (white space removed), as the union of
    the boxes of the words it is read from and the smallest of their sizes."""
    where: List[int] = []
    chars: List[str] = []
    for k, w in enumerate(view.words):
        for ch in w.text:
            if not ch.isspace():
                chars.append(ch)
                where.append(k)
    squeezed = "".join(chars)
    copies = []
    for m in BADGE_RE.finditer(squeezed):
        if not _ours(m.group(1), m.group(2), number, year):
            continue
        words = [view.words[k] for k in sorted(set(where[m.start():m.end()]))]
        box = (min(w.box[0] for w in words), min(w.box[1] for w in words),
               max(w.box[2] for w in words), max(w.box[3] for w in words))
        copies.append((box, min(w.size for w in words)))
    return copies


def _laid_out(boxes: Sequence[Box], sizes: Sequence[float]) -> bool:
    """Whether characters in *boxes* are set one after the other, as a reader reads a
    word: each next one 0.1 to 1.5 em on along the line and at most half an em off it,
    or at the start of a following line (0.8 to 3.5 em on across it, back to the line's
    start); the line runs across the page or, for text turned a quarter, down it.
    Glyphs piled on each other, or set far apart, are no badge."""
    if len(boxes) < 2:
        return True
    cs = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]
    first = (cs[1][0] - cs[0][0], cs[1][1] - cs[0][1])
    if abs(first[1]) > abs(first[0]):  # turned: along y, across x (either way round)
        sign = 1.0 if first[1] > 0 else -1.0
        cs = [(y * sign, -x * sign) for x, y in cs]
    elif first[0] < 0:  # upside down (a page with /Rotate 180): along -x, across -y
        cs = [(-x, -y) for x, y in cs]
    for (x0, y0), (x1, y1), size in zip(cs, cs[1:], sizes, strict=False):
        along, across = x1 - x0, y1 - y0
        if abs(across) <= 0.5 * size and 0.1 * size <= along <= 1.5 * size:
            continue
        if 0.8 * size <= across <= 3.5 * size and along < 0:  # the next line's start
            continue
        return False
    return True


def _big_enough(view: View, size: float) -> bool:
    if view.engine == "poppler":
        return size >= POPPLER_HEIGHT * MIN_FONT_PT
    return size >= MIN_FONT_PT


class _Seen:
    """What one engine shows of the number."""

    def __init__(self, view: View, number: str, year: Optional[int]) -> None:
        self.view = view
        copies = _text_copies(view, number, year)
        self.any = bool(copies)
        self.inside = [c for c in copies if _inside(c[0], view)]
        self.readable = [c for c in self.inside if _big_enough(view, c[1])]
        # PDFium's copies whose every character paints, inside the crop box, big enough
        self.painted: List[Box] = []
        self.glyphs: List[Tuple[Box, ...]] = []  # the characters' boxes of each painted copy
        self.unpainted = 0
        self.piled = False  # a copy whose characters are not set one after the other
        for ink in view.ink:
            m = BADGE_RE.fullmatch(ink.text)
            if m is None or not _ours(m.group(1), m.group(2), number, year):
                continue
            if not all(_inside(b, view) for b in ink.boxes) or min(ink.sizes) < MIN_FONT_PT:
                continue
            if not _laid_out(ink.boxes, ink.sizes):
                self.unpainted = max(self.unpainted, 1)
                self.piled = True
                continue
            if all(ink.painted):
                self.glyphs.append(ink.boxes)
                self.painted.append((min(b[0] for b in ink.boxes), min(b[1] for b in ink.boxes),
                                     max(b[2] for b in ink.boxes), max(b[3] for b in ink.boxes)))
            else:
                self.unpainted = max(self.unpainted, sum(not p for p in ink.painted))

    @property
    def shows(self) -> bool:
        return bool(self.readable)

    def why_not(self) -> str:
        if not self.any:
            return "no copy of it in its text of page 1"
        if not self.inside:
            return "its copies lie outside the crop box"
        return "its copies are smaller than %g pt" % MIN_FONT_PT


def _said(page: PageOne) -> str:
    return "" if not page.missing else " (PDFium alone: %s)" % "; ".join(page.missing)


def viewers_check(page: PageOne) -> Check:
    names = " and ".join(_name(v) for v in page.views)
    if page.missing:
        return Check("viewers", WARN, "page 1 was read by %s alone: %s; the badge and the "
                     "QR code were decided on what PDFium shows" % (names,
                                                                 "; ".join(page.missing)))
    return Check("viewers", OK, "page 1 was read by %s (the badge and the QR code are what "
                 "they show)" % names)


def unreadable(page: PageOne) -> Optional[str]:
    """Why no verdict can rest on what the engines show of page 1, or None: an engine had
    to repair it (each viewer repairs its own way), or it draws text that reads as no
    text at all (fonts without a Unicode map: the badge could be there or not)."""
    for view in page.views:
        if view.errors:
            return "%s reports errors reading page 1 (%s): viewers repair such a page each " \
                   "their own way" % (_name(view), view.errors[0])
    first = page.views[0]
    if first.words and not any(ch.isalnum() for w in first.words for ch in w.text):
        return ("page 1 draws text (%d words) that reads as no text at all in %s (fonts "
                "without a Unicode map?)" % (len(first.words), _name(first)))
    return None


def badge_check(page: PageOne, number: str, year: Optional[int], links: Tuple[str, ...],
                areas: Union[Tuple[Link, ...], str]) -> Check:
    claimed = display(year, number)
    why = unreadable(page)
    if why is not None:
        return Check("badge", ERROR, "not checked: %s" % why)
    for view in page.views:
        others = other_numbers(view.text, links, number, year)
        if others:
            return Check("badge", FAIL, "page 1 shows %s (as %s reads it), but the metadata "
                         "says %s" % (others[0], _name(view), claimed))
    if isinstance(areas, str):  # a link not read may open another number
        return Check("badge", ERROR, "not checked: could not read page 1's links (%s)"
                     % areas)
    seen = [_Seen(v, number, year) for v in page.views]
    showing = [s for s in seen if s.shows]
    if not showing and not any(s.any for s in seen):
        return Check("badge", WARN, "page 1 shows no pith:NUMBER badge (hide option?): only "
                     "the metadata was checked" + _said(page))
    if len(showing) != len(seen):
        if showing:
            return Check("badge", ERROR, "viewers disagree: %s; what a reader sees depends on "
                         "the viewer" % "; ".join(
                             "%s shows %s" % (_name(s.view), claimed) if s.shows else
                             "%s does not (%s)" % (_name(s.view), s.why_not()) for s in seen))
        return Check("badge", FAIL, "page 1 has %s only where it is not visible (%s)"
                     % (claimed, seen[0].why_not() if not seen[0].shows else
                        seen[-1].why_not()))
    pdfium = seen[0]
    if not pdfium.painted and pdfium.piled:
        return Check("badge", FAIL, "page 1 has %s only where it is not readable (its "
                     "characters are not set one after the other: piled on each other, or "
                     "spread apart)" % claimed)
    if not pdfium.painted:
        for s in seen[1:]:  # another engine puts ink there: they disagree
            if s.view.raster is not None and any(
                    all(_has_ink(s.view.raster, b) for b in ink.boxes)
                    for ink in pdfium.view.ink if BADGE_RE.fullmatch(ink.text)):
                return Check("badge", ERROR, "viewers disagree: %s's rendering has ink where "
                             "%s is, but PDFium paints nothing there (its characters drawn "
                             "with and without their text look the same)"
                             % (_name(s.view), claimed))
        return Check("badge", FAIL, "page 1 has %s only where it is not visible (not painted: "
                     "PDFium draws the same pixels there with and without its text, %d "
                     "character%s not painted; white, covered, clipped, hidden or "
                     "transparent text)" % (claimed, pdfium.unpainted,
                                            "" if pdfium.unpainted == 1 else "s"))
    # the other engines must put ink where PDFium paints (a colour, a colour space, an
    # operand count read otherwise leaves one engine's glyphs white)
    for s in seen[1:]:
        if s.view.raster is None:
            continue
        if not any(all(_has_ink(s.view.raster, b) for b in copy) for copy in pdfium.glyphs):
            return Check("badge", ERROR, "viewers disagree: PDFium paints %s, but %s's "
                         "rendering has no ink where its characters are; what a reader sees "
                         "depends on the viewer" % (claimed, _name(s.view)))
    misread = _pixels_check(page, number, year)
    if misread is not None:
        return misread
    return _link_check(pdfium.view, pdfium.painted, number, year, areas, page)


# What OCR reads, folded as a reader reads base32: either case; 0, 1, 8 (not in base32)
# as O, I, B.  In the year, the letters that look like digits are read as those digits.
_FOLD = str.maketrans("018", "OIB")
_YEAR_FOLD = str.maketrans("OQDILZSBGT", "0001125867")
_READ_RE = re.compile(r"(?:([0-9OQDILZSBGT]{4}):)?([0-9A-Z]+)")


def pixels_read_as(read: str, number: str, year: Optional[int]) -> bool:
    """Whether *read* (OCR of a badge: ``pith:YYYY:NUM``) shows *number* of *year*: its
    last field is the number (folded: either case, 0, 1, 8 as O, I, B), the one before
    it the year."""
    squeezed = "".join(read.split()).upper()
    tail = squeezed.rsplit(":", 2)
    m = _READ_RE.fullmatch(":".join(tail[-2:]))
    # a W may be read as two of V and W (a proportional font set tight, its neighbour
    # touching it): 27 characters, which no reader takes for another number
    want = "".join("(?:W|[VW]{2})" if c == "W" else c for c in number)
    if m is None or re.fullmatch(want, m.group(2).translate(_FOLD)) is None:
        return False
    if year is None:
        return True
    return m.group(1) is not None and m.group(1).translate(_YEAR_FOLD) == "%04d" % year


def _pixels_check(page: PageOne, number: str, year: Optional[int]) -> Optional[Check]:
    """The badge as each engine's pixels show it (OCR where the text layer locates it):
    None when every engine's rendering reads as the claimed number somewhere."""
    claimed = display(year, number)
    for view in page.views:
        if view.unread is not None:
            return Check("badge", ERROR, "not checked: the badge is read from the pixels, "
                         "and %s" % view.unread)
        ours = [r for r in view.read if _matches(r.text, number, year)]
        if any(pixels_read_as(r.read, number, year) for r in ours):
            continue
        if not ours:
            return Check("badge", ERROR, "not checked: the pixels of %s were not read in "
                         "%s's rendering" % (claimed, _name(view)))
        return Check("badge", FAIL, "page 1's text says %s, but its pixels read %s in "
                     "%s's rendering: the glyphs drawn are not the characters the text "
                     "claims (a font's Unicode map or /Differences, a Type 3 font, "
                     "/ActualText, or text under an image); rebuild the PDF with pith.sty "
                     "from the paper's source" % (claimed, _show(" ".join(
                         ours[0].read.split()) or "nothing"), _name(view)))
    return None


def _matches(text: str, number: str, year: Optional[int]) -> bool:
    m = BADGE_RE.fullmatch(text)
    return m is not None and _ours(m.group(1), m.group(2), number, year)


#: A character has ink in a rendering when this many of its box's pixels are darker than
#: INK_DARK (of 255): as much darker than the white page as PDFium's ink test asks
#: (pageview.INK_DELTA).  Glyphs left white have none; a 4 pt colon, anti-aliased to
#: greys of 120 to 175 at 150 dpi, has (at 128 poppler's view of a beamer slide's small
#: badge "had no ink", and verify said the viewers disagree).
INK_DARK = 255 - INK_DELTA
INK_DARK_PIXELS = 2


def _has_ink(raster: Raster, box: Box) -> bool:
    k = raster.dpi / 72.0
    x0, x1 = max(0, int(box[0] * k)), min(raster.width, int(box[2] * k + 0.999))
    y0, y1 = max(0, int(box[1] * k)), min(raster.height, int(box[3] * k + 0.999))
    n = 0
    for y in range(y0, y1):
        row = raster.pixels[y * raster.width + x0:y * raster.width + x1]
        n += sum(1 for v in row if v < INK_DARK)
        if n >= INK_DARK_PIXELS:
            return True
    return False


def _modules(view: View, corners: Tuple[Tuple[float, float], ...], n: int) -> List[str]:
    """The n x n modules of a code zxing-cpp located at *corners* in *view*'s raster, as
    rows of "1" (dark) and "0" (qr_rows's form), read as the page shows them (a turned
    code reads turned: the caller compares its turns).  The symbol's edges are found on
    the pixels (its finder patterns' dark outer rings), as zxing-cpp's corners may be a
    pixel off, and each module is read at its centre."""
    raster = view.raster
    assert raster is not None
    w, px = raster.width, raster.pixels
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    x0, x1, y0, y1 = int(min(xs)), int(max(xs)), int(min(ys)), int(max(ys))
    m = max(1, int((x1 - x0 + 1) / n))
    span = 7 * m - 1

    def dark(x: int, y: int) -> bool:
        return 0 <= x < w and 0 <= y < raster.height and px[y * w + x] < 128

    def row_dark(y: int, a: int, b: int) -> bool:
        return sum(dark(x, y) for x in range(a, b)) >= 0.8 * (b - a)

    def col_dark(x: int, a: int, b: int) -> bool:
        return sum(dark(x, y) for y in range(a, b)) >= 0.8 * (b - a)

    def edge(cands: range, ok: Callable[[int], bool]) -> Optional[int]:
        return next((c for c in cands if ok(c)), None)

    top = edge(range(y0 - 2, y0 + 3), lambda y: row_dark(y, x0, x0 + span)
               or row_dark(y, x1 - span, x1 + 1))
    bottom = edge(range(y1 + 2, y1 - 3, -1), lambda y: row_dark(y, x0, x0 + span)
                  or row_dark(y, x1 - span, x1 + 1))
    left = edge(range(x0 - 2, x0 + 3), lambda x: col_dark(x, y0, y0 + span)
                or col_dark(x, y1 - span, y1 + 1))
    right = edge(range(x1 + 2, x1 - 3, -1), lambda x: col_dark(x, y0, y0 + span)
                 or col_dark(x, y1 - span, y1 + 1))
    if None in (top, bottom, left, right):
        return []
    left_x, top_y = float(left), float(top)  # type: ignore[arg-type]
    sx, sy = (right - left + 1) / n, (bottom - top + 1) / n  # type: ignore[operator]
    # five points in each module's middle (its centre, and a fifth of a module from it
    # each way), three dark ones make it dark: a pixel of the anti-aliased edge between
    # two modules does not decide
    spots = ((0.5, 0.5), (0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7))
    return ["".join("1" if sum(dark(int(left_x + (j + u) * sx), int(top_y + (i + v) * sy))
                               for u, v in spots) >= 3 else "0"
                    for j in range(n)) for i in range(n)]


def _turns(rows: List[str]) -> List[List[str]]:
    """*rows* and its three quarter turns."""
    out = [rows]
    for _ in range(3):
        r = out[-1]
        out.append(["".join(r[len(r) - 1 - i][j] for i in range(len(r))) for j in range(len(r))])
    return out


def _link_check(view: View, copies: List[Box], number: str, year: Optional[int],
                areas: Tuple[Link, ...], page: PageOne) -> Check:
    """The badge is shown: every link over it must open its Pith page (a badge that
    links elsewhere sends the reader to another page than the one it names)."""
    seen = "page 1 shows %s (visible: at least %g pt, painted, inside the crop box, in %s)" % (
        display(year, number), MIN_FONT_PT, " and ".join(_name(v) for v in page.views))

    def place(box: Box) -> Box:
        return to_view(view.crop, view.rotation, box)

    over = [link for link in areas if any(_overlaps(place(link.box), b) for b in copies)]
    for link in over:
        problem = link_problem(link, number)
        if problem is not None:
            return Check("badge", FAIL, "a link over the badge %s %s"
                         % (display(year, number), problem))
    spots = [place(q) for link in over if not link.hidden for q in (link.quads or (link.box,))]
    if not over:
        return Check("badge", WARN, "%s, but it is not a link to its Pith page (pith.sty "
                     "links it on every route, with or without hyperref, unless the "
                     "document turns hyperref's links off)" % seen)
    if not spots:
        return Check("badge", WARN, "%s, but the only links over it are hidden (flagged "
                     "hidden or not viewed, or in a layer that is off): a viewer may not "
                     "make it clickable" % seen)
    if not any(_covered(c, spots) for c in copies):
        return Check("badge", WARN, "%s, but only part of it is a link to its Pith page "
                     "(the links over it, their /QuadPoints where a viewer reads them, do "
                     "not cover it)" % seen)
    return Check("badge", OK, "%s, linked to %s%s" % (seen, URL_BASE, number))


def _qr_link(areas: Union[Tuple[Link, ...], str], number: str) -> bool:
    """Whether page 1 has the link pith.sty puts over its QR code: a square of at least
    :data:`MIN_QR_LINK_PT` a side opening the number's Pith page (the badge's link is a
    line of text)."""
    if isinstance(areas, str):
        return True  # not read: a code pith.sty drew cannot be ruled out
    for link in areas:
        w, h = abs(link.box[2] - link.box[0]), abs(link.box[3] - link.box[1])
        if (min(w, h) >= MIN_QR_LINK_PT and 0.8 <= w / h <= 1.25
                and link_problem(link, number) is None):
            return True
    return False


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _covered(box: Box, areas: Sequence[Box]) -> bool:
    """Whether *areas* hold the middle line of *box* from end to end (five points along
    it, half a point of tolerance)."""
    y = (box[1] + box[3]) / 2
    return all(any(a[0] - 0.5 <= x <= a[2] + 0.5 and a[1] - 0.5 <= y <= a[3] + 0.5
                   for a in areas)
               for x in (box[0] + (box[2] - box[0]) * k / 4 for k in range(5)))


def _not_pith_code(page: PageOne, want: str, number: str) -> Optional[Check]:
    """A FAIL when the code that decodes to *want* is not pith.sty's, module for module."""
    rows = qr_rows(number)
    modules = len(rows)
    # the code drawn is pith.sty's, module for module, in the engine that reads it best
    # (an anti-aliased rendering may blur a module or two in one engine, never the same
    # ones in both: a module really changed differs in every engine)
    diffs = []
    for view in page.views:
        for text, corners in zip(view.codes, view.code_corners, strict=False):
            if text != want or view.raster is None:
                continue
            side = max(c[0] for c in corners) - min(c[0] for c in corners)
            if side < 2.5 * modules:
                continue  # under 2.5 pixels a module: not read module for module here
            got = _modules(view, corners, modules)
            diffs.append((min(sum(a != b for r, g in zip(t, got, strict=False) for a, b in zip(r, g, strict=False))
                              for t in _turns(rows)) if got else modules * modules, view))
    if diffs and min(d for d, _ in diffs) > 0:
        diff, view = min(diffs, key=lambda dv: dv[0])
        return Check("qr", FAIL, "page 1's QR code decodes to %s, but it is not pith.sty's "
                     "code of it (%d of its %d modules differ in %s's rendering, the "
                     "closest: a scanner corrects them, or reads another code where more "
                     "differ); if its include came from an older pith-tex, run pith-tex "
                     "fetch and recompile" % (want, diff, modules * modules, _name(view)))
    return None


def _too_small(page: PageOne, want: str, number: str) -> Optional[Check]:
    """A FAIL when the code of *want* is drawn with modules too small to scan."""
    modules = len(qr_rows(number))
    # the size as PDFium measures it (pageview renders the code again at 600 dpi for it;
    # anti-aliasing widens a code by a fraction of a pixel there, hence the 0.5 %: pith.sty's
    # smallest qr-size, 9.25 mm, gives modules of exactly the floor, measured 0.8 % over it,
    # and 9 mm modules are measured 2 % under it)
    first = page.views[0]
    boxes = [b for c, b in zip(first.codes, first.code_boxes, strict=False) if c == want]
    small = [b for b in boxes if (b[2] - b[0]) / modules < MIN_QR_MODULE_PT * 0.995]
    if small:
        b = small[0]
        return Check("qr", FAIL, "the QR code of %s is drawn too small to scan: %.2f mm a "
                     "module, less than %.2f mm (pith.sty's qr-size: 9.25 mm or more)"
                     % (want, (b[2] - b[0]) / modules * 25.4 / 72, MIN_QR_MODULE_PT * 25.4 / 72))
    return None


def _link_over_code(page: PageOne, want: str, number: str,
                    areas: Union[Tuple[Link, ...], str]) -> Optional[Check]:
    """An ERROR when page 1's links cannot be read, a FAIL when one over the code of
    *want* opens something else."""
    if isinstance(areas, str):
        return Check("qr", ERROR, "not checked: could not read page 1's links (%s)" % areas)
    view = page.views[0]
    here = [b for c, b in zip(view.codes, view.code_boxes, strict=False) if c == want]
    for link in areas:  # a click on the code must open what it encodes
        spot = to_view(view.crop, view.rotation, link.box)
        problem = link_problem(link, number) if any(_overlaps(spot, b) for b in here) else None
        if problem is not None:
            return Check("qr", FAIL, "a link over the QR code of %s %s" % (want, problem))
    return None


def _unreadable_codes(view: View, want: str) -> List[Box]:
    """The symbols zxing-cpp finds in *view*'s rendering but cannot decode that stand for
    pith.sty's code of *want*: all of them when the rendering decodes no such code, else
    those over the code it decodes (a damaged or covered part of it).  Finder patterns
    that line up elsewhere, in two columns of body text say, are no code a reader scans,
    and the code that is there reads."""
    here = [b for c, b in zip(view.codes, view.code_boxes, strict=False) if c == want]
    if not here:
        return list(view.unreadable)
    return [u for u in view.unreadable if any(_overlaps(u, b) for b in here)]


def qr_check(page: PageOne, number: str, areas: Union[Tuple[Link, ...], str]) -> Check:
    want = qr_text(number)
    why = unreadable(page)
    if why is not None:
        return Check("qr", ERROR, "not checked: %s" % why)
    for view in page.views:
        other = [c for c in view.codes if c != want]
        if other:
            return Check("qr", FAIL, "page 1 shows a QR code of %s (decoded from %s's "
                         "rendering), not only the code of %s"
                         % (_show(other[0]), _name(view), want))
    having = [v for v in page.views if want in v.codes]
    if not having and not _qr_link(areas, number):
        # no code of pith.sty's (the qr option draws one, and links it): zxing-cpp's
        # finder patterns in body text, tables or figures that decode to nothing are no
        # code at all
        return Check("qr", OK, "page 1 has no QR code of pith.sty's (the qr option draws "
                     "one) and none that decodes to anything else" + _said(page))
    for view in page.views:
        if _unreadable_codes(view, want):
            return Check("qr", FAIL, "page 1 shows a QR code that cannot be read (zxing-cpp "
                         "finds it in %s's rendering but cannot decode it: damaged, covered "
                         "or clipped): a scanner does not reach %s" % (_name(view), want))
    if not having:
        return Check("qr", WARN, "page 1 has pith.sty's link for a QR code of %s, but no "
                     "QR code is seen there: no QR code was checked%s" % (want, _said(page)))
    if len(having) != len(page.views):
        return Check("qr", ERROR, "viewers disagree: %s; what a scanner reads depends on the "
                     "viewer" % "; ".join(
                         "%s's rendering decodes to %s" % (_name(v), want) if v in having else
                         "%s's rendering has no QR code" % _name(v) for v in page.views))
    found = (_not_pith_code(page, want, number) or _too_small(page, want, number)
             or _link_over_code(page, want, number, areas))
    if found is not None:
        return found
    return Check("qr", OK, "page 1's QR code decodes to %s in %s's rendering%s"
                 % (want, " and ".join(_name(v) for v in page.views), _said(page)))


def _show(text: str) -> str:
    return show(text, 80)


def meta_problem(page: PageOne, info: Dict[str, str], keys: Sequence[str]) -> Optional[str]:
    """Where an engine reads a Pith Info key otherwise than pypdf (*info*), or None."""
    for view in page.views:
        got = dict(view.meta)
        for key in keys:
            want = info.get(key)
            have = got.get(key)
            if want is not None and have is not None and view.engine == "poppler":
                # pdfinfo prints a value's lines as they are, one key a line: only its
                # first line is the key's for sure
                want, have = want.split("\n")[0].rstrip(), have.rstrip()
            if want is not None and have != want:
                return ("%s reads Info %s as %s, but pypdf reads %s" % (
                    _name(view), key, _show(got[key]) if key in got else "absent",
                    _show(info[key])))
    return None
