"""The two resolver documents pith-tex reads, checked for shape (spec section 4).

* resolver JSON (``/pith/NUM.json``): ``record_type: "pith_number_record"``
* bundle (``/pith/NUM/bundle.json``): ``bundle_type: "pith_open_graph_bundle"``

Only the fields the checks use are required; everything else (titles, authors, ...) is
untrusted text that is never looked at.  A missing or mistyped required field raises
:class:`CouldNotCheck` (exit 3) naming the field.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional

from ..errors import CouldNotCheck, show
from ..safeio import MAX_JSON, read_regular

RECORD_TYPE = "pith_number_record"
BUNDLE_TYPE = "pith_open_graph_bundle"
#: The largest document read, from disk or over HTTP (1 MiB; the caps live in safeio).
MAX_BODY = MAX_JSON


class RecordDoc(NamedTuple):
    pith_number: str
    canonical_sha256: str
    canonical_record: Any


class Receipt(NamedTuple):
    kind: Any
    key_id: Any
    algorithm: Any
    signature_b64: Any


class BundleDoc(NamedTuple):
    pith_number: str
    canonical_sha256: str
    canonical_record: Any
    receipts: List[Receipt]


def kind_of(obj: Any) -> Optional[str]:
    """``"record"``, ``"bundle"`` or ``None`` for a parsed JSON document."""
    if type(obj) is dict:
        if obj.get("record_type") == RECORD_TYPE:
            return "record"
        if obj.get("bundle_type") == BUNDLE_TYPE:
            return "bundle"
    return None


def _need(obj: Dict[str, Any], key: str, typ: type, what: str, where: str) -> Any:
    if key not in obj:
        raise CouldNotCheck("%s: %s has no %s field" % (where, what, key))
    value = obj[key]
    if type(value) is not typ:
        raise CouldNotCheck("%s: %s field %s is not a %s" % (where, what, key, typ.__name__ if typ is not dict else "JSON object"))
    return value


def _need_type(obj: Any, key: str, expected: str, where: str) -> None:
    """A JSON object whose *key* names the document type we expect."""
    if type(obj) is not dict:
        raise CouldNotCheck("%s: not a JSON object" % where)
    if obj.get(key) != expected:
        raise CouldNotCheck("%s: %s is %s, expected %s" % (where, key, show(obj.get(key)), expected))


def parse_record_doc(obj: Any, where: str) -> RecordDoc:
    """Shape-check resolver JSON; *where* (a URL or path) prefixes every message."""
    _need_type(obj, "record_type", RECORD_TYPE, where)
    return RecordDoc(
        _need(obj, "pith_number", str, "resolver JSON", where),
        _need(obj, "canonical_sha256", str, "resolver JSON", where),
        _need(obj, "canonical_record", dict, "resolver JSON", where),
    )


def parse_bundle_doc(obj: Any, where: str) -> BundleDoc:
    """Shape-check a bundle and collect the receipts of its ``record_created`` events."""
    _need_type(obj, "bundle_type", BUNDLE_TYPE, where)
    pith_number = _need(obj, "pith_number", str, "bundle", where)
    sha = _need(obj, "canonical_sha256", str, "bundle", where)
    record = _need(obj, "canonical_record", dict, "bundle", where)
    events = obj.get("events", [])
    if type(events) is not list:
        raise CouldNotCheck("%s: bundle field events is not a list" % where)
    receipts: List[Receipt] = []
    for event in events:
        if type(event) is not dict or event.get("event_type") != "record_created":
            continue
        payload = event.get("payload")
        if type(payload) is not dict or "receipt" not in payload or payload["receipt"] is None:
            continue
        r = payload["receipt"]
        if type(r) is not dict:
            raise CouldNotCheck("%s: record_created receipt is not a JSON object" % where)
        receipts.append(
            Receipt(r.get("kind"), r.get("key_id"), r.get("algorithm"), r.get("signature_b64"))
        )
    return BundleDoc(pith_number, sha, record, receipts)


def read_capped(path: str, cap: int = MAX_BODY) -> Optional[bytes]:
    """The bytes of the regular file *path*, or None when it is larger than *cap*
    (1 MiB).  Raises :class:`OSError`: ``FileNotFoundError`` for a missing file,
    :class:`pith_tex.safeio.NotRegularFile` for a FIFO, device, socket or directory,
    which is refused before it is opened, so that it can never block or stream forever.

    The one read of a document from disk: ``verify FILE/DIR`` and a mirror directory
    (:class:`pith_tex.resolver.client.DirectoryResolver`).
    """
    return read_regular(path, cap)


#: How a PDF file starts.
PDF_MAGIC = b"%PDF-"


def is_pdf_name(path: str) -> bool:
    """A file named ``.pdf`` (any case) is verified as a compiled paper."""
    return path[-4:].lower() == ".pdf"
