"""The ``compile`` check: compile a copy of the paper the way arXiv does."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..include.discover import read_tex
from .bounded import OUTPUT_CAP, run_limited
from .upload import Recorded, merged, read_fls

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


def made_fonts(workdir: str) -> str:
    """Where the compile in *workdir* writes the fonts TeX makes on the fly (mktexpk,
    mktextfm): TeX's own output, as arXiv's TeX makes them too, not a file of the paper."""
    return os.path.join(workdir, "texmf-var")


def _env(workdir: str) -> Dict[str, str]:
    env = dict(os.environ)
    for k in ("TEXINPUTS", "BIBINPUTS", "BSTINPUTS"):
        env.pop(k, None)  # only the upload itself, as on arXiv
    env["TEXMFHOME"] = os.path.join(workdir, "no-texmf-home")  # no personal packages
    # Fonts made on the fly (mktexpk, mktextfm) go to the scratch directory: nothing is
    # written outside it.
    env["TEXMFVAR"] = made_fonts(workdir)
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


class Compiled(NamedTuple):
    check: Check
    pdf: Optional[str]  # the PDF's path; None: no PDF
    excerpt: List[str]  # the log around the first error
    log: Optional[str]  # the last LaTeX run's log (None: no run finished)
    recorded: Optional[Recorded]  # TeX's -recorder lists of every LaTeX run, merged


def _arg(name: str) -> str:
    """A file name as a program argument: ``./-x.tex``, never the option ``-x.tex``."""
    return "./" + name if name.startswith("-") else name


def compile_paper(paper: str, main: str, route: str,
                  budget_seconds: float = COMPILE_BUDGET,
                  progress: Optional[Callable[[str], None]] = None,
                  tick: Optional[Callable[[], None]] = None,
                  first_run: Optional[Callable[[Optional[Recorded]], None]] = None
                  ) -> Compiled:
    """Compile *main* in the directory *paper* (a scratch copy) on *route*, under
    :mod:`pith_tex.check.sandbox`'s limits.  *progress* hears "pdflatex run 2" etc.;
    *tick* is called about every 0.1 s while a program runs; *first_run* hears what the
    first LaTeX run read, when it ended without error (the files the paper needs, known
    before the reruns: LaTeXML can start beside them)."""
    tools = []
    for name in _TOOLS[route]:
        path = shutil.which(name)
        if path is None:
            return Compiled(Check("compile", ERROR, "%s is not installed: install TeX Live "
                                  "to compile (see README.md)" % name), None, [], None, None)
        tools.append(path)
    job = os.path.splitext(main)[0]
    work = os.path.dirname(paper)
    env = _env(work)
    end = time.monotonic() + budget_seconds
    engine = _ENGINES[route]
    cmd = [tools[0], "-interaction=nonstopmode", "-no-shell-escape", "-recorder", _arg(main)]
    joblog = os.path.join(paper, job + ".log")
    output = os.path.join(work, "tex-output.txt")  # outside the copy: not an input
    log = ""
    runs = 0
    seen: List[Recorded] = []  # each run's -recorder list

    def recorded_so_far() -> Optional[Recorded]:
        # Every run's reads: arXiv compiles from nothing, so a file only the first run
        # reads (no .aux yet) belongs to the upload as much as the last run's files.
        now = _recorded(paper, job)
        if now is not None:
            seen.append(now)
        return merged(seen) if seen else None

    def stopped(what: str, why: Optional[str]) -> Compiled:
        if why == "time":
            msg = "%s did not finish within %d s in all (arXiv stops it too)" % (
                what, budget_seconds)
        else:
            msg = "%s wrote more than %d MB of log or output: stopped" % (
                what, OUTPUT_CAP // (1024 * 1024))
        return Compiled(Check("compile", FAIL, msg), None, [], None, None)

    def say(text: str) -> None:
        if progress is not None:
            progress(text)

    try:
        while runs < MAX_RUNS:
            runs += 1
            say("%s run %d" % (engine, runs))
            r = run_limited(cmd, paper, env, end, output, (joblog,), tick=tick)
            if r.stopped:
                return stopped(engine, r.stopped)
            try:
                log = read_tex(joblog)
            except OSError:
                log = r.output
            if r.returncode != 0:
                first, excerpt = _log_excerpt(log)
                if route != "xelatex" and _NEEDS_XETEX_RE.search(first):
                    # fontspec, unicode-math: the paper is a XeLaTeX (or LuaLaTeX) one.
                    first += "; a XeLaTeX paper: pith-tex check --route xelatex"
                hint = missing_file_hint(paper, first, route)
                if hint is not None:
                    first += "; " + hint
                return Compiled(Check("compile", FAIL, "%s failed (run %d): %s"
                                      % (engine, runs, first)), None, excerpt, log,
                                recorded_so_far())
            recorded = recorded_so_far()
            if runs == 1 and first_run is not None:
                first_run(recorded)
            if not _RERUN_RE.search(log):
                break
        rerun = runs == MAX_RUNS and bool(_RERUN_RE.search(log))
        out = job + (".dvi" if route == "dvips" else ".pdf")
        if not os.path.exists(os.path.join(paper, out)):
            return Compiled(Check("compile", FAIL, "%s made no %s (%s)" % (
                engine, out, "no pages of output" if "No pages of output" in log
                else "see the log")), None, log.splitlines()[-8:], log, recorded)
        steps = "%s x%d" % (engine, runs)
        if route == "dvips":
            for cmd2, name in (([tools[1], "-R2", "-q", "-z", _arg(job + ".dvi"), "-o",
                                 _arg(job + ".ps")], "dvips -R2 -q -z"),
                               ([tools[2], "-dSAFER", _arg(job + ".ps"), _arg(job + ".pdf")], "ps2pdf")):
                say(name)
                r = run_limited(cmd2, paper, env, end, output, tick=tick)
                if r.stopped:
                    return stopped(name, r.stopped)
                if r.returncode != 0:
                    tail = [ln for ln in r.output.splitlines() if ln.strip()][-8:]
                    return Compiled(Check("compile", FAIL, "%s failed (exit %d)%s" % (
                        name, -1 if r.returncode is None else r.returncode,
                        ": " + tail[0] if tail else "")), None, tail, log,
                        recorded)
            steps += ", dvips -R2 -q -z, ps2pdf"
    except OSError as e:
        return Compiled(Check("compile", ERROR, "could not run %s: %s"
                              % (engine, e.strerror or e)), None, [], None, None)
    pdf = os.path.join(paper, job + ".pdf")
    if not os.path.exists(pdf):
        return Compiled(Check("compile", FAIL, "%s: no %s.pdf was made" % (steps, job)), None,
                        [], log, recorded)
    if rerun:
        return Compiled(Check("compile", WARN, "%s: compiles, but the log still asks for a "
                              "rerun after %d runs (arXiv stops there)" % (steps, MAX_RUNS)),
                        pdf, [], log, recorded)
    return Compiled(Check("compile", OK, "%s: compiles with no error (no shell escape)%s"
                          % (steps, _texlive(log))), pdf, [], log, recorded)


#: The error of a package that needs XeTeX or LuaTeX (fontspec, unicode-math).
_NEEDS_XETEX_RE = re.compile(r"requires either XeTeX or LuaTeX|Use XeLaTeX or LuaLaTeX instead")

#: The banner of a TeX Live engine, the log's first line: "... (TeX Live 2022/Debian) ...".
_TEXLIVE_RE = re.compile(r"\(TeX Live (\d{4})")


def _texlive(log: str) -> str:
    """", with this machine's TeX Live 2022" from the log's banner, or "" (MiKTeX, ...):
    the compile says what it proved, on which TeX; arXiv's TeX Live is its own."""
    m = _TEXLIVE_RE.search(log[:400])
    return ", with this machine's TeX Live %s" % m.group(1) if m else ""


def _recorded(paper: str, job: str) -> Optional[Recorded]:
    try:
        return read_fls(read_tex(os.path.join(paper, job + ".fls")), paper)
    except OSError:
        return None


def tex_roots() -> List[str]:
    """The directories TeX Live reads from by itself (its trees and configuration)."""
    roots = ["/usr/share/texlive", "/usr/share/texmf", "/usr/share/fonts", "/etc/texmf",
             "/var/lib/texmf", "/usr/local/texlive"]
    exe = shutil.which("kpsewhich")
    if exe is not None:
        for var in ("TEXMFROOT", "TEXMFDIST", "TEXMFMAIN", "TEXMFLOCAL", "TEXMFSYSVAR",
                    "TEXMFSYSCONFIG", "TEXMFVAR", "TEXMFCONFIG"):
            try:
                p = subprocess.run([exe, "-var-value=" + var], capture_output=True,
                                   text=True, timeout=30, stdin=subprocess.DEVNULL)
            except (OSError, subprocess.SubprocessError):
                continue
            roots.extend(v for v in p.stdout.strip().split(":") if v.startswith("/"))
    return roots


_MISSING_RE = re.compile(r"File [`']([^`']+)' not found|I can't find file [`']([^`']+)'"
                         r"|Unknown graphics extension: (\.[A-Za-z0-9]+)")
_FIGURES = (".pdf", ".png", ".jpg", ".jpeg", ".jbig2", ".jb2")


def _found_in(paper: str, names: List[str]) -> List[str]:
    """Where files named *names* are in the copy *paper*, relative, outside its top."""
    found: List[str] = []
    for root, dirs, files in os.walk(paper):
        dirs[:] = sorted(dirs)
        if root == paper:
            continue
        found.extend(os.path.relpath(os.path.join(root, n), paper) for n in sorted(files)
                     if n in names)
    return found


def missing_file_hint(paper: str, first: str, route: str) -> Optional[str]:
    """What to do about the file the compile's first error says is missing: a figure the
    dvips route cannot read, a file in a subdirectory (arXiv searches none: a
    ``TEXINPUTS=.//`` in a Makefile does not reach it), a file only this machine has
    (TEXMFHOME, TEXINPUTS).  None when there is nothing to say."""
    m = _MISSING_RE.search(first)
    if m is None:
        return None
    if m.group(3) is not None:
        ext = m.group(3).lower()
        if route == "dvips" and ext in _FIGURES:
            return ("the dvips route (latex) reads .eps figures only, not %s: convert the "
                    "figures to .eps, or check with --route pdflatex" % ext)
        return None
    name = m.group(1) or m.group(2)
    base = os.path.basename(name)
    stem, ext = os.path.splitext(base)
    if route == "dvips" and ext.lower() in ("",) + _FIGURES:
        there = sorted(n for n in os.listdir(os.path.join(paper, os.path.dirname(name)))
                       if os.path.splitext(n)[0] == stem
                       and os.path.splitext(n)[1].lower() in _FIGURES) \
            if os.path.isdir(os.path.join(paper, os.path.dirname(name))) else []
        if there:
            return ("%s is there, but the dvips route (latex) reads .eps figures only: "
                    "convert it to .eps, or check with --route pdflatex"
                    % os.path.join(os.path.dirname(name), there[0]))
    names = [base] if ext else [base, base + ".tex"]
    found = _found_in(paper, names)
    if found:
        return ("%s is in %s: arXiv compiles in the top directory and searches no "
                "subdirectory (a TEXINPUTS=.// setting does not reach it): move it beside "
                "the main file, or name it with its directory" % (base, found[0]))
    exe = shutil.which("kpsewhich")
    if exe is None:
        return None
    for cand in names:
        try:
            # this machine's own settings; from /, so that no "." is the paper's
            p = subprocess.run([exe, cand], capture_output=True, text=True, timeout=30,
                               stdin=subprocess.DEVNULL, cwd="/")
        except (OSError, subprocess.SubprocessError):
            return None
        where = p.stdout.strip()
        if p.returncode == 0 and where:
            return ("this machine has %s at %s (your TEXMFHOME or TEXINPUTS), which arXiv "
                    "does not have: copy it beside the main file and upload it"
                    % (cand, where))
    return None


def engine_and_env(route: str, paper: str) -> Optional[Tuple[str, Dict[str, str]]]:
    """The LaTeX engine of *route* and its environment for the copy *paper*, as
    :func:`compile_paper` runs it; None when the engine is not installed."""
    path = shutil.which(_ENGINES[route])
    return None if path is None else (path, _env(os.path.dirname(paper)))
