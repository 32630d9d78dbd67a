"""Every value a PDF gives its metadata, not only the one pypdf keeps.

pypdf reads one Info dictionary (the newest trailer's) and, for a key written twice in it,
one value; poppler, qpdf and viewers may show another.  :func:`info_values` reads the raw
bytes instead: every trailer (classic ``trailer << >>`` and cross-reference stream
dictionaries), every ``/Info`` entry in each, and every definition of each Info object in
the file (an incremental update may redefine it), keeping every key/value pair in order.
Values are read by pypdf's own object parser (:func:`pypdf.generic.read_object`); only the
walk over a dictionary's pairs is done here, so that a duplicate key is seen.

:func:`xmp_values` parses the XMP packet as XML with namespaces (expat: UTF-8 and UTF-16
are the parser's business, ``&#47;`` in a namespace is resolved as XML resolves it), with
a size bound and no DTD (a ``<!DOCTYPE`` is refused: no entity can expand), and returns
every ``pith:`` property in element and attribute form and every ``dc:identifier``.

Everything is bounded: the number of trailers, of definitions, of pairs per dictionary.
"""

from __future__ import annotations

import bisect
import io
import re
import xml.parsers.expat
from typing import Any, Dict, List, Optional, Tuple

from pypdf.generic import NameObject, read_object

#: pith.sty's XMP namespace and its properties, by the Info key each mirrors.
XMP_NS = "https://pith.science/ns/pith/1.0/"
XMP_KEYS = {"number": "PithNumber", "url": "PithURL", "verification": "PithVerification",
            "sha256": "PithSHA256", "record": "PithRecord", "keyid": "PithKeyID",
            "signature": "PithSignature"}
DC_NS = "http://purl.org/dc/elements/1.1/"
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#: An XMP packet larger than this is not read (pith.sty's is a few KiB with the record).
MAX_XMP_BYTES = 4 * 1024 * 1024

MAX_TRAILERS = 256  # trailers and cross-reference streams looked at
MAX_DEFINITIONS = 256  # definitions of one Info object
MAX_PAIRS = 4096  # pairs in one dictionary
_WS = b" \t\r\n\f\x00"



def _name_re(word: bytes) -> bytes:
    """A pattern for the PDF name ``/word`` however it is spelled: any character may be
    written as a ``#xx`` escape, and every reader decodes it to the same name."""
    return b"/" + b"".join(b"(?:%s|#(?i:%02x))" % (re.escape(bytes([c])), c) for c in word)


# White space and comments: a PDF lexer reads a comment as white space.
_GAP = rb"(?:[ \t\r\n\f\x00]|%[^\r\n]*)*"
_TRAILER_RE = re.compile(rb"trailer" + _GAP + rb"<<")
_XREF_STREAM_RE = re.compile(_name_re(b"Type") + _GAP + _name_re(b"XRef")
                             + rb"(?![A-Za-z0-9#])")
_HEADER_RE = re.compile(rb"(?<![0-9])[0-9]+[ \t\r\n\f\x00]+[0-9]+[ \t\r\n\f\x00]+obj"
                        rb"(?![A-Za-z0-9])")
_STARTXREF_RE = re.compile(rb"startxref" + _GAP + rb"([0-9]{1,12})")
_OBJ_RE = re.compile(rb"(?<![0-9])[0-9]+[ \t\r\n\f\x00]+[0-9]+[ \t\r\n\f\x00]+obj"
                     rb"[ \t\r\n\f\x00]*<<")


class Unreadable(Exception):
    """The metadata could not be read (said in one line)."""


def _skip(stream: io.BytesIO) -> bytes:
    """Skip white space and comments; return the next byte without consuming it."""
    while True:
        c = stream.read(1)
        if not c:
            return b""
        if c in _WS:
            continue
        if c == b"%":
            stream.readline()
            continue
        stream.seek(-1, 1)
        return c


def dict_pairs(stream: io.BytesIO, reader: Any, depth: int = 0) -> List[Tuple[str, Any]]:
    """The ``(key, value)`` pairs of the dictionary at the stream's position (``<<``), in
    order and with duplicates.  A value that is itself a dictionary is a list of pairs."""
    if stream.read(2) != b"<<":
        raise Unreadable("not a dictionary")
    pairs: List[Tuple[str, Any]] = []
    while len(pairs) < MAX_PAIRS:
        c = _skip(stream)
        if c == b">":
            stream.read(2)
            return pairs
        if c != b"/":
            raise Unreadable("a dictionary key is not a name")
        key = NameObject.read_from_stream(stream, reader)
        c = _skip(stream)
        if c == b"<" and stream.read(2) == b"<<" and depth < 4:
            stream.seek(-2, 1)
            pairs.append((str(key), dict_pairs(stream, reader, depth + 1)))
            continue
        if c == b"<":
            stream.seek(-2, 1)
        pairs.append((str(key), read_object(stream, reader)))
    raise Unreadable("a dictionary with more than %d entries" % MAX_PAIRS)


def _pairs_at(data: bytes, pos: int, reader: Any) -> Optional[List[Tuple[str, Any]]]:
    stream = io.BytesIO(data)
    stream.seek(pos)
    try:
        return dict_pairs(stream, reader)
    except Unreadable:
        return None
    except Exception:  # noqa: BLE001 -- pypdf's parser on bytes that are not what they seemed
        return None


def _dict_after(data: bytes, pos: int) -> int:
    """The position of the ``<<`` that follows *pos* after white space and comments, or -1."""
    stream = io.BytesIO(data)
    stream.seek(pos)
    if _skip(stream) != b"<":
        return -1
    return stream.tell()


def _trailers(data: bytes, reader: Any) -> List[List[Tuple[str, Any]]]:
    """The pairs of every trailer dictionary in *data* (classic and xref streams): those
    found by their keywords anywhere in the file (however their names and white space are
    spelled: a reconstructing reader finds them too), and those the ``startxref`` and
    ``/Prev`` offsets point at (where every reader looks first)."""
    found: List[List[Tuple[str, Any]]] = []
    seen = set()

    def add(lt: int) -> Optional[List[Tuple[str, Any]]]:
        if lt < 0 or lt in seen:
            return None
        seen.add(lt)
        pairs = _pairs_at(data, lt, reader)
        if pairs is not None:
            found.append(pairs)
        if len(found) >= MAX_TRAILERS or len(seen) > 4 * MAX_TRAILERS:
            raise Unreadable("more than %d trailers" % MAX_TRAILERS)
        return pairs

    for m in _TRAILER_RE.finditer(data):
        add(m.end() - 2)
    headers: List[int] = []
    for m in _XREF_STREAM_RE.finditer(data):
        if not headers:
            headers = [h.end() for h in _HEADER_RE.finditer(data)]
        at = bisect.bisect_right(headers, m.start()) - 1
        if at >= 0:
            add(_dict_after(data, headers[at]))
    offsets = [int(m.group(1)) for m in _STARTXREF_RE.finditer(data)]
    while offsets:
        pos = offsets.pop()
        if not 0 <= pos < len(data):
            continue
        head = _HEADER_RE.match(data, pos + len(data[pos:pos + 64]) - len(
            data[pos:pos + 64].lstrip()))
        if head is not None:  # a cross-reference stream
            lt = _dict_after(data, head.end())
        else:  # a cross-reference table: its trailer follows it
            t = data.find(b"trailer", pos)
            lt = _dict_after(data, t + 7) if t >= 0 else -1
        pairs = add(lt)
        for key, value in pairs or []:
            if key in ("/Prev", "/XRefStm") and isinstance(value, int) and not isinstance(
                    value, bool):
                offsets.append(int(value))
    return found


def text_value(value: Any) -> Optional[str]:
    """A PDF string value as a plain str, or None for any other object."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):  # a string pypdf could not decode as text
        try:
            return value.decode("ascii")
        except UnicodeDecodeError:
            return None
    return None


def _definitions(data: bytes, reader: Any, ref: Any) -> List[List[Tuple[str, Any]]]:
    """The pairs of every definition of the indirect object *ref* in *data*, or of its
    entry in an object stream."""
    pattern = re.compile(rb"(?<![0-9])%d[ \t\r\n\f\x00]+%d[ \t\r\n\f\x00]+obj"
                         rb"[ \t\r\n\f\x00]*<<" % (ref.idnum, ref.generation))
    found = []
    for m in pattern.finditer(data):
        pairs = _pairs_at(data, m.end() - 2, reader)
        if pairs is not None:
            found.append(pairs)
        if len(found) >= MAX_DEFINITIONS:
            raise Unreadable("the Info object is defined more than %d times"
                             % MAX_DEFINITIONS)
    if not found:  # in an object stream: read its bytes as pypdf decoded them
        found.extend(_in_object_stream(reader, ref))
    return found


def _in_object_stream(reader: Any, ref: Any) -> List[List[Tuple[str, Any]]]:
    where = getattr(reader, "xref_objStm", {}).get(ref.idnum)
    if where is None:
        return []
    try:
        stm = reader.get_object(where[0])
        body = stm.get_data()
        first = int(stm["/First"])
        n = int(stm["/N"])
        head = body[:first].split()
        for i in range(0, min(2 * n, len(head)) - 1, 2):
            if int(head[i]) == ref.idnum:
                pairs = _pairs_at(body, first + int(head[i + 1]), reader)
                return [pairs] if pairs is not None else []
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return []
    return []


def info_values(data: bytes, reader: Any, keys: Tuple[str, ...]) -> Dict[str, List[str]]:
    """Every text value of each of *keys* (names without the slash) in every Info
    dictionary of the file, in file order, duplicates kept (the same value once per
    dictionary).  Two ``/Info`` entries in one trailer count as two dictionaries."""
    refs: List[Any] = []
    dicts: List[List[Tuple[str, Any]]] = []
    for trailer in _trailers(data, reader):
        for key, value in trailer:
            if key != "/Info":
                continue
            if isinstance(value, list):  # a direct dictionary
                dicts.append(value)
            elif hasattr(value, "idnum") and (value.idnum, value.generation) not in [
                    (r.idnum, r.generation) for r in refs]:
                refs.append(value)
    for ref in refs:
        dicts.extend(_definitions(data, reader, ref))
    wanted = {"/" + k: k for k in keys}
    out: Dict[str, List[str]] = {}
    for pairs in dicts:
        for key, value in pairs:
            name = wanted.get(key)
            if name is None:
                continue
            if hasattr(value, "idnum"):  # an indirect string: resolve it
                try:
                    value = value.get_object()
                except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
                    value = None
            text = text_value(value)
            values = out.setdefault(name, [])
            values.append(text if text is not None else "<not a text string>")
    return out


def _prop_name(uri: str, local: str) -> Optional[str]:
    """The name a property of the namespace *uri* is gathered under (None: not ours)."""
    if uri == XMP_NS:
        return XMP_KEYS.get(local, "pith:" + local)
    if uri == DC_NS and local == "identifier":
        return "dc:identifier"
    return None


class _XmpValues:
    """expat's handlers that gather the values of :func:`xmp_values` into :attr:`out`."""

    def __init__(self) -> None:
        self.out: Dict[str, List[str]] = {}
        # One frame per open element: (property name it contributes to or None, text
        # parts, [whether a child element appeared, whether an rdf:resource/rdf:value
        # gave a value]).
        self.stack: List[Tuple[Optional[str], List[str], List[bool]]] = []

    def add(self, name: str, value: str) -> None:
        values = self.out.setdefault(name, [])
        if len(values) < 64:
            values.append(value.strip())

    def start(self, tag: str, attrs: Dict[str, str]) -> None:
        uri, _, local = tag.rpartition(" ")
        if self.stack:
            self.stack[-1][2][0] = True
        for a, v in attrs.items():  # attribute form: <rdf:Description pith:number="...">
            auri, _, alocal = a.rpartition(" ")
            name = _prop_name(auri, alocal)
            if name is not None:
                self.add(name, v)
        here = _prop_name(uri, local)
        inherited = self.stack[-1][0] if self.stack else None
        owner = here or inherited
        given = False
        if owner is not None:
            for key in (RDF_NS + " resource", RDF_NS + " value"):
                if key in attrs:
                    self.add(owner, attrs[key])
                    given = True
        self.stack.append((owner, [], [False, given]))

    def end(self, tag: str) -> None:
        owner, parts, flags = self.stack.pop()
        if owner is not None and not flags[0]:  # a leaf: its text is a value
            text = "".join(parts)
            if text.strip() or not flags[1]:
                self.add(owner, text)

    def chars(self, text: str) -> None:
        if self.stack:
            self.stack[-1][1].append(text)


def _refuse_dtd(*args: Any) -> None:
    raise Unreadable("the XMP packet has a DTD (<!DOCTYPE>): refused, no entity is expanded")


def xmp_values(data: bytes) -> Dict[str, List[str]]:
    """Every ``pith:`` property (by the Info key it mirrors, or ``pith:NAME`` for one
    pith.sty never writes) and every ``dc:identifier`` in the XMP packet *data*.
    Raises :class:`Unreadable` for a packet that is too large, not well-formed, or has
    a DTD."""
    if len(data) > MAX_XMP_BYTES:
        raise Unreadable("the XMP packet is larger than %d MiB" % (MAX_XMP_BYTES >> 20))
    values = _XmpValues()
    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    p.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.StartDoctypeDeclHandler = _refuse_dtd
    p.EntityDeclHandler = _refuse_dtd
    p.StartElementHandler = values.start
    p.EndElementHandler = values.end
    p.CharacterDataHandler = values.chars
    try:
        p.Parse(data, True)
    except xml.parsers.expat.ExpatError as e:
        raise Unreadable("the XMP packet is not well-formed XML (%s)"
                         % xml.parsers.expat.ErrorString(e.code)) from e
    return values.out
