"""The ``pdf`` check: the PDF just built verifies and carries the paper's number."""

from __future__ import annotations

from typing import Optional, Tuple

from ..checks import Check, ERROR, FAIL, FileOutcome, OK
from .includes import signature_ok


def check_pdf(pdf: str, name: str, number: Optional[str]) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``pdf`` check: :func:`pith_tex.pdf.verify_pdf` on the PDF built, and its
    number is *number* (the paper's, when known)."""
    try:
        from ..pdf import verify_pdf
    except ImportError as e:
        return Check("pdf", ERROR, "not checked: this pith-tex has no PDF verifier (%s)" % e), None
    out = verify_pdf(pdf)._replace(path=name)
    if out.outcome is None:
        return Check("pdf", FAIL if out.error_code == 1 else ERROR,
                     "%s: %s" % (name, out.error)), out
    bad, signed = signature_ok(out.outcome.checks)
    if bad is not None:
        return Check("pdf", bad.status, "%s: %s: %s" % (name, bad.name, bad.detail)), out
    got = out.outcome.number
    if number is not None and got != number:
        return Check("pdf", FAIL, "%s carries %s, not the paper's %s" % (name, got, number)), out
    return Check("pdf", OK, "%s carries %s, its record verifies, %s" % (name, got, signed)), out

