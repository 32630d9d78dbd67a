"""The include file ``pith-number.tex``: render, write atomically, parse back.

The format is the contract with ``pith.sty`` (README, "The include format"), version 2:
the identifiers of version 1, every field of the canonical record (so that pith.sty can
put the record into the PDF and anyone can recompute the number from it), the receipt's
signature when there is one, and the QR code of the Pith URL as rows of modules.

Lines end with ``\\n``; the file ends with ``}\\n``.  The bytes depend only on the values,
so the same record always gives the same file.  Every value is validated against its
pattern (:mod:`pith_tex.record.canonical`) as it is rendered; anything else is refused with
:class:`IncludeRefused`.

Where it is written (``fetch -o``, :func:`check_output`): a new path, or an existing
regular file that is an earlier include (any format) or empty.  A device node, FIFO,
socket, directory or symlink, and any other file (``-o main.tex``), is refused with exit
2 and left as it was; a read-only include with exit 3.  The new file has mode
``0644 & ~umask`` (:mod:`pith_tex.atomic`).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional

from .. import __version__
from ..atomic import Writer, check_target, write_atomic

from ..record import canonical
from ..record.canonical import (ARXIV_ID_RE, ARXIV_VERSION_RE, CATEGORY_RE, KEY_ID_RE, LICENSE_RE,
                        NUMBER_RE, SHA256_RE, SIGNATURE_HEX_RE, SUBMITTED_AT_RE, YEAR_RE)
from ..errors import CouldNotCheck, PithError, UsageError, safe_name, show
from ..safeio import MAX_INCLUDE, NotRegularFile, read_regular
from .qr import qr_rows

FORMAT_VERSION = 2
HEADER = (
    "% pith-number.tex: written by `pith-tex fetch` after verifying the record.\n"
    "% Do not edit: run `pith-tex fetch` again instead.\n"
)
#: The header's third line: the pith-tex that wrote the include (since 1.1.0).  pith.sty
#: refuses an include of a newer pith-tex than itself before reading its keys, with a
#: message naming both versions (pith.sty's include-newer).
VERSION_LINE = "%% pith-tex %s wrote it; it needs pith.sty %s or newer.\n"
_VERSION_LINE_RE = re.compile(r"% pith-tex ([0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}) wrote it; it "
                              r"needs pith\.sty \1 or newer\.\Z")
_VERSION_RE = re.compile(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\Z")
SIGNATURE_STATES = ("verified", "absent")
#: The line ``fetch --accept-title`` adds after the header: the author said the paper's
#: title changed since the record (a TeX comment: pith.sty reads past it as data).
TITLE_ACCEPTED = ("% title accepted: the paper's title differs from the record's "
                  "(pith-tex fetch --accept-title)\n")


class IncludeRefused(CouldNotCheck):
    """A value does not match its include pattern: nothing is written (exit 3)."""


class IncludeWriteError(PithError):
    """Writing the include failed; the previous file is untouched (exit 3)."""


class IncludeData(NamedTuple):
    number: str
    year: int
    sha256: str
    record: Dict[str, Any]  # the canonical record, schema 1.0
    signature: str  # "verified" | "absent"
    key_id: Optional[str] = None  # with "verified"
    signature_hex: Optional[str] = None  # with "verified": the receipt's 64 bytes, hex
    title_accepted: bool = False  # fetch --accept-title: the title changed since the record
    title: Optional[str] = None  # the record's title (it hashes to title_canon_sha256)
    #: with title_accepted: the paper's title as typed (TeX kept, notes dropped), which
    #: the author accepted in place of the record's (None: fetch found no title)
    accepted_title: Optional[str] = None
    #: The version of the pith-tex that wrote it ("": none named, as 1.0.0 wrote it)
    writer: str = __version__


def _refused(name: str, value: object, pattern: "re.Pattern[str]") -> IncludeRefused:
    return IncludeRefused("refusing to write %s = %s: it does not match %s"
                          % (name, show(value), pattern.pattern.replace("\\Z", "")))


def _check(name: str, value: object, pattern: "re.Pattern[str]") -> str:
    if type(value) is not str or not pattern.match(value):
        raise _refused(name, value, pattern)
    return value


def _record_lines(record: Any) -> List[str]:
    """The record's keys, validated: the record must be exactly schema 1.0 (so that the
    fields below rebuild it) and every field must match its pattern."""
    try:
        canonical.validate_record(record)
    except CouldNotCheck as e:
        raise IncludeRefused("refusing to write the record: " + e.message) from e
    meta, source = record["metadata"], record["source"]
    cats = meta["cross_cats_sorted"]
    if len(cats) > canonical.MAX_CROSS_CATS:
        raise IncludeRefused("refusing to write cross-cats: %d categories, at most %d fit"
                             % (len(cats), canonical.MAX_CROSS_CATS))
    return [
        "  arxiv-id = %s,\n" % _check("arxiv-id", source["id"], ARXIV_ID_RE),
        "  arxiv-version = %s,\n" % _check("arxiv-version", str(source["version"]),
                                           ARXIV_VERSION_RE),
        "  submitted-at = %s,\n" % _check("submitted-at", meta["submitted_at"],
                                          SUBMITTED_AT_RE),
        "  primary-cat = %s,\n" % _check("primary-cat", meta["primary_cat"], CATEGORY_RE),
        "  cross-cats = %s,\n" % " ".join(_check("cross-cats", c, CATEGORY_RE) for c in cats),
        "  license = %s,\n" % _check("license", meta["license"], LICENSE_RE),
        "  title-sha256 = %s,\n" % _check("title-sha256", meta["title_canon_sha256"],
                                          SHA256_RE),
        "  abstract-sha256 = %s,\n" % _check("abstract-sha256",
                                             meta["abstract_canon_sha256"], SHA256_RE),
    ]


def record_from_fields(arxiv_id: str, arxiv_version: int, submitted_at: str,
                       primary_cat: str, cross_cats: List[str], license: str,
                       title_sha256: str, abstract_sha256: str) -> Dict[str, Any]:
    """The canonical record the include's fields spell (schema 1.0)."""
    return {
        "metadata": {
            "abstract_canon_sha256": abstract_sha256,
            "cross_cats_sorted": cross_cats,
            "license": license,
            "primary_cat": primary_cat,
            "submitted_at": submitted_at,
            "title_canon_sha256": title_sha256,
        },
        "schema_version": canonical.SCHEMA_VERSION,
        "source": {"id": arxiv_id, "kind": "arxiv", "version": arxiv_version},
    }


def render_qr(number: str) -> str:
    """The ``\\pithqrcode{SIZE}{ROWS}`` block: the modules of the Pith URL's QR code."""
    rows = qr_rows(number)
    return ("\\pithqrcode{%d}{\n" % len(rows) + "".join("  %s\n" % r for r in rows) + "}\n")


#: The most UTF-16 code units of a title the include carries (a line stays < 4 KiB).
MAX_TITLE_UNITS = 1000


def _utf16_hex(key: str, title: object) -> str:
    """``feff`` and *title*'s UTF-16BE bytes, as hex (the value of *key*)."""
    if type(title) is not str:
        raise IncludeRefused("refusing to write %s = %s: not a text" % (key, show(title)))
    try:
        data = title.encode("utf-16-be")
    except UnicodeEncodeError as err:
        raise IncludeRefused("refusing to write %s: the title is not valid Unicode" % key) from err
    if not 1 <= len(data) // 2 <= MAX_TITLE_UNITS:
        raise IncludeRefused("refusing to write %s: the title has %d UTF-16 code "
                             "units, 1 to %d fit" % (key, len(data) // 2, MAX_TITLE_UNITS))
    return "feff" + data.hex()


def _title_hex(title: object, record: Dict[str, Any]) -> str:
    """``title-utf16``: ``feff`` and the title's UTF-16BE bytes, as hex: the record's title
    as the resolver gave it, only if it hashes to the record's ``title_canon_sha256``."""
    value = _utf16_hex("title-utf16", title)
    if canonical.canon_sha256(str(title)) != record["metadata"]["title_canon_sha256"]:
        raise IncludeRefused("refusing to write title-utf16 = %s: it does not hash to the "
                             "record's title_canon_sha256" % show(title, 80))
    return value


def _accepted_hex(data: "IncludeData") -> Optional[str]:
    """``accepted-title-utf16``: the title the author accepted (``fetch --accept-title``);
    only with the note that says so, and only when it is not the record's own title."""
    if data.accepted_title is None:
        return None
    if not data.title_accepted:
        raise IncludeRefused("refusing to write accepted-title-utf16 without the "
                             "--accept-title note")
    value = _utf16_hex("accepted-title-utf16", data.accepted_title)
    if canonical.canon_sha256(data.accepted_title) == data.record["metadata"][
            "title_canon_sha256"]:
        raise IncludeRefused("refusing to write accepted-title-utf16: it is the record's "
                             "own title")
    return value


def _title_of(value: Optional[str], key: str = "title-utf16") -> Optional[str]:
    """The title an include's ``title-utf16`` value spells (None: no such key)."""
    if value is None:
        return None
    ok = value.startswith("feff") and len(value) % 4 == 0 and re.fullmatch("[0-9a-f]+", value)
    try:
        if ok:
            return bytes.fromhex(value[4:]).decode("utf-16-be")
    except (ValueError, UnicodeDecodeError):
        pass
    raise IncludeRefused("refusing to write %s = %s: it is not feff and UTF-16BE as "
                         "lower-case hex" % (key, show(value, 80)))


def _version_line(writer: str) -> str:
    if writer == "":
        return ""
    if type(writer) is not str or not _VERSION_RE.match(writer):
        raise _refused("the writer's version", writer, _VERSION_RE)
    return VERSION_LINE % (writer, writer)


def _writer_of(header: List[str]) -> str:
    """The version of the pith-tex that wrote an include, from its header lines ("": none
    named, as pith-tex 1.0.0 wrote it)."""
    for line in header:
        m = _VERSION_LINE_RE.match(line)
        if m:
            return m.group(1)
    return ""


def render(data: IncludeData) -> bytes:
    """The include for *data*, as bytes; raises :class:`IncludeRefused` for a bad value."""
    if type(data.year) is not int:
        raise IncludeRefused("refusing to write the include: year must be an integer, got %s"
                             % show(data.year))
    lines = [
        "  number = %s,\n" % _check("number", data.number, NUMBER_RE),
        "  year = %s,\n" % _check("year", str(data.year), YEAR_RE),
        "  sha256 = %s,\n" % _check("sha256", data.sha256, SHA256_RE),
    ] + _record_lines(data.record)
    if type(data.title_accepted) is not bool:
        raise IncludeRefused("refusing to write the include: title_accepted must be True or "
                             "False, got %s" % show(data.title_accepted))
    if data.signature not in SIGNATURE_STATES:
        raise IncludeRefused("refusing to write signature = %s: it must be %s"
                             % (show(data.signature), " or ".join(SIGNATURE_STATES)))
    if data.signature == "verified":
        lines.append("  signature = verified,\n")
        lines.append("  key-id = %s,\n" % _check("key-id", data.key_id, KEY_ID_RE))
        lines.append("  signature-hex = %s,\n" % _check("signature-hex", data.signature_hex,
                                                        SIGNATURE_HEX_RE))
    else:  # absent
        if data.key_id is not None or data.signature_hex is not None:
            raise IncludeRefused("refusing to write the include: key-id or signature-hex "
                                 "without a verified signature")
        lines.append("  signature = absent,\n")
    if data.title is not None:
        lines.append("  title-utf16 = %s,\n" % _title_hex(data.title, data.record))
    accepted = _accepted_hex(data)
    if accepted is not None:
        lines.append("  accepted-title-utf16 = %s,\n" % accepted)
    text = (HEADER + _version_line(data.writer) + (TITLE_ACCEPTED if data.title_accepted else "")
            + "\\pithrecord{%d}{\n" % FORMAT_VERSION + "".join(lines) + "}\n"
            + render_qr(data.number))
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


_QR_HEAD_RE = re.compile(rb"\\pithqrcode\{([1-9][0-9]{1,2})\}\{\n")


def _qr_block_shape_ok(block: bytes) -> bool:
    """*block* is ``\\pithqrcode{SIZE}{`` + SIZE rows of SIZE modules + ``}``."""
    m = _QR_HEAD_RE.match(block)
    if not m:
        return False
    size = int(m.group(1))
    rows = block[m.end():].split(b"\n")
    return (len(rows) == size + 2 and rows[-2:] == [b"}", b""]
            and all(len(r) == size + 2 and r[:2] == b"  " and not r[2:].strip(b"01")
                    for r in rows[:-2]))


_NEED = ("number", "year", "sha256", "arxiv-id", "arxiv-version", "submitted-at", "primary-cat",
         "cross-cats", "license", "title-sha256", "abstract-sha256", "signature")
_KEY_LINE_RE = re.compile(r"  ([a-z0-9-]+) = ([^,\n]*),\Z")
_HEAD_RE = re.compile(r"\\pithrecord\{([^}]*)\}\{\Z")


def _head_line(lines: List[str]) -> int:
    """The index of the include's ``\\pithrecord{FORMAT}{`` line, checked; CouldNotCheck
    when there is none or it names another format."""
    head = next((i for i, line in enumerate(lines) if line.startswith("\\pithrecord")), None)
    if head is None:
        raise CouldNotCheck("no \\pithrecord{...}{...} in the file: not a pith-tex include")
    m = _HEAD_RE.match(lines[head])
    if not m:
        raise CouldNotCheck("line %d: expected \\pithrecord{%d}{" % (head + 1, FORMAT_VERSION))
    if m.group(1) != str(FORMAT_VERSION):
        raise CouldNotCheck("include format %s is unknown to this pith-tex (it knows %d): "
                            "update pith-tex or re-run pith-tex fetch"
                            % (show(m.group(1)), FORMAT_VERSION))
    return head


def _key_values(lines: List[str], head: int) -> Dict[str, str]:
    """The ``  key = value,`` lines after the head line *head*, up to the closing ``}``,
    each key once; CouldNotCheck otherwise."""
    unclosed = "the \\pithrecord{%d}{ is never closed by a '}' line" % FORMAT_VERSION
    values: Dict[str, str] = {}
    for j in range(head + 1, len(lines)):
        line = lines[j]
        if line == "}":
            return values
        if line == "" and j == len(lines) - 1:
            raise CouldNotCheck(unclosed)
        km = _KEY_LINE_RE.match(line)
        if not km:
            raise CouldNotCheck("line %d: expected '  key = value,' or '}'" % (j + 1))
        if km.group(1) in values:
            raise CouldNotCheck("line %d: key %s given twice" % (j + 1, km.group(1)))
        values[km.group(1)] = km.group(2)
    raise CouldNotCheck(unclosed)


def parse_include(text: str) -> IncludeData:
    """Parse an include written by :func:`render`; raise :class:`CouldNotCheck` otherwise.

    The file must be exactly what ``pith-tex fetch`` writes (it is re-rendered and compared
    byte for byte): a hand-edited include is not trusted.  :func:`render` checks every
    value against its pattern.  CRLF line ends (a checkout on Windows) read as LF, as
    pith.sty reads them (TeX drops the CR at the end of a line).
    """
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    head = _head_line(lines)
    values = _key_values(lines, head)
    missing = [k for k in _NEED if k not in values]
    if missing:
        raise CouldNotCheck("the include has no %s key" % missing[0])
    try:
        record = record_from_fields(
            values["arxiv-id"],
            _integer("arxiv-version", values["arxiv-version"], ARXIV_VERSION_RE),
            values["submitted-at"], values["primary-cat"],
            values["cross-cats"].split(" ") if values["cross-cats"] else [],
            values["license"], values["title-sha256"], values["abstract-sha256"])
        data = IncludeData(
            number=values["number"],
            year=_integer("year", values["year"], YEAR_RE),
            sha256=values["sha256"],
            record=record,
            signature=values["signature"],
            key_id=values.get("key-id"),
            signature_hex=values.get("signature-hex"),
            title_accepted=TITLE_ACCEPTED[:-1] in lines[:head],
            title=_title_of(values.get("title-utf16")),
            accepted_title=_title_of(values.get("accepted-title-utf16"),
                                     "accepted-title-utf16"),
            writer=_writer_of(lines[:head]),
        )
        rendered = render(data)
    except IncludeRefused as e:
        raise CouldNotCheck(e.message.replace("refusing to write", "bad include:")) from e
    got = text.encode("ascii", "replace")
    qr_at = rendered.find(b"\\pithqrcode")
    if got[:qr_at] != rendered[:qr_at] or not _qr_block_shape_ok(got[qr_at:]):
        raise CouldNotCheck("the file is not byte-for-byte what pith-tex writes (edited by hand?): "
                            "re-run pith-tex fetch")
    return data


def qr_block_matches(text: str, number: str) -> bool:
    """Does the include *text* (already accepted by :func:`parse_include`) end with the QR
    code this pith-tex draws for *number*?  A separate check from the parse, so that a
    swapped number is reported as a verification failure, not as an unreadable file."""
    return text.replace("\r\n", "\n").endswith(render_qr(number))


#: The first line of every include pith-tex has written (format 1 and 2).
_HEADER_START = b"% pith-number.tex: written by `pith-tex fetch`"


def _resaved(data: bytes) -> bytes:
    """*data* without what an editor adds when it re-saves an include: a UTF-8
    byte-order mark, or UTF-16 (with a byte-order mark, or a NUL in its first two bytes,
    as XeTeX tells it), decoded.  pith.sty refuses such a file and says to run
    ``pith-tex fetch`` again, which must then be able to replace it."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:]
    encoding = {b"\xff\xfe": "utf-16", b"\xfe\xff": "utf-16"}.get(data[:2])
    if encoding is None and len(data) >= 2 and (data[0] == 0) != (data[1] == 0):
        encoding = "utf-16-be" if data[0] == 0 else "utf-16-le"
    if encoding is None:
        return data
    try:
        return data.decode(encoding).encode("ascii", "replace")
    except UnicodeDecodeError:
        return data


def looks_like_include(data: bytes) -> bool:
    """Is *data* (an existing file) a pith-tex include, of any format or edited, so that
    ``fetch -o`` may replace it?  Yes when it starts with the header pith-tex writes, or
    when its first line that is neither blank nor a TeX comment starts ``\\pithrecord{``
    (also after an editor re-saved it with a byte-order mark or as UTF-16); and for an
    empty file (nothing to lose).  A paper (``-o main.tex``) is neither."""
    data = _resaved(data)
    if not data or data.startswith(_HEADER_START):
        return True
    for line in data.split(b"\n"):
        line = line.strip()
        if line and not line.startswith(b"%"):
            return line.startswith(b"\\pithrecord{")
    return False


def check_output(path: str) -> Optional[bytes]:
    """May ``fetch`` write the include to *path*?  Returns the bytes of the include that
    is there (None for a new path); raises :class:`UsageError` (exit 2) for a target
    that is not a new path or an existing pith-tex include: a device node, a FIFO (not
    opened, so it cannot block), a socket, a directory, a symlink (not followed), a
    file larger than any include, or any other file such as the paper itself; and
    :class:`IncludeWriteError` (exit 3) for a read-only include.  Nothing is changed."""
    shown = safe_name(path)
    try:
        st = check_target(path)
    except NotRegularFile as e:
        if e.kind == "a symbolic link":
            try:
                to = " (to %s)" % safe_name(os.readlink(path))
            except OSError:
                to = ""
            raise UsageError("-o %s is a symbolic link%s: pith-tex does not write through "
                             "links; remove the link, or give the file itself with -o"
                             % (shown, to)) from e
        raise UsageError("-o %s is %s, not a regular file: pith-tex writes the include only "
                         "to a new file or over an earlier include; name another file with "
                         "-o, e.g. -o pith-number.tex" % (shown, e.kind)) from e
    except OSError as e:
        raise IncludeWriteError("cannot use -o %s: %s" % (shown, e.strerror or e)) from e
    if st is None:
        return None
    try:
        existing = read_regular(path, MAX_INCLUDE, follow_symlinks=False)
    except OSError as e:
        raise IncludeWriteError("cannot read %s to check that it is an include: %s; it was "
                                "left untouched" % (shown, e.strerror or e)) from e
    if existing is None or not looks_like_include(existing):
        raise UsageError("-o %s: the file exists and is not a pith-tex include (it does not "
                         "start with \\pithrecord or the pith-tex header): refusing to "
                         "overwrite it, it was left untouched; name another file with -o, "
                         "e.g. -o pith-number.tex" % shown)
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise IncludeWriteError("%s is read-only: it was left untouched; make it writable "
                                "(chmod u+w %s) to let pith-tex fetch replace it"
                                % (shown, shown))
    return existing


def write_include(path: str, data: IncludeData, *, write: Writer = os.write,
                  fsync: Callable[[int], None] = os.fsync) -> bool:
    """Render and atomically write the include.  Returns False when *path* already holds
    exactly these bytes (nothing is written, so the file's mtime does not change).

    *path* must be a new path or an earlier include (:func:`check_output`); the new
    file has mode ``0644 & ~umask`` (:func:`pith_tex.atomic.write_atomic`).  Raises
    :class:`IncludeRefused` (bad value), :class:`UsageError` (a target that is not an
    include) or :class:`IncludeWriteError`; in every case *path* is unchanged.
    """
    content = render(data)
    existing = check_output(path)
    if existing == content:
        return False
    try:
        write_atomic(path, content, write=write, fsync=fsync)
    except NotRegularFile as e:  # replaced by something else since check_output
        raise UsageError("-o %s is now %s, not a regular file: it was left untouched"
                         % (safe_name(path), e.kind)) from e
    except OSError as e:
        # Say what is there: a new path has no previous file to be unchanged, and a
        # missing directory is the usual cause (-o sub/pith-number.tex).
        parent = os.path.dirname(path) or "."
        if existing is None and not os.path.isdir(parent):
            raise IncludeWriteError("could not write %s: the directory %s does not exist; "
                                    "nothing was written: create it, or name a file in an "
                                    "existing directory with -o"
                                    % (safe_name(path), safe_name(parent))) from e
        raise IncludeWriteError("could not write %s: %s; %s" % (
            safe_name(path), e.strerror or e,
            "nothing was written" if existing is None else "the previous file is unchanged")) from e
    return True
