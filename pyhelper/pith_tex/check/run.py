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
from ..sourcetree import SourceTree
from ..errors import UsageError
from .html import TIMEOUT as HTML_TIMEOUT, Conversion, check_html, judge_html
from .bibliography import check_citations
from .compiler import ROUTES, compile_paper, engine_and_env, made_fonts, tex_roots
from .pagecost import short_page, pages_in_log, pages_without_badge
from .includes import (anonymous_include, anonymous_reason, check_include, check_number,
                       check_title, include_from_compile, include_read, include_setting,
                       qr_asked)
from .mainfile import find_main
from .paper import Paper, Progress, Report, Say
from .paths import check_paths
from .pdfcheck import badge_missed, check_pdf, review_mode_hint
from .safecopy import COPY_CAP, Budget, Refused, code_file, code_written
from .sandbox import copy_upload, scratch
from .shellescape import check_shell_escape
from .styfile import check_sty
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


def _tex_sources(tree: SourceTree) -> List[str]:
    found: List[str] = []
    for root, dirs, files in tree.walk():
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
               main: Optional[str] = None, report: Optional[Report] = None,
               progress: Optional[Say] = None, html: str = "title",
               mirror: str = "") -> Readiness:
    """Every check of ``pith-tex check``; :class:`UsageError` when there is no main file.
    *report* is called with each check (and the compile's log excerpt) as it completes.
    *html*: what LaTeXML converts: "title" (the preamble and title block), "full" (the
    whole paper) or "off" (nothing).  *mirror*: a resolver mirror on disk, where the
    record's title may be (PITH_RESOLVER)."""
    if route not in ROUTES:
        raise UsageError("unknown route %s (%s)" % (route, ", ".join(ROUTES)))
    paper = Paper(directory)
    with scratch() as tmp, contextlib.ExitStack() as running:
        run = Progress(route, fix, html, report, progress, running, mirror)
        paper.copy = os.path.join(tmp, "paper")
        _main_file(paper, run, main)
        for step in STEPS:
            step(paper, run)
    return Readiness(directory, paper.main, route, run.checks, run.fixed, run.excerpt,
                     run.pdf, paper.upload, run.checked)


def _main_file(paper: Paper, run: Progress, main: Optional[str]) -> None:
    """The ``main`` check, and the main file's text and include setting.  The main file
    fetch chose (of several, the one naming \\pithnumber): the one whose include was
    written, and the one the upload is for."""
    paper.main = find_main(paper.directory, main, paper=True, tree=paper.tree)
    why = bad_name(paper.main)
    run.add(Check("main", OK, "%s (uncommented \\documentclass)" % paper.main) if why is None
            else Check("main", FAIL, "%s: arXiv refuses the name (%s): rename it"
                       % (shown_name(paper.main), why)))
    paper.job = os.path.splitext(paper.main)[0]
    try:
        paper.main_text = paper.tree.text(os.path.join(paper.directory, paper.main))
    except OSError as e:
        raise UsageError("cannot read %s: %s" % (paper.main, e.strerror or e)) from e
    paper.setting = include_setting(paper.main_text)


def _sty(paper: Paper, run: Progress) -> None:
    setting = paper.setting
    sty, did = check_sty(paper.directory, run.fix, fetched=setting == "false" or
                         os.path.lexists(os.path.join(paper.directory, setting)))
    run.add(sty)
    if did is not None:
        run.fixed.append(did)
        paper.tree.wrote("pith.sty")


def _shell_escape(paper: Paper, run: Progress) -> None:
    run.add(check_shell_escape(paper.tree, paper.main))
    paper.sources = _tex_sources(paper.tree)


def _copy(paper: Paper, run: Progress) -> None:
    """The ``files`` check: the scratch copy of the upload, and what it left out."""
    try:
        paper.refused = copy_upload(paper.directory, paper.copy, paper.job, run.budget,
                                    paper.tree)
    except OSError as e:
        raise UsageError("cannot read %s: %s" % (paper.directory, e)) from e
    paper.copied = file_digests(paper.copy)  # before TeX writes anything there
    run.add(_files_check(paper.refused))


def _compile(paper: Paper, run: Progress) -> None:
    """The ``paths`` and ``compile`` checks (the compile's list of files read backs up
    the paths named in the sources)."""
    uncopied = _uncopied(paper.refused)
    if uncopied or not os.path.exists(os.path.join(paper.copy, "pith.sty")):
        run.add(check_paths(paper.tree, [], paper.main))
        run.add(Check("compile", ERROR, "not run: %s" % (
            "%s was not copied (more than %d MB)" % (shown_name(uncopied[0].path),
                                                     COPY_CAP // 1000000)
            if uncopied else "pith.sty is missing")))
        return
    compiled = compile_paper(paper.copy, paper.main, run.route,
                             progress=run.saying("compile: "), tick=run.tick,
                             first_run=lambda recorded: _start_html(paper, run, recorded))
    paper.compiled = compiled
    outside: List[str] = []
    if compiled.recorded is not None:
        outside = outside_reads(compiled.recorded, paper.copy,
                                tex_roots() + [made_fonts(os.path.dirname(paper.copy))])
    paths = check_paths(paper.tree, outside, paper.main)
    if paths.status == OK and compiled.pdf is None and compiled.check.status == FAIL:
        # The files the compile would have read after it stopped were not seen.
        paths = Check("paths", WARN, "not checked in full: every file the paper "
                      "names is inside the upload, but the compile stopped before "
                      "the end (see compile), so what it would have read after "
                      "that was not seen")
    run.add(paths)
    run.excerpt, paper.log = compiled.excerpt, compiled.log
    run.add(compiled.check, run.excerpt)
    if compiled.recorded is not None:
        paper.upload = upload_list(compiled.recorded, paper.copy)


def _start_html(paper: Paper, run: Progress, recorded: Optional[Recorded]) -> None:
    """LaTeXML, started beside the compile once its first run listed the files read."""
    if run.html == "off" or recorded is None or shutil.which("latexmlc") is None or any(
            code_file(r.path) is not None for r in paper.refused):
        return
    files = upload_list(recorded, paper.copy)
    # Its own copy, taken from DIR, within its own 50 MB: at most two copies.  In
    # a directory of its own, not beside the compile's copy, where TeX writes:
    # no fixed relative name leads LaTeXML from its copy to that one.
    own = run.running.enter_context(tempfile.TemporaryDirectory(prefix="pith-html-"))
    conversion = run.running.enter_context(Conversion(
        paper.directory, paper.main, own, files, Budget(), whole=run.html == "full"))
    if run.say is not None:
        run.say(_html_says(run.html) + ", beside the compile")
    conversion.start()
    run.beside.append(conversion)


def _include(paper: Paper, run: Progress) -> None:
    """The ``include`` check: the one the compile read, when that can be told (issue 9).
    pith.sty's anonymous mode (the option, or a class's review mode) reads no include
    and writes nothing of the number, by design: not a contradiction."""
    compiled = paper.compiled
    what = None if compiled is None or compiled.log is None else include_read(
        compiled.log, paper.upload, paper.copy, finished=paper.finished)
    run.anonymous = anonymous_reason(paper.log)
    contradiction, run.include_name = include_from_compile(paper.directory, paper.setting,
                                                           what)
    if run.anonymous is not None:
        inc_check, run.include = anonymous_include(paper.directory, paper.setting,
                                                   run.anonymous)
        run.add(inc_check)
    elif contradiction is not None:
        run.add(contradiction)
    else:
        inc_check, run.include = check_include(paper.directory, run.include_name)
        run.add(inc_check)


def _number(paper: Paper, run: Progress) -> None:
    number = check_number(paper.tree, run.include_name, run.include)
    if run.anonymous is not None and number.status == ERROR:
        number = Check("number", WARN, number.detail)
    elif run.anonymous is not None and "\\pithnumber{" in number.detail:
        # The PDF carries nothing of the number, but the sources still do: a
        # double-blind venue that takes them (supplementary material) sees it.
        number = Check("number", WARN, "%s; the sources name it (\\pithnumber), so they "
                       "are not anonymous: give reviewers the PDF only, or drop "
                       "\\pithnumber (pith.sty takes the number from the include, which "
                       "an anonymous compile does not read)" % number.detail)
    run.number = number
    run.add(number)


def _title(paper: Paper, run: Progress) -> None:
    run.add(check_title(paper.tree, paper.main, run.include,
                        None if run.anonymous is not None else paper.pdf, run.mirror))


def _citations(paper: Paper, run: Progress) -> None:
    run.add(check_citations(paper.tree, paper.job, paper.sources, paper.log,
                            finished=paper.finished))


def _pdf(paper: Paper, run: Progress) -> None:
    """The ``pdf`` check: the PDF verifies, carries the number and shows the badge."""
    if paper.pdf is None:
        run.add(Check("pdf", ERROR, "not checked: %s" % (
            "nothing was compiled" if paper.compiled is None else "no PDF was made")))
        return
    inc, anonymous = run.include, run.anonymous is not None
    assert run.number is not None
    if inc is not None and inc.outcome is not None and (run.number.status == OK or anonymous):
        # Anonymous: the number check is a WARN when the sources name the number,
        # but the verified include still says which number to look for on the pages.
        run.expected = inc.outcome.number
    pdf_check, run.pdf = check_pdf(paper.pdf, os.path.basename(paper.pdf), run.expected,
                                   qr_asked(paper.main_text), anonymous=anonymous)
    missed = badge_missed(paper.log)
    if missed is not None and pdf_check.status in (OK, WARN):
        # pith.sty saw page 1 ship out without the title badge it had set (the
        # title block went on past page 1), in the run that made this PDF.
        pdf_check = Check("pdf", FAIL, "%s; but %s" % (pdf_check.detail, missed))
    hint = review_mode_hint(paper.main_text) if not anonymous else None
    if hint is not None and pdf_check.status == OK:
        # A review option pith.sty does not know: the badge names the authors.
        pdf_check = Check("pdf", WARN, "%s; but the paper loads %s: if this is a "
                          "review copy, pith.sty did not see it and the badge names "
                          "the authors: use \\usepackage[anonymous]{pith}"
                          % (pdf_check.detail, hint))
    if pdf_check.status == OK and not anonymous and paper.log is not None:
        pdf_check = _page_cost(pdf_check, paper, run)
    run.add(pdf_check)


def _upload_list(paper: Paper, run: Progress) -> None:
    """The ``upload`` line, judged on the compile's copy (before LaTeXML's turn may
    remove it); added last."""
    if paper.upload is not None and paper.finished:
        run.upload_line = upload_check(paper.upload, paper.copy)
    else:  # a compile that stopped read only part of the paper: no list to trust
        paper.upload = None
        run.upload_line = Check("upload", ERROR, "not listed: the compile did not finish")


def _html_step(paper: Paper, run: Progress) -> None:
    if paper.finished:
        run.add(_html(paper, run))


def _upload(paper: Paper, run: Progress) -> None:
    line = run.upload_line
    assert line is not None
    if paper.upload is not None and line.status in (OK, WARN):
        line = _unchanged(paper.directory, paper.upload, paper.copied, line)
        run.checked = {n: paper.copied.get(n, "") for n in paper.upload}
    run.add(line)


#: The checks after ``main``, in order (docs/cli.md).
STEPS: List[Callable[[Paper, Progress], None]] = [
    _sty, _shell_escape, _copy, _compile, _include, _number, _title, _citations, _pdf,
    _upload_list, _html_step, _upload]


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


def _page_cost(pdf_check: Check, paper: Paper, run: Progress) -> Check:
    """*pdf_check*, or a WARN when pith's badge makes the paper a page longer
    (:mod:`.pagecost`): a page limit counts it."""
    assert paper.log is not None and paper.pdf is not None
    pages = pages_in_log(paper.log)
    if pages is None or not short_page(paper.pdf, pages):
        return pdf_check
    tex = engine_and_env(run.route, paper.copy)
    if tex is None:
        return pdf_check
    if run.say is not None:
        run.say("compile: once more without the badge (the last page holds little)")
    without = pages_without_badge(paper.copy, paper.main, tex[0], tex[1], tick=run.tick)
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


def _html(paper: Paper, run: Progress) -> Check:
    """arXiv's HTML view, converted by LaTeXML from a fresh copy of the upload list taken
    from DIR (never the compiled copy, where TeX may have written anything); in the
    anonymous mode the page must show nothing of the number.  The conversion started
    beside the compile is taken when its first run read the files of the upload.
    No verdict comes from LaTeXML when the paper brings, or its compile writes, a file
    LaTeXML would run as code (the conversion beside ran on a copy without it)."""
    shipped = [r.path for r in paper.refused if code_file(r.path) is not None]
    written = code_written(paper.copy)
    if shipped or written:
        return Check("html", FAIL, "not converted: %s; LaTeXML, as arXiv runs it for the "
                     "HTML view, would run %s" % ("; ".join(
                         ["the paper brings %s" % shown_name(n) for n in shipped]
                         + ["the compile writes %s (TeX's \\openout)" % shown_name(n)
                            for n in written]),
                         "it" if len(shipped) + len(written) == 1 else "them"))
    if run.html == "off":
        return Check("html", WARN, "not checked (--html off): arXiv's HTML view of the "
                     "badge was not tried")
    if paper.upload is None:
        return Check("html", ERROR, "not converted: no upload list (the compile did not "
                     "finish)")
    return _converted(paper, run, paper.upload)


def _converted(paper: Paper, run: Progress, upload: List[str]) -> Check:
    """LaTeXML's verdict on *upload*: the conversion beside the compile when it read the
    same files, else a conversion of its own now."""
    beside = run.beside[0] if run.beside else None
    expect_badge = run.anonymous is None
    if beside is not None and sorted(beside.files) == sorted(upload):
        if run.say is not None and beside.running():
            run.say("html: waiting for LaTeXML")
        return judge_html(beside.finish(run.tick), paper.main, run.expected, expect_badge)
    if beside is not None:  # the reruns read other files: convert those
        beside.kill()
    # The compile's copy goes first: at most two copies of the paper on disk at a time.
    shutil.rmtree(paper.copy, ignore_errors=True)
    run.budget.left = COPY_CAP
    if run.say is not None and shutil.which("latexmlc") is not None:
        run.say(_html_says(run.html))
    return check_html(paper.directory, paper.main, run.expected, expect_badge=expect_badge,
                      files=upload, budget=run.budget, tick=run.tick,
                      whole=run.html == "full")
