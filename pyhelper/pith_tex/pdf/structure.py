"""The structural gate of ``verify``: PDF constructs whose meaning differs between readers.

What page 1 shows is decided by the readers' engines (:mod:`pith_tex.pdf.pageview`).  A few
constructs are read one way by one engine and another way by another, or by pypdf (which
reads the metadata), and no amount of rendering tells which reading a reader's viewer
takes.  They are refused, not interpreted: :func:`refusals` lists each one found, in one
line, and ``verify`` answers "could not check" (exit 3) when the list is not empty.

Page 1's content streams (its ``/Contents`` and the forms, patterns, Type 3 glyphs and
annotation appearances it draws):

* **a content array split inside a token or a comment.**  PDF 32000-1 (7.8.2) reads the
  streams of a ``/Contents`` array as one; each reader joins them its own way (poppler
  with nothing between them, PDFium with a space, pypdf with a line end), and a comment
  runs on into the next stream in poppler and PDFium.  A stream that ends inside a
  comment, a string, an inline image or a token (``...TJ`` + ``0 g``) reads two ways.
* **inline images whose end is ambiguous.**  The end of ``BI ... ID data EI`` is where the
  data ends: PDFium and poppler compute it from the size (unfiltered) or the decoder;
  pypdf and pdf.js look for an ``EI`` followed by white space.  Data holding such an
  ``EI``, or an ``EI`` not where the size says, reads two ways.  The end is computed here
  for unfiltered, hex, ASCII85, Flate, run-length and LZW data, and at the JPEG's end
  marker for DCT (as pdf.js finds it).  CCITT fax data (Ghostscript's bitmap glyphs) is
  not decoded: its end is the first ``EI``, and a second ``EI`` before the next image is
  refused; a G4 stream crafted to decode on past that first ``EI`` is not seen here
  (PDFium and poppler, which decode it, agree on it then; pdf.js does not).

The page tree:

* **a /Count that disagrees with its kids.**  pdf.js skips a subtree by its ``/Count`` on
  the way to a page; poppler and PDFium walk the kids.  A lying count opens another page 1.
  Also a node that is both a page and a page-tree node, a loop, a missing count.

The cost of page 1:

* **forms drawn too many times.**  A form drawing another 8 times, 12 levels deep, is
  8^12 draws in a few KiB, and PDFium's memory grows with each draw until the kernel
  kills it.  Every draw counts (a form drawn by a form drawn 8 times is drawn 8 times);
  past :data:`MAX_DRAWS` the page is refused before any engine reads it.

Bounded: at most :data:`MAX_STREAMS` content streams and :data:`MAX_BYTES` decoded bytes
are read, :data:`MAX_DEPTH` levels of forms, :data:`MAX_TREE_NODES` page-tree nodes are
compared (past that only the nodes on the way to page 1, the ones that choose it).  Past a
cap the answer is a refusal too: what was not read cannot be vouched for.

This is a bottom module: it imports only :mod:`pith_tex.pdf.draws` (pypdf inside the
functions).
"""

from __future__ import annotations

import io
import logging
import re
import warnings
import zlib
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import pypdf

from .draws import Draws, TooManyDraws, dict_of

MAX_STREAMS = 512
MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 16
#: Form XObjects drawn on page 1, counting every draw of a form that is drawn again by
#: another (a form drawing one 8 times, 12 levels deep, is 8^12 draws in a file of a
#: few KiB).  PDFium parses a form anew at each draw and keeps what it parsed (about
#: 1.4 KB a draw), so the 8^12 fan-out grows without end; 200,000 draws take it about
#: 300 MB.  Honest pages draw forms hundreds of times (a plot's markers, a figure's
#: glyphs), rarely tens of thousands.
MAX_DRAWS = 200_000
#: Page-tree nodes whose /Count is compared with their kids: each costs pypdf a parse
#: (about 0.2 ms; pdfTeX's pages sit in object streams), so a long paper pays a bounded
#: amount.  The nodes on the way to page 1, which choose it, are always compared.
MAX_TREE_NODES = 256
MAX_INLINE_DECODED = 64 * 1024 * 1024  # what a Flate inline image may inflate to

_WS = b"\x00\t\n\x0c\r "
_DELIMS = b"()<>[]{}/%"
_EOL_RE = re.compile(rb"[\r\n]")
# An ``EI`` that a reader looking for the end of image data stops at: followed by white
# space or the end of the stream (pypdf and pdf.js; PDFium and poppler do not look).
_EI_RE = re.compile(rb"EI(?=[\x00\t\n\x0c\r ]|\Z)")

#: Components per pixel of the colour spaces an inline image may name (abbreviated or
#: not; an array by its first name); a colour space from the resources is not computed.
_COMPONENTS = {"/G": 1, "/DeviceGray": 1, "/CalGray": 1, "/I": 1, "/Indexed": 1,
               "/RGB": 3, "/DeviceRGB": 3, "/CalRGB": 3, "/Lab": 3,
               "/CMYK": 4, "/DeviceCMYK": 4}
_FILTERS = {"/AHx": "/ASCIIHexDecode", "/A85": "/ASCII85Decode", "/LZW": "/LZWDecode",
            "/Fl": "/FlateDecode", "/RL": "/RunLengthDecode", "/CCF": "/CCITTFaxDecode",
            "/DCT": "/DCTDecode"}


class _Refused(Exception):
    """A cap was reached: the message says which."""


class _TooCostly(_Refused):
    """Page 1 would cost an engine more than it may spend: not to be rendered at all."""


# --- content streams -------------------------------------------------------------------


def _tokens(data: bytes, i: int = 0) -> Iterator[Tuple[str, bytes, int]]:
    """The tokens of *data* from *i*: (kind, bytes, end).  Kinds: ``regular`` (numbers,
    operators, true...), ``name``, ``string``, ``hex``, ``open``/``close`` (``[ ] << >>
    { }``), and, for what is cut off at the end, ``comment``, ``string``, ``hex`` with
    end -1.  Image data after ``ID`` is not a token: the caller skips it."""
    n = len(data)
    while i < n:
        c = data[i]
        if c in _WS:
            i += 1
        elif c == 0x25:  # %
            m = _EOL_RE.search(data, i)
            if m is None:
                yield "comment", data[i:], -1
                return
            i = m.end()
        elif c == 0x28:  # (
            depth, j = 1, i + 1
            while j < n and depth:
                b = data[j]
                if b == 0x5C:  # backslash: the next byte is escaped
                    j += 2
                    continue
                depth += 1 if b == 0x28 else -1 if b == 0x29 else 0
                j += 1
            if depth or j > n:
                yield "string", data[i:], -1
                return
            yield "string", data[i:j], j
            i = j
        elif c == 0x3C:  # <
            if data[i + 1:i + 2] == b"<":
                yield "open", b"<<", i + 2
                i += 2
                continue
            j = data.find(b">", i)
            if j < 0:
                yield "hex", data[i:], -1
                return
            yield "hex", data[i:j + 1], j + 1
            i = j + 1
        elif c == 0x3E:  # >
            k = 2 if data[i + 1:i + 2] == b">" else 1
            yield "close", data[i:i + k], i + k
            i += k
        elif c in b"[{":
            yield "open", data[i:i + 1], i + 1
            i += 1
        elif c in b"]}" or c == 0x29:
            yield "close", data[i:i + 1], i + 1
            i += 1
        else:
            j = i + 1
            while j < n and data[j] not in _WS and data[j] not in _DELIMS:
                j += 1
            yield ("name" if c == 0x2F else "regular"), data[i:j], j
            i = j


def _image_dict(items: List[Tuple[str, bytes]]) -> Dict[str, Any]:
    """The entries of an inline image's dictionary (``BI`` to ``ID``): names to a name, a
    number, a bool or a list of such; nested dictionaries and strings as their bytes."""
    out: Dict[str, Any] = {}
    k = 0
    while k + 1 < len(items):
        kind, key = items[k]
        if kind != "name":
            k += 1
            continue
        kind, tok = items[k + 1]
        if kind == "open":
            depth, j, vals = 1, k + 2, []
            while j < len(items) and depth:
                depth += {"open": 1, "close": -1}.get(items[j][0], 0)
                vals.append(items[j][1].decode("latin-1"))
                j += 1
            out[key.decode("latin-1")] = vals[:-1] if tok == b"[" else None
            k = j
            continue
        out[key.decode("latin-1")] = tok.decode("latin-1")
        k += 2
    return out


def _int(value: Any) -> Optional[int]:
    try:
        v = int(value)
    except (TypeError, ValueError):
        return None
    return v if v > 0 else None


def _named_components(resources: Any, name: str) -> Optional[int]:
    """Components per pixel of the colour space *name* of *resources* (None: not one an
    image's size can be computed with)."""
    cs = dict_of(resources).get("/ColorSpace")
    try:
        value: Any = dict_of(cs).get(name)
        value = value.get_object() if value is not None else None
        family = value if isinstance(value, str) else value[0] if value else None
        if family in _COMPONENTS:
            return _COMPONENTS[family]
        if family in ("/Separation",):
            return 1
        if family == "/DeviceN":
            return len(value[1].get_object())
        if family == "/ICCBased":
            n = value[1].get_object().get("/N")
            return n if isinstance(n, int) and n in (1, 3, 4) else None
    except Exception:  # noqa: BLE001 -- not an array, not a stream: not computed
        return None
    return None


def _raw_length(entries: Dict[str, Any], resources: Any) -> Tuple[Optional[int], str]:
    """The bytes of an unfiltered inline image's data as its size says (None and why when
    the dictionary does not say)."""
    w, h = _int(entries.get("/W", entries.get("/Width"))), _int(
        entries.get("/H", entries.get("/Height")))
    mask = entries.get("/IM", entries.get("/ImageMask")) == "true"
    bpc = 1 if mask else _int(entries.get("/BPC", entries.get("/BitsPerComponent")))
    cs = entries.get("/CS", entries.get("/ColorSpace"))
    if isinstance(cs, list):  # [/Indexed base hival lookup]
        cs = cs[0] if cs else None
    comps = 1 if mask else _COMPONENTS.get(cs) if isinstance(cs, str) else None
    if comps is None and not mask and isinstance(cs, str):
        comps = _named_components(resources, cs)
    if w is None or h is None or bpc is None or comps is None:
        return None, "its size (width, height, bits, colour space %s) is not one the " \
            "readers compute alike" % (cs if isinstance(cs, str) else "?")
    return (w * comps * bpc + 7) // 8 * h, ""


def _flate_end(data: bytes, start: int) -> Optional[int]:
    """Where the zlib stream starting at *start* ends (None: it does not end, or inflates
    to more than :data:`MAX_INLINE_DECODED` bytes)."""
    d = zlib.decompressobj()
    out = 0
    chunk = data[start:]
    try:
        while True:
            out += len(d.decompress(chunk, 1 << 20))
            if d.eof:
                return len(data) - len(d.unused_data)
            chunk = d.unconsumed_tail
            if not chunk or out > MAX_INLINE_DECODED:
                return None
    except zlib.error:
        return None


def _run_length_end(data: bytes, start: int) -> Optional[int]:
    i, n = start, len(data)
    while i < n:
        b = data[i]
        if b == 128:
            return i + 1
        i += 1 + (b + 1 if b < 128 else 1)
    return None


def _filter(entries: Dict[str, Any]) -> Optional[str]:
    """The first filter of an inline image (full name), which its raw bytes go through."""
    f = entries.get("/F", entries.get("/Filter"))
    first = f[0] if isinstance(f, list) and f else f if isinstance(f, str) else None
    return _FILTERS.get(first, first) if first else None


def _lzw_end(data: bytes, start: int) -> Optional[int]:
    """Where the LZW data starting at *start* ends: past its end-of-data code (257), codes
    of 9 to 12 bits, widening one code early (the PDF default)."""
    bits, size, buf, nbits, i, first = 9, 258, 0, 0, start, True
    while True:
        while nbits < bits:
            if i >= len(data):
                return None
            buf, nbits, i = ((buf << 8) | data[i]) & 0xFFFFFF, nbits + 8, i + 1
        code = (buf >> (nbits - bits)) & ((1 << bits) - 1)
        nbits -= bits
        if code == 257:
            return i
        if code == 256:
            bits, size, first = 9, 258, True
            continue
        if not first:
            size += 1
        first = False
        if size + 1 >= (1 << bits) and bits < 12:
            bits += 1


#: The end of CCITT fax data is not computed here (a G4 decoder): the first EI standing
#: alone is taken as its end, as pdf.js and pypdf take it (see :func:`_inline_image`).
_UNDECODED = "/CCITTFaxDecode"


def _data_end(data: bytes, start: int, entries: Dict[str, Any],
              resources: Any) -> Tuple[Optional[int], str]:
    """Where the data of the inline image starting at *start* ends, as PDFium and poppler
    find it (None and why when that cannot be told here)."""
    first = _filter(entries)
    if first is None:
        length, why = _raw_length(entries, resources)
        return (None, why) if length is None else (start + length, "")
    if first == "/ASCIIHexDecode":
        j = data.find(b">", start)
        return (None, "its hex data does not end") if j < 0 else (j + 1, "")
    if first == "/ASCII85Decode":
        j = data.find(b"~>", start)
        return (None, "its ASCII85 data does not end") if j < 0 else (j + 2, "")
    if first == "/FlateDecode":
        end = _flate_end(data, start)
        return (None, "its Flate data does not end") if end is None else (end, "")
    if first == "/RunLengthDecode":
        end = _run_length_end(data, start)
        return (None, "its run-length data does not end") if end is None else (end, "")
    if first == "/LZWDecode":
        end = _lzw_end(data, start)
        return (None, "its LZW data does not end") if end is None else (end, "")
    if first == "/DCTDecode":  # at the JPEG's end-of-image marker, where pdf.js ends it
        j = data.find(b"\xff\xd9", start)
        return (None, "its JPEG data does not end") if j < 0 else (j + 2, "")
    if first == _UNDECODED:
        m = _EI_RE.search(data, start)
        return (None, "its CCITT data has no EI after it") if m is None else (m.start(), "")
    return None, "its data is %s, whose end only a decoder finds" % first[1:]


def _inline_image(data: bytes, start: int, entries: Dict[str, Any], where: str,
                  resources: Any) -> Tuple[int, Optional[str]]:
    """The end of the inline image whose data starts at *start* (past its ``EI``; -1 when
    the stream ends inside its data) and the refusal it earns, if any."""
    end, why = _data_end(data, start, entries, resources)
    if end is not None and end >= len(data):
        return -1, None  # the stream ends inside the image's data
    if end is None:
        return len(data), "an inline image in %s: %s, so readers may end it at " \
            "different places" % (where, why)
    inner = _EI_RE.search(data, start, end)
    if inner is not None:
        return len(data), "an inline image in %s holds 'EI' inside its data (byte %d of " \
            "%d): pypdf and pdf.js end it there, PDFium and poppler %d bytes later" % (
                where, inner.start() - start, end - start, end - inner.start())
    j = end
    while j < len(data) and data[j] in _WS:
        j += 1
    if not _EI_RE.match(data, j):
        return len(data), "an inline image in %s is not followed by EI where its size " \
            "ends it (byte %d): readers end it at different places" % (where, end - start)
    if _filter(entries) == _UNDECODED:
        # PDFium and poppler decode it and may end it at a later EI: there must be none
        # before the next image (or the end of the stream)
        nxt = _BI_RE.search(data, j + 2)
        later = _EI_RE.search(data, j + 2, nxt.start() if nxt else len(data))
        if later is not None:
            return len(data), "an inline image in %s (CCITT fax data, not decoded here) " \
                "is followed by two EI before the next image: readers that decode it may " \
                "end it at the second" % where
    return j + 2, None


# What the scan of a content stream stops at: a string, a comment, a hex string or a
# dictionary's ``<<``, the operator ``BI`` (not a name ``/BI``, not inside a longer
# token), and a name followed by the operator ``Do`` (white space and comments between:
# the name is group 1); everything else is skipped at the regular expression's speed.
_STOP_RE = re.compile(rb"\(|%|<<?|(?<![^\x00\t\n\x0c\r ()<>\[\]{}])BI"
                      rb"(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"
                      rb"|/([^\x00\t\n\x0c\r ()<>\[\]{}/%]*)(?:[\x00\t\n\x0c\r ]|%[^\r\n]*[\r\n])*"
                      rb"Do(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")
_NAME_ESCAPE_RE = re.compile(rb"#([0-9A-Fa-f]{2})")
_PAREN_RE = re.compile(rb"[\\()]")
_BI_RE = re.compile(rb"(?<![^\x00\t\n\x0c\r ()<>\[\]{}])BI"
                    rb"(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")


def _string_end(data: bytes, i: int) -> int:
    """The end of the literal string starting at *i* (its ``(``), or -1 when the data
    ends inside it (parentheses balance, a backslash escapes the next byte)."""
    depth = 0
    while True:
        m = _PAREN_RE.search(data, i)
        if m is None:
            return -1
        i = m.end()
        if data[m.start()] == 0x5C:
            i += 1
            continue
        depth += 1 if data[m.start()] == 0x28 else -1
        if depth == 0:
            return i


def _image_entries(data: bytes, i: int) -> Tuple[Optional[Dict[str, Any]], int]:
    """The dictionary of the inline image whose ``BI`` ends at *i*, and the end of its
    ``ID`` (None, -1: the stream ends first, or the dictionary is absurdly long)."""
    items: List[Tuple[str, bytes]] = []
    for kind, tok, end in _tokens(data, i):
        if end < 0 or len(items) > 4096:
            break
        if kind == "regular" and tok == b"ID":
            return _image_dict(items), end
        items.append((kind, tok))
    return None, -1


def _scan(data: bytes, where: str, found: List[str], resources: Any = None,
          draws: Optional[Dict[str, int]] = None) -> Optional[str]:
    """Scan the content stream *data* (whose colour spaces are in *resources*); append the
    refusals of its inline images to *found*; count in *draws* how often it draws each
    XObject name (``/Name Do``, outside strings and comments); return what the stream
    ends inside of ("a comment", ...), or None."""
    i = 0
    while True:
        m = _STOP_RE.search(data, i)
        if m is None:
            return None
        at, i = m.start(), m.end()
        c = data[at]
        if c == 0x2F:  # /Name Do
            if draws is not None:
                name = "/" + _NAME_ESCAPE_RE.sub(lambda e: bytes([int(e.group(1), 16)]),
                                                 m.group(1)).decode("latin-1")
                draws[name] = draws.get(name, 0) + 1
        elif c == 0x28:  # (
            i = _string_end(data, at)
            if i < 0:
                return "a string"
        elif c == 0x25:  # %
            eol = _EOL_RE.search(data, at)
            if eol is None:
                return "a comment"
            i = eol.end()
        elif c == 0x3C:  # < or <<
            if m.group(0) == b"<":
                j = data.find(b">", at)
                if j < 0:
                    return "a hex string"
                i = j + 1
        else:  # BI
            entries, end = _image_entries(data, i)
            if entries is None or end >= len(data):
                return "an inline image"
            i, why = _inline_image(data, end + 1, entries, where, resources)
            if i < 0:
                return "an inline image"
            if why is not None:
                found.append(why)
                return None  # the rest of the stream does not read one way


def _regular(b: int) -> bool:
    return b not in _WS and b not in _DELIMS


def _split(first: bytes, second: bytes) -> bool:
    """Whether the last token of *first* and the first of *second* join into one when
    the streams are read as one (``Tj`` + ``0`` is ``Tj0``; ``>`` + ``>`` is ``>>``)."""
    if not first or not second:
        return False
    a, b = first[-1], second[0]
    return (_regular(a) and _regular(b)) or (a == b == 0x3E)


def _contents_refusals(streams: List[bytes], found: List[str], resources: Any = None,
                       draws: Optional[Dict[str, int]] = None) -> None:
    """Page 1's ``/Contents`` streams: each must end where a token ends (outside any
    comment, string or inline image); the inline images of each are checked (the names
    they draw counted in *draws*)."""
    where = "page 1's content"
    for k, data in enumerate(streams):
        inside = _scan(data, where, found, resources, draws)
        if k + 1 == len(streams):
            if inside == "an inline image":  # its data runs on past the content's end
                found.append("page 1's content ends inside an inline image: readers end "
                             "it each their own way")
            break
        joins = ("readers join the streams each their own way (poppler with nothing, "
                 "PDFium with a space, pypdf with a line end)")
        if inside is not None:
            found.append("page 1's content is an array of streams and stream %d of %d ends "
                         "inside %s: %s" % (k + 1, len(streams), inside, joins))
        elif _split(data, streams[k + 1]):
            last = data[-16:].split()[-1].decode("latin-1")
            first = streams[k + 1][:16].split()[0].decode("latin-1")
            found.append("page 1's content is an array of streams and stream %d of %d ends "
                         "inside a token (%s|%s): %s" % (k + 1, len(streams), last[-8:],
                                                          first[:8], joins))


# --- what page 1 draws -------------------------------------------------------------------


class _Budget:
    def __init__(self) -> None:
        self.streams = 0
        self.bytes = 0
        self.seen: Set[Tuple[int, int]] = set()
        #: The names each stream read draws (``/Name Do``), by its key.
        self.draws: Dict[Tuple[Any, Any], Dict[str, int]] = {}
        #: Streams drawn once each beside page 1's content (annotation appearances,
        #: pattern cells, Type 3 glyphs) and the resources their names are read in.
        self.roots: List[Tuple[Tuple[Any, Any], Any]] = []

    def data(self, stream: Any) -> bytes:
        self.streams += 1
        if self.streams > MAX_STREAMS:
            raise _Refused("page 1 draws more than %d content streams: not all were read"
                           % MAX_STREAMS)
        try:
            data: bytes = stream.get_data()
        except Exception as e:  # noqa: BLE001 -- a filter pypdf cannot decode, a bomb it refused
            raise _Refused("a content stream of page 1 cannot be decoded (%s): what it "
                           "draws is not known" % type(e).__name__) from None
        self.bytes += len(data)
        if self.bytes > MAX_BYTES:
            raise _Refused("page 1's content streams hold more than %d MiB: not all were "
                           "read" % (MAX_BYTES >> 20))
        return data

    def first_visit(self, ref: Any) -> bool:
        key = _key(ref)
        if key[0] is None:
            return True  # a direct object: cannot loop
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def _key(ref: Any) -> Tuple[Any, Any]:
    return (getattr(ref, "idnum", None), getattr(ref, "generation", None))


def _streams_of(resources: Any) -> Iterator[Tuple[str, Any, Any]]:
    """The content streams *resources* names: forms (/XObject /Subtype /Form), tiling
    patterns, Type 3 glyphs, as (what, stream reference, its own resources)."""
    res = dict_of(resources)
    for name, ref in dict_of(res.get("/XObject")).items():
        obj = dict_of(ref)
        if obj.get("/Subtype") == "/Form":
            yield "form %s" % name, ref, obj.get("/Resources")
    for name, ref in dict_of(res.get("/Pattern")).items():
        obj = dict_of(ref)
        if obj.get("/PatternType") == 1:
            yield "pattern %s" % name, ref, obj.get("/Resources")
    for name, ref in dict_of(res.get("/Font")).items():
        font = dict_of(ref)
        if font.get("/Subtype") == "/Type3":
            for glyph, proc in dict_of(font.get("/CharProcs")).items():
                yield "glyph %s of font %s" % (glyph, name), proc, font.get("/Resources")


def _resource_refusals(resources: Any, found: List[str]) -> None:
    """The graphics states and fonts of *resources* that readers draw two ways
    (:mod:`pith_tex.pdf.twoways`)."""
    from .twoways import font_two_ways, state_two_ways

    for key, check in (("/ExtGState", state_two_ways), ("/Font", font_two_ways)):
        for name, ref in list(dict_of(dict_of(resources).get(key)).items())[:MAX_STREAMS]:
            why = check(dict_of(ref))
            if why is not None:
                found.append("%s %s on page 1 %s" % (why[0], name[:40], why[1]))


def _drawn_refusals(resources: Any, budget: _Budget, found: List[str], depth: int = 0) -> None:
    """The inline images and content arrays of everything *resources* can draw, and
    their graphics states and fonts read two ways."""
    if depth > MAX_DEPTH:
        raise _Refused("page 1's forms are nested more than %d deep" % MAX_DEPTH)
    _resource_refusals(resources, found)
    for what, ref, own in _streams_of(resources):
        if not budget.first_visit(ref):
            continue
        names: Dict[str, int] = {}
        inside = _scan(budget.data(ref.get_object()), what, found,
                       own if own is not None else resources, names)
        budget.draws[_key(ref)] = names
        if not what.startswith("form"):
            budget.roots.append((_key(ref), own if own is not None else resources))
        if inside is not None:
            found.append("the %s on page 1 ends inside %s" % (what, inside))
        if own is not None:
            _drawn_refusals(own, budget, found, depth + 1)


def _annotation_refusals(page: Any, budget: _Budget, found: List[str]) -> None:
    """The normal appearances of page 1's annotations (a viewer draws them over it)."""
    annots = page.get("/Annots")
    try:
        annots = list(annots.get_object()) if annots is not None else []
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return  # not an array: the badge check's annotation reading says so
    for a in annots[:MAX_STREAMS]:
        n = dict_of(dict_of(a).get("/AP")).get("/N")
        if n is None:
            continue
        refs = [n] if hasattr(n.get_object(), "get_data") else list(dict_of(n).values())
        for ref in refs:
            obj = ref.get_object()
            if not hasattr(obj, "get_data") or not budget.first_visit(ref):
                continue
            names: Dict[str, int] = {}
            inside = _scan(budget.data(obj), "an annotation's appearance", found,
                           obj.get("/Resources"), names)
            budget.draws[_key(ref)] = names
            budget.roots.append((_key(ref), obj.get("/Resources")))
            if inside is not None:
                found.append("an annotation's appearance on page 1 ends inside %s" % inside)
            _drawn_refusals(obj.get("/Resources"), budget, found, 1)


def _page_refusals(page: Any, resources: Any, found: List[str]) -> None:
    budget = _Budget()
    contents = page.get("/Contents")
    if contents is None:
        streams = []
    else:
        obj = contents.get_object()
        refs = list(obj) if isinstance(obj, list) else [contents]
        streams = [budget.data(r.get_object()) for r in refs
                   if hasattr(r.get_object(), "get_data")]
    names: Dict[str, int] = {}
    _contents_refusals(streams, found, resources, names)
    _drawn_refusals(resources, budget, found)
    _annotation_refusals(page, budget, found)
    _count_draws(names, resources, budget)


def _count_draws(names: Dict[str, int], resources: Any, budget: _Budget) -> None:
    """Refuse page 1 when it draws forms more than :data:`MAX_DRAWS` times."""

    def names_of(ref: Any, res: Any) -> Dict[str, int]:
        found = budget.draws.get(_key(ref))
        if found is None:  # not reached through the resources: read it now
            found = {}
            _scan(budget.data(ref.get_object()), "a form", [], res, found)
            budget.draws[_key(ref)] = found
        return found

    try:
        draws = Draws(names_of, MAX_DRAWS)
        draws.add(draws.of(names, resources))
        for key, res in budget.roots:
            draws.add(1 + draws.of(budget.draws.get(key, {}), res))
    except TooManyDraws:
        raise _TooCostly("page 1 draws its forms more than %d times (forms that draw forms, "
                         "each many times): the engines' memory and time grow with every "
                         "draw" % MAX_DRAWS) from None


# --- the page tree -----------------------------------------------------------------------


def _first_page(root: Any, found: List[str]) -> Tuple[Any, Any]:
    """Page 1 (the first leaf, as poppler and PDFium find it) and its resources (its own
    or inherited), refusing on the way a node whose /Count would make pdf.js pass by it
    (fewer than one page) or that is both a page and a page-tree node."""
    node, resources, seen = root, None, set()
    for _ in range(MAX_DEPTH * 4):
        key = getattr(node, "idnum", None)
        if key is not None:
            if key in seen:
                found.append("the page tree loops on the way to page 1")
                return None, None
            seen.add(key)
        d = dict_of(node)
        resources = d.get("/Resources", resources)
        kids = d.get("/Kids")
        if kids is None:
            return d, resources
        if d.get("/Type") == "/Page":
            found.append("page 1's page object has /Kids: pdf.js takes it for the page, "
                         "poppler and PDFium look for page 1 among its kids")
            return None, None
        try:
            kids = list(kids.get_object())
        except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
            found.append("a page-tree node's /Kids is not an array")
            return None, None
        if not kids:
            found.append("a page-tree node on the way to page 1 has no kids")
            return None, None
        node = kids[0]
        kid = dict_of(node)
        if kid.get("/Kids") is not None:
            count = kid.get("/Count")
            if not isinstance(count, int) or count < 1:
                found.append("the page-tree node holding page 1 claims /Count %s: pdf.js "
                             "passes by it and opens another page 1" % (count,))
    found.append("the page tree is nested more than %d deep" % (MAX_DEPTH * 4))
    return None, None


def _tree_refusals(pages: Any, found: List[str]) -> None:
    """Every page-tree node's /Count against the pages under its kids (up to
    :data:`MAX_TREE_NODES` nodes; a larger tree was checked on the way to page 1 only)."""
    visited: Set[int] = set()
    budget = [MAX_TREE_NODES]

    def leaves(ref: Any, depth: int) -> Optional[int]:
        budget[0] -= 1
        if budget[0] < 0 or depth > MAX_DEPTH * 4:
            return None
        key = getattr(ref, "idnum", None)
        if key is not None:
            if key in visited:
                found.append("the page tree reaches object %d twice (a loop or a shared "
                             "kid): readers count its pages differently" % key)
                return None
            visited.add(key)
        d = dict_of(ref)
        kinds = d.get("/Type")
        kids = d.get("/Kids")
        if kids is None:
            if kinds == "/Pages":
                found.append("a page-tree node (object %s) says /Type /Pages but has no "
                             "/Kids: readers take it for a page or skip it" % key)
            return 1
        if kinds == "/Page":
            found.append("a page (object %s) has /Kids: readers take it for a page or a "
                         "page-tree node" % key)
        total = 0
        try:
            kids = list(kids.get_object())
        except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
            found.append("a page-tree node's /Kids (object %s) is not an array" % key)
            return None
        for kid in kids:
            n = leaves(kid, depth + 1)
            if n is None:
                return None
            total += n
        count = d.get("/Count")
        if not isinstance(count, int) or count != total:
            found.append("a page-tree node (object %s) claims /Count %s but its kids hold "
                         "%d page%s: pdf.js goes by the count, poppler and PDFium by the "
                         "kids" % (key, count, total, "" if total == 1 else "s"))
        return total

    leaves(pages, 0)


# --- the gate ----------------------------------------------------------------------------


def refusals(data: bytes, reader: Any = None, costly: Optional[List[str]] = None) -> List[str]:
    """Why the PDF *data* reads two ways (one line each; empty: the gate passes).

    *reader* is a pypdf reader of *data* already open (else one is opened, quietly); a
    file pypdf cannot read at all is the caller's to report, so it gives no refusal
    here.  The refusals that say page 1 is too costly to render (:data:`MAX_DRAWS`) are
    also appended to *costly*: no engine should be asked to show it."""
    found: List[str] = []
    log = logging.getLogger("pypdf")
    quiet = reader is None and not log.disabled
    if quiet:
        log.disabled = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if reader is None:
                try:
                    reader = pypdf.PdfReader(io.BytesIO(data))
                    pages = reader.trailer["/Root"].get_object().raw_get("/Pages")
                except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
                    return []
            else:
                pages = reader.trailer["/Root"].get_object().raw_get("/Pages")
            try:
                _tree_refusals(pages, found)
                page, resources = _first_page(pages, found)
                if page is not None:
                    _page_refusals(page, resources, found)
            except _Refused as e:
                found.append(str(e))
                if costly is not None and isinstance(e, _TooCostly):
                    costly.append(str(e))
            except RecursionError:
                found.append("page 1's objects are nested too deeply to be read")
            except Exception as e:  # noqa: BLE001 -- pypdf on objects that are not what they claim
                found.append("page 1 or the page tree could not be read (%s): what readers "
                             "show there cannot be told" % type(e).__name__)
    finally:
        if quiet:
            log.disabled = False
    return list(dict.fromkeys(found))
