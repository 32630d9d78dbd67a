"""The character maps of an embedded TrueType program (``/FontFile2``), read only as far
as :mod:`pith_tex.pdf.twoways` needs them: which glyph each code selects through the
Microsoft Symbol (3, 0) and Unicode (3, 1) subtables.

A simple TrueType font flagged symbolic with an /Encoding is drawn through (3, 1) by
PDFium and poppler (each code's character name, as Unicode) and through (3, 0) by pdf.js
(Firefox): a program whose two subtables select other glyphs for one code paints one
number in Chrome and Evince and another in Firefox.

Bounded: the program is read as given (the caller's decoded stream); at most
:data:`MAX_SEGMENTS` segments or groups of a subtable are read, and only the codes asked
for are looked up.
"""

from __future__ import annotations

import bisect
import struct
from typing import Dict, List, Optional, Tuple

MAX_SEGMENTS = 8192
Cmap = Dict[int, int]


class Unreadable(Exception):
    """The program's cmap cannot be read."""


def _u16(data: bytes, at: int) -> int:
    if at < 0 or at + 2 > len(data):
        raise Unreadable("cut short")
    return int(struct.unpack_from(">H", data, at)[0])


def _u32(data: bytes, at: int) -> int:
    if at < 0 or at + 4 > len(data):
        raise Unreadable("cut short")
    return int(struct.unpack_from(">I", data, at)[0])


def _format4(data: bytes, at: int, wanted: List[int]) -> Cmap:
    segs = _u16(data, at + 6) // 2
    if segs > MAX_SEGMENTS:
        raise Unreadable("too many segments")
    ends, starts = at + 14, at + 16 + 2 * segs
    deltas, ranges = starts + 2 * segs, starts + 4 * segs
    out: Cmap = {}
    for k in range(segs):
        end, start = _u16(data, ends + 2 * k), _u16(data, starts + 2 * k)
        delta, offset = _u16(data, deltas + 2 * k), _u16(data, ranges + 2 * k)
        for code in wanted[bisect.bisect_left(wanted, start):bisect.bisect_right(wanted, end)]:
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                glyph = _u16(data, ranges + 2 * k + offset + 2 * (code - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph and code not in out:
                out[code] = glyph
    return out


def _subtable(data: bytes, at: int, wanted: List[int]) -> Cmap:
    """The glyphs the subtable at *at* gives the codes *wanted* (sorted)."""
    kind = _u16(data, at)
    if kind == 4:
        return _format4(data, at, wanted)
    out: Cmap = {}
    if kind == 0:
        for code in wanted:
            if code < 256 and at + 6 + code < len(data) and data[at + 6 + code]:
                out[code] = data[at + 6 + code]
    elif kind == 6:
        first, count = _u16(data, at + 6), _u16(data, at + 8)
        for code in wanted:
            if first <= code < first + count and (g := _u16(data, at + 10 + 2 * (code - first))):
                out[code] = g
    elif kind == 12:
        groups = _u32(data, at + 12)
        if groups > MAX_SEGMENTS:
            raise Unreadable("too many groups")
        for k in range(groups):
            start, end, glyph = (_u32(data, at + 16 + 12 * k + 4 * j) for j in range(3))
            for code in wanted[bisect.bisect_left(wanted, start):bisect.bisect_right(wanted, end)]:
                out.setdefault(code, glyph + code - start)
    else:
        raise Unreadable("cmap format %d" % kind)
    return out


def microsoft_cmaps(program: bytes, wanted: Dict[int, List[int]]) -> Dict[Tuple[int, int], Cmap]:
    """The glyphs of the codes *wanted* of each (3, encoding) subtable of the TrueType
    *program* (keys of *wanted*: 0 Symbol, 1 Unicode, the first Unicode map of either
    platform) that it has."""
    tables = _u16(program, 4)
    cmap = None
    for k in range(min(tables, 256)):
        if program[12 + 16 * k:16 + 16 * k] == b"cmap":
            cmap = _u32(program, 12 + 16 * k + 8)
    if cmap is None:
        return {}
    out: Dict[Tuple[int, int], Cmap] = {}
    for k in range(min(_u16(program, cmap + 2), 64)):
        platform, encoding = _u16(program, cmap + 4 + 8 * k), _u16(program, cmap + 6 + 8 * k)
        if platform == 0:  # a Unicode map of the Unicode platform: read as (3, 1) is
            platform, encoding = 3, 1
        if platform == 3 and encoding in wanted and (3, encoding) not in out:
            out[(3, encoding)] = _subtable(program, cmap + _u32(program, cmap + 8 + 8 * k),
                                           wanted[encoding])
    return out


def symbol_differs(program: bytes, unicode_of: Dict[int, Optional[str]]) -> Optional[int]:
    """A code (0-255) whose glyph through (3, 0) is not the glyph of its character
    (*unicode_of*: the /Encoding's, None where it names none) through (3, 1); None when
    the program lacks either subtable or they agree."""
    symbols = sorted({*range(256), *range(0xF000, 0xF100)})
    chars = sorted({ord(ch) for ch in unicode_of.values() if ch})
    found = microsoft_cmaps(program, {0: symbols, 1: chars})
    if len(found) < 2:
        return None
    symbol, unicode = found[(3, 0)], found[(3, 1)]
    for code in range(256):
        glyph = symbol.get(0xF000 + code, symbol.get(code))
        if glyph is None:
            continue
        ch = unicode_of.get(code)
        if ch is None or unicode.get(ord(ch)) != glyph:
            return code
    return None
