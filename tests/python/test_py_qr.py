"""The QR code written into the include decodes, with a real reader (zbar), to the Pith URL.

The modules are drawn here into a PBM image with the quiet zone pith.sty adds, and read
back by ``zbarimg``: the oracle is a QR decoder, not the library that encoded it.
"""

from __future__ import annotations

import subprocess

import pytest

import recorded
from pith_tex.qr import QUIET_ZONE, qr_rows, qr_text

ZBARIMG = "zbarimg"  # from zbar-tools (scripts/setup.sh): missing, these tests fail


def pbm(rows, quiet=QUIET_ZONE, scale=3):
    """A plain PBM image of *rows* (``1`` = dark) with *quiet* light modules around."""
    n = len(rows)
    side = (n + 2 * quiet) * scale
    out = []
    for y in range(side):
        r = y // scale - quiet
        out.append(" ".join(
            "1" if 0 <= r < n and 0 <= x // scale - quiet < n and rows[r][x // scale - quiet] == "1"
            else "0" for x in range(side)))
    return ("P1\n%d %d\n" % (side, side) + "\n".join(out) + "\n").encode("ascii")


def decode(image, tmp_path):
    path = tmp_path / "qr.pbm"
    path.write_bytes(image)
    r = subprocess.run([ZBARIMG, "--raw", "-q", str(path)], capture_output=True, text=True)
    return r.returncode, r.stdout.rstrip("\n")


@pytest.mark.parametrize("v", recorded.vectors_with_record()[:8], ids=lambda v: v["number"])
def test_rows_decode_to_the_upper_case_pith_url(v, tmp_path):
    rows = qr_rows(v["number"])
    code, text = decode(pbm(rows), tmp_path)
    assert code == 0
    assert text == "HTTPS://PITH.SCIENCE/PITH/" + v["number"]
    assert v["url"].lower().startswith(text.lower())  # the published URL, case aside


def test_alphanumeric_mode_gives_version_3():
    # 52 alphanumeric characters at level M need version 3 (29 modules); in byte mode
    # (lower case) they would need version 4 (33).
    rows = qr_rows("O6TNNA4XHFGPSALGBT7UWDA2Z3")
    assert len(rows) == 29 and all(len(r) == 29 and not r.strip("01") for r in rows)


def test_level_m_corrects_a_damaged_module(tmp_path):
    rows = qr_rows("O6TNNA4XHFGPSALGBT7UWDA2Z3")
    flipped = [rows[0][:8] + ("0" if rows[0][8] == "1" else "1") + rows[0][9:]] + rows[1:]
    assert flipped != rows
    assert decode(pbm(flipped), tmp_path)[1] == qr_text("O6TNNA4XHFGPSALGBT7UWDA2Z3")


def test_qr_text_refuses_non_numbers():
    with pytest.raises(ValueError):
        qr_text("o6tnna4xhfgpsalgbt7uwda2z3")
