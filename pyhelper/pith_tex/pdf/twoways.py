"""Graphics states and fonts of page 1 that the readers' engines draw two ways, which
the structural gate (:mod:`pith_tex.pdf.structure`) refuses: no rendering here shows what the
other reader sees.

* a transfer function /TR2 other than /TR: PDFium and poppler apply /TR2 (it takes the
  place of /TR), pdf.js (Firefox) ignores /TR2 and applies /TR;
* a simple TrueType font whose program's Symbol (3, 0) and Unicode character maps give
  one code two glyphs (:mod:`pith_tex.pdf.truetype`): PDFium and poppler choose one map,
  pdf.js the other, as the font's flags and /Encoding go.

Each check takes a dictionary (resolved) and gives (what it is, why) or None.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from . import truetype
from .draws import dict_of

_NO_TRANSFER = (None, "/Identity", "/Default")


def _key(ref: Any) -> Tuple[Any, Any]:
    return (getattr(ref, "idnum", None), getattr(ref, "generation", None))


def _same_transfer(tr: Any, tr2: Any) -> bool:
    """Whether the transfer functions /TR and /TR2 of one graphics state are the same."""
    if tr in _NO_TRANSFER and tr2 in _NO_TRANSFER:
        return True
    if _key(tr)[0] is not None and _key(tr) == _key(tr2):
        return True
    return tr is not None and tr2 is not None and tr.get_object() == tr2.get_object()


def state_two_ways(state: Dict[Any, Any]) -> Optional[Tuple[str, str]]:
    """Why the graphics state *state* is drawn two ways (a /TR2 that is not its /TR: a
    /TR mapping every colour to white hid the badge in Firefox alone), or None."""
    if "/TR2" not in state or _same_transfer(state.get("/TR"), state.get("/TR2")):
        return None
    return ("the graphics state", "sets a transfer function /TR2 other than its /TR: "
            "PDFium and poppler apply /TR2, Firefox (pdf.js) /TR, so the colours drawn there "
            "differ between readers (remove /TR2, or make it /TR)")


_BASE_ENCODINGS = {"/WinAnsiEncoding": "cp1252", "/MacRomanEncoding": "mac_roman"}


def _characters(encoding: Any) -> Dict[int, Optional[str]]:
    """The character each code 0-255 stands for under a simple font's /Encoding (None:
    not known here; the other standard encodings as ASCII, /Differences' names of one
    letter or ``uniXXXX``)."""
    enc = dict_of(encoding)
    codec = _BASE_ENCODINGS.get(str(encoding if not enc else enc.get("/BaseEncoding", "")))
    out: Dict[int, Optional[str]] = {}
    for code in range(256):
        if codec is not None:
            ch = bytes([code]).decode(codec, "replace")
            out[code] = None if ch == "\ufffd" else ch
        else:
            out[code] = chr(code) if 32 <= code < 127 else None
    code = 0
    for item in list(enc.get("/Differences", []))[:1024] if enc else []:
        if isinstance(item, int):
            code = item
            continue
        name = str(item)[1:]
        if 0 <= code < 256:
            hexa = name[3:] if len(name) == 7 and name.startswith("uni") else ""
            out[code] = name if len(name) == 1 else chr(int(hexa, 16)) if hexa and all(
                c in "0123456789ABCDEF" for c in hexa) else None
        code += 1
    return out


def font_two_ways(font: Dict[Any, Any]) -> Optional[Tuple[str, str]]:
    """Why the simple font dictionary *font* is drawn with other glyphs by PDFium and
    poppler than by pdf.js: a TrueType font whose program gives a code one glyph
    through a Unicode map and another through its Symbol map (3, 0): which one draws
    depends on the reader (flagged symbolic with an /Encoding, PDFium and poppler take
    (3, 1), pdf.js (3, 0); not symbolic, without one, the other way round with a map of
    the Unicode platform); None otherwise (or when its program cannot be read: the
    engines read it no better)."""
    descriptor = dict_of(font.get("/FontDescriptor"))
    if font.get("/Subtype") != "/TrueType" or descriptor.get("/FontFile2") is None:
        return None
    try:
        code = truetype.symbol_differs(descriptor["/FontFile2"].get_object().get_data(),
                              _characters(font.get("/Encoding")))
    except Exception:  # noqa: BLE001 -- Unreadable, and pypdf's many decoding errors
        return None
    if code is None:
        return None
    return ("the font", "draws code %d with one glyph through its Unicode character map "
                        "and another through its Symbol map: PDFium and poppler draw "
                        "one, Firefox (pdf.js) the other, so readers see other characters "
                        "(embed the font with one map)" % code)
