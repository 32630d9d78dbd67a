"""Hostile PDFs for ``pith-tex verify``, the badge on page 1: invisible, hidden, layered,
clipped, squeezed, piled, transparent and planted copies; another number anywhere on the page.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

import re
import subprocess
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

pytestmark = pytest.mark.hostile

import texbuild
from pdfclaims import tampered
from pith_tex.include.qr import qr_rows
from hostile_corpus import (
    badge_box, badge_seen_or_refused, badge_shown, check, CLAIMED, layer, link_with, N,
    N2, OTHER, page_ops, poppler_reads, rendered, text_ops, uri_action, V, verify,
)


# -- the badge ------------------------------------------------------------------------------

@pytest.mark.parametrize("case, before, size, x, y, why", [
    ("render mode 3", b"3 Tr", 10, 100, 100, "render mode 3 (invisible)"),
    ("tiny", b"", 1, 100, 100, "smaller than 4 pt"),
    ("off the page", b"", 10, -900, 100, "outside the crop box"),
    ("clipped away", b"0 0 5 5 re W n", 10, 100, 100, "clipped away"),
    # two rectangles around it: their bounding box holds the text, the clip does not
    ("between two clip rectangles", b"0 0 5 5 re 500 500 5 5 re W n", 10, 100, 100,
     "clipped away"),
    ("a clip with a hole", b"0 0 99 600 re 300 0 300 600 re W n", 10, 100, 100,
     "clipped away"),
    ("white", b"1 g", 10, 100, 100, "a white fill colour"),
    ("outlines stroked in white", b"1 Tr 1 G", 10, 100, 100, "a white stroke colour"),
    # a device colour space named with cs, the colour set with sc/scn
    ("white, gray by name", b"/DeviceGray cs 1 sc", 10, 100, 100, "a white fill colour"),
    ("white, RGB by name", b"/DeviceRGB cs 1 1 1 scn", 10, 100, 100, "a white fill colour"),
    ("squeezed", b"1 Tz", 10, 100, 100, "squeezed to 1 % of its width"),
    ("raised off the page", b"5000 Ts", 10, 100, 100, "outside the crop box"),
])
def test_an_invisible_copy_is_not_a_badge(honest, tmp_path, case, before, size, x, y, why):
    # hide: no badge of pith.sty's own; the only copy of the number is the planted one
    bad = tampered(honest.get("hide"), tmp_path / "b.pdf",
                   lambda w: page_ops(w, text_ops(CLAIMED, x, y, size, before)))
    code, doc, err = verify(bad)
    assert code in (1, 3), (case, doc)
    c = check(doc, "badge")
    assert c["status"] in ("fail", "error"), c


@pytest.mark.parametrize("state, base, shown", [
    ("/OFF", None, False), ("/ON", "/OFF", True), ("/ON", None, True),
], ids=["off", "on-base-off", "on"])
def test_a_badge_in_a_layer_that_is_off_is_not_visible(honest, tmp_path, state, base, shown):
    """A viewer (poppler) does not draw optional content its default configuration
    switches off."""
    pdf = tampered(honest.get("hide"), tmp_path / "layer.pdf",
                   lambda w: page_ops(w, layer(w, state, base)))
    badge_seen_or_refused(pdf, shown, "optional content")


def _odd_layers(w: Any, where: str) -> bytes:
    """:func:`layer` switched off, with a null in the configuration's list *where*
    (/OFF; /ON or /OCGs under /BaseState /OFF)."""
    from pypdf.generic import ArrayObject, NameObject, NullObject

    ops = layer(w, "/OFF")
    props = w._root_object["/OCProperties"]
    config = props["/D"]
    group = props["/OCGs"][0]
    if where != "/OFF":
        del config[NameObject("/OFF")]
        config[NameObject("/BaseState")] = NameObject("/OFF")
    if where == "/ON":
        config[NameObject("/ON")] = ArrayObject([NullObject()])
    else:
        props[NameObject(where) if where == "/OCGs" else NameObject("/OCGs")] = ArrayObject(
            [NullObject(), group])
        if where == "/OFF":
            config[NameObject("/OFF")] = ArrayObject([NullObject(), group])
    return ops


@pytest.mark.parametrize("where", ["/OFF", "/ON", "/OCGs"])
def test_a_layer_list_viewers_read_differently_is_not_checked(honest, tmp_path, where):
    """A null among the groups of the default configuration: poppler keeps the badge's
    layer off after a null in /ON, drops all optional content for one in /OCGs; pith-tex
    took every layer for on (the badge visible).  Which layers are off is not known."""
    pdf = tampered(honest.get("hide"), tmp_path / "layers.pdf",
                   lambda w: page_ops(w, _odd_layers(w, where)))
    if where == "/ON":  # poppler draws the page without the badge
        pngs = []
        for i, src in enumerate([pdf, honest.get("hide")]):
            subprocess.run([texbuild.tool("pdftoppm"), "-r", "50", "-gray", "-singlefile",
                            str(src), str(tmp_path / ("r%d" % i))], check=True)
            pngs.append((tmp_path / ("r%d.pgm" % i)).read_bytes())
        assert pngs[0] == pngs[1]
    code, doc, err = verify(pdf)
    assert code == 3, doc
    c = check(doc, "badge")
    assert c["status"] == "error" and "optional content configuration" in c["detail"], c


def _membership(w: Any, entries: Callable[[Any, Any], Dict[str, Any]]) -> None:
    """Two groups in page 1's configuration, /on (on) and /off (off), and a membership
    dictionary /oc1 in page 1's resources with *entries(on, off)*."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    on, off = (w._add_object(DictionaryObject({NameObject("/Type"): NameObject("/OCG"),
                                               NameObject("/Name"): TextStringObject(n)}))
               for n in ("on", "off"))
    w._root_object[NameObject("/OCProperties")] = DictionaryObject({
        NameObject("/OCGs"): ArrayObject([on, off]),
        NameObject("/D"): DictionaryObject({NameObject("/OFF"): ArrayObject([off])})})
    ocmd = DictionaryObject({NameObject("/Type"): NameObject("/OCMD")})
    ocmd.update({NameObject(k): v for k, v in entries(on, off).items()})
    res = w.pages[0]["/Resources"].get_object()
    res[NameObject("/Properties")] = DictionaryObject({NameObject("/oc1"): w._add_object(ocmd)})


def _expr(*items: Any) -> Any:
    from pypdf.generic import ArrayObject, NameObject

    return ArrayObject([NameObject(i) if isinstance(i, str) else i for i in items])


@pytest.mark.parametrize("entries, code", [
    (lambda on, off: {"/OCGs": _expr(off)}, 1),  # its one group off: hidden
    (lambda on, off: {"/VE": _expr("/Not", on)}, 1),
    (lambda on, off: {"/VE": _expr("/And", on, _expr("/Or", off))}, 1),
    (lambda on, off: {"/VE": _expr("/Or", off, _expr("/Not", off))}, 0),  # shown
    (lambda on, off: {"/OCGs": _expr(off, on), "/P": _expr("/AnyOn")[0]}, 0),
    # a null among its groups: poppler skips it (the badge hidden), another viewer may not
    (lambda on, off: {"/OCGs": _expr(None, off)}, 3),
    (lambda on, off: {"/VE": _expr("/Xor", on, off)}, 3),  # not an operator
], ids=["group-off", "ve-not-on", "ve-and", "ve-or-shown", "anyon-shown", "null-group",
        "ve-unknown"])
def test_a_badge_under_a_membership_dictionary(honest, tmp_path, entries, code):
    """A badge marked by a membership dictionary (/OCMD) is shown as its groups and
    policy, or its visibility expression, say, as poppler draws it."""
    from pypdf.generic import NullObject

    def fix(e: Dict[str, Any]) -> Dict[str, Any]:
        for v in e.values():
            if isinstance(v, list):
                v[:] = [NullObject() if i is None else i for i in v]
        return e

    def edit(w: Any) -> None:
        _membership(w, lambda on, off: fix(entries(on, off)))
        page_ops(w, b"/OC /oc1 BDC\n" + text_ops(CLAIMED) + b"EMC\n")

    pdf = tampered(honest.get("hide"), tmp_path / "ocmd.pdf", edit)
    drawn = rendered(pdf, tmp_path) != rendered(honest.get("hide"), tmp_path)
    if code != 3:  # poppler draws the badge only where it is shown
        assert drawn == (code == 0)
    got, doc, err = verify(pdf)
    assert (got == 0) == (code == 0), doc
    if code == 3:
        assert check(doc, "badge")["status"] in ("fail", "error"), doc


@pytest.mark.parametrize("ve", ["/Or", "/Not"])
def test_a_box_drawn_over_the_badge_by_a_visibility_expression(honest, tmp_path, ve):
    """A white box over the badge, marked by a membership dictionary whose visibility
    expression is true (poppler draws it: the badge is covered) or false (not drawn).
    pith-tex took every /VE for hidden, so the box never covered the badge."""
    x0, y0, x1, y1 = badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        _membership(w, lambda on, off: {"/VE": _expr(ve, on)})
        page_ops(w, b"/OC /oc1 BDC\nq 1 g %g %g %g %g re f Q\nEMC\n"
                 % (x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4), font=False)

    pdf = tampered(honest.get("linked"), tmp_path / "box.pdf", edit)
    covered = rendered(pdf, tmp_path) != rendered(honest.get("linked"), tmp_path)
    assert covered == (ve == "/Or")
    code, doc, err = verify(pdf)
    if covered:
        assert code in (1, 3) and check(doc, "badge")["status"] in ("fail", "error"), doc
    else:
        assert code == 0, doc


@pytest.mark.parametrize("listed", [False, True])
def test_a_box_in_a_group_the_configuration_does_not_list(honest, tmp_path, listed):
    """A white box over the badge in a group that /OFF names but /OCGs does not list:
    not a group at all for poppler and pdf.js, which draw the box (the badge covered);
    pith-tex took it for off."""
    from pypdf.generic import ArrayObject, NameObject

    x0, y0, x1, y1 = badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        layer(w, "/OFF")
        props = w._root_object["/OCProperties"]
        if not listed:
            props[NameObject("/OCGs")] = ArrayObject([])
        page_ops(w, b"/OC /oc1 BDC\nq 1 g %g %g %g %g re f Q\nEMC\n"
                 % (x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4), font=False)

    pdf = tampered(honest.get("linked"), tmp_path / "box.pdf", edit)
    covered = rendered(pdf, tmp_path) != rendered(honest.get("linked"), tmp_path)
    assert covered == (not listed)
    code, doc, err = verify(pdf)
    if covered:
        assert code in (1, 3) and check(doc, "badge")["status"] in ("fail", "error"), doc
    else:
        assert code == 0, doc


@pytest.mark.parametrize("clip, shown", [
    (b"90 90 400 30 re W n", True),
    (b"0 0 612 792 re 90 90 400 30 re W n", True),  # nonzero, both the same way round
    (b"0 0 612 792 re 90 90 400 30 re W* n", False),  # even-odd: the inner one a hole
    (b"0 0 612 792 re 490 90 -400 30 re W n", False),  # nonzero, the inner one reversed
    (b"90 90 400 30 re 90 90 400 30 re W* n", False),  # twice over: nothing left
    # an L of lines whose bounding box holds the badge, the badge outside the L
    (b"80 80 m 500 80 l 500 85 l 85 85 l 85 200 l 80 200 l h W n", False),
    (b"q 0.7071 0.7071 -0.7071 0.7071 300 -100 cm 0 0 500 30 re W n Q", False),  # turned
    # 65 small rectangles around the badge, none over it: their bounding box holds it
    (b" ".join(b"%d %d 2 2 re" % (80 + 7 * k, 80 if k % 2 else 140) for k in range(65))
     + b" W n", False),
], ids=["rect", "nonzero", "even-odd-hole", "reversed-hole", "cancelled", "L-shape",
        "turned", "many-rectangles"])
def test_a_clip_is_followed_by_its_shape(honest, tmp_path, clip, shown):
    """A clipping path whose rectangles overlap cuts holes by its winding rule; one of
    lines or turned is not a box: its bounding box held the badge where poppler cuts it
    away (pith-tex took every clip as its rectangles' union, or its bounding box)."""
    if clip.startswith(b"q "):  # the clip set under the turn, the text drawn after
        clip = clip[2:-2]
    pdf = tampered(honest.get("hide"), tmp_path / "clip.pdf",
                   lambda w: page_ops(w, b"q %s\n%s Q\n" % (clip, text_ops(CLAIMED))))
    drawn = rendered(pdf, tmp_path) != rendered(honest.get("hide"), tmp_path)
    if clip.endswith(b"h W n") or b"cm" in clip or clip.count(b"re") > 60:
        assert not drawn or shown  # poppler: at most part of it (cut by the shape)
    else:
        assert drawn == shown
    badge_seen_or_refused(pdf, shown, "clipped")


@pytest.mark.parametrize("ops", [b"1 1 rg", b"5 m", b"10 Tf", b"1 0 0 1 0 cm"])
def test_an_operator_with_too_few_operands_is_not_checked(honest, tmp_path, ops):
    """An operator given too few operands before the badge: poppler stops drawing the
    content stream there (no badge), pdf.js skips the one operator (the badge): what a
    reader sees depends on the viewer."""
    pdf = tampered(honest.get("hide"), tmp_path / "few.pdf",
                   lambda w: page_ops(w, b"q %s Q\n" % ops + text_ops(CLAIMED)))
    assert rendered(pdf, tmp_path) == rendered(honest.get("hide"), tmp_path)
    code, doc, err = verify(pdf)
    assert code in (1, 3), doc
    assert check(doc, "badge")["status"] in ("fail", "error"), doc


def test_a_show_with_two_strings_is_not_checked(honest, tmp_path):
    """``(badge) (other) Tj``: poppler and pdf.js show the last string, the text
    extraction read the first (the badge, verified; the other number unseen)."""
    ops = b"BT /FPT 10 Tf 100 100 Td (%s) (%s) Tj ET\n" % (CLAIMED.encode(), OTHER.encode())
    pdf = tampered(honest.get("hide"), tmp_path / "two.pdf", lambda w: page_ops(w, ops))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(pdf), "-"],
                           capture_output=True, text=True).stdout
    assert N2 in shown and N not in shown, shown
    code, doc, err = verify(pdf)
    assert code in (1, 3), doc
    assert check(doc, "badge")["status"] in ("fail", "error"), doc


@pytest.mark.parametrize("tm, before, shown", [
    (b"0.01 0 0 1 100 100", b"", False),     # squeezed to 1 % of its width by Tm
    (b"1 0 0 1 100 100", b"0.02 0 0 1 0 0 cm", False),  # ... by the CTM
    (b"1 0 1 0.001 100 100", b"", False),    # sheared flat: its glyphs have no area
    (b"0 1 -1 0 100 100", b"", True),        # turned 90 degrees: still readable
    (b"1 0 0.3 1 100 100", b"", True),       # slanted
    (b"0.6 0 0 1 100 100", b"", True),       # condensed, not squeezed
], ids=["tm-squeezed", "cm-squeezed", "sheared-flat", "rotated", "slanted", "condensed"])
def test_text_squeezed_by_a_matrix_is_not_a_badge(honest, tmp_path, tm, before, shown):
    """Tz is not the only way to squeeze text: the text and current matrices do it too."""
    ops = b"q %s BT /FPT 10 Tf %s Tm (%s) Tj ET Q\n" % (before, tm, CLAIMED.encode("ascii"))
    pdf = tampered(honest.get("hide"), tmp_path / "m.pdf", lambda w: page_ops(w, ops))
    badge_seen_or_refused(pdf, shown, "squeezed")


def _piled(text: str, back: int) -> bytes:
    """*text* as a TJ array that moves every glyph *back* thousandths of an em."""
    parts = b" ".join(b"(%s) %d" % (c.encode("ascii"), back) for c in text)
    return b"q BT /FPT 10 Tf 100 100 Td [%s] TJ ET Q\n" % parts


@pytest.mark.parametrize("ops, shown", [
    (text_ops(CLAIMED, before=b"-8 Tc"), False),   # each glyph 0.8 em back: a pile
    (_piled(CLAIMED, 700), False),                 # the same with TJ numbers
    (text_ops(CLAIMED, before=b"-1 Tc"), True),    # 0.1 em tighter: still read
    (_piled(CLAIMED, 80), True),                   # kerning as TeX writes it
], ids=["tc-pile", "tj-pile", "tc-tight", "tj-kerned"])
def test_glyphs_piled_on_each_other_are_not_a_badge(honest, tmp_path, ops, shown):
    pdf = tampered(honest.get("hide"), tmp_path / "p.pdf", lambda w: page_ops(w, ops))
    badge_seen_or_refused(pdf, shown, "over each other")


def _alpha(w: Any, fill: float, stroke: float = 1.0) -> None:
    """An ExtGState /GSa in page 1's resources with constant alpha *fill* (/ca) and
    *stroke* (/CA): 0 paints nothing at all."""
    from pypdf.generic import DictionaryObject, FloatObject, NameObject

    res = w.pages[0]["/Resources"].get_object()
    res[NameObject("/ExtGState")] = DictionaryObject({NameObject("/GSa"): DictionaryObject({
        NameObject("/Type"): NameObject("/ExtGState"), NameObject("/ca"): FloatObject(fill),
        NameObject("/CA"): FloatObject(stroke)})})


@pytest.mark.parametrize("before, fill, stroke, shown", [
    (b"/GSa gs", 0.0, 1.0, False),             # the fill fully transparent
    (b"/GSa gs 1 Tr", 1.0, 0.0, False),        # outlines stroked fully transparent
    (b"/GSa gs 2 Tr", 0.0, 0.0, False),        # both
    (b"/GSa gs", 1.0, 0.0, True),              # only the stroke, which mode 0 does not use
    (b"/GSa gs", 0.6, 1.0, True),              # translucent is still seen
    (b"q /GSa gs Q", 0.0, 1.0, True),          # the state restored before the text
], ids=["fill", "stroke", "both", "stroke-unused", "translucent", "restored"])
def test_a_transparent_copy_is_not_a_badge(honest, tmp_path, before, fill, stroke, shown):
    """Constant alpha 0 (ExtGState /ca, /CA) paints nothing: viewers show no text."""
    def edit(w):
        _alpha(w, fill, stroke)
        page_ops(w, text_ops(CLAIMED, before=before))

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "a.pdf", edit), shown,
                          "transparent")


def test_a_transparent_code_is_not_drawn(honest, tmp_path):
    """pith.sty's own badge and QR code under /ca 0: neither is seen, so neither is
    vouched for."""
    def edit(w):
        from pypdf.generic import DecodedStreamObject, NameObject

        _alpha(w, 0.0, 0.0)
        page = w.pages[0]
        s = DecodedStreamObject()
        s.set_data(b"/GSa gs\n" + page.get_contents().get_data())
        page[NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "t.pdf", edit))
    assert code == 1, doc
    assert check(doc, "badge")["status"] == "fail" and "transparent" in check(
        doc, "badge")["detail"], doc
    assert check(doc, "qr")["status"] != "ok", doc


def _mask_grid(rows: List[str], x: float, y: float, module: float) -> bytes:
    """The dark runs of *rows* as 1 x 1 inline image masks, as ghostscript draws rules."""
    out = []
    for i, row in enumerate(rows):
        for m in re.finditer("1+", row):
            out.append(b"q %.3f 0 0 %.3f %.3f %.3f cm BI /IM true /W 1 /H 1 /BPC 1 ID \x00 EI Q"
                       % (len(m.group(0)) * module, module, x + m.start() * module,
                          y - (i + 1) * module))
    return b"\n".join(out) + b"\n"


@pytest.mark.parametrize("fill, shown", [(0.0, False), (1.0, True)], ids=["clear", "opaque"])
def test_a_code_of_image_masks_under_alpha_0_is_not_drawn(honest, tmp_path, fill, shown):
    """Rules drawn as 1 x 1 image masks (ghostscript's) paint in the fill colour with its
    constant alpha: under /ca 0 poppler draws nothing, so no code is vouched for."""
    def edit(w: Any) -> None:
        _alpha(w, fill)
        page_ops(w, b"/GSa gs\n" + _mask_grid(qr_rows(N), 300, 400, 2.0), font=False)

    pdf = tampered(honest.get("hide"), tmp_path / "m.pdf", edit)
    read, dark = rendered(pdf, tmp_path)
    assert (N in read) == shown, read
    code, doc, err = verify(pdf)
    qr = check(doc, "qr")  # no code of pith.sty's there (the hide option): that is said
    assert qr["status"] == "ok" and ("QR code decodes to" in qr["detail"]) == shown, doc


@pytest.mark.parametrize("before", [b"", b"/DeviceRGB cs 0 0 0.2 sc", b"/DeviceCMYK cs",
                                    b"1 g 1 Tr", b"1 g 2 Tr",
                                    b"0 0 5 5 re 90 90 400 30 re W n"])
def test_a_planted_visible_copy_is_a_badge(honest, tmp_path, before):
    # the same planting, visible: proves the cases above fail for the reason they name
    ok = tampered(honest.get("hide"), tmp_path / "b.pdf",
                  lambda w: page_ops(w, text_ops(CLAIMED, before=before)))
    code, doc, err = verify(ok)
    assert code == 0 and badge_shown(doc), doc


@pytest.mark.parametrize("text", [
    OTHER,  # another number, visible
    "pith:%s" % N2[:8],  # a short form of another number
    "https://pith.science/pith/%s" % N2,  # a bare number in a Pith URL
])
def test_another_number_anywhere_on_page_1_fails(honest, tmp_path, text):
    bad = tampered(honest.get("qr"), tmp_path / "o.pdf",
                   lambda w: page_ops(w, text_ops(text, size=2, before=b"3 Tr")))
    code, doc, err = verify(bad)
    assert code == 1
    c = check(doc, "badge")
    assert c["status"] == "fail" and "but the metadata says %s" % CLAIMED in c["detail"]


@pytest.mark.parametrize("how", ["inline", "resource"])
def test_another_number_as_actual_text_fails(honest, tmp_path, how):
    """The claimed number's glyphs in a marked-content sequence whose /ActualText is
    another number: pdftotext, copying and screen readers give that other number."""
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    def edit(w: Any) -> None:
        props = b"<</ActualText (%s)>>" % OTHER.encode()
        if how == "resource":
            res = w.pages[0]["/Resources"].get_object()
            res[NameObject("/Properties")] = DictionaryObject({NameObject("/MC0"): DictionaryObject(
                {NameObject("/ActualText"): TextStringObject(OTHER)})})
            props = b"/MC0"
        page_ops(w, b"/Span %s BDC\n" % props + text_ops(CLAIMED) + b"EMC\n")

    pdf = tampered(honest.get("qr"), tmp_path / "a.pdf", edit)
    # Every poppler follows an inline property list; a named one (/Properties) only
    # newer ones (26.07 does, 22.12 does not), and other readers do: no assertion there.
    if how == "inline":
        assert OTHER in poppler_reads(pdf)
    code, doc, err = verify(pdf)
    c = check(doc, "badge")
    assert code in (1, 3) and OTHER in c["detail"], c


@pytest.mark.parametrize("text", [
    OTHER.upper(),  # PITH:2025:...
    "pith:%d:%s" % (V["year"], N2.lower()),  # base32 reads either case
])
def test_another_number_in_another_letter_case_fails(honest, tmp_path, text):
    bad = tampered(honest.get("qr"), tmp_path / "o.pdf",
                   lambda w: page_ops(w, text_ops(text, size=10)))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert text in shown  # what poppler shows
    code, doc, err = verify(bad)
    assert code == 1, doc
    c = check(doc, "badge")
    assert c["status"] == "fail" and text in c["detail"], c


@pytest.mark.parametrize("text", [
    "PITH: A NEW METHOD FOR EVERYTHING",  # a title, not a number
    "pith:%d:%s" % (V["year"], N.lower()),  # the claimed number itself
])
def test_a_case_variant_that_is_not_another_number_passes(honest, tmp_path, text):
    ok = tampered(honest.get("qr"), tmp_path / "o.pdf",
                  lambda w: page_ops(w, text_ops(text, size=10)))
    code, doc, err = verify(ok)
    assert code == 0 and badge_shown(doc), doc


def test_another_number_in_a_link_fails(honest, tmp_path):
    def edit(w):
        w.add_uri(0, "https://pith.science/pith/" + N2, [10, 10, 20, 20])

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "l.pdf", edit))
    assert code == 1 and check(doc, "badge")["status"] == "fail"


def _other_link_cases() -> List[Tuple[str, Callable[[], Tuple[Dict[str, Any], Optional[str]]]]]:
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    pct = "".join("%%%02X" % ord(c) for c in N2)
    return [
        ("percent-encoded", lambda: (uri_action("https://pith.science/pith/" + pct), None)),
        ("port", lambda: (uri_action("https://pith.science:443/pith/" + N2), None)),
        ("dot-segment", lambda: (uri_action("https://pith.science/x/../pith/" + N2), None)),
        ("double-slash", lambda: (uri_action("https://pith.science//pith/" + N2), None)),
        ("relative-to-base", lambda: (uri_action(N2), "https://pith.science/pith/")),
        ("next-action", lambda: ({**uri_action("https://pith.science/pith/" + N), NameObject("/Next"):
                                  DictionaryObject(uri_action("https://pith.science/pith/" + N2))},
                                 None)),
        ("javascript", lambda: ({NameObject("/S"): NameObject("/JavaScript"),
                                 NameObject("/JS"): TextStringObject(
                                     "app.launchURL('https://pith.science/pith/%s')" % N2)},
                                None)),
        ("launch", lambda: ({NameObject("/S"): NameObject("/Launch"),
                             NameObject("/F"): TextStringObject(
                                 "https://pith.science/pith/" + N2)}, None)),
    ]


@pytest.mark.parametrize("case", [c for c, _ in _other_link_cases()])
def test_another_number_in_a_link_in_other_spellings_fails(honest, tmp_path, case):
    """What a viewer opens when the link is clicked: another number's page, spelt so
    that a plain search for pith.science/pith/NUM misses it."""
    action, base = dict(_other_link_cases())[case]()
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "l.pdf",
                                     lambda w: link_with(w, action, base)))
    assert code == 1 and check(doc, "badge")["status"] == "fail", doc


def test_a_link_to_this_number_in_other_spellings_passes(honest, tmp_path):
    pct = "".join("%%%02X" % ord(c) for c in N)
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "l.pdf", lambda w: link_with(
        w, uri_action("https://pith.science:443/x/../pith/" + pct))))
    assert code == 0 and badge_shown(doc), doc


def test_page_without_readable_content_is_not_checked(honest, tmp_path):
    from pypdf.generic import DecodedStreamObject, NameObject

    def edit(w):
        s = DecodedStreamObject()
        s.set_data(b"not zlib at all")
        s[NameObject("/Filter")] = NameObject("/FlateDecode")
        w.pages[0][NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "u.pdf", edit))
    assert code in (1, 3)
    c = check(doc, "badge")
    assert c["status"] == "error" and c["detail"].startswith("not checked:"), c
    assert check(doc, "qr")["status"] == "error"


