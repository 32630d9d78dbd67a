"""The ``pdf`` check: the PDF just built verifies and carries the paper's number."""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ..checks import Check, ERROR, FAIL, FileOutcome, OK, WARN
from .includes import signature_ok


def check_pdf(pdf: str, name: str, number: Optional[str], qr_asked: bool = True,
              anonymous: bool = False) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``pdf`` check: :func:`pith_tex.pdf.claims.verify_pdf` on the PDF built, and its
    number is *number* (the paper's, when known).  A PDF with no QR code is what a paper
    without the ``qr`` option (*qr_asked* False) is meant to give: not a warning then, which
    the author could do nothing about."""
    try:
        from ..pdf.claims import UnreadablePdf, read_claims_showing, verify_claims, verify_pdf
    except ImportError as e:
        return Check("pdf", ERROR, "not checked: this pith-tex has no PDF verifier (%s)" % e), None
    if anonymous:
        # The anonymous PDF must carry none of the number: no metadata to verify is right,
        # and the number must not be shown either (a badge drawn before anonymous was set).
        # The claims and the pages' text from one read of the file.
        shown: Optional[str] = None
        unread: Optional[str] = None
        try:
            if number:
                claims, shown, unread = read_claims_showing(pdf, number)
                out = verify_claims(pdf, claims)._replace(path=name)
            else:
                out = verify_pdf(pdf)._replace(path=name)
        except UnreadablePdf as e:
            out = FileOutcome(name, "pdf", None, str(e))
            if number:
                shown, unread = _shows_number(pdf, number)
        checks = [] if out.outcome is None else out.outcome.checks
        if shown is not None:
            return Check("pdf", FAIL, "%s is anonymous but %s shows the Pith Number %s"
                         % (name, shown, number)), out
        if [c.name for c in checks] == ["pdf"] and "no Pith metadata" in checks[0].detail:
            if number is None:
                return Check("pdf", OK, "%s carries no Pith metadata, as anonymous asks (the "
                             "number is not known, so its text was not searched for it)"
                             % name), out
            if unread is not None:
                return Check("pdf", WARN, "%s carries no Pith metadata, as anonymous asks, "
                             "but its text could not be read to look for the number (%s)"
                             % (name, unread)), out
            return Check("pdf", OK, "%s carries no Pith metadata and does not show the number, "
                         "as anonymous asks" % name), out
        if out.outcome is not None:
            return Check("pdf", FAIL, "%s is anonymous but carries Pith metadata" % name), out
    else:
        out = verify_pdf(pdf)._replace(path=name)
    if out.outcome is None:
        return Check("pdf", FAIL if out.error_code == 1 else ERROR,
                     "%s: %s" % (name, out.error)), out
    checks = out.outcome.checks
    if not qr_asked:
        checks = [c for c in checks if not (c.name == "qr" and c.status == WARN
                                             and c.detail.startswith("page 1 has no QR code"))]
    bad, signed = signature_ok(checks)
    if bad is not None:
        return Check("pdf", bad.status, "%s: %s: %s" % (name, bad.name, bad.detail)), out
    got = out.outcome.number
    if number is not None and got != number:
        return Check("pdf", FAIL, "%s carries %s, not the paper's %s" % (name, got, number)), out
    return Check("pdf", OK, "%s carries %s, %s" % (name, got, signed)), out


#: pith.sty's warning when page 1 was shipped out without the title badge it had set in
#: the title block (docs/badge.md), its continuation lines joined.
_MISSED_RE = re.compile(r"Package pith Warning: Page 1 was shipped out without the title "
                        r"badge, although it was set in the title block")
_PITH_CONTINUATION_RE = re.compile(r"\n\(pith\)\s+")


def badge_missed(log: Optional[str]) -> Optional[str]:
    """What to tell the author when the last LaTeX run's *log* says page 1 was shipped out
    without the title badge (the block went on past page 1: pith.sty could not record it
    for a rerun, as with ``\\nofiles``); None when it does not."""
    if not log or _MISSED_RE.search(_PITH_CONTINUATION_RE.sub(" ", log)) is None:
        return None
    return ("the compile's log says page 1 was shipped out without the title badge (the "
            "title block went on past page 1, and the badge with it): use "
            "placement=corner, or placement=manual and \\pithbadge on page 1")


def _shows_number(pdf: str, number: str) -> Tuple[Optional[str], Optional[str]]:
    """(Where the PDF shows *number*: a page's text or its bytes, or None; why the pages'
    text could not be read, or None when it was), for a PDF pith-tex cannot verify
    (truncated, broken, too large), read as best pypdf can."""
    unread: Optional[str] = None
    try:
        import pypdf

        reader = pypdf.PdfReader(pdf)
        for i, page in enumerate(reader.pages, 1):
            if number in (page.extract_text() or "").upper().replace(" ", ""):
                return "page %d" % i, None
    except Exception as e:  # noqa: BLE001 -- said in the check, not hidden
        unread = "%s: %s" % (type(e).__name__, e)
    from ..pdf.claims import MAX_PDF_BYTES
    from ..safeio import read_regular

    data = read_regular(pdf, MAX_PDF_BYTES)
    if data is None:
        unread = unread or "larger than %d MiB" % (MAX_PDF_BYTES >> 20)
    elif number.encode("ascii") in data:
        return "its bytes", None
    return None, unread


# Options by which venue styles and classes ask for a review copy.  pith.sty reads the
# switches of the venues it knows (docs/badge.md); another venue's is not seen.  ("anon"
# is COLT's, and ALT's and other classes made from it.)  Venues that are anonymous unless
# an option says otherwise (AISTATS, UAI, CoRL: accepted, final) give no option to see.
_REVIEW_OPTIONS = {"review", "submission", "anonymous", "anonymous=true", "anon", "blind",
                   "doubleblind", "double-blind", "anonymize", "anonymized"}
_LOAD_RE = re.compile(r"\\(?:documentclass|usepackage|RequirePackage)\s*\[([^\]]*)\]\s*"
                      r"\{([^}]*)\}")
_COMMENT_RE = re.compile(r"(?<!\\)%.*")


def review_mode_hint(main_text: str) -> Optional[str]:
    """The class or package the main file loads with a review-copy option (``review``,
    ``submission``, ``anonymous``...), named with it; None when there is none."""
    text = "\n".join(_COMMENT_RE.sub("", line) for line in main_text.splitlines())
    for m in _LOAD_RE.finditer(text):
        names = [n.strip() for n in m.group(2).split(",")]
        if "pith" in names:
            continue
        for option in m.group(1).split(","):
            if option.strip().lower() in _REVIEW_OPTIONS:
                return "%s with the option %s" % (", ".join(names), option.strip())
    return None
