"""The signature checks: Ed25519 receipts of a bundle, and what an include records.

Imported by :mod:`pith_tex.verify` only when a bundle or an include is checked, so that a
lone resolver JSON record does not pay for them (nor for :mod:`pith_tex.keys`).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, List, Optional, Tuple

from . import canonical
from .errors import CouldNotCheck, PithError, show
from .keys import Keyring, pinned_keyring
from .verify import ERROR, FAIL, OK, WARN, Check, FileOutcome, Outcome, derivation_check


def no_receipt_check(what: str, require_signature: bool) -> Check:
    """*what* says there is no receipt: a failure with ``--require-signature``, else a
    warning."""
    if require_signature:
        return Check("signature", FAIL, what + " (--require-signature)")
    return Check("signature", WARN, what + " (use --require-signature to refuse)")


def signature_check(
    receipts: Optional[List[Any]], digest_bytes: bytes, require_signature: bool,
    keyring: Optional[Keyring], no_bundle_reason: str = "",
) -> Tuple[Check, Optional[str], Optional[str]]:
    """Returns (check, "verified"|"absent"|None, key_id)."""
    if not receipts:
        if receipts is None:
            what = no_bundle_reason or "there is no bundle.json, so no receipt"
        else:
            what = "the bundle carries no receipt"
        return (no_receipt_check(what, require_signature),
                None if require_signature else "absent", None)
    ring = keyring if keyring is not None else pinned_keyring()
    first_key = None
    for r in receipts:
        if r.kind != "pith_receipt":
            return Check("signature", ERROR, "receipt kind is %s, not pith_receipt"
                         % show(r.kind)), None, None
        if r.algorithm != "ed25519":
            return Check("signature", ERROR, "receipt algorithm %s is not supported (ed25519 is)"
                         % show(r.algorithm)), None, None
        if type(r.key_id) is not str or not canonical.KEY_ID_RE.match(r.key_id):
            return Check("signature", ERROR, "receipt key_id %s is not a key id"
                         % show(r.key_id)), None, None
        if type(r.signature_b64) is not str:
            return Check("signature", ERROR, "receipt has no signature_b64"), None, None
        try:
            sig = base64.b64decode(r.signature_b64, validate=True)
        except (binascii.Error, ValueError):
            sig = b""
        if len(sig) != 64:
            return Check("signature", FAIL, "signature_b64 is not a base64 64-byte Ed25519 "
                         "signature"), None, None
        try:
            good = ring.verify(r.key_id, sig, digest_bytes)
        except CouldNotCheck as e:
            return Check("signature", ERROR, e.message), None, None
        if not good:
            return Check("signature", FAIL, "the Ed25519 receipt by %s does not verify over "
                         "the digest" % r.key_id), None, None
        first_key = first_key or r.key_id
    return (Check("signature", OK, "Ed25519 receipt by %s verifies over the raw digest"
                  % first_key), "verified", first_key)


def verify_include_values(
    number: str, sha256: str, signature: str, key_id: Optional[str], *,
    require_signature: bool = False, keyring: Optional[Keyring] = None,
) -> Outcome:
    """Checks of a parsed include: derivation from its sha256 and its signature claim.

    An include does not carry the receipt, so ``signature = verified`` can only be
    checked to name a pinned key.
    """
    checks = [Check("include", OK, "format 1, every value matches its pattern"),
              derivation_check(bytes.fromhex(sha256), number)]
    ring = keyring if keyring is not None else pinned_keyring()
    if signature == "verified":
        if key_id in ring:
            checks.append(Check("signature", OK, "include records a receipt verified by %s"
                                % key_id))
        else:
            checks.append(Check("signature", ERROR, "include names key id %s, which is not "
                                "pinned" % show(key_id)))
    else:
        checks.append(no_receipt_check("include records no receipt", require_signature))
    return Outcome(number, checks, sha256, None, signature, key_id)


def verify_include_text(
    path: str, text: str, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> FileOutcome:
    from .include import parse_include

    try:
        inc = parse_include(text)
    except PithError as e:
        return FileOutcome(path, "include", None, e.message, e.exit_code)
    out = verify_include_values(inc.number, inc.sha256, inc.signature, inc.key_id,
                                require_signature=require_signature, keyring=keyring)
    return FileOutcome(path, "include", out)
