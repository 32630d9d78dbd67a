"""Vectors: every record derives its number and hash; every signature verifies."""

from __future__ import annotations

import base64
import copy
import hashlib
import json

import pytest
from hypothesis import given, settings, strategies as st

import recorded
from pith_tex.record import canonical
from pith_tex.errors import CouldNotCheck
from pith_tex.record.keys import PINNED_KEYS, Keyring, pinned_keyring

WITH_RECORD = recorded.vectors_with_record()
SIGNED = [v for v in recorded.load_vectors() if v.get("signature_b64")]


def test_vector_counts():
    assert len(recorded.load_vectors()) == 65
    assert len(WITH_RECORD) == 31
    assert len(SIGNED) == 4
    assert not any(v.get("canonical_record") for v in SIGNED)


@pytest.mark.parametrize("v", WITH_RECORD, ids=lambda v: v["number"])
def test_record_derives_number_and_hash(v):
    d = canonical.digest(v["canonical_record"])
    assert d.hex() == v["canonical_hash"]
    assert canonical.number_from_digest(d) == v["number"]
    fields = canonical.validate_record(v["canonical_record"])
    assert fields.year == v["year"]
    assert fields.arxiv_id == v["arxiv_id"] and fields.arxiv_version == v["version"]


@pytest.mark.parametrize("v", WITH_RECORD[:5], ids=lambda v: v["number"])
def test_key_order_does_not_matter(v):
    shuffled = recorded.resolver_json(v)["canonical_record"]
    assert list(shuffled) != sorted(shuffled)
    assert canonical.digest(shuffled).hex() == v["canonical_hash"]


def test_canonical_json_is_the_spec_recipe():
    v = WITH_RECORD[1]
    rec = v["canonical_record"]
    expected = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical.canonical_json(rec) == expected.encode("utf-8")
    assert canonical.canonical_json({"t": "Fra\u00efss\u00e9"}) == '{"t":"Fraïssé"}'.encode()


@pytest.mark.parametrize("v", [v for v in recorded.load_vectors()], ids=lambda v: v["number"])
def test_every_vector_hash_derives_its_number(v):
    assert canonical.number_from_digest(bytes.fromhex(v["canonical_hash"])) == v["number"]


@settings(max_examples=500, deadline=None)
@given(st.binary(min_size=20, max_size=64))
def test_number_from_digest_equals_stdlib_base32(d):
    assert canonical.number_from_digest(d) == base64.b32encode(d).decode()[:26]


def test_pinned_key_fingerprint():
    key = PINNED_KEYS["pith-v1-2026-05"]
    assert key.raw.hex() == "b2d552b68890857171a78b36a5dccf368a953413288c353f7c9d9d6f94b709b3"
    # the spec's published fingerprint: the first 16 bytes of sha256(raw key), hex
    assert hashlib.sha256(key.raw).digest()[:16].hex() == "8d4b5ee74e4693bcd1df2446408b0d54"


@pytest.mark.parametrize("v", SIGNED, ids=lambda v: v["number"])
def test_signatures_verify_over_raw_digest(v):
    ring = pinned_keyring()
    sig = base64.b64decode(v["signature_b64"])
    d = bytes.fromhex(v["canonical_hash"])
    assert ring.verify("pith-v1-2026-05", sig, d)
    # not over the hex text
    assert not ring.verify("pith-v1-2026-05", sig, v["canonical_hash"].encode())


@pytest.mark.parametrize("v", SIGNED, ids=lambda v: v["number"])
def test_any_flipped_byte_fails(v):
    ring = pinned_keyring()
    sig = base64.b64decode(v["signature_b64"])
    d = bytes.fromhex(v["canonical_hash"])
    for i in range(len(d)):
        bad = bytearray(d)
        bad[i] ^= 0x01
        assert not ring.verify("pith-v1-2026-05", sig, bytes(bad))
    for i in range(len(sig)):
        bad = bytearray(sig)
        bad[i] ^= 0x80
        assert not ring.verify("pith-v1-2026-05", bytes(bad), d)


def _string_paths(obj, path=()):
    if isinstance(obj, dict):
        for k, val in obj.items():
            yield from _string_paths(val, path + (k,))
    elif isinstance(obj, list):
        for i, val in enumerate(obj):
            yield from _string_paths(val, path + (i,))
    else:
        yield path


@pytest.mark.parametrize("v", WITH_RECORD, ids=lambda v: v["number"])
def test_flipping_any_record_value_changes_the_number(v):
    for path in _string_paths(v["canonical_record"]):
        rec = copy.deepcopy(v["canonical_record"])
        target = rec
        for k in path[:-1]:
            target = target[k]
        old = target[path[-1]]
        if isinstance(old, str):
            if not old:
                target[path[-1]] = " "
            else:
                target[path[-1]] = chr(ord(old[0]) ^ 1) + old[1:]
        elif isinstance(old, int):
            target[path[-1]] = old + 1
        d = canonical.digest(rec)
        assert d.hex() != v["canonical_hash"]
        assert canonical.number_from_digest(d) != v["number"]


def test_unknown_key_id_is_could_not_check():
    with pytest.raises(CouldNotCheck, match="unknown key id"):
        pinned_keyring().verify("pith-v9", b"x" * 64, b"y" * 32)


def test_keyring_rejects_bad_key_length():
    with pytest.raises(ValueError):
        Keyring({"k": b"short"})


@pytest.mark.parametrize("mutate, message", [
    (lambda r: r.pop("source"), "missing field source"),
    (lambda r: r.update(extra=1), "unexpected field"),
    (lambda r: r.update(schema_version="2.0"), "schema_version"),
    (lambda r: r["metadata"].update(submitted_at="2025-09-03"), "submitted_at"),
    (lambda r: r["metadata"].update(title_canon_sha256="ABC"), "title_canon_sha256"),
    (lambda r: r["metadata"].update(cross_cats_sorted="cs.AI"), "cross_cats_sorted"),
    (lambda r: r["source"].update(id="2509.03047\\input{x}"), "source.id"),
    (lambda r: r["source"].update(id="Fra\\\"{\\i}ss\\'{e}"), "source.id"),
    (lambda r: r["source"].update(version=True), "source.version"),
    (lambda r: r["source"].update(version=0), "source.version"),
    (lambda r: r["source"].update(version="1"), "source.version"),
    (lambda r: r["source"].update(kind="doi"), "source.kind"),
    (lambda r: r["metadata"].pop("license"), "metadata.license"),
])
def test_record_shape_errors(mutate, message):
    rec = copy.deepcopy(WITH_RECORD[0]["canonical_record"])
    mutate(rec)
    with pytest.raises(CouldNotCheck, match=message.replace(".", r"\.")):
        canonical.validate_record(rec)


def test_old_style_arxiv_id_is_valid():
    rec = copy.deepcopy(WITH_RECORD[0]["canonical_record"])
    for sid in ("hep-lat/0305021", "math.AG/0101001", "math/9707204"):
        rec["source"]["id"] = sid
        assert canonical.validate_record(rec).arxiv_id == sid
