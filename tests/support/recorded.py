"""Resolver-format documents built from the test vectors (spec section 4).

A plain module in ``tests/support``, which pytest puts on ``sys.path`` for every test
folder (``pythonpath`` in ``[tool.pytest.ini_options]``)::

    import recorded
    doc = recorded.resolver_json(recorded.vectors_with_record()[0])

Public functions:

``load_vectors(path=None)``        every vector (``tests/vectors/pith-numbers.jsonl``)
``vectors_with_record()``          the 31 vectors that carry a ``canonical_record``
``vector(number)``                 one vector by its number
``resolver_json(vector)``          the ``/pith/NUM.json`` document
``bundle_json(vector, receipt=None)`` the ``/pith/NUM/bundle.json`` document
``receipt(signature_b64, key_id=...)`` a ``payload.receipt`` object
``encode(doc)``                    the bytes a resolver would send (UTF-8 JSON)
``canonical_bytes(record)``, ``sha256_hex(record)``, ``number_of(record)``
                                   the spec's recipe (section 2), written here from the
                                   spec and independent of pith_tex: the tests' oracle
``varied(vector, i)``              a new, genuine vector: the record varied by *i*, its
                                   hash and number recomputed with the recipe
``write_mirror(root, vectors, receipts=None, bundles=True)`` a mirror on disk:
                                   ``root/pith/NUM.json`` and ``root/pith/NUM/bundle.json``

The documents mimic the real resolver: keys are *not* in canonical order and the paper
title is the raw arXiv TeX, so a client that hashes the bytes as received, or trusts the
title, is caught.

Every function returns new objects: a caller may change what it gets without affecting
the vectors or any other caller.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional

VECTORS_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "vectors", "pith-numbers.jsonl")
PINNED_KEY_ID = "pith-v1-2026-05"

_cache: Dict[str, List[Dict[str, Any]]] = {}


def load_vectors(path: Optional[str] = None) -> List[Dict[str, Any]]:
    path = path or VECTORS_PATH
    if path not in _cache:
        with open(path, encoding="utf-8") as f:
            _cache[path] = [json.loads(line) for line in f if line.strip()]
    return copy.deepcopy(_cache[path])


def vectors_with_record() -> List[Dict[str, Any]]:
    return [v for v in load_vectors() if v.get("canonical_record")]


def vector(number: str) -> Dict[str, Any]:
    for v in load_vectors():
        if v["number"] == number:
            return v
    raise KeyError(number)


def _reorder(record: Mapping[str, Any]) -> Dict[str, Any]:
    """The record with keys in a non-canonical order (as responses may list them)."""
    if not isinstance(record, Mapping):
        return record  # type: ignore[return-value]
    return {k: _reorder(record[k]) if isinstance(record[k], Mapping) else record[k]
            for k in reversed(list(record))}


def resolver_json(vector: Mapping[str, Any]) -> Dict[str, Any]:
    """The resolver JSON (``/pith/NUM.json``) for a vector that has a record."""
    record = vector.get("canonical_record")
    if not record:
        raise ValueError("vector %s has no canonical_record" % vector.get("number"))
    record = copy.deepcopy(record)
    number, year = vector["number"], vector["year"]
    meta, source = record["metadata"], record["source"]
    return {
        "record_type": "pith_number_record",
        "pith_number": "pith:%d:%s" % (year, number),
        "short_pith_number": "pith:%s" % number[:8],
        "schema_version": record["schema_version"],
        "canonical_sha256": vector["canonical_hash"],
        "canonical_record": _reorder(record),
        "source": {"kind": source["kind"], "id": source["id"], "version": source["version"]},
        "attestation_state": "signed" if vector.get("signature_b64") else "unsigned",
        "paper": {
            "title": vector.get("title"),
            "authors_text": "A. Author and B. Autor",
            "license": meta["license"],
            "primary_cat": meta["primary_cat"],
            "cross_cats": list(meta["cross_cats_sorted"]),
            "submitted_at": meta["submitted_at"],
            "abstract_excerpt": "We study $x^2$ & {\\it things} \\% 100",
            "headline": None,
        },
        "verification_status": {"hash": "verified", "recipe":
                                "sha256(canonical_json(canonical_record))"},
    }


def receipt(signature_b64: str, key_id: str = PINNED_KEY_ID,
            signed_at: str = "2026-05-01T00:00:00Z") -> Dict[str, Any]:
    return {"kind": "pith_receipt", "key_id": key_id, "algorithm": "ed25519",
            "signed_at": signed_at, "signature_b64": signature_b64}


def bundle_json(vector: Mapping[str, Any], receipt: Optional[Mapping[str, Any]] = None
                ) -> Dict[str, Any]:
    """The bundle (``/pith/NUM/bundle.json``); *receipt* goes into the record_created event."""
    doc = resolver_json(vector)
    payload: Dict[str, Any] = {"pith_number": doc["pith_number"],
                               "canonical_sha256": doc["canonical_sha256"]}
    if receipt is not None:
        payload["receipt"] = dict(receipt)
    return {
        "bundle_type": "pith_open_graph_bundle",
        "pith_number": doc["pith_number"],
        "canonical_record": doc["canonical_record"],
        "canonical_sha256": doc["canonical_sha256"],
        "source_aliases": [{"kind": "arxiv", "id": doc["source"]["id"]},
                           {"kind": "pith_short_8", "id": vector["number"][:8]}],
        "events": [
            {"event_type": "record_created", "created_at": "2026-05-01T00:00:00Z",
             "payload": payload},
            {"event_type": "paper_title_seen", "payload": {"title": vector.get("title")}},
        ],
    }


# ------------------------------------------------- the spec's recipe (the oracle)


def canonical_bytes(record: Any) -> bytes:
    """canonical_json: sorted keys, no whitespace, UTF-8 (not ASCII-escaped)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def sha256_hex(record: Any) -> str:
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def number_of(record: Any) -> str:
    """The Pith number: the first 26 characters of base32(sha256(canonical_json))."""
    digest = hashlib.sha256(canonical_bytes(record)).digest()
    return base64.b32encode(digest).decode("ascii")[:26]


def varied(vector: Mapping[str, Any], i: int) -> Dict[str, Any]:
    """A copy of *vector* (one with a record) whose record differs for every *i* (its
    ``abstract_canon_sha256``), with ``canonical_hash`` and ``number`` recomputed: a
    genuine record that no published vector has."""
    v = copy.deepcopy(dict(vector))
    record = v["canonical_record"]
    record["metadata"]["abstract_canon_sha256"] = hashlib.sha256(
        ("%s:%d" % (vector["number"], i)).encode("ascii")).hexdigest()
    v["canonical_hash"], v["number"] = sha256_hex(record), number_of(record)
    return v


def encode(doc: Any) -> bytes:
    return json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8")


def write_mirror(root: str, vectors: Iterable[Mapping[str, Any]],
                 receipts: Optional[Mapping[str, Mapping[str, Any]]] = None,
                 bundles: bool = True) -> str:
    """Write a mirror on disk for *vectors* (those with a record); returns *root*."""
    receipts = receipts or {}
    for v in vectors:
        if not v.get("canonical_record"):
            continue
        number = v["number"]
        os.makedirs(os.path.join(root, "pith", number), exist_ok=True)
        with open(os.path.join(root, "pith", number + ".json"), "wb") as f:
            f.write(encode(resolver_json(v)))
        if bundles:
            with open(os.path.join(root, "pith", number, "bundle.json"), "wb") as f:
                f.write(encode(bundle_json(v, receipts.get(number))))
    return root
