"""Hostile PDFs for ``pith-tex verify``, the metadata a PDF claims: the honest PDFs verify, a
run removed fails; Info written twice, in several trailers and incremental updates; the XMP; a
PithRecord that is not byte-canonical; raw-byte page trees.

The corpus, its honest PDFs and how each case runs: tests/support/hostile_corpus.py."""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any, Callable, Dict, List, Optional

import pytest

pytestmark = pytest.mark.hostile

import texbuild
from pdfclaims import tampered, xmp_edited
from hostile_corpus import (
    badge_shown, check, CLAIMED, edit_dashes, info_object, N, N2, OTHER, raw_pdf,
    same_length, verify,
)


# -- the honest ones verify (so every failure below is the tampering's) ------------------

@pytest.mark.parametrize("name", ["qr", "qr-xelatex", "qr-dvips", "docmeta"])
def test_honest_qr_pdf_verifies(honest, name):
    from pith_tex.include.qr import qr_text

    code, doc, err = verify(honest.get(name))
    assert code == 0, err
    c = check(doc, "qr")
    assert c["status"] == "ok" and c["detail"].startswith(
        "page 1's QR code decodes to %s in PDFium" % qr_text(N)), c
    assert badge_shown(doc)  # no hyperref, and still linked by pith.sty itself
    assert check(doc, "badge")["status"] == "ok" and check(doc, "badge")["detail"].endswith(
        ", linked to https://pith.science/pith/%s" % N)
    assert check(doc, "info")["status"] == "ok"
    if name == "docmeta":
        assert check(doc, "xmp")["status"] == "ok"


@pytest.mark.parametrize("name", ["qr", "qr-xelatex", "qr-dvips"])
def test_one_run_removed_fails(honest, tmp_path, name):
    def merge(a: List[float]) -> List[float]:
        assert len(a) >= 5, a
        return a[:1] + [a[1] + a[2] + a[3]] + a[4:]  # the second dark run becomes light

    code, doc, err = verify(tampered(honest.get(name), tmp_path / "q.pdf",
                                     lambda w: edit_dashes(w, merge)))
    assert code == 1, doc
    assert check(doc, "qr")["status"] == "fail" and "modules differ" in check(doc, "qr")["detail"]


# -- Info: duplicates, two /Info, incremental updates ----------------------------------------

def test_duplicate_key_in_the_info_dictionary(honest, tmp_path):
    pad = "x" * (len(OTHER) + 8)

    def edit(w):
        w.add_metadata({"/Xpad": pad})

    clone = tampered(honest.get("qr"), tmp_path / "c.pdf", edit)
    bad = tmp_path / "dup.pdf"
    bad.write_bytes(same_length(clone.read_bytes(), b"/Xpad (%s)" % pad.encode(),
                                b"/PithNumber (%s)" % OTHER.encode()))
    code, doc, err = verify(bad)
    assert code == 1
    c = check(doc, "info")
    assert c["status"] == "fail" and CLAIMED in c["detail"] and OTHER in c["detail"]
    assert "PithNumber 2 values" in c["detail"]


def test_two_info_entries_in_one_trailer(honest, tmp_path):
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    ref: List[Any] = []

    def edit(w):
        other = {NameObject(k): TextStringObject(v) for k, v in w.metadata.items()}
        other[NameObject("/PithNumber")] = TextStringObject(OTHER)
        ref.append(w._add_object(DictionaryObject(other)))

    clone = tampered(honest.get("qr"), tmp_path / "c.pdf", edit)
    data = clone.read_bytes()
    ident = re.search(rb"/ID \[[^\]]*\]", data).group(0)
    bad = tmp_path / "two.pdf"
    bad.write_bytes(same_length(data, ident, b"/Info %d 0 R" % ref[0].idnum))
    code, doc, err = verify(bad)
    assert code == 1
    c = check(doc, "info")
    assert c["status"] == "fail" and CLAIMED in c["detail"] and OTHER in c["detail"]


def test_incremental_update_hides_another_number(honest, tmp_path):
    from pypdf import PdfWriter

    first = tampered(honest.get("qr"), tmp_path / "first.pdf",
                     lambda w: w.add_metadata({"/PithNumber": OTHER}))
    w = PdfWriter(str(first), incremental=True)
    w.add_metadata({"/PithNumber": CLAIMED})  # the newest revision is the honest one
    bad = tmp_path / "incremental.pdf"
    with open(bad, "wb") as f:
        w.write(f)
    code, doc, err = verify(bad)
    assert code == 1
    c = check(doc, "info")
    assert c["status"] == "fail" and CLAIMED in c["detail"] and OTHER in c["detail"]
    assert badge_shown(doc)  # only the metadata's history differs


def _xref_stream_update(data: bytes, objects: Dict[int, bytes], entries: bytes) -> bytes:
    """*data* with an incremental update: *objects* and a cross-reference stream (not
    compressed) whose dictionary has *entries* besides /Size /Index /W /Length /Prev."""
    import struct

    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for num, body in objects.items():
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
    xref = max(objects) + 1
    offsets[xref] = len(out)
    rows = b"".join(b"\x01" + struct.pack(">I", offsets[n]) + b"\x00\x00"
                    for n in sorted(offsets))
    prev = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    head = b"<< %s /Size %d /Index [%s] /W [1 4 2] /Length %d /Prev %d >>" % (
        entries, xref + 1, b" ".join(b"%d 1" % n for n in sorted(offsets)), len(rows), prev)
    out += b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % (
        xref, head, rows, offsets[xref])
    return bytes(out)


@pytest.mark.parametrize("type_entry", [
    b"/Type /X#52ef",  # the name written with a #-escape: still /XRef to every reader
    b"/Type %% a comment\n/XRef",  # a comment is white space to a PDF lexer
    b"/Filler (%s) /Type /XRef" % (b"x" * 5000),  # /Type far from the object header
], ids=["escaped-name", "comment", "far"])
def test_two_info_entries_in_a_disguised_xref_stream(honest, tmp_path, type_entry):
    """pypdf keeps the first of two /Info entries, poppler the last: the trailer that
    holds them must be found however its /Type is spelled."""
    data = honest.get("qr").read_bytes()
    m = re.search(rb"/Info (\d+) 0 R", data)
    num = int(m.group(1))
    info = re.search(rb"(?<![0-9])%d 0 obj\s*(<<.*?>>)\s*endobj" % num, data, re.S).group(1)
    root = re.search(rb"/Root \d+ 0 R", data).group(0)
    size = int(re.findall(rb"/Size (\d+)", data)[-1])
    bad = tmp_path / "disguised.pdf"
    bad.write_bytes(_xref_stream_update(
        data, {size: info.replace(N.encode(), N2.encode())},
        type_entry + b" " + root + b" /Info %d 0 R /Info %d 0 R" % (num, size)))
    shown = subprocess.run([texbuild.tool("pdfinfo"), "-custom", str(bad)],
                           capture_output=True, text=True).stdout
    assert N2 in shown, shown  # poppler (a viewer) reads the other number
    code, doc, err = verify(bad)
    assert code == 1, doc
    c = check(doc, "info")
    assert c["status"] == "fail" and CLAIMED in c["detail"] and OTHER in c["detail"], c


def _other_page(first: int, number: str) -> Dict[int, bytes]:
    """Objects *first*.. : a page tree whose one page shows *number* (Helvetica)."""
    text = b"BT /F1 12 Tf 100 700 Td (%s) Tj ET" % number.encode()
    return {first: b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % (first + 1),
            first + 1: b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources "
                       b"<< /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                       % (first, first + 3, first + 2),
            first + 2: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
            first + 3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}


@pytest.mark.parametrize("where", ["trailer", "catalog"])
def test_a_key_written_twice_on_the_way_to_page_1_fails(honest, tmp_path, where):
    """pypdf keeps the first of two /Root (or /Pages) entries, poppler the last: a viewer
    shows another page 1 than the one checked."""
    data = honest.get("qr").read_bytes()
    root = int(re.search(rb"/Root (\d+) 0 R", data).group(1))
    info = re.search(rb"/Info \d+ 0 R", data).group(0)
    size = int(re.findall(rb"/Size (\d+)", data)[-1])
    objects = _other_page(size + 1, OTHER)
    from pypdf import PdfReader

    pages = PdfReader(str(honest.get("qr"))).trailer["/Root"].raw_get("/Pages").idnum
    if where == "trailer":
        objects[size] = b"<< /Type /Catalog /Pages %d 0 R >>" % (size + 1)
        entries = b"/Type /XRef /Root %d 0 R /Root %d 0 R %s" % (root, size, info)
    else:  # the catalog, redefined with a second /Pages
        objects[root] = b"<< /Type /Catalog /Pages %d 0 R /Pages %d 0 R >>" % (pages, size + 1)
        objects[size] = b"null"
        entries = b"/Type /XRef /Root %d 0 R %s" % (root, info)
    bad = tmp_path / "twice.pdf"
    bad.write_bytes(_xref_stream_update(data, objects, entries))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert OTHER in shown and CLAIMED not in shown, shown  # poppler shows the other page
    code, doc, err = verify(bad)
    assert code == 1, doc
    c = check(doc, "pdf")
    assert c["status"] == "fail" and "twice" in c["detail"], c


@pytest.mark.parametrize("generation", [0, 1])
def test_a_broken_cross_reference_is_not_vouched_for(honest, tmp_path, generation):
    """startxref points nowhere, and page 1's content is defined a second time: pypdf
    rebuilds the table and reads one definition, poppler cannot open the file, other
    readers take the other definition (the highest generation, the last one)."""
    from pypdf import PdfReader

    src = honest.get("qr")
    page = PdfReader(str(src)).pages[0]
    num = page.raw_get("/Contents").idnum
    font = list(page["/Resources"]["/Font"].keys())[0].encode()
    text = b"BT %s 10 Tf 100 700 Td (%s) Tj ET" % (font, OTHER.encode())
    data = src.read_bytes()
    redefined = b"%d %d obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
        num, generation, len(text), text)
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(data[:data.rindex(b"startxref")] + redefined
                    + b"startxref\n999999999\n%%EOF\n")
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True)
    assert CLAIMED not in shown.stdout  # poppler does not show what pypdf reads
    code, doc, err = verify(bad)
    assert code == 3, doc
    assert "cross-reference" in doc["files"][0]["error"], doc


def _rebuilt_xref(data: bytes, extra: bytes, entry: Callable[[int, List[int]], Optional[int]]
                  ) -> bytes:
    """*data* (one classic cross-reference table, as pypdf writes it) with *extra*
    objects appended to its body and the table rebuilt: object n's entry is
    *entry(n, the offsets of its definitions)*, None for a free entry."""
    x = data.rindex(b"\nxref\n") + 1
    body = data[:x] + extra
    trailer = data[data.index(b"trailer", x):data.rindex(b"startxref")]
    found: Dict[int, List[int]] = {}
    for m in re.finditer(rb"(?<![0-9])([0-9]+) 0 obj", body):
        found.setdefault(int(m.group(1)), []).append(m.start())
    size = max(found) + 1
    rows = [b"0000000000 65535 f \n"]
    for n in range(1, size):
        at = entry(n, found.get(n, []))
        rows.append(b"0000000000 65535 f \n" if at is None else b"%010d 00000 n \n" % at)
    return (body + b"xref\n0 %d\n" % size + b"".join(rows)
            + re.sub(rb"/Size [0-9]+", b"/Size %d" % size, trailer)
            + b"startxref\n%d\n%%%%EOF\n" % len(body))


@pytest.mark.parametrize("how", ["entry points at another object", "entry free"])
def test_an_object_the_table_does_not_lead_to_is_not_vouched_for(honest, tmp_path, how):
    """Page 1's content is defined twice, the badge first and another number last, and
    the table does not lead to either: pypdf searches the file for the first definition
    (no rebuild, the badge), poppler rebuilds the table and takes the last (the other
    number)."""
    from pypdf import PdfReader

    src = tampered(honest.get("qr"), tmp_path / "clone.pdf", lambda w: None)
    page = PdfReader(str(src)).pages[0]
    num = page.raw_get("/Contents").idnum
    font = list(page["/Resources"]["/Font"].keys())[0].encode()
    text = b"BT %s 10 Tf 100 700 Td (%s) Tj ET" % (font, OTHER.encode())
    redefined = b"%d 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
        num, len(text), text)

    def entry(n: int, at: List[int]) -> Optional[int]:
        if n != num:
            return at[0] if at else None
        return None if how == "entry free" else 15  # inside the header comment

    bad = tmp_path / "unled.pdf"
    bad.write_bytes(_rebuilt_xref(src.read_bytes(), redefined, entry))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert N2 in shown and N not in shown, shown  # poppler shows the other one
    code, doc, err = verify(bad)
    assert code in (1, 3), doc


def _update(data: bytes, objects: bytes, section: Callable[[int, int], bytes]) -> bytes:
    """*data* with an incremental update: *objects* appended, then the section
    *section(its offset, the previous startxref)* writes (its table or stream and its
    trailer), then startxref."""
    out = data + objects
    prev = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    return out + section(len(out), prev) + b"startxref\n%d\n%%%%EOF\n" % len(out)


@pytest.mark.parametrize("how", ["freed", "new generation", "freed in a stream"])
def test_an_object_an_update_replaced_is_not_vouched_for(honest, tmp_path, how):
    """An incremental update frees page 1's content (or gives its number a new
    generation) and appends another definition its table does not list: pypdf still
    reads the old one from the older section (the badge), poppler honours the newest
    section, rebuilds the table and shows the last definition (another number)."""
    import struct

    from pypdf import PdfReader

    src = tampered(honest.get("qr"), tmp_path / "clone.pdf", lambda w: None)
    data = src.read_bytes()
    page = PdfReader(str(src)).pages[0]
    num = page.raw_get("/Contents").idnum
    font = list(page["/Resources"]["/Font"].keys())[0].encode()
    text = b"BT %s 10 Tf 100 700 Td (%s) Tj ET" % (font, OTHER.encode())
    gen = 1 if how == "new generation" else 0
    objects = b"%d %d obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
        num, gen, len(text), text)
    trailer = data[data.rindex(b"trailer"):data.rindex(b"startxref")]
    trailer = trailer[trailer.index(b"<<"):].rstrip()[:-2]
    size = int(re.search(rb"/Size (\d+)", trailer).group(1))

    def section(at: int, prev: int) -> bytes:
        if how == "freed in a stream":  # a cross-reference stream, type 0: free
            row = b"\x00\x00\x00\x00\x00\x01"
            return (b"%d 0 obj\n<< /Type /XRef /Size %d /Index [%d 1 %d 1] /W [1 4 1] "
                    b"%s /Prev %d /Length %d >>\nstream\n%s\nendstream\nendobj\n"
                    % (size, size + 1, num, size, re.search(rb"/Root \d+ 0 R", trailer)
                       .group(0) + b" " + re.search(rb"/Info \d+ 0 R", trailer).group(0),
                       prev, 2 * len(row), row + b"\x01" + struct.pack(">I", at) + b"\x00"))
        if how == "freed":
            entry = b"0000000000 00001 f \n"
        else:  # in use, generation 1: page 1's "num 0 R" names no object any more
            entry = b"%010d 00001 n \n" % (at - len(objects))
        return b"xref\n%d 1\n%strailer\n%s /Prev %d >>\n" % (num, entry, trailer, prev)

    bad = tmp_path / "updated.pdf"
    bad.write_bytes(_update(data, objects, section))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert N not in shown, shown  # poppler does not show what pypdf reads
    code, doc, err = verify(bad)
    assert code in (1, 3), doc


def test_an_honest_incremental_update_still_verifies(honest, tmp_path):
    """An update that redefines objects in place (a new title) leaves the badge alone."""
    from pypdf import PdfWriter

    src = tampered(honest.get("qr"), tmp_path / "clone.pdf", lambda w: None)
    w = PdfWriter(str(src), incremental=True)
    w.add_metadata({"/Title": "Updated"})
    bad = tmp_path / "updated.pdf"
    with open(bad, "wb") as f:
        w.write(f)
    assert bad.read_bytes().count(b"startxref") == 2
    code, doc, err = verify(bad)
    assert code == 0, doc


# -- XMP ----------------------------------------------------------------------------------

def _extra_description(attrs: bytes, body: bytes = b"") -> Callable[[bytes], bytes]:
    def edit(x: bytes) -> bytes:
        assert x.count(b"</rdf:RDF>") == 1
        return x.replace(b"</rdf:RDF>", b'<rdf:Description rdf:about="" %s>%s'
                         b"</rdf:Description></rdf:RDF>" % (attrs, body))
    return edit


def _utf16_other(x: bytes) -> bytes:
    text = x.decode("utf-8").replace(CLAIMED + "</pith:number>", OTHER + "</pith:number>")
    text = re.sub(r"<\?xml[^>]*\?>", "", text)
    return text.encode("utf-16")


@pytest.mark.parametrize("case, edit, code, words", [
    ("attribute form",
     _extra_description(b'xmlns:p="https://pith.science/ns/pith/1.0/" p:number="%s"'
                        % OTHER.encode()), 1, "pith:number 2 values"),
    ("namespace by a character reference",
     _extra_description(b'xmlns:q="https:&#47;&#47;pith.science/ns/pith/1.0/"',
                        b"<q:number>%s</q:number>" % OTHER.encode()), 1,
     "pith:number 2 values"),
    ("UTF-16 packet", _utf16_other, 1, "XMP pith:number is '%s'" % OTHER),
    ("dc:identifier",
     _extra_description(b'xmlns:dc="http://purl.org/dc/elements/1.1/"',
                        b"<dc:identifier>%s</dc:identifier>" % OTHER.encode()), 1,
     "dc:identifier is '%s'" % OTHER),
    ("a property pith.sty never writes",
     _extra_description(b'xmlns:p="https://pith.science/ns/pith/1.0/"',
                        b"<p:numero>%s</p:numero>" % OTHER.encode()), 1,
     "pith:numero, which pith.sty never writes"),
    ("a DTD with an entity",
     lambda x: b'<!DOCTYPE x [<!ENTITY e "%s">]>' % (b"a" * 1000) + re.sub(
         rb"<\?xml[^>]*\?>", b"", x), 3, "has a DTD"),
    ("not well-formed", lambda x: x.replace(b"</pith:number>", b"</pith:numbr>"), 3,
     "not well-formed XML"),
])
def test_xmp(honest, tmp_path, case, edit, code, words):
    bad = xmp_edited(honest.get("docmeta"), tmp_path / "x.pdf", edit)
    got, doc, err = verify(bad)
    assert got == code, (case, doc)
    c = check(doc, "xmp")
    assert c["status"] == ("fail" if code == 1 else "error")
    assert words in c["detail"], c["detail"]


def test_unreadable_xmp_stream_is_could_not_check(honest, tmp_path):
    from pypdf.generic import NameObject

    def change(w):
        meta = w._root_object["/Metadata"].get_object()
        meta[NameObject("/Filter")] = NameObject("/FlateDecode")  # its bytes are not zlib

    bad = tampered(honest.get("docmeta"), tmp_path / "x.pdf", change)
    code, doc, err = verify(bad)
    assert code == 3
    # pypdf reads an undecodable stream as empty: either way nothing was checked
    assert check(doc, "xmp")["status"] == "error"
    assert check(doc, "xmp")["detail"].startswith("not checked: the XMP ")


# -- PithRecord must be byte-canonical ------------------------------------------------------

@pytest.mark.parametrize("case, change, words", [
    ("leading white space", lambda r: " " + r, "white space around it"),
    ("10 MB of leading white space", lambda r: " " * (10 << 20) + r,
     "PithRecord is larger than 1024 KiB"),
    ("a duplicate key", lambda r: r[:-1] + ',"schema_version":"1.0"}', "the key "
     "'schema_version' twice"),
    ("indented", lambda r: json.dumps(json.loads(r), indent=2, sort_keys=True),
     "other formatting"),
])
def test_record_not_canonical(honest, tmp_path, case, change, words):
    def edit(w):
        w.add_metadata({"/PithRecord": change(w.metadata["/PithRecord"])})

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "r.pdf", edit))
    assert code == 1, (case, doc)
    c = check(doc, "canonical")
    assert c["status"] == "fail" and words in c["detail"], c


# -- raw-byte PDFs: the page tree ------------------------------------------------------------


def test_a_huge_page_tree_is_not_walked(tmp_path):
    # page 1, then 20,000 kids that are not pages at all: walking the tree whole (to
    # count pages or build the page list) meets them; finding page 1 does not
    kids = b"3 0 R " + b" ".join([b"7 0 R"] * 20_000)  # pypdf caps an array's length
    pdf = tmp_path / "huge.pdf"
    content = b"BT /F1 10 Tf 72 700 Td (%s) Tj ET" % CLAIMED.encode()
    pdf.write_bytes(raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Count 100000 /Kids [%s] /MediaBox [0 0 612 792] >>" % kids,
        3: b"<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 6 0 R "
           b">> >> >>",
        4: info_object(),
        5: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        6: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        7: b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",  # loops back to the root
    }, info=4))
    code, doc, err = verify(pdf)
    # a /Count no walk of the kids gives, and a loop: which page is page 1 depends on the
    # reader (issue 19), so the structural gate refuses it, and stops at the loop; PDFium
    # finds page 1 where poppler finds none, so the viewers disagree too
    assert code == 3, doc
    assert "page tree" in check(doc, "structure")["detail"]


def test_a_page_tree_loop_ends(tmp_path):
    pdf = tmp_path / "loop.pdf"
    pdf.write_bytes(raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        3: b"<< /Type /Pages /Count 1 /Kids [2 0 R 3 0 R] /Parent 3 0 R >>",
        4: info_object(),
    }, info=4))
    code, doc, err = verify(pdf)
    assert code == 3
    assert "page-tree nodes" in doc["files"][0]["error"] or "page 1" in err


