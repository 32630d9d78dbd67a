"""Reading the Pith claims of a compiled PDF, and ``pith-tex verify paper.pdf``.

``pith.sty`` with a verified include writes its claims into the PDF's Info dictionary
(README, "PDF metadata written by pith.sty"): ``PithNumber``, ``PithURL``,
``PithVerification``, ``PithSHA256``, ``PithArXiv``, ``PithRecord`` (the canonical JSON of
the record) and, when the receipt was signed, ``PithKeyID`` and ``PithSignature``.  The
record travels with its own claims, as in an include, so the record, hash, derivation,
year and signature checks are those of :func:`pith_tex.record.signatures.verify_embedded`.
Around them (docs/verification.md says what each covers and what it cannot):

``pdf``
    the file is a complete, unencrypted PDF that pypdf reads, and it carries the keys of
    a verified include (error otherwise: nothing can be decided, exit 3).
``canonical``
    ``PithRecord`` is byte for byte the canonical JSON of the record it holds (no white
    space, no duplicate key, sorted keys), so ``sha256(PithRecord) = PithSHA256`` holds
    for the bytes in the PDF, not only for a re-serialisation.
``url``, ``arxiv``, ``state``
    ``PithURL`` is the number's URL; ``PithArXiv`` is the record's; ``PithVerification``
    agrees with the signature.
``info``
    every Info dictionary in the file (every trailer, every incremental update, every
    definition of the Info object) gives each Pith key one value: a reader that picks
    another dictionary or another duplicate must not see another number.
``badge``, ``qr``, ``viewers``
    what page 1 shows in the readers' engines, PDFium and poppler (:mod:`pith_tex.pdf.visible`
    on :mod:`pith_tex.pdf.pageview`): the claimed ``pith:YYYY:NUM`` visibly, no other Pith
    Number in its text or its links, every link over the badge opening exactly the
    number's Pith page (:mod:`pith_tex.pdf.links`); a QR code that every engine's rendering
    decodes to the number's URL and no other code.  The Info values are also read by both
    engines and must be pypdf's (``info``).
``print``
    page 1 as PDFium prints it shows the same over the badge, the QR code and the title
    as on screen; no form field, print-only annotation, layer Firefox switches
    otherwise, or /ActualText lies there (:mod:`pith_tex.pdf.printed`).
``xmp`` (when the XMP packet has ``pith:`` properties or a ``dc:identifier``)
    every ``pith:`` property equals its Info key, none is missing, none has two values,
    and a ``dc:identifier`` naming a Pith Number names this one.

pypdf is imported inside the functions: ``pith-tex verify rec.json`` never pays for it.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import warnings
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

import pypdf
from pypdf import PageObject
from pypdf.generic import NameObject

from ..record import canonical
from ..checks import Check, ERROR, FAIL, FileOutcome, OK, Outcome
from ..record.documents import PDF_MAGIC
from ..errors import show
from ..record.identifier import URL_BASE
from .bounded import page_one
from .views import EngineFailed, PageOne
from .meta import XMP_KEYS, XMP_NS, Unreadable, info_values, text_value, xmp_values
from .links import Link, link_areas, link_texts
from .printed import Facts, facts, print_check
from .visible import (BADGE_RE, MIN_FONT_PT, badge_check, meta_problem,
                       other_numbers, qr_check, viewers_check, visible_numbers)
from ..record.signatures import verify_embedded
from .structure import refusals
from .pagetitle import GLYPHS, front_matter, pdf_title_checks
from .xref import Unfollowable, stale_objects

if TYPE_CHECKING:
    from ..record.keys import Keyring

__all__ = ["PITH_KEYS", "XMP_NS", "XMP_KEYS", "MIN_FONT_PT", "PdfClaims", "UnreadablePdf",
           "read_claims", "read_claims_data", "read_claims_showing", "carries_pith", "verify_claims",
           "verify_pdf", "verify_pdf_data", "pdf_outcome", "visible_numbers"]

#: The Info keys pith.sty writes, in the README's order.
PITH_KEYS = ("PithNumber", "PithURL", "PithVerification", "PithSHA256", "PithArXiv",
             "PithRecord", "PithKeyID", "PithSignature", "PithTitle", "PithAcceptedTitle")
#: The keys of a PDF compiled with a verified include (signed or not).
INCLUDE_KEYS = PITH_KEYS[:6]
#: Larger files are refused unread (a paper is a few MiB; pypdf holds the whole file).
MAX_PDF_BYTES = 256 * 1024 * 1024
#: A larger PithRecord is not a record pith-tex writes (the JSON cap of every document).
MAX_RECORD_BYTES = 1024 * 1024
_HEAD = 1024  # the header may follow up to 1 KiB of junk (PDF 32000-1, annex H)
_TAIL = 1024  # %%EOF must be in the last 1 KiB

_DISPLAY_RE = re.compile(r"pith:(?:([0-9]{4}):)?([A-Z2-7]{26})\Z")
_FETCH = "run pith-tex fetch and recompile"


def _has_header(head: bytes) -> bool:
    """*head* (the first bytes of a file named ``.pdf``) holds the PDF header ``%PDF-``
    within its first KiB.  (A file with another name is read as a PDF only when it starts
    with the header: :func:`pith_tex.verify.files.verify_file`.)"""
    return PDF_MAGIC in head[:_HEAD]


class PdfClaims(NamedTuple):
    """What a PDF says about its Pith Number: the Pith Info keys with a text value as pypdf
    reads them (absent ones missing from *info*), the number of pages, and what page 1
    shows (None when it could not be read: *page_error* says why)."""

    info: Dict[str, str]
    pages: int
    page: Optional[PageOne] = None
    page_error: Optional[str] = None
    not_text: Tuple[str, ...] = ()  # Pith keys whose value is not a text string
    #: Every value of each Pith key in every Info dictionary of the file (raw scan), or a
    #: str when the scan could not be made.
    info_all: Union[Dict[str, List[str]], str] = {}
    #: The ``pith:`` properties and ``dc:identifier`` values of the XMP packet; None when
    #: it has neither; a str when the packet could not be read.
    xmp: Union[Dict[str, List[str]], str, None] = None
    #: The URIs of page 1's link annotations.
    links: Tuple[str, ...] = ()
    #: pypdf's reports of a key written twice in one dictionary it read (trailer,
    #: catalog, page tree, page 1 and what it uses): readers differ in which they keep.
    duplicates: Tuple[str, ...] = ()
    #: The clickable areas of page 1 and what they open; a str when they could not be
    #: read.
    areas: Union[Tuple[Link, ...], str] = ()
    #: Why the file reads two ways (:func:`pith_tex.pdf.structure.refusals`): not checked.
    refused: Tuple[str, ...] = ()
    #: Page 1's annotations and reader-dependent layers, for the ``print`` check.
    printing: Optional[Facts] = None


class UnreadablePdf(Exception):
    """The file is not a PDF pith-tex can read: not a PDF, truncated, encrypted, broken."""


#: What pypdf logs when the cross-reference data does not lead to the objects and it
#: finds them another way (the format strings, every release since the floor): it
#: rebuilds the table by scanning the file; or, for one object whose entry points
#: elsewhere or is missing, takes the *first* ``N G obj`` it finds in the file (poppler
#: rebuilds the table then, and takes the last); or drops entries, trailers, object
#: stream entries or the /Root it cannot read (and guesses a catalog).  Readers repair
#: each their own way, so what they show is not what was checked.
#: Matched by their text, not refused with pypdf's ``strict=True``, which was tried
#: (pypdf 7.1.1) and refuses other things than these, each as one PdfReadError:
#: a key written twice, so an honest paper whose font holds /ToUnicode twice (CJKutf8,
#: tests/python/pdf/test_py_false_alarms.py) could not be checked (exit 3), and a duplicate
#: /Info key or a broken cross-reference gave "could not check" instead of the FAIL that
#: names it (9 tests of tests/python/pdf/test_py_hostile_info.py).
_REPAIRS = ("parsing for Object Streams", "incorrect startxref pointer",
            "Object ID %(idnum)d,%(generation)d ref repaired",
            "Object %(idnum)d %(generation)d found",
            "Object %(idnum)d %(generation)d not defined",
            "Ignoring wrong pointing object", "entry %(num)d in Xref table invalid",
            "Xref table not zero-indexed", "Invalid/Truncated xref table",
            "Invalid parent xref", "found startxref pointing to a previous revision",
            "Previous trailer cannot be read", "XRef object at",
            "Invalid /N", "Invalid object number", "Invalid stream (index",
            'Cannot find "/Root"', "Invalid Root object", "Searching object with",
            "Root found at", "Possible root found at")


#: Keys whose second value changes nothing verify decides: pith-tex reads no font with
#: pypdf (the engines read page 1's text, each keeping the last value), so a font's
#: /ToUnicode written twice (CJKutf8's subfonts repeat it) does not read two ways.
_READ_BY_NO_ONE = frozenset({"/ToUnicode"})


class _Duplicates(logging.Handler):
    """Collects pypdf's reports of a key written twice in one dictionary (pypdf keeps the
    first value, poppler and viewers the last, so such a file reads two ways) and of a
    cross-reference table it had to rebuild (*repaired*: readers rebuild a broken table
    each their own way, taking other definitions of the same object, or give up)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.found: List[str] = []
        self.repaired = False

    def emit(self, record: logging.LogRecord) -> None:
        msg = str(record.msg)
        if msg.startswith(_REPAIRS):
            self.repaired = True
        if len(self.found) < 16 and msg.startswith("Multiple definitions"):
            try:
                text = record.getMessage()
            except Exception:  # noqa: BLE001 -- a log record's own formatting may raise anything
                text = msg
            if text.rsplit(" ", 1)[-1] in _READ_BY_NO_ONE:  # "... for key /ToUnicode"
                return
            self.found.append(text)


@contextmanager
def _quiet_pypdf() -> Iterator[_Duplicates]:
    """pypdf logs (and warns about) every oddity it repairs, on stderr by default; the
    report has its own lines, so silence it while reading, keeping only the duplicate
    dictionary keys it meets (:class:`_Duplicates`)."""
    log = logging.getLogger("pypdf")
    level, propagate = log.level, log.propagate
    handler = _Duplicates()
    log.setLevel(logging.WARNING)
    log.propagate = False
    log.addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield handler
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.propagate = propagate


def _read_file(path: str) -> bytes:
    """The bytes of the PDF at *path*, after :func:`checked_pdf_bytes`'s cheap checks."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_PDF_BYTES:
                raise UnreadablePdf("larger than %d MiB" % (MAX_PDF_BYTES >> 20))
            data = f.read(MAX_PDF_BYTES + 1)
    except OSError as e:
        raise UnreadablePdf("cannot read: %s" % (e.strerror or e)) from e
    return checked_pdf_bytes(data)


def checked_pdf_bytes(data: bytes) -> bytes:
    """*data* itself, after the cheap checks of a PDF's bytes: size, header, end marker
    (:class:`UnreadablePdf` says which failed)."""
    if len(data) > MAX_PDF_BYTES:
        raise UnreadablePdf("larger than %d MiB" % (MAX_PDF_BYTES >> 20))
    if not _has_header(data[:_HEAD]):
        raise UnreadablePdf("not a PDF (no %PDF- header)")
    if b"%%EOF" not in data[-_TAIL:]:
        raise UnreadablePdf("not a complete PDF (no %%EOF at the end): truncated?")
    return data


#: Page tree nodes looked at to find page 1 (the tree is never walked whole).
MAX_TREE_NODES = 4096
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")


def _first_page(reader: Any) -> Tuple[Any, int]:
    """Page 1 (a pypdf page, inherited attributes filled in) or None, and the page count
    the tree claims, found without walking the whole page tree (a 100,000-page PDF costs
    what a 1-page one does; a /Kids or /Parent loop ends at :data:`MAX_TREE_NODES`)."""
    root = reader.trailer["/Root"].get_object()
    pages = root.raw_get("/Pages")
    try:
        count = int(pages.get_object().get("/Count", 0))
    except (TypeError, ValueError):
        count = 0
    stack: List[Tuple[Any, Dict[str, Any]]] = [(pages, {})]
    seen = 0
    while stack:
        ref, inherited = stack.pop()
        seen += 1
        if seen > MAX_TREE_NODES:
            raise UnreadablePdf("page 1 not found in the first %d page-tree nodes"
                                % MAX_TREE_NODES)
        node = ref.get_object()
        kids = node.get("/Kids")
        if node.get("/Type") == "/Page" or kids is None:
            page = PageObject(reader, ref if hasattr(ref, "idnum") else None)
            page.update(node)
            for k, v in inherited.items():
                if k not in page:
                    page[NameObject(k)] = v
            return page, max(count, 1)
        here = dict(inherited)
        for k in _INHERITED:
            if k in node:
                here[k] = node.raw_get(k)
        for kid in reversed(list(kids.get_object())[:MAX_TREE_NODES]):
            stack.append((kid, here))
    return None, 0


def read_claims(path: str) -> PdfClaims:
    """The Pith claims of the PDF at *path*.  Raises :class:`UnreadablePdf` (with a
    one-line reason) for a file that is not a complete, readable, unencrypted PDF."""
    return read_claims_data(_read_file(path))


def read_claims_data(data: bytes, *, deadline: Optional[float] = None) -> PdfClaims:
    """The Pith claims of the PDF *data* (see :func:`read_claims`); the engines reading
    page 1 stop at *deadline* (a :func:`time.monotonic` value; None:
    :data:`pith_tex.pdf.bounded.SECONDS` from now)."""
    data = checked_pdf_bytes(data)
    readers: List[Any] = []
    with _quiet_pypdf() as reports:
        claims = _read_claims(data, reports, readers, deadline)
        stale = _stale(data, readers)
    _check_cross_references(reports, stale)
    return claims


def carries_pith(claims: PdfClaims) -> bool:
    """Does the PDF make a Pith claim at all: a Pith key in its Info dictionary (pypdf's
    reading or the raw scan of every Info dictionary), or ``pith:`` properties in its
    XMP?  A figure, or a PDF made without pith.sty, does not."""
    return bool(claims.info or claims.not_text or claims.info_all != {}
                or claims.xmp is not None)


def _stale(data: bytes, readers: List[Any]) -> Optional[str]:
    """Why an object pypdf read is not the one the newest cross-reference section gives
    (:func:`pith_tex.pdf.xref.stale_objects`), or None."""
    if not readers:
        return None
    try:
        return stale_objects(data, readers[0])
    except Unfollowable as e:
        return "its cross-reference sections could not be followed (%s)" % e
    except Exception as e:  # noqa: BLE001 -- pypdf's parser on bytes that are not what they seemed
        return "its cross-reference sections could not be followed (%s)" % type(e).__name__


def _check_cross_references(reports: _Duplicates, stale: Optional[str]) -> None:
    """Raise :class:`UnreadablePdf` when what pypdf read is not what the cross-reference
    data leads to: pypdf had to repair it, or read an object an incremental update freed
    or replaced (*stale*)."""
    if reports.repaired:
        raise UnreadablePdf("the PDF's cross-reference data is broken (pypdf had to repair "
                            "it: rebuild it by scanning the file, or search the file for an "
                            "object it does not lead to; viewers repair it their own way, or "
                            "cannot open it): what they show cannot be vouched for")
    if stale is not None:
        raise UnreadablePdf("the PDF's incremental updates read two ways: %s; what viewers "
                            "show cannot be vouched for" % stale)


def read_claims_showing(path: str, number: str
                        ) -> Tuple[PdfClaims, Optional[str], Optional[str]]:
    """:func:`read_claims`, and where the PDF shows *number*: ``"page N"`` (the first page
    whose text, as pypdf extracts it, holds it, spaces and case aside), ``"its bytes"``,
    or None; and why the pages' text could not be read (None when it was).  One read of
    the file and one pypdf reader for both (an anonymous paper's check)."""
    data = _read_file(path)
    readers: List[Any] = []
    with _quiet_pypdf() as reports:
        claims = _read_claims(data, reports, readers)
        shown, unread = _shows(readers[0], data, number)
        stale = _stale(data, readers)
    _check_cross_references(reports, stale)
    return claims, shown, unread


def _shows(reader: Any, data: bytes, number: str) -> Tuple[Optional[str], Optional[str]]:
    """(Where the PDF *data*, read by *reader*, shows *number*; why the pages' text could
    not be read): see :func:`read_claims_showing`."""
    unread: Optional[str] = None
    try:
        for i, page in enumerate(reader.pages, 1):
            if number in (page.extract_text() or "").upper().replace(" ", ""):
                return "page %d" % i, None
    except Exception as e:  # noqa: BLE001 -- said in the check, not hidden
        unread = "%s: %s" % (type(e).__name__, e)
    if number.encode("ascii") in data:
        return "its bytes", None
    return None, unread


def _info_keys(raw: Any) -> Tuple[Dict[str, str], List[str]]:
    """(The Pith keys of the Info dictionary *raw* with a text value, the Pith keys whose
    value is not text)."""
    info: Dict[str, str] = {}
    bad: List[str] = []
    if raw is not None:
        for key in PITH_KEYS:
            name = "/" + key
            if name in raw:
                value = text_value(raw[name])
                if value is None:
                    bad.append(key)
                else:
                    info[key] = value
    return info, bad


def _engines_read(data: bytes, page: Any, deadline: Optional[float]
                  ) -> Tuple[Optional[PageOne], Optional[str]]:
    """(Page 1 of *data* as the engines show it, None; or None and why it is not known)."""
    try:
        view = page_one(data, ink=BADGE_RE, meta=PITH_KEYS, glyphs=GLYPHS,
                        then=front_matter, deadline=deadline)
    except EngineFailed as e:
        return None, str(e)
    if "/Contents" in page and not any(v.words for v in view.views):
        # content that no engine reads any text from (undecodable, a bomb of white
        # space): whether the badge is there is not known; a page with no content at all
        # is only blank
        return None, ("page 1 has content, but neither %s shows any text in it"
                      % " nor ".join(v.engine.replace("pdfium", "PDFium") for v in view.views))
    return view, None


def _read_claims(data: bytes, duplicates: _Duplicates,
                 readers: Optional[List[Any]] = None,
                 deadline: Optional[float] = None) -> PdfClaims:
    """The claims of the PDF *data*, read with pypdf (see :func:`read_claims`); the
    reader is appended to *readers* when given."""
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if readers is not None:
            readers.append(reader)
        if reader.is_encrypted:
            raise UnreadablePdf("the PDF is encrypted: pith-tex reads only unencrypted "
                                "PDFs")
        info, bad = _info_keys(reader.metadata)
        page, pages = _first_page(reader)
    except UnreadablePdf:
        raise
    except Exception as e:  # pypdf raises many kinds on a broken file
        if re.search(rb"/Encrypt(?![A-Za-z0-9])", data[-4096:]):  # in a trailer
            raise UnreadablePdf("the PDF is encrypted: pith-tex reads only unencrypted "
                                "PDFs") from e
        raise UnreadablePdf("unreadable PDF (%s: %s)" % (type(e).__name__,
                                                          show(str(e), 80))) from e
    info_all: Union[Dict[str, List[str]], str]
    try:
        info_all = info_values(data, reader, PITH_KEYS)
    except Unreadable as e:
        info_all = str(e)
    except Exception as e:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        info_all = "%s: %s" % (type(e).__name__, show(str(e), 60))
    xmp = _xmp_claims(reader)
    if _pdf_problem(PdfClaims(info, pages, not_text=tuple(bad))) is not None:
        # nothing can be verified, and reading the page would be wasted (the claims
        # still tell a PDF that claims nothing: carries_pith)
        return PdfClaims(info, pages, None, None, tuple(bad), info_all, xmp)
    costly: List[str] = []
    refused = tuple(refusals(data, reader, costly))
    view: Optional[PageOne] = None
    page_error = None
    links: Tuple[str, ...] = ()
    areas: Union[Tuple[Link, ...], str] = ()
    if page is None:
        page_error = "the PDF has no pages"
    else:
        links = link_texts(page)
        areas = link_areas(page)
        unit = page.get("/UserUnit")
        if unit is not None and not (isinstance(unit, (int, float)) and float(unit) == 1.0):
            # Acrobat scales the page by it; PDFium and poppler draw it in points
            page_error = ("page 1 has /UserUnit %s: viewers differ in whether they scale the "
                          "page by it, so its size is not one thing" % show(str(unit), 20))
        elif costly:  # the engines are not asked to spend without end
            page_error = "not read by the engines, as %s" % costly[0]
        elif isinstance(xmp, str) and "could not be read" in xmp:
            # PDFium decodes the metadata stream as it opens the file, and aborts the
            # process when that takes more memory than it may have: the packet pypdf
            # could not read (a decompression bomb, say) is not handed to it
            page_error = "not read, as the XMP packet could not be (%s)" % xmp
        else:
            view, page_error = _engines_read(data, page, deadline)
    return PdfClaims(info, pages, view, page_error, tuple(bad), info_all, xmp, links,
                     tuple(duplicates.found), areas, refused,
                     None if view is None else facts(page))


def _xmp_claims(reader: Any) -> Union[Dict[str, List[str]], str, None]:
    """The ``pith:`` and ``dc:identifier`` values of the document's XMP packet (see
    :class:`PdfClaims`)."""
    try:
        stream = reader.trailer["/Root"].get("/Metadata")
        if stream is None:
            return None
        data = stream.get_object().get_data()
    except Exception as e:  # noqa: BLE001 -- a broken or odd metadata stream
        return "the XMP metadata stream could not be read (%s)" % type(e).__name__
    try:
        found = xmp_values(data)
    except Unreadable as e:
        return str(e)
    return found or None


def _pdf_problem(claims: PdfClaims) -> Optional[str]:
    """Why *claims* cannot be verified (the ``pdf`` check's error), or None."""
    info = claims.info
    if claims.not_text:
        return "%s is not a text string; %s" % (claims.not_text[0], _FETCH)
    if not info:
        return ("the PDF carries no Pith metadata (no PithNumber, PithURL, ... in its Info "
                "dictionary): was it compiled with \\usepackage{pith}? (With its anonymous "
                "option, or a class's review mode, it carries none by design: verify the "
                "version with the badge.)")
    state = info.get("PithVerification")
    if state == "unverified":
        return ("PithVerification is unverified: the PDF was compiled without a verified "
                "include (pith-number.tex); " + _FETCH)
    missing = [k for k in INCLUDE_KEYS if k not in info]
    if missing:
        if missing == ["PithRecord"]:
            return ("the PDF has no PithRecord (compiled with a pith.sty older than include "
                    "format 2?): update pith.sty, " + _FETCH)
        return "the PDF lacks the Pith key%s %s; %s" % (
            "s" if len(missing) > 1 else "", ", ".join(missing), _FETCH)
    if state not in ("verified", "verified-unsigned"):
        return ("PithVerification is %s, not verified or verified-unsigned"
                % show(state))
    return None


def _canonical_check(raw: str, record: Any) -> Check:
    """``PithRecord`` against the canonical bytes of the record it parses to."""
    want = canonical.canonical_json(record).decode("utf-8")
    if raw == want:
        return Check("canonical", OK, "PithRecord is the canonical JSON of its record "
                     "(%d bytes)" % len(want.encode("utf-8")))
    if raw.strip() != raw:
        why = "white space around it"
    else:
        keys: List[str] = []

        def pairs(items: List[Tuple[str, Any]]) -> Dict[str, Any]:
            names = [k for k, _ in items]
            keys.extend(k for k in set(names) if names.count(k) > 1)
            return dict(items)

        json.loads(raw, object_pairs_hook=pairs)
        if keys:
            why = "the key %s twice" % show(sorted(keys)[0])
        else:
            at = next((i for i, (a, b) in enumerate(zip(raw, want, strict=False)) if a != b),
                      min(len(raw), len(want)))
            why = "other formatting (first difference at character %d)" % at
    return Check("canonical", FAIL, "PithRecord is not byte-canonical JSON (%s): "
                 "sha256(PithRecord) is not the digest it claims" % why)


def _state_check(state: str, signed: bool, out: Outcome) -> Check:
    """``PithVerification`` against the signature the PDF carries."""
    sig = next((c for c in out.checks if c.name == "signature"), None)
    if state == "verified":
        if not signed:
            return Check("state", FAIL, "PithVerification is verified, but the PDF carries "
                         "no PithKeyID/PithSignature")
        if out.signature == "verified":
            return Check("state", OK, "PithVerification is verified: the signature verifies")
        status = sig.status if sig is not None and sig.status in (FAIL, ERROR) else FAIL
        return Check("state", status, "PithVerification is verified, but the signature was "
                     "not verified")
    if signed:
        return Check("state", FAIL, "PithVerification is verified-unsigned, but the PDF "
                     "carries a signature (PithKeyID/PithSignature)")
    return Check("state", OK, "PithVerification is verified-unsigned (the metadata's "
                 "spelling of checked): the PDF carries no signature")


def _info_check(claims: PdfClaims) -> Check:
    """One value per Pith key across every Info dictionary of the file."""
    if isinstance(claims.info_all, str):
        return Check("info", ERROR, "could not read every Info dictionary of the file (%s): "
                     "another value for a Pith key may be hidden" % claims.info_all)
    for key in PITH_KEYS:
        values = claims.info_all.get(key, [])
        distinct = list(dict.fromkeys(values))
        if len(distinct) > 1:
            return Check("info", FAIL, "the PDF gives %s %d values (duplicate keys, two "
                         "/Info entries or an incremental update): %s and %s; readers "
                         "differ in which they show" % (key, len(distinct), show(distinct[0]),
                                                        show(distinct[1])))
        if key in claims.info and distinct and distinct[0] != claims.info[key]:
            return Check("info", FAIL, "the PDF's Info dictionary gives %s as %s, but pypdf "
                         "reads %s" % (key, show(distinct[0]), show(claims.info[key])))
    if not claims.info_all.get("PithNumber"):
        return Check("info", ERROR, "the raw Info dictionaries could not be located in the "
                     "file: another value for a Pith key may be hidden")
    if claims.page is not None:
        problem = meta_problem(claims.page, claims.info, PITH_KEYS)
        if problem is not None:
            return Check("info", FAIL, "the viewers read another Info dictionary than "
                         "pith-tex: %s" % problem)
        return Check("info", OK, "every Info dictionary in the file gives each Pith key one "
                     "value, and %s read the same values"
                     % " and ".join(v.engine.replace("pdfium", "PDFium")
                                    for v in claims.page.views))
    return Check("info", OK, "every Info dictionary in the file gives each Pith key one "
                 "value")


def verify_claims(path: str, claims: PdfClaims, *, require_signature: bool = False,
                  keyring: Optional[Keyring] = None) -> FileOutcome:
    """The checks of a PDF whose claims have been read (see the module docstring)."""
    info = claims.info
    display = info.get("PithNumber", "")
    m = _DISPLAY_RE.match(display)
    number = m.group(2) if m else None
    year = int(m.group(1)) if m and m.group(1) else None
    problem = _pdf_problem(claims)
    if problem is not None:
        return FileOutcome(path, "pdf", Outcome(number, [Check("pdf", ERROR, problem)]))
    raw = info["PithRecord"]
    if len(raw) > MAX_RECORD_BYTES:
        return FileOutcome(path, "pdf", Outcome(number, [Check(
            "canonical", FAIL, "PithRecord is larger than %d KiB: not the canonical JSON of "
            "any record (white space or padding around it?)" % (MAX_RECORD_BYTES >> 10))]))
    record, why = _record_of(raw)
    if why is not None:
        return FileOutcome(path, "pdf", Outcome(number, [Check(
            "pdf", ERROR, "PithRecord is %s; %s" % (why, _FETCH))]))
    key_id, sig_hex = info.get("PithKeyID"), info.get("PithSignature")
    out = verify_embedded("the PDF", display, info["PithSHA256"], record, key_id, sig_hex,
                          require_signature=require_signature, keyring=keyring)
    signed = key_id is not None or sig_hex is not None
    checks = [_pdf_check(claims, signed), _canonical_check(raw, record), *out.checks]
    if claims.refused:  # what page 1 shows depends on the reader: nothing to vouch for
        more = len(claims.refused) - 1
        checks.insert(1, Check("structure", ERROR, "%s%s; what readers see cannot be vouched "
                               "for" % (claims.refused[0], " (and %d more)" % more if more
                                        else "")))
    number = out.number or number
    checks.append(_url_check(info["PithURL"], number, display))
    checks.append(_arxiv_check(info["PithArXiv"], out))
    checks.append(_state_check(info["PithVerification"], signed, out))
    checks.append(_info_check(claims))
    checks.extend(_page_checks(claims, number, year))
    if claims.xmp is not None:
        checks.append(_xmp_check(claims.xmp, info, number, year))
    if out.fields is not None:  # is the PDF the record's paper? (issue 20, pdftitle)
        checks.extend(pdf_title_checks(info.get("PithTitle"), number,
                                       record["metadata"]["title_canon_sha256"],
                                       claims.page, claims.page_error,
                                       accepted=info.get("PithAcceptedTitle")))
    return FileOutcome(path, "pdf", out._replace(number=number, checks=checks))


def _record_of(raw: str) -> Tuple[Any, Optional[str]]:
    """(The record PithRecord *raw* holds, None; or None and why it holds none)."""
    try:
        record = canonical.loads_strict(raw)
    except canonical.LoneSurrogate as e:
        return None, "not JSON (%s)" % e.msg
    except ValueError as e:
        return None, "not JSON (%s)" % e.__class__.__name__
    except RecursionError:
        return None, "not JSON (nested too deeply)"
    return record, None if type(record) is dict else "not a JSON object"


def _pdf_check(claims: PdfClaims, signed: bool) -> Check:
    """The ``pdf`` line: the pages and the kind of include, or a key written twice."""
    if not claims.duplicates:
        return Check("pdf", OK, "%d page%s, with the Pith metadata of a %s include"
                     % (claims.pages, "" if claims.pages == 1 else "s",
                        "signed" if signed else "verified, unsigned"))
    m = re.search(r"byte (0x[0-9a-f]+) for key (\S+)", claims.duplicates[0])
    where = ("%s at byte %s" % (show(m.group(2), 40), m.group(1)) if m
             else show(claims.duplicates[0], 100))
    more = len(claims.duplicates) - 1
    return Check("pdf", FAIL, "the PDF writes a key twice in one dictionary (%s%s): "
                 "pypdf reads the first value, poppler and viewers the last, so what "
                 "they show may differ from what was checked"
                 % (where, ", and %d more" % more if more else ""))


def _url_check(url: str, number: Optional[str], display: str) -> Check:
    if number is None:
        return Check("url", ERROR, "not checked: PithNumber %s is not pith:YYYY:NUMBER"
                     % show(display))
    if url == URL_BASE + number:
        return Check("url", OK, "PithURL is %s" % url)
    return Check("url", FAIL, "PithURL is %s, not %s%s" % (show(url, 80), URL_BASE, number))


def _arxiv_check(arxiv: str, out: Outcome) -> Check:
    if out.fields is None:
        return Check("arxiv", ERROR, "not checked: the record is unreadable")
    want = "%sv%d" % (out.fields.arxiv_id, out.fields.arxiv_version)
    if arxiv == want:
        return Check("arxiv", OK, "PithArXiv is %s, as in the record" % want)
    return Check("arxiv", FAIL, "PithArXiv is %s, but the record is %s" % (show(arxiv), want))


def _page_checks(claims: PdfClaims, number: Optional[str], year: Optional[int]
                 ) -> List[Check]:
    """What page 1 shows: the viewers, the badge, the QR code, the print view."""
    if claims.page is None:
        why = "not checked: could not read page 1 (%s)" % claims.page_error
        return [Check("badge", ERROR, why), Check("qr", ERROR, why)]
    if number is None:
        return [viewers_check(claims.page),
                Check("badge", ERROR, "not checked: no Pith Number to look for"),
                Check("qr", ERROR, "not checked: no Pith Number to look for")]
    return [viewers_check(claims.page),
            badge_check(claims.page, number, year, claims.links, claims.areas),
            qr_check(claims.page, number, claims.areas),
            print_check(claims.page, claims.printing, number)]


def _xmp_check(xmp: Union[Dict[str, List[str]], str], info: Dict[str, str],
               number: Optional[str], year: Optional[int]) -> Check:
    if isinstance(xmp, str):
        return Check("xmp", ERROR, "not checked: %s" % xmp)
    for name, values in xmp.items():
        if name == "dc:identifier":  # a bag of identifiers (DOI, ...): see below
            continue
        distinct = list(dict.fromkeys(values))
        label = name if ":" in name else "pith:" + next(
            (p for p, k in XMP_KEYS.items() if k == name), name)
        if name.startswith("pith:"):
            return Check("xmp", FAIL, "the XMP metadata has %s, which pith.sty never writes "
                         "(value %s)" % (name, show(distinct[0] if distinct else "")))
        if len(distinct) > 1:
            return Check("xmp", FAIL, "the XMP metadata gives %s %d values: %s and %s"
                         % (label, len(distinct), show(distinct[0]), show(distinct[1])))
    for ident in xmp.get("dc:identifier", []):
        others = other_numbers(ident, (), number or "", year)
        if others:
            return Check("xmp", FAIL, "XMP dc:identifier is %s, another Pith Number than "
                         "the metadata's" % show(ident, 80))
    if not any(k in xmp for k in XMP_KEYS.values()):
        return Check("xmp", OK, "the XMP metadata has no pith properties, and no "
                     "dc:identifier naming another Pith Number")
    for prop, key in XMP_KEYS.items():
        if key in info and key not in xmp:
            return Check("xmp", FAIL, "the XMP metadata has pith properties but no pith:%s "
                         "(Info has %s)" % (prop, key))
        if key in xmp and xmp[key][0] != info.get(key):
            return Check("xmp", FAIL, "XMP pith:%s is %s, but Info %s is %s"
                         % (prop, show(xmp[key][0]), key, show(info.get(key))))
    return Check("xmp", OK, "the XMP metadata's pith properties equal the Info keys, one "
                 "value each")


def verify_pdf(path: str, *, require_signature: bool = False,
               keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the Pith claims of the PDF at *path* (kind ``"pdf"``): the file read, then
    :func:`verify_pdf_data`."""
    try:
        data = _read_file(path)
    except UnreadablePdf as e:
        return FileOutcome(path, "pdf", None, str(e))
    return verify_pdf_data(data, path, require_signature=require_signature, keyring=keyring)


def verify_pdf_data(data: bytes, name: str, *, deadline: Optional[float] = None,
                    require_signature: bool = False,
                    keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the Pith claims of the PDF *data* (reported as *name*; kind ``"pdf"``).

    A file that is not a readable PDF gives an outcome-less :class:`FileOutcome` (exit 3);
    a PDF without the metadata of a verified include a single ``pdf`` error (exit 3).
    *keyring* (library API only) replaces the pinned keys; *deadline*: see
    :func:`read_claims_data`.
    """
    return pdf_outcome(data, name, deadline=deadline, require_signature=require_signature,
                       keyring=keyring)[0]


def pdf_outcome(data: bytes, name: str, *, deadline: Optional[float] = None,
                require_signature: bool = False,
                keyring: Optional[Keyring] = None) -> Tuple[FileOutcome, bool]:
    """:func:`verify_pdf_data`'s outcome, and whether the PDF is one that makes no Pith
    claim at all (not :func:`carries_pith`; a file that cannot be read as a PDF is not:
    its outcome says what it is).  ``verify DIR`` and an archive list a PDF with no claim
    apart, decided from the same single reading."""
    try:
        claims = read_claims_data(data, deadline=deadline)
    except UnreadablePdf as e:
        return FileOutcome(name, "pdf", None, str(e)), False
    return (verify_claims(name, claims, require_signature=require_signature, keyring=keyring),
            not carries_pith(claims))
