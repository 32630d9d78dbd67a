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


from .command import VERDICTS, check_command, check_json
from .compiler import COMPILE_BUDGET, MAX_RUNS, ROUTES, compile_paper
from .includes import check_include, check_number, include_setting
from .mainfile import find_main
from .pdfcheck import check_pdf
from .run import Readiness, run_checks
from .shellescape import SHELL_PACKAGES, Hit, check_shell_escape, scan_shell_escape
from .sty import check_sty, shipped_sty
from .texsource import DEFAULT_INCLUDE

__all__ = [
    "COMPILE_BUDGET", "DEFAULT_INCLUDE", "Hit", "MAX_RUNS", "ROUTES", "Readiness",
    "SHELL_PACKAGES", "VERDICTS", "check_command", "check_include", "check_json",
    "check_number", "check_pdf", "check_shell_escape", "check_sty", "compile_paper",
    "find_main", "include_setting", "run_checks", "scan_shell_escape", "shipped_sty",
]
