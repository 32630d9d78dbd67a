"""The canonical record: its JSON serialisation, its digest, the number derived from it,
and the shape of a schema-1.0 record (spec section 2).

``number_from_digest`` re-encodes the digest and the result is compared *as a string*
with the number: base32 decoding accepts several spellings of the last character, so a
number is never decoded.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Mapping, NamedTuple

from ..errors import CouldNotCheck, show

# Patterns of the include table (README, "The include format").  Every value written to
# the include is matched against one of these right before it is written.
NUMBER_RE = re.compile(r"[A-Z2-7]{26}\Z")
YEAR_RE = re.compile(r"[0-9]{4}\Z")
SHA256_RE = re.compile(r"[0-9a-f]{64}\Z")
ARXIV_ID_RE = re.compile(r"(?:[0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})\Z")
ARXIV_VERSION_RE = re.compile(r"[1-9][0-9]{0,3}\Z")
KEY_ID_RE = re.compile(r"[a-z0-9-]{1,64}\Z")
# Format 2 carries the whole record and the receipt's signature.
CATEGORY_RE = re.compile(r"[a-z-]{1,20}(?:\.[A-Za-z-]{1,20})?\Z")
LICENSE_RE = re.compile(r"(?:https?://[A-Za-z0-9./_-]{1,200})?\Z")
SIGNATURE_HEX_RE = re.compile(r"[0-9a-f]{128}\Z")
#: At most this many cross-lists fit the include (arXiv allows far fewer in practice).
MAX_CROSS_CATS = 16

SUBMITTED_AT_RE = re.compile(r"([0-9]{4})-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\Z")
SCHEMA_VERSION = "1.0"

_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def _not_json(token: str) -> Any:
    raise ValueError("%s is not JSON" % token)


def _finite(text: str) -> float:
    value = float(text)
    if value - value != 0:  # inf or nan: 1e999 overflows
        raise ValueError("the number %s is too large for JSON" % text[:20])
    return value


_decode = json.JSONDecoder(parse_constant=_not_json, parse_float=_finite).decode
#: A ``\\uD800``-``\\uDFFF`` escape: the one way JSON text can hold a lone surrogate.
_SURROGATE_ESCAPE_RE = re.compile(r"\\[uU][dD][89a-fA-F]")


class LoneSurrogate(ValueError):
    """JSON text holding a lone surrogate escape (``"\\ud800"``)."""

    msg = "a lone surrogate escape: \\uD800-\\uDFFF not in a pair"

    def __init__(self) -> None:
        super().__init__(self.msg)


def loads_strict(text: str) -> Any:
    """``json.loads`` of a str, strictly JSON (RFC 8259): ``NaN``, ``Infinity`` and numbers
    that overflow to them are refused (ValueError); Python accepts them, and their
    canonical text (``NaN``) is not JSON, so no other reader would hash the same bytes.
    A lone surrogate escape is refused too (:class:`LoneSurrogate`): no UTF-8 text, so no
    canonical JSON, title hash or TeX include, can carry it."""
    value = _decode(text)
    if _SURROGATE_ESCAPE_RE.search(text) is not None:  # rare: pay for the walk only then
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise LoneSurrogate() from None
    return value


def canonical_json(record: Any) -> bytes:
    """``json.dumps(rec, sort_keys=True, separators=(',',':'), ensure_ascii=False)`` as UTF-8."""
    return _dumps(record).encode("utf-8")


def digest(record: Any) -> bytes:
    """The 32-byte SHA-256 of the canonical JSON of *record*."""
    return hashlib.sha256(canonical_json(record)).digest()


def canonical_text(value: Any) -> str:
    """:func:`canonical_json` before UTF-8 encoding: for callers that assemble a document
    from the canonical texts of its parts (:mod:`pith_tex.citations.record`)."""
    return _dumps(value)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of *data*, as 64 lower-case hex digits."""
    return hashlib.sha256(data).hexdigest()


#: The RFC 4648 base32 alphabet: the characters of a Pith Number.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_HEX = "0123456789abcdef"


def is_number(value: object) -> bool:
    """``NUMBER_RE`` matches *value* (a str), without the regex engine (hot path)."""
    return type(value) is str and len(value) == 26 and not value.strip(ALPHABET)


def is_sha256_hex(value: object) -> bool:
    """``SHA256_RE`` matches *value* (a str), without the regex engine (hot path)."""
    return type(value) is str and len(value) == 64 and not value.strip(_HEX)

_PAIRS = [a + b for a in ALPHABET for b in ALPHABET]  # 10 bits -> 2 characters
_SHIFTS = tuple(range(150, 20, -10))  # 13 pairs = the first 26 characters of 160 bits


def number_from_digest(digest_bytes: bytes) -> str:
    """``base32(digest)[:26]``: the Pith Number of a digest (RFC 4648 alphabet).

    Equal to ``base64.b32encode(digest_bytes)[:26]`` (the tests check it against the
    standard library), computed from the first 20 bytes with a table because the stdlib
    encoder is pure Python and this is the hot path of ``verify DIR``.  *digest_bytes*
    is a SHA-256 digest (32 bytes); at least 20 are needed.
    """
    n = int.from_bytes(digest_bytes[:20], "big")
    p = _PAIRS
    return "".join([p[(n >> s) & 1023] for s in _SHIFTS])


class RecordFields(NamedTuple):
    """The fields of a validated schema-1.0 record that the include and the checks use."""

    arxiv_id: str
    arxiv_version: int
    submitted_at: str
    year: int


_METADATA_KEYS = frozenset(
    ("abstract_canon_sha256", "cross_cats_sorted", "license", "primary_cat",
     "submitted_at", "title_canon_sha256")
)
_TOP_KEYS = frozenset(("metadata", "schema_version", "source"))
_SOURCE_KEYS = frozenset(("id", "kind", "version"))


def _bad(msg: str) -> CouldNotCheck:
    return CouldNotCheck("canonical_record is not a schema 1.0 record: " + msg)


def validate_record(record: Any) -> RecordFields:
    """Check that *record* has exactly the schema-1.0 shape; return the fields we use.

    Raises :class:`CouldNotCheck` (exit 3) naming the first problem.  The ``source.id``
    and ``source.version`` must also match the include patterns, so a record that passes
    can always be written to an include.
    """
    if type(record) is not dict:
        raise _bad("not a JSON object")
    if record.keys() != _TOP_KEYS:
        raise _bad(_keys_problem(record, _TOP_KEYS, ""))
    if record["schema_version"] != SCHEMA_VERSION:
        raise _bad("schema_version is %s, this pith-tex knows 1.0; update pith-tex"
                   % show(record["schema_version"]))
    meta = record["metadata"]
    if type(meta) is not dict:
        raise _bad("metadata is not an object")
    if meta.keys() != _METADATA_KEYS:
        raise _bad(_keys_problem(meta, _METADATA_KEYS, "metadata."))
    for key in ("abstract_canon_sha256", "title_canon_sha256"):
        v = meta[key]
        if not is_sha256_hex(v):
            raise _bad("metadata.%s is not 64 lower-case hex digits: %s" % (key, show(v)))
    cats = meta["cross_cats_sorted"]
    if type(cats) is not list or any(type(c) is not str for c in cats):
        raise _bad("metadata.cross_cats_sorted is not a list of strings")
    for key in ("license", "primary_cat"):
        if type(meta[key]) is not str:
            raise _bad("metadata.%s is not a string" % key)
    submitted = meta["submitted_at"]
    m = SUBMITTED_AT_RE.match(submitted) if type(submitted) is str else None
    if not m:
        raise _bad("metadata.submitted_at is not YYYY-MM-DDTHH:MM:SSZ: %s" % show(submitted))
    source = record["source"]
    if type(source) is not dict:
        raise _bad("source is not an object")
    if source.keys() != _SOURCE_KEYS:
        raise _bad(_keys_problem(source, _SOURCE_KEYS, "source."))
    if source["kind"] != "arxiv":
        raise _bad("source.kind is %s, not \"arxiv\"" % show(source["kind"]))
    sid = source["id"]
    if type(sid) is not str or not ARXIV_ID_RE.match(sid):
        raise _bad("source.id is not an arXiv identifier: %s" % show(sid))
    version = source["version"]
    if type(version) is not int or not 1 <= version <= 9999:  # = ARXIV_VERSION_RE
        raise _bad("source.version is not an integer 1-9999: %s" % show(version))
    return RecordFields(sid, version, submitted, int(m.group(1)))


def _keys_problem(obj: Mapping[str, Any], expected: "frozenset[str]", prefix: str) -> str:
    missing = sorted(expected - obj.keys())
    if missing:
        return "missing field %s%s" % (prefix, missing[0])
    extra = sorted(obj.keys() - expected)
    return "unexpected field %s" % show(prefix + extra[0])


_WS_RE = re.compile(r"\s+")


def canon_sha256(title: str) -> str:
    """``title_canon_sha256`` of a title as typed on arXiv (pith-spec section 2): whitespace
    collapsed, lower-cased, SHA-256 of the UTF-8.  Defined beside the record it goes into,
    so that the include, which checks a title against it, does not import the title
    comparison (:mod:`pith_tex.title`)."""
    return hashlib.sha256(_WS_RE.sub(" ", title).strip().lower().encode("utf-8")).hexdigest()
