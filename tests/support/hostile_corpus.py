"""The hostile corpus for ``pith-tex verify`` (tests/python/pdf/test_py_hostile_*.py):
PDFs compiled with pith.sty (a real compile, with the QR code) and tampered with (pypdf, raw
bytes), raw-byte PDFs, and JSON files that broke ``verify DIR``.  Every case runs the command
in a subprocess under a memory cap (RLIMIT_AS) and a time limit, and states the exit code and
the words it must give.

Issue 9: no false "verified" (ambiguity is failure; what cannot be checked is exit 3).
"""
from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import recorded
import texbuild
from pith_tex.include.include import IncludeData, render

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
N = V["number"]
V2 = next(v for v in VECTORS[1:] if v["number"] != N)
N2 = V2["number"]
CLAIMED = "pith:%d:%s" % (V["year"], N)
OTHER = "pith:%d:%s" % (V["year"], N2)  # another number, same year

MEMORY_CAP = 1024 * 1024 * 1024  # bytes of address space per case
TIME_LIMIT = 60  # seconds per case


def under_limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def verify(*args: Any) -> Tuple[int, Dict[str, Any], str]:
    """(exit code, the --json document, stderr) of ``pith-tex verify --json ARGS``, run
    under the memory cap and the time limit."""
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", *map(str, args)],
                       capture_output=True, text=True, timeout=TIME_LIMIT,
                       preexec_fn=under_limits)
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


# -- helpers the sections share -------------------------------------------------------------

DASHES = re.compile(rb"\[ ?([0-9. ]+?) ?\] ?0 d")  # a row's dash array, any route


def edit_dashes(w: Any, edit: Any) -> None:
    """Page 1's content with the dash array of the code's middle row replaced by
    *edit* of its lengths (list of floats -> list of floats)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = qr_stream(w)
    rows = list(DASHES.finditer(data))
    assert len(rows) > 20, data[:3000]
    row = rows[len(rows) // 2]
    lengths = [float(v) for v in row.group(1).split()]
    new = b"[%s] 0 d" % b" ".join(b"%g" % v for v in edit(lengths))
    s = DecodedStreamObject()
    s.set_data(data[:row.start()] + new + data[row.end():])
    page[NameObject("/Contents")] = w._add_object(s)


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


def layer(w: Any, state: str, base: Optional[str] = None) -> bytes:
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


def link_with(w: Any, action: Dict[str, Any], base: Optional[str] = None) -> None:
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


def uri_action(text: str) -> Dict[str, Any]:
    from pypdf.generic import NameObject, TextStringObject
    return {NameObject("/S"): NameObject("/URI"), NameObject("/URI"): TextStringObject(text)}


def link_over(box: Tuple[float, float, float, float], uri: str) -> Callable[[Any], None]:
    def edit(w: Any) -> None:
        link_with(w, uri_action(uri))
        from pypdf.generic import ArrayObject, FloatObject, NameObject

        annot = w.pages[0]["/Annots"][-1].get_object()
        annot[NameObject("/Rect")] = ArrayObject([FloatObject(v) for v in box])
    return edit


def badge_box(pdf: Path) -> Tuple[float, float, float, float]:
    """Where pith.sty's badge link lies on page 1 (around the badge's text)."""
    from pypdf import PdfReader
    from pypdf.generic import NameObject

    for ref in PdfReader(str(pdf)).pages[0]["/Annots"]:
        x0, y0, x1, y1 = (float(v) for v in ref.get_object()[NameObject("/Rect")])
        if (x1 - x0) / (y1 - y0) > 2:
            return (x0, y0, x1, y1)
    raise AssertionError("no badge link")


def poppler_reads(pdf: Path) -> str:
    """The text poppler reads from page 1 as laid out (pdftotext -layout), each line's
    ends stripped and the lines joined: what a reader of the rendered page reads, in
    order, with spaces where glyphs stand apart."""
    out = subprocess.run([texbuild.tool("pdftotext"), "-layout", "-f", "1", "-l", "1",
                          str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return "".join(line.strip() for line in out.splitlines())


def qr_stream(w: Any) -> Tuple[Any, bytes]:
    page = w.pages[0]
    return page, page.get_contents().get_data()


def grey_levels(pdf: Path, box: Tuple[float, float, float, float], tmp_path: Path) -> List[int]:
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


def info_object() -> bytes:
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


def page_content(w: Any, edit: Callable[[bytes], bytes]) -> None:
    from pypdf.generic import DecodedStreamObject, NameObject

    page, data = qr_stream(w)
    s = DecodedStreamObject()
    s.set_data(edit(data))
    page[NameObject("/Contents")] = w._add_object(s)


def rendered(pdf: Path, tmp_path: Path) -> Tuple[str, int]:
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


