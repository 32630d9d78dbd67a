"""The signature checks: Ed25519 receipts of a bundle, and the self-contained records of an
include or a PDF (record + claimed digest + receipt signature).  An include's own format
and QR code are read in :mod:`pith_tex.include.validate`, which calls
:func:`verify_embedded`.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, List, Optional, Tuple

from . import canonical
from ..errors import CouldNotCheck, show
from .keys import Keyring, pinned_keyring
from ..checks import Check, ERROR, FAIL, OK, Outcome, UNSIGNED
from .recordchecks import record_checks


def no_receipt_check(what: str, require_signature: bool) -> Check:
    """*what* says there is no receipt: a failure with ``--require-signature``, else the
    state *checked* (an OK: the hash proves the number), in the same words everywhere."""
    if require_signature:
        return Check("signature", FAIL, what + " (--require-signature)")
    return Check("signature", OK, "%s (%s; --require-signature refuses unsigned records)"
                 % (UNSIGNED, what))


def _key_id_problem(key_id: Any) -> Optional[Check]:
    if type(key_id) is not str or not canonical.KEY_ID_RE.match(key_id):
        return Check("signature", ERROR, "receipt key_id %s is not a key id" % show(key_id))
    return None


def _receipt_check(ring: Keyring, key_id: str, sig: bytes, digest_bytes: bytes) -> Check:
    """The ``signature`` check of one 64-byte Ed25519 signature *sig* by *key_id* (a
    well-formed key id) over the raw digest."""
    try:
        good = ring.verify(key_id, sig, digest_bytes)
    except CouldNotCheck as e:
        return Check("signature", ERROR, e.message)
    if not good:
        return Check("signature", FAIL, "the Ed25519 receipt by %s does not verify over the "
                     "digest" % key_id)
    return Check("signature", OK, "Ed25519 receipt by %s verifies over the raw digest"
                 % key_id)


def signature_check(
    receipts: Optional[List[Any]], digest_bytes: bytes, require_signature: bool,
    keyring: Optional[Keyring], no_bundle_reason: str = "",
) -> Tuple[Check, Optional[str], Optional[str], Optional[str]]:
    """Returns (check, "verified"|"absent"|None, key_id, signature hex)."""
    if not receipts:
        if receipts is None:
            what = no_bundle_reason or "there is no bundle.json, so no receipt"
        else:
            what = "the bundle carries no receipt"
        return (no_receipt_check(what, require_signature),
                None if require_signature else "absent", None, None)
    ring = keyring if keyring is not None else pinned_keyring()
    first: Optional[Tuple[Check, str, str]] = None
    for r in receipts:
        if r.kind != "pith_receipt":
            return Check("signature", ERROR, "receipt kind is %s, not pith_receipt"
                         % show(r.kind)), None, None, None
        if r.algorithm != "ed25519":
            return Check("signature", ERROR, "receipt algorithm %s is not supported (ed25519 is)"
                         % show(r.algorithm)), None, None, None
        bad_key = _key_id_problem(r.key_id)
        if bad_key is not None:
            return bad_key, None, None, None
        if type(r.signature_b64) is not str:
            return Check("signature", ERROR, "receipt has no signature_b64"), None, None, None
        try:
            sig = base64.b64decode(r.signature_b64, validate=True)
        except (binascii.Error, ValueError):
            sig = b""
        if len(sig) != 64:
            return Check("signature", FAIL, "signature_b64 is not a base64 64-byte Ed25519 "
                         "signature"), None, None, None
        c = _receipt_check(ring, r.key_id, sig, digest_bytes)
        if c.status != OK:
            return c, None, None, None
        first = first or (c, r.key_id, sig.hex())
    assert first is not None
    return first[0], "verified", first[1], first[2]


def verify_embedded(
    what: str, pith_number: str, sha256: str, record: Any, key_id: Optional[str],
    signature_hex: Optional[str], *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> Outcome:
    """The checks of a record that travels with its own claims, in an include or a PDF
    (*what* names it): record, hash, derivation and year as for resolver JSON, then the
    receipt's signature (hex, by *key_id*) verified over the recomputed digest."""
    checks, hexd, fields, number = record_checks(None, pith_number, sha256, record)
    signature = None
    if signature_hex is None and key_id is None:
        checks.append(no_receipt_check("%s carries no receipt signature" % what,
                                       require_signature))
        signature = None if require_signature else "absent"
    elif signature_hex is None or not canonical.SIGNATURE_HEX_RE.match(signature_hex):
        checks.append(Check("signature", FAIL, "%s names key %s but its signature is not 128 "
                            "lower-case hex digits: %s" % (what, show(key_id),
                                                            show(signature_hex))))
    else:
        c = _key_id_problem(key_id)
        if c is None:
            assert key_id is not None  # a well-formed key id
            ring = keyring if keyring is not None else pinned_keyring()
            c = _receipt_check(ring, key_id, bytes.fromhex(signature_hex), bytes.fromhex(hexd))
        checks.append(c)
        if c.status == OK:
            signature = "verified"
    return Outcome(number, checks, hexd, fields, signature,
                   key_id if signature == "verified" else None)
