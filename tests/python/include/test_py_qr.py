"""The QR code written into the include decodes to the exact Pith URL, by two real readers.

The modules are drawn here into a greyscale image with the quiet zone pith.sty adds, and read
back by zbar (``zbarimg``) and zxing-cpp: the oracles are two independent QR decoders, not
the library that encoded the symbol.  The expected text is built here from the published URL
of each vector: scheme and host in upper case (case-insensitive), the path exactly.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

import qrdecode
import recorded
from pith_tex.include.qr import qr_rows, qr_text

NUM = "O6TNNA4XHFGPSALGBT7UWDA2Z3"


def expected(url: str, number: str) -> str:
    """The record page ``https://pith.science/pith/NUM`` (some vectors publish a file under
    it) as the code must carry it."""
    parts = urlsplit(url)
    page = "/pith/" + number
    assert parts.path == page or parts.path.startswith(page + "/"), url
    return "%s://%s%s" % (parts.scheme.upper(), parts.netloc.upper(), page)


@pytest.mark.parametrize("v", recorded.vectors_with_record(), ids=lambda v: v["number"])
def test_rows_decode_to_the_exact_pith_url_with_both_decoders(v, tmp_path):
    rows = qr_rows(v["number"])
    image = qrdecode.write_pgm(tmp_path / "qr.pgm", rows)
    want = expected(v["url"], v["number"])
    assert qrdecode.zbar(image) == [want]
    assert qrdecode.zxing(image) == [want]
    # The path a phone opens is the published one, case included.
    assert urlsplit(v["url"]).path.startswith(urlsplit(qrdecode.zxing(image)[0]).path)


@pytest.mark.parametrize("v", recorded.vectors_with_record(), ids=lambda v: v["number"])
def test_mixed_modes_keep_version_3(v):
    # Host and number in alphanumeric mode, only "/pith/" in byte mode: 339 data bits, under
    # version 3's 352 at level M.  The whole URL in byte mode would need version 4 (33).
    rows = qr_rows(v["number"])
    assert len(rows) == 29 and all(len(r) == 29 and not r.strip("01") for r in rows)


def test_level_m_corrects_damaged_modules(tmp_path):
    rows = qr_rows(NUM)
    # Flip a few data modules in the lower right (far from the finder patterns).
    damaged = [list(r) for r in rows]
    for y, x in ((20, 20), (21, 24), (25, 22), (27, 27)):
        damaged[y][x] = "0" if damaged[y][x] == "1" else "1"
    flipped = ["".join(r) for r in damaged]
    assert flipped != rows
    image = qrdecode.write_pgm(tmp_path / "qr.pgm", flipped)
    assert qrdecode.zbar(image) == [qr_text(NUM)]
    assert qrdecode.zxing(image) == [qr_text(NUM)]


def test_no_quiet_zone_is_not_what_pith_draws(tmp_path):
    # The decoders are real: they must not read a symbol without any of its structure.
    rows = ["0" * 29] * 29
    image = qrdecode.write_pgm(tmp_path / "blank.pgm", rows)
    assert qrdecode.zbar(image) == [] and qrdecode.zxing(image) == []


def test_qr_text_refuses_non_numbers():
    with pytest.raises(ValueError):
        qr_text("o6tnna4xhfgpsalgbt7uwda2z3")
    with pytest.raises(ValueError):
        qr_rows(NUM[:-1])
