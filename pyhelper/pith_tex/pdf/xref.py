"""Which object each number names in a PDF updated incrementally, as the PDF says.

A PDF changed by incremental updates has several cross-reference sections, linked by
``/Prev``: for each object number, the newest section's entry is the object (PDF 32000-1,
7.5.6), and a *free* entry there deletes it, whatever older sections said.  pypdf keys
its table by generation and keeps free entries apart, so an older section's entry
survives the newer one: an object freed by an update (or given a new generation) is still
read from its old definition, where poppler, pdf.js and Acrobat read nothing, or rebuild
the table and take the file's last definition.  A page whose content an update freed
would be verified as showing a badge no viewer shows.

:func:`stale_objects` reads the sections from the raw bytes (classic tables, their
``/XRefStm`` streams, cross-reference streams) and names an object pypdf read that is not
the one the newest section gives for its number.  A file with one section (what TeX
writes) costs one dictionary read: there is nothing older to survive.

Bounded: at most :data:`MAX_SECTIONS` sections, entries as many as the file has room for.
This is a bottom module: it imports nothing from pith_tex (pypdf inside the functions).
"""

from __future__ import annotations

import io
import re
from typing import Any, Dict, Optional, Tuple

from pypdf.generic import DictionaryObject, read_object

#: Cross-reference sections followed along /Prev.
MAX_SECTIONS = 256

_WS = rb"[ \t\r\n\f\x00]"
_SUBSECTION_RE = re.compile(rb"%s*([0-9]{1,10})%s+([0-9]{1,10})" % (_WS, _WS))
_ENTRY_RE = re.compile(rb"%s*([0-9]{1,10})%s+([0-9]{1,5})%s+([nf])" % (_WS, _WS, _WS))
_TRAILER_RE = re.compile(rb"%s*trailer" % _WS)
_HEADER_RE = re.compile(rb"%s*([0-9]+)%s+([0-9]+)%s+obj" % (_WS, _WS, _WS))  # num, gen

#: An entry: ("f",) free; ("n", generation, offset) in use; ("o", stream, index) in an
#: object stream.
Entry = Tuple[Any, ...]


class Unfollowable(Exception):
    """The cross-reference sections could not be read (said in one line)."""


def _int(value: Any) -> Optional[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return None


def _read_at(data: bytes, pos: int, reader: Any) -> Any:
    """The object whose bytes start at *pos*, after white space and comments (pypdf's
    parser)."""
    s = io.BytesIO(data)
    s.seek(pos)
    while True:
        c = s.read(1)
        if c == b"%":
            s.readline()
        elif not c or c not in b" \t\r\n\f\x00":
            break
    s.seek(-1 if c else 0, 1)
    return read_object(s, reader)


def _table(data: bytes, pos: int, into: Dict[int, Entry]) -> int:
    """Read the classic table at *pos* (just after ``xref``) into *into* (only numbers
    not set yet: within a section the first entry counts, as every reader takes it);
    returns the position of its ``trailer``."""
    while True:
        t = _TRAILER_RE.match(data, pos)
        if t is not None:
            return t.end()
        m = _SUBSECTION_RE.match(data, pos)
        if m is None:
            raise Unfollowable("a cross-reference table could not be read")
        start, count = int(m.group(1)), int(m.group(2))
        pos = m.end()
        if count > (len(data) - pos) // 18 + 1:
            raise Unfollowable("a cross-reference table is longer than the file")
        for num in range(start, start + count):
            e = _ENTRY_RE.match(data, pos)
            if e is None:
                raise Unfollowable("a cross-reference table could not be read")
            pos = e.end()
            if num not in into:
                into[num] = (("n", int(e.group(2)), int(e.group(1)))
                             if e.group(3) == b"n" else ("f",))


def _stream(data: bytes, pos: int, reader: Any) -> Tuple[Any, Dict[int, Entry]]:
    """The dictionary and the entries of the cross-reference stream whose object starts
    at *pos*."""
    head = _HEADER_RE.match(data, pos)
    if head is None:
        raise Unfollowable("no cross-reference data at offset %d" % pos)
    obj = _read_at(data, head.end(), reader)
    if not hasattr(obj, "get_data"):
        raise Unfollowable("the object at offset %d is not a cross-reference stream" % pos)
    widths = [_int(w) for w in obj.get("/W", [])]
    size = _int(obj.get("/Size"))
    if len(widths) < 3 or any(w is None or not 0 <= w <= 8 for w in widths) or size is None:
        raise Unfollowable("a cross-reference stream has no readable /W or /Size")
    cols = [w for w in widths if w is not None]  # every one, checked just above
    w0, w1, w2 = cols[0], cols[1], cols[2]
    index = [_int(v) for v in obj.get("/Index", [0, size])]
    body = obj.get_data()
    step = w0 + w1 + w2 + sum(cols[3:])
    out: Dict[int, Entry] = {}
    at = 0
    for k in range(0, len(index) - 1, 2):
        start, count = index[k], index[k + 1]
        if start is None or count is None or count < 0:
            raise Unfollowable("a cross-reference stream has an unreadable /Index")
        for num in range(start, start + min(count, max(0, (len(body) - at) // max(step, 1)))):
            row = body[at:at + step]
            at += step
            kind = int.from_bytes(row[:w0], "big") if w0 else 1
            f1 = int.from_bytes(row[w0:w0 + w1], "big")
            f2 = int.from_bytes(row[w0 + w1:w0 + w1 + w2], "big")
            if num in out:
                continue
            if kind == 0:
                out[num] = ("f",)
            elif kind == 1:
                out[num] = ("n", f2, f1)
            elif kind == 2:
                out[num] = ("o", f1, f2)
    return obj, out


def _section(data: bytes, reader: Any, pos: int, entries: bool
             ) -> Tuple[Any, Dict[int, Entry]]:
    """The trailer dictionary of the cross-reference section at *pos* and, when
    *entries*, its entries (a hybrid file's /XRefStm stream standing for the table's
    free entries, as pypdf and poppler read it)."""
    if not 0 <= pos < len(data):
        raise Unfollowable("a cross-reference offset lies outside the file")
    at = pos + len(data[pos:pos + 64]) - len(data[pos:pos + 64].lstrip())
    if not data.startswith(b"xref", at):
        if not entries:
            head = _HEADER_RE.match(data, at)
            if head is None:
                raise Unfollowable("no cross-reference data at offset %d" % pos)
            return _read_at(data, head.end(), reader), {}
        return _stream(data, at, reader)
    section: Dict[int, Entry] = {}
    if entries:
        after = _table(data, at + 4, section)
    else:
        after = data.find(b"trailer", at)
        if after < 0:
            raise Unfollowable("a cross-reference table has no trailer")
        after += 7
    trailer = _read_at(data, after, reader)
    if not isinstance(trailer, DictionaryObject):
        raise Unfollowable("a trailer is not a dictionary")
    hybrid = _int(trailer.get("/XRefStm"))
    if entries and hybrid is not None and 0 <= hybrid < len(data):
        _, extra = _stream(data, hybrid, reader)
        for num, e in extra.items():
            if section.get(num, ("f",))[0] == "f":
                section[num] = e
    return trailer, section


def _newest_trailer(data: bytes, reader: Any, pos: int) -> Any:
    """The trailer dictionary of the section at *pos*: a cross-reference stream pypdf
    has read is taken from its cache (what TeX writes: nothing parsed twice)."""
    head = _HEADER_RE.match(data, pos)
    if head is not None:
        cached = getattr(reader, "resolved_objects", {}).get(
            (int(head.group(2)), int(head.group(1))))
        if cached is not None and hasattr(cached, "get"):
            return cached
    return _section(data, reader, pos, False)[0]


def _newest_entries(data: bytes, reader: Any, first: int) -> Dict[int, Entry]:
    """Each number's entry in the newest section that has one, from the section at
    *first* back along /Prev."""
    newest: Dict[int, Entry] = {}
    seen = set()
    pos: Optional[int] = first
    while pos is not None:
        if pos in seen:
            break  # a /Prev loop: pypdf stops there too
        seen.add(pos)
        if len(seen) > MAX_SECTIONS:
            raise Unfollowable("more than %d cross-reference sections" % MAX_SECTIONS)
        trailer, section = _section(data, reader, pos, True)
        for num, e in section.items():
            newest.setdefault(num, e)
        prev = _int(trailer.get("/Prev"))
        pos = prev if prev else None  # /Prev 0: pypdf takes it for no previous section
    return newest


def _pypdf_entry(reader: Any, gen: int, num: int) -> Entry:
    """What pypdf reads for ``num gen R`` (its ``get_object``'s order)."""
    if gen == 0 and num in reader.xref_objStm:
        stm, idx = reader.xref_objStm[num]
        return ("o", stm, idx)
    if num in reader.xref.get(gen, {}):
        if reader.xref_free_entry.get(gen, {}).get(num, False):
            return ("f",)
        return ("n", gen, reader.xref[gen][num])
    return ("f",)


def stale_objects(data: bytes, reader: Any) -> Optional[str]:
    """Why an object pypdf has read is not the one the newest cross-reference section
    gives for its number (freed by an update, another generation, another place), or
    None.  Call it after every object that matters was read.  Raises
    :class:`Unfollowable` when the sections cannot be read."""
    at = data.rfind(b"startxref", 0, max(data.rfind(b"%%EOF"), 0))
    m = re.match(rb"startxref%s*([0-9]{1,12})" % _WS, data[at:at + 64]) if at >= 0 else None
    if m is None:
        raise Unfollowable("no startxref")
    first = int(m.group(1))
    if not _int(_newest_trailer(data, reader, first).get("/Prev")):
        return None  # one section (and its /XRefStm): nothing older to survive
    newest = _newest_entries(data, reader, first)
    for gen, num in sorted(getattr(reader, "resolved_objects", {})):
        want = newest.get(num)
        if want is None:
            continue  # in no section: pypdf had to search the file (a repair, said so)
        if want[0] == "n" and want[1] != gen:
            want = ("f",)  # a reference to an older generation names no object
        if want[0] == "o" and gen != 0:
            want = ("f",)
        got = _pypdf_entry(reader, gen, num)
        if got != want:
            why = {"f": "deleted (a free entry) or renumbered by a later update",
                   "n": "defined elsewhere by a later update",
                   "o": "moved into an object stream by a later update"}[want[0]]
            return ("object %d %d, read from an older revision, is %s: readers that follow "
                    "the newest cross-reference section read another object" % (num, gen, why))
    return None
