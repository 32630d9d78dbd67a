"""Every reader's view of page 1 beyond the screen: the ``print`` check of ``verify
paper.pdf`` (issue 27, "every reader's view").

What a reader prints, or sees in another viewer, can differ from what PDFium and poppler
draw on screen, over exactly the places the verdict rests on: the badge, the QR code and
the title.  Decided here, on :mod:`pith_tex.pdf.pageview`'s readings:

* **print.**  PDFium renders page 1 as it prints it (``FPDF_PRINTING``: annotations
  flagged Print, NoView ones too; optional content in its /Usage /Print state), as
  Chrome prints and "prints to PDF".  Where that rendering and the
  screen's differ over the badge, the QR code or the title (a pixel dark in one and light
  in the other), the paper prints something else than was checked: FAIL.
* **refused** (could not check), each over the badge, the QR code or the title:

  - a form field (a Widget annotation): Firefox lays its own HTML field there, with its
    value and background, which PDFium and poppler do not draw;
  - an annotation flagged Print and NoView (printed, never shown);
  - content in an optional content group that pdf.js (Firefox) switches otherwise than
    PDFium on screen or in print (:func:`pith_tex.pdf.layers.engines_disagree`: pdf.js
    needs the default configuration on *and* a /Usage not off, PDFium takes the /Usage
    first), a state no engine here renders;
  - over the badge only, or naming a Pith badge anywhere: an /ActualText, the text the
    engines extract instead of the glyphs painted (a reader reads the glyphs).

The annotations are read with pypdf (:func:`facts`, as :mod:`pith_tex.pdf.links` reads
links); the marks and pixels come from PDFium.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..errors import show
from .layers import Unfollowed, annot_rect, engines_disagree
from .pageview import to_view
from .views import Box, PageOne, Raster, View

PRINT, HIDDEN, NO_VIEW = 4, 2, 32  # annotation flags (PDF 32000-1, 12.5.3)
MAX_ANNOTS = 4096

#: A pixel differs between the screen and print renderings when it is darker than DARK in
#: one and lighter than LIGHT in the other (grey levels of 255: a colour printed black is
#: not a difference, a cover is); a place differs at DIFFERENT_PIXELS such pixels.
DARK = 128
LIGHT = 192
DIFFERENT_PIXELS = 6
#: An optional content mark over the title counts when its object is at least this much
#: of the title's size high (a linked footnote mark in a layer is not the title).
TITLE_MARK = 0.6
# the title: the largest words in the upper part of page 1 (as pith_tex.pdf.pagetitle)
TOP_PART = 0.6
SIZE_SLACK = 0.92


class Annot(NamedTuple):
    subtype: str
    flags: int
    box: Box  # user space (y up)
    layer: Optional[str] = None  # its /OC: the group's /Name ("" for a membership dict)
    #: its normal appearance's /BBox through its /Matrix has no area (PDFium and poppler
    #: draw nothing, pdf.js draws the stream unscaled at the /Rect's corner): the box
    empty: Optional[str] = None


class Facts(NamedTuple):
    """What pypdf reads of page 1 for the ``print`` check: its annotations (or why they
    could not be read) and the optional content groups PDFium and pdf.js switch
    differently (or why that is not known)."""

    annots: Union[Tuple[Annot, ...], str]
    layers: Union[Tuple[str, ...], str]


def facts(page: Any) -> Facts:
    """The :class:`Facts` of the pypdf page *page* (page 1)."""
    annots: Union[Tuple[Annot, ...], str]
    try:
        raw = page.get("/Annots")
        items = list(raw.get_object()) if raw is not None else []
        if len(items) > MAX_ANNOTS:
            annots = "page 1 has %d annotations, more than %d" % (len(items), MAX_ANNOTS)
        else:
            found = []
            for item in items:
                a = item.get_object()
                box = annot_rect(a) if hasattr(a, "get") else None
                if box is None:
                    continue
                flags = a.get("/F", 0)
                oc = a.get("/OC")
                oc = oc.get_object() if oc is not None else None
                layer = None if oc is None else str(oc.get("/Name", "")) if (
                    hasattr(oc, "get") and oc.get("/Type") == "/OCG") else ""
                found.append(Annot(str(a.get("/Subtype", "")),
                                   int(flags) if isinstance(flags, int) else 0, box, layer,
                                   _empty_appearance(a)))
            annots = tuple(found)
    except Exception as e:  # noqa: BLE001 -- pypdf on objects that are not what they claim
        annots = "page 1's annotations cannot be read (%s)" % type(e).__name__
    layers: Union[Tuple[str, ...], str]
    try:
        layers = engines_disagree(page)
    except Unfollowed as e:
        layers = str(e)
    return Facts(annots, layers)


def _empty_appearance(annot: Any) -> Optional[str]:
    """The /BBox and /Matrix of *annot*'s normal appearance when they map it onto nothing
    (zero wide or high): PDF 32000-1 (12.5.5) fits that box to the /Rect, which an empty
    box cannot be; PDFium and poppler then draw nothing, pdf.js (Firefox) draws the
    stream at the /Rect's corner unscaled.  None for any other appearance, or none."""
    ap: Any = annot.get("/AP")
    ap = ap.get_object() if ap is not None else None
    normal: Any = ap.get("/N") if hasattr(ap, "get") else None
    normal = normal.get_object() if normal is not None else None
    if hasattr(normal, "get") and not hasattr(normal, "get_data"):  # one per /AS state
        state = annot.get("/AS")
        normal = normal.get(state) if state is not None else None
        normal = normal.get_object() if normal is not None else None
    if not hasattr(normal, "get_data"):
        return None
    try:
        bbox = [float(v) for v in normal["/BBox"]]
        matrix = [float(v) for v in normal.get("/Matrix", (1, 0, 0, 1, 0, 0))]
    except (KeyError, TypeError, ValueError):  # no box, or not numbers: poppler reports
        # the form, and verify stops there
        return None
    if len(bbox) != 4 or len(matrix) != 6:
        return None
    xs, ys = [], []
    for x in (bbox[0], bbox[2]):
        for y in (bbox[1], bbox[3]):
            xs.append(matrix[0] * x + matrix[2] * y + matrix[4])
            ys.append(matrix[1] * x + matrix[3] * y + matrix[5])
    if max(xs) - min(xs) > 1e-6 and max(ys) - min(ys) > 1e-6:
        return None
    return "/BBox [%s] /Matrix [%s]" % (" ".join("%g" % v for v in bbox),
                                        " ".join("%g" % v for v in matrix))


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _title(view: View) -> Tuple[List[Box], float]:
    """The boxes of page 1's title words (the largest text in its upper part, the first
    block of such lines) and their size."""
    top = [w for w in view.words if w.box[1] < view.height * TOP_PART and w.size > 0
           and any(c.isalnum() for c in w.text)]
    if not top:
        return [], 0.0
    largest = max(w.size for w in top)
    big = sorted((w for w in top if w.size >= largest * SIZE_SLACK),
                 key=lambda w: (round(w.box[1] / (largest * 0.5)), w.box[0]))
    kept: List[Box] = []
    bottom: Optional[float] = None
    for w in big:
        if bottom is not None and w.box[1] > bottom + 2.5 * largest:
            break
        kept.append(w.box)
        bottom = w.box[3] if bottom is None else max(bottom, w.box[3])
    return kept, largest


def places(view: View, number: str) -> List[Tuple[str, Box]]:
    """(what, box) of the badge's copies, the QR codes and the title's words in PDFium's
    screen view (its frame: points from the top-left corner, y down)."""
    out: List[Tuple[str, Box]] = []
    for ink in view.ink:
        if number in ink.text and ink.boxes:
            out.append(("the badge", _union(ink.boxes)))
    out.extend(("the QR code", b) for b in view.code_boxes)
    out.extend(("the title", b) for b in _title(view)[0])
    return out


def _differing(a: Raster, b: Raster, box: Box) -> int:
    """Pixels of *box* (points, y down) dark in one rendering and light in the other."""
    if (a.width, a.height) != (b.width, b.height):
        return -1
    k = a.dpi / 72.0
    x0, x1 = max(0, int(box[0] * k)), min(a.width, int(box[2] * k + 0.999))
    y0, y1 = max(0, int(box[1] * k)), min(a.height, int(box[3] * k + 0.999))
    n = 0
    for y in range(y0, y1):
        row = y * a.width
        pa, pb = a.pixels[row + x0:row + x1], b.pixels[row + x0:row + x1]
        if pa == pb:
            continue
        for p, q in zip(pa, pb, strict=False):
            if (p < DARK and q > LIGHT) or (q < DARK and p > LIGHT):
                n += 1
    return n


def _prints_otherwise(screen: View, printed: View, where: List[Tuple[str, Box]]
                      ) -> Optional[Check]:
    """FAIL when PDFium's print rendering differs from its screen over *where*."""
    if screen.raster is None or printed.raster is None:
        return None
    for what, box in where:
        n = _differing(screen.raster, printed.raster, box)
        if n < 0:
            return Check("print", ERROR, "PDFium's print rendering of page 1 is not the size "
                         "of its screen rendering: what prints cannot be compared")
        if n >= DIFFERENT_PIXELS:
            return Check("print", FAIL, "page 1 prints otherwise than it shows over %s: "
                         "PDFium's print rendering (as Chrome prints, and prints to PDF: "
                         "annotations flagged for print, layers in their print state) "
                         "differs from its screen rendering in %d pixels there; remove the "
                         "annotation or layer that prints over it" % (what, n))
    return None


def _refusal(screen: View, info: Facts, where: List[Tuple[str, Box]], number: str
             ) -> Optional[str]:
    """Why what readers other than PDFium's screen show over *where* is not known, or
    None."""
    if isinstance(info.annots, str):
        return info.annots
    place = list(where)

    def over(box: Box) -> Optional[str]:
        spot = to_view(screen.crop, screen.rotation, box)
        return next((w for w, b in place if _overlaps(spot, b)), None)

    for a in info.annots:
        what = over(a.box)
        if what is None:
            continue
        if a.subtype == "/Widget":
            return ("a form field (a widget annotation) lies over %s: Firefox draws its own "
                    "field there (its value and background, as HTML), which PDFium and "
                    "poppler do not show; remove the field" % what)
        if a.empty is not None and not a.flags & HIDDEN:
            return ("an annotation (%s) over %s has an appearance with an empty box (%s): "
                    "PDFium and poppler draw nothing there, Firefox (pdf.js) draws it "
                    "unscaled over %s; remove the annotation" % (show(a.subtype, 30), what,
                                                                 a.empty, what))
        if a.flags & PRINT and a.flags & NO_VIEW and not a.flags & HIDDEN:
            return ("an annotation flagged Print and NoView (%s) lies over %s: it is printed "
                    "but never shown on screen; remove it" % (show(a.subtype, 30), what))
        if a.layer is not None and info.layers and (
                isinstance(info.layers, str) or not a.layer or a.layer in info.layers):
            return ("an annotation (%s) over %s is in a layer that Firefox (pdf.js) "
                    "switches otherwise than Chrome (PDFium), or whose state is not known"
                    % (show(a.subtype, 30), what))
    badge = [b for w, b in place if w == "the badge"]
    for kind, value, box in screen.marks:
        if kind == "cap":
            return ("page 1 has more marked content than pith-tex reads: what its layers "
                    "and replacement texts show is not known")
        # PDFium places the characters of an /ActualText drawn by a form in the form's
        # space: one that names the number or any Pith badge counts wherever it is
        squeezed = "".join(value.split()).upper()
        if kind == "ActualText" and (any(_overlaps(box, b) for b in badge)
                                     or number in squeezed or "PITH:" in squeezed):
            return ("the badge is under an /ActualText %s: the engines extract that text "
                    "instead of the glyphs a reader sees painted; pith.sty writes none"
                    % show(value, 60))
    return _layer_refusal(screen, info, place)


def _layer_refusal(screen: View, info: Facts, place: List[Tuple[str, Box]]) -> Optional[str]:
    marked = [(value, box) for kind, value, box in screen.marks if kind == "OC"]
    if not marked or info.layers == ():
        return None
    size = _title(screen)[1]
    for value, box in marked:
        for what, b in place:
            if not _overlaps(box, b):
                continue
            if what == "the title" and box[3] - box[1] < TITLE_MARK * size:
                continue
            if isinstance(info.layers, str):
                return "%s lies in a layer and %s" % (what, info.layers)
            if not value or value in info.layers:
                return ("%s lies in a layer (%s) that Firefox (pdf.js) switches "
                        "otherwise than Chrome (PDFium), on screen or in print (its "
                        "/Usage and the default configuration disagree): what they show or "
                        "print there differs"
                        % (what, show(value or "a membership dictionary", 40)))
    return None


def print_check(page: PageOne, info: Optional[Facts], number: str) -> Check:
    """The ``print`` check (see the module docstring)."""
    screen, printed = page.views[0], page.printed
    if printed is None or info is None:
        return Check("print", WARN, "not checked: page 1 was not rendered as printed")
    where = places(screen, number)
    found = _prints_otherwise(screen, printed, where)
    if found is not None:
        return found
    why = _refusal(screen, info, where, number)
    if why is not None:
        return Check("print", ERROR, "%s; what readers see or print cannot be vouched for"
                     % why)
    want = list(screen.codes)
    if sorted(printed.codes) != sorted(want):
        return Check("print", FAIL, "page 1's QR codes print otherwise than they show: "
                     "PDFium's print rendering decodes to %s, its screen rendering to %s"
                     % (show(", ".join(printed.codes) or "none", 80),
                        show(", ".join(want) or "none", 80)))
    names = list(dict.fromkeys(w for w, _ in where))
    if not names:
        return Check("print", OK, "page 1 has no badge, QR code or title to compare in "
                     "print")
    return Check("print", OK, "page 1 prints as it shows over %s (PDFium's print rendering), "
                 "with no form field, print-only annotation, reader-dependent layer or "
                 "replacement text there" % " and ".join(names))
