"""Hostile PDFs for ``pith-tex verify``, what the content scanner follows: a font set by an
ExtGState, /UserUnit, text off the page, where a show ends and shows split.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

import re
import subprocess
from typing import Any, Callable

import pytest

pytestmark = pytest.mark.hostile

import texbuild
from pdfclaims import tampered
from hostile_corpus import (
    badge_seen_or_refused, badge_shown, check, CLAIMED, link_over, N, page_ops,
    poppler_reads, rendered, text_ops, verify,
)


# -- what the scanner follows: a font set by an ExtGState, /UserUnit, where a show ends ----

def _font_state(w: Any, font: str, size: float) -> None:
    """An ExtGState /GSf in page 1's resources whose /Font sets *font* (``"FPT"``: the
    planted text's Helvetica; ``"other"``: another font) at *size*."""
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    res = w.pages[0]["/Resources"].get_object()
    ref = res["/Font"].get_object().raw_get("/FPT") if font == "FPT" else w._add_object(
        DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                          NameObject("/Subtype"): NameObject("/Type1"),
                          NameObject("/BaseFont"): NameObject("/Courier")}))
    res[NameObject("/ExtGState")] = DictionaryObject({NameObject("/GSf"): DictionaryObject({
        NameObject("/Type"): NameObject("/ExtGState"),
        NameObject("/Font"): ArrayObject([ref, FloatObject(size)])})})


@pytest.mark.parametrize("tf, font, size, shown", [
    (12, "FPT", 1, False),   # Tf says 12 pt, the ExtGState makes it 1 pt
    (1, "FPT", 12, True),    # and the other way round
], ids=["shrunk", "grown"])
def test_a_size_set_by_an_extgstate_font_is_followed(honest, tmp_path, tf, font, size, shown):
    ops = b"q BT /FPT %g Tf /GSf gs 100 100 Td (%s) Tj ET Q\n" % (tf, CLAIMED.encode())

    def edit(w: Any) -> None:
        page_ops(w, b"")  # the font first
        _font_state(w, font, size)
        page_ops(w, ops, font=False)

    pdf = tampered(honest.get("hide"), tmp_path / "f.pdf", edit)
    # what poppler (a viewer) draws: the word's height follows the ExtGState
    bbox = subprocess.run([texbuild.tool("pdftotext"), "-bbox", str(pdf), "-"],
                          capture_output=True, text=True).stdout
    m = re.search(r'yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">%s<' % CLAIMED, bbox)
    assert m and abs(float(m.group(2)) - float(m.group(1)) - size) < 0.5 * size, bbox
    badge_seen_or_refused(pdf, shown, "smaller than 4 pt")


def test_another_font_set_by_an_extgstate_is_not_read(honest, tmp_path):
    """pypdf's text extraction decodes with the font of the last Tf: text in a font an
    ExtGState chose is not read as a viewer shows it, so the page is not checked."""
    ops = b"q BT /FPT 12 Tf /GSf gs 100 100 Td (%s) Tj ET Q\n" % CLAIMED.encode()

    def edit(w: Any) -> None:
        page_ops(w, b"")
        _font_state(w, "other", 12)
        page_ops(w, ops, font=False)

    pdf = tampered(honest.get("hide"), tmp_path / "f.pdf", edit)
    code, doc, err = verify(pdf)
    # the engines draw the glyphs of the font they choose and read them the same way:
    # vouched for only where they show the claimed number
    if code == 0:
        assert badge_shown(doc) and CLAIMED in poppler_reads(pdf), doc
    else:
        assert check(doc, "badge")["status"] in ("fail", "error"), doc


def _user_unit(unit: Any) -> Callable[[Any], None]:
    from pypdf.generic import FloatObject, NameObject

    def edit(w: Any) -> None:
        w.pages[0][NameObject("/UserUnit")] = (
            FloatObject(unit) if isinstance(unit, (int, float)) else NameObject(unit))
    return edit


@pytest.mark.parametrize("unit, size, x, shown, why", [
    (0.1, 10, 100, False, "smaller than 4 pt"),  # 10 units of 0.1 pt
    (1, 10, 100, True, ""),
    # 3 units of 2 pt are 6 pt in Acrobat, 3 pt in poppler (which ignores /UserUnit)
    (2, 3, 100, False, "smaller than 4 pt"),
    (2, 5, 100, True, ""),  # 5 pt at least
    # 0.4 units left of the page's edge is 40 pt with /UserUnit 100: off the page
    (100, 5, -0.4, False, "outside the crop box"),
    (1, 10, -0.4, True, ""),  # 0.4 pt: within the half-point tolerance
], ids=["small-units", "plain", "large-units", "large-units-5", "left-of-the-page",
        "at-the-edge"])
def test_the_user_unit_scales_the_badge(honest, tmp_path, unit, size, x, shown, why):
    """A /UserUnit below 1 shrinks the badge; one above 1 does not enlarge it: poppler
    (and pdf.js before 4.x) ignores it and draws the badge at its nominal size."""
    def edit(w: Any) -> None:
        page_ops(w, text_ops(CLAIMED, x, 100, size))
        _user_unit(unit)(w)

    pdf = tampered(honest.get("hide"), tmp_path / "u.pdf", edit)
    if unit == 2:  # poppler draws it as on a page of points
        plain = tampered(honest.get("hide"), tmp_path / "p.pdf",
                         lambda w: page_ops(w, text_ops(CLAIMED, x, 100, size)))
        assert rendered(pdf, tmp_path) == rendered(plain, tmp_path)
    # viewers differ on /UserUnit (Acrobat scales the page, PDFium and poppler do not):
    # a page with one other than 1 is not vouched for
    badge_seen_or_refused(pdf, shown and unit == 1, why)


def test_the_user_unit_scales_the_code(honest, tmp_path):
    """pith.sty's own code and badge on a page whose units are 0.3 pt: 0.16 mm modules
    and a 2 pt badge."""
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "u.pdf", _user_unit(0.3)))
    assert code in (1, 3), doc
    assert check(doc, "qr")["status"] in ("fail", "error"), doc
    assert check(doc, "badge")["status"] in ("fail", "error"), doc


@pytest.mark.parametrize("unit", [0, -1, "/Big"])
def test_an_unreadable_user_unit_is_not_checked(honest, tmp_path, unit):
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "u.pdf", _user_unit(unit)))
    assert code == 3, doc
    assert "/UserUnit" in check(doc, "badge")["detail"], doc


@pytest.mark.parametrize("x, shown", [(590, False), (100, True)], ids=["runs-off", "inside"])
def test_a_badge_running_off_the_page_is_not_visible(honest, tmp_path, x, shown):
    """Its start on the page, its end 150 pt past the right edge (Helvetica's widths)."""
    pdf = tampered(honest.get("hide"), tmp_path / "r.pdf",
                   lambda w: page_ops(w, text_ops(CLAIMED, x, 100, 10)))
    badge_seen_or_refused(pdf, shown, "running out of the crop box")


def test_a_standard_font_without_widths_running_off_the_page_is_not_visible(honest, tmp_path):
    """Helvetica without /Widths: viewers place its glyphs by the font's own metrics
    (0.56 to 0.94 em for the badge's characters), wider than the 0.5 em verify assumed.
    Started 195 pt from the right edge, the number's last characters are off the page
    in poppler, so the badge is not shown whole; a link over it changes nothing."""
    def edit(w: Any) -> None:
        right = float(w.pages[0].mediabox[2])
        page_ops(w, text_ops(CLAIMED, right - 195, 700, 10))
        link_over((right - 197, 695, right, 712), "https://pith.science/pith/" + N)(w)

    pdf = tampered(honest.get("hide"), tmp_path / "h.pdf", edit)
    shown = subprocess.run([texbuild.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                           text=True).stdout
    assert CLAIMED[:-6] in shown and CLAIMED not in shown, shown  # cut at the page's edge
    badge_seen_or_refused(pdf, False, "running out of the crop box")


def test_font_widths_are_read_within_a_bound(honest, tmp_path):
    """20 CID fonts sharing one /W array of 65,536 widths: past a million widths read the
    page is 'too complex', not read with glyphs placed at a guess."""
    from pypdf.generic import (ArrayObject, DictionaryObject, NameObject, NumberObject)

    def edit(w: Any) -> None:
        widths = w._add_object(ArrayObject([NumberObject(0), ArrayObject(
            [NumberObject(500)] * 65536)]))
        res = w.pages[0]["/Resources"].get_object()
        fonts = res["/Font"].get_object()
        ops = []
        for i in range(20):
            desc = DictionaryObject({
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/CIDFontType2"),
                NameObject("/BaseFont"): NameObject("/X%d" % i), NameObject("/W"): widths})
            fonts[NameObject("/FW%d" % i)] = w._add_object(DictionaryObject({
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type0"),
                NameObject("/BaseFont"): NameObject("/X%d" % i),
                NameObject("/Encoding"): NameObject("/Identity-H"),
                NameObject("/DescendantFonts"): ArrayObject([w._add_object(desc)])}))
            ops.append(b"BT /FW%d 10 Tf 100 %d Td <0041> Tj ET" % (i, 100 + 12 * i))
        page_ops(w, b"\n".join(ops) + b"\n", font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "w.pdf", edit))
    assert code in (1, 3), doc
    assert check(doc, "badge")["status"] in ("fail", "error"), doc


@pytest.mark.parametrize("leading, shown", [(-5000, False), (12, True)], ids=["off", "on"])
def test_text_shown_on_the_next_line_is_placed_there(honest, tmp_path, leading, shown):
    """' moves to the next line (the leading TL down) before it shows: with a leading of
    -5000 that line is far above the page."""
    ops = b"q BT /FPT 10 Tf %d TL 100 100 Td (%s) ' ET Q\n" % (leading, CLAIMED.encode())
    pdf = tampered(honest.get("hide"), tmp_path / "n.pdf", lambda w: page_ops(w, ops))
    badge_seen_or_refused(pdf, shown, "outside the crop box")


def test_glyphs_without_width_are_piled(honest, tmp_path):
    """A font whose /Widths are all 0: every glyph is drawn where the first one is."""
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    def edit(w: Any) -> None:
        page_ops(w, text_ops(CLAIMED))
        font = w.pages[0]["/Resources"]["/Font"]["/FPT"]
        font.update({NameObject("/FirstChar"): NumberObject(32),
                     NameObject("/LastChar"): NumberObject(126),
                     NameObject("/Widths"): ArrayObject([NumberObject(0)] * 95)})

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "z.pdf", edit), False,
                          "over each other")


_PREFIX, _NUMBER = CLAIMED[:10].encode("ascii"), CLAIMED[10:].encode("ascii")


def _shows(body: bytes) -> bytes:
    """*body* in one text object, from (50, 100), in Helvetica without /Widths (where a
    show ends is taken as far as it could be: 1.02 em a glyph, so each case's parts lie
    inside the page however wide)."""
    return b"q BT /FPT 10 Tf 50 100 Td %s ET Q\n" % body


# The badge split into several shows whose glyphs a viewer draws elsewhere than after
# each other; pypdf's text extraction still reads "pith:YYYY:NUM" (it does not move its
# text matrix over a show, and joins what it reads on one line).
_SPLIT = {
    "moved-back": (_shows(b"(%s) Tj -40 0 Td (%s) Tj" % (_PREFIX, _NUMBER)), False),
    "number-first": (b"q BT /FPT 10 Tf 300 100 Td (%s) Tj -250 0 Td (%s) Tj ET Q\n"
                     % (_PREFIX, _NUMBER), False),
    "far-apart": (_shows(b"(%s) Tj 250 0 Td (%s) Tj" % (_PREFIX, _NUMBER)), False),
    "elsewhere": (b"q BT /FPT 10 Tf 100 100 Td (%s) Tj ET BT /FPT 10 Tf 300 600 Td (%s) Tj "
                  b"ET Q\n" % (_PREFIX, _NUMBER), False),
    # every glyph its own show, each at the line's start (Td 0 0): one pile
    "piled": (_shows(b" 0 0 Td ".join(b"(%s) Tj" % bytes([c]) for c in CLAIMED.encode())),
              False),
    # one show, a TJ number or a wide word space between its two parts
    "tj-apart": (_shows(b"[(%s) -15000 (%s)] TJ" % (_PREFIX, _NUMBER)), False),
    "tw-apart": (_shows(b"150 Tw (%s %s) Tj" % (_PREFIX, _NUMBER)), False),
    # drawn as its mirror image: by the matrix, or by a negative Tz
    "mirror-cm": (b"q -1 0 0 1 500 0 cm BT /FPT 10 Tf 100 100 Td (%s) Tj ET Q\n"
                  % CLAIMED.encode(), False),
    "mirror-tz": (b"q BT /FPT 10 Tf -100 Tz 400 100 Td (%s) Tj ET Q\n" % CLAIMED.encode(),
                  False),
    # the same parts where a viewer draws them one after the other
    "two-shows": (_shows(b"(%s) Tj (%s) Tj" % (_PREFIX, _NUMBER)), True),
    "font-set-again": (_shows(b"(%s) Tj /FPT 10 Tf (%s) Tj" % (_PREFIX, _NUMBER)), True),
    "next-line": (_shows(b"(%s) Tj 0 -12 Td (%s) Tj" % (_PREFIX, _NUMBER)), True),
}


@pytest.mark.parametrize("case", sorted(_SPLIT))
def test_a_badge_split_into_shows_is_read_where_they_are_drawn(honest, tmp_path, case):
    """Text positioning between shows (Td, TJ numbers, Tw) and a mirroring matrix or Tz:
    what poppler reads from the page in reading order is what verify vouches for."""
    ops, shown = _SPLIT[case]
    pdf = tampered(honest.get("hide"), tmp_path / "s.pdf", lambda w: page_ops(w, ops))
    assert (CLAIMED in poppler_reads(pdf)) == shown, poppler_reads(pdf)
    code, doc, err = verify(pdf)
    if shown:
        assert code == 0 and badge_shown(doc), doc
    else:  # never vouched for: refused, or the engines read no number there at all
        c = check(doc, "badge")
        assert c["status"] in ("fail", "error") or (
            code == 0 and c["detail"].startswith("page 1 shows no pith:NUMBER badge")), doc


