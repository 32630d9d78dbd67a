"""How light an ICC-based colour is, read through its profile.

A viewer paints an ``/ICCBased`` colour through its ICC profile (poppler with Little CMS):
a gray profile whose tone curve runs backwards paints gray 0 white.  Taking the colour as
DeviceGray or DeviceRGB, as pith-tex did, vouched for a badge drawn white.
:func:`luminance` follows the two kinds of profile a paper's text uses, gray profiles
(a ``kTRC`` tone curve) and RGB matrix/TRC profiles (``rXYZ``, ``gXYZ``, ``bXYZ`` and their
tone curves: sRGB and its kind); any other profile (CMYK, Lab, lookup tables) is not
followed, and the caller says so.

Bounded: the profile is read within :data:`MAX_PROFILE` bytes, 64 tags, 4096 curve points.
This is a bottom module: it imports nothing from pith_tex.
"""

from __future__ import annotations

import struct
from typing import Callable, Dict, List, Optional

MAX_PROFILE = 1 << 20
Curve = Callable[[float], float]


def _s15(data: bytes, at: int) -> float:
    return float(struct.unpack_from(">i", data, at)[0]) / 65536.0


def _curve(tag: bytes) -> Optional[Curve]:
    """A ``curv`` or ``para`` tone curve, as a function of [0, 1]."""
    if tag[:4] == b"curv" and len(tag) >= 12:
        n = struct.unpack_from(">I", tag, 8)[0]
        if n == 0:
            return lambda x: x
        if n == 1 and len(tag) >= 14:
            g = struct.unpack_from(">H", tag, 12)[0] / 256.0
            return lambda x: x ** g
        if 2 <= n <= 4096 and len(tag) >= 12 + 2 * n:
            pts = [v / 65535.0 for v in struct.unpack_from(">%dH" % n, tag, 12)]

            def table(x: float) -> float:
                p = x * (n - 1)
                i = min(int(p), n - 2)
                return pts[i] + (p - i) * (pts[i + 1] - pts[i])
            return table
        return None
    if tag[:4] == b"para" and len(tag) >= 12:
        kind = struct.unpack_from(">H", tag, 8)[0]
        count = {0: 1, 1: 3, 2: 4, 3: 5, 4: 7}.get(kind)
        if count is None or len(tag) < 12 + 4 * count:
            return None
        g, a, b, c, d, e, f = ([_s15(tag, 12 + 4 * k) for k in range(count)]
                               + [1.0, 0.0, 0.0, 0.0, 0.0, 0.0])[:7]
        if kind == 0:
            return lambda x: x ** g
        if kind in (1, 2):
            c0 = c if kind == 2 else 0.0
            return lambda x: (max(a * x + b, 0.0) ** g + c0) if a * x + b >= 0 else c0
        if kind == 3:
            return lambda x: max(a * x + b, 0.0) ** g if x >= d else c * x
        return lambda x: max(a * x + b, 0.0) ** g + e if x >= d else c * x + f
    return None


def luminance(profile: bytes, components: int) -> Optional[Callable[[List[float]], float]]:
    """A function from a colour's components (0..1) to its luminance (0 black, 1 white)
    through *profile*, or None when the profile is not one followed here."""
    if len(profile) < 132 or len(profile) > MAX_PROFILE:
        return None
    space = profile[16:20]
    count = struct.unpack_from(">I", profile, 128)[0]
    if count > 64 or len(profile) < 132 + 12 * count:
        return None
    tags: Dict[bytes, bytes] = {}
    for k in range(count):
        sig, off, size = struct.unpack_from(">4sII", profile, 132 + 12 * k)
        if off + size <= len(profile):
            tags.setdefault(sig, profile[off:off + size])
    try:
        if space == b"GRAY" and components == 1 and b"kTRC" in tags:
            k_curve = _curve(tags[b"kTRC"])
            if k_curve is None:
                return None
            return lambda v: min(1.0, max(0.0, k_curve(v[0])))
        if space == b"RGB " and components == 3:
            curves = [_curve(tags.get(t, b"")) for t in (b"rTRC", b"gTRC", b"bTRC")]
            ys = [_s15(tags[t], 12) for t in (b"rXYZ", b"gXYZ", b"bXYZ")
                  if len(tags.get(t, b"")) >= 20]
            if len(ys) != 3 or any(c is None for c in curves) or not sum(ys) > 0:
                return None
            total = sum(ys)
            return lambda v: min(1.0, max(0.0, sum(
                y * c(x) for y, c, x in zip(ys, curves, v)) / total))  # type: ignore[misc]
    except (struct.error, ValueError, OverflowError, ZeroDivisionError):
        return None
    return None
