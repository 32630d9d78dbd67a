"""Verify an include (``pith-number.tex``) by its text: its format, its self-contained
record and receipt (:func:`pith_tex.record.signatures.verify_embedded`), and its QR code.
Here, above the record modules, because it reads the include's format
(:mod:`pith_tex.include.include`).
"""

from __future__ import annotations

from typing import Optional

from ..checks import Check, FAIL, FileOutcome, OK
from ..errors import PithError
from ..record.keys import Keyring
from ..record.signatures import verify_embedded
from .include import FORMAT_VERSION, parse_include, qr_block_matches
from .qr import qr_text


def verify_include_text(
    path: str, text: str, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> FileOutcome:
    try:
        inc = parse_include(text)
    except PithError as e:
        return FileOutcome(path, "include", None, e.message, e.exit_code)
    out = verify_embedded("the include", "pith:%d:%s" % (inc.year, inc.number), inc.sha256,
                          inc.record, inc.key_id, inc.signature_hex,
                          require_signature=require_signature, keyring=keyring)
    checks = [Check("include", OK, "format %d, every value matches its pattern"
                    % FORMAT_VERSION)] + out.checks
    if qr_block_matches(text, inc.number):
        checks.append(Check("qr", OK, "the QR code encodes %s" % qr_text(inc.number)))
    else:
        checks.append(Check("qr", FAIL, "the QR code is not the one pith-tex draws for %s "
                            "(edited, or another qrcode library): re-run pith-tex fetch"
                            % inc.number))
    return FileOutcome(path, "include", out._replace(checks=checks))
