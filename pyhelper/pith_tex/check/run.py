"""Every check of ``pith-tex check``, in order, on one paper directory.

Each check is handed to *report* as soon as it is known, so the author sees progress;
*progress* hears which compile run is going ("compile: pdflatex run 2"), and when
LaTeXML starts ("html: ..."); None about every 0.1 s while a program runs (a heartbeat).

LaTeXML, the slowest step, runs beside the compile: it starts once the first LaTeX run has
listed the files the paper reads, on its own fresh copy of them taken from DIR (so nothing
TeX writes reaches it), and its verdict is taken only if the last run read the same files
(else it converts again, after the compile).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import Callable, Dict, List, NamedTuple, Optional

from ..checks import Check, ERROR, FAIL, FileOutcome, OK, WARN
from ..include.discover import read_tex
from ..errors import UsageError
from .html import TIMEOUT as HTML_TIMEOUT, Conversion, check_html, judge_html
from .citations import check_citations
from .compiler import ROUTES, compile_paper, engine_and_env, made_fonts, tex_roots
from .pagecost import short_page, pages_in_log, pages_without_badge
from .includes import (anonymous_include, anonymous_reason, check_include, check_number,
                       check_title, include_from_compile, include_read, include_setting,
                       qr_asked)
from .mainfile import find_main
from .paths import check_paths
from .pdfcheck import badge_missed, check_pdf, review_mode_hint
from .safecopy import COPY_CAP, Budget, code_file, code_written
from .safecopy import Refused
from .sandbox import copy_upload, scratch
from .shellescape import check_shell_escape
from .sty import check_sty
from .texsource import is_regular, shown_name
from .upload import (Recorded, bad_name, changed_since, file_digests, outside_reads,
                     upload_check, upload_list)


class Readiness(NamedTuple):
    """What ``check`` established: the checks and what goes with them."""

    directory: str
    main: str  # the main file's name, in *directory*
    route: str
    checks: List[Check]
    fixed: List[str]  # what --fix did, one sentence each
    log_excerpt: List[str]  # the compile's log around the first error, else []
    pdf: Optional[FileOutcome]  # the PDF verifier's outcome, its path the PDF's name
    upload: Optional[List[str]] = None  # the files to upload (None: not compiled)
    #: each upload file's SHA-256 as check copied it: the bytes compiled and checked
    checked: Optional[Dict[str, str]] = None


def _tex_sources(directory: str) -> List[str]:
    found: List[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, n) for n in sorted(files)
                     if n.endswith(".tex") and is_regular(os.path.join(root, n)))
    return found


def _files_check(refused: List[Refused]) -> Check:
    if not refused:
        return Check("files", OK, "regular files only, nothing a tool would run as code, "
                     "%d MB at most" % (COPY_CAP // 1000000))
    code = [r for r in refused if code_file(r.path) is not None]
    other = [r for r in refused if code_file(r.path) is None]
    parts = ["%s is %s" % (shown_name(r.path), r.why) for r in code]
    if other:
        parts.append("arXiv takes regular files only, %d MB at most: %s; replace each with "
                     "the file itself" % (COPY_CAP // 1000000, "; ".join(
                         "%s is %s" % (shown_name(r.path), r.why) for r in other)))
    return Check("files", FAIL, "; ".join(parts))


def _uncopied(refused: List[Refused]) -> List[Refused]:
    """The regular files left out of the copy (past the cap): the compile would miss them."""
    return [r for r in refused if "arXiv takes for a whole upload" in r.why]


def run_checks(directory: str, route: str = "pdflatex", fix: bool = False,
               main: Optional[str] = None,
               report: Optional[Callable[[Check, List[str]], None]] = None,
               progress: Optional[Callable[[Optional[str]], None]] = None,
               html: str = "title") -> Readiness:
    """Every check of ``pith-tex check``; :class:`UsageError` when there is no main file.
    *report* is called with each check (and the compile's log excerpt) as it completes.
    *html*: what LaTeXML converts: "title" (the preamble and title block), "full" (the
    whole paper) or "off" (nothing)."""
    if route not in ROUTES:
        raise UsageError("unknown route %s (%s)" % (route, ", ".join(ROUTES)))
    checks: List[Check] = []

    def add(c: Check, lines: Optional[List[str]] = None) -> None:
        checks.append(c)
        if report is not None:
            report(c, lines or [])

    # The main file fetch chose (of several, the one naming \pithnumber): the one whose
    # include was written, and the one the upload is for.
    main_name = find_main(directory, main, paper=True)
    why = bad_name(main_name)
    add(Check("main", OK, "%s (uncommented \\documentclass)" % main_name) if why is None
        else Check("main", FAIL, "%s: arXiv refuses the name (%s): rename it"
                   % (shown_name(main_name), why)))
    job = os.path.splitext(main_name)[0]
    fixed: List[str] = []
    try:
        main_text = read_tex(os.path.join(directory, main_name))
    except OSError as e:
        raise UsageError("cannot read %s: %s" % (main_name, e.strerror or e)) from e
    setting = include_setting(main_text)
    sty, did = check_sty(directory, fix, fetched=setting == "false" or os.path.lexists(
        os.path.join(directory, setting)))
    add(sty)
    if did is not None:
        fixed.append(did)
    add(check_shell_escape(directory, main_name))
    sources = _tex_sources(directory)
    excerpt: List[str] = []
    pdf_out: Optional[FileOutcome] = None
    log: Optional[str] = None
    upload: Optional[List[str]] = None
    expected: Optional[str] = None  # the number the PDF and the HTML view must show
    with scratch() as tmp, contextlib.ExitStack() as running:
        paper = os.path.join(tmp, "paper")
        budget = Budget()
        beside: List[Conversion] = []  # LaTeXML, started after the first LaTeX run

        def tick() -> None:
            for conversion in beside:
                conversion.poll()
            if progress is not None:
                progress(None)

        def start_html(recorded: Optional[Recorded]) -> None:
            if html == "off" or recorded is None or shutil.which("latexmlc") is None or any(
                    code_file(r.path) is not None for r in refused):
                return
            files = upload_list(recorded, paper)
            # Its own copy, taken from DIR, within its own 50 MB: at most two copies.  In
            # a directory of its own, not beside the compile's copy, where TeX writes:
            # no fixed relative name leads LaTeXML from its copy to that one.
            own = running.enter_context(tempfile.TemporaryDirectory(prefix="pith-html-"))
            conversion = running.enter_context(Conversion(
                directory, main_name, own, files, Budget(), whole=html == "full"))
            if progress is not None:
                progress(_html_says(html) + ", beside the compile")
            conversion.start()
            beside.append(conversion)
        try:
            refused = copy_upload(directory, paper, job, budget)
        except OSError as e:
            raise UsageError("cannot read %s: %s" % (directory, e)) from e
        copied = file_digests(paper)  # before TeX writes anything there
        add(_files_check(refused))
        compiled = None
        if _uncopied(refused):
            add(check_paths(directory, [], main_name))
            add(Check("compile", ERROR, "not run: %s was not copied (more than %d MB)"
                      % (shown_name(_uncopied(refused)[0].path), COPY_CAP // 1000000)))
        elif not os.path.exists(os.path.join(paper, "pith.sty")):
            add(check_paths(directory, [], main_name))
            add(Check("compile", ERROR, "not run: pith.sty is missing"))
        else:
            compiled = compile_paper(paper, main_name, route, progress=None if progress is None
                                     else lambda text: progress("compile: " + text),
                                     tick=tick, first_run=start_html)
            outside: List[str] = []
            if compiled.recorded is not None:
                outside = outside_reads(compiled.recorded, paper,
                                        tex_roots() + [made_fonts(os.path.dirname(paper))])
            paths = check_paths(directory, outside, main_name)
            if paths.status == OK and compiled.check.status == FAIL:
                # The files the compile would have read after it stopped were not seen.
                paths = Check("paths", WARN, "not checked in full: every file the paper "
                              "names is inside the upload, but the compile stopped before "
                              "the end (see compile), so what it would have read after "
                              "that was not seen")
            add(paths)
            excerpt, log = compiled.excerpt, compiled.log
            add(compiled.check, excerpt)
            if compiled.recorded is not None:
                upload = upload_list(compiled.recorded, paper)
        # The include: the one the compile read, when that can be told (issue 9).
        what = None if compiled is None or compiled.log is None else include_read(
            compiled.log, upload, paper, finished=compiled.pdf is not None)
        # pith.sty's anonymous mode (the option, or a class's review mode) reads no
        # include and writes nothing of the number, by design: not a contradiction.
        anonymous = anonymous_reason(log)
        contradiction, include_name = include_from_compile(directory, setting, what)
        if anonymous is not None:
            inc_check, inc = anonymous_include(directory, setting, anonymous)
            add(inc_check)
        elif contradiction is not None:
            add(contradiction)
            inc = None
        else:
            inc_check, inc = check_include(directory, include_name)
            add(inc_check)
        number = check_number(directory, include_name, inc)
        if anonymous is not None and number.status == ERROR:
            number = Check("number", WARN, number.detail)
        elif anonymous is not None and "\\pithnumber{" in number.detail:
            # The PDF carries nothing of the number, but the sources still do: a
            # double-blind venue that takes them (supplementary material) sees it.
            number = Check("number", WARN, "%s; the sources name it (\\pithnumber), so they "
                           "are not anonymous: give reviewers the PDF only, or drop "
                           "\\pithnumber (pith.sty takes the number from the include, which "
                           "an anonymous compile does not read)" % number.detail)
        add(number)
        add(check_title(directory, main_name, main_text, inc,
                        None if compiled is None or anonymous is not None else compiled.pdf))
        add(check_citations(directory, job, sources, log,
                            finished=compiled is not None and compiled.pdf is not None))
        if compiled is None or compiled.pdf is None:
            add(Check("pdf", ERROR, "not checked: %s" % (
                "nothing was compiled" if compiled is None else "no PDF was made")))
        else:
            if inc is not None and inc.outcome is not None and (
                    number.status == OK or anonymous is not None):
                # Anonymous: the number check is a WARN when the sources name the number,
                # but the verified include still says which number to look for on the pages.
                expected = inc.outcome.number
            pdf_check, pdf_out = check_pdf(compiled.pdf, os.path.basename(compiled.pdf),
                                           expected, qr_asked(main_text),
                                           anonymous=anonymous is not None)
            missed = badge_missed(log)
            if missed is not None and pdf_check.status in (OK, WARN):
                # pith.sty saw page 1 ship out without the title badge it had set (the
                # title block went on past page 1), in the run that made this PDF.
                pdf_check = Check("pdf", FAIL, "%s; but %s" % (pdf_check.detail, missed))
            hint = review_mode_hint(main_text) if anonymous is None else None
            if hint is not None and pdf_check.status == OK:
                # A review option pith.sty does not know: the badge names the authors.
                pdf_check = Check("pdf", WARN, "%s; but the paper loads %s: if this is a "
                                  "review copy, pith.sty did not see it and the badge names "
                                  "the authors: use \\usepackage[anonymous]{pith}"
                                  % (pdf_check.detail, hint))
            if pdf_check.status == OK and anonymous is None and log is not None:
                pdf_check = _page_cost(pdf_check, paper, main_name, route, compiled.pdf, log,
                                       progress, tick)
            add(pdf_check)
        if upload is not None and compiled is not None and compiled.pdf is not None:
            upload_line = upload_check(upload, paper)
        else:  # a compile that stopped read only part of the paper: no list to trust
            upload = None
            upload_line = Check("upload", ERROR, "not listed: the compile did not finish")
        if compiled is not None and compiled.pdf is not None:
            add(_html(directory, paper, main_name, upload, refused, expected,
                      anonymous is None, budget, progress, html,
                      beside[0] if beside else None, tick))
        checked = None
        if upload is not None and upload_line.status in (OK, WARN):
            upload_line = _unchanged(directory, upload, copied, upload_line)
            checked = {n: copied.get(n, "") for n in upload}
        add(upload_line)
    return Readiness(directory, main_name, route, checks, fixed, excerpt, pdf_out, upload,
                     checked)


def _unchanged(directory: str, upload: List[str], copied: Dict[str, str],
               line: Check) -> Check:
    """*line*, or an ERROR when a file of the upload changed in DIR after check copied it
    (an editor's autosave while LaTeXML ran): what was checked is not what is there."""
    changed = changed_since(directory, upload, copied)
    if not changed:
        return line
    return Check("upload", ERROR, "%s changed in the paper's directory while check ran (an "
                 "editor's autosave?): the files there are not the ones compiled and "
                 "checked: run check again once the files are saved"
                 % ", ".join(shown_name(n) for n in changed))


def _page_cost(pdf_check: Check, paper: str, main: str, route: str, pdf: str, log: str,
               progress: Optional[Callable[[Optional[str]], None]],
               tick: Callable[[], None]) -> Check:
    """*pdf_check*, or a WARN when pith's badge makes the paper a page longer
    (:mod:`.pagecost`): a page limit counts it."""
    pages = pages_in_log(log)
    if pages is None or not short_page(pdf, pages):
        return pdf_check
    tex = engine_and_env(route, paper)
    if tex is None:
        return pdf_check
    if progress is not None:
        progress("compile: once more without the badge (the last page holds little)")
    without = pages_without_badge(paper, main, tex[0], tex[1], tick=tick)
    if without is None or without >= pages:
        return pdf_check
    return Check("pdf", WARN, "%s; but pith's badge makes the paper %d pages, %d without it "
                 "(its last page holds what the badge pushed over): if a page limit counts, use "
                 "\\usepackage[placement=margin]{pith}, which leaves the layout unchanged"
                 % (pdf_check.detail, pages, without))


def _html_says(mode: str) -> str:
    return ("html: LaTeXML converts %s as arXiv does for its HTML view (up to %d s)"
            % ("the paper" if mode == "full" else "the preamble and title block",
               HTML_TIMEOUT))


def _html(directory: str, paper: str, main: str, upload: Optional[List[str]],
          refused: List[Refused], expected: Optional[str], expect_badge: bool,
          budget: Budget, progress: Optional[Callable[[Optional[str]], None]],
          mode: str, beside: Optional[Conversion], tick: Callable[[], None]) -> Check:
    """arXiv's HTML view, converted by LaTeXML from a fresh copy of the upload list taken
    from DIR (never the compiled copy, where TeX may have written anything); in the
    anonymous mode the page must show nothing of the number.  *beside*: the conversion
    started after the first LaTeX run, taken when that run read the files of *upload*.
    No verdict comes from LaTeXML when the paper brings, or its compile writes, a file
    LaTeXML would run as code (*beside* ran on a copy without it)."""
    shipped = [r.path for r in refused if code_file(r.path) is not None]
    written = code_written(paper)
    if shipped or written:
        return Check("html", FAIL, "not converted: %s; LaTeXML, as arXiv runs it for the "
                     "HTML view, would run %s" % ("; ".join(
                         ["the paper brings %s" % shown_name(n) for n in shipped]
                         + ["the compile writes %s (TeX's \\openout)" % shown_name(n)
                            for n in written]),
                         "it" if len(shipped) + len(written) == 1 else "them"))
    if mode == "off":
        return Check("html", WARN, "not checked (--html off): arXiv's HTML view of the "
                     "badge was not tried")
    if upload is None:
        return Check("html", ERROR, "not converted: no upload list (the compile did not "
                     "finish)")
    if beside is not None and sorted(beside.files) == sorted(upload):
        if progress is not None and beside.running():
            progress("html: waiting for LaTeXML")
        return judge_html(beside.finish(tick), main, expected, expect_badge)
    if beside is not None:  # the reruns read other files: convert those
        beside.kill()
    # The compile's copy goes first: at most two copies of the paper on disk at a time.
    shutil.rmtree(paper, ignore_errors=True)
    budget.left = COPY_CAP
    if progress is not None and shutil.which("latexmlc") is not None:
        progress(_html_says(mode))
    return check_html(directory, main, expected, expect_badge=expect_badge, files=upload,
                      budget=budget, tick=tick, whole=mode == "full")
