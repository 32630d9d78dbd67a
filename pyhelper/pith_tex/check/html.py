"""The ``html`` check: convert a paper with LaTeXML as arXiv does for its HTML view and
look for the badge in the page.

arXiv runs ``latexmlc --preload=[nobibtex,ids,localrawstyles]latexml.sty`` on the upload:
``localrawstyles`` makes LaTeXML read the ``pith.sty`` beside the paper, which then takes
its LaTeXML path (a link to the Pith page, no PDF code).  The conversion runs on a copy of
the paper's regular files in a temporary directory, within a time budget, and its process
group is killed when the budget runs out.

OK: no conversion error, no undefined macro, no error box in the page, and exactly one link
to ``https://pith.science/pith/NUM`` whose text holds ``pith:…NUM``.  FAIL: the badge is
missing, wrong or more than one, or an error, undefined macro or error box names pith.
WARN: LaTeXML is not installed, wrote no page, or reported problems with the rest of the
paper (a figure format, another package), which are named but are not pith's to decide.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from html.parser import HTMLParser
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from .bounded import Limited, tail
from .safecopy import Budget, code_file, copy_listed
from ..safeio import read_regular
from ..record.identifier import URL_BASE

PRELOAD = "--preload=[nobibtex,ids,localrawstyles]latexml.sty"
#: Seconds for one conversion (the example paper takes about 3 s).
TIMEOUT = 180.0
#: Bytes of LaTeXML output read back (it can repeat one error thousands of times).
OUTPUT_CAP = 1 << 20
#: The most LaTeXML may write to its output or its log before it is stopped.
LOG_CAP = 20 << 20


class _Links(HTMLParser):
    """Every ``<a href>`` into the Pith resolver, with its text; and the error boxes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: List[Tuple[str, str]] = []
        self.errors: List[str] = []
        self._open: List[List[str]] = []  # text of the Pith links being read
        self._href: List[str] = []
        self._in_error = 0
        self._error_text: List[str] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        a: Dict[str, str] = {k: v or "" for k, v in attrs}
        if "ltx_ERROR" in a.get("class", "").split():
            self._in_error += 1
            self._error_text = []
        elif self._in_error:
            self._in_error += 1
        if tag == "a" and a.get("href", "").startswith(URL_BASE):
            self._open.append([])
            self._href.append(a["href"])
        elif tag == "a":
            self._open.append([])
            self._href.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._in_error:
            self._in_error -= 1
            if not self._in_error:
                self.errors.append("".join(self._error_text).strip())
        if tag == "a" and self._open:
            text, href = "".join(self._open.pop()), self._href.pop()
            if href:
                self.links.append((href, " ".join(text.split())))

    def handle_data(self, data: str) -> None:
        for t in self._open:
            t.append(data)
        if self._in_error:
            self._error_text.append(data)


_SUMMARY_RE = re.compile(r"Conversion complete: ([^\n(]*)")
_ERROR_RE = re.compile(r"^(Error|Fatal):[^\n]*", re.M)
_UNDEFINED_RE = re.compile(r"undefined macros?\[([^\]]*)\]")
# What is pith's: its commands, its files, its package messages.  Not any word that
# merely contains "pith" (a figure pith-fit.pdf, a macro \mypithy of the author's).
_OURS_RE = re.compile(r"\\pith(?:number|badge|qrcode|qr|setup|record)(?![A-Za-z@])"
                      r"|pith\.sty|pith-number\.tex|package pith\b|\{pith\}", re.I)
_POLICY_HINT = (" (this machine's ImageMagick security policy forbids reading the figure: "
                "a local setting, not a fault of the paper; the policy is in "
                "/etc/ImageMagick-6/policy.xml on Debian and Ubuntu)")


#: How LaTeXML is run: latexmlc itself, but in a Perl that first lets LaTeXML load a
#: binding (Perl: ``X.sty.ltxml``, ``X.cls.ltxml``, ``main.latexml``; all go through
#: ``LaTeXML::Package::loadLTXML``) only from LaTeXML's own installation.  The copy holds
#: no binding, but LaTeXML loads one by any path the document names
#: (``\usepackage{DIR/x}`` reads ``DIR/x.sty.ltxml``), and a name made by a macro in a
#: branch only LaTeXML takes is seen neither by the paths check nor by TeX's -recorder
#: list: beside the compile, a binding TeX's \openout wrote in the compile's copy was
#: reached that way and ran.  A refused binding ends LaTeXML at once (exit
#: :data:`REFUSED`) with the line ``pith-tex: refused binding PATH``.
REFUSED = 86
_GUARD = r"""
use strict; use warnings;
use Cwd qw(realpath); use File::Basename qw(dirname); use POSIX ();
my $script = shift @ARGV;
$0 = $script;  # latexmlc finds itself (FindBin) and its library as when run directly
unshift @INC, dirname(realpath($script)) . '/../lib';
require FindBin; FindBin::again();
$0 = 'latexmlc';  # its name in ps, as when run directly (FindBin has found it)
require LaTeXML; require LaTeXML::Package;
my $home = realpath(dirname($INC{'LaTeXML/Package.pm'}) . '/Package');
my $load = \&LaTeXML::Package::loadLTXML;
{ no warnings 'redefine';
  *LaTeXML::Package::loadLTXML = sub {
    my ($request, $path) = @_;
    my $real = defined $path ? realpath($path) : undef;
    if (!defined $home || !defined $real || index($real, $home . '/') != 0) {
      print STDERR "\npith-tex: refused binding " . (defined $path ? $path : '') . "\n";
      STDERR->flush; STDOUT->flush;
      POSIX::_exit(%d); }
    goto &$load; }; }
do $script;
die $@ if $@;
""" % REFUSED
_REFUSED_RE = re.compile(r"^pith-tex: refused binding (.*)$", re.M)


def latexml_env(tmp: str) -> Dict[str, str]:
    """LaTeXML's environment: its search paths are the copy (its working directory) and
    the installed LaTeXML and TeX Live, never a personal tree (``TEXMFHOME``, which
    kpsewhich would search for ``X.sty.ltxml`` too) or ``TEXINPUTS``; its temporary and
    cache files go to *tmp* (the scratch directory)."""
    env = dict(os.environ)
    for k in ("TEXINPUTS", "BIBINPUTS", "BSTINPUTS", "LATEXML_KPSEWHICH"):
        env.pop(k, None)
    env["TEXMFHOME"] = os.path.join(tmp, "no-texmf-home")
    env["TEXMFVAR"] = os.path.join(tmp, "texmf-var")
    env["TMPDIR"] = tmp
    return env


# LaTeXML's progress: "(Loading X...", "(Processing definitions|content X...",
# "(Digesting TeX main..." and the like open a step, "N.NN sec)" closes the last one.
_PROGRESS_RE = re.compile(r"\(([A-Z][^\n()]*?)\.\.\.|\d+\.\d+ sec\)")
_FILE_STEP_RE = re.compile(r"(?:Loading|Processing (?:definitions|content)) (.+)")


def _open_files(output: str) -> List[str]:
    """The files LaTeXML was still reading when its output ends, outermost first."""
    stack: List[str] = []
    for m in _PROGRESS_RE.finditer(output):
        if m.group(1) is not None:
            stack.append(m.group(1))
        elif stack:
            stack.pop()
    files = [_FILE_STEP_RE.match(step) for step in stack]
    # LaTeXML's binding of a package stands for the package: lipsum.sty.ltxml is lipsum.sty.
    return [re.sub(r"\.ltxml$", "", os.path.basename(f.group(1)))
            for f in files if f is not None]


def _timed_out(main: str, output: str, timeout: float, expl3: bool = False) -> Check:
    """A conversion stopped at the time budget.  When LaTeXML was inside a package of the
    rest of the paper (LaTeXML 0.8.7 takes about ten minutes over expl3-code.tex, which
    lipsum, siunitx and other expl3 packages load), a WARN that names it, as the other
    problems of the rest of the paper are.  Inside pith.sty, in the document itself (where
    pith's badge is made) or nowhere known: a FAIL, as before."""
    stack = _open_files(output)
    ours = [f for f in stack if _OURS_RE.search(f)]
    inner = [f for f in stack if f != main]
    if ours or not inner:
        return Check("html", FAIL, "LaTeXML did not finish within %d s%s" % (
            timeout, "; it was still reading %s" % " < ".join(reversed(stack)) if stack else ""))
    where = inner[0] if len(inner) == 1 else "%s, reading %s" % (inner[0], inner[-1])
    if expl3:
        return Check("html", WARN, "not checked: LaTeXML began reading expl3-code.tex (for "
                     "%s), which takes it more than the %d s it is given, so it was stopped "
                     "and the badge in arXiv's HTML view was not tried; the time would go to "
                     "that package, not to pith, and the upload is the PDF checked above"
                     % (inner[0], timeout))
    return Check("html", WARN, "not checked: LaTeXML did not finish within %d s (it was "
                 "still loading %s), so the badge in arXiv's HTML view was not tried; the "
                 "time went to that package, not to pith, and the upload is the PDF checked "
                 "above" % (timeout, where))


def _listing(directory: str) -> List[str]:
    """Every regular file under *directory*, no dot file, relative names."""
    names: List[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and not os.path.islink(os.path.join(root, d)))
        names.extend(os.path.relpath(os.path.join(root, n), directory) for n in sorted(files)
                     if not n.startswith("."))
    return names


#: The most of LaTeXML's page that is read back.
MAX_PAGE = 64 << 20


class Converted(NamedTuple):
    """What a conversion left: its outcome when that is already decided (LaTeXML not
    installed, a file refused, stopped), else LaTeXML's output and page."""
    decided: Optional[Check]
    output: str = ""  # the end of LaTeXML's output, names as in the upload
    html: str = ""  # the page ("" when LaTeXML wrote none)
    part: Optional[List[str]] = None  # the reduced document's packages left out; None: whole
    code: int = 0  # LaTeXML's exit code
    around: Tuple[str, ...] = ()  # the environments \maketitle is in, outermost first


class Conversion:
    """LaTeXML converting *main* as arXiv does, on a fresh copy of *files* (the upload
    list, relative to *directory*; default: every regular file of it) in *tmp*, never a
    binding or anything else it would run as code
    (:func:`pith_tex.check.safecopy.code_file`).  Used as ``with Conversion(...) as c:
    c.start(); ...; c.finish()``: LaTeXML can run while the caller does other work
    (calling :meth:`poll` often keeps it within its bounds), and is killed when the
    block is left.  *budget*: what may still be copied; *whole* False: the reduced
    document (:mod:`pith_tex.check.titleblock`: preamble and title block) where it can
    be made."""

    def __init__(self, directory: str, main: str, tmp: str,
                 files: Optional[List[str]] = None, budget: Optional[Budget] = None,
                 timeout: float = TIMEOUT, whole: bool = True) -> None:
        self.directory, self.main, self.tmp, self.budget = directory, main, tmp, budget
        self.files = _listing(directory) if files is None else list(files)
        self.listed = files is not None
        self.timeout, self.whole = timeout, whole
        self.decided: Optional[Check] = None
        self.part: Optional[List[str]] = None
        self.paper, self.out = os.path.join(tmp, "paper"), os.path.join(tmp, "out")
        self.job: Optional[Limited] = None
        self.expl3 = False  # stopped when it began reading expl3-code.tex

    def __enter__(self) -> "Conversion":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def start(self) -> None:
        code_files = [(n, why) for n in self.files for why in [code_file(os.path.basename(n))]
                      if why is not None]
        if code_files:
            self.decided = Check("html", FAIL, "not converted: %s: LaTeXML, as arXiv runs it, "
                                 "would run it" % "; ".join("%s is %s" % (n, why)
                                                            for n, why in code_files))
            return
        latexmlc, perl = shutil.which("latexmlc"), shutil.which("perl")
        if latexmlc is None or perl is None:
            self.decided = Check("html", WARN, "not checked: LaTeXML (latexmlc) is not "
                                 "installed, so the HTML view arXiv makes of the paper was not "
                                 "tried (apt-get install latexml)")
            return
        os.makedirs(self.paper)
        os.makedirs(self.out)
        refused = copy_listed(self.directory, self.files, self.paper, self.budget)
        if refused:
            self.decided = Check("html", FAIL if self.listed else WARN,
                                 "not converted: %s" % "; ".join(
                                     "%s is %s" % (r.path, r.why) for r in refused))
            return
        self.part = None if self.whole else _reduce_in(self.paper, self.main)
        log = os.path.join(self.out, "latexml.log")
        main = "./" + self.main if self.main.startswith("-") else self.main
        self.job = Limited([perl, "-e", _GUARD, latexmlc, PRELOAD,
                            "--dest=" + os.path.join(self.out, "main.html"), "--log=" + log,
                            main],
                           self.paper, latexml_env(self.tmp), time.monotonic() + self.timeout,
                           os.path.join(self.out, "latexml-output.txt"), (log,), cap=LOG_CAP,
                           keep=OUTPUT_CAP)
        self.job.start()

    def poll(self) -> None:
        """Stop LaTeXML now if it passed a bound (time, output), or is reading LaTeX3's
        expl3-code.tex raw, for a package that loads expl3 (nomencl, lipsum, xparse-based
        ones): LaTeXML 0.8.7 and 0.8.8 alike take minutes over it, past :data:`TIMEOUT`
        (a 39-page thesis: still in it after 180 s, on both), so the WARN the time-out
        would give is given at once.  (That step is open at the end of its output: steps
        it opens inside it, ``(Loading etex.sty.ltxml... 0.01 sec)``, close.)"""
        if self.job is None or self.job.check() or self.expl3:
            return
        if "expl3-code.tex" in _open_files(tail(self.job.output_file, 1 << 16)):
            self.expl3 = True
            self.job.kill()

    def kill(self) -> None:
        if self.job is not None:
            self.job.kill()

    def running(self) -> bool:
        return self.job is not None and self.job.proc is not None \
            and self.job.proc.poll() is None

    def finish(self, tick: Optional[Callable[[], None]] = None) -> Converted:
        """Wait for LaTeXML (calling *tick* about every 0.1 s) and read what it left."""
        if self.decided is not None or self.job is None:
            return Converted(self.decided or Check("html", ERROR, "not converted: not started"))
        def polled() -> None:
            self.poll()
            if tick is not None:
                tick()

        r = self.job.wait(polled)
        output = r.output.replace(self.paper + os.sep, "")  # names as in the upload
        if self.expl3:
            return Converted(_timed_out(self.main, output, self.timeout, expl3=True))
        refused = _REFUSED_RE.search(output)
        if refused is not None:
            return Converted(Check("html", FAIL, "not converted: the paper makes LaTeXML "
                                   "load %s, a binding (Perl) from outside the upload and "
                                   "LaTeXML's installation, which LaTeXML, as arXiv runs it, "
                                   "would run: stopped" % refused.group(1).strip()))
        if r.stopped == "output":
            return Converted(Check("html", FAIL, "LaTeXML wrote more than %d MB of output and "
                                   "log: stopped" % (LOG_CAP >> 20)))
        if r.returncode is None:
            return Converted(_timed_out(self.main, output, self.timeout))
        try:
            data = read_regular(os.path.join(self.out, "main.html"), MAX_PAGE,
                                follow_symlinks=False)
        except OSError:
            data = b""
        if data is None:
            return Converted(Check("html", WARN, "not checked: LaTeXML's page is larger than "
                                   "%d MB" % (MAX_PAGE >> 20)))
        return Converted(None, output, data.decode("utf-8", "replace"), self.part, r.returncode,
                         _around_maketitle(os.path.join(self.paper, self.main)))


def check_html(directory: str, main: str, number: Optional[str] = None,
               timeout: float = TIMEOUT, expect_badge: bool = True,
               files: Optional[List[str]] = None, budget: Optional[Budget] = None,
               tick: Optional[Callable[[], None]] = None, whole: bool = True) -> Check:
    """Convert *main* (a file name in *directory*) as arXiv does (:class:`Conversion`)
    and check the badge (:func:`judge_html`).  *tick*: called while LaTeXML runs."""
    with tempfile.TemporaryDirectory(prefix="latexml-") as tmp, \
            Conversion(directory, main, tmp, files, budget, timeout, whole) as conversion:
        conversion.start()
        return judge_html(conversion.finish(tick), main, number, expect_badge)


def judge_html(done: Converted, main: str, number: Optional[str] = None,
               expect_badge: bool = True) -> Check:
    """The ``html`` check of a finished conversion: *number* is the paper's Pith Number
    when known (the link must then go to it); *expect_badge* is False for an anonymous
    submission (there must then be no link).  With the reduced document, what LaTeXML
    says about the rest of the paper is not looked at (``check --html full`` does)."""
    if done.decided is not None:
        return done.decided
    output, html, part, code = done.output, done.html, done.part, done.code
    summary = _SUMMARY_RE.search(output)
    said = summary.group(1).strip() if summary else "no summary (exit %d)" % code
    # What LaTeXML reports about the rest of the paper (a figure format, another
    # package) is arXiv's HTML view's business, not the badge's: a WARN that names it.
    # Whatever names pith is pith's failure.
    problems = _problems(output)
    ours = [p for p in problems if _OURS_RE.search(p)]
    converted, after = "%s as arXiv does" % main, ""
    if part is not None:
        # Packages left out of the reduced document leave their commands undefined: not
        # the paper's problems, and the rest of the paper was not converted.
        problems = [p for p in problems if p.startswith("Fatal:")]
        converted = "the preamble and title block of %s as arXiv does" % main
        after = " (%scheck --html full converts the whole paper)" % (
            "left out of the preamble: %s; " % ", ".join(part) if part else "")
    if ours:
        return Check("html", FAIL, "LaTeXML, as arXiv runs it: %s (%s)" % (ours[0], said))
    if not html:
        return Check("html", WARN, "not checked: LaTeXML wrote no HTML page (%s)"
                     % (problems[0] if problems else said))
    parser = _Links()
    parser.feed(html)
    boxes = [e for e in parser.errors if _OURS_RE.search(e)]
    if boxes:
        return Check("html", FAIL, "the HTML page shows an error box: %s" % boxes[0])
    if part is None:
        # In the reduced document, a set-up command of a package left out of it
        # (\graphicspath, \captionsetup, \setlist, \newcolumntype, \crefname) is
        # an undefined macro, and LaTeXML puts its error box in the page: that document's
        # doing, not the paper's (the whole paper converts without it).
        problems += ["an error box in the page: " + e for e in parser.errors]
    return _badge(done, parser, number, expect_badge, problems, (converted, after))


def _problems(output: str) -> List[str]:
    """What LaTeXML's *output* reports: undefined macros, errors, fatal errors."""
    problems = ["undefined macro " + m.group(1) for m in _UNDEFINED_RE.finditer(output)]
    problems += [m.group(0)[:300] if m.group(1) == "Error" else _fatal(output, m)
                 for m in _ERROR_RE.finditer(output)]
    # Debian's and Ubuntu's ImageMagick forbids reading PDF/PS by default, so LaTeXML
    # here cannot convert a PDF figure: the author's machine, not the paper.
    return [p + _POLICY_HINT if "not allowed by the security policy" in p else p
            for p in problems]


def _badge(done: Converted, parser: "_Links", number: Optional[str], expect_badge: bool,
           problems: List[str], said: Tuple[str, str]) -> Check:
    """The ``html`` line from the badge in the page (*said*: what was converted, and
    what the line ends with): one link to the paper's number with its text, none when
    anonymous."""
    html = done.html
    converted, after = said
    if not expect_badge:
        if parser.links or (number and number in html):
            return Check("html", FAIL, "anonymous, but the HTML page links to or names the "
                         "Pith Number")
        return Check("html", OK, "LaTeXML converts %s with no error; anonymous: no badge "
                     "in the page%s" % (converted, after))
    if not parser.links:
        return _no_badge(done, problems)
    if len(parser.links) != 1:
        return Check("html", FAIL, "the HTML page has %d links to %s, not one badge"
                     % (len(parser.links), URL_BASE))
    href, text = parser.links[0]
    shown = href[len(URL_BASE):]
    if number is not None and shown != number:
        return Check("html", FAIL, "the HTML badge links to %s, not to the paper's %s"
                     % (href, number))
    if not re.search(r"pith:(?:[0-9]{4}:)?" + re.escape(shown), text):
        return Check("html", FAIL, "the HTML badge's text (%r) does not show pith:%s"
                     % (text, shown))
    if problems:
        return Check("html", WARN, "the badge renders in arXiv's HTML view (%r, linked to %s), "
                     "but LaTeXML also reports, about the rest of the paper: %s"
                     % (text, href, problems[0]))
    return Check("html", OK, "LaTeXML converts %s, with no error; the badge reads %r and "
                 "links to %s%s" % (converted, text, href, after))


_TRACE_RE = re.compile(r"Whatsit\[(\\[A-Za-z@]+)")
_AT_RE = re.compile(r"^\tat ([^\n;]+; line \d+)", re.M)


def _fatal(output: str, m: "re.Match[str]") -> str:
    """LaTeXML's fatal error at *m* with what it stopped on: where (file and line) and
    the commands it was building, innermost first, from the lines that follow it."""
    block = output[m.start():]
    end = re.search(r"\n(?!\t)", block)
    block = block[:end.start()] if end else block
    at = _AT_RE.search(block)
    macros = list(dict.fromkeys(_TRACE_RE.findall(block)))
    where = ", ".join(filter(None, ["at " + at.group(1) if at else "",
                                    "in " + " in ".join(macros[:3]) if macros else ""]))
    line = m.group(0)[:200]
    return "%s (%s)" % (line, where) if where else line


_LOADED_RE = re.compile(r"\(Loading (/[^\s()]+\.ltxml)\.\.\.")
_ENV_RE = re.compile(r"\\(begin|end)\s*\{([^{}]+)\}|\\maketitle(?![A-Za-z@])")


def _around_maketitle(path: str) -> Tuple[str, ...]:
    """The environments the first ``\\maketitle`` of the file *path* is in (the converted
    copy's main file), outermost first, ``document`` left out."""
    from ..include.discover import uncomment
    from ..safeio import MAX_TEX

    try:
        data = read_regular(path, MAX_TEX, follow_symlinks=False)
    except OSError:
        return ()
    if data is None:
        return ()
    text = "\n".join(uncomment(ln) for ln in data.decode("utf-8", "replace").splitlines())
    stack: List[str] = []
    for m in _ENV_RE.finditer(text):
        if m.group(1) == "begin":
            stack.append(m.group(2).strip())
        elif m.group(1) == "end":
            if stack and stack[-1] == m.group(2).strip():
                stack.pop()
        else:
            return tuple(e for e in stack if e != "document")
    return ()


def _dropping_binding(output: str, env: str) -> Optional[str]:
    """The LaTeXML binding this conversion loaded (its installation's, named in its
    output) that defines *env* as an environment whose content it drops:
    ``DefEnvironment('{titlingpage}', '')``."""
    rx = re.compile(r"DefEnvironment\(\s*(['\"])\{%s\}\1\s*,\s*(['\"])\2\s*[,)]"
                    % re.escape(env))
    for path in dict.fromkeys(_LOADED_RE.findall(output)):
        try:
            data = read_regular(path, 4 << 20, follow_symlinks=True)
        except OSError:
            continue
        if data is not None and rx.search(data.decode("utf-8", "replace")):
            return str(os.path.basename(path))
    return None


def _no_badge(done: Converted, problems: List[str]) -> Check:
    """No badge in the HTML page, and nothing LaTeXML said names pith: a WARN naming what
    took it (LaTeXML stopped on something of the paper's, or a binding that drops the
    environment \\maketitle is in); with no cause found, a FAIL that says so."""
    fatal = [p for p in problems if p.startswith("Fatal:")]
    pdf = "; the PDF, checked above, is what arXiv serves as the paper"
    if fatal:
        return Check("html", WARN, "arXiv's HTML view will show no badge: LaTeXML stopped "
                     "before it, on nothing of pith's: %s%s" % (fatal[0], pdf))
    for env in done.around:
        binding = _dropping_binding(done.output, env)
        if binding is not None:
            return Check("html", WARN, "arXiv's HTML view will show no badge: \\maketitle "
                         "is inside \\begin{%s}, and LaTeXML's binding %s drops what that "
                         "environment holds, the title's badge with it%s; to have the badge "
                         "there too, put \\maketitle outside \\begin{%s}"
                         % (env, binding, pdf, env))
    said = _SUMMARY_RE.search(done.output)
    return Check("html", FAIL, "the HTML page has 0 links to %s, not one badge, and LaTeXML "
                 "names no cause (%s%s): pith's HTML path may be at fault; check --html full "
                 "converts the whole paper, and the page-1 PDF badge is checked above"
                 % (URL_BASE, said.group(1).strip() if said else "no summary",
                    "; it reports: " + "; ".join(problems[:3]) if problems else ""))


def _reduce_in(paper: str, main: str) -> Optional[List[str]]:
    """Replace *main* in the copy *paper* by its reduced document; the packages left out
    (None: the title block cannot be told, the whole paper stays)."""
    from ..safeio import MAX_TEX
    from .titleblock import reduce

    path = os.path.join(paper, main)
    try:
        data = read_regular(path, MAX_TEX, follow_symlinks=False)
    except OSError:
        return None
    if data is None:
        return None
    text = data.decode("utf-8", "surrogateescape")
    reduced = reduce(text)
    if reduced is None:
        return None
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "wb") as f:
        f.write(reduced[0].encode("utf-8", "surrogateescape"))
    return reduced[1]
