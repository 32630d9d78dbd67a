"""Compile LaTeX documents that use pith.sty and read the PDFs back.

Every document is built in its own directory with a private copy of
``latex/pith.sty`` beside it, the way arXiv builds an upload.  Tools are
located up front and a missing one is an error, never a skip: a LaTeX suite
that silently skips on a machine without TeX proves nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
from pathlib import Path

from contract import readme_include
# The generic build helper lives in tests/support (shared with tests/example).
from texbuild import (LATEX_DIR, ROOT, STY, Build, ToolMissing, compile_tex, first_error,
                      texlive_release, tool)

__all__ = ["LATEX_DIR", "ROOT", "STY", "Build", "ToolMissing", "compile_tex", "first_error",
           "texlive_release", "tool"]

NUM = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
URL = f"https://pith.science/pith/{NUM}"
YEAR = "2025"
SHA = "77a6d68397394cf901660cff4b0c1acee4353488d83c25f073b40c97fa194f23"


# The README's include: the contract with the Python side (without the record's optional
# title).
README_INCLUDE = readme_include(title=False)

# A signed include: the README's with the receipt fields of format 2.  pith.sty
# does not verify signatures (pith-tex fetch did), so any 128 hex digits do.
KEY_ID = "pith-v1-2026-05"
SIG_HEX = hashlib.sha512(b"pith-tex LaTeX tests: a placeholder signature").hexdigest()
SIGNED_INCLUDE = README_INCLUDE.replace(
    "signature = absent,",
    f"signature = verified,\n  key-id = {KEY_ID},\n  signature-hex = {SIG_HEX},")

ROUTES = ("pdflatex", "xelatex", "lualatex", "dvips")
ARXIV_STAMP_X = 32.0  # right edge of arXiv's page-1 stamp band, in pt

_TOOLS = {
    "pdflatex": ["pdflatex"],
    "xelatex": ["xelatex"],
    "lualatex": ["lualatex"],
    "dvips": ["latex", "dvips", "ps2pdf"],
}
READ_TOOLS = ["pdfinfo", "pdftotext", "l3build", "pdftoppm", "zbarimg"]


def require_all() -> None:
    for names in _TOOLS.values():
        for n in names:
            tool(n)
    for n in READ_TOOLS:
        tool(n)


# --------------------------------------------------------------------------
# Reading PDFs back.

def info(pdf: Path) -> dict[str, str]:
    """Document Info dictionary as pypdf decodes it (keys without '/')."""
    import pypdf

    meta = pypdf.PdfReader(str(pdf)).metadata or {}
    return {k.lstrip("/"): str(v) for k, v in meta.items()}


def pdfinfo_custom(pdf: Path) -> dict[str, str]:
    """``pdfinfo -custom``: 'Key:   value' lines (poppler 22 aligns values
    after the colon; long keys leave no space at all)."""
    p = subprocess.run([tool("pdfinfo"), "-custom", str(pdf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^([A-Za-z0-9_.]+):\s*(.*)$", line)
        if m:
            res[m.group(1)] = m.group(2).strip()
    return res


def urls(pdf: Path) -> list[tuple[int, str]]:
    """``pdfinfo -url``: header 'Page  Type          URL', then rows
    '   1  Annotation    https://...'."""
    p = subprocess.run([tool("pdfinfo"), "-url", str(pdf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    res = []
    for line in p.stdout.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            res.append((int(parts[0]), parts[2]))
    return res


def text(pdf: Path, page: int = 1) -> str:
    p = subprocess.run([tool("pdftotext"), "-f", str(page), "-l", str(page),
                        str(pdf), "-"], stdout=subprocess.PIPE, text=True,
                       errors="replace")
    return p.stdout


def words(pdf: Path, page: int = 1) -> list[tuple[str, float, float, float, float]]:
    """Words with their boxes (xMin, yMin, xMax, yMax in pt, y from top)."""
    p = subprocess.run([tool("pdftotext"), "-bbox", "-f", str(page), "-l",
                        str(page), str(pdf), "-"], stdout=subprocess.PIPE,
                       text=True, errors="replace")
    res = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                         r'yMax="([\d.]+)">([^<]*)</word>', p.stdout):
        res.append((m.group(5), float(m.group(1)), float(m.group(2)),
                    float(m.group(3)), float(m.group(4))))
    return res


def link_annots(pdf: Path, page: int = 1) -> list[tuple[str, list[float]]]:
    """(URI, Rect) of every URI link annotation on a page, via pypdf."""
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    pg = reader.pages[page - 1]
    res = []
    for a in pg.get("/Annots") or []:
        a = a.get_object()
        if a.get("/Subtype") != "/Link":
            continue
        act = a.get("/A")
        act = act.get_object() if act is not None else {}
        uri = act.get("/URI")
        if uri is None:
            continue
        res.append((str(uri), [float(x) for x in a["/Rect"]]))
    return res


def mediabox(pdf: Path, page: int = 1) -> list[float]:
    import pypdf

    return [float(x) for x in pypdf.PdfReader(str(pdf)).pages[page - 1].mediabox]


def xmp(pdf: Path) -> str:
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    md = reader.trailer["/Root"].get_object().get("/Metadata")
    if md is None:
        return ""
    return md.get_object().get_data().decode("utf-8", "replace")


def check_record(pdf: Path, signed: bool) -> None:
    """The record keys of an include build, read back by two readers: PithRecord
    is canonical JSON byte for byte, hashes to PithSHA256, derives the number;
    PithKeyID/PithSignature are there exactly when signed."""
    custom = pdfinfo_custom(pdf)
    meta = info(pdf)
    rec = custom.get("PithRecord")
    assert rec, custom
    assert meta.get("PithRecord") == rec, (meta.get("PithRecord"), rec)
    obj = json.loads(rec)
    assert json.dumps(obj, sort_keys=True, separators=(",", ":")) == rec, rec
    assert obj["schema_version"] == "1.0" and obj["source"]["kind"] == "arxiv"
    assert type(obj["source"]["version"]) is int
    digest = hashlib.sha256(rec.encode("ascii")).digest()
    assert digest.hex() == custom.get("PithSHA256") == meta.get("PithSHA256")
    assert base64.b32encode(digest).decode("ascii")[:26] == NUM
    if signed:
        assert custom.get("PithKeyID") == meta.get("PithKeyID") == KEY_ID, custom
        assert custom.get("PithSignature") == meta.get("PithSignature") == SIG_HEX, custom
    else:
        for k in ("PithKeyID", "PithSignature"):
            assert k not in custom and k not in meta, (k, custom)
