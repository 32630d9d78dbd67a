"""Read QR codes back with two independent decoders: zbar and zxing-cpp.

zbar (``zbarimg``, C, from zbar-tools) and zxing-cpp (the C++ port of ZXing, PyPI wheel
``zxing-cpp``) share no code, so a symbol both read to the same text is what phones read.
Both take the same 8-bit greyscale image (binary PGM, as ``pdftoppm -gray`` writes it).
A missing decoder is an error, never a skip.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import List, Sequence, Tuple

from texbuild import tool

QUIET_ZONE = 4  # ISO/IEC 18004: light modules around the symbol


def read_pgm(path: Path) -> Tuple[int, int, bytes]:
    """Width, height and pixels (one byte each, 0 = black) of a binary PGM."""
    data = path.read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert m, data[:40]
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():m.end() + w * h]


def write_pgm(path: Path, rows: Sequence[str], quiet: int = QUIET_ZONE, scale: int = 4) -> Path:
    """*rows* (``1`` = dark module) as a binary PGM with *quiet* light modules around."""
    n = len(rows)
    side = (n + 2 * quiet) * scale
    px = bytearray(b"\xff" * side * side)
    for r, row in enumerate(rows):
        for c, m in enumerate(row):
            if m == "1":
                for dy in range(scale):
                    y = (r + quiet) * scale + dy
                    x = (c + quiet) * scale
                    px[y * side + x:y * side + x + scale] = b"\x00" * scale
    path.write_bytes(b"P5\n%d %d\n255\n" % (side, side) + bytes(px))
    return path


def zbar(image: Path) -> List[str]:
    """Every code zbar finds in *image* (exit 4 = none found)."""
    p = subprocess.run([tool("zbarimg"), "--raw", "-q", str(image)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode in (0, 4), p.stderr
    return [line for line in p.stdout.splitlines() if line]


def zxing(pgm: Path) -> List[str]:
    """Every QR code zxing-cpp finds in the greyscale image *pgm*."""
    import zxingcpp  # test extra `zxing-cpp`: missing, the test fails

    w, h, px = read_pgm(pgm)
    found = zxingcpp.read_barcodes(memoryview(px).cast("B", (h, w)),
                                   formats=zxingcpp.BarcodeFormat.QRCode)
    return [b.text for b in found if b.valid]


def both(pgm: Path) -> Tuple[List[str], List[str]]:
    """What zbar and zxing-cpp each read in *pgm*."""
    return zbar(pgm), zxing(pgm)
