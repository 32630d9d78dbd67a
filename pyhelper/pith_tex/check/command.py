"""The ``pith-tex check`` command: run the checks, print them, pick the exit code."""

from __future__ import annotations

import os
import sys
import time
from typing import Dict, List, Optional

from ..checks import WARN, Check, decisive, exit_code_of
from ..console import echo
from ..errors import EXIT_FAILED, CouldNotCheck, PithError, VerificationFailed
from ..report import LABELS, checks_json, dumps, file_json
from .run import Readiness, run_checks
from .upload import check_tarball_target, write_tarball


#: Seconds between two progress lines while one step goes on.
HEARTBEAT = 5.0

#: ``verdict`` in ``check --json``, by exit code.
VERDICTS = {0: "ready", 1: "failed", 2: "usage-error", 3: "could-not-check"}


def check_json(r: Optional[Readiness], code: int, error: Optional[str],
               directory: str, route: str, tarball: Optional[str] = None
               ) -> Dict[str, object]:
    """The ``check --json`` object::

        {"command": "check", "dir": "DIR", "main": "main.tex" | null, "route": "pdflatex",
         "exit_code": 0, "verdict": "ready" | "failed" | "usage-error" | "could-not-check",
         "checks": [{"name": "pith.sty", "status": "ok", "detail": "..."}, ...],
         "fixed": ["copied pith.sty with ..."], "log_excerpt": ["! ...", "l.12 ..."],
         "pdf": <a file of verify --json> | null, "error": null | "one-line message",
         "upload": ["main.tex", "pith.sty", ...] | null, "tarball": "FILE" | null}

    ``upload`` lists the files the compile read from DIR (null: no compile finished);
    ``tarball`` is the file ``--tarball`` wrote (null: none written).
    """
    return {
        "command": "check", "dir": directory, "main": None if r is None else r.main,
        "route": route, "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
        "checks": [] if r is None else checks_json(r.checks),
        "fixed": [] if r is None else r.fixed,
        "log_excerpt": [] if r is None else r.log_excerpt,
        "pdf": None if r is None or r.pdf is None else file_json(r.pdf),
        "error": error,
        "upload": None if r is None else r.upload,
        "tarball": tarball,
    }


class _Terminal:
    """check's running commentary on stderr.  Piped (CI, a log file): each phase's start
    as a line of its own with the seconds since check began, and a line at least every
    :data:`HEARTBEAT` s while one goes on.  On a terminal: the same on one line,
    rewritten.  ``--json``: nothing on stderr but errors."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.live = not as_json and sys.stderr.isatty()
        self.piped = not as_json and not self.live
        self.shown = 0  # the width of the progress line on the terminal, to clear it
        self.start = time.monotonic()
        self.phase = ("", self.start, self.start)  # (what, when it began, when last said)

    def _say(self, line: str) -> None:
        if self.live:
            sys.stderr.write("\r" + line.ljust(self.shown))
            sys.stderr.flush()
            self.shown = len(line)
        else:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def progress(self, text: Optional[str]) -> None:
        if not (self.live or self.piped):
            return
        now = time.monotonic()
        what, began, said = self.phase
        if text is not None:
            self.phase = (text, now, now)
            self._say("... %s (%.1f s)" % (text, now - self.start))
        elif what and now - said >= HEARTBEAT:
            self.phase = (what, began, now)
            self._say("... %s: still running, %.0f s in this step (%.1f s)"
                      % (what.split(" (")[0], now - began, now - self.start))

    def report(self, c: Check, extra: List[str]) -> None:
        if self.as_json:
            return
        if self.shown:
            sys.stderr.write("\r" + " " * self.shown + "\r")
            sys.stderr.flush()
            self.shown = 0
        lines = ["%-6s%-13s%s" % (LABELS[c.status], c.name, c.detail)]
        lines.extend(("      | " + ln).rstrip() for ln in extra)
        echo("\n".join(lines))


def check_command(directory: str, route: str, fix: bool, main: Optional[str],
                  as_json: bool, tarball: Optional[str] = None, html: str = "title",
                  mirror: str = "") -> int:
    """The body of ``pith-tex check``: print each check as it completes, then exit 0 or
    raise the decisive error.  *tarball*: write the upload there when the paper is ready;
    *mirror*: a resolver mirror on disk (PITH_RESOLVER), where the record's title is."""
    terminal = _Terminal(as_json)
    try:
        if tarball is not None:
            check_tarball_target(tarball)  # before minutes of compiling, and nothing lost
        r = run_checks(directory, route, fix, main, report=terminal.report,
                       progress=terminal.progress, html=html, mirror=mirror)
    except PithError as e:
        if as_json:
            echo(dumps(check_json(None, e.exit_code, e.message, directory, route)))
        raise
    code = exit_code_of(r.checks)
    wrote = _tarball(r, code, tarball)
    error = _error(r, code, tarball)
    if as_json:
        echo(dumps(check_json(r, code, error, directory, route, wrote)))
    elif code == 0:
        _ready(r, route, wrote)
    if error is not None:
        raise (VerificationFailed if code == EXIT_FAILED else CouldNotCheck)(error)
    return code


def _tarball(r: Readiness, code: int, tarball: Optional[str]) -> Optional[str]:
    """Write ``--tarball`` when the paper is ready: its name, or None (not written)."""
    if code != 0 or tarball is None or r.upload is None:
        return None
    try:
        write_tarball(tarball, r.directory, r.upload, r.checked)
    except OSError as e:
        raise CouldNotCheck("the paper is ready, but writing %s failed: %s"
                            % (tarball, e.strerror or e)) from e
    return tarball


def _error(r: Readiness, code: int, tarball: Optional[str]) -> Optional[str]:
    """The error line of a paper not ready (None: ready), from the decisive check."""
    bad = decisive(r.checks)
    if code == 0 or bad is None:
        return None
    error = "%s: %s: %s" % ("not ready for arXiv" if code == EXIT_FAILED
                            else "could not check", bad.name, bad.detail)
    if tarball is not None:
        error += "; %s was not written" % tarball
        if os.path.lexists(tarball):
            # An earlier run's upload, still there: the author must not take it for
            # this version's (check_tarball_target let only a .tar.gz through).
            error += (", and the %s already there is from an earlier run, not from "
                      "this version of the paper: do not upload it" % tarball)
    return error


def _ready(r: Readiness, route: str, wrote: Optional[str]) -> None:
    """The last lines of a ready paper: the warnings counted, the files to upload."""
    # A warning does not stop the upload, but one such as "WARN title" (the number may
    # be another paper's) must not drown above a cheerful last line.
    warned = [c.name for c in r.checks if c.status == WARN]
    if warned:
        echo("%d warning%s above (%s): read %s before you upload"
             % (len(warned), "" if len(warned) == 1 else "s", ", ".join(warned),
                "it" if len(warned) == 1 else "them"))
    files = " ".join(r.upload or [r.main])
    if wrote is not None:
        echo("ready for arXiv (%s): wrote %s with the %d files to upload: %s"
             % (route, wrote, len(r.upload or []), files))
    else:
        echo("ready for arXiv (%s): upload exactly these files (or run with --tarball "
             "FILE): %s" % (route, files))
