"""A hostile corpus for ``pith-tex verify``: PDFs compiled with pith.sty (a real compile,
with the QR code) and tampered with (pypdf, raw bytes), raw-byte PDFs, and JSON files that
broke ``verify DIR``.  Every case runs the command in a subprocess under a memory cap
(RLIMIT_AS) and a time limit, and states the exit code and the words it must give.

Issue 9: no false "verified" (ambiguity is failure; what cannot be checked is exit 3).
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

pytestmark = pytest.mark.hostile

import recorded
import texbuild
from pdfclaims import qr_box, tampered, xmp_edited
from pith_tex.include.include import IncludeData, render
from pith_tex.include.qr import qr_rows

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
N = V["number"]
V2 = next(v for v in VECTORS[1:] if v["number"] != N)
N2 = V2["number"]
CLAIMED = "pith:%d:%s" % (V["year"], N)
OTHER = "pith:%d:%s" % (V["year"], N2)  # another number, same year

MEMORY_CAP = 1024 * 1024 * 1024  # bytes of address space per case
TIME_LIMIT = 60  # seconds per case


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def verify(*args: Any) -> Tuple[int, Dict[str, Any], str]:
    """(exit code, the --json document, stderr) of ``pith-tex verify --json ARGS``, run
    under the memory cap and the time limit."""
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", *map(str, args)],
                       capture_output=True, text=True, timeout=TIME_LIMIT,
                       preexec_fn=_limits)
    assert "Traceback" not in r.stderr, r.stderr
    doc = json.loads(r.stdout)  # --json always prints
    assert doc["exit_code"] == r.returncode
    return r.returncode, doc, r.stderr


def check(doc: Dict[str, Any], name: str) -> Dict[str, str]:
    f = doc["files"][0]
    found = [c for c in f["checks"] if c["name"] == name]
    assert found, f
    return found[0]


def badge_shown(doc: Dict[str, Any]) -> bool:
    """Whether the ``badge`` check saw the claimed number shown: OK when a link over it
    opens its Pith page, a warning when nothing links it (a link removed, a planted copy)."""
    c = check(doc, "badge")
    return c["status"] in ("ok", "warn") and c["detail"].startswith(
        "page 1 shows %s (visible" % CLAIMED)


# -- honest PDFs from a real compile ---------------------------------------------------------

def _include(v: Dict[str, Any]) -> str:
    return render(IncludeData(v["number"], v["year"], v["canonical_hash"],
                              v["canonical_record"], "absent", None, None)).decode("ascii")


def _source(options: str, docmeta: bool = False, preamble: str = "") -> str:
    return ("%s\\documentclass{article}\n\\usepackage[%s]{pith}\n%s\\pithnumber{%s}\n"
            "\\title{A Paper}\\author{A. Author}\\date{}\n"
            "\\begin{document}\n\\maketitle\nSome text.\n\\end{document}\n"
            % ("\\DocumentMetadata{}\n" if docmeta else "", options, preamble, N))


class Honest:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._built: Dict[str, Path] = {}

    def get(self, name: str) -> Path:
        if name not in self._built:
            route, options, docmeta = {
                "qr": ("pdflatex", "qr", False), "hide": ("pdflatex", "hide", False),
                "linked": ("pdflatex", "qr", False),  # with hyperref: badge and code linked
                "plain": ("pdflatex", "", False), "docmeta": ("pdflatex", "qr", True),
                # pith.sty draws the code as one path of rectangles in module units
                # (pdfTeX's literal, dvipdfmx's pdf:content); ghostscript turns dvips's
                # rectfill into one filled rectangle a run, in points
                "qr-xelatex": ("xelatex", "qr", False), "qr-dvips": ("dvips", "qr", False),
            }[name]
            preamble = "\\usepackage{hyperref}\n" if name == "linked" else ""
            b = texbuild.compile_tex(self.root / name, _source(options, docmeta, preamble),
                                     route, include=_include(V))
            assert b.ok, b.describe()
            self._built[name] = b.pdf
        return self._built[name]


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Honest:
    return Honest(tmp_path_factory.mktemp("honest"))


def same_length(data: bytes, old: bytes, new: bytes) -> bytes:
    """*data* with *old* (once) replaced by *new* padded to the same length: the xref
    offsets stay right."""
    assert data.count(old) == 1, (old, data.count(old))
    assert len(new) <= len(old)
    return data.replace(old, new + b" " * (len(old) - len(new)))


def page_ops(w: Any, ops: bytes, font: bool = True) -> None:
    """Append *ops* to page 1's content (with Helvetica as /FPT when *font*)."""
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    page = w.pages[0]
    if font:
        res = page["/Resources"].get_object()
        if "/Font" not in res:
            res[NameObject("/Font")] = DictionaryObject()
        res["/Font"].get_object()[NameObject("/FPT")] = w._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
            NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))
    old = page.get_contents().get_data()
    s = DecodedStreamObject()
    s.set_data(b"q\n" + old + b"\nQ\n" + ops)
    page[NameObject("/Contents")] = w._add_object(s)


def text_ops(text: str, x: float = 100, y: float = 100, size: float = 10,
             before: bytes = b"") -> bytes:
    return b"q %s BT /FPT %g Tf %g %g Td (%s) Tj ET Q\n" % (before, size, x, y,
                                                          text.encode("ascii"))


def grid_ops(rows: List[str], x: float, y: float, module: float) -> bytes:
    """Rules for the dark runs of *rows*, as pith.sty draws a QR code."""
    out = []
    for i, row in enumerate(rows):
        for m in re.finditer("1+", row):
            out.append(b"q 1 0 0 1 %.3f %.3f cm 0 0 %.3f %.3f re f Q" % (
                x + m.start() * module, y - (i + 1) * module, len(m.group(0)) * module,
                module))
    return b"\n".join(out) + b"\n"


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


_DASHES = re.compile(rb"\[ ?([0-9. ]+?) ?\] ?0 d")  # a row's dash array, any route


def _edit_dashes(w: Any, edit: Any) -> None:
    """Page 1's content with the dash array of the code's middle row replaced by
    *edit* of its lengths (list of floats -> list of floats)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = _qr_stream(w)
    rows = list(_DASHES.finditer(data))
    assert len(rows) > 20, data[:3000]
    row = rows[len(rows) // 2]
    lengths = [float(v) for v in row.group(1).split()]
    new = b"[%s] 0 d" % b" ".join(b"%g" % v for v in edit(lengths))
    s = DecodedStreamObject()
    s.set_data(data[:row.start()] + new + data[row.end():])
    page[NameObject("/Contents")] = w._add_object(s)


@pytest.mark.parametrize("name", ["qr", "qr-xelatex", "qr-dvips"])
def test_one_run_removed_fails(honest, tmp_path, name):
    def merge(a: List[float]) -> List[float]:
        assert len(a) >= 5, a
        return a[:1] + [a[1] + a[2] + a[3]] + a[4:]  # the second dark run becomes light

    code, doc, err = verify(tampered(honest.get(name), tmp_path / "q.pdf",
                                     lambda w: _edit_dashes(w, merge)))
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


def badge_seen_or_refused(pdf: Any, shown: bool, why: str) -> None:
    """verify on *pdf*: the badge is vouched for (exit 0, ``badge`` OK) when *shown*, else
    not verified (exit 1, or 3 when the engines disagree or a construct is refused).
    (*why* named the old interpreter's reason; the engines now decide, and say it their
    way.)"""
    code, doc, err = verify(pdf)
    c = check(doc, "badge")
    if shown:
        assert code == 0 and badge_shown(doc), doc
    else:  # not vouched for: refused, or (the engines read no number there) no badge
        assert c["status"] in ("fail", "error") or (
            code == 0 and c["detail"].startswith("page 1 shows no pith:NUMBER badge")), doc


def _layer(w: Any, state: str, base: Optional[str] = None) -> bytes:
    """An optional content group named /oc1 in page 1's resources, in the default
    configuration's *state* list (/ON or /OFF; *base*: its /BaseState)."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    group = w._add_object(DictionaryObject({NameObject("/Type"): NameObject("/OCG"),
                                            NameObject("/Name"): TextStringObject("badge")}))
    config = DictionaryObject({NameObject("/Order"): ArrayObject([group]),
                               NameObject(state): ArrayObject([group])})
    if base is not None:
        config[NameObject("/BaseState")] = NameObject(base)
    w._root_object[NameObject("/OCProperties")] = DictionaryObject({
        NameObject("/OCGs"): ArrayObject([group]), NameObject("/D"): config})
    res = w.pages[0]["/Resources"].get_object()
    res[NameObject("/Properties")] = DictionaryObject({NameObject("/oc1"): group})
    return b"/OC /oc1 BDC\n" + text_ops(CLAIMED) + b"EMC\n"


@pytest.mark.parametrize("state, base, shown", [
    ("/OFF", None, False), ("/ON", "/OFF", True), ("/ON", None, True),
], ids=["off", "on-base-off", "on"])
def test_a_badge_in_a_layer_that_is_off_is_not_visible(honest, tmp_path, state, base, shown):
    """A viewer (poppler) does not draw optional content its default configuration
    switches off."""
    pdf = tampered(honest.get("hide"), tmp_path / "layer.pdf",
                   lambda w: page_ops(w, _layer(w, state, base)))
    badge_seen_or_refused(pdf, shown, "optional content")


def _odd_layers(w: Any, where: str) -> bytes:
    """:func:`_layer` switched off, with a null in the configuration's list *where*
    (/OFF; /ON or /OCGs under /BaseState /OFF)."""
    from pypdf.generic import ArrayObject, NameObject, NullObject

    ops = _layer(w, "/OFF")
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
    drawn = _rendered(pdf, tmp_path) != _rendered(honest.get("hide"), tmp_path)
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
    x0, y0, x1, y1 = _badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        _membership(w, lambda on, off: {"/VE": _expr(ve, on)})
        page_ops(w, b"/OC /oc1 BDC\nq 1 g %g %g %g %g re f Q\nEMC\n"
                 % (x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4), font=False)

    pdf = tampered(honest.get("linked"), tmp_path / "box.pdf", edit)
    covered = _rendered(pdf, tmp_path) != _rendered(honest.get("linked"), tmp_path)
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

    x0, y0, x1, y1 = _badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        _layer(w, "/OFF")
        props = w._root_object["/OCProperties"]
        if not listed:
            props[NameObject("/OCGs")] = ArrayObject([])
        page_ops(w, b"/OC /oc1 BDC\nq 1 g %g %g %g %g re f Q\nEMC\n"
                 % (x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4), font=False)

    pdf = tampered(honest.get("linked"), tmp_path / "box.pdf", edit)
    covered = _rendered(pdf, tmp_path) != _rendered(honest.get("linked"), tmp_path)
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
    drawn = _rendered(pdf, tmp_path) != _rendered(honest.get("hide"), tmp_path)
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
    assert _rendered(pdf, tmp_path) == _rendered(honest.get("hide"), tmp_path)
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
    read, dark = _rendered(pdf, tmp_path)
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


def _link_with(w: Any, action: Dict[str, Any], base: Optional[str] = None) -> None:
    """A link annotation on page 1 with *action* (pypdf objects by key); *base*: the
    catalog's /URI /Base, against which viewers resolve relative URIs."""
    from pypdf.generic import (ArrayObject, DictionaryObject, FloatObject, NameObject,
                               TextStringObject)

    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (10, 10, 20, 20)]),
        NameObject("/A"): DictionaryObject(action)})
    page = w.pages[0]
    annots = page.get("/Annots")
    annots = annots.get_object() if annots is not None else ArrayObject()
    annots.append(w._add_object(annot))
    page[NameObject("/Annots")] = annots
    if base is not None:
        w._root_object[NameObject("/URI")] = DictionaryObject(
            {NameObject("/Base"): TextStringObject(base)})


def _uri(text: str) -> Dict[str, Any]:
    from pypdf.generic import NameObject, TextStringObject
    return {NameObject("/S"): NameObject("/URI"), NameObject("/URI"): TextStringObject(text)}


def _other_link_cases() -> List[Tuple[str, Callable[[], Tuple[Dict[str, Any], Optional[str]]]]]:
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    pct = "".join("%%%02X" % ord(c) for c in N2)
    return [
        ("percent-encoded", lambda: (_uri("https://pith.science/pith/" + pct), None)),
        ("port", lambda: (_uri("https://pith.science:443/pith/" + N2), None)),
        ("dot-segment", lambda: (_uri("https://pith.science/x/../pith/" + N2), None)),
        ("double-slash", lambda: (_uri("https://pith.science//pith/" + N2), None)),
        ("relative-to-base", lambda: (_uri(N2), "https://pith.science/pith/")),
        ("next-action", lambda: ({**_uri("https://pith.science/pith/" + N), NameObject("/Next"):
                                  DictionaryObject(_uri("https://pith.science/pith/" + N2))},
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
                                     lambda w: _link_with(w, action, base)))
    assert code == 1 and check(doc, "badge")["status"] == "fail", doc


def test_a_link_to_this_number_in_other_spellings_passes(honest, tmp_path):
    pct = "".join("%%%02X" % ord(c) for c in N)
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "l.pdf", lambda w: _link_with(
        w, _uri("https://pith.science:443/x/../pith/" + pct))))
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
        ("another site", lambda: (_uri("https://evil.example/"), None, None), "another host"),
        ("a look-alike host", lambda: (_uri("https://pith.science.evil.example/pith/" + N),
                                       None, None), "another host"),
        ("user information", lambda: (_uri("https://pith.science@evil.example/pith/" + N),
                                      None, None), "user information"),
        ("another pith page", lambda: (_uri("https://pith.science/about"), None, None),
         "another page"),
        ("a sub-page", lambda: (_uri(URL + "/state.json"), None, None), "another page"),
        ("trailing slash", lambda: (_uri(URL + "/"), None, None), "trailing slash"),
        ("query", lambda: (_uri(URL + "?next=https://evil.example/"), None, None),
         "a query"),
        ("http", lambda: (_uri("http://pith.science/pith/" + N), None, None), "not https"),
        ("another port", lambda: (_uri("https://pith.science:8443/pith/" + N), None, None),
         "another port"),
        ("lower-case number", lambda: (_uri("https://pith.science/pith/" + N.lower()), None,
                                       None), "another letter case"),
        ("relative to another base", lambda: (_uri("/pith/" + N), None,
                                              "https://evil.example/"), "another host"),
        ("launch", lambda: (_action("Launch", F="evil.sh"), None, None), "/Launch action"),
        ("gotor", lambda: (_action("GoToR", F="other.pdf", D=ArrayObject(
            [NumberObject(0), NameObject("/Fit")])), None, None), "/GoToR action"),
        ("javascript", lambda: (js, None, None), "/JavaScript action"),
        ("a chained action", lambda: (dict(_uri(URL), **{NameObject("/Next"): DictionaryObject(
            _uri("https://evil.example/"))}), None, None), "a chain of actions"),
        ("a map link", lambda: (dict(_uri(URL), **{NameObject("/IsMap"): BooleanObject(True)}),
                                None, None), "a map link"),
        ("additional actions", lambda: (_uri(URL), {"/AA": DictionaryObject(
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
                                     _retargeted("badge", _uri(uri), None, base)))
    assert code == 0, doc
    c = check(doc, "badge")
    assert c["status"] == "ok" and c["detail"].endswith(", linked to %s" % URL), c


def test_a_badge_link_written_in_utf16_fails(honest, tmp_path):
    """A URI is 7-bit ASCII: the same address in UTF-16 (pypdf decodes it) is bytes a
    viewer may pass on as they are."""
    from pypdf.generic import ByteStringObject, NameObject

    action = dict(_uri(URL), **{NameObject("/URI"): ByteStringObject(
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


def _link_over(box: Tuple[float, float, float, float], uri: str) -> Callable[[Any], None]:
    def edit(w: Any) -> None:
        _link_with(w, _uri(uri))
        from pypdf.generic import ArrayObject, FloatObject, NameObject

        annot = w.pages[0]["/Annots"][-1].get_object()
        annot[NameObject("/Rect")] = ArrayObject([FloatObject(v) for v in box])
    return edit


def _badge_box(pdf: Path) -> Tuple[float, float, float, float]:
    """Where pith.sty's badge link lies on page 1 (around the badge's text)."""
    from pypdf import PdfReader
    from pypdf.generic import NameObject

    for ref in PdfReader(str(pdf)).pages[0]["/Annots"]:
        x0, y0, x1, y1 = (float(v) for v in ref.get_object()[NameObject("/Rect")])
        if (x1 - x0) / (y1 - y0) > 2:
            return (x0, y0, x1, y1)
    raise AssertionError("no badge link")


@pytest.mark.parametrize("part, shown", [("all", False), ("right", False), ("beside", True)])
def test_a_second_link_over_the_badge_fails(honest, tmp_path, part, shown):
    """pith.sty's link stays; another one is laid over the whole badge, or only over the
    end of its number (the text's extent comes from the font's widths: the text matrix
    pypdf reports does not move over a show), or beside it."""
    x0, y0, x1, y1 = _badge_box(honest.get("linked"))
    box = {"all": (x0, y0, x1, y1), "right": (x1 - 0.15 * (x1 - x0), y0, x1, y1),
           "beside": (x1 + 5, y0, x1 + 40, y1)}[part]
    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "l.pdf",
                                     _link_over(box, "https://evil.example/")))
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
    x0, y0, x1, y1 = _badge_box(honest.get("linked"))
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
            _layer(w, "/OFF")
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
    x0, y0, x1, y1 = _badge_box(honest.get("linked"))

    def edit(w: Any) -> None:
        _link_over((x0, y0, x1 + 80, y1), "https://evil.example/")(w)
        _quad_points(w.pages[0]["/Annots"][-1].get_object(), [(x1 + 5, y0, x1 + 80, y1)])

    code, doc, err = verify(tampered(honest.get("linked"), tmp_path / "q.pdf", edit))
    assert code == 1 and "opens 'https://evil.example/'" in check(doc, "badge")["detail"], doc


def test_a_planted_badge_under_a_link_elsewhere_fails(honest, tmp_path):
    """A copy of the number planted on a PDF without a badge, under a link elsewhere."""
    def edit(w: Any) -> None:
        page_ops(w, text_ops(CLAIMED, 100, 100, 10))
        _link_over((95, 95, 400, 112), "https://evil.example/")(w)

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "p.pdf", edit), False,
                          "a link over the badge %s opens 'https://evil.example/'" % CLAIMED)


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
        assert _rendered(pdf, tmp_path) == _rendered(plain, tmp_path)
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
        _link_over((right - 197, 695, right, 712), "https://pith.science/pith/" + N)(w)

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
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    def edit(w: Any) -> None:
        page_ops(w, text_ops(CLAIMED))
        font = w.pages[0]["/Resources"]["/Font"]["/FPT"]
        font.update({NameObject("/FirstChar"): NumberObject(32),
                     NameObject("/LastChar"): NumberObject(126),
                     NameObject("/Widths"): ArrayObject([NumberObject(0)] * 95)})

    badge_seen_or_refused(tampered(honest.get("hide"), tmp_path / "z.pdf", edit), False,
                          "over each other")


def poppler_reads(pdf: Path) -> str:
    """The text poppler reads from page 1 as laid out (pdftotext -layout), each line's
    ends stripped and the lines joined: what a reader of the rendered page reads, in
    order, with spaces where glyphs stand apart."""
    out = subprocess.run([texbuild.tool("pdftotext"), "-layout", "-f", "1", "-l", "1",
                          str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return "".join(line.strip() for line in out.splitlines())


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


# -- the QR code ----------------------------------------------------------------------------

def _qr_stream(w: Any) -> Tuple[Any, bytes]:
    page = w.pages[0]
    return page, page.get_contents().get_data()


_ROW = rb"\[[0-9 ]+\]0 d [0-9]+ [0-9]+\.5 m [0-9]+ [0-9]+\.5 l S "


def _edit_path(w: Any, edit: Any) -> None:
    """Page 1's content with pith.sty's QR path (``q S 0 0 S T T cm 0 G 1 w 0 J <rows> Q``,
    a row ``[D1 L2 ...]0 d L1 y.5 m SIZE y.5 l S``) changed by *edit* (bytes -> bytes)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = _qr_stream(w)
    m = re.search(rb"q [0-9.]+ 0 0 [0-9.]+ [0-9.]+ [0-9.]+ cm 0 G 1 w 0 J (?:%s)+Q" % _ROW,
                  data)
    assert m, data[:2000]
    s = DecodedStreamObject()
    s.set_data(data[:m.start()] + edit(m.group(0)) + data[m.end():])
    page[NameObject("/Contents")] = w._add_object(s)


def test_one_module_changed_fails(honest, tmp_path):
    def widen(a: List[float]) -> List[float]:
        return [a[0] + 1, a[1] - 1] + a[2:]  # one light module after the first run dark

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "q.pdf",
                                     lambda w: _edit_dashes(w, widen)))
    assert code in (1, 3)
    c = check(doc, "qr")
    assert c["status"] == "fail" and "modules differ" in c["detail"], c


@pytest.mark.parametrize("how, edit", [
    ("not painted", lambda p: p.replace(b" l S ", b" l n ")),
    ("white", lambda p: p.replace(b" cm 0 G ", b" cm 1 G ", 1)),
    ("round caps", lambda p: p.replace(b" 0 J ", b" 1 J ", 1)),
    ("dashes shifted by a phase", lambda p: p.replace(b"]0 d", b"]0.5 d")),
    ("inside a dark square", lambda p: p.replace(b" 0 J ", b" 0 J 0 g 0 0 29 29 re f ", 1)),
])
def test_path_a_reader_cannot_see_does_not_count(honest, tmp_path, how, edit):
    """The code drawn as dashed lines: unpainted, white, with round caps or a dash phase
    (dashes of other shapes or places than the modules'), or with a dark square filled
    over it, it is not the QR code a reader sees, and verify does not say it checked
    one."""
    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf",
                                     lambda w: _edit_path(w, edit)))
    c = check(doc, "qr")
    assert c["status"] in ("warn", "fail"), c
    assert "is the code of" not in c["detail"], c


def test_dark_square_over_the_code_fails(honest, tmp_path):
    """A dark square painted over part of pith.sty's code (not one module high, so not one
    of its rows) hides those modules from a scanner: not vouched for.  (The same square
    over a code drawn by hand on a paper without the qr option leaves a symbol that
    decodes to nothing: no code of pith.sty's, as stray symbols in text are, issue 27.)"""
    def edit(w: Any) -> None:
        box = qr_box(w)
        page_ops(w, b"0 g %.2f %.2f 20 20 re f\n" % (box[0] + 10, box[1] + 10), font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "q.pdf", edit))
    c = check(doc, "qr")
    assert code in (1, 3) and c["status"] == "fail", c


def test_path_scaled_below_a_scannable_module_fails(honest, tmp_path):
    def shrink(p: bytes) -> bytes:
        return re.sub(rb"^q [0-9.]+ 0 0 [0-9.]+ ", b"q 0.1 0 0 0.1 ", p)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "s.pdf",
                                     lambda w: _edit_path(w, shrink)))
    c = check(doc, "qr")
    # too small for a scanner to find at all: never "checked"
    assert c["status"] in ("fail", "warn") and "decodes to" not in c["detail"], c


def _stroked_runs(rows: List[str], dash: bytes, x: float = 400, y: float = 300,
                  module: float = 1.5) -> bytes:
    """Each dark run of *rows* as a line one module wide, with the dash setting *dash*."""
    ops = []
    for i, row in enumerate(rows):
        yy = y - (i + 0.5) * module
        for m in re.finditer("1+", row):
            ops.append(b"q %s%.2f w 0 G %.3f %.3f m %.3f %.3f l S Q" % (
                dash, module, x + m.start() * module, yy, x + m.end() * module, yy))
    return b"\n".join(ops) + b"\n"


def test_dashed_runs_are_not_read_as_solid(honest, tmp_path):
    """The right code with every run stroked as a line dashed almost to nothing
    ([0.05 100]): a reader sees specks, and so does the scanner, which follows dashes.
    The same lines undashed are the code."""
    rows = qr_rows(N)
    bad = tampered(honest.get("plain"), tmp_path / "d.pdf", lambda w: page_ops(
        w, _stroked_runs(rows, b"[0.05 100] 0 d "), font=False))
    code, doc, err = verify(bad)
    c = check(doc, "qr")  # specks: no code of pith.sty's (none asked for), none vouched for
    assert "decodes to HTTPS" not in c["detail"] and "is the code of" not in c["detail"], c
    good = tampered(honest.get("plain"), tmp_path / "s.pdf", lambda w: page_ops(
        w, _stroked_runs(rows, b"[] 0 d "), font=False))
    code, doc, err = verify(good)
    assert code == 0 and check(doc, "qr")["status"] == "ok", doc


def test_another_numbers_code_alone_fails(honest, tmp_path):
    rows = qr_rows(N2)
    bad = tampered(honest.get("plain"), tmp_path / "q.pdf",
                   lambda w: page_ops(w, grid_ops(rows, 400, 300, 1.5), font=False))
    code, doc, err = verify(bad)
    assert code == 1 and check(doc, "qr")["status"] == "fail"
    # and the right code drawn the same way passes: the reading back is exact
    good = tampered(honest.get("plain"), tmp_path / "g.pdf",
                    lambda w: page_ops(w, grid_ops(qr_rows(N), 400, 300, 1.5), font=False))
    code, doc, err = verify(good)
    assert code == 0 and check(doc, "qr")["status"] == "ok", doc


def test_a_second_code_is_not_vouched_for(honest, tmp_path):
    bad = tampered(honest.get("qr"), tmp_path / "q.pdf",
                   lambda w: page_ops(w, grid_ops(qr_rows(N2), 400, 300, 1.5), font=False))
    code, doc, err = verify(bad)
    # another decodable code on page 1 fails: a scanner may read either
    assert code == 1
    c = check(doc, "qr")
    assert c["status"] == "fail" and N2 in c["detail"], c


@pytest.mark.parametrize("scale, ok", [(0.2, False), (0.6, True)], ids=["tiny", "small"])
def test_a_code_too_small_to_scan_fails(honest, tmp_path, scale, ok):
    """pith.sty's own code, drawn smaller (as qr-size=4mm would): module for module the
    right code, but no scanner reads modules of 0.1 mm.  The default 2 cm code has
    0.54 mm modules; 0.6 of it, 0.33 mm, still scans."""
    def edit(w):
        from pypdf.generic import DecodedStreamObject, NameObject

        x0, y0, _, _ = qr_box(w)
        page = w.pages[0]
        s = DecodedStreamObject()
        # shrink the page about the code's corner: the code stays on the page
        s.set_data(b"q %g 0 0 %g %.3f %.3f cm\n" % (scale, scale, x0 * (1 - scale),
                                                     y0 * (1 - scale))
                   + page.get_contents().get_data() + b"\nQ\n")
        page[NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "s.pdf", edit))
    c = check(doc, "qr")
    if ok:
        assert c["status"] == "ok", doc
    else:
        assert c["status"] in ("fail", "error", "warn"), doc  # never "checked"


def test_a_code_clipped_away_is_not_drawn(honest, tmp_path):
    """Modules outside the clipping area are not painted: a code clipped away is not
    pith.sty's code on the page (the badge, right of it, stays visible)."""
    def edit(w):
        from pypdf.generic import DecodedStreamObject, NameObject

        box = qr_box(w)
        page = w.pages[0]
        s = DecodedStreamObject()
        s.set_data(b"q %.2f 0 2000 2000 re W n\n" % (box[2] + 1) + page.get_contents().get_data()
                   + b"\nQ\n")
        page[NameObject("/Contents")] = w._add_object(s)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "c.pdf", edit))
    assert badge_shown(doc), doc
    assert check(doc, "qr")["status"] != "ok", doc


def test_paint_over_the_code_fails(honest, tmp_path):
    def edit(w):

        box = qr_box(w)
        page_ops(w, b"1 g %.2f %.2f 6 6 re f\n" % (box[0] + 10, box[1] + 10), font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf", edit))
    assert code in (1, 3)
    assert check(doc, "qr")["status"] == "fail", doc



def _annotation(w: Any, rect: List[float], ops: bytes, subtype: str = "/FreeText") -> None:
    """Give page 1 an annotation of *subtype* over *rect* whose normal appearance stream
    draws *ops* (Helvetica as /F1): a viewer draws it over the page."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject, TextStringObject)

    font = w._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica")}))
    ap = DecodedStreamObject()
    ap.set_data(ops)
    box = ArrayObject([FloatObject(0), FloatObject(0), FloatObject(rect[2] - rect[0]),
                       FloatObject(rect[3] - rect[1])])
    ap.update({NameObject("/Type"): NameObject("/XObject"),
               NameObject("/Subtype"): NameObject("/Form"), NameObject("/BBox"): box,
               NameObject("/Resources"): DictionaryObject({NameObject("/Font"): DictionaryObject(
                   {NameObject("/F1"): font})})})
    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject(subtype),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
        NameObject("/AP"): DictionaryObject({NameObject("/N"): w._add_object(ap)}),
        NameObject("/F"): NumberObject(4), NameObject("/DA"): TextStringObject("/F1 10 Tf 0 g")})
    page = w.pages[0]
    annots = page.get("/Annots")
    annots = annots.get_object() if annots is not None else ArrayObject()
    annots.append(w._add_object(annot))
    page[NameObject("/Annots")] = annots


def _number_box(pdf: Path) -> Tuple[float, float, float, float]:
    """Where page 1 shows the claimed number (PDFium's box of its characters, in user
    space)."""
    from pith_tex.pdf import pageview

    v = pageview.pdfium_view(pdf.read_bytes())
    (word,) = [w for w in v.words if w.text == CLAIMED]
    b = word.box
    d = (b[3] - b[1]) * 0.15  # PDFium's loose box, to about the glyphs' own height
    return (v.crop[0] + b[0], v.crop[3] - b[3] + d, v.crop[0] + b[2], v.crop[3] - b[1] - d)


def _grey_levels(pdf: Path, box: Tuple[float, float, float, float], tmp_path: Path) -> List[int]:
    """The grey levels poppler renders (150 dpi) in the middle of *box* (a quarter of its
    height in from every side)."""
    from pypdf import PdfReader

    top = float(PdfReader(str(pdf)).pages[0].mediabox[3])
    x0, y0, x1, y1 = box
    d = (y1 - y0) / 4
    k = 150 / 72
    x, y = int((x0 + d) * k), int((top - y1 + d) * k)
    w, h = int((x1 - x0 - 2 * d) * k), int((y1 - y0 - 2 * d) * k)
    tmp_path.mkdir()
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "150", "-gray", "-f", "1", "-l", "1",
                    "-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h), str(pdf),
                    str(tmp_path / "region")], check=True)
    pgm = next(tmp_path.glob("region*.pgm")).read_bytes().split(b"\n", 3)[3]
    return list(pgm)


def _cover(how: str, box: Tuple[float, float, float, float]) -> Callable[[Any], None]:
    x0, y0, x1, y1 = box
    rect = b"%.2f %.2f %.2f %.2f re f" % (x0, y0, x1 - x0, y1 - y0)

    def edit(w: Any) -> None:
        if how == "annotation":
            _annotation(w, [x0, y0, x1, y1], b"1 g 0 0 %.2f %.2f re f" % (x1 - x0, y1 - y0),
                        "/Square")
        elif how in ("square, no appearance", "free text, no appearance"):
            # viewers make its appearance: poppler fills a square with its /IC, writes
            # a free text's note over a background in its /C
            from pypdf.generic import (ArrayObject, DictionaryObject, FloatObject,
                                       NameObject, TextStringObject)

            white = ArrayObject([FloatObject(1)] * 3)
            annot = DictionaryObject({
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Rect"): ArrayObject([FloatObject(v) for v in box]),
                NameObject("/C"): white, NameObject("/IC"): white,
                NameObject("/Subtype"): NameObject("/Square" if how[0] == "s" else "/FreeText"),
                NameObject("/DA"): TextStringObject("/Helv 12 Tf 0 g"),
                NameObject("/Contents"): TextStringObject("WWWWWWWWWWWWWWWWWWWWWWWW")})
            page = w.pages[0]
            page[NameObject("/Annots")].get_object().append(w._add_object(annot))
        elif how == "under":  # a white box first, the page on it: a background
            _content(w, lambda data: b"q 1 g %s Q\n" % rect + data)
        elif how == "text":  # other glyphs drawn on the number
            page_ops(w, b"q BT /FPT %.2f Tf %.2f %.2f Td (%s) Tj ET Q\n"
                     % (y1 - y0, x0, y0 + (y1 - y0) * 0.2, b"W" * 40))
        else:
            page_ops(w, b"q %s %s Q\n" % ({"white": b"1 g", "black": b"0 g"}[how], rect),
                     font=False)
    return edit


@pytest.mark.parametrize("how, shown", [
    ("white", False), ("black", False), ("text", False), ("annotation", False),
    ("square, no appearance", False), ("free text, no appearance", False),
    ("under", True)])
def test_something_drawn_over_the_badge_hides_it(honest, tmp_path, how, shown):
    """A white or black box, other glyphs, or an annotation's appearance drawn over the
    number after it: poppler renders no number there (one colour, or other glyphs), so
    it is not vouched for; the same box drawn before it is a background."""
    box = _number_box(honest.get("qr"))
    before = _grey_levels(honest.get("qr"), box, tmp_path / "a")
    pdf = tampered(honest.get("qr"), tmp_path / "c.pdf", _cover(how, box))
    after = _grey_levels(pdf, box, tmp_path / "b")
    assert min(before) < 64 and max(before) > 192  # black glyphs on white
    assert (after == before) == shown, (how, min(after), max(after))
    code, doc, err = verify(pdf)
    c = check(doc, "badge")
    if shown:
        assert code == 0 and c["status"] == "ok", doc
    else:
        assert code in (1, 3) and c["status"] in ("fail", "error"), c


@pytest.mark.parametrize("subtype", ["/FreeText", "/Stamp"])
def test_an_annotation_showing_another_number_fails(honest, tmp_path, subtype):
    bad = tampered(honest.get("qr"), tmp_path / "annot.pdf", lambda w: _annotation(
        w, [100, 100, 400, 120], b"BT /F1 10 Tf 2 5 Td (%s) Tj ET" % OTHER.encode(), subtype))
    shown = subprocess.run([texbuild.tool("pdftotext"), str(bad), "-"],
                           capture_output=True, text=True).stdout
    assert OTHER in "".join(shown.split())  # poppler reads the annotation's number
    code, doc, err = verify(bad)
    assert code in (1, 3), doc
    c = check(doc, "badge")
    assert c["status"] == "fail" and OTHER in c["detail"], c


def test_an_annotation_painted_over_the_code_fails(honest, tmp_path):
    def edit(w):

        box = qr_box(w)
        _annotation(w, [box[0] + 10, box[1] + 10, box[0] + 30, box[1] + 30],
                    b"1 g 0 0 20 20 re f", "/Square")

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "p.pdf", edit))
    assert code in (1, 3), doc
    assert check(doc, "qr")["status"] == "fail", doc



def _repainted_code(w: Any, paint: Callable[[Any, float, float, float, bool], bytes]) -> None:
    """Paint, with *paint(w, x, y, module, dark)*, every module where the code of N2
    differs from page 1's code of N: a scanner then reads N2's URL."""

    box = qr_box(w)
    want, have = qr_rows(N2), qr_rows(N)
    assert len(want) == len(have)
    module = (box[2] - box[0]) / len(want)
    ops = []
    for i, row in enumerate(want):
        for j, bit in enumerate(row):
            if bit != have[i][j]:
                ops.append(paint(w, box[0] + j * module, box[3] - (i + 1) * module, module,
                                 bit == "1"))
    page_ops(w, b"\n".join(ops) + b"\n", font=False)


def _square_glyph(w: Any, x: float, y: float, module: float, dark: bool) -> bytes:
    """ZapfDingbats 'n' (a black square, a standard-14 font) over one module."""
    from pypdf.generic import DictionaryObject, NameObject

    fonts = w.pages[0]["/Resources"].get_object()["/Font"].get_object()
    if "/FZD" not in fonts:
        fonts[NameObject("/FZD")] = w._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/ZapfDingbats")}))
    size = module * 1000 / 691 * 1.08
    return b"BT %s /FZD %.3f Tf 1 0 0 1 %.3f %.3f Tm (n) Tj ET" % (
        b"0 g" if dark else b"1 g", size, x - 0.055 * size, y - 0.02 * size)


def _shaded(w: Any, x: float, y: float, module: float, dark: bool) -> bytes:
    """A constant-colour shading painted (``sh``) through a one-module clip."""
    from pypdf.generic import (ArrayObject, BooleanObject, DictionaryObject, FloatObject,
                               NameObject, NumberObject)

    res = w.pages[0]["/Resources"].get_object()
    if "/Shading" not in res:
        res[NameObject("/Shading")] = DictionaryObject()
    shadings = res["/Shading"].get_object()
    name = "/Sh%d" % int(dark)
    if name not in shadings:
        grey = ArrayObject([FloatObject(0 if dark else 1)])
        shadings[NameObject(name)] = w._add_object(DictionaryObject({
            NameObject("/ShadingType"): NumberObject(2),
            NameObject("/ColorSpace"): NameObject("/DeviceGray"),
            NameObject("/Coords"): ArrayObject([FloatObject(v) for v in (0, 0, 1, 0)]),
            NameObject("/Extend"): ArrayObject([BooleanObject(True), BooleanObject(True)]),
            NameObject("/Function"): DictionaryObject({
                NameObject("/FunctionType"): NumberObject(2),
                NameObject("/Domain"): ArrayObject([FloatObject(0), FloatObject(1)]),
                NameObject("/C0"): grey, NameObject("/C1"): grey,
                NameObject("/N"): NumberObject(1)})}))
    return b"q %.3f %.3f %.3f %.3f re W n %s sh Q" % (x, y, module, module, name.encode())


@pytest.mark.parametrize("paint", [_square_glyph, _shaded], ids=["glyphs", "shading"])
def test_modules_repainted_into_another_code_fail(honest, tmp_path, paint):
    bad = tampered(honest.get("qr"), tmp_path / "repainted.pdf",
                   lambda w: _repainted_code(w, paint))
    png = tmp_path / "page"
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "300", "-f", "1", "-l", "1", "-png",
                    str(bad), str(png)], check=True)
    read = subprocess.run([texbuild.tool("zbarimg"), "-q", "--raw",
                           str(next(tmp_path.glob("page*.png")))],
                          capture_output=True, text=True).stdout
    assert N2 in read, read  # what a scanner reads from poppler's rendering
    code, doc, err = verify(bad)
    assert code in (1, 3), doc
    assert check(doc, "qr")["status"] == "fail", doc


def test_a_square_image_is_not_vouched_for(honest, tmp_path):
    from pypdf.generic import DecodedStreamObject, NameObject, NumberObject, DictionaryObject

    def edit(w):
        img = DecodedStreamObject()
        img.set_data(b"\x00" * 4)
        img.update({NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Image"),
                    NameObject("/Width"): NumberObject(2), NameObject("/Height"): NumberObject(2),
                    NameObject("/ColorSpace"): NameObject("/DeviceGray"),
                    NameObject("/BitsPerComponent"): NumberObject(8)})
        res = w.pages[0]["/Resources"].get_object()
        if "/XObject" not in res:
            res[NameObject("/XObject")] = DictionaryObject()
        res["/XObject"].get_object()[NameObject("/ImQR")] = w._add_object(img)
        page_ops(w, b"q 60 0 0 60 400 100 cm /ImQR Do Q\n", font=False)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "i.pdf", edit))
    assert code == 0
    c = check(doc, "qr")
    # images are decoded with the rest of the page now: a square image that is no code
    # is nothing to say
    assert c["status"] == "ok", c


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

def raw_pdf(objects: Dict[int, bytes], info: Optional[int] = None) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, objects[num])
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += (b"%010d 00000 n \n" % offsets[num]) if num in offsets else \
            b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        size, b" /Info %d 0 R" % info if info else b"", xref)
    return bytes(out)


def _info_object() -> bytes:
    from pypdf.generic import TextStringObject

    parts = []
    for k, v in recorded_claims().items():
        buf = __import__("io").BytesIO()
        TextStringObject(v).write_to_stream(buf)
        parts.append(k.encode() + b" " + buf.getvalue())
    return b"<< " + b" ".join(parts) + b" >>"


def recorded_claims() -> Dict[str, str]:
    from pdfclaims import claims

    return claims(V)


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
        4: _info_object(),
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
        4: _info_object(),
    }, info=4))
    code, doc, err = verify(pdf)
    assert code == 3
    assert "page-tree nodes" in doc["files"][0]["error"] or "page 1" in err


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
                       preexec_fn=_limits)
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
        _layer(w, state)  # the group /oc1, in the default configuration's *state* list
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
        page_ops(w, b"/X BMC\n" * 10_000 + _layer(w, "/OFF") + b"EMC\n" * 10_000)

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
    read, dark = _rendered(pdf, tmp_path)
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
        4: _info_object(),
        5: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        6: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>",
        7: b"<< /Length 0 >>\nstream\n\nendstream",
    }, info=4))
    code, doc, err = verify(pdf)
    assert code == 3, doc
    c = check(doc, "badge")
    assert c["status"] == "error" and "reads as no text at all" in c["detail"], c


# -- the rest of an ExtGState: line width, cap and dashes, soft masks, transfer functions -------

def _ext_gstate(w: Any, entries: Callable[[Any], Dict[str, Any]]) -> None:
    """An ExtGState /GSx in page 1's resources with *entries* (made with the writer)."""
    from pypdf.generic import DictionaryObject, NameObject

    res = w.pages[0]["/Resources"].get_object()
    gs = DictionaryObject({NameObject("/Type"): NameObject("/ExtGState")})
    gs.update({NameObject(k): v for k, v in entries(w).items()})
    res[NameObject("/ExtGState")] = DictionaryObject({NameObject("/GSx"): gs})


def _content(w: Any, edit: Callable[[bytes], bytes]) -> None:
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = _qr_stream(w)
    s = DecodedStreamObject()
    s.set_data(edit(data))
    page[NameObject("/Contents")] = w._add_object(s)


def _rendered(pdf: Path, tmp_path: Path) -> Tuple[str, int]:
    """What poppler draws of page 1: the text zbar reads from it (300 dpi) and how many
    dark pixels it has (a 50 dpi grey render)."""
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "300", "-f", "1", "-l", "1", "-png",
                    str(pdf), str(tmp_path / "page")], check=True)
    read = subprocess.run([texbuild.tool("zbarimg"), "-q", "--raw",
                           str(next(tmp_path.glob("page*.png")))],
                          capture_output=True, text=True).stdout
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "50", "-gray", "-f", "1", "-l", "1",
                    str(pdf), str(tmp_path / "grey")], check=True)
    pgm = next(tmp_path.glob("grey*.pgm")).read_bytes().split(b"\n", 3)[3]
    return read, sum(1 for b in pgm if b < 128)


def _number(v: float) -> Any:
    from pypdf.generic import FloatObject

    return FloatObject(v)


def _name(name: str) -> Any:
    from pypdf.generic import NameObject

    return NameObject(name)


def _names(*names: str) -> Any:
    from pypdf.generic import ArrayObject

    return ArrayObject([_name(n) for n in names])


def _white_function(w: Any) -> Any:
    """A transfer function that maps every level to 1: everything painted is white."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    return DictionaryObject({
        NameObject("/FunctionType"): NumberObject(2),
        NameObject("/Domain"): ArrayObject([NumberObject(0), NumberObject(1)]),
        NameObject("/C0"): ArrayObject([NumberObject(1)]),
        NameObject("/C1"): ArrayObject([NumberObject(1)]), NameObject("/N"): NumberObject(1)})


def _empty_soft_mask(w: Any) -> Any:
    """A soft mask whose group paints nothing: its alpha is 0 everywhere."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    group = DecodedStreamObject()
    group.set_data(b"")
    group.update({NameObject("/Type"): NameObject("/XObject"),
                  NameObject("/Subtype"): NameObject("/Form"),
                  NameObject("/BBox"): ArrayObject([_number(v) for v in (0, 0, 1000, 1000)]),
                  NameObject("/Group"): DictionaryObject({
                      NameObject("/S"): NameObject("/Transparency")})})
    return DictionaryObject({NameObject("/Type"): NameObject("/Mask"),
                             NameObject("/S"): NameObject("/Alpha"),
                             NameObject("/G"): w._add_object(group)})


def _dash_entry(w: Any) -> Any:
    from pypdf.generic import ArrayObject

    return ArrayObject([ArrayObject([_number(0.02), _number(0.98)]), _number(0)])


# (ExtGState entries, where /GSx gs goes in the code's drawing)
_STROKE_STATES = {
    "line-width": (lambda w: {"/LW": _number(0.02)}, (b" 1 w 0 J", b" 1 w 0 J /GSx gs")),
    "round-caps": (lambda w: {"/LC": _number(1)}, (b" 1 w 0 J", b" 1 w 0 J /GSx gs")),
    "dashes": (lambda w: {"/D": _dash_entry(w)}, (b"]0 d ", b"]0 d /GSx gs ")),
}


@pytest.mark.parametrize("case", sorted(_STROKE_STATES))
def test_a_stroke_changed_by_an_extgstate_is_not_the_code(honest, tmp_path, case):
    """An ExtGState sets the line width (/LW), cap (/LC) and dash pattern (/D) as w, J
    and d do: the code's rows stroked as hairlines, with round caps or other dashes are
    not the code pith.sty drew, and no scanner reads it."""
    entries, (old, new) = _STROKE_STATES[case]

    def edit(w: Any) -> None:
        _ext_gstate(w, entries)
        _content(w, lambda data: data.replace(old, new))

    bad = tampered(honest.get("qr"), tmp_path / "s.pdf", edit)
    read, dark = _rendered(bad, tmp_path)
    assert N not in read, read  # poppler's rendering is no longer the code
    code, doc, err = verify(bad)
    assert check(doc, "qr")["status"] != "ok", doc


#: A white page painted first: blend modes mix what is painted with what is under it
#: (on the bare page, nothing: what is painted shows as it is).
_WHITE_PAGE = b"q 1 g -2000 -2000 5000 5000 re f Q\n"

_HIDING_STATES = {
    "soft-mask": (lambda w: {"/SMask": _empty_soft_mask(w)}, "soft mask"),
    "transfer": (lambda w: {"/TR": _white_function(w)}, "transfer function"),
    "transfer2": (lambda w: {"/TR2": _white_function(w)}, "transfer function"),
    # black over white paint: |1 - 0|, 1 - (1 - 1)(1 - 0), max(1, 0), ... are white
    "blend-difference": (lambda w: {"/BM": _name("/Difference")}, "blend mode"),
    "blend-screen": (lambda w: {"/BM": _name("/Screen")}, "blend mode"),
    "blend-lighten": (lambda w: {"/BM": _name("/Lighten")}, "blend mode"),
    "blend-exclusion": (lambda w: {"/BM": _name("/Exclusion")}, "blend mode"),
    "blend-array": (lambda w: {"/BM": _names("/Difference", "/Normal")}, "blend mode"),
}


@pytest.mark.parametrize("case", sorted(_HIDING_STATES))
def test_a_page_hidden_by_an_extgstate_is_not_verified(honest, tmp_path, case):
    """A soft mask (/SMask), a transfer function (/TR, /TR2) or a blend mode that lightens
    (/BM) set before the page's content can hide all of it: poppler draws a blank page.
    Neither the badge nor the code is vouched for."""
    entries, words = _HIDING_STATES[case]

    def edit(w: Any) -> None:
        _ext_gstate(w, entries)
        _content(w, lambda data: _WHITE_PAGE + b"/GSx gs\n" + data)

    bad = tampered(honest.get("qr"), tmp_path / "h.pdf", edit)
    read, dark = _rendered(bad, tmp_path)
    # a blank page in a viewer (blending: but for the mark's white pi, which /Difference
    # and /Exclusion turn dark blue over its blue square, 27 pixels; the text is gone)
    assert read == "" and dark <= (30 if case.startswith("blend") else 0), (read, dark)
    code, doc, err = verify(bad)
    assert code in (1, 3), doc
    badge = check(doc, "badge")
    assert badge["status"] in ("fail", "error"), badge
    assert check(doc, "qr")["status"] != "ok", doc


@pytest.mark.parametrize("entries", [
    lambda w: {"/SMask": _name("/None"), "/TR": _name("/Identity"),
               "/TR2": _name("/Default"), "/LW": _number(1)},
    lambda w: {"/SMask": _empty_soft_mask(w)},
], ids=["identity", "restored"])
def test_an_extgstate_that_hides_nothing_still_verifies(honest, tmp_path, entries):
    """The reverse: no soft mask, identity transfer functions, or a soft mask restored
    (Q) before the badge and the code, as a faded figure's: a real pith PDF verifies."""
    def edit(w: Any) -> None:
        _ext_gstate(w, entries)
        _content(w, lambda data: b"q /GSx gs 0 0 10 10 re f Q\n" + data)

    code, doc, err = verify(tampered(honest.get("qr"), tmp_path / "n.pdf", edit))
    assert code == 0, doc
    assert check(doc, "qr")["status"] == "ok" and check(doc, "badge")["status"] == "ok", doc


@pytest.mark.parametrize("mode", ["/Multiply", "/Darken", "/Compatible"])
def test_a_blend_mode_that_never_lightens_still_verifies(honest, tmp_path, mode):
    """The reverse: blending that is never lighter than the paint (b x s, min(b, s)) over
    the whole page: poppler still draws the code, and verify vouches for it."""
    def edit(w: Any) -> None:
        _ext_gstate(w, lambda w: {"/BM": _name(mode)})
        _content(w, lambda data: b"/GSx gs\n" + data)

    pdf = tampered(honest.get("qr"), tmp_path / "m.pdf", edit)
    read, dark = _rendered(pdf, tmp_path)
    assert read.strip().endswith("/pith/" + N), read
    code, doc, err = verify(pdf)
    assert code == 0, doc


_GLYPH_NAMES = {**{c: "/" + c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
                **{str(i): "/" + n for i, n in enumerate(
                    "zero one two three four five six seven eight nine".split())},
                ":": "/colon"}


def _type3(w: Any, proc: bytes) -> None:
    """A Type 3 font /FT3 in page 1's resources whose glyphs (the claimed number's
    characters, by their standard names) are each drawn by *proc*."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject, NumberObject)

    procs = DictionaryObject()
    for name in set(_GLYPH_NAMES.values()):
        glyph = DecodedStreamObject()
        glyph.set_data(b"600 0 0 0 500 700 d1 " + proc)
        procs[NameObject(name)] = w._add_object(glyph)
    differences: List[Any] = []
    for c, name in sorted(_GLYPH_NAMES.items()):
        differences += [NumberObject(ord(c)), NameObject(name)]
    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type3"),
        NameObject("/FontBBox"): ArrayObject([NumberObject(v) for v in (0, 0, 500, 700)]),
        NameObject("/FontMatrix"): ArrayObject([FloatObject(v) for v in (0.001, 0, 0, 0.001, 0, 0)]),
        NameObject("/CharProcs"): procs,
        NameObject("/Encoding"): DictionaryObject({NameObject("/Differences"): ArrayObject(differences)}),
        NameObject("/FirstChar"): NumberObject(48), NameObject("/LastChar"): NumberObject(122),
        NameObject("/Widths"): ArrayObject([NumberObject(600)] * 75)})
    res = w.pages[0]["/Resources"].get_object()
    if "/Font" not in res:
        res[NameObject("/Font")] = DictionaryObject()
    res["/Font"].get_object()[NameObject("/FT3")] = w._add_object(font)


@pytest.mark.parametrize("proc, inked, shown", [(b"", False, False),
                                                (b"0 0 500 700 re f", True, False)],
                         ids=["blank", "drawn"])
def test_type3_glyphs_that_draw_nothing_are_not_visible(honest, tmp_path, proc, inked, shown):
    """A Type 3 font whose glyph procedures paint nothing: the number extracts from its
    encoding, poppler draws nothing where it stands.  Glyphs that each paint a block are
    no number either: its pixels (OCR, issue 27) do not read as it."""
    def edit(w: Any) -> None:
        _type3(w, proc)
        page_ops(w, b"q BT /FT3 10 Tf 100 100 Td (%s) Tj ET Q\n" % CLAIMED.encode(),
                 font=False)

    pdf = tampered(honest.get("hide"), tmp_path / "t3.pdf", edit)
    levels = _grey_levels(pdf, (100, 98, 300, 108), tmp_path / "r")
    assert (min(levels) < 128) == inked, min(levels)
    badge_seen_or_refused(pdf, shown, "a Type 3 glyph whose procedure draws nothing")


_DOT_CLIP = b"BT 7 Tr /FPT 10 Tf 300 300 Td (.) Tj ET 0 Tr\n"  # the clip: one dot's outline


@pytest.mark.parametrize("clip, shown", [(True, False), (False, True)], ids=["clip", "no-clip"])
def test_text_clipped_to_glyph_outlines_is_not_visible(honest, tmp_path, clip, shown):
    """Text shown in render mode 7 adds its glyphs' outlines to the clipping path at ET:
    what is painted after it, in the same q, shows only inside one dot: poppler draws
    neither the badge nor the QR code."""
    def edit(w: Any) -> None:
        page_ops(w, b"")  # Helvetica as /FPT
        _content(w, lambda data: b"q\n" + (_DOT_CLIP if clip else b"") + data + b"\nQ\n")

    pdf = tampered(honest.get("qr"), tmp_path / "t.pdf", edit)
    read, dark = _rendered(pdf, tmp_path)
    assert (N in read) == shown and (dark > 100) == shown, (read, dark)
    code, doc, err = verify(pdf)
    if shown:
        assert code == 0, doc
    else:
        assert code in (1, 3) and check(doc, "badge")["status"] in ("fail", "error"), doc
        assert check(doc, "qr")["status"] != "ok", doc


def _turned(w: Any) -> None:
    """Page 1's content turned a quarter (as dvips's landscape special turns a page):
    the code's rows become columns, still inside the page."""
    _content(w, lambda data: b"q 0 1 -1 0 792 0 cm\n" + data + b"\nQ\n")


@pytest.mark.parametrize("removed", [False, True], ids=["honest", "run-removed"])
def test_a_turned_code_is_read_turned(honest, tmp_path, removed):
    """A code turned a quarter is the same code to a scanner, and verify reads it so; a
    turned code with one run removed still fails, module by module."""
    def merge(a: List[float]) -> List[float]:
        return a[:1] + [a[1] + a[2] + a[3]] + a[4:]

    def edit(w: Any) -> None:
        if removed:
            _edit_dashes(w, merge)
        _turned(w)

    bad = tampered(honest.get("qr"), tmp_path / "t.pdf", edit)
    if not removed:  # (with a run removed, error correction still reads the number)
        read, dark = _rendered(bad, tmp_path)
        assert N in read, read
    code, doc, err = verify(bad)
    qr = check(doc, "qr")
    if removed:
        assert code == 1 and qr["status"] == "fail" and "modules differ" in qr["detail"], qr
    else:
        assert qr["status"] == "ok", qr


_ONE_BYTE_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
/CMapName /OneByte def /CMapType 1 def
1 begincodespacerange <00> <FF> endcodespacerange
1 begincidrange <00> <FF> 0 endcidrange
endcmap CMapName currentdict /CMap defineresource pop end end"""
_ONE_BYTE_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfrange <20> <7E> <0020> endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _type0(w: Any, name: str, encoding: Any, unicode: bytes, em: int) -> None:
    """A Type 0 font *name* in page 1's resources: Helvetica's outlines, the encoding
    *encoding* (a CMap name, or a CMap stream's dictionary entries and data), a ToUnicode
    map *unicode*, every CID *em* thousandths of an em wide."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               NameObject, NumberObject, TextStringObject)

    def stream(data: bytes, **extra: Any) -> Any:
        s = DecodedStreamObject()
        s.set_data(data)
        s.update({NameObject(k): v for k, v in extra.items()})
        return w._add_object(s)

    info = DictionaryObject({NameObject("/Registry"): TextStringObject("Adobe"),
                             NameObject("/Ordering"): TextStringObject("Identity"),
                             NameObject("/Supplement"): NumberObject(0)})
    cid = DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                            NameObject("/Subtype"): NameObject("/CIDFontType2"),
                            NameObject("/BaseFont"): NameObject("/Helvetica"),
                            NameObject("/CIDSystemInfo"): info,
                            NameObject("/DW"): NumberObject(em)})
    if isinstance(encoding, str):
        enc = NameObject(encoding)
    else:
        cmap_name, data = encoding
        enc = stream(data, **{"/Type": NameObject("/CMap"), "/CMapName": NameObject(cmap_name),
                              "/CIDSystemInfo": info})
    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type0"),
        NameObject("/BaseFont"): NameObject("/Helvetica"), NameObject("/Encoding"): enc,
        NameObject("/DescendantFonts"): ArrayObject([w._add_object(cid)]),
        NameObject("/ToUnicode"): stream(unicode)})
    page_ops(w, b"")
    res = w.pages[0]["/Resources"].get_object()
    res["/Font"].get_object()[NameObject(name)] = w._add_object(font)


def _one_byte_type0(w: Any) -> None:
    """A Type 0 font /F1B whose encoding CMap reads one byte a glyph (its CIDs 1 em
    wide), with a ToUnicode map to ASCII."""
    _type0(w, "/F1B", ("/OneByte", _ONE_BYTE_CMAP), _ONE_BYTE_UNICODE, 1000)


@pytest.mark.parametrize("left, shown", [(250, False), (500, True)], ids=["runs-off", "inside"])
def test_a_cid_font_read_a_byte_a_glyph_running_off_the_page(honest, tmp_path, left, shown):
    """A Type 0 font whose encoding CMap is not Identity-H/V reads codes of its own
    lengths (here one byte a glyph, each 1 em): read as two bytes a glyph, the number
    ended half-way, inside the page, while poppler cuts it at the page's edge."""
    def edit(w: Any) -> None:
        right = float(w.pages[0].mediabox[2])
        _one_byte_type0(w)
        page_ops(w, b"q BT /F1B 10 Tf %g 700 Td (%s) Tj ET Q\n"
                 % (right - left, CLAIMED.encode()), font=False)
        _link_over((right - left - 2, 695, right, 712), "https://pith.science/pith/" + N)(w)

    pdf = tampered(honest.get("hide"), tmp_path / "c.pdf", edit)
    text = subprocess.run([texbuild.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                          text=True).stdout
    assert (CLAIMED in text) is shown, text  # what poppler shows of it
    # poppler renders the font, not embedded, only after an error ("non-embedded font
    # using identity encoding"): a page it repairs is not vouched for, either way
    badge_seen_or_refused(pdf, False, "running out of the crop box")


_TWO_BYTE_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
1 beginbfrange <0020> <007E> <0020> endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end"""


@pytest.mark.parametrize("encoding", ["/Identity-V", "/Identity-H"])
def test_a_number_written_vertically_is_not_placed(honest, tmp_path, encoding):
    """Identity-V writes a Type 0 font's glyphs down the page: started 150 pt above the
    bottom, most of the number is below the page in poppler.  Vertical text is not
    followed, so not visible; the same show written across (Identity-H) is."""
    def edit(w: Any) -> None:
        _type0(w, "/FV", encoding, _TWO_BYTE_UNICODE, 600)
        codes = "".join("%04X" % ord(c) for c in CLAIMED).encode()
        page_ops(w, b"q BT /FV 10 Tf 100 150 Td <%s> Tj ET Q\n" % codes, font=False)
        _link_over((95, 0, 400, 165), "https://pith.science/pith/" + N)(w)

    pdf = tampered(honest.get("hide"), tmp_path / "v.pdf", edit)
    vertical = encoding.endswith("-V")
    text = subprocess.run([texbuild.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                          text=True).stdout
    assert (CLAIMED in text) is not vertical, text  # poppler: cut at the page's bottom
    # (poppler reports an error drawing the font, not embedded: not vouched for either way)
    badge_seen_or_refused(pdf, False, "written vertically")


def _stroked_code(squeeze: float) -> bytes:
    """The claimed number's code drawn as xdvipdfmx draws rules, one solid line a run
    stroked as thick as a module, under a matrix that squeezes the page's height by
    *squeeze* (the lines' places and width chosen so that the rows still fall a module
    apart and sqrt(det) times the width is a module)."""
    rows = qr_rows(N)
    module, x0, top = 3.0, 100.0, 700.0
    out = [b"q 0 G 0 J 1 0 0 %g 0 0 cm %g w" % (squeeze, module / squeeze ** 0.5)]
    for i, row in enumerate(rows):
        y = (top - (i + 0.5) * module) / squeeze
        out += [b"%g %g m %g %g l S" % (x0 + m.start() * module, y, x0 + m.end() * module, y)
                for m in re.finditer("1+", row)]
    return b"\n".join(out + [b"Q\n"])


@pytest.mark.parametrize("squeeze", [1.0, 0.1], ids=["plain", "squeezed"])
def test_lines_stroked_under_a_squeezing_matrix_are_not_modules(honest, tmp_path, squeeze):
    """A line's thickness follows the matrix across the line, not its mean scale: rows
    squeezed to a third of a module are no code to a scanner, nor to verify."""
    pdf = tampered(honest.get("hide"), tmp_path / "s.pdf",
                   lambda w: page_ops(w, _stroked_code(squeeze), font=False))
    read, dark = _rendered(pdf, tmp_path)
    code, doc, err = verify(pdf)
    assert (N in read) is (squeeze == 1.0), read
    qr = check(doc, "qr")  # squeezed: no code (the hide option asked for none), none vouched
    assert ("QR code decodes to" in qr["detail"]) is (squeeze == 1.0), doc


def _colour_spaces(w: Any) -> None:
    """Page 1's colour spaces: /Pat a pattern space with /P0 a tiling pattern that paints
    nothing and /P1 one that paints black; /Spot a Separation (a spot ink, tint 1 is full
    ink, 0 none) and /NoInk the Separation /None (it never paints)."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               NameObject, NumberObject)

    def tiling(content: bytes) -> Any:
        s = DecodedStreamObject()
        s.set_data(content)
        s.update({NameObject(k): v for k, v in {
            "/Type": NameObject("/Pattern"), "/PatternType": NumberObject(1),
            "/PaintType": NumberObject(1), "/TilingType": NumberObject(1),
            "/BBox": ArrayObject([NumberObject(v) for v in (0, 0, 10, 10)]),
            "/XStep": NumberObject(10), "/YStep": NumberObject(10),
            "/Resources": DictionaryObject()}.items()})
        return w._add_object(s)

    def separation(ink: str) -> Any:
        tint = DictionaryObject({NameObject(k): v for k, v in {
            "/FunctionType": NumberObject(2),
            "/Domain": ArrayObject([NumberObject(0), NumberObject(1)]),
            "/C0": ArrayObject([NumberObject(0)] * 4),
            "/C1": ArrayObject([NumberObject(0)] * 3 + [NumberObject(1)]),
            "/N": NumberObject(1)}.items()})
        return ArrayObject([NameObject("/Separation"), NameObject(ink),
                            NameObject("/DeviceCMYK"), tint])

    def white_spot() -> Any:  # full ink shown as white in the alternate space
        tint = DictionaryObject({NameObject(k): v for k, v in {
            "/FunctionType": NumberObject(2),
            "/Domain": ArrayObject([NumberObject(0), NumberObject(1)]),
            "/C0": ArrayObject([NumberObject(1)] * 3),
            "/C1": ArrayObject([NumberObject(1)] * 3), "/N": NumberObject(1)}.items()})
        return ArrayObject([NameObject("/Separation"), NameObject("/Spot2"),
                            NameObject("/DeviceRGB"), tint])

    def ps_spot() -> Any:  # a PostScript calculator function: black, not evaluated
        from pypdf.generic import DecodedStreamObject

        f = DecodedStreamObject()
        f.set_data(b"{ pop 0 0 0 }")
        f.update({NameObject("/FunctionType"): NumberObject(4),
                  NameObject("/Domain"): ArrayObject([NumberObject(0), NumberObject(1)]),
                  NameObject("/Range"): ArrayObject([NumberObject(0), NumberObject(1)] * 3)})
        return ArrayObject([NameObject("/Separation"), NameObject("/Spot3"),
                            NameObject("/DeviceRGB"), w._add_object(f)])

    def icc_gray(curve: Optional[List[int]]) -> Any:
        """An /ICCBased gray space: a minimal ICC v2 gray profile with the tone curve
        *curve* (curv points; [] identity; None: no tone curve at all)."""
        import struct

        from pypdf.generic import DecodedStreamObject

        def s15(v: float) -> bytes:
            return struct.pack(">i", int(round(v * 65536)))

        white = s15(0.9642) + s15(1.0) + s15(0.8249)
        tags = [(b"wtpt", b"XYZ \0\0\0\0" + white)]
        if curve is not None:
            body = b"curv\0\0\0\0" + struct.pack(">I%dH" % len(curve), len(curve), *curve)
            tags.append((b"kTRC", body + b"\0" * (-len(body) % 4)))
        at, table, data = 132 + 12 * len(tags), struct.pack(">I", len(tags)), b""
        for sig, body in tags:
            table += sig + struct.pack(">II", at + len(data), len(body))
            data += body
        head = (struct.pack(">I", 128 + len(table) + len(data)) + b"lcms\x02\x10\0\0mntr"
                b"GRAYXYZ " + b"\0" * 12 + b"acsp" + b"\0" * 24 + white).ljust(128, b"\0")
        f = DecodedStreamObject()
        f.set_data(head + table + data)
        f[NameObject("/N")] = NumberObject(1)
        return ArrayObject([NameObject("/ICCBased"), w._add_object(f)])

    page_ops(w, b"")
    res = w.pages[0]["/Resources"].get_object()
    res[NameObject("/Pattern")] = DictionaryObject({
        NameObject("/P0"): tiling(b""), NameObject("/P1"): tiling(b"0 g 0 0 10 10 re f")})
    from pypdf.generic import ByteStringObject, FloatObject

    white = DictionaryObject({NameObject("/WhitePoint"): ArrayObject(
        [FloatObject(0.9505), FloatObject(1), FloatObject(1.089)])})
    res[NameObject("/ColorSpace")] = DictionaryObject({
        NameObject("/Pat"): ArrayObject([NameObject("/Pattern")]),
        NameObject("/Spot"): separation("/Spot"), NameObject("/NoInk"): separation("/None"),
        NameObject("/WhiteSpot"): white_spot(), NameObject("/PSSpot"): ps_spot(),
        # gray profiles whose tone curve runs backwards (0 paints white) or forwards
        NameObject("/InvGray"): icc_gray([65535, 0]), NameObject("/Gray"): icc_gray([]),
        NameObject("/OddICC"): icc_gray(None),  # a profile not followed (no tone curve)
        # entry 0 white, entry 1 black
        NameObject("/Ix"): ArrayObject([NameObject("/Indexed"), NameObject("/DeviceRGB"),
                                        NumberObject(1),
                                        ByteStringObject(b"\xff\xff\xff\x00\x00\x00")]),
        NameObject("/Lab"): ArrayObject([NameObject("/Lab"), white]),
        NameObject("/CRGB"): ArrayObject([NameObject("/CalRGB"), white]),
        NameObject("/CGray"): ArrayObject([NameObject("/CalGray"), white]),
        # a matrix that takes red to the white point: red is painted white
        NameObject("/RedWhite"): ArrayObject([NameObject("/CalRGB"), DictionaryObject({
            NameObject("/WhitePoint"): white["/WhitePoint"],
            NameObject("/Matrix"): ArrayObject([FloatObject(v) for v in (
                0.9505, 1, 1.089, 0, 0, 0, 0, 0, 0)])})])})


@pytest.mark.parametrize("fill, shown", [
    (b"/Pattern cs /P0 scn", False),   # a pattern that paints nothing
    (b"/Pat cs /P1 scn", False),       # one that paints: still not followed
    (b"/Spot cs 0 scn", False),        # a spot ink at tint 0: no ink
    (b"/NoInk cs 1 scn", False),       # the Separation /None never paints
    (b"/Spot cs 1 scn", True),         # full spot ink
    (b"/Spot cs", True),               # its initial tint, 1
    (b"1 Tr /Spot CS 0 SCN", False),       # outlines stroked with no ink
    (b"1 Tr /Spot CS 1 SCN", True),        # outlines stroked in a spot ink
    (b"2 Tr /Pattern cs /P0 scn /Spot CS 0 SCN", False),  # neither paints
    (b"/Ix cs 0 sc", False),           # an indexed colour that is white
    (b"/Ix cs 1 sc", True),            # and one that is black
    (b"/Lab cs 100 0 0 sc", False),    # L* 100: white
    (b"/CRGB cs 1 1 1 sc", False),     # calibrated white
    (b"/CGray cs 0 sc", True),         # calibrated black
    (b"1 Tr /Ix CS 0 SC", False),      # outlines stroked in an indexed white
    (b"/WhiteSpot cs 1 scn", False),   # full ink, which its tint transform makes white
    (b"/WhiteSpot cs", False),         # its initial tint, 1: white as well
    (b"/PSSpot cs 1 scn", False),      # a tint transform not evaluated (here: black)
    (b"/InvGray cs 0 sc", False),      # 0 through a profile that makes it white
    (b"/InvGray cs", False),           # its initial colour, 0: white as well
    (b"/Gray cs 0 sc", True),          # black through a plain gray profile
    (b"/Gray cs 1 sc", False),         # and white
    (b"/OddICC cs 0 sc", False),       # a profile not followed
    (b"/RedWhite cs 1 0 0 sc", False),  # red, which its matrix makes white
    (b"/RedWhite cs 0 1 0 sc", True),  # green, which it makes black
    (b"1 g /Missing cs", False),       # poppler keeps the white before a bad space
    (b"1 g 0 0 0 sc", False),          # three values for gray: refused, white stays
    (b"0 g 1 1 1 sc", True),           # (and black stays, in poppler; PDFium: white)
    (b"0 0 1 g", False),               # too many operands: poppler takes the last, white
], ids=["empty-pattern", "pattern", "tint-0", "none-ink", "tint-1", "initial-tint",
        "stroke-tint-0", "stroke-tint-1", "fill-and-stroke", "indexed-white",
        "indexed-black", "lab-white", "calrgb-white", "calgray-black", "stroke-indexed",
        "spot-white", "spot-white-initial", "spot-postscript", "icc-inverted",
        "icc-inverted-initial", "icc-black", "icc-white", "icc-not-followed",
        "calrgb-red-white", "calrgb-green-black", "unknown-space", "sc-count-white",
        "sc-count-black", "g-too-many"])
def test_a_badge_filled_in_a_colour_space_not_followed(honest, tmp_path, fill, shown):
    """Text filled (or, in render modes 1 and 2, stroked) with a pattern (whose cells may
    paint anything or nothing) or with no ink of a Separation is not counted as visible;
    a spot ink that is laid down is."""
    def edit(w: Any) -> None:
        _colour_spaces(w)
        page_ops(w, text_ops(CLAIMED, 100, 700, 12, before=fill), font=False)
        _link_over((98, 695, 400, 715), "https://pith.science/pith/" + N)(w)

    pdf = tampered(honest.get("hide"), tmp_path / "p.pdf", edit)
    # what poppler draws inside the link's border (72 dpi: one pixel a point)
    subprocess.run([texbuild.tool("pdftoppm"), "-r", "72", "-gray", "-singlefile",
                    "-x", "102", "-y", "129", "-W", "290", "-H", "15", str(pdf),
                    str(tmp_path / "area")], check=True)
    pgm = (tmp_path / "area.pgm").read_bytes().split(b"\n", 3)[3]
    drawn = sum(1 for b in pgm if b < 160) > 50
    if fill != b"/OddICC cs 0 sc":  # (poppler: a profile Little CMS refuses)
        assert drawn is (shown or fill in (b"/Pat cs /P1 scn", b"/PSSpot cs 1 scn")), fill
    # the engines decide: a pattern that paints, a tint transform in PostScript, a
    # profile the old reader did not follow: both draw the number (the old reader refused
    # them); three values for gray: poppler keeps black, PDFium white: not verified
    shown = (shown or fill in (b"/Pat cs /P1 scn", b"/PSSpot cs 1 scn", b"/OddICC cs 0 sc")
             ) and fill not in (b"0 g 1 1 1 sc",)
    badge_seen_or_refused(pdf, shown, "not follow" if any(
        k in fill for k in (b"Pat", b"Odd", b"Missing"))
                          else "not evaluate" if b"PSSpot" in fill else "white" if any(
        k in fill for k in (b"Ix", b"Lab", b"CRGB", b"White", b"Gray", b"g 0 0 0 sc", b"0 0 1 g")) else "no ink")
    # (every "white" above is a white fill colour, in whatever space)
