"""Accents as the engines read them off a page: a spacing accent that a font without
composed letters (TeX's OT1: ``\\`{a}``, ``\\"o``) draws as a glyph of its own, and the
combining mark poppler writes after a letter, made the accented letter the title was
typed with (:mod:`pith_tex.pdf.pagetitle` joins them to their letters)."""

from __future__ import annotations

import re
import unicodedata

#: Spacing accents drawn over or under a letter as a glyph of their own, and the combining
#: mark each stands for.
ACCENTS = {"`": "\u0300", "\u00b4": "\u0301", "^": "\u0302", "\u02c6": "\u0302",
           "~": "\u0303", "\u02dc": "\u0303", "\u00af": "\u0304", "\u02c9": "\u0304",
           "\u02d8": "\u0306", "\u02d9": "\u0307", "\u00a8": "\u0308", "\u02da": "\u030a",
           "\u02dd": "\u030b", "\u02c7": "\u030c", "\u00b8": "\u0327", "\u02db": "\u0328"}
_DOTLESS = {"\u0131": "i", "\u0237": "j"}  # \'{\i}: the accent replaces the dot

COMBINING_RE = re.compile("[\u0300-\u036f]")


def accented(text: str) -> str:
    """*text* with its combining marks composed, a dotless letter under one dotted (OT1's
    ``\\"{\\i}``: a dotless i and a diaeresis, which no normal form makes an i with one)."""
    return unicodedata.normalize("NFC", re.sub("[\u0131\u0237](?=[\u0300-\u036f])",
                                               lambda m: _DOTLESS[m.group(0)], text))
