"""Every check of ``pith-tex check``, in order, on one paper directory."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import List, NamedTuple, Optional

from ..checks import Check, ERROR, FileOutcome, OK
from ..discover import read_tex
from ..errors import UsageError
from .compiler import ROUTES, compile_paper
from .includes import check_include, check_number, include_setting
from .mainfile import find_main
from .pdfcheck import check_pdf
from .shellescape import check_shell_escape
from .sty import check_sty


class Readiness(NamedTuple):
    """What ``check`` established: the checks and what goes with them."""

    directory: str
    main: str  # the main file's name, in *directory*
    route: str
    checks: List[Check]
    fixed: List[str]  # what --fix did, one sentence each
    log_excerpt: List[str]  # the compile's log around the first error, else []
    pdf: Optional[FileOutcome]  # the PDF verifier's outcome, its path the PDF's name


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

