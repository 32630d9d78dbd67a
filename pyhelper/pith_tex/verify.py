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
    digest* by a pinned key.  No receipt: ``warn`` (``fail`` with ``require_signature``);
    bad signature: ``fail``; unknown key id or unsupported algorithm: ``error``.

The exit code of an :class:`Outcome` is 1 if any check failed, else 3 if any check could
not be made, else 0.  Across several outcomes the worst wins, with 1 > 3 > 0: a proven
contradiction outranks an unanswered question.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, Iterable, List, NamedTuple, Optional, Tuple

from . import canonical
from .canonical import RecordFields
from .documents import (BundleDoc, RecordDoc, kind_of, parse_bundle_doc, parse_record_doc,
                        read_capped)
from .errors import (EXIT_COULD_NOT_CHECK, EXIT_FAILED, EXIT_OK, EXIT_USAGE, CouldNotCheck,
                     PithError, show)

if TYPE_CHECKING:  # keys (and cryptography behind it) are imported on the first signature
    from .keys import Keyring

OK = "ok"
FAIL = "fail"
WARN = "warn"
ERROR = "error"

VERDICTS = {EXIT_OK: "verified", EXIT_FAILED: "failed", EXIT_USAGE: "usage-error",
            EXIT_COULD_NOT_CHECK: "could-not-check"}

_PITH_NUMBER_RE = re.compile(r"pith:([0-9]{4}):([A-Z2-7]{26})\Z")
loads = json.JSONDecoder().decode  # json.loads of a str, minus its keyword handling


class Check(NamedTuple):
    name: str
    status: str
    detail: str


class Outcome(NamedTuple):
    """What verifying one record (or bundle, or include) established."""

    number: Optional[str]
    checks: List[Check]
    sha256: Optional[str] = None  # recomputed digest, hex
    fields: Optional[RecordFields] = None  # set when the record shape is valid
    signature: Optional[str] = None  # "verified" | "absent" | None (not established)
    key_id: Optional[str] = None
    signature_hex: Optional[str] = None  # the verified receipt's signature

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.checks)

    @property
    def verdict(self) -> str:
        return VERDICTS[self.exit_code]


def exit_code_of(checks: Iterable[Check]) -> int:
    code = EXIT_OK
    for c in checks:
        if c.status == FAIL:
            return EXIT_FAILED
        if c.status == ERROR:
            code = EXIT_COULD_NOT_CHECK
    return code


_SEVERITY = {OK: 0, WARN: 1, ERROR: 2, FAIL: 3}


def decisive(checks: Iterable[Check]) -> Optional[Check]:
    """The check that decides: the first failure, else the first error, else the first
    warning; None when every check passed.  Its name and detail become the ``error:``
    line of a non-zero exit and the compact line of a file."""
    found: Optional[Check] = None
    rank = 0
    for c in checks:
        r = _SEVERITY[c.status]
        if r > rank:
            found, rank = c, r
            if r == 3:
                break
    return found


#: The summary buckets of exit codes: verified, failed, could not check (usage too).
BUCKETS = ("verified", "failed", "could_not_check")


def bucket(code: int) -> int:
    """The index in :data:`BUCKETS` of an exit code."""
    return 0 if code == EXIT_OK else 1 if code == EXIT_FAILED else 2


def worst(codes: Iterable[int]) -> int:
    """Combine exit codes: 1 (failed) > 2 (usage) > 3 (could not check) > 0."""
    rank = {EXIT_OK: 0, EXIT_COULD_NOT_CHECK: 1, EXIT_USAGE: 2, EXIT_FAILED: 3}
    best = EXIT_OK
    for c in codes:
        if rank.get(c, 1) > rank[best]:
            best = c
    return best


def _short(hexdigest: str) -> str:
    return hexdigest[:8] + "\u2026" + hexdigest[-4:]


def derivation_check(digest_bytes: bytes, number: str, why: str = "") -> Check:
    """``base32(sha256)[:26]`` equals *number* (as strings); *why* follows a failure."""
    derived = canonical.number_from_digest(digest_bytes)
    if derived == number:
        return Check("derivation", OK, "base32(sha256)[:26] = %s" % derived)
    return Check("derivation", FAIL, "base32(sha256)[:26] = %s, not %s%s" % (derived, number, why))


def record_checks(
    number: Optional[str], pith_number: str, claimed_sha: str, record: Any
) -> Tuple[List[Check], str, Optional[RecordFields], Optional[str]]:
    """record, hash, derivation, year of a record that claims *claimed_sha* and
    *pith_number* (``pith:YYYY:NUM``).  Returns (checks, digest hex, fields, number)."""
    checks: List[Check] = []
    try:
        valid = canonical.validate_record(record)
        checks.append(Check("record", OK, "schema 1.0 record of arXiv:%s v%d"
                            % (valid.arxiv_id, valid.arxiv_version)))
        fields: Optional[RecordFields] = valid
    except CouldNotCheck as e:
        fields = None
        checks.append(Check("record", ERROR, e.message))

    d = canonical.digest(record)
    hexd = d.hex()
    if not canonical.is_sha256_hex(claimed_sha):
        checks.append(Check("hash", ERROR, "canonical_sha256 is not 64 lower-case hex digits: %s"
                            % show(claimed_sha)))
    elif hexd == claimed_sha:
        checks.append(Check("hash", OK, "canonical_record hashes to %s" % _short(hexd)))
    else:
        checks.append(Check("hash", FAIL, "canonical_record hashes to %s, not to the claimed %s"
                            % (_short(hexd), _short(claimed_sha))))

    m = _PITH_NUMBER_RE.match(pith_number) if type(pith_number) is str else None
    if number is None:
        if m is None:
            checks.append(Check("derivation", ERROR, "pith_number %s is not pith:YYYY:NUMBER"
                                % show(pith_number)))
            return checks, hexd, fields, None
        number = m.group(2)
    checks.append(derivation_check(d, number, ": this record belongs to another number"))

    if m is None:
        checks.append(Check("year", ERROR, "pith_number %s is not pith:YYYY:NUMBER"
                            % show(pith_number)))
    elif m.group(2) != number:
        checks.append(Check("year", FAIL, "the response is for another number: its "
                            "pith_number is %s, not for %s" % (pith_number, number)))
    elif fields is None:
        checks.append(Check("year", ERROR, "not checked: the record is unreadable"))
    elif int(m.group(1)) != fields.year:
        checks.append(Check("year", FAIL, "%s but submitted_at is %s"
                            % (pith_number, fields.submitted_at[:10])))
    else:
        checks.append(Check("year", OK, "%s matches submitted_at %s"
                            % (pith_number, fields.submitted_at[:10])))
    return checks, hexd, fields, number


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
        from .signatures import signature_check

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
    from .signatures import signature_check

    c, signature, key_id, signature_hex = signature_check(
        bundle.receipts, bytes.fromhex(hexd), require_signature, keyring)
    checks.append(c)
    return Outcome(number, checks, hexd, fields, signature, key_id, signature_hex)


# -- files -------------------------------------------------------------------------------

class FileOutcome(NamedTuple):
    path: str
    kind: str  # "record" | "bundle" | "include" | "pdf" | "unknown"
    outcome: Optional[Outcome]
    error: Optional[str] = None  # set when the file could not be read at all
    error_code: int = EXIT_COULD_NOT_CHECK

    @property
    def exit_code(self) -> int:
        return self.error_code if self.outcome is None else self.outcome.exit_code


def expected_number(path: str) -> Optional[str]:
    """``.../NUM.json`` or ``.../NUM/bundle.json``: the number the path promises."""
    base = os.path.basename(path)
    stem = base[:-5] if base.endswith(".json") else base
    if canonical.is_number(stem):
        return stem
    if base == "bundle.json":
        parent = os.path.basename(os.path.dirname(path))
        if canonical.is_number(parent):
            return parent
    return None


def read_file(path: str) -> Tuple[bytes, Optional[FileOutcome]]:
    """``(bytes, None)``, or ``(b"", outcome)`` for a file that cannot be read or is larger
    than 1 MiB."""
    try:
        data = read_capped(path)
    except OSError as e:
        return b"", FileOutcome(path, "unknown", None, "cannot read: %s" % (e.strerror or e))
    if data is None:
        return b"", FileOutcome(path, "unknown", None, "larger than 1 MiB")
    return data, None


def decode_json(path: str, data: bytes) -> Tuple[Any, Optional[FileOutcome]]:
    """``(JSON value, None)``, or ``(None, outcome)`` when *data* is not UTF-8 JSON."""
    try:
        return loads(data.decode("utf-8")), None
    except (ValueError, UnicodeDecodeError) as e:
        return None, FileOutcome(path, "unknown", None,
                                 "not valid JSON (%s)" % e.__class__.__name__)


def verify_json_obj(
    path: str, obj: Any, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> FileOutcome:
    """Verify one saved resolver JSON or bundle, already parsed (*obj*, from *path*)."""
    kind = kind_of(obj)
    try:
        if kind == "record":
            doc = parse_record_doc(obj, path)
            out = verify_record(expected_number(path), doc, None, check_signature=False)
        elif kind == "bundle":
            bdoc = parse_bundle_doc(obj, path)
            out = verify_bundle(expected_number(path), bdoc,
                                require_signature=require_signature, keyring=keyring)
        else:
            return FileOutcome(path, "unknown", None,
                               "neither resolver JSON (record_type: pith_number_record) nor a "
                               "bundle (bundle_type: pith_open_graph_bundle)")
    except PithError as e:
        return FileOutcome(path, kind or "unknown", None, e.message, e.exit_code)
    return FileOutcome(path, kind, out)


#: How a PDF file starts.
PDF_MAGIC = b"%PDF-"


def is_pdf_name(path: str) -> bool:
    """A file named ``.pdf`` (any case) is verified as a compiled paper."""
    return path[-4:].lower() == ".pdf"


def _include_outcome(path: str, data: bytes, require_signature: bool,
                     keyring: Optional[Keyring]) -> FileOutcome:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return FileOutcome(path, "include", None, "not pure ASCII: not a pith-tex include")
    from .signatures import verify_include_text

    return verify_include_text(path, text, require_signature=require_signature,
                               keyring=keyring)


def verify_include_file(path: str, *, require_signature: bool = False,
                        keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the file at *path* as an include, whatever its name (``include=FILE``)."""
    data, failed = read_file(path)
    if failed is not None:
        return failed
    return _include_outcome(path, data, require_signature, keyring)


def verify_file(path: str, *, require_signature: bool = False,
                keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify one file: ``.tex`` as an include, ``.pdf`` (or any file that starts as a
    PDF does) as a compiled paper (:mod:`pith_tex.pdf`), anything else as resolver
    JSON/bundle."""
    if is_pdf_name(path):
        from .pdf import verify_pdf

        return verify_pdf(path, require_signature=require_signature, keyring=keyring)
    data, failed = read_file(path)
    if failed is not None:
        return failed
    if data.startswith(PDF_MAGIC):  # a PDF by another name
        from .pdf import verify_pdf

        return verify_pdf(path, require_signature=require_signature, keyring=keyring)
    if path.endswith(".tex"):
        return _include_outcome(path, data, require_signature, keyring)
    obj, failed = decode_json(path, data)
    if failed is not None:
        return failed
    return verify_json_obj(path, obj, require_signature=require_signature, keyring=keyring)
