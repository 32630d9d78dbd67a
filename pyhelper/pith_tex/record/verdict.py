"""The checks that make a Pith Number *verified*.

Each check is a :class:`Check` ``(name, status, detail)`` with status ``ok``, ``fail``,
``warn`` or ``error`` and a one-line detail.  For a record the checks are, in order:

``record``
    ``canonical_record`` has the schema-1.0 shape and its identifiers match the include
    patterns (error otherwise: nothing unvalidated may reach the include).
``hash``
    the canonical re-serialisation of ``canonical_record`` hashes to ``canonical_sha256``.
``derivation``
    ``base32(sha256)[:26]`` equals the number asked for (compared as strings).
``year``
    ``pith_number`` is ``pith:YYYY:NUM`` for that number and ``YYYY`` is the year of
    ``metadata.submitted_at``.
``bundle`` (only when a bundle is at hand)
    the bundle's ``pith_number``, ``canonical_record`` and ``canonical_sha256`` agree
    with the resolver JSON's.
``signature`` (only when a bundle could be asked for)
    every ``record_created`` receipt is an Ed25519 signature over the *raw 32-byte
    digest* by a pinned key.  No receipt: ``ok``, the state *checked* (``fail`` with
    ``require_signature``);
    bad signature: ``fail``; unknown key id or unsupported algorithm: ``error``.

The exit code of an :class:`Outcome` is 1 if any check failed, else 3 if any check could
not be made, else 0.  Across several outcomes the worst wins, with 1 > 3 > 0: a proven
contradiction outranks an unanswered question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from . import canonical
from ..checks import ERROR, FAIL, OK, Check, Outcome
from .documents import BundleDoc, RecordDoc
from ..errors import show
from .recordchecks import record_checks
from .signatures import signature_check

if TYPE_CHECKING:
    from .keys import Keyring

loads = canonical.loads_strict  # json.loads of a str, minus NaN and Infinity


def verify_record(
    number: Optional[str],
    record: RecordDoc,
    bundle: Optional[BundleDoc] = None,
    *,
    check_signature: bool = True,
    require_signature: bool = False,
    keyring: Optional[Keyring] = None,
    no_bundle_reason: str = "",
    bundle_error: Optional[str] = None,
) -> Outcome:
    """Verify resolver JSON (and its bundle) against *number*.

    *number* ``None`` takes the number from ``record.pith_number``.  With
    ``check_signature=False`` (a lone resolver JSON file) there is no bundle or signature
    check.  *bundle_error* (the bundle could not be fetched) makes the signature check an
    error.  *keyring* (library API only) replaces the pinned keys.
    """
    checks, hexd, fields, number = record_checks(
        number, record.pith_number, record.canonical_sha256, record.canonical_record)
    signature = key_id = signature_hex = None
    if bundle is not None:
        problems = []
        if bundle.pith_number != record.pith_number:
            problems.append("pith_number")
        if bundle.canonical_sha256 != record.canonical_sha256:
            problems.append("canonical_sha256")
        if canonical.digest(bundle.canonical_record).hex() != hexd:  # = canonical JSON
            problems.append("canonical_record")
        if "pith_number" in problems:
            checks.append(Check("bundle", FAIL, "bundle.json is for another number: its "
                                "pith_number is %s, not %s" % (show(bundle.pith_number),
                                                               record.pith_number)))
        elif problems:
            checks.append(Check("bundle", FAIL, "bundle.json disagrees with the resolver JSON "
                                "on %s" % ", ".join(problems)))
        else:
            checks.append(Check("bundle", OK, "bundle.json agrees with the resolver JSON"))
    if check_signature and bundle_error is not None:
        checks.append(Check("signature", ERROR, "could not get the bundle: " + bundle_error))
    elif check_signature:
        c, signature, key_id, signature_hex = signature_check(
            None if bundle is None else bundle.receipts, bytes.fromhex(hexd),
            require_signature, keyring, no_bundle_reason)
        checks.append(c)
    return Outcome(number, checks, hexd, fields, signature, key_id, signature_hex)


def verify_bundle(
    number: Optional[str], bundle: BundleDoc, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> Outcome:
    """Verify a bundle on its own: its record checks plus its receipts."""
    checks, hexd, fields, number = record_checks(
        number, bundle.pith_number, bundle.canonical_sha256, bundle.canonical_record)
    c, signature, key_id, signature_hex = signature_check(
        bundle.receipts, bytes.fromhex(hexd), require_signature, keyring)
    checks.append(c)
    return Outcome(number, checks, hexd, fields, signature, key_id, signature_hex)
