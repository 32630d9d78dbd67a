"""poppler's view of page 1: its command-line tools (``pdftotext -bbox-layout``,
``pdftoppm``, ``pdfinfo -custom``), each fed the PDF's bytes on standard input (no file
is opened twice), within the caller's deadline and an output cap.  Evince, Okular, most
Linux viewers and the tools TeX users have draw what poppler draws."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Sequence, Tuple

from .ocr import Region, pdftoppm_crop, read_regions
from .views import DPI, EngineFailed, Raster, View, Word, dpi_for, qr_found

POPPLER_OUTPUT_CAP = 64 * 1024 * 1024  # bytes read from one poppler tool
POPPLER_SECONDS = 60.0  # when the caller gives no deadline


def poppler_missing() -> Optional[str]:
    """Why poppler cannot be asked here (None: it can)."""
    gone = [t for t in ("pdftotext", "pdftoppm", "pdfinfo") if shutil.which(t) is None]
    if gone:
        return "poppler is not installed (%s not found): install poppler-utils" % (
            ", ".join(gone))
    return None


def _run(argv: List[str], data: bytes, deadline: float,
         errors: Optional[List[str]] = None) -> bytes:
    left = deadline - time.monotonic()
    if left <= 0:
        raise EngineFailed("poppler: out of time before %s" % argv[0])
    try:
        proc = subprocess.run(argv, input=data, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=left,
                              env=dict(os.environ, LC_ALL="C"))
    except subprocess.TimeoutExpired:
        raise EngineFailed("poppler: %s took longer than the deadline" % argv[0]) from None
    except OSError as e:
        raise EngineFailed("poppler: cannot run %s: %s" % (argv[0], e.strerror)) from None
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise EngineFailed("poppler: %s cannot read page 1 (%s)" % (
            argv[0], why[-1][:200] if why else "exit %d" % proc.returncode))
    if errors is not None:
        for line in proc.stderr.decode("utf-8", "replace").splitlines():
            if ("Error" in line or "error" in line) and len(errors) < 8:
                errors.append("%s: %s" % (argv[0], line.strip()[:160]))
    if len(proc.stdout) > POPPLER_OUTPUT_CAP:
        raise EngineFailed("poppler: %s wrote more than %d bytes for page 1" % (
            argv[0], POPPLER_OUTPUT_CAP))
    return proc.stdout


_XHTML = "{http://www.w3.org/1999/xhtml}"


#: Bytes XML 1.0 forbids, which pdftotext writes as they are: a font with no Unicode
#: mapping (a Type 3 bitmap font TeX made for T1 text, with no cm-super) gives a glyph's
#: code, "de\x1cnitions" for "definitions" (T1's fi ligature), and the page was "not
#: readable" (check: could not check).
_NOT_XML_RE = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _poppler_words(xhtml: bytes) -> Tuple[float, float, Tuple[Word, ...]]:
    try:
        root = ET.fromstring(_NOT_XML_RE.sub("\ufffd".encode("utf-8"), xhtml))
    except ET.ParseError as e:
        raise EngineFailed("poppler: pdftotext's page 1 is not readable XHTML (%s)" % e) from None
    page = root.find(".//%spage" % _XHTML)
    if page is None:
        raise EngineFailed("poppler: pdftotext shows no page 1")
    words = []
    for w in page.iter(_XHTML + "word"):
        box = tuple(float(w.get(k, "0")) for k in ("xMin", "yMin", "xMax", "yMax"))
        words.append(Word(w.text or "", box, box[3] - box[1]))  # type: ignore[arg-type]
    return float(page.get("width", "0")), float(page.get("height", "0")), tuple(words)


def _pgm(data: bytes, dpi: float) -> Raster:
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if m is None or m.group(3) != b"255":
        raise EngineFailed("poppler: pdftoppm's page 1 is not an 8-bit grey image")
    w, h = int(m.group(1)), int(m.group(2))
    pixels = data[m.end():m.end() + w * h]
    if len(pixels) != w * h:
        raise EngineFailed("poppler: pdftoppm's page 1 is cut short")
    return Raster(w, h, dpi, pixels)


_VERSION_RE = re.compile(rb"version (\d+(?:\.\d+)+)")


@functools.lru_cache(maxsize=None)  # once a process: it names the engine in each report
def poppler_version() -> str:
    try:
        out = subprocess.run(["pdftotext", "-v"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return m.group(1).decode() if (m := _VERSION_RE.search(out)) else "unknown"


def _pdfinfo_values(out: bytes, keys: Sequence[str]) -> Tuple[Tuple[str, str], ...]:
    """The values of *keys* in ``pdfinfo -custom``'s lines (``Key:<padding>value``)."""
    wanted = set(keys)
    found: Dict[str, str] = {}
    for line in out.decode("utf-8", "replace").split("\n"):
        key, colon, value = line.partition(":")
        if colon and key in wanted and key not in found:
            found[key] = value.lstrip(" ")
    return tuple((k, found[k]) for k in keys if k in found)


def poppler_view(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None,
                 width_hint: Optional[Tuple[float, float]] = None,
                 meta: Sequence[str] = (), index: int = 0,
                 regions: Sequence[Region] = ()) -> View:
    """poppler's view of page 1 of the PDF *data* (fed on standard input).

    *deadline* is a ``time.monotonic()`` value; *width_hint* (the page size another engine
    saw) lowers the resolution of a huge page before poppler renders it; *meta*: the Info
    keys whose values ``pdfinfo -custom`` is asked for; *index*: the page read instead of
    page 1 (0-based).
    """
    first = "%d" % (index + 1)
    if deadline is None:
        deadline = time.monotonic() + POPPLER_SECONDS
    errors: List[str] = []
    xhtml = _run(["pdftotext", "-f", first, "-l", first, "-bbox-layout", "-cropbox",
                  "-enc", "UTF-8", "-", "-"], data, deadline, errors)
    width, height, words = _poppler_words(xhtml)
    size = width_hint or (width, height)
    r = dpi_for(size[0], size[1], dpi)
    raster = _pgm(_run(["pdftoppm", "-f", first, "-l", first, "-r", "%.3f" % r, "-gray",
                        "-cropbox", "-"], data, deadline, errors), r)
    values: Tuple[Tuple[str, str], ...] = ()
    if meta:
        values = _pdfinfo_values(_run(["pdfinfo", "-custom", "-enc", "UTF-8", "-"], data,
                                      deadline), meta)
    found = qr_found(raster)
    codes = [c for c in found if c[0] is not None]
    end = deadline
    reads, unread = read_regions(regions, lambda r: _pgm(_run(pdftoppm_crop(r, first), data, end),
                                                         r.scale * 72.0))
    return View("poppler", poppler_version(), None, width, height, words,
                tuple(c[0] for c in codes), meta=values,  # type: ignore[misc]
                code_boxes=tuple(c[1] for c in codes),
                unreadable=tuple(c[1] for c in found if c[0] is None), raster=raster,
                code_corners=tuple(c[2] for c in codes), errors=tuple(errors), read=reads,
                unread=unread)
