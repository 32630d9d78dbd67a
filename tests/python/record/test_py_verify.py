"""Library-level verification, including a full valid-signature chain with a throwaway
key (the signed vectors have no record, so the CLI cannot show a verified receipt)."""

from __future__ import annotations

import base64
import copy

import pytest

import recorded
from pith_tex.record import canonical
from pith_tex.record.documents import parse_bundle_doc, parse_record_doc
from pith_tex.errors import CouldNotCheck
from pith_tex.record.keys import Keyring
from pith_tex.checks import ERROR, FAIL, OK, worst
from pith_tex.record.verdict import verify_bundle, verify_record

V = recorded.vectors_with_record()[0]
N = V["number"]


def docs(vector=V, rec=None, receipt=None, bundle=True):
    r = rec or recorded.resolver_json(vector)
    b = recorded.bundle_json(vector, receipt) if bundle else None
    return (parse_record_doc(r, "r"), None if b is None else parse_bundle_doc(b, "b"))


@pytest.fixture
def ring(throwaway_key):
    return Keyring({"test-key": throwaway_key[1]})


def sign(priv, hexdigest):
    return base64.b64encode(priv.sign(bytes.fromhex(hexdigest))).decode()


def statuses(outcome):
    return {c.name: c.status for c in outcome.checks}


def test_full_chain_verifies(throwaway_key, ring):
    priv, _ = throwaway_key
    for v in recorded.vectors_with_record():
        rec, bun = docs(v, receipt=recorded.receipt(sign(priv, v["canonical_hash"]), "test-key"))
        out = verify_record(v["number"], rec, bun, keyring=ring, require_signature=True)
        assert out.exit_code == 0, out.checks
        assert statuses(out) == {"record": OK, "hash": OK, "derivation": OK, "year": OK,
                                 "bundle": OK, "signature": OK}
        assert out.signature == "verified" and out.key_id == "test-key"
        assert out.sha256 == v["canonical_hash"] and out.fields.year == v["year"]
        alone = verify_bundle(v["number"], bun, keyring=ring)
        assert alone.exit_code == 0


def test_every_flipped_signature_byte_fails(throwaway_key, ring):
    priv, _ = throwaway_key
    sig = base64.b64decode(sign(priv, V["canonical_hash"]))
    for i in range(64):
        bad = bytearray(sig)
        bad[i] ^= 0x04
        rec, bun = docs(receipt=recorded.receipt(base64.b64encode(bytes(bad)).decode(),
                                                 "test-key"))
        out = verify_record(N, rec, bun, keyring=ring)
        assert out.exit_code == 1 and statuses(out)["signature"] == FAIL


def test_signature_over_hex_text_is_rejected(throwaway_key, ring):
    priv, _ = throwaway_key
    wrong = base64.b64encode(priv.sign(V["canonical_hash"].encode())).decode()
    rec, bun = docs(receipt=recorded.receipt(wrong, "test-key"))
    assert verify_record(N, rec, bun, keyring=ring).exit_code == 1


def test_pinned_keyring_is_the_default():
    # a receipt by the throwaway key id is unknown to the pinned keyring: could not check
    rec, bun = docs(receipt=recorded.receipt("A" * 86 + "==", "test-key"))
    out = verify_record(N, rec, bun)
    assert out.exit_code == 3 and "unknown key id" in out.checks[-1].detail


def test_bad_signature_with_pinned_key_fails():
    sig = recorded.load_vectors()[31]["signature_b64"]  # a real signature, of another record
    rec, bun = docs(receipt=recorded.receipt(sig))
    out = verify_record(N, rec, bun)
    assert out.exit_code == 1 and "does not verify" in out.checks[-1].detail


@pytest.mark.parametrize("field, value, code", [
    ("algorithm", "rsa", 3),
    ("kind", "other", 3),
    ("key_id", "Bad Key", 3),
    ("signature_b64", None, 3),
    ("signature_b64", "not base64!", 1),
    ("signature_b64", base64.b64encode(b"x" * 63).decode(), 1),
])
def test_malformed_receipts(field, value, code):
    r = recorded.receipt("A" * 86 + "==")
    r[field] = value
    rec, bun = docs(receipt=r)
    assert verify_record(N, rec, bun).exit_code == code


def test_no_receipt_warns_or_fails():
    rec, bun = docs()
    out = verify_record(N, rec, bun)
    assert out.exit_code == 0 and statuses(out)["signature"] == OK and out.signature == "absent"
    out = verify_record(N, rec, bun, require_signature=True)
    assert out.exit_code == 1
    rec, _ = docs(bundle=False)
    out = verify_record(N, rec, None)
    assert out.exit_code == 0 and "no bundle.json" in out.checks[-1].detail
    out = verify_record(N, rec, None, bundle_error="HTTP 500")
    assert out.exit_code == 3


def test_record_for_another_number_fails():
    rec, bun = docs()
    other = recorded.vectors_with_record()[1]["number"]
    out = verify_record(other, rec, bun)
    assert out.exit_code == 1 and statuses(out)["derivation"] == FAIL


def test_hash_mismatch_fails():
    r = recorded.resolver_json(V)
    r["canonical_sha256"] = "0" * 64
    out = verify_record(N, *docs(rec=r))
    assert out.exit_code == 1 and statuses(out)["hash"] == FAIL


def test_tampered_record_value_fails():
    r = recorded.resolver_json(V)
    r["canonical_record"]["metadata"]["license"] = ""
    out = verify_record(N, *docs(rec=r, bundle=False))
    assert out.exit_code == 1
    assert statuses(out)["hash"] == FAIL and statuses(out)["derivation"] == FAIL


def test_year_in_pith_number_must_match_submitted_at():
    r = recorded.resolver_json(V)
    r["pith_number"] = "pith:2024:" + N
    out = verify_record(N, *docs(rec=r, bundle=False))
    assert out.exit_code == 1 and statuses(out)["year"] == FAIL
    r["pith_number"] = "pith:2025:" + recorded.vectors_with_record()[1]["number"]
    out = verify_record(N, *docs(rec=r, bundle=False))
    assert out.exit_code == 1 and "not for" in out.checks[3].detail
    r["pith_number"] = "pith:O6TNNA4X"
    assert verify_record(N, *docs(rec=r, bundle=False)).exit_code == 3


def test_bundle_disagreeing_with_resolver_json_fails():
    rec, bun = docs()
    bun = bun._replace(canonical_sha256="0" * 64)
    out = verify_record(N, rec, bun)
    assert out.exit_code == 1 and statuses(out)["bundle"] == FAIL
    other = recorded.vectors_with_record()[1]
    _, bun2 = docs(other)
    out = verify_record(N, rec, bun2)
    assert out.exit_code == 1 and statuses(out)["bundle"] == FAIL


def test_self_consistent_record_with_tex_in_identifier_is_refused():
    """A record whose hash *does* match, but whose source.id is untrusted TeX: exit 3."""
    rec = copy.deepcopy(V["canonical_record"])
    rec["source"]["id"] = "2509.03047}\\input{/etc/passwd}"
    d = canonical.digest(rec)
    v = dict(V, canonical_record=rec, canonical_hash=d.hex(),
             number=canonical.number_from_digest(d))
    out = verify_record(v["number"], *docs(v, bundle=False))
    assert out.exit_code == 3 and statuses(out)["record"] == ERROR and out.fields is None


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("canonical_record"), "no canonical_record"),
    (lambda d: d.update(canonical_record=[]), "not a JSON object"),
    (lambda d: d.update(record_type="other"), "record_type"),
    (lambda d: d.pop("pith_number"), "no pith_number"),
    (lambda d: d.update(canonical_sha256=5), "not a str"),
])
def test_missing_fields_could_not_check(mutate, message):
    d = recorded.resolver_json(V)
    mutate(d)
    with pytest.raises(CouldNotCheck, match=message):
        parse_record_doc(d, "x")


def test_worst_exit_code():
    assert worst([]) == 0
    assert worst([0, 3, 0]) == 3
    assert worst([3, 1, 0]) == 1


# -- format-2 includes: the record and the receipt's signature travel in the file ---------

def _include_text(v=V, signature_hex=None, key_id=None):
    from pith_tex.include.include import IncludeData, render
    signed = signature_hex is not None
    data = IncludeData(v["number"], v["year"], v["canonical_hash"], v["canonical_record"],
                       "verified" if signed else "absent", key_id if signed else None,
                       signature_hex)
    return render(data).decode("ascii")


def _verify_include(text, **kw):
    from pith_tex.include.validate import verify_include_text
    return verify_include_text("pith-number.tex", text, **kw)


def test_signed_include_verifies_its_own_signature(throwaway_key, ring):
    priv, _ = throwaway_key
    for v in recorded.vectors_with_record()[:5]:
        sig = priv.sign(bytes.fromhex(v["canonical_hash"])).hex()
        out = _verify_include(_include_text(v, sig, "test-key"), keyring=ring,
                              require_signature=True)
        assert out.exit_code == 0, out.outcome.checks
        assert statuses(out.outcome) == {"include": OK, "record": OK, "hash": OK,
                                         "derivation": OK, "year": OK, "signature": OK,
                                         "qr": OK}
        # the pinned key did not sign it: an unknown key id cannot be checked
        assert _verify_include(_include_text(v, sig, "test-key")).exit_code == 3
        flipped = sig[:10] + ("0" if sig[10] != "0" else "1") + sig[11:]
        bad = _verify_include(_include_text(v, flipped, "test-key"), keyring=ring)
        assert bad.exit_code == 1 and statuses(bad.outcome)["signature"] == FAIL


def test_unsigned_include_warns_or_fails_on_require_signature():
    out = _verify_include(_include_text())
    assert out.exit_code == 0 and statuses(out.outcome)["signature"] == OK
    assert _verify_include(_include_text(), require_signature=True).exit_code == 1


def test_real_signature_of_another_record_fails_with_pinned_key():
    other = recorded.load_vectors()[31]
    sig = base64.b64decode(other["signature_b64"]).hex()
    out = _verify_include(_include_text(V, sig, recorded.PINNED_KEY_ID))
    assert out.exit_code == 1 and statuses(out.outcome)["signature"] == FAIL


@pytest.mark.parametrize("edit, failing", [
    # a consistent-looking include whose record was edited: the hash gives it away
    (lambda t: t.replace("submitted-at = 2025-09-03", "submitted-at = 2025-09-04"), "hash"),
    (lambda t: t.replace("primary-cat = cs.DC", "primary-cat = cs.AI"), "hash"),
    (lambda t: t.replace("cross-cats = cs.AI", "cross-cats = "), "hash"),
    (lambda t: t.replace("year = 2025", "year = 2024"), "year"),
])
def test_edited_include_fails(edit, failing):
    text = _include_text()
    out = _verify_include(edit(text))
    assert out.exit_code == 1 and statuses(out.outcome)[failing] == FAIL


def test_include_with_another_number_fails_derivation_and_qr():
    other = recorded.vectors_with_record()[1]["number"]
    out = _verify_include(_include_text().replace(N, other))
    assert out.exit_code == 1
    assert statuses(out.outcome)["derivation"] == FAIL and statuses(out.outcome)["qr"] == FAIL
