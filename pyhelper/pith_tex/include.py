"""The include file ``pith-number.tex``: render, write atomically, parse back.

The format is the contract with ``pith.sty`` (README, "The include format"), version 1::

    % pith-number.tex: written by `pith-tex fetch` after verifying the record.
    % Do not edit: run `pith-tex fetch` again instead.
    \\pithrecord{1}{
      number = O6TNNA4XHFGPSALGBT7UWDA2Z3,
      year = 2025,
      sha256 = 77a6d68397394cf901660cff4b0c1acee4353488d83c25f073b40c97fa194f23,
      arxiv-id = 2509.03047,
      arxiv-version = 1,
      signature = absent,
    }

With ``signature = verified`` a ``key-id = KEY,`` line follows the signature line.  Lines
end with ``\\n``; the file ends with ``}\\n``.  The bytes depend only on the values, so the
same record always gives the same file.  Every value is validated against its pattern
(:mod:`pith_tex.canonical`) as it is rendered; anything else is refused with
:class:`IncludeRefused`.
"""

from __future__ import annotations

import os
import re
from typing import Callable, NamedTuple, Optional

from .atomic import Writer, write_atomic

from .canonical import (ARXIV_ID_RE, ARXIV_VERSION_RE, KEY_ID_RE, NUMBER_RE, SHA256_RE,
                        YEAR_RE)
from .errors import CouldNotCheck, PithError, show

FORMAT_VERSION = 1
HEADER = (
    "% pith-number.tex: written by `pith-tex fetch` after verifying the record.\n"
    "% Do not edit: run `pith-tex fetch` again instead.\n"
)
SIGNATURE_STATES = ("verified", "absent")


class IncludeRefused(CouldNotCheck):
    """A value does not match its include pattern: nothing is written (exit 3)."""


class IncludeWriteError(PithError):
    """Writing the include failed; the previous file is untouched (exit 3)."""


class IncludeData(NamedTuple):
    number: str
    year: int
    sha256: str
    arxiv_id: str
    arxiv_version: int
    signature: str  # "verified" | "absent"
    key_id: Optional[str] = None


def _refused(name: str, value: object, pattern: "re.Pattern[str]") -> IncludeRefused:
    return IncludeRefused("refusing to write %s = %s: it does not match %s"
                          % (name, show(value), pattern.pattern.replace("\\Z", "")))


def _check(name: str, value: object, pattern: "re.Pattern[str]") -> str:
    if type(value) is not str or not pattern.match(value):
        raise _refused(name, value, pattern)
    return value


def render(data: IncludeData) -> bytes:
    """The include for *data*, as bytes; raises :class:`IncludeRefused` for a bad value."""
    if type(data.year) is not int or type(data.arxiv_version) is not int:
        raise IncludeRefused("refusing to write the include: year and arxiv-version must be "
                             "integers, got %s and %s" % (show(data.year), show(data.arxiv_version)))
    lines = [
        "  number = %s,\n" % _check("number", data.number, NUMBER_RE),
        "  year = %s,\n" % _check("year", str(data.year), YEAR_RE),
        "  sha256 = %s,\n" % _check("sha256", data.sha256, SHA256_RE),
        "  arxiv-id = %s,\n" % _check("arxiv-id", data.arxiv_id, ARXIV_ID_RE),
        "  arxiv-version = %s,\n" % _check("arxiv-version", str(data.arxiv_version),
                                           ARXIV_VERSION_RE),
    ]
    if data.signature not in SIGNATURE_STATES:
        raise IncludeRefused("refusing to write signature = %s: it must be %s"
                             % (show(data.signature), " or ".join(SIGNATURE_STATES)))
    if data.signature == "verified":
        lines.append("  signature = verified,\n")
        lines.append("  key-id = %s,\n" % _check("key-id", data.key_id, KEY_ID_RE))
    else:  # absent
        if data.key_id is not None:
            raise IncludeRefused("refusing to write the include: key-id without a verified "
                                 "signature")
        lines.append("  signature = absent,\n")
    text = HEADER + "\\pithrecord{%d}{\n" % FORMAT_VERSION + "".join(lines) + "}\n"
    return text.encode("ascii")  # cannot fail: every value above is ASCII by its pattern


def _integer(name: str, text: str, pattern: "re.Pattern[str]") -> int:
    """The integer an include spells as *text*; :func:`render` checks it against
    *pattern* (and the byte comparison its spelling)."""
    if text.isascii() and text.isdigit():
        try:
            return int(text)
        except ValueError:  # more digits than int() converts
            pass
    raise _refused(name, text, pattern)


_KEY_LINE_RE = re.compile(r"  ([a-z0-9-]+) = ([^,\n]*),\Z")
_HEAD_RE = re.compile(r"\\pithrecord\{([^}]*)\}\{\Z")


def parse_include(text: str) -> IncludeData:
    """Parse an include written by :func:`render`; raise :class:`CouldNotCheck` otherwise.

    The file must be exactly what ``pith-tex fetch`` writes (it is re-rendered and compared
    byte for byte): a hand-edited include is not trusted.  :func:`render` checks every
    value against its pattern.
    """
    lines = text.split("\n")
    head = None
    for i, line in enumerate(lines):
        if line.startswith("\\pithrecord"):
            head = i
            break
    if head is None:
        raise CouldNotCheck("no \\pithrecord{...}{...} in the file: not a pith-tex include")
    m = _HEAD_RE.match(lines[head])
    if not m:
        raise CouldNotCheck("line %d: expected \\pithrecord{1}{" % (head + 1))
    if m.group(1) != str(FORMAT_VERSION):
        raise CouldNotCheck("include format %s is unknown to this pith-tex (it knows 1): "
                            "update pith-tex or re-run pith-tex fetch" % show(m.group(1)))
    values = {}
    for j in range(head + 1, len(lines)):
        line = lines[j]
        if line == "}":
            break
        if line == "" and j == len(lines) - 1:
            raise CouldNotCheck("the \\pithrecord{1}{ is never closed by a '}' line")
        km = _KEY_LINE_RE.match(line)
        if not km:
            raise CouldNotCheck("line %d: expected '  key = value,' or '}'" % (j + 1))
        if km.group(1) in values:
            raise CouldNotCheck("line %d: key %s given twice" % (j + 1, km.group(1)))
        values[km.group(1)] = km.group(2)
    else:
        raise CouldNotCheck("the \\pithrecord{1}{ is never closed by a '}' line")
    need = ["number", "year", "sha256", "arxiv-id", "arxiv-version", "signature"]
    missing = [k for k in need if k not in values]
    if missing:
        raise CouldNotCheck("the include has no %s key" % missing[0])
    try:
        data = IncludeData(
            number=values["number"],
            year=_integer("year", values["year"], YEAR_RE),
            sha256=values["sha256"],
            arxiv_id=values["arxiv-id"],
            arxiv_version=_integer("arxiv-version", values["arxiv-version"], ARXIV_VERSION_RE),
            signature=values["signature"],
            key_id=values.get("key-id"),
        )
        rendered = render(data)
    except IncludeRefused as e:
        raise CouldNotCheck(e.message.replace("refusing to write", "bad value"))
    if rendered != text.encode("ascii", "replace"):
        raise CouldNotCheck("the file is not byte-for-byte what pith-tex writes (edited by hand?): "
                            "re-run pith-tex fetch")
    return data


def write_include(path: str, data: IncludeData, *, write: Writer = os.write,
                  fsync: Callable[[int], None] = os.fsync) -> bool:
    """Render and atomically write the include.  Returns False when *path* already holds
    exactly these bytes (nothing is written, so the file's mtime does not change).

    Raises :class:`IncludeRefused` (bad value) or :class:`IncludeWriteError`; in both
    cases *path* is unchanged.
    """
    content = render(data)
    try:
        with open(path, "rb") as f:
            if f.read(len(content) + 1) == content:
                return False
    except OSError:
        pass
    try:
        write_atomic(path, content, write=write, fsync=fsync)
    except OSError as e:
        raise IncludeWriteError("could not write %s: %s; the previous file is unchanged"
                                % (path, e.strerror or e))
    return True
