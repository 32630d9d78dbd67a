"""The ``pith-tex check`` command: run the checks, print them, pick the exit code."""

from __future__ import annotations

from typing import Dict, Optional

from ..checks import decisive
from .compiler import ROUTES
from .run import Readiness, run_checks


#: ``verdict`` in ``check --json``, by exit code.
VERDICTS = {0: "ready", 1: "failed", 2: "usage-error", 3: "could-not-check"}


def check_json(r: Optional[Readiness], code: int, error: Optional[str],
               directory: str, route: str) -> Dict[str, object]:
    """The ``check --json`` object::

        {"command": "check", "dir": "DIR", "main": "main.tex" | null, "route": "pdflatex",
         "exit_code": 0, "verdict": "ready" | "failed" | "usage-error" | "could-not-check",
         "checks": [{"name": "pith.sty", "status": "ok", "detail": "..."}, ...],
         "fixed": ["copied pith.sty with ..."], "log_excerpt": ["! ...", "l.12 ..."],
         "pdf": <a file of verify --json> | null, "error": null | "one-line message"}
    """
    from ..report import checks_json, file_json

    return {
        "command": "check", "dir": directory, "main": None if r is None else r.main,
        "route": route, "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
        "checks": [] if r is None else checks_json(r.checks),
        "fixed": [] if r is None else r.fixed,
        "log_excerpt": [] if r is None else r.log_excerpt,
        "pdf": None if r is None or r.pdf is None else file_json(r.pdf),
        "error": error,
    }


def check_command(directory: str, route: str, fix: bool, main: Optional[str],
                  as_json: bool) -> int:
    """The body of ``pith-tex check``: print, then exit 0 or raise the decisive error."""
    from ..console import echo
    from ..errors import EXIT_FAILED, CouldNotCheck, PithError, VerificationFailed
    from ..report import LABELS, dumps
    from ..checks import exit_code_of

    try:
        r = run_checks(directory, route, fix, main)
    except PithError as e:
        if as_json:
            echo(dumps(check_json(None, e.exit_code, e.message, directory, route)))
        raise
    code = exit_code_of(r.checks)
    bad = decisive(r.checks)
    error = None
    if code != 0 and bad is not None:
        error = "%s: %s: %s" % ("not ready for arXiv" if code == EXIT_FAILED
                                else "could not check", bad.name, bad.detail)
    if as_json:
        echo(dumps(check_json(r, code, error, directory, route)))
    else:
        lines = []
        for c in r.checks:  # check_line's columns, the name column one wider for
            lines.append("%-6s%-13s%s" % (LABELS[c.status], c.name, c.detail))  # shell-escape
            if c.name == "compile":
                lines.extend(("      | " + ln).rstrip() for ln in r.log_excerpt)
        if code == 0:
            lines.append("ready for arXiv (%s): upload %s with the files beside it"
                         % (route, r.main))
        echo("\n".join(lines))
    if error is not None:
        raise (VerificationFailed if code == EXIT_FAILED else CouldNotCheck)(error)
    return code
