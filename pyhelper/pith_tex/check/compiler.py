"""The ``compile`` check: compile a copy of the paper the way arXiv does."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..safeio import read_tex
from .bounded import OUTPUT_CAP, run_limited
from .figures import eps_boxes_said, eps_drawn_as_boxes
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
    run = _Compile(paper, main, route, budget_seconds, progress, tick)
    try:
        failed = run.latex(tools[0], first_run)
        if failed is None and route == "dvips":
            failed = run.dvips(tools[1], tools[2])
    except OSError as e:
        return Compiled(Check("compile", ERROR, "could not run %s: %s"
                              % (run.engine, e.strerror or e)), None, [], None, None)
    return failed if failed is not None else run.made()


class _Compile:
    """One compile of the copy *paper*: the LaTeX runs, then (dvips route) dvips and
    ps2pdf, all within one time budget; each step returns its failure, or None."""

    def __init__(self, paper: str, main: str, route: str, budget_seconds: float,
                 progress: Optional[Callable[[str], None]],
                 tick: Optional[Callable[[], None]]) -> None:
        self.paper, self.main, self.route = paper, main, route
        self.job = os.path.splitext(main)[0]
        work = os.path.dirname(paper)
        self.env = _env(work)
        self.budget_seconds = budget_seconds
        self.end = time.monotonic() + budget_seconds
        self.engine = _ENGINES[route]
        self.joblog = os.path.join(paper, self.job + ".log")
        self.output = os.path.join(work, "tex-output.txt")  # outside the copy: not an input
        self.progress, self.tick = progress, tick
        self.log = ""
        self.runs = 0
        self.rerun = False  # the log still asks for a rerun after MAX_RUNS runs
        self.steps = ""  # what ran, for the compile line
        self.seen: List[Recorded] = []  # each run's -recorder list
        self.recorded: Optional[Recorded] = None

    def recorded_so_far(self) -> Optional[Recorded]:
        # Every run's reads: arXiv compiles from nothing, so a file only the first run
        # reads (no .aux yet) belongs to the upload as much as the last run's files.
        now = _recorded(self.paper, self.job)
        if now is not None:
            self.seen.append(now)
        return merged(self.seen) if self.seen else None

    def stopped(self, what: str, why: Optional[str]) -> Compiled:
        if why == "time":
            msg = "%s did not finish within %d s in all (arXiv stops it too)" % (
                what, self.budget_seconds)
        else:
            msg = "%s wrote more than %d MB of log or output: stopped" % (
                what, OUTPUT_CAP // (1024 * 1024))
        return Compiled(Check("compile", FAIL, msg), None, [], None, None)

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def latex(self, tool: str, first_run: Optional[Callable[[Optional[Recorded]], None]]
              ) -> Optional[Compiled]:
        """LaTeX, run until the log asks for no rerun (at most :data:`MAX_RUNS` runs)."""
        cmd = [tool, "-interaction=nonstopmode", "-no-shell-escape", "-recorder",
               _arg(self.main)]
        while self.runs < MAX_RUNS:
            self.runs += 1
            self.say("%s run %d" % (self.engine, self.runs))
            r = run_limited(cmd, self.paper, self.env, self.end, self.output, (self.joblog,),
                            tick=self.tick)
            if r.stopped:
                return self.stopped(self.engine, r.stopped)
            try:
                self.log = read_tex(self.joblog)
            except OSError:
                self.log = r.output
            if r.returncode != 0:
                return self.failed_run()
            self.recorded = self.recorded_so_far()
            if self.runs == 1 and first_run is not None:
                first_run(self.recorded)
            if not _RERUN_RE.search(self.log):
                break
        self.rerun = self.runs == MAX_RUNS and bool(_RERUN_RE.search(self.log))
        out = self.job + (".dvi" if self.route == "dvips" else ".pdf")
        if not os.path.exists(os.path.join(self.paper, out)):
            return Compiled(Check("compile", FAIL, "%s made no %s (%s)" % (
                self.engine, out, "no pages of output" if "No pages of output" in self.log
                else "see the log")), None, self.log.splitlines()[-8:], self.log,
                self.recorded)
        self.steps = "%s x%d" % (self.engine, self.runs)
        return None

    def failed_run(self) -> Compiled:
        """The compile line of a LaTeX run that ended with an error."""
        first, excerpt = _log_excerpt(self.log)
        if self.route != "xelatex" and _NEEDS_XETEX_RE.search(first):
            # fontspec, unicode-math: the paper is a XeLaTeX (or LuaLaTeX) one.
            first += "; a XeLaTeX paper: pith-tex check --route xelatex"
        hint = missing_file_hint(self.paper, first, self.route)
        if hint is not None:
            first += "; " + hint
        return Compiled(Check("compile", FAIL, "%s failed (run %d): %s"
                              % (self.engine, self.runs, first)), None, excerpt, self.log,
                        self.recorded_so_far())

    def dvips(self, dvips: str, ps2pdf: str) -> Optional[Compiled]:
        """The dvips route's two steps after LaTeX: dvips -R2, then ps2pdf."""
        job = self.job
        for cmd, name in (([dvips, "-R2", "-q", "-z", _arg(job + ".dvi"), "-o",
                            _arg(job + ".ps")], "dvips -R2 -q -z"),
                          ([ps2pdf, "-dSAFER", _arg(job + ".ps"), _arg(job + ".pdf")],
                           "ps2pdf")):
            self.say(name)
            r = run_limited(cmd, self.paper, self.env, self.end, self.output, tick=self.tick)
            if r.stopped:
                return self.stopped(name, r.stopped)
            if r.returncode != 0:
                tail = [ln for ln in r.output.splitlines() if ln.strip()][-8:]
                return Compiled(Check("compile", FAIL, "%s failed (exit %d)%s" % (
                    name, -1 if r.returncode is None else r.returncode,
                    ": " + tail[0] if tail else "")), None, tail, self.log, self.recorded)
        self.steps += ", dvips -R2 -q -z, ps2pdf"
        return None

    def made(self) -> Compiled:
        """The compile line once every step ran: the PDF made, or not."""
        pdf = os.path.join(self.paper, self.job + ".pdf")
        log, recorded, steps = self.log, self.recorded, self.steps
        if not os.path.exists(pdf):
            return Compiled(Check("compile", FAIL, "%s: no %s.pdf was made"
                                  % (steps, self.job)), None, [], log, recorded)
        boxes = [] if self.route != "pdflatex" or recorded is None else eps_drawn_as_boxes(
            recorded, self.paper)
        if boxes:  # no error, yet the figures are missing from the PDF arXiv would make
            return Compiled(Check("compile", FAIL, "%s: compiles, %s" % (
                steps, eps_boxes_said(boxes))), pdf, [], log, recorded)
        if self.rerun:
            return Compiled(Check("compile", WARN, "%s: compiles, but the log still asks "
                                  "for a rerun after %d runs (arXiv stops there)"
                                  % (steps, MAX_RUNS)), pdf, [], log, recorded)
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
    return _nowhere_hint(base, ext)


def _nowhere_hint(base: str, ext: str) -> Optional[str]:
    """A package or class in neither the upload nor this machine's TeX: Debian and Ubuntu
    split TeX Live into packages (siunitx is in texlive-science, biblatex in
    texlive-bibtex-extra), so a paper arXiv's full TeX Live compiles stops here.  Both
    causes, and the way on from each."""
    if ext.lower() not in (".sty", ".cls"):
        return None
    return ("%s is in neither the upload nor this machine's TeX: if it is your own file, "
            "put it beside the main file and upload it; if it is part of TeX Live (arXiv's "
            "TeX Live is a full one), install it here and check again (Debian/Ubuntu: "
            "apt-file search %s names the texlive-* package; TeX Live: tlmgr search --global "
            "--file %s; MiKTeX installs it on the fly)" % (base, base, base))


def engine_and_env(route: str, paper: str) -> Optional[Tuple[str, Dict[str, str]]]:
    """The LaTeX engine of *route* and its environment for the copy *paper*, as
    :func:`compile_paper` runs it; None when the engine is not installed."""
    path = shutil.which(_ENGINES[route])
    return None if path is None else (path, _env(os.path.dirname(paper)))
