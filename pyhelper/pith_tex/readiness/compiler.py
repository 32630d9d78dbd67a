"""The ``compile`` check: compile a copy of the paper the way arXiv does."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from typing import Dict, List, Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..discover import read_tex

ROUTES = ("pdflatex", "dvips", "xelatex")
MAX_RUNS = 5  # arXiv runs LaTeX at most 5 times
COMPILE_BUDGET = 300.0  # seconds for the whole compile (every run, dvips, ps2pdf)

_CONTINUATION_RE = re.compile(r"\([A-Za-z0-9@.-]+\)\s+")  # "(pith)    more of the message"
_LINE_RE = re.compile(r"l\.[0-9]+(?: |\Z)")
#: What makes arXiv run LaTeX again ("Rerun to get cross-references right", hyperref's
#: "Rerun to get outlines right", ...); not rerunfilecheck's "Package: ... Rerun checks".
_RERUN_RE = re.compile(r"Rerun to get|Rerun LaTeX|Please rerun LaTeX|Label\(s\) may have changed")

_ENGINES = {"pdflatex": "pdflatex", "dvips": "latex", "xelatex": "xelatex"}
_TOOLS = {"pdflatex": ("pdflatex",), "dvips": ("latex", "dvips", "ps2pdf"),
          "xelatex": ("xelatex",)}


def _env(workdir: str) -> Dict[str, str]:
    env = dict(os.environ)
    for k in ("TEXINPUTS", "BIBINPUTS", "BSTINPUTS"):
        env.pop(k, None)  # only the upload itself, as on arXiv
    env["TEXMFHOME"] = os.path.join(workdir, "no-texmf-home")  # no personal packages
    env["max_print_line"] = "10000"  # error lines unwrapped in the log
    return env


def _log_excerpt(log: str) -> Tuple[str, List[str]]:
    """The first ``! `` error (its continuation lines joined) with its ``l.N`` line, and
    the log lines that show it: from the ``! `` line to ``l.N`` and the line after it."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("! "):
            continue
        message = [line]
        for follow in lines[i + 1:i + 8]:
            if not _CONTINUATION_RE.match(follow):
                break
            message.append(follow)
        first = " ".join([message[0]] + [_CONTINUATION_RE.sub("", m) for m in message[1:]])
        excerpt = list(message)
        for j in range(i + len(message), min(i + 12, len(lines))):
            if _LINE_RE.match(lines[j]):  # TeX's context, down to "l.N ..." and the rest
                excerpt = lines[i:j + 2]
                first += " (at %s)" % lines[j].strip()
                break
        shown = [ln.rstrip() for ln in excerpt[:12]]
        while shown and not shown[-1]:
            shown.pop()
        return " ".join(first.split()), shown
    tail = [ln for ln in lines[-8:] if ln.strip()]
    return (tail[-1] if tail else "no log"), tail


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(1.0, self.end - time.monotonic())


def _run(cmd: List[str], cwd: str, env: Dict[str, str], budget: _Budget
         ) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=budget.left())


def compile_paper(paper: str, main: str, route: str,
                  budget_seconds: float = COMPILE_BUDGET
                  ) -> Tuple[Check, Optional[str], List[str]]:
    """Compile *main* in the directory *paper* (a scratch copy) on *route*.

    Returns the ``compile`` check, the PDF's path (None: no PDF) and the log excerpt."""
    tools = []
    for name in _TOOLS[route]:
        path = shutil.which(name)
        if path is None:
            return Check("compile", ERROR, "%s is not installed: install TeX Live to compile "
                         "(e.g. scripts/setup.sh)" % name), None, []
        tools.append(path)
    job = os.path.splitext(main)[0]
    for ext in (".pdf", ".dvi", ".ps"):
        try:
            os.unlink(os.path.join(paper, job + ext))  # a stale result proves nothing
        except FileNotFoundError:
            pass
    env = _env(os.path.dirname(paper))
    budget = _Budget(budget_seconds)
    engine = _ENGINES[route]
    cmd = [tools[0], "-interaction=nonstopmode", "-no-shell-escape", main]
    log = ""
    runs = 0
    try:
        while runs < MAX_RUNS:
            runs += 1
            p = _run(cmd, paper, env, budget)
            try:
                log = read_tex(os.path.join(paper, job + ".log"))
            except OSError:
                log = p.stdout
            if p.returncode != 0:
                first, excerpt = _log_excerpt(log)
                return Check("compile", FAIL, "%s failed (run %d): %s"
                             % (engine, runs, first)), None, excerpt
            if not _RERUN_RE.search(log):
                break
        rerun = runs == MAX_RUNS and bool(_RERUN_RE.search(log))
        out = job + (".dvi" if route == "dvips" else ".pdf")
        if not os.path.exists(os.path.join(paper, out)):
            return Check("compile", FAIL, "%s made no %s (%s)" % (
                engine, out, "no pages of output" if "No pages of output" in log
                else "see the log")), None, log.splitlines()[-8:]
        steps = "%s x%d" % (engine, runs)
        if route == "dvips":
            for cmd2, name in (([tools[1], "-R2", "-q", "-z", job + ".dvi", "-o", job + ".ps"],
                                "dvips -R2 -q -z"),
                               ([tools[2], job + ".ps", job + ".pdf"], "ps2pdf")):
                p = _run(cmd2, paper, env, budget)
                if p.returncode != 0:
                    tail = [ln for ln in p.stdout.splitlines() if ln.strip()][-8:]
                    return Check("compile", FAIL, "%s failed (exit %d)%s" % (
                        name, p.returncode, ": " + tail[0] if tail else "")), None, tail
            steps += ", dvips -R2 -q -z, ps2pdf"
    except subprocess.TimeoutExpired as e:
        name = os.path.basename(str(e.cmd[0])) if isinstance(e.cmd, list) else "TeX"
        return Check("compile", FAIL, "%s did not finish within %d s in all"
                     % (name, budget_seconds)), None, []
    except OSError as e:
        return Check("compile", ERROR, "could not run %s: %s" % (engine, e.strerror or e)), \
            None, []
    pdf = os.path.join(paper, job + ".pdf")
    if not os.path.exists(pdf):
        return Check("compile", FAIL, "%s: no %s.pdf was made" % (steps, job)), None, []
    if rerun:
        return Check("compile", WARN, "%s: compiles, but the log still asks for a rerun "
                     "after %d runs (arXiv stops there)" % (steps, MAX_RUNS)), pdf, []
    return Check("compile", OK, "%s: compiles with no error (no shell escape)" % steps), pdf, []

