"""The hostile server and documents are what they claim to be (checked without the CLI).

If these fail, a failure in test_fetch_hostile.py says nothing about pith-tex.
"""
from __future__ import annotations

import base64
import hashlib
import http.client
import socket

import pytest

import recorded as R
import server as S

PINNED = base64.b64decode("stVStoiQhXFxp4s2pdzPNoqVNBMojDU/fJ2db5S3CbM=")


def get(srv, path, timeout=5):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    c.request("GET", path)
    r = c.getresponse()
    return r, r.read()


def test_good_document_is_verifiable(full):
    for v in full:
        doc = R.resolver_json(v)
        rec = doc["canonical_record"]
        assert hashlib.sha256(R.canonical_bytes(rec)).hexdigest() == v["canonical_hash"] == doc["canonical_sha256"]
        assert R.number_of(rec) == v["number"]
        assert doc["pith_number"] == f"pith:{v['year']}:{v['number']}"


def test_damaged_documents_are_damaged_once(full):
    a = full[0]
    doc = S.altered_hash(a)  # record intact, only the hash field differs
    assert R.number_of(doc["canonical_record"]) == a["number"]
    assert doc["canonical_sha256"] != a["canonical_hash"]
    doc = S.altered_field(a)  # record differs, hash field as published
    assert R.number_of(doc["canonical_record"]) != a["number"]
    assert doc["canonical_sha256"] == a["canonical_hash"]


def test_signatures_are_real_and_bound_to_their_own_digest(signed, full):
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(PINNED)
    for s in signed:
        sig = base64.b64decode(s["signature_b64"])
        key.verify(sig, bytes.fromhex(s["canonical_hash"]))  # genuine
        with pytest.raises(InvalidSignature):  # ...and useless for another record
            key.verify(sig, bytes.fromhex(full[0]["canonical_hash"]))


def test_table_sequence_and_log(server, full):
    a = full[0]
    server.record(a["number"], S.Reply(status=500), S.json_reply(R.resolver_json(a)))
    assert get(server, f"/pith/{a['number']}.json")[0].status == 500
    r, body = get(server, f"/pith/{a['number']}.json")
    assert r.status == 200 and a["canonical_hash"].encode() in body
    assert get(server, "/pith/nothing.json")[0].status == 404
    assert len(server.hits(f"/pith/{a['number']}.json")) == 2
    assert [s.delivered for s in server.settle()] == [True, True, True]


def test_truncated_and_oversized(server, full):
    a = full[0]
    body = R.encode(R.resolver_json(a))
    server.route("/t", S.Reply(body=body[:100], declared_length=len(body)))
    with pytest.raises(http.client.IncompleteRead):
        get(server, "/t")
    server.route("/big", S.Reply(body=S.oversized(a), send_length=False))
    r, big = get(server, "/big")
    assert r.getheader("Content-Length") is None and len(big) > S.MIB


def test_hang_up_is_logged(server, full):
    """``Seen.delivered`` is False only when the client left before the whole reply."""
    body = R.encode(R.resolver_json(full[0]))
    server.route("/slow", S.Reply(body=body, delay=30))
    server.route("/drip", S.Reply(body=body, drip=0.2))
    server.route("/endless", S.Reply(body=b" " * 65536, send_length=False, repeat_body=4096))
    server.route("/late", S.Reply(body=body, delay=0.3))
    for path in ("/slow", "/drip", "/endless"):
        c = socket.create_connection(("127.0.0.1", server.port))
        c.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        if path != "/slow":
            assert c.recv(64).startswith(b"HTTP/1.1 200")
        c.close()
    r, got = get(server, "/late")  # a client that waits gets the delayed reply
    assert got == body
    # Each request is logged when its handler ends: the order depends on the machine's
    # load (the /slow handler may notice its closed client after /drip's does).
    assert sorted((s.path, s.delivered) for s in server.settle()) == [
        ("/drip", False), ("/endless", False), ("/late", True), ("/slow", False)]
