"""``pith-tex check [DIR]``: is this paper ready to upload to arXiv?

The checks, one line each, in this order (``OK``/``FAIL``/``WARN``/``ERROR`` as for
``verify``; exit code 0 when nothing failed or could not be checked, warnings allowed):

``main``
    the main file: the one ``.tex`` file at the top of DIR with an uncommented
    ``\\documentclass`` (arXiv's rule), or ``--main FILE``.  None or several, or a
    ``--main`` that is not such a file: usage error (exit 2), no other check runs.
``pith.sty``
    ``pith.sty`` is beside the main file (arXiv's TeX Live does not have it).  Missing: FAIL
    (``--fix`` copies the pith.sty shipped in this pith-tex).  Different from the shipped
    one: WARN, saying whether it is older or newer (the ``\\ProvidesExplPackage`` dates);
    ``--fix`` replaces it.
``include``
    the include the paper reads (``pith-number.tex``, or the ``include=FILE`` given to
    ``\\usepackage[...]{pith}`` or ``\\pithsetup{...}`` in the main file's preamble; the
    last one wins, as in pith.sty) exists and verifies offline, as ``pith-tex verify``
    would verify it.  Missing: FAIL (run ``pith-tex fetch``).  ``include=false``: WARN
    (the badge is unverified).  An include without a signed receipt is OK ("unsigned").
``number``
    the include is for the ``\\pithnumber{...}`` of the paper (found as ``pith-tex fetch``
    finds it, in the ``.tex`` files of DIR), with the same year if one is written.
``shell-escape``
    nothing needs shell escape, which arXiv does not allow: see :data:`SHELL_PACKAGES`
    and :data:`_SHELL_COMMANDS`, searched in every ``.tex``/``.sty``/``.cls`` file under
    DIR, comments ignored.  Each use is named as ``file:line``.
``compile``
    a copy of DIR, in a fresh temporary directory, compiles the way arXiv compiles it on
    the chosen route: ``pdflatex``; ``latex`` then ``dvips -R2 -q -z`` then ``ps2pdf``; or
    ``xelatex``; always ``-interaction=nonstopmode -no-shell-escape``, rerun while the log
    asks for it, at most 5 LaTeX runs, :data:`COMPILE_BUDGET` seconds in all.
    ``TEXINPUTS`` is dropped and ``TEXMFHOME`` points nowhere, so only the upload and the
    installed TeX Live are used.  Not run (ERROR) when pith.sty is missing; run whatever
    else failed, so that the author sees every problem at once.  TeX not installed: ERROR.
``pdf``
    the PDF just built, verified by :func:`pith_tex.pdf.verify_pdf`: its decisive check,
    and the number it carries must be the paper's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple

from .errors import UsageError
from .discover import find_pith_numbers, read_tex, uncomment
from .checks import Check, ERROR, FAIL, FileOutcome, OK, WARN, decisive
from .files import verify_include_file

if TYPE_CHECKING:
    from .identifier import Identifier

ROUTES = ("pdflatex", "dvips", "xelatex")
MAX_RUNS = 5  # arXiv runs LaTeX at most 5 times
COMPILE_BUDGET = 300.0  # seconds for the whole compile (every run, dvips, ps2pdf)
DEFAULT_INCLUDE = "pith-number.tex"

#: Packages that cannot work on arXiv, where shell escape is off, and why.
SHELL_PACKAGES: Dict[str, str] = {
    "minted": "runs Pygments through shell escape",
    "pythontex": "needs the external pythontex step between LaTeX runs, which arXiv "
                 "does not run",
    "svg": "runs Inkscape through shell escape to convert .svg files",
    "gnuplottex": "runs gnuplot through shell escape",
    "sagetex": "needs the external sage step between LaTeX runs, which arXiv does not run",
    "auto-pst-pdf": "runs latex, dvips and ps2pdf through shell escape",
    "bashful": "runs shell commands through shell escape",
}

#: Commands that run programs, and why they fail on arXiv.
_SHELL_COMMANDS: List[Tuple["re.Pattern[str]", str, str]] = [
    (re.compile(r"(?:\\immediate\s*)?\\write\s*18(?![0-9])"), "\\write18",
     "runs a shell command"),
    (re.compile(r"\\(?:Delayed)?ShellEscape(?![A-Za-z@])"), "\\ShellEscape",
     "runs a shell command (shellesc)"),
    (re.compile(r"\\tikzexternalize(?![A-Za-z@])"), "\\tikzexternalize",
     "compiles each picture through shell escape: upload the pictures as PDFs instead"),
]
_DIRECTLUA_RE = re.compile(r"\\directlua(?![A-Za-z@])")
_LUA_SHELL_RE = re.compile(r"os\.execute|io\.popen")
_PACKAGE_RE = re.compile(r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\]\s*)?\{([^{}]*)\}")
_DOCUMENTCLASS_RE = re.compile(r"\\documentclass(?![A-Za-z@])")
_PITH_OPTIONS_RE = re.compile(
    r"\\(?:usepackage|RequirePackage)\s*\[([^\]]*)\]\s*\{([^{}]*)\}|\\pithsetup\s*\{([^{}]*)\}")
_PROVIDES_RE = re.compile(r"\\ProvidesExplPackage\s*\{pith\}\s*\{([0-9/-]+)\}\s*\{([^{}]*)\}")
_CONTINUATION_RE = re.compile(r"\([A-Za-z0-9@.-]+\)\s+")  # "(pith)    more of the message"
_LINE_RE = re.compile(r"l\.[0-9]+(?: |\Z)")
#: What makes arXiv run LaTeX again ("Rerun to get cross-references right", hyperref's
#: "Rerun to get outlines right", ...); not rerunfilecheck's "Package: ... Rerun checks".
_RERUN_RE = re.compile(r"Rerun to get|Rerun LaTeX|Please rerun LaTeX|Label\(s\) may have changed")

_ENGINES = {"pdflatex": "pdflatex", "dvips": "latex", "xelatex": "xelatex"}
_TOOLS = {"pdflatex": ("pdflatex",), "dvips": ("latex", "dvips", "ps2pdf"),
          "xelatex": ("xelatex",)}


class Readiness(NamedTuple):
    """What ``check`` established: the checks and what goes with them."""

    directory: str
    main: str  # the main file's name, in *directory*
    route: str
    checks: List[Check]
    fixed: List[str]  # what --fix did, one sentence each
    log_excerpt: List[str]  # the compile's log around the first error, else []
    pdf: Optional[FileOutcome]  # the PDF verifier's outcome, its path the PDF's name


def _strip_comments(text: str) -> List[str]:
    return [uncomment(line) for line in text.splitlines()]


# -- main ----------------------------------------------------------------------------------

def _has_documentclass(path: str) -> bool:
    try:
        text = read_tex(path)
    except OSError:
        return False
    return any(_DOCUMENTCLASS_RE.search(line) for line in _strip_comments(text))


def find_main(directory: str, main: Optional[str] = None) -> str:
    """The name of the main ``.tex`` file of *directory* (arXiv's rule: the top-level file
    with an uncommented ``\\documentclass``); :class:`UsageError` if there is none or
    several, or if *main* (``--main``) is not such a file directly in *directory*."""
    if not os.path.isdir(directory):
        raise UsageError("%s is not a directory" % directory)
    if main is not None:
        path = main if os.path.isabs(main) else os.path.join(directory, main)
        if not os.path.isfile(path) and os.path.isfile(main):
            path = main  # given relative to the current directory
        if not os.path.isfile(path):
            raise UsageError("--main %s: no such file in %s" % (main, directory))
        if os.path.dirname(os.path.abspath(path)) != os.path.abspath(directory):
            raise UsageError("--main %s: the main file must be at the top of %s, where arXiv "
                             "compiles it" % (main, directory))
        if not _has_documentclass(path):
            raise UsageError("--main %s: it has no uncommented \\documentclass" % main)
        return os.path.basename(path)
    try:
        names = sorted(n for n in os.listdir(directory)
                       if n.endswith(".tex") and os.path.isfile(os.path.join(directory, n)))
    except OSError as e:
        raise UsageError("cannot list %s: %s" % (directory, e.strerror or e))
    found = [n for n in names if _has_documentclass(os.path.join(directory, n))]
    if not found:
        raise UsageError("no main file in %s: no .tex file there has an uncommented "
                         "\\documentclass" % directory)
    if len(found) > 1:
        raise UsageError("several main files in %s (each has a \\documentclass): %s; name the "
                         "one arXiv should compile with --main FILE"
                         % (directory, ", ".join(found)))
    return found[0]


# -- pith.sty ------------------------------------------------------------------------------

def shipped_sty() -> str:
    """The path of the pith.sty shipped inside this package (``pith_tex/data/pith.sty``)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pith.sty")


def _sty_version(data: bytes) -> Optional[Tuple[str, str]]:
    m = _PROVIDES_RE.search(data.decode("utf-8", "replace"))
    return None if m is None else (m.group(1).replace("/", "-"), m.group(2))


def check_sty(directory: str, fix: bool) -> Tuple[Check, Optional[str]]:
    """The ``pith.sty`` check, and what ``--fix`` did (None: nothing)."""
    from . import __version__

    here = os.path.join(directory, "pith.sty")
    try:
        with open(shipped_sty(), "rb") as f:
            shipped: Optional[bytes] = f.read()
    except OSError:
        shipped = None
    try:
        with open(here, "rb") as f:
            local: Optional[bytes] = f.read()
    except FileNotFoundError:
        local = None
    except OSError as e:
        return Check("pith.sty", ERROR, "cannot read pith.sty: %s" % (e.strerror or e)), None
    ours = "the one shipped with pith-tex %s" % __version__
    if local is not None and shipped is not None and local == shipped:
        return Check("pith.sty", OK, "pith.sty is beside the main file and is %s" % ours), None
    if local is not None and shipped is None:
        return Check("pith.sty", WARN, "pith.sty is there, but this pith-tex install has no "
                     "pith.sty to compare it with"), None
    if local is None:
        problem = "pith.sty is missing: arXiv does not have it"
    else:
        assert shipped is not None
        lv, sv = _sty_version(local), _sty_version(shipped)
        if lv is None or sv is None or lv[0] == sv[0]:
            how = "differs from"
        else:
            how = "is older than" if lv[0] < sv[0] else "is newer than"
        problem = "pith.sty%s %s %s%s" % (
            "" if lv is None else " (%s v%s)" % lv, how, ours,
            "" if sv is None else " (%s v%s)" % sv)
    if not fix:
        if local is None:
            return Check("pith.sty", FAIL, problem + ": copy it or run with --fix"), None
        return Check("pith.sty", WARN, problem + ": run with --fix to replace it"), None
    if shipped is None:
        return Check("pith.sty", ERROR if local is None else WARN,
                     problem + "; --fix: this pith-tex install has no pith.sty to copy"), None
    from .atomic import write_atomic

    try:
        write_atomic(here, shipped)
    except OSError as e:
        return Check("pith.sty", FAIL if local is None else WARN,
                     problem + "; --fix could not write it: %s" % (e.strerror or e)), None
    did = ("copied the pith.sty shipped with pith-tex %s" % __version__ if local is None
           else "replaced pith.sty with %s" % ours)
    return Check("pith.sty", OK, "%s; --fix %s" % (problem, did)), did


# -- include and number --------------------------------------------------------------------

def include_setting(main_text: str) -> str:
    """The include the main file's preamble names (``include=FILE`` in the options of
    ``\\usepackage{pith}`` or in ``\\pithsetup``; the last wins), else the default;
    ``"false"`` when it reads none."""
    lines = _strip_comments(main_text)
    text = "\n".join(lines)
    end = text.find("\\begin{document}")
    if end >= 0:
        text = text[:end]
    name = DEFAULT_INCLUDE
    for m in _PITH_OPTIONS_RE.finditer(text):
        if m.group(3) is not None:
            options = m.group(3)
        elif "pith" in [p.strip() for p in m.group(2).split(",")]:
            options = m.group(1)
        else:
            continue
        for opt in options.split(","):
            key, eq, value = opt.partition("=")
            if eq and key.strip() == "include":
                value = value.strip()
                if value.startswith("{") and value.endswith("}"):
                    value = value[1:-1].strip()
                if value and "#" not in value:
                    name = value
    return name


def _include_path(directory: str, name: str) -> str:
    path = os.path.join(directory, name)
    if not os.path.exists(path) and not os.path.splitext(name)[1]:
        path += ".tex"  # TeX's own rule for a file name without an extension
    return path


def _signature_ok(checks: List[Check]) -> Tuple[Optional[Check], str]:
    """The decisive check, a missing receipt not counted (an unsigned include is what the
    resolver gives today), and "signed" or "unsigned"."""
    bad = decisive(checks)
    unsigned = any(c.name == "signature" and c.status == WARN for c in checks)
    if bad is not None and bad.status == WARN and bad.name == "signature":
        bad = decisive([c for c in checks if c.name != "signature"])
    return bad, "unsigned (no receipt)" if unsigned else "signed receipt verified"


def check_include(directory: str, name: str) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``include`` check and the include's outcome (None: not read)."""
    if name == "false":
        return Check("include", WARN, "include=false: pith.sty reads no include, so the "
                     "badge is marked unverified"), None
    path = _include_path(directory, name)
    shown = os.path.relpath(path, directory)
    if not os.path.exists(path):
        return Check("include", FAIL, "%s not found: run pith-tex fetch" % shown), None
    out = verify_include_file(path)
    if out.outcome is None:
        status = FAIL if out.error_code == 1 else ERROR
        return Check("include", status, "%s: %s: run pith-tex fetch again"
                     % (shown, out.error)), out
    bad, signed = _signature_ok(out.outcome.checks)
    if bad is not None:
        return Check("include", bad.status, "%s does not verify: %s: %s"
                     % (shown, bad.name, bad.detail)), out
    fields = out.outcome.fields
    year = "" if fields is None else "%d:" % fields.year
    return Check("include", OK, "%s verifies: pith:%s%s, hash checks, %s"
                 % (shown, year, out.outcome.number, signed)), out


def check_number(directory: str, include_name: str,
                 include: Optional[FileOutcome]) -> Check:
    """The ``number`` check: the include is for the paper's ``\\pithnumber``."""
    ident: Optional[Identifier]
    try:
        ident = find_pith_numbers(directory, exclude=(os.path.basename(include_name),))
    except UsageError as e:
        if not e.message.startswith("no \\pithnumber"):
            return Check("number", FAIL, e.message)
        ident = None
    inc = None if include is None else include.outcome
    inc_number = None if inc is None else inc.number
    if ident is None:
        if inc_number is not None:
            return Check("number", OK, "no \\pithnumber: pith.sty uses the include's number "
                         "%s" % inc_number)
        return Check("number", FAIL, "no \\pithnumber{...} in the .tex files and no include: "
                     "the paper has no Pith Number")
    if include_name == "false":
        return Check("number", OK, "\\pithnumber{%s}; no include to compare it with" % str(ident))
    if inc is None or inc_number is None:
        return Check("number", ERROR, "not checked: the include is missing or unreadable "
                     "(\\pithnumber is %s)" % str(ident))
    if inc_number != ident.number:
        return Check("number", FAIL, "the include is for %s but \\pithnumber is %s: run "
                     "pith-tex fetch again" % (inc_number, ident.number))
    year = None if inc.fields is None else inc.fields.year
    if ident.year is not None and year is not None and ident.year != year:
        return Check("number", FAIL, "\\pithnumber gives the year %d but the record of %s "
                     "is from %d: write pith:%d:%s or leave the year out"
                     % (ident.year, ident.number, year, year, ident.number))
    return Check("number", OK, "the include is for \\pithnumber{%s}" % str(ident))


# -- shell escape --------------------------------------------------------------------------

class Hit(NamedTuple):
    where: str  # file:line, relative to DIR
    what: str  # the command or package
    why: str


def _source_files(directory: str) -> List[str]:
    found: List[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(files):
            if n.endswith((".tex", ".sty", ".cls")):
                found.append(os.path.join(root, n))
    return found


def scan_shell_escape(directory: str) -> List[Hit]:
    """Every use of something that needs shell escape in the author's files."""
    hits: List[Hit] = []
    for path in _source_files(directory):
        rel = os.path.relpath(path, directory)
        if rel == "pith.sty":
            continue  # ours; checked by l3build, needs nothing
        try:
            lines = _strip_comments(read_tex(path))
        except OSError:
            continue
        for i, line in enumerate(lines, 1):
            where = "%s:%d" % (rel, i)
            for rx, what, why in _SHELL_COMMANDS:
                if rx.search(line):
                    hits.append(Hit(where, what, why))
            if _DIRECTLUA_RE.search(line):
                body = "\n".join(lines[i - 1:i + 20])  # the \directlua and what follows
                if _LUA_SHELL_RE.search(body):
                    hits.append(Hit(where, "\\directlua", "runs a program (os.execute or "
                                    "io.popen)"))
            for m in _PACKAGE_RE.finditer(line):
                for pkg in m.group(1).split(","):
                    pkg = pkg.strip()
                    if pkg in SHELL_PACKAGES:
                        hits.append(Hit(where, pkg, SHELL_PACKAGES[pkg]))
    return hits


def check_shell_escape(directory: str) -> Check:
    hits = scan_shell_escape(directory)
    if not hits:
        return Check("shell-escape", OK, "nothing needs shell escape")
    return Check("shell-escape", FAIL, "arXiv has no shell escape: " + "; ".join(
        "%s %s %s" % (h.where, h.what, h.why) for h in hits))


# -- compile -------------------------------------------------------------------------------

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


# -- pdf -----------------------------------------------------------------------------------

def check_pdf(pdf: str, name: str, number: Optional[str]) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``pdf`` check: :func:`pith_tex.pdf.verify_pdf` on the PDF built, and its
    number is *number* (the paper's, when known)."""
    try:
        from .pdf import verify_pdf
    except ImportError as e:
        return Check("pdf", ERROR, "not checked: this pith-tex has no PDF verifier (%s)" % e), None
    out = verify_pdf(pdf)._replace(path=name)
    if out.outcome is None:
        return Check("pdf", FAIL if out.error_code == 1 else ERROR,
                     "%s: %s" % (name, out.error)), out
    bad, signed = _signature_ok(out.outcome.checks)
    if bad is not None:
        return Check("pdf", bad.status, "%s: %s: %s" % (name, bad.name, bad.detail)), out
    got = out.outcome.number
    if number is not None and got != number:
        return Check("pdf", FAIL, "%s carries %s, not the paper's %s" % (name, got, number)), out
    return Check("pdf", OK, "%s carries %s, its record verifies, %s" % (name, got, signed)), out


# -- all of it -----------------------------------------------------------------------------

def _copy_paper(directory: str, dest: str) -> None:
    def ignore(_src: str, names: List[str]) -> List[str]:
        return [n for n in names if n.startswith(".") or n == "__pycache__"]

    shutil.copytree(directory, dest, symlinks=False, ignore=ignore,
                    ignore_dangling_symlinks=True)


def run_checks(directory: str, route: str = "pdflatex", fix: bool = False,
               main: Optional[str] = None) -> Readiness:
    """Every check of ``pith-tex check``; :class:`UsageError` when there is no main file."""
    if route not in ROUTES:
        raise UsageError("unknown route %s (%s)" % (route, ", ".join(ROUTES)))
    main_name = find_main(directory, main)
    checks = [Check("main", OK, "%s (uncommented \\documentclass)" % main_name)]
    fixed: List[str] = []
    sty, did = check_sty(directory, fix)
    checks.append(sty)
    if did is not None:
        fixed.append(did)
    try:
        main_text = read_tex(os.path.join(directory, main_name))
    except OSError as e:
        raise UsageError("cannot read %s: %s" % (main_name, e.strerror or e))
    include_name = include_setting(main_text)
    inc_check, inc = check_include(directory, include_name)
    checks.append(inc_check)
    number = check_number(directory, include_name, inc)
    checks.append(number)
    checks.append(check_shell_escape(directory))
    excerpt: List[str] = []
    pdf_out: Optional[FileOutcome] = None
    if not os.path.exists(os.path.join(directory, "pith.sty")):
        checks.append(Check("compile", ERROR, "not run: pith.sty is missing"))
        checks.append(Check("pdf", ERROR, "not checked: nothing was compiled"))
    else:
        expected = None
        if inc is not None and inc.outcome is not None and number.status == OK:
            expected = inc.outcome.number
        with tempfile.TemporaryDirectory(prefix="pith-check-") as tmp:
            paper = os.path.join(tmp, "paper")
            try:
                _copy_paper(directory, paper)
            except (OSError, shutil.Error) as e:
                checks.append(Check("compile", ERROR, "could not copy %s: %s" % (directory, e)))
                checks.append(Check("pdf", ERROR, "not checked: nothing was compiled"))
                return Readiness(directory, main_name, route, checks, fixed, [], None)
            comp, pdf, excerpt = compile_paper(paper, main_name, route)
            checks.append(comp)
            if pdf is None:
                checks.append(Check("pdf", ERROR, "not checked: no PDF was made"))
            else:
                pdf_check, pdf_out = check_pdf(pdf, os.path.basename(pdf), expected)
                checks.append(pdf_check)
    return Readiness(directory, main_name, route, checks, fixed, excerpt, pdf_out)


# -- the command ---------------------------------------------------------------------------

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
    from .report import checks_json, file_json

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
    from .cli import echo
    from .errors import EXIT_FAILED, CouldNotCheck, PithError, VerificationFailed
    from .report import LABELS, dumps
    from .checks import exit_code_of

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
