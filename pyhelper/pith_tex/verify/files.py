"""One file, whatever it is: which document it holds (resolver JSON, bundle, Paper Citation
Record, include or compiled PDF), read within the caps, and handed to the verifier of its
kind.  This is the top of the verification modules: it imports :mod:`pith_tex.record`,
:mod:`pith_tex.citations`, :mod:`pith_tex.include` (an include's checks) and
:mod:`pith_tex.pdf`, and none of them imports it.
"""

from __future__ import annotations

import os
import re
import threading
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from ..record import canonical
from ..checks import FAIL, Check, FileOutcome, Outcome
from ..record.documents import (MAX_BODY, PDF_MAGIC, is_pdf_name, kind_of, parse_bundle_doc,
                        parse_record_doc, read_capped)
from ..errors import PithError, show
from ..report import file_json
from ..safeio import NotRegularFile, read_regular
from ..record.canonical import LoneSurrogate
from ..record.verdict import loads, verify_bundle, verify_record

if TYPE_CHECKING:
    from ..record.keys import Keyring

def expected_number(path: str) -> Optional[str]:
    """``.../NUM.json`` or ``.../NUM/bundle.json``: the number the path promises."""
    base = os.path.basename(path)
    stem = base[:-5] if base.endswith(".json") else base
    if canonical.is_number(stem):
        return stem
    if base == "bundle.json":
        parent = os.path.basename(os.path.dirname(path))
        if canonical.is_number(parent):
            return parent
    return None


def _too_large() -> str:
    from ..citations import record as citations

    return "larger than 1 MiB (%d MiB for a Paper Citation Record)" % (
        citations.MAX_RECORD >> 20)


def unreadable(path: str, e: OSError, kind: str = "unknown") -> FileOutcome:
    """The outcome of a file that could not be read (exit 3)."""
    if isinstance(e, NotRegularFile):
        return FileOutcome(path, kind, None, "refused: it is %s, not a regular file"
                           % e.kind)
    return FileOutcome(path, kind, None, "cannot read: %s" % (e.strerror or e))


def read_file(path: str) -> Tuple[bytes, Optional[FileOutcome]]:
    """``(bytes, None)``, or ``(b"", outcome)`` for a file that cannot be read, is not a
    regular file (a FIFO, device or socket is refused before it is opened) or is larger
    than 1 MiB, unless it may be a Paper Citation Record (up to
    :data:`pith_tex.citations.record.MAX_RECORD`; :func:`decode_json` holds every other document
    to 1 MiB)."""
    from ..citations import record as citations  # here, not on top: ``verify paper.pdf`` does not pay for it

    try:
        data = read_capped(path, citations.MAX_RECORD)
    except OSError as e:
        return b"", unreadable(path, e)
    if data is None or (len(data) > MAX_BODY and not citations.may_be_citation_record(data)):
        return b"", FileOutcome(path, "unknown", None, _too_large())
    return data, None


def decode_json(path: str, data: bytes) -> Tuple[Any, Optional[FileOutcome]]:
    """``(JSON value, None)``, or ``(None, outcome)`` when *data* is not UTF-8 JSON: not
    JSON, nested deeper than the parser's recursion limit, holding a lone surrogate
    (``"\\ud800"``: no UTF-8 text, so no canonical JSON, can carry it), or larger than
    1 MiB and not a Paper Citation Record."""
    try:
        obj = loads(data.decode("utf-8"))
    except LoneSurrogate as e:
        return None, FileOutcome(path, "unknown", None, "not valid JSON (%s)" % e.msg)
    except (ValueError, UnicodeDecodeError) as e:
        return None, FileOutcome(path, "unknown", None,
                                 "not valid JSON (%s)" % e.__class__.__name__)
    except RecursionError:
        return None, FileOutcome(path, "unknown", None, "not valid JSON (nested too deeply)")
    if len(data) > MAX_BODY:
        from ..citations import record as citations

        if not citations.is_citation_record(obj):
            return None, FileOutcome(path, "unknown", None, _too_large())
    return obj, None


def verify_json_obj(
    path: str, obj: Any, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None, data: Optional[bytes] = None,
) -> FileOutcome:
    """Verify one saved resolver JSON, bundle or Paper Citation Record, already parsed
    (*obj*, from *path*; *data*: the bytes parsed, which a citation record's check for
    repeated keys reads)."""
    from ..citations import record as citations

    kind = kind_of(obj)
    if kind is None and citations.is_citation_record(obj):
        kind = citations.KIND
    try:
        if kind == citations.KIND:
            return FileOutcome(path, citations.KIND, citations.verify_citation_record(
                obj, path, data, citations.expected_arxiv_id(path)))
        if kind == "record":
            doc = parse_record_doc(obj, path)
            out = verify_record(expected_number(path), doc, None, check_signature=False)
        elif kind == "bundle":
            bdoc = parse_bundle_doc(obj, path)
            out = verify_bundle(expected_number(path), bdoc,
                                require_signature=require_signature, keyring=keyring)
        else:
            return FileOutcome(path, "unknown", None,
                               "neither resolver JSON (record_type: pith_number_record), a "
                               "bundle (bundle_type: pith_open_graph_bundle) nor a Paper "
                               "Citation Record (schema: %s)" % citations.SCHEMA)
    except PithError as e:
        return FileOutcome(path, kind or "unknown", None, e.message, e.exit_code)
    return FileOutcome(path, kind, with_duplicate_key(out, data, kind))


def with_duplicate_key(out: Outcome, data: Optional[bytes], what: str) -> Outcome:
    """*out* with a failed ``json`` check when the JSON *data* it was read from repeats a
    key (Python keeps the last value; other readers, and eyes, the first); else *out*
    itself.  Shared by ``verify`` and ``fetch``: the same bytes get the same verdict."""
    from ..citations import record as citations

    key = citations.duplicate_key(data) if data is not None else None
    if key is None:
        return out
    return out._replace(checks=[*out.checks, Check(
        "json", FAIL, "an object repeats the key %s: readers disagree on what this %s "
        "says (the checks above read the last value)" % (show(key), what))])


#: Byte-order marks (UTF-8, UTF-16): an editor saved the include.
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
_NOT_WRITTEN_RE = re.compile(rb"[\x00\x7f-\xff]")


def include_bytes_problem(data: bytes) -> Optional[str]:
    """Why *data* cannot be an include by its bytes alone, in pith.sty's words (on every
    engine: a byte-order mark, or a character that is not ASCII or is NUL, and on which
    line); None when every byte is one pith-tex writes."""
    if data.startswith(_BOMS):
        return ("it starts with a byte-order mark (an editor saved it), which pith-tex "
                "fetch never writes")
    m = _NOT_WRITTEN_RE.search(data)
    if m is None:
        return None
    return ("line %d holds a character that pith-tex fetch never writes (not ASCII, or NUL)"
            % (data.count(b"\n", 0, m.start()) + 1))


def _include_outcome(path: str, data: bytes, require_signature: bool,
                     keyring: Optional[Keyring]) -> FileOutcome:
    if not data.strip():
        return FileOutcome(path, "include", None,
                           "the file is empty: not a pith-tex include (run pith-tex fetch)")
    problem = include_bytes_problem(data)
    if problem is not None:
        return FileOutcome(path, "include", None, problem)
    text = data.decode("ascii")
    from ..include.validate import verify_include_text

    return verify_include_text(path, text, require_signature=require_signature,
                               keyring=keyring)


def verify_include_file(path: str, *, require_signature: bool = False,
                        keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the file at *path* as an include, whatever its name (``include=FILE``)."""
    data, failed = read_file(path)
    if failed is not None:
        return failed
    return _include_outcome(path, data, require_signature, keyring)


def read_pdf(path: str) -> Tuple[bytes, Optional[FileOutcome]]:
    """``(bytes, None)`` of the PDF at *path*, read in one open (a FIFO or device is
    refused before it is opened); or ``(b"", outcome)`` when it cannot be read or is
    larger than :data:`pith_tex.pdf.claims.MAX_PDF_BYTES`."""
    from ..pdf.claims import MAX_PDF_BYTES

    try:
        data = read_regular(path, MAX_PDF_BYTES)
    except OSError as e:
        return b"", unreadable(path, e, "pdf")
    if data is None:
        return b"", FileOutcome(path, "pdf", None, "larger than %d MiB" % (MAX_PDF_BYTES >> 20))
    return data, None


def verify_pdf_file(path: str, *, require_signature: bool = False,
                    keyring: Optional[Keyring] = None) -> Tuple[FileOutcome, bool]:
    """The outcome of the PDF at *path*, its bytes read once, and whether it makes no Pith
    claim at all (:func:`pith_tex.pdf.claims.pdf_outcome`)."""
    from ..pdf.claims import pdf_outcome

    data, failed = read_pdf(path)
    if failed is not None:
        return failed, False
    return pdf_outcome(data, path, require_signature=require_signature, keyring=keyring)


def verify_file(path: str, *, require_signature: bool = False,
                keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify one file: ``.tex`` as an include, ``.pdf`` (or any file that starts as a
    PDF does) as a compiled paper (:mod:`pith_tex.pdf.claims`), anything else as resolver
    JSON/bundle.  The file is opened once."""
    if is_pdf_name(path):
        return verify_pdf_file(path, require_signature=require_signature, keyring=keyring)[0]
    data, failed = read_file(path)
    if failed is not None:
        return failed
    if data.startswith(PDF_MAGIC):  # a PDF by another name, already read
        from ..pdf.claims import verify_pdf_data

        return verify_pdf_data(data, path, require_signature=require_signature,
                               keyring=keyring)
    if path.endswith(".tex"):
        return _include_outcome(path, data, require_signature, keyring)
    obj, failed = decode_json(path, data)
    if failed is not None:
        return failed
    return verify_json_obj(path, obj, require_signature=require_signature, keyring=keyring,
                           data=data)


def internal_error(path: str, e: BaseException) -> FileOutcome:
    """The outcome of a file whose check raised: one line for that file (exit 3), and the
    other files are still checked."""
    return FileOutcome(path, "unknown", None, "could not check this file: internal error "
                       "(%s: %s); please report it" % (type(e).__name__, show(str(e), 80)))


def verify_file_guarded(path: str, *, require_signature: bool = False) -> FileOutcome:
    """:func:`verify_file`, with any exception it raises made the file's own outcome."""
    try:
        return verify_file(path, require_signature=require_signature)
    except Exception as e:  # noqa: BLE001 -- MemoryError and RecursionError included
        return internal_error(path, e)


#: One PDF at a time in a process: pypdf's log handler and the warning filters that
#: :func:`pith_tex.pdf.claims.read_claims_data` sets for the length of one reading are
#: the process's, and the engines' child process answers one request at a time.
_ONE_AT_A_TIME = threading.Lock()


def pdf_bytes_outcome(data: bytes, name: str, *, deadline: Optional[float] = None,
                      require_signature: bool = False,
                      keyring: Optional[Keyring] = None) -> Tuple[FileOutcome, bool]:
    """:func:`verify_pdf_bytes`'s outcome, and whether the PDF makes no Pith claim at all
    (:func:`pith_tex.pdf.claims.pdf_outcome`)."""
    from ..pdf.claims import pdf_outcome

    with _ONE_AT_A_TIME:
        try:
            return pdf_outcome(data, name, deadline=deadline,
                               require_signature=require_signature, keyring=keyring)
        except Exception as e:  # noqa: BLE001 -- MemoryError, RecursionError: this PDF's line
            return internal_error(name, e), False


def verify_pdf_bytes(data: bytes, name: str, *, deadline: Optional[float] = None,
                     require_signature: bool = False,
                     keyring: Optional[Keyring] = None) -> Dict[str, Any]:
    """Verify the PDF *data* (its bytes, however they were got: a file, a tar member, an
    object store) and return the dict ``pith-tex verify --json`` prints for it
    (``path`` is *name*; ``exit_code``, ``verdict``, ``number``, ``checks``, ``error``).

    *deadline*: a :func:`time.monotonic` value at which the engines reading page 1 are
    stopped (the PDF could not be checked, exit code 3); None gives them
    :data:`pith_tex.pdf.bounded.SECONDS`.  *keyring* replaces the pinned keys.

    Pure with respect to the process: every switch it sets while reading (pypdf's logger,
    the warning filters) is restored before it returns; the engines run in a child
    process that this process starts once and reuses.  Calls from several threads of one
    process take turns; for parallel work use processes (``pith-tex verify --jobs``,
    :func:`pith_tex.scale.verify_archives`).  It never raises for what the bytes hold: a
    PDF that breaks a reader gets its own ``could not check`` dict.
    """
    return file_json(pdf_bytes_outcome(data, name, deadline=deadline,
                                       require_signature=require_signature,
                                       keyring=keyring)[0])
