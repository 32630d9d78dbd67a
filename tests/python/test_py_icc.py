"""ICC profiles read for the luminance of a colour (pith_tex.icc): the kinds followed,
and those refused."""

from __future__ import annotations

import struct
from typing import List, Tuple

import pytest

from pith_tex.icc import luminance


def _s15(v: float) -> bytes:
    return struct.pack(">i", int(round(v * 65536)))


def _profile(space: bytes, tags: List[Tuple[bytes, bytes]]) -> bytes:
    at, table, data = 132 + 12 * len(tags), struct.pack(">I", len(tags)), b""
    for sig, body in tags:
        body += b"\0" * (-len(body) % 4)
        table += sig + struct.pack(">II", at + len(data), len(body))
        data += body
    head = (struct.pack(">I", 128 + len(table) + len(data)) + b"lcms\x02\x10\0\0mntr"
            + space + b"XYZ " + b"\0" * 12 + b"acsp").ljust(128, b"\0")
    return head + table + data


def _xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ \0\0\0\0" + _s15(x) + _s15(y) + _s15(z)


def _gamma(g: float) -> bytes:  # a parametric curve of type 0
    return b"para\0\0\0\0\0\0\0\0" + _s15(g)


SRGB_LIKE = _profile(b"RGB ", [
    (b"rXYZ", _xyz(0.4361, 0.2225, 0.0139)), (b"gXYZ", _xyz(0.3851, 0.7169, 0.0971)),
    (b"bXYZ", _xyz(0.1431, 0.0606, 0.7141)),
    (b"rTRC", _gamma(2.2)), (b"gTRC", _gamma(2.2)), (b"bTRC", _gamma(2.2))])


def test_an_rgb_matrix_profile_is_followed():
    lum = luminance(SRGB_LIKE, 3)
    assert lum is not None
    assert lum([0, 0, 0]) == 0 and lum([1, 1, 1]) == pytest.approx(1, abs=1e-3)
    assert lum([0, 1, 0]) == pytest.approx(0.7169, abs=1e-3)  # green is light


def test_a_gray_tone_curve_that_runs_backwards_paints_0_white():
    inverted = _profile(b"GRAY", [(b"kTRC", b"curv\0\0\0\0" + struct.pack(">I2H", 2, 65535, 0))])
    lum = luminance(inverted, 1)
    assert lum is not None and lum([0]) == 1 and lum([1]) == 0


@pytest.mark.parametrize("profile, n", [
    (_profile(b"CMYK", [(b"A2B0", b"mft2" + b"\0" * 60)]), 4),  # lookup tables: not followed
    (_profile(b"RGB ", [(b"rTRC", _gamma(2.2))]), 3),  # no primaries
    (SRGB_LIKE, 1),  # /N says 1, the profile is RGB
    (SRGB_LIKE[:100], 3),  # truncated
    (_profile(b"GRAY", [(b"kTRC", b"curv\0\0\0\0" + struct.pack(">I", 1 << 30))]), 1),
])
def test_a_profile_not_followed_is_said(profile, n):
    assert luminance(profile, n) is None
