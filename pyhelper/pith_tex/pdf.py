"""Reading the Pith claims of a compiled PDF, and ``pith-tex verify paper.pdf``.

``pith.sty`` with a verified include writes its claims into the PDF's Info dictionary
(README, "PDF metadata written by pith.sty"): ``PithNumber``, ``PithURL``,
``PithVerification``, ``PithSHA256``, ``PithArXiv``, ``PithRecord`` (the canonical JSON of
the record) and, when the receipt was signed, ``PithKeyID`` and ``PithSignature``.  The
record travels with its own claims, as in an include, so the record, hash, derivation,
year and signature checks are those of :func:`pith_tex.signatures.verify_embedded`
(``PithRecord`` is parsed and re-serialised, never hashed as received).  Around them:

``pdf``
    the file is a complete, unencrypted PDF that pypdf reads, and it carries the keys of
    a verified include (error otherwise: nothing can be decided, exit 3).
``url``
    ``PithURL`` is ``https://pith.science/pith/NUM`` for the number of ``PithNumber``.
``arxiv``
    ``PithArXiv`` is the record's ``source.id`` + ``v`` + ``source.version``.
``state``
    ``PithVerification`` agrees with the signature: ``verified`` with a signature that
    verifies, ``verified-unsigned`` with none.
``badge``
    the text of page 1 shows the same ``pith:YYYY:NUM`` (or ``pith:NUM``) as the
    metadata; another number is a failure, none (the ``hide`` option) a warning.
``xmp`` (only when the PDF's XMP metadata has ``pith:`` properties, as pith.sty writes
    them under ``\\DocumentMetadata``)
    every ``pith:`` property equals its Info key, and none is missing: a viewer that shows
    the XMP must not see another number than the one verified.

pypdf is imported inside the functions: ``pith-tex verify rec.json`` never pays for it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import warnings
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

from .errors import show
from .identifier import URL_BASE
from .checks import Check, ERROR, FAIL, FileOutcome, OK, Outcome, WARN
from .documents import PDF_MAGIC

if TYPE_CHECKING:
    from .keys import Keyring

#: The Info keys pith.sty writes, in the README's order.
PITH_KEYS = ("PithNumber", "PithURL", "PithVerification", "PithSHA256", "PithArXiv",
             "PithRecord", "PithKeyID", "PithSignature")
#: The keys of a PDF compiled with a verified include (signed or not).
INCLUDE_KEYS = PITH_KEYS[:6]
#: Larger files are refused unread (a paper is a few MiB; pypdf holds the whole file).
MAX_PDF_BYTES = 256 * 1024 * 1024
_HEAD = 1024  # the header may follow up to 1 KiB of junk (PDF 32000-1, annex H)
_TAIL = 1024  # %%EOF must be in the last 1 KiB

_DISPLAY_RE = re.compile(r"pith:(?:([0-9]{4}):)?([A-Z2-7]{26})\Z")
# The visible badge in page 1's text, with every whitespace removed first (extractors
# may split the monospaced string or put spaces between its glyphs).
_BADGE_RE = re.compile(r"pith:(?:([0-9]{4}):)?([A-Z2-7]{26})")
_FETCH = "run pith-tex fetch and recompile"


def _has_header(head: bytes) -> bool:
    """*head* (the first bytes of a file named ``.pdf``) holds the PDF header ``%PDF-``
    within its first KiB.  (A file with another name is read as a PDF only when it starts
    with the header: :func:`pith_tex.files.verify_file`.)"""
    return PDF_MAGIC in head[:_HEAD]


class PdfClaims(NamedTuple):
    """What a PDF says about its Pith Number: the Pith Info keys with a text value (absent
    ones missing from *info*), the text of page 1 (None when it could not be extracted)
    and the number of pages."""

    info: Dict[str, str]
    page1_text: Optional[str]
    pages: int
    text_error: Optional[str] = None
    not_text: Tuple[str, ...] = ()  # Pith keys whose value is not a text string
    #: The ``pith:`` properties of the XMP metadata by Info key name; None when the PDF
    #: has no XMP with pith properties; a str when its XMP could not be parsed.
    xmp: Union[Dict[str, str], str, None] = None


class UnreadablePdf(Exception):
    """The file is not a PDF pith-tex can read: not a PDF, truncated, encrypted, broken."""


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs (and warns about) every oddity it repairs, on stderr by default; the
    report has its own lines, so silence it while reading."""
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        log.setLevel(level)


def _text(value: Any) -> Optional[str]:
    """A PDF string value as a plain str, or None for any other object."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):  # a string pypdf could not decode as text
        try:
            return value.decode("ascii")
        except UnicodeDecodeError:
            return None
    return None


def _check_file(path: str) -> None:
    """Cheap checks before pypdf reads the file: size, header, end marker."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_PDF_BYTES:
                raise UnreadablePdf("larger than %d MiB" % (MAX_PDF_BYTES >> 20))
            head = f.read(_HEAD)
            if not _has_header(head):
                raise UnreadablePdf("not a PDF (no %PDF- header)")
            f.seek(max(0, size - _TAIL))
            tail = f.read(_TAIL)
    except OSError as e:
        raise UnreadablePdf("cannot read: %s" % (e.strerror or e))
    if b"%%EOF" not in tail:
        raise UnreadablePdf("not a complete PDF (no %%EOF at the end): truncated?")


def read_claims(path: str) -> PdfClaims:
    """The Pith claims of the PDF at *path*.  Raises :class:`UnreadablePdf` (with a
    one-line reason) for a file that is not a complete, readable, unencrypted PDF."""
    _check_file(path)
    with _quiet_pypdf():
        try:
            from pypdf import PdfReader

            reader = PdfReader(path)
            if reader.is_encrypted:
                raise UnreadablePdf("the PDF is encrypted: pith-tex reads only unencrypted "
                                    "PDFs")
            raw = reader.metadata
            info: Dict[str, str] = {}
            bad: List[str] = []
            if raw is not None:
                for key in PITH_KEYS:
                    name = "/" + key
                    if name in raw:
                        value = _text(raw[name])
                        if value is None:
                            bad.append(key)
                        else:
                            info[key] = value
            pages = len(reader.pages)
        except UnreadablePdf:
            raise
        except Exception as e:  # pypdf raises many kinds on a broken file
            raise UnreadablePdf("unreadable PDF (%s: %s)" % (type(e).__name__,
                                                              show(str(e), 80)))
        xmp = _xmp_claims(reader)
        text: Optional[str] = None
        text_error = None
        if pages:
            try:
                text = reader.pages[0].extract_text()
            except Exception as e:
                text_error = "%s: %s" % (type(e).__name__, show(str(e), 60))
    return PdfClaims(info, text, pages, text_error, tuple(bad), xmp)


#: pith.sty's XMP namespace and its properties, by the Info key each mirrors.
XMP_NS = "https://pith.science/ns/pith/1.0/"
XMP_KEYS = {"number": "PithNumber", "url": "PithURL", "verification": "PithVerification",
            "sha256": "PithSHA256", "record": "PithRecord", "keyid": "PithKeyID",
            "signature": "PithSignature"}


def _xmp_claims(reader: Any) -> Union[Dict[str, str], str, None]:
    """The ``pith:`` properties of the document's XMP packet (see :class:`PdfClaims`)."""
    try:
        stream = reader.trailer["/Root"].get("/Metadata")
        if stream is None:
            return None
        data = stream.get_object().get_data()
    except Exception as e:  # a broken or odd metadata stream
        return "unreadable XMP stream (%s)" % type(e).__name__
    if XMP_NS.encode("ascii") not in data:
        return None
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return "the XMP packet is not well-formed XML (%s)" % e
    found: Dict[str, str] = {}
    for el in root.iter():
        if el.tag.startswith("{%s}" % XMP_NS):
            name = el.tag[len(XMP_NS) + 2:]
            if name in XMP_KEYS and len(el) == 0:
                found[XMP_KEYS[name]] = (el.text or "").strip()
    return found or None


def visible_numbers(text: str) -> List[Tuple[Optional[int], str]]:
    """Every ``pith:YYYY:NUM`` / ``pith:NUM`` in *text*, as ``(year or None, NUM)``."""
    squeezed = "".join(text.split())
    return [(int(m.group(1)) if m.group(1) else None, m.group(2))
            for m in _BADGE_RE.finditer(squeezed)]


def _pdf_problem(claims: PdfClaims) -> Optional[str]:
    """Why *claims* cannot be verified (the ``pdf`` check's error), or None."""
    info = claims.info
    if claims.not_text:
        return "%s is not a text string; %s" % (claims.not_text[0], _FETCH)
    if not info:
        return ("the PDF carries no Pith metadata (no PithNumber, PithURL, ... in its Info "
                "dictionary): was it compiled with \\usepackage{pith}?")
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


def _badge_check(claims: PdfClaims, number: Optional[str], year: Optional[int]) -> Check:
    if claims.page1_text is None:
        why = ("the PDF has no pages" if not claims.pages else
               "could not extract the text of page 1 (%s)" % claims.text_error)
        return Check("badge", WARN, why + ", so the visible badge was not compared")
    seen = visible_numbers(claims.page1_text)
    if not seen:
        return Check("badge", WARN, "page 1 shows no pith:NUMBER badge (hide option?): "
                     "only the metadata was checked")
    for y, n in seen:
        if n == number and (y is None or year is None or y == year):
            return Check("badge", OK, "page 1 shows %s" % _display(y, n))
    y, n = seen[0]
    return Check("badge", FAIL, "page 1 shows %s, but the metadata says %s"
                 % (_display(y, n), _display(year, number or "?")))


def _display(year: Optional[int], number: str) -> str:
    return "pith:%d:%s" % (year, number) if year is not None else "pith:%s" % number


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
    return Check("state", OK, "PithVerification is verified-unsigned: the PDF carries no "
                 "signature")


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
    try:
        record = json.loads(info["PithRecord"])
        why = None if type(record) is dict else "not a JSON object"
    except ValueError as e:
        why = "not JSON (%s)" % e.__class__.__name__
    if why is not None:
        return FileOutcome(path, "pdf", Outcome(number, [Check(
            "pdf", ERROR, "PithRecord is %s; %s" % (why, _FETCH))]))
    from .signatures import verify_embedded

    key_id, sig_hex = info.get("PithKeyID"), info.get("PithSignature")
    out = verify_embedded("the PDF", display, info["PithSHA256"], record, key_id, sig_hex,
                          require_signature=require_signature, keyring=keyring)
    signed = key_id is not None or sig_hex is not None
    checks = [Check("pdf", OK, "%d page%s, with the Pith metadata of a %s include"
                    % (claims.pages, "" if claims.pages == 1 else "s",
                       "signed" if signed else "verified, unsigned")), *out.checks]
    number = out.number or number
    url = info["PithURL"]
    if number is None:
        checks.append(Check("url", ERROR, "not checked: PithNumber %s is not pith:YYYY:NUMBER"
                            % show(display)))
    elif url == URL_BASE + number:
        checks.append(Check("url", OK, "PithURL is %s" % url))
    else:
        checks.append(Check("url", FAIL, "PithURL is %s, not %s%s"
                            % (show(url, 80), URL_BASE, number)))
    if out.fields is None:
        checks.append(Check("arxiv", ERROR, "not checked: the record is unreadable"))
    else:
        want = "%sv%d" % (out.fields.arxiv_id, out.fields.arxiv_version)
        if info["PithArXiv"] == want:
            checks.append(Check("arxiv", OK, "PithArXiv is %s, as in the record" % want))
        else:
            checks.append(Check("arxiv", FAIL, "PithArXiv is %s, but the record is %s"
                                % (show(info["PithArXiv"]), want)))
    checks.append(_state_check(info["PithVerification"], signed, out))
    checks.append(_badge_check(claims, number, year))
    if claims.xmp is not None:
        checks.append(_xmp_check(claims.xmp, info))
    return FileOutcome(path, "pdf", out._replace(number=number, checks=checks))


def _xmp_check(xmp: Union[Dict[str, str], str], info: Dict[str, str]) -> Check:
    if isinstance(xmp, str):
        return Check("xmp", FAIL, xmp + ", but it names pith properties")
    for prop, key in XMP_KEYS.items():
        if key in info and key not in xmp:
            return Check("xmp", FAIL, "the XMP metadata has pith properties but no pith:%s "
                         "(Info has %s)" % (prop, key))
        if key in xmp and xmp[key] != info.get(key):
            return Check("xmp", FAIL, "XMP pith:%s is %s, but Info %s is %s"
                         % (prop, show(xmp[key]), key, show(info.get(key))))
    return Check("xmp", OK, "the XMP metadata's pith properties equal the Info keys")


def verify_pdf(path: str, *, require_signature: bool = False,
               keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the Pith claims of the PDF at *path* (kind ``"pdf"``).

    A file that is not a readable PDF gives an outcome-less :class:`FileOutcome` (exit 3);
    a PDF without the metadata of a verified include a single ``pdf`` error (exit 3).
    *keyring* (library API only) replaces the pinned keys.
    """
    try:
        claims = read_claims(path)
    except UnreadablePdf as e:
        return FileOutcome(path, "pdf", None, str(e))
    return verify_claims(path, claims, require_signature=require_signature, keyring=keyring)
