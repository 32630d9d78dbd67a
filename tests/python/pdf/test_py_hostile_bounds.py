"""Hostile PDFs for ``pith-tex verify``, bounds: verify DIR's one bad file is one bad line;
encryption, bombs, forms and loops within the memory cap and the time limit.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, List, Optional

import pytest

pytestmark = pytest.mark.hostile

import recorded
from pdfclaims import qr_box, tampered
from hostile_corpus import (
    badge_seen_or_refused, badge_shown, check, CLAIMED, info_object, layer, N, N2,
    page_ops, poppler_reads, raw_pdf, rendered, text_ops, TIME_LIMIT, under_limits, V,
    verify,
)


# -- verify DIR: one bad file is one bad line ------------------------------------------------

def test_verify_dir_isolates_each_file(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    good = d / ("%s.json" % N)
    good.write_bytes(recorded.encode(recorded.resolver_json(V)))
    wrong = d / ("%s.json" % N2)  # V's record under another number's name: fails
    wrong.write_bytes(recorded.encode(recorded.resolver_json(V)))
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "surrogate.json").write_text('{"record_type": "pith_number_record", '
                                      '"pith_number": "\\ud800"}')
    weird = os.path.join(os.fsencode(d), b"bad\xffname\n.json")
    with open(weird, "wb") as f:
        f.write(recorded.encode(recorded.resolver_json(V)))
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(d)],
                       capture_output=True, text=True, timeout=TIME_LIMIT,
                       preexec_fn=under_limits)
    lines = r.stdout.splitlines()
    assert r.returncode == 1, r.stdout + r.stderr  # the worst: one file failed
    assert len(lines) == 6 and lines[-1] == ("5 files: 2 verified, 1 failed, 2 could not be "
                                             "checked"), lines
    assert any(l.startswith("ERROR %s  not valid JSON (nested too deeply)" % (d / "deep.json"))
               for l in lines)
    assert any("surrogate.json  not valid JSON (a lone surrogate" in l for l in lines)
    # a newline in a name cannot forge a line; an undecodable byte cannot stop the report
    assert any(l.startswith("OK    '") and "bad\\udcffname\\n.json' " in l for l in lines)
    assert any(l.startswith("FAIL  %s" % wrong) for l in lines)
    assert "OK    %s  %s" % (good, N) in lines
    code, doc, err = verify(d)
    assert code == 1 and doc["summary"] == {"files": 5, "verified": 2, "failed": 1,
                                            "could_not_check": 2}


# -- more bounds: encryption, bombs, forms, loops --------------------------------------------

def test_aes_encrypted_is_refused_as_encrypted(honest, tmp_path):
    from pypdf import PdfWriter

    w = PdfWriter(clone_from=str(honest.get("qr")))
    w.encrypt("", "owner", algorithm="AES-256")  # opens without a password in a viewer
    enc = tmp_path / "aes.pdf"
    with open(enc, "wb") as f:
        w.write(f)
    code, doc, err = verify(enc)
    assert code == 3 and "the PDF is encrypted" in doc["files"][0]["error"], doc


def _bomb(n: int) -> bytes:
    import zlib

    c = zlib.compressobj(9)
    return c.compress(b"\0" * n) + c.flush()


def test_xmp_bomb_is_bounded(honest, tmp_path):
    from pypdf.generic import NameObject, StreamObject

    def change(w):
        new = StreamObject()
        new._data = _bomb(300 << 20)  # 300 MiB of zeros in about 300 KiB
        new[NameObject("/Filter")] = NameObject("/FlateDecode")
        new[NameObject("/Type")] = NameObject("/Metadata")
        w._root_object[NameObject("/Metadata")] = w._add_object(new)

    code, doc, err = verify(tampered(honest.get("docmeta"), tmp_path / "x.pdf", change))
    assert code in (1, 3) and check(doc, "xmp")["status"] == "error", doc


def test_content_bomb_is_bounded(honest, tmp_path):
    from pypdf.generic import NameObject, StreamObject

    def change(w):
        new = StreamObject()
        new._data = _bomb(300 << 20)
        new[NameObject("/Filter")] = NameObject("/FlateDecode")
        w.pages[0][NameObject("/Contents")] = w._add_object(new)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "c.pdf", change))
    assert code in (1, 3) and check(doc, "badge")["status"] == "error", doc


def _form(w: Any, name: str, ops: bytes, matrix: Optional[List[float]] = None) -> None:
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject)

    form = DecodedStreamObject()
    form.set_data(ops)
    res = w.pages[0]["/Resources"].get_object()
    form.update({NameObject("/Type"): NameObject("/XObject"),
                 NameObject("/Subtype"): NameObject("/Form"),
                 NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (-2000, -2000,
                                                                             2000, 2000)]),
                 NameObject("/Resources"): res})
    if matrix is not None:
        form[NameObject("/Matrix")] = ArrayObject([FloatObject(v) for v in matrix])
    if "/XObject" not in res:
        res[NameObject("/XObject")] = DictionaryObject()
    res["/XObject"].get_object()[NameObject(name)] = w._add_object(form)


@pytest.mark.parametrize("matrix, code", [
    (None, 0),  # inside a form, where it shows: a badge
    ([1, 0, 0, 1, 5000, 0], 1),  # the form moves it off the page
    ([0.1, 0, 0, 0.1, 0, 0], 1),  # the form shrinks it to 1 pt
])
def test_text_in_a_form_xobject(honest, tmp_path, matrix, code):
    def edit(w):
        page_ops(w, b"")  # adds the font
        _form(w, "/FmB", text_ops(CLAIMED), matrix)
        page_ops(w, b"q /FmB Do Q\n", font=False)

    got, doc, err = verify(tampered(honest.get("hide"), tmp_path / "f.pdf", edit))
    assert got == code, doc
    assert badge_shown(doc) if code == 0 else check(doc, "badge")["status"] == "fail"


@pytest.mark.parametrize("state, shown", [("/OFF", False), ("/ON", True)])
def test_a_form_in_a_layer_that_is_off_is_not_visible(honest, tmp_path, state, shown):
    """A form XObject's own /OC entry: poppler does not draw a form whose group is off."""
    from pypdf.generic import NameObject

    def edit(w):
        page_ops(w, b"")  # adds the font
        layer(w, state)  # the group /oc1, in the default configuration's *state* list
        _form(w, "/FmO", text_ops(CLAIMED))
        res = w.pages[0]["/Resources"].get_object()
        res["/XObject"]["/FmO"].get_object()[NameObject("/OC")] = \
            res["/Properties"].raw_get("/oc1")
        page_ops(w, b"q /FmO Do Q\n", font=False)

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "fo.pdf", edit), shown,
                          "optional content")


@pytest.mark.parametrize("bbox, shown", [((0, 0, 5, 5), False), ((90, 90, 500, 130), True)],
                         ids=["clipped-by-bbox", "inside-bbox"])
def test_a_form_clips_to_its_bbox(honest, tmp_path, bbox, shown):
    """A viewer draws a form XObject only inside its /BBox: text outside it is not seen."""
    from pypdf.generic import ArrayObject, FloatObject, NameObject

    def edit(w):
        page_ops(w, b"")  # adds the font
        _form(w, "/FmC", text_ops(CLAIMED))
        form = w.pages[0]["/Resources"]["/XObject"]["/FmC"].get_object()
        form[NameObject("/BBox")] = ArrayObject([FloatObject(v) for v in bbox])
        page_ops(w, b"q /FmC Do Q\n", font=False)

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "fb.pdf", edit), shown,
                          "clipped away")


def test_a_layer_nested_past_the_bound_is_not_lost(honest, tmp_path):
    """10,000 marked-content sequences opened first: a hidden layer opened inside them
    must not go unrecorded (its EMC would then close another, and the badge in it count
    as shown): the page is too complex to check."""
    def edit(w: Any) -> None:
        page_ops(w, b"/X BMC\n" * 10_000 + layer(w, "/OFF") + b"EMC\n" * 10_000)

    pdf = tampered(honest.get("hide"), tmp_path / "n.pdf", edit)
    assert CLAIMED not in poppler_reads(pdf)  # poppler hides the layer
    code, doc, err = verify(pdf)
    assert code in (1, 3), doc
    assert check(doc, "badge")["status"] in ("fail", "error"), doc


def test_glyphs_over_the_code_after_many_shows_are_seen(honest, tmp_path):
    """100,000 empty shows first, then a line of glyphs across the QR code: glyphs
    painted over it are looked for however many shows come before them."""
    def edit(w: Any) -> None:

        x0, y0, x1, y1 = qr_box(w)
        page_ops(w, b"q BT /FPT 20 Tf " + b"() Tj " * 100_000 + b"%.2f %.2f Td (%s) Tj ET Q\n"
                 % (x0, (y0 + y1) / 2 - 7, b"W" * 6))

    pdf = tampered(honest.get("qr"), tmp_path / "g.pdf", edit)
    read, dark = rendered(pdf, tmp_path)
    assert N not in read, read
    code, doc, err = verify(pdf)
    assert code in (1, 3) and check(doc, "qr")["status"] == "fail", doc


def test_a_form_that_draws_itself_ends(honest, tmp_path):
    def edit(w):
        _form(w, "/FmL", b"q 0.5 0 0 0.5 0 0 cm /FmL Do Q\n")
        page_ops(w, b"q /FmL Do Q\n", font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "l.pdf", edit))
    assert code in (0, 3), doc  # bounded, whatever pypdf makes of the loop


def test_a_deeply_nested_record_is_not_json(honest, tmp_path):
    def edit(w):
        w.add_metadata({"/PithRecord": "[" * 100_000 + "]" * 100_000})

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "r.pdf", edit))
    assert code == 3 and "PithRecord is not JSON (nested too deeply)" in err, doc


def test_text_that_reads_as_nothing_is_not_checked(tmp_path):
    # a page whose only text is drawn with a font whose codes map to nothing readable:
    # the badge could be there or not; that is said, not counted as "no badge"
    content = b"BT /F1 10 Tf 72 700 Td <0001020304> Tj ET"
    pdf = tmp_path / "unreadable.pdf"
    pdf.write_bytes(raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
           b"/Resources << /Font << /F1 6 0 R >> >> >>",
        4: info_object(),
        5: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        6: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>",
        7: b"<< /Length 0 >>\nstream\n\nendstream",
    }, info=4))
    code, doc, err = verify(pdf)
    assert code == 3, doc
    c = check(doc, "badge")
    assert c["status"] == "error" and "reads as no text at all" in c["detail"], c


