"""The record-level checks shared by every verifier: ``record``, ``hash``, ``derivation``
and ``year`` of a record that claims a digest and a Pith Number (see :mod:`pith_tex.record.verdict`
for what each means).

Both :mod:`pith_tex.record.verdict` (resolver JSON, bundles) and :mod:`pith_tex.record.signatures`
(includes, PDFs) build on these; this module imports neither, so imports flow one way:
``verify -> signatures -> recordchecks -> checks``.
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from . import canonical
from .canonical import RecordFields
from ..checks import ERROR, FAIL, OK, Check
from ..errors import CouldNotCheck, show

_PITH_NUMBER_RE = re.compile(r"pith:([0-9]{4}):([A-Z2-7]{26})\Z")


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
