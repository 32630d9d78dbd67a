"""How results are printed.

Text (sigstore-python style): one line per check, ``STATUS`` in 6 columns, the check name
in 12, then the detail::

    OK    hash        canonical_record hashes to 77a6d683…4f23
    FAIL  derivation  base32(sha256)[:26] = ..., not ...
    OK    signature   checked, unsigned: the hash proves the number, no signed receipt ...
    ERROR signature   receipt signed with unknown key id 'x' (pinned: pith-v1-2026-05); ...

then, on success, a final line on stdout (``wrote pith-number.tex`` /
``pith-number.tex is up to date`` for ``fetch``, ``verified`` or ``checked (unsigned)``
for ``verify FILE``: the state, in the badge's words, docs/verification.md).
Directories and several files give one line per file (``STATUS path  number`` or
``STATUS path  check: detail``; a path with a newline or another unprintable character
is quoted with escapes, :func:`pith_tex.errors.safe_name`, so no file name can forge a
line) and a summary line ``N files: a verified, b failed, c could
not be checked``.  Every non-zero exit ends with exactly one line ``error: ...`` on stderr
naming the decisive check (``error: verification failed: hash: ...; pith-number.tex was
left untouched``), with ``--json`` too.

``--json`` prints exactly one JSON object on stdout instead (errors still also go to
stderr).  ``fetch``::

    {"command": "fetch", "number": "NUM" | null, "source": "URL or path" | null,
     "exit_code": 0, "verdict": "verified" | "failed" | "usage-error" | "could-not-check",
     "checks": [{"name": "hash", "status": "ok" | "fail" | "warn" | "error",
                 "detail": "..."}, ...],
     "include": {"path": "pith-number.tex", "written": true} | null,
     "error": null | "one-line message"}

``verify``::

    {"command": "verify", "exit_code": 0, "verdict": "...",
     "summary": {"files": N, "verified": N, "failed": N, "could_not_check": N},
     "files": [{"path": "...", "kind": "record" | "bundle" | "include" | "pdf"
                        | "citation-record" | "unknown",
                "number": "NUM" | null, "exit_code": 0, "verdict": "...",
                "checks": [...], "error": null | "..."}, ...]}

A PDF (kind ``"pdf"``) has the checks ``pdf``, ``canonical``, ``record``, ``hash``,
``derivation``, ``year``, ``signature``, ``url``, ``arxiv``, ``state``, ``info``, ``badge``,
``qr``, with pith XMP properties or a ``dc:identifier`` ``xmp``, then ``pith-title`` and
``title`` (:mod:`pith_tex.pdf.pagetitle`; see :mod:`pith_tex.pdf.claims` and docs/verification.md), or
a single check (an error, or a
``canonical`` failure) when the PDF carries no verified Pith metadata; a file that is not
a readable PDF has no checks and an ``error``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Optional

from .errors import EXIT_FAILED, safe_name
from .checks import Check, ERROR, FAIL, FileOutcome, OK, VERDICTS, WARN, decisive

LABELS = {OK: "OK", FAIL: "FAIL", WARN: "WARN", ERROR: "ERROR"}


def check_line(c: Check) -> str:
    return "%-6s%-12s%s" % (LABELS[c.status], c.name, c.detail)


def check_lines(checks: Iterable[Check]) -> str:
    return "\n".join(check_line(c) for c in checks)


def checks_json(checks: Iterable[Check]) -> List[Dict[str, str]]:
    return [{"name": c.name, "status": c.status, "detail": c.detail} for c in checks]


def ok_line(path: str, number: Optional[str]) -> str:
    """The compact line of a file whose every check passed."""
    return "OK    %s  %s" % (safe_name(path), number)


def file_line(f: FileOutcome) -> str:
    """One compact line for a file."""
    if f.outcome is None:
        label = "FAIL" if f.error_code == EXIT_FAILED else "ERROR"
        return "%-6s%s  %s" % (label, safe_name(f.path), f.error)
    worst = decisive(f.outcome.checks)
    if worst is None:  # a document without a number (a citation record) shows its kind
        return ok_line(f.path, f.outcome.number or f.kind)
    return "%-6s%s  %s: %s" % (LABELS[worst.status], safe_name(f.path), worst.name,
                               worst.detail)


def file_result(f: FileOutcome) -> str:
    """Every check of one file (the form used when a single file is verified)."""
    if f.outcome is None:
        return "%-6s%-12s%s" % ("FAIL" if f.error_code == EXIT_FAILED else "ERROR", f.kind, f.error)
    return check_lines(f.outcome.checks)


def file_json(f: FileOutcome) -> Dict[str, Any]:
    o = f.outcome
    code = f.exit_code
    return {
        "path": f.path,
        "kind": f.kind,
        "number": None if o is None else o.number,
        "exit_code": code,
        "verdict": VERDICTS[code],
        "checks": [] if o is None else checks_json(o.checks),
        "error": f.error,
    }


def dumps(obj: Dict[str, Any]) -> str:
    return json.dumps(obj, indent=None, ensure_ascii=True, sort_keys=False)
