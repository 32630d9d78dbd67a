"""Is this PDF the record's paper?  The ``title`` check of ``verify paper.pdf`` and of
``check`` (on the PDF it compiled), from what readers see.

Two facts are checked (docs/verification.md, "The title"):

* ``PithTitle``, the record's title as the resolver gave it, which pith.sty writes into
  the PDF's Info from the include: it must hash to the record's ``title_canon_sha256``
  exactly (anything else is a forged or damaged PDF: FAIL).  A PDF made by an older
  pith.sty has no ``PithTitle``: the record's title text is then taken from the local
  cache of ``fetch`` when it has the number, else the visible title is compared by its
  hash alone.
* the title block page 1 paints, as each engine of :mod:`pith_tex.pdf.pageview` (PDFium,
  poppler) shows it (:func:`title_block`): the lines of the largest text in the upper
  part of the page, each line joined by where its characters are (small capitals and
  letter-spaced titles read whole), counting only what paints (PDFium: the badge's ink
  test on every character; poppler: ink in its rendering at each word); the badge and
  pith's stamps are never part of it.  The whole block is compared with the record's
  title by :func:`pith_tex.title.compare.compare`: the record's title with words added
  is ``different``, a FAIL ("this PDF is titled X; the number is for Y").  A page of
  highlights or a graphical abstract before the title page is passed over.

This module reads; :mod:`pith_tex.title.compare` decides.
"""

from __future__ import annotations

import io
import re
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from .bounded import page_one
from .accents import ACCENTS, COMBINING_RE, accented
from .pageview import raster_ink
from .views import Box, EngineFailed, Glyph, PageOne, View, Word
from ..record.canonical import canon_sha256
from ..title.compare import (DIFFERENT, FORMATTING, SAME, UNKNOWN, Comparison, compare,
                             normalise, shown)

#: Only text in this upper part of the page can be the title (a title page's title sits
#: above the middle; a journal's running head is smaller than the title).
TOP_PART = 0.6
#: Text set this much larger than the page's body text (its median size) is display
#: text, where a title is looked for.
DISPLAY = 1.15
#: What :func:`pageview.page_one` is asked to test the ink of (its *glyphs*).
GLYPHS = (TOP_PART, DISPLAY)
#: Lines this close to the largest size (as a fraction) are the title's.
SIZE_SLACK = 0.92
MAX_TITLE_CHARS = 1000
#: The heading of a page before the title page (Elsevier's highlights and graphical
#: abstract pages), as normalised letters.
FRONT_MATTER = ("highlights", "researchhighlights", "graphicalabstract")
#: pith's own text: the badge, the corner and margin stamps (never a title).
_PITH_RE = re.compile(r"pith:(?:[0-9]{4}:)?[A-Z2-7]{8,26}(?:checked|verified|unverified)?")
#: A larger text above the title that may be a venue's name: one line of this many
#: words at most.
HEADING_WORDS = 6


class Piece(NamedTuple):
    """A character (PDFium) or a word (poppler) that paints, in the view's frame."""

    text: str
    box: Box
    size: float


class Line(NamedTuple):
    text: str
    box: Box
    size: float  # its largest letter's


class Block(NamedTuple):
    """Lines set one below the other, close together: a title, an author list."""

    text: str
    box: Box
    size: float
    lines: int


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _inside(box: Box, zones: Sequence[Box]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(z[0] <= cx <= z[2] and z[1] <= cy <= z[3] for z in zones)


def _badge_zones(page: PageOne) -> List[Box]:
    """Where pith's badge or stamp is drawn (PDFium's matches of the badge pattern, when
    the caller asked for them), with room to its right for its state word."""
    zones = []
    for view in page.views:
        for ink in view.ink:
            box = ink.boxes[0]
            for b in ink.boxes[1:]:
                box = _union(box, b)
            h = min(box[3] - box[1], box[2] - box[0])  # its height, turned or not
            # its state word: after it on its line, or on the line below
            zones.append((box[0] - h, box[1] - h / 2, box[2] + 6 * h, box[3] + 1.6 * h))
    return zones


def _turned_zones(page: PageOne) -> List[Box]:
    """Where PDFium finds text set turned in the page's upper part (arXiv's identifier up
    the left edge, a margin stamp, an axis label, a watermark): poppler gives no angle,
    and its box of a word turned is as high as the word is long (a short one, "17" of
    arXiv's date, looks like an upright word)."""
    return [(g.box[0] - 1, g.box[1] - 1, g.box[2] + 1, g.box[3] + 1)
            for view in page.views for g in view.glyphs if not g.upright]


#: Fewer characters than this on the page: its median size is not its body text's (as
#: pageview.GLYPH_BODY_CHARS).
BODY_CHARS = 200


def _body_size(view: View, least: int = BODY_CHARS) -> float:
    """The size of most of *view*'s characters (words weighted by their length); 0 on a
    page of fewer than *least* (a title page, a page of highlights)."""
    return _median_size(view.words, least)


def _median_size(words: Sequence[Word], least: int = BODY_CHARS) -> float:
    ordered = sorted((w.size, len(w.text)) for w in words if w.size > 0)
    total = sum(n for _, n in ordered)
    if total < max(1, least):
        return 0.0
    count = 0
    for size, n in ordered:
        count += n
        if 2 * count >= total:
            return size
    return 0.0


def _pdfium_pieces(view: View, zones: Sequence[Box]) -> List[Piece]:
    """PDFium's characters of the upper part that paint, upright, pith's own left out."""
    glyphs = [g for g in view.glyphs if g.upright]
    squeezed = "".join(g.text for g in glyphs)
    ours: Set[int] = set()
    for m in _PITH_RE.finditer(squeezed):
        ours.update(range(m.start(), m.end()))
    return [Piece(g.text, g.box, g.size) for k, g in enumerate(glyphs)
            if g.painted and k not in ours and not _inside(g.box, zones)]


Bands = Dict[int, List[Glyph]]


def _bands(glyphs: Sequence[Glyph]) -> Bands:
    """*glyphs* upright, by the 8-point band of the page their middle is in."""
    out: Bands = {}
    for g in glyphs:
        if g.upright:
            out.setdefault(int((g.box[1] + g.box[3]) / 16), []).append(g)
    return out


def _sized(box: Box, bands: Bands) -> Optional[float]:
    """The font size of the word in *box* as PDFium reads it: the largest of its glyphs
    (*bands*) inside the box (None: none is)."""
    inside = [g.size for r in range(int(box[1] // 8), int(box[3] // 8) + 1)
              for g in bands.get(r, ())
              if box[0] <= (g.box[0] + g.box[2]) / 2 <= box[2]
              and box[1] <= (g.box[1] + g.box[3]) / 2 <= box[3]]
    return max(inside) if inside else None


#: A character's loose box at most this many times its font size high (TeX's fonts:
#: about 0.9): a taller one is drawn larger than its size says.
LOOSE_BOX = 1.25


def _pdfium_said(word: Word, words: Sequence[Word]) -> Optional[float]:
    """PDFium's size of the text poppler's *word* shows, from PDFium's *words* across it
    (their middle line inside its height): when they have its letters and boxes no taller than their size
    allows (so the size is the painted one, not a Type 3 font's matrix making small text
    large); None otherwise.  poppler's height of a Type 3 font's word is its font box's,
    which differs from font to font (T1 text without cm-super: TeX's bitmaps through
    pdflatex, an italic font's box half as high again as its roman's)."""
    inside = [p for p in words if p.box[0] < word.box[2] and word.box[0] < p.box[2]
              and word.box[1] <= (p.box[1] + p.box[3]) / 2 <= word.box[3]]
    # Its letters among theirs: PDFium joins a superscript mark to its word ("aState"),
    # and poppler's tall box takes in a word of the line above.
    if not inside or not _letters(word.text) or _letters(word.text) not in _letters(
            "".join(p.text for p in inside)):
        return None
    size = max(p.size for p in inside)
    if size <= 0 or any(p.box[3] - p.box[1] > LOOSE_BOX * size for p in inside):
        return None
    return size


def _poppler_pieces(view: View, zones: Sequence[Box],
                    glyphs: Sequence[Glyph] = (), words: Sequence[Word] = ()) -> List[Piece]:
    """poppler's words of the upper part that show ink in its own rendering: those over
    PDFium's *glyphs* (the display text it tested), and any other set larger than the
    body text by poppler's own measure.  poppler's size is its box's height, and a
    Type 3 font's box (TeX's bitmaps through dvips) is 1.7 times the size high, another
    font's less: a word is given PDFium's size where PDFium has it, else its height
    scaled as the others' are.  A word PDFium reads as the same letters set below display
    size (its *words*) is no display text, whatever poppler's height."""
    body = _body_size(view)
    small = _median_size(words) * DISPLAY
    bands = _bands(glyphs)
    sized = [(w, _sized(w.box, bands)) for w in view.words
             if w.box[1] < view.height * TOP_PART and w.size > 0
             and not (_PITH_RE.search(w.text.replace(" ", "")) or w.text.startswith("pith:")
                      or _inside(w.box, zones))]
    ratios = sorted(g / w.size for w, g in sized if g is not None)
    scale = ratios[len(ratios) // 2] if ratios else 1.0
    found = []
    for w, size in sized:
        if size is None and w.size < body * DISPLAY:
            continue
        if size is None and words:
            said = _pdfium_said(w, words)
            if said is not None and said < small:
                continue
        if view.raster is None or raster_ink(view.raster, w.box):
            found.append(Piece(w.text, w.box, size if size is not None else w.size * scale))
    return found


def pieces(view: View, zones: Sequence[Box] = (), glyphs: Sequence[Glyph] = (),
           words: Sequence[Word] = ()) -> List[Piece]:
    """What *view* paints of the upper part of its page, as pieces to set in lines
    (*glyphs* and *words*: PDFium's, which size poppler's words)."""
    if view.engine == "pdfium":
        return _pdfium_pieces(view, zones)
    # poppler composes an accent with its letter as a combining mark (OT1's \"{\i}: a
    # dotless i and a diaeresis, which no normal form makes an i with one)
    return [p._replace(text=accented(p.text)) if COMBINING_RE.search(p.text) else p
            for p in _poppler_pieces(view, zones, glyphs, words)]


def _alnum(text: str) -> bool:
    return any(c.isalnum() for c in text)


def lines(found: Sequence[Piece]) -> List[Line]:
    """*found* set in lines by where they are: a piece whose middle lies within a line's
    height belongs to it (small capitals and superscript marks with their line), and a
    line is cut where a gap of three sizes opens (another column, a stamp beside).
    Pieces closer than an eighth of their size are one word (a small capital after its
    capital, letters of one word); farther, a space."""
    out: List[List[Piece]] = []
    for p in sorted(found, key=lambda p: (p.box[1] + p.box[3]) / 2):
        mid = (p.box[1] + p.box[3]) / 2
        home = next((ln for ln in reversed(out[-4:]) if
                     min(q.box[1] for q in ln) <= mid <= max(q.box[3] for q in ln)), None)
        if home is None:
            out.append([p])
        else:
            home.append(p)
    result: List[Line] = []
    for ln in out:
        ln.sort(key=lambda p: p.box[0])
        segment: List[Piece] = []
        for p in _unnumbered(_composed(_once(ln))):
            if segment and p.box[0] - segment[-1].box[2] > 3 * max(p.size, segment[-1].size):
                result.extend(_line(segment))
                segment = []
            segment.append(p)
        result.extend(_line(segment))
    result.sort(key=lambda ln: (ln.box[1], ln.box[0]))
    return result


#: Pieces closer than this (a fraction of their size) are of one word.
WORD_GAP = 0.125
#: A piece set this much smaller than its line's largest, with a gap of the line's size
#: or more on each side, is not of the line's text (lineno's margin numbers).
ASIDE_SIZE = 0.75


def _unnumbered(line: Sequence[Piece]) -> List[Piece]:
    """*line* (sorted across) without the small pieces that stand apart from it: the line
    numbers lineno sets in the margin beside a title's lines.  A footnote mark or a small
    capital touches its neighbour and stays."""
    if len(line) < 2:
        return list(line)
    big = max(p.size for p in line)
    kept = []
    for k, p in enumerate(line):
        before = p.box[0] - line[k - 1].box[2] if k > 0 else None
        after = line[k + 1].box[0] - p.box[2] if k + 1 < len(line) else None
        apart = all(g is None or g >= big for g in (before, after))
        if not (p.size < ASIDE_SIZE * big and apart):
            kept.append(p)
    return kept


def _spaced(segment: Sequence[Piece]) -> Optional[float]:
    """The gap that parts words in a letter-spaced *segment* (most of its pieces single
    characters, most of them apart): the middle of the widest step between its gaps,
    sorted (letters' gaps below, words' above); None when it is not letter-spaced."""
    gaps = sorted((b.box[0] - a.box[2]) / max(a.size, b.size)
                  for a, b in zip(segment, segment[1:], strict=False))
    singles = sum(1 for p in segment if len(p.text) == 1)
    if len(gaps) < 4 or 2 * singles < len(segment) or 2 * sum(
            1 for g in gaps if g > WORD_GAP) < len(gaps):
        return None
    step, k = max((gaps[i + 1] - gaps[i], i) for i in range(len(gaps) - 1))
    return (gaps[k] + gaps[k + 1]) / 2 if step > WORD_GAP else None


def _composed(line: Sequence[Piece]) -> List[Piece]:
    """*line* (sorted across) with each spacing accent drawn over or under a letter joined
    to it as the accented letter (OT1's ``\\`{a}`` is two glyphs, "a`" or "`a" in the
    engines' order; poppler composes them itself): the accent's middle lies across the
    box of the letter beside it (PDFium's boxes of both are the font's whole height)."""
    kept = list(line)
    k = 0
    while k < len(kept):
        p = kept[k]
        mid = (p.box[0] + p.box[2]) / 2
        near = [j for j in (k - 1, k + 1) if 0 <= j < len(kept) and kept[j].text.isalpha()
                and len(kept[j].text) == 1 and kept[j].box[0] <= mid <= kept[j].box[2]]
        if p.text not in ACCENTS or not near:
            k += 1
            continue
        j = near[0]
        base = kept[j]
        letter = accented(base.text + ACCENTS[p.text])
        kept[j] = Piece(letter, _union(base.box, p.box), base.size)
        del kept[k]
    return kept


def _once(line: Sequence[Piece]) -> List[Piece]:
    """*line* (sorted across) with a piece drawn again over itself left out: the same
    text over half its box or more (a shadow, a poor man's bold) is read once.  The letters
    of one ligature glyph ("ffi" read as f, f, i, each with exactly the glyph's box: "ff"
    too, which no shadow or bold is, drawn offset) are kept."""
    kept: List[Piece] = []
    for k, p in enumerate(line):
        ligature = len(p.text) == 1 and any(
            j != k and q.box == p.box and len(q.text) == 1
            for j, q in enumerate(line[max(0, k - 2):k + 3], max(0, k - 2)))
        if ligature or not any(q.text == p.text and _shared(p.box, q.box) for q in kept[-4:]):
            kept.append(p)
    return kept


def _shared(a: Box, b: Box) -> bool:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    area = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w > 0 and h > 0 and w * h >= 0.5 * area


def _line(segment: Sequence[Piece]) -> List[Line]:
    letters = [p for p in segment if _alnum(p.text)]
    if not letters:
        return []
    apart = _spaced(segment) or WORD_GAP
    text = ""
    box = segment[0].box
    for k, p in enumerate(segment):
        if k and p.box[0] - segment[k - 1].box[2] > apart * max(p.size, segment[k - 1].size):
            text += " "
        text += p.text
        box = _union(box, p.box)
    return [Line(text, box, max(p.size for p in letters))]


def blocks(found: Sequence[Line]) -> List[Block]:
    """*found* (in reading order) gathered into blocks: a line joins the block above it
    when they overlap across the page and the gap between them is under 0.8 of the
    larger size, or under the lines' height, for lines of one size (within 10 %), or
    under half the size for a line a little smaller (at least 3/4: a line of small
    capitals only, words added below a title); a title of two or three lines is one
    block, an author list below it, set smaller after a wider gap, another."""
    out: List[List[Line]] = []
    for ln in found:
        last = out[-1] if out else None
        if last is not None:
            box = last[-1].box
            size = max(ln.size, last[-1].size)
            gap = ln.box[1] - box[3]
            ratio = min(ln.size, last[-1].size) / size
            across = ln.box[0] < max(x.box[2] for x in last) and (
                min(x.box[0] for x in last) < ln.box[2])
            if ratio >= 0.9:
                # (a line's own height stands for its size where an engine's boxes are
                # tighter than the font: poppler's on Ghostscript's fonts)
                pitch = max(0.8 * size, min(ln.box[3] - ln.box[1], box[3] - box[1]))
            else:  # a line of small capitals only, or words added in a smaller size,
                pitch = 0.5 * size if ratio >= 0.75 else 0.0  # set close: authors not
            if across and gap < pitch:
                last.append(ln)
                continue
        out.append([ln])
    result = []
    for b in out:
        text = ""
        for ln in b:
            if text.endswith("-") and ln.text[:1].islower():
                text += ln.text  # a word broken over two lines
            else:
                text += (" " if text else "") + ln.text
        box = b[0].box
        for ln in b[1:]:
            box = _union(box, ln.box)
        result.append(Block(" ".join(text.split())[:MAX_TITLE_CHARS], box,
                            max(ln.size for ln in b), len(b)))
    return result


def page_blocks(view: View, zones: Sequence[Box] = (), glyphs: Sequence[Glyph] = (),
                words: Sequence[Word] = ()) -> List[Block]:
    """The blocks of text *view* paints in the upper part of its page, top first."""
    return blocks(lines(pieces(view, zones, glyphs, words)))


def title_block(found: Sequence[Block]) -> Optional[Block]:
    """The title block among *found*: the first of the largest (None: no text)."""
    if not found:
        return None
    largest = max(b.size for b in found)
    return next(b for b in found if b.size >= largest * SIZE_SLACK)


def _unmarked(text: str) -> str:
    # a \thanks mark set against the last word
    return text.rstrip("*\u2217\u2020\u2021\u00a7\u00b6 ") or text


def _letters(text: str) -> str:
    return "".join(c for c in normalise(text) if c.isalnum())


def front_matter(page: PageOne) -> bool:
    """Is *page* a page of highlights or a graphical abstract (Elsevier's, before the
    title page): its title block (PDFium's) one of those headings?"""
    view = page.views[0]
    block = title_block(page_blocks(view, _badge_zones(page) + _turned_zones(page)))
    return block is not None and _letters(block.text) in FRONT_MATTER


def pith_title(data: bytes) -> Tuple[Optional[str], Optional[str]]:
    """The PDF's ``PithTitle`` Info string (None: absent) and a problem reading it."""
    try:
        import pypdf  # pdf.py has vetted its version already: this module reads only

        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        info = reader.trailer.get("/Info")
        info = info.get_object() if info is not None else None
        value = None if info is None else info.get("/PithTitle")
    except Exception as e:  # noqa: BLE001 -- pypdf raises many kinds on a damaged file
        return None, "cannot read the Info dictionary (%s)" % e.__class__.__name__
    if value is None:
        return None, None
    value = value.get_object() if hasattr(value, "get_object") else value
    if not isinstance(value, str):
        return None, "PithTitle is not a text string"
    return str(value), None


#: A footnote mark joined to a title's last word ("LLMs1").
_FOOTNOTE_MARK = re.compile(r"(?<=[^\W\d])\d{1,2}$")


def _compared(title: str, record_title: Optional[str], canon: Optional[str]) -> Comparison:
    c = compare(title, record_title, canon)
    bare = _FOOTNOTE_MARK.sub("", title)
    if not c.matches and bare != title:
        c2 = compare(bare, record_title, canon)
        if c2.matches:
            return c2
    return c


def _heading(block: Block) -> bool:
    return block.lines == 1 and len(block.text.split()) <= HEADING_WORDS


def _below_heading(found: Sequence[Block], record_title: str,
                   canon: Optional[str]) -> Optional[Tuple[Block, Block]]:
    """A block of *found* that is the record's title, set below larger text that can only
    be a venue's heading (one short line, above it, every larger block so): the block
    and the largest heading; None when there is none."""
    for b in found:
        if not _compared(_unmarked(b.text), record_title, canon).matches:
            continue
        larger = [x for x in found if x.size > b.size * 1.04]
        if larger and all(_heading(x) and x.box[3] <= b.box[1] + 1 for x in larger):
            return b, max(larger, key=lambda x: x.size)
    return None


class Seen(NamedTuple):
    """What one engine shows as the title of the page that holds it."""

    engine: str
    title: Optional[str]
    comparison: Optional[Comparison]


def _hidden(view: View, record_title: Optional[str]) -> bool:
    """Does *view*'s text layer hold the record's title where it does not paint?"""
    if record_title is None:
        return False
    want = _letters(record_title)
    if len(want) < 8:
        return False
    if view.engine == "pdfium":
        text = "".join(g.text for g in view.glyphs if g.upright)
        painted = "".join(g.text for g in view.glyphs if g.upright and g.painted)
    else:
        words = [w for w in view.words if w.box[1] < view.height * TOP_PART]
        text = " ".join(w.text for w in words)
        painted = " ".join(w.text for w in words
                           if view.raster is None or raster_ink(view.raster, w.box))
    return want in _letters(text) and want not in _letters(painted)


def _seen(view: View, zones: Sequence[Box], canon: Optional[str],
          record_title: Optional[str], glyphs: Sequence[Glyph] = (),
          words: Sequence[Word] = ()) -> Seen:
    found = page_blocks(view, zones, glyphs, words)
    block = title_block(found)
    if block is None:
        return Seen(view.engine, None, None)
    title = _unmarked(block.text)
    c = _compared(title, record_title, canon)
    if not c.matches and record_title is not None:
        under = _below_heading(found, record_title, canon)
        if under is not None:
            return Seen(view.engine, _unmarked(under[0].text), Comparison(
                FORMATTING, "set below a heading",
                ("set below larger text %s" % shown(under[1].text),)))
    return Seen(view.engine, title, c)


def title_page(page: PageOne) -> Tuple[PageOne, int]:
    """The page that holds the title block: *page* (page 1), or the one after a page of
    highlights or a graphical abstract (read by :func:`pageview.page_one` when its
    *then* was :func:`front_matter`); with its number."""
    number = 1
    while page.following is not None and front_matter(page):
        page, number = page.following, number + 1
    return page, number


def _front_matter_titles(page: PageOne, number: int, canon: Optional[str],
                         record_title: Optional[str]) -> Optional[Tuple[int, str]]:
    """Another title on a page passed over (highlights, a graphical abstract: cas sets
    the paper's title there too, below the heading): the first display block of those
    *number* - 1 pages, other than the heading, that is another paper's title (its
    page number and text); None when there is none."""
    zones = _badge_zones(page)
    for k in range(1, number):
        view = page.views[0]
        middle = _body_size(view, 0)
        for b in page_blocks(view, zones + _turned_zones(page)):
            if b.size <= middle * 1.1 or _letters(b.text) in FRONT_MATTER:
                continue
            if _compared(_unmarked(b.text), record_title, canon).kind == DIFFERENT:
                return k, _unmarked(b.text)
        if page.following is None:
            break
        page, zones = page.following, []
    return None


#: How the ``title`` line of a title the author accepted begins (``check`` keeps it).
ACCEPTED = "different, accepted by the author"


def _accepted_line(seen: Sequence[Seen], accepted: str, theirs: str,
                   name: str) -> Optional[Check]:
    """The ``title`` line when every engine shows the title the author accepted
    (``fetch --accept-title``, ``PithAcceptedTitle``) as the page's title block; None
    when one does not."""
    for s in seen:
        if s.title is None:
            return None
        # the accepted title is TeX as typed: its macros are read against the page
        bare = _FOOTNOTE_MARK.sub("", s.title)
        if not any(compare(accepted, t, None).matches for t in {s.title, bare}):
            return None
    engines = " and ".join(s.engine for s in seen)
    return Check("title", WARN, "%s (fetch --accept-title): %s's title %s is the title "
                 "the author accepted (PithAcceptedTitle); the record's title is%s: the "
                 "number identifies the record's paper, and its author says this PDF is a "
                 "later version of it; nothing here proves that (as %s show it)"
                 % (ACCEPTED, name, shown(seen[0].title or ""),
                    theirs or " another (by its hash)", engines))


def _title_line(results: List[Tuple[str, str, Comparison]], name: str, theirs: str,
                note: str, missing: str, *, accepted: Optional[str],
                record_title: Optional[str], source: str) -> Check:
    """The ``title`` line from each engine's (engine, title, comparison) *results*: the
    first different one fails, an unknown one warns, else the same (up to formatting)."""
    worst = next((r for r in results if r[2].kind == DIFFERENT), None)
    if worst is not None:
        engine, title, _ = worst
        if accepted is not None:
            return Check("title", FAIL, "different: this PDF is titled %s; the number is "
                         "for%s, and the title its author accepted is %s (PithAcceptedTitle) "
                         "(%s reads %s so): if the title changed again, run pith-tex "
                         "fetch --accept-title again and recompile"
                         % (shown(title), theirs or " another title (by its hash)",
                            shown(accepted), engine, name))
        return Check("title", FAIL, "different: this PDF is titled %s; the number is for%s "
                     "(%s reads %s so; another paper's number?)%s"
                     % (shown(title), theirs or " another title (by its hash)", engine,
                        name, note))
    unknown = next((r for r in results if r[2].kind == UNKNOWN), None)
    if unknown is not None:
        engine, title, _ = unknown
        return Check("title", WARN, "not checked: this PDF is titled %s (%s) and the "
                     "record's title text is not at hand (a PDF made by an older pith.sty "
                     "has no PithTitle, and fetch has not cached the record here): the "
                     "hash alone cannot tell a reformatted title from another paper's%s"
                     % (shown(title), engine, missing))
    engines = " and ".join(e for e, _, _ in results)
    if all(r[2].kind == SAME for r in results):
        return Check("title", OK, "same: %s's title is the record's title %s (%s%s; as "
                     "%s show it)%s" % (name, shown(results[0][1]), "" if record_title is None
                                        else source + "; ", results[0][2].how, engines,
                                        missing))
    diff = next(r for r in results if r[2].kind == FORMATTING)
    return Check("title", OK, "same up to formatting: %s's title %s is the record's "
                 "title%s (%s; as %s show it)%s"
                 % (name, shown(diff[1]), theirs, "; ".join(diff[2].differences) or diff[2].how,
                    engines, missing))


def title_from_page(page: PageOne, canon: Optional[str], record_title: Optional[str],
                    where: str, *, source: str, accepted: Optional[str] = None) -> Check:
    """The ``title`` line for page 1 (or the title page after it, :func:`title_page`) as
    the engines show it.  *source* says where *record_title* came from (``PithTitle``,
    the cache), for the message.  *accepted*: the title the author accepted in place of
    the record's (``PithAcceptedTitle``, as typed): the page showing it is a WARN that
    says so, not a FAIL."""
    zones = _badge_zones(page)
    first = page
    page, number = title_page(page)
    other = _front_matter_titles(first, number, canon, record_title) if number > 1 else None
    if other is not None and accepted is None:
        return Check("title", FAIL, "different: page %d, of highlights or a graphical "
                     "abstract, shows the title %s; the number is for%s (another paper's "
                     "number?)" % (other[0], shown(other[1]), " %s" % shown(record_title)
                                   if record_title is not None else " another title"))
    if number > 1:
        zones = []
        where = "page %d, after %d page%s of highlights or graphical abstract" % (
            number, number - 1, "s" if number > 2 else "")
    zones += _turned_zones(page)
    name = "page %d" % number
    # PDFium's display glyphs and words: the font sizes of poppler's words
    glyphs, words = page.views[0].glyphs, page.views[0].words
    seen = [_seen(v, zones, canon, record_title, glyphs, words) for v in page.views]
    hidden = None
    if any(s.title is None or (s.comparison and s.comparison.kind == DIFFERENT)
           for s in seen):  # (read only then: it looks at every word of the page's top)
        hidden = next((v.engine for v in page.views if _hidden(v, record_title)), None)
    note = ("; the record's title is in %s's text but does not paint there (hidden, "
            "white, covered or clipped: %s draws no ink for it)" % (name, hidden)
            if hidden is not None else "")
    for s in seen:
        if s.title is None:
            if hidden is not None:
                return Check("title", FAIL, "different: %s shows no title%s; the number "
                             "is for%s" % (name, note, " %s" % shown(record_title)
                                           if record_title is not None else
                                           " another title (by its hash)"))
            return Check("title", WARN, "not compared: %s shows no title text on %s (%s)"
                         % (s.engine, name, where))
    results = [(s.engine, s.title or "", s.comparison or Comparison(UNKNOWN, "")) for s in seen]
    theirs = (" %s (%s)" % (shown(record_title), source) if record_title is not None
              else "")
    missing = "" if not page.missing else "; %s" % "; ".join(page.missing)
    if accepted is not None and not all(r[2].kind == SAME for r in results):
        line = _accepted_line(seen, accepted, theirs, name)
        if line is not None:
            return line
    return _title_line(results, name, theirs, note, missing, accepted=accepted,
                       record_title=record_title, source=source)


def title_reading() -> Dict[str, Any]:
    """What :func:`pageview.page_one` must be asked for the title check to read the page
    (``page_one(data, **title_reading(), ...)``): the ink of the display text, the badge's
    place (never a title), and the page after a page of highlights."""
    from .visible import BADGE_RE

    return {"glyphs": GLYPHS, "then": front_matter, "ink": BADGE_RE}


def _cached_title(number: Optional[str]) -> Optional[str]:
    """``paper.title`` of *number*'s record from ``fetch``'s cache (None: not cached)."""
    if number is None:
        return None
    import json

    from ..resolver.cache import Cache

    try:
        entry = Cache().load(number)
    except OSError:
        return None
    if entry is None:
        return None
    try:
        doc = json.loads(entry[0])
    except ValueError:
        return None
    paper = doc.get("paper") if isinstance(doc, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    return title if isinstance(title, str) else None


def pdf_title_checks(pdf_title: Optional[str], number: Optional[str], canon: Optional[str],
                     page: Optional[PageOne], page_error: Optional[str] = None,
                     accepted: Optional[str] = None) -> List[Check]:
    """``verify paper.pdf``'s title lines for a PDF whose record (number *number*) has
    ``title_canon_sha256`` *canon*: ``pith-title`` (the PDF's ``PithTitle``, *pdf_title*,
    hashes to it, exactly) and ``title`` (page 1's visible title, from *page*: page 1 as
    the engines show it, read once by the caller; None with *page_error* when they
    could not).  *accepted*: the PDF's ``PithAcceptedTitle``, the title its author
    accepted in place of the record's (``fetch --accept-title``)."""
    checks: List[Check] = []
    record_title = pdf_title
    source = "PithTitle"
    if canon is None:
        return [Check("title", ERROR, "not checked: the record has no title_canon_sha256")]
    if record_title is not None:
        if canon_sha256(record_title) != canon:
            return [Check("pith-title", FAIL, "PithTitle %s does not hash to the record's "
                          "title_canon_sha256: it is not the record's title"
                          % shown(record_title))]
        checks.append(Check("pith-title", OK, "PithTitle %s hashes to the record's "
                            "title_canon_sha256" % shown(record_title)))
    else:
        record_title = _cached_title(number)
        source = "fetch's cache"
        checks.append(Check("pith-title", WARN, "not checked: the PDF has no PithTitle (made "
                            "with a pith.sty older than the title binding); %s" % (
                                "the record's title is taken from fetch's cache"
                                if record_title is not None else
                                "only the title's hash is known")))
    if page is None:
        return checks + [Check("title", ERROR, "not checked: %s" % (
            page_error or "page 1 could not be read"))]
    checks.append(title_from_page(page, canon, record_title, "page 1", source=source,
                                  accepted=accepted))
    return checks


#: As pdf.MAX_PDF_BYTES (this module does not import pdf, which calls it).
MAX_PDF_BYTES = 256 * 1024 * 1024


def _read_pdf(path: str) -> bytes:
    """The PDF at *path* (a regular file, at most :data:`MAX_PDF_BYTES`); OSError else."""
    from ..safeio import read_regular_or_raise

    return read_regular_or_raise(path, MAX_PDF_BYTES)


def visible_title_check(pdf: str, canon: Optional[str], record_title: Optional[str],
                        where: str, *, accepted: Optional[str] = None) -> Optional[Check]:
    """``check``'s title line from the PDF it compiled (None: the engines could not read
    it, or show no title: the caller compares the source instead).  *accepted*: the
    title the include accepts in place of the record's."""
    try:
        data = _read_pdf(pdf)
        page = page_one(data, **title_reading())
    except (OSError, EngineFailed):
        return None
    pdf_title, problem = pith_title(data)
    source = "the cached record"
    if problem is None and pdf_title is not None and canon is not None and (
            canon_sha256(pdf_title) == canon):
        record_title, source = pdf_title, "PithTitle"
    c = title_from_page(page, canon, record_title, where, source=source, accepted=accepted)
    if c.status == WARN and not c.detail.startswith(ACCEPTED):
        return None
    return c
