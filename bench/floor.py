#!/usr/bin/env python3
"""The floor of ``pith-tex verify PDF``: the least a program can do that asks the same
engines for the same pictures and readings of page 1, and decides nothing.

For each PDF named on the command line (or each ``*.pdf`` in a directory named there), in
one process:

* PDFium (pypdfium2): page 1 rendered at 150 dpi in grey as the screen shows it and as it
  prints (``FPDF_PRINTING``), its text and the character boxes of the Pith Number, the
  number's line rendered again at the OCR's resolution, zxing-cpp over both renderings;
* poppler: ``pdftotext -bbox-layout``, ``pdftoppm -r 150 -gray``, ``pdfinfo -custom`` and
  ``pdftoppm -x -y -W -H`` of the number's line, each fed the bytes on standard input,
  zxing-cpp over the rendering;
* the OCR (:func:`pith_tex.pdf.ocr.read_line`, the recogniser verify uses) over each
  engine's rendering of the number's line.

What verify adds on top is its own: parsing the metadata and the record, the structural
gate, the ink test, the title, the child process that bounds the engines, the report.
``bench/bench_floor.py`` prints verify's CPU as a ratio of this floor's.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import List, Optional, Tuple

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import zxingcpp

from pith_tex.pdf.ocr import read_line

DPI = 150.0
OCR_EM_PX = 48.0  # as pith_tex.pdf.pageview: pixels an em for the recogniser
NUMBER = re.compile(r"pith:\d{4}:[A-Z2-7]{26}")


def _grey(bitmap) -> Tuple[int, int, bytes]:
    w, h, stride = bitmap.width, bitmap.height, bitmap.stride
    buf = bytes(bitmap.buffer)
    return w, h, buf if stride == w else b"".join(buf[r * stride:r * stride + w]
                                                  for r in range(h))


def _codes(w: int, h: int, pixels: bytes) -> list:
    import numpy

    image = numpy.frombuffer(pixels, dtype=numpy.uint8, count=w * h).reshape(h, w)
    return zxingcpp.read_barcodes(image)


def _pgm(out: bytes) -> Tuple[int, int, bytes]:
    fields = out.split(maxsplit=4)
    w, h = int(fields[1]), int(fields[2])
    return w, h, fields[4][-w * h:]


def _poppler(argv: List[str], data: bytes) -> bytes:
    return subprocess.run(argv, input=data, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=True).stdout


def _number_line(text_page, page_height: float) -> Optional[Tuple[Tuple[float, float, float, float], float]]:
    """The Pith Number's box on page 1 (left, top, right, bottom in points, y down) and its
    em, from PDFium's text."""
    text = text_page.get_text_range()
    m = NUMBER.search(text)
    if m is None:
        return None
    boxes = [text_page.get_charbox(i) for i in range(m.start(), m.end())]
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    bottom, top = min(b[1] for b in boxes), max(b[3] for b in boxes)
    em = max(top - bottom, 1.0)
    pad = 0.3 * em
    return (left - pad, page_height - top - pad, right + pad, page_height - bottom + pad), em


def floor(data: bytes) -> None:
    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[0]
        width, height = page.get_size()
        scale = DPI / 72.0
        for extra in (0, raw.FPDF_PRINTING):
            _codes(*_grey(page.render(scale=scale, grayscale=True, may_draw_forms=True,
                                      extra_flags=extra)))
        line = _number_line(page.get_textpage(), height)
        if line is not None:
            (x0, y0, x1, y1), em = line
            k = OCR_EM_PX / em
            crop = (x0, height - y1, width - x1, y0)  # left, bottom, right, top margins
            read_line(*_grey(page.render(scale=k, grayscale=True, crop=crop)))
    finally:
        pdf.close()
    _poppler(["pdftotext", "-f", "1", "-l", "1", "-bbox-layout", "-cropbox", "-enc", "UTF-8",
              "-", "-"], data)
    _codes(*_pgm(_poppler(["pdftoppm", "-f", "1", "-l", "1", "-r", "%g" % DPI, "-gray",
                           "-cropbox", "-"], data)))
    _poppler(["pdfinfo", "-custom", "-enc", "UTF-8", "-"], data)
    if line is not None:
        r = k * 72.0
        _poppler_line = _pgm(_poppler(
            ["pdftoppm", "-f", "1", "-l", "1", "-r", "%.3f" % r, "-gray", "-cropbox",
             "-x", str(int(x0 * k)), "-y", str(int(y0 * k)), "-W", str(int((x1 - x0) * k) + 1),
             "-H", str(int((y1 - y0) * k) + 1), "-"], data))
        read_line(*_poppler_line)


def main(argv: List[str]) -> int:
    paths: List[str] = []
    for a in argv:
        if os.path.isdir(a):
            paths.extend(sorted(os.path.join(a, n) for n in os.listdir(a) if n.endswith(".pdf")))
        else:
            paths.append(a)
    for p in paths:
        with open(p, "rb") as f:
            floor(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
