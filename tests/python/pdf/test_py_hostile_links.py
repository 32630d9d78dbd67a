"""Hostile PDFs for ``pith-tex verify``, the badge's own link and the code's: links elsewhere,
in other spellings, hidden, over the badge, and their quad points.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

pytestmark = pytest.mark.hostile

from pdfclaims import tampered
from hostile_corpus import (
    badge_box, badge_seen_or_refused, check, CLAIMED, layer, link_over, N, page_ops,
    text_ops, uri_action, verify,
)


# -- the badge's own link and the code's (issue 8) --------------------------------------------

URL = "https://pith.science/pith/" + N


def _pith_links(w: Any) -> Dict[str, Any]:
    """pith.sty's two link annotations on page 1, by what they cover: the badge (a wide
    rectangle) and the QR code (a square)."""
    found = {}
    for ref in w.pages[0]["/Annots"]:
        annot = ref.get_object()
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
        found["qr" if 0.8 < (x1 - x0) / (y1 - y0) < 1.25 else "badge"] = annot
    assert set(found) == {"badge", "qr"}, found
    return found


def _retargeted(which: str, action: Dict[str, Any], extra: Optional[Dict[str, Any]] = None,
                base: Optional[str] = None) -> Callable[[Any], None]:
    """An edit: pith.sty's link over the badge (or the code) gets *action* as its /A
    (None: none), and *extra* as its other entries (/AA, /Dest)."""
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    def edit(w: Any) -> None:
        annot = _pith_links(w)[which]
        if action is None:
            del annot["/A"]
        else:
            annot[NameObject("/A")] = DictionaryObject(action)
        for k, v in (extra or {}).items():
            annot[NameObject(k)] = v
        if base is not None:
            w._root_object[NameObject("/URI")] = DictionaryObject(
                {NameObject("/Base"): TextStringObject(base)})
    return edit


def _action(kind: str, **entries: Any) -> Dict[str, Any]:
    from pypdf.generic import NameObject, TextStringObject

    out = {NameObject("/S"): NameObject("/" + kind)}
    for k, v in entries.items():
        out[NameObject("/" + k)] = TextStringObject(v) if isinstance(v, str) else v
    return out


def _bad_link_cases() -> List[Tuple[str, Callable[[], Tuple[Any, Any, Any]], str]]:
    """(case, () -> (action, extra entries, /URI /Base), words of the failure)."""
    from pypdf.generic import (ArrayObject, BooleanObject, DictionaryObject, NameObject,
                               NumberObject)

    js = _action("JavaScript", JS="app.launchURL('https://evil.example/')")
    return [
        ("another site", lambda: (uri_action("https://evil.example/"), None, None), "another host"),
        ("a look-alike host", lambda: (uri_action("https://pith.science.evil.example/pith/" + N),
                                       None, None), "another host"),
        ("user information", lambda: (uri_action("https://pith.science@evil.example/pith/" + N),
                                      None, None), "user information"),
        ("another pith page", lambda: (uri_action("https://pith.science/about"), None, None),
         "another page"),
        ("a sub-page", lambda: (uri_action(URL + "/state.json"), None, None), "another page"),
        ("trailing slash", lambda: (uri_action(URL + "/"), None, None), "trailing slash"),
        ("query", lambda: (uri_action(URL + "?next=https://evil.example/"), None, None),
         "a query"),
        ("http", lambda: (uri_action("http://pith.science/pith/" + N), None, None), "not https"),
        ("another port", lambda: (uri_action("https://pith.science:8443/pith/" + N), None, None),
         "another port"),
        ("lower-case number", lambda: (uri_action("https://pith.science/pith/" + N.lower()), None,
                                       None), "another letter case"),
        ("relative to another base", lambda: (uri_action("/pith/" + N), None,
                                              "https://evil.example/"), "another host"),
        ("launch", lambda: (_action("Launch", F="evil.sh"), None, None), "/Launch action"),
        ("gotor", lambda: (_action("GoToR", F="other.pdf", D=ArrayObject(
            [NumberObject(0), NameObject("/Fit")])), None, None), "/GoToR action"),
        ("javascript", lambda: (js, None, None), "/JavaScript action"),
        ("a chained action", lambda: (dict(uri_action(URL), **{NameObject("/Next"): DictionaryObject(
            uri_action("https://evil.example/"))}), None, None), "a chain of actions"),
        ("a map link", lambda: (dict(uri_action(URL), **{NameObject("/IsMap"): BooleanObject(True)}),
                                None, None), "a map link"),
        ("additional actions", lambda: (uri_action(URL), {"/AA": DictionaryObject(
            {NameObject("/E"): DictionaryObject(js)})}, None), "additional actions"),
        ("a destination", lambda: (None, {"/Dest": ArrayObject(
            [NumberObject(0), NameObject("/Fit")])}, None), "a destination"),
    ]


@pytest.mark.parametrize("case", [c for c, _, _ in _bad_link_cases()])
def test_a_badge_linked_elsewhere_fails(honest, tmp_path, case):
    """The badge names the number, its link must open the number's page: anything else
    over its text sends a reader elsewhere (before issue 8 every one of these verified)."""
    make, words = next((m, w) for c, m, w in _bad_link_cases() if c == case)
    action, extra, base = make()
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     _retargeted("badge", action, extra, base)))
    assert code == 1, doc
    c = check(doc, "badge")
    assert c["status"] == "fail" and c["detail"].startswith(
        "a link over the badge %s " % CLAIMED) and words in c["detail"], c
    assert check(doc, "qr")["status"] == "ok", doc  # the code's own link is untouched


@pytest.mark.parametrize("case", ["another site", "javascript"])
def test_a_code_linked_elsewhere_fails(honest, tmp_path, case):
    make, words = next((m, w) for c, m, w in _bad_link_cases() if c == case)
    action, extra, base = make()
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     _retargeted("qr", action, extra, base)))
    assert code == 1, doc
    c = check(doc, "qr")
    assert c["status"] == "fail" and c["detail"].startswith("a link over the QR code of ") \
        and words in c["detail"], c
    assert check(doc, "badge")["status"] == "ok", doc


@pytest.mark.parametrize("uri, base", [
    (URL, None),
    # scheme and host in capitals, the default port, percent-escapes of unreserved
    # characters, a dot segment, a fragment: what a browser requests is /pith/NUM
    ("HTTPS://Pith.Science:443/x/../pith/%s#top" % "".join("%%%02X" % ord(c) for c in N),
     None),
    ("/pith/" + N, "https://pith.science/"),  # relative, resolved against /URI /Base
], ids=["as-written", "other-spelling", "relative"])
def test_a_badge_linked_to_its_page_passes(honest, tmp_path, uri, base):
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     _retargeted("badge", uri_action(uri), None, base)))
    assert code == 0, doc
    c = check(doc, "badge")
    assert c["status"] == "ok" and c["detail"].endswith(", linked to %s" % URL), c


def test_a_badge_link_written_in_utf16_fails(honest, tmp_path):
    """A URI is 7-bit ASCII: the same address in UTF-16 (pypdf decodes it) is bytes a
    viewer may pass on as they are."""
    from pypdf.generic import ByteStringObject, NameObject

    action = dict(uri_action(URL), **{NameObject("/URI"): ByteStringObject(
        b"\xfe\xff" + URL.encode("utf-16-be"))})
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     _retargeted("badge", action)))
    assert code == 1 and "not written as plain ASCII" in check(doc, "badge")["detail"], doc


@pytest.mark.parametrize("name", ["linked", "hide"])
def test_too_many_annotations_to_read_is_not_checked(honest, tmp_path, name):
    """Past 1,000 annotations on page 1 the links are not read: one left unread could lie
    over the badge, or open another number's page (with the badge or without one)."""
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    def edit(w: Any) -> None:
        if "/Annots" not in w.pages[0]:
            w.pages[0][NameObject("/Annots")] = ArrayObject()
        annots = w.pages[0]["/Annots"]
        dummy = w._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (0, 0, 1, 1)])}))
        for _ in range(1001):
            annots.insert(0, dummy)

    code, doc, err = verify(tampered(honest.get(name), tmp_path / "m.pdf", edit))
    assert code == 3, doc
    c = check(doc, "badge")
    assert c["status"] == "error" and "more than 1000" in c["detail"], c


@pytest.mark.parametrize("part, shown", [("all", False), ("right", False), ("beside", True)])
def test_a_second_link_over_the_badge_fails(honest, tmp_path, part, shown):
    """pith.sty's link stays; another one is laid over the whole badge, or only over the
    end of its number (the text's extent comes from the font's widths: the text matrix
    pypdf reports does not move over a show), or beside it."""
    x0, y0, x1, y1 = badge_box(honest.get("linked"))
    box = {"all": (x0, y0, x1, y1), "right": (x1 - 0.15 * (x1 - x0), y0, x1, y1),
           "beside": (x1 + 5, y0, x1 + 40, y1)}[part]
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     link_over(box, "https://evil.example/")))
    c = check(doc, "badge")
    if shown:
        assert code == 0 and c["status"] == "ok", doc
    else:
        assert code == 1 and "opens 'https://evil.example/'" in c["detail"], doc


def _quad_points(annot: Any, boxes: List[Tuple[float, float, float, float]],
                 rect: Optional[Tuple[float, float, float, float]] = None) -> None:
    """*annot*'s /QuadPoints set to *boxes* (as Acrobat writes them), its /Rect to *rect*."""
    from pypdf.generic import ArrayObject, FloatObject, NameObject

    if rect is not None:
        annot[NameObject("/Rect")] = ArrayObject([FloatObject(v) for v in rect])
    annot[NameObject("/QuadPoints")] = ArrayObject([
        FloatObject(v) for x0, y0, x1, y1 in boxes for v in (x0, y1, x1, y1, x0, y0, x1, y0)])


@pytest.mark.parametrize("quads, status", [
    ("beside", "warn"), ("left-half", "warn"), ("over", "ok"), ("outside-rect", "ok")])
def test_a_badge_link_is_where_its_quad_points_are(honest, tmp_path, quads, status):
    """pith.sty's badge link, its /Rect widened 80 pt to the right: a viewer that reads
    /QuadPoints (Acrobat, pdf.js) makes only the quadrilaterals clickable, so a badge
    outside them is not (all of it) a link; quad points outside the /Rect are ignored."""
    x0, y0, x1, y1 = badge_box(honest.get("linked"))
    wide = (x0, y0, x1 + 80, y1)
    boxes = {"beside": [(x1 + 5, y0, x1 + 80, y1)], "left-half": [(x0, y0, (x0 + x1) / 2, y1)],
             "over": [(x0, y0, x1, y1)], "outside-rect": [(x1 + 5, y0, x1 + 200, y1)]}[quads]

    def edit(w: Any) -> None:
        _quad_points(_pith_links(w)["badge"], boxes, wide)

    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "q.pdf", edit))
    c = check(doc, "badge")
    assert code == 0 and c["status"] == status, doc
    if status == "warn":
        assert "only part of it is a link to its Pith page" in c["detail"], c


@pytest.mark.parametrize("how", ["flag-hidden", "flag-noview", "layer-off"])
def test_a_hidden_badge_link_is_not_a_link(honest, tmp_path, how):
    """pith.sty's badge link flagged Hidden (/F 2) or NoView (/F 32), or put in a layer
    that is off: viewers neither show nor click it, so the badge is not linked."""
    from pypdf.generic import NameObject, NumberObject

    def edit(w: Any) -> None:
        link = _pith_links(w)["badge"]
        if how == "layer-off":
            layer(w, "/OFF")
            link[NameObject("/OC")] = w.pages[0]["/Resources"]["/Properties"].raw_get("/oc1")
        else:
            link[NameObject("/F")] = NumberObject(2 if how == "flag-hidden" else 32)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "h.pdf", edit))
    c = check(doc, "badge")
    assert code == 0 and c["status"] == "warn" and "the only links over it are hidden" in c[
        "detail"], c


def test_a_second_copy_not_linked_leaves_the_badge_linked(honest, tmp_path):
    """The number also written elsewhere on page 1, not linked: the badge is."""
    pdf = tampered(honest.get("qr"), tmp_path / "c.pdf",
                   lambda w: page_ops(w, text_ops(CLAIMED, 100, 100, 10)))
    code, doc, err = verify(pdf)
    assert code == 0 and check(doc, "badge")["status"] == "ok", doc


def test_a_link_elsewhere_over_the_badge_counts_whatever_its_quad_points(honest, tmp_path):
    """The reverse: a link to another site whose /Rect covers the badge and whose
    /QuadPoints lie beside it opens that site in a viewer that ignores /QuadPoints."""
    x0, y0, x1, y1 = badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        link_over((x0, y0, x1 + 80, y1), "https://evil.example/")(w)
        _quad_points(w.pages[0]["/Annots"][-1].get_object(), [(x1 + 5, y0, x1 + 80, y1)])

    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "q.pdf", edit))
    assert code == 1 and "opens 'https://evil.example/'" in check(doc, "badge")["detail"], doc


def test_a_planted_badge_under_a_link_elsewhere_fails(honest, tmp_path):
    """A copy of the number planted on a PDF without a badge, under a link elsewhere."""
    def edit(w: Any) -> None:
        page_ops(w, text_ops(CLAIMED, 100, 100, 10))
        link_over((95, 95, 400, 112), "https://evil.example/")(w)

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "p.pdf", edit), False,
                          "a link over the badge %s opens 'https://evil.example/'" % CLAIMED)


