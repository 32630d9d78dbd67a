"""Page 1 as the readers' PDF engines show it: the one reading of a PDF page that the
verdicts of ``verify`` and ``check`` rest on.

A reader sees what their viewer's engine draws, not what a parser of ours reads.  So page
1 is read by the engines readers use, each on the *same bytes*:

``pdfium``
    PDFium through pypdfium2, in process: Chrome, Edge, Android and many desktop viewers.
``poppler``
    poppler's command-line tools (``pdftotext -bbox-layout``, ``pdftoppm``): Evince,
    Okular, most Linux viewers, and the tools TeX users have.  The bytes go to them on
    standard input, so no file is opened twice (nothing can change between the readings).

Each engine gives a :class:`View`: its text of page 1 as words with boxes and font sizes,
and the QR codes that zxing-cpp decodes from its rendering of page 1.  The callers compare
the views (the engines may disagree: that is a finding, not an error here).  Where poppler is
not installed, :func:`page_one` says so in :attr:`PageOne.missing` and gives PDFium's view
alone: the caller must name that in its output.

Coordinates are PDF points with the origin at the top-left corner of the page's crop box
and y growing downwards (poppler's convention; PDFium's are turned to it), so both
engines' boxes compare directly.

This module decides nothing about Pith Numbers or titles: it only reads.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from typing import List, NamedTuple, Optional, Tuple

Box = Tuple[float, float, float, float]  # x0, y0 (top), x1, y1 (bottom), in points

DPI = 150  # enough for the QR code's modules (>= 4 px each at pith.sty's smallest code)
MAX_PIXELS = 40_000_000  # a render larger than this is scaled down (a 200-inch page)
POPPLER_OUTPUT_CAP = 64 * 1024 * 1024  # bytes read from one poppler tool
POPPLER_SECONDS = 60.0  # when the caller gives no deadline


class EngineFailed(Exception):
    """The engine could not read page 1 (damaged, encrypted, a time-out): the message
    says which engine and why."""


class Word(NamedTuple):
    text: str
    box: Box
    size: float  # font size in points (PDFium's; poppler's is the word box's height)


class Raster(NamedTuple):
    """An 8-bit grey rendering of page 1 (0 black, 255 white), rows without padding."""

    width: int
    height: int
    dpi: float
    pixels: bytes


class View(NamedTuple):
    """What one engine shows of page 1."""

    engine: str  # "pdfium" or "poppler"
    version: str
    pages: Optional[int]  # the page count the engine sees (None: not asked)
    width: float  # the crop box, in points
    height: float
    words: Tuple[Word, ...]  # in the engine's reading order
    codes: Tuple[str, ...]  # every QR code decoded from the rendering, as text

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


class PageOne(NamedTuple):
    views: Tuple[View, ...]  # PDFium first
    missing: Tuple[str, ...]  # engines not available here, each with why


# --- QR codes ----------------------------------------------------------------------


def qr_codes(raster: Raster) -> Tuple[str, ...]:
    """The texts of every QR-family code zxing-cpp finds in *raster* (also Micro QR and
    rMQR: another code on page 1 is a finding for the caller)."""
    import zxingcpp

    formats = zxingcpp.barcode_formats_from_str("QRCode,MicroQRCode,rMQRCode")
    image = memoryview(raster.pixels).cast("B", (raster.height, raster.width))
    return tuple(r.text for r in zxingcpp.read_barcodes(image, formats=formats))


def _dpi_for(width_pt: float, height_pt: float, dpi: float) -> float:
    pixels = (width_pt * dpi / 72.0) * (height_pt * dpi / 72.0)
    if pixels > MAX_PIXELS:
        dpi *= (MAX_PIXELS / pixels) ** 0.5
    return dpi


# --- PDFium ------------------------------------------------------------------------


def _pdfium_words(textpage, raw, crop: Box) -> Tuple[Word, ...]:
    """PDFium's characters of page 1 joined into words: a word ends at white space, at a
    character PDFium generated (its own spaces and line ends) and at a change of line."""
    left, top = crop[0], crop[3]
    words: List[Word] = []
    chars: List[str] = []
    box: Optional[List[float]] = None
    size = 0.0

    def flush() -> None:
        nonlocal chars, box, size
        if chars and box is not None:
            words.append(Word("".join(chars), (box[0], box[1], box[2], box[3]), size))
        chars, box, size = [], None, 0.0

    for i in range(textpage.count_chars()):
        code = raw.FPDFText_GetUnicode(textpage.raw, i)
        ch = chr(code) if 0 < code < 0x110000 else "\ufffd"
        if ch.isspace() or raw.FPDFText_IsGenerated(textpage.raw, i) == 1:
            flush()
            continue
        x0, y0, x1, y1 = textpage.get_charbox(i, loose=True)
        # to the top-left origin of the crop box
        b = [x0 - left, top - y1, x1 - left, top - y0]
        if box is not None and (b[1] >= box[3] or b[3] <= box[1]):
            flush()  # no vertical overlap with the word so far: another line
        if box is None:
            box = b
        else:
            box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
        size = max(size, raw.FPDFText_GetFontSize(textpage.raw, i))
        chars.append(ch)
    flush()
    return tuple(words)


def pdfium_view(data: bytes, *, dpi: float = DPI) -> View:
    """PDFium's view of page 1 of the PDF *data*."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise EngineFailed("PDFium cannot open the PDF: %s" % e) from None
    try:
        pages = len(pdf)
        if pages < 1:
            raise EngineFailed("PDFium finds no page in the PDF")
        page = pdf[0]
        crop = page.get_cropbox()  # (left, bottom, right, top) in user space
        width, height = page.get_size()
        textpage = page.get_textpage()
        words = _pdfium_words(textpage, raw, crop)
        scale = _dpi_for(width, height, dpi) / 72.0
        bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True)
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
        pixels = buf if stride == w else b"".join(
            buf[r * stride:r * stride + w] for r in range(h))
        raster = Raster(w, h, scale * 72.0, pixels)
    except pdfium.PdfiumError as e:
        raise EngineFailed("PDFium cannot read page 1: %s" % e) from None
    finally:
        pdf.close()
    return View("pdfium", pdfium.version.PDFIUM_INFO.version, pages, float(width),
                float(height), words, qr_codes(raster))


# --- poppler -----------------------------------------------------------------------


def poppler_missing() -> Optional[str]:
    """Why poppler cannot be asked here (None: it can)."""
    gone = [t for t in ("pdftotext", "pdftoppm") if shutil.which(t) is None]
    if gone:
        return "poppler is not installed (%s not found): install poppler-utils" % (
            " and ".join(gone))
    return None


def _run(argv: List[str], data: bytes, deadline: float) -> bytes:
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
    if len(proc.stdout) > POPPLER_OUTPUT_CAP:
        raise EngineFailed("poppler: %s wrote more than %d bytes for page 1" % (
            argv[0], POPPLER_OUTPUT_CAP))
    return proc.stdout


_XHTML = "{http://www.w3.org/1999/xhtml}"


def _poppler_words(xhtml: bytes) -> Tuple[float, float, Tuple[Word, ...]]:
    try:
        root = ET.fromstring(xhtml)
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


def poppler_version() -> str:
    try:
        out = subprocess.run(["pdftotext", "-v"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    m = _VERSION_RE.search(out)
    return m.group(1).decode() if m else "unknown"


def poppler_view(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None,
                 width_hint: Optional[Tuple[float, float]] = None) -> View:
    """poppler's view of page 1 of the PDF *data* (fed on standard input).

    *deadline* is a ``time.monotonic()`` value; *width_hint* (the page size another engine
    saw) lowers the resolution of a huge page before poppler renders it.
    """
    if deadline is None:
        deadline = time.monotonic() + POPPLER_SECONDS
    xhtml = _run(["pdftotext", "-q", "-f", "1", "-l", "1", "-bbox-layout", "-cropbox",
                  "-enc", "UTF-8", "-", "-"], data, deadline)
    width, height, words = _poppler_words(xhtml)
    size = width_hint or (width, height)
    r = _dpi_for(size[0], size[1], dpi)
    raster = _pgm(_run(["pdftoppm", "-q", "-f", "1", "-l", "1", "-r", "%.3f" % r, "-gray",
                        "-cropbox", "-"], data, deadline), r)
    return View("poppler", poppler_version(), None, width, height, words, qr_codes(raster))


# --- both --------------------------------------------------------------------------


def page_one(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None) -> PageOne:
    """Page 1 of the PDF *data* as every engine available here shows it.

    Raises :class:`EngineFailed` when an engine cannot read page 1 at all: an engine that
    cannot show the page is a finding the caller reports (could not check).
    """
    first = pdfium_view(data, dpi=dpi)
    missing = poppler_missing()
    if missing is not None:
        return PageOne((first,), (missing,))
    second = poppler_view(data, dpi=dpi, deadline=deadline,
                          width_hint=(first.width, first.height))
    return PageOne((first, second), ())
