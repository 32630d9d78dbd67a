"""``pith-tex check [DIR]``: is this paper ready to upload to arXiv?

The checks, one line each, printed as each completes, in this order (``OK``/``FAIL``/
``WARN``/``ERROR`` as for ``verify``; exit 0 when nothing failed or could not be checked,
warnings allowed).  docs/cli.md says what each one checks; each lives in its own module:

``main``          :mod:`.mainfile`: the one top-level ``.tex`` with ``\\documentclass``
``pith.sty``      :mod:`.sty`: beside the main file, the shipped one or newer (``--fix``)
``shell-escape``  :mod:`.shellescape`: nothing needs the shell escape arXiv lacks
``files``         :mod:`.sandbox`: regular files only (symlinks, FIFOs, devices named)
``paths``         :mod:`.paths`: no file named or read from outside the upload
``compile``       :mod:`.compiler` in :mod:`.sandbox`: a scratch copy, compiled as arXiv
                  does, TeX's output capped and its time bounded
``include``       :mod:`.includes`: the include the compile read verifies
``number``        :mod:`.includes`: it is for the paper's ``\\pithnumber``
``title``         :mod:`.includes`: page 1 of the compiled PDF (else the ``\\title``) is the record's
``citations``     :mod:`.citations`: a ``.bbl`` when the paper cites; nothing undefined
``pdf``           :mod:`.pdfcheck`: the PDF built verifies and carries the number
``upload``        :mod:`.upload`: the files the compile read, and their names

:mod:`.run` runs them in that order, as steps over one :class:`.paper.Paper` (the
directory read once, through a :class:`pith_tex.sourcetree.SourceTree`: every check reads
from it); :mod:`.command` prints them (or ``--json``) and writes ``--tarball``.
"""


from .command import VERDICTS, check_command, check_json
from .compiler import COMPILE_BUDGET, MAX_RUNS, ROUTES, compile_paper
from .includes import check_include, check_number, include_setting
from .mainfile import find_main
from .pdfcheck import check_pdf
from .run import Readiness, run_checks
from .shellescape import SHELL_PACKAGES, Hit, check_shell_escape, scan_shell_escape
from .styfile import check_sty, shipped_sty
from .texsource import DEFAULT_INCLUDE

__all__ = [
    "COMPILE_BUDGET", "DEFAULT_INCLUDE", "Hit", "MAX_RUNS", "ROUTES", "Readiness",
    "SHELL_PACKAGES", "VERDICTS", "check_command", "check_include", "check_json",
    "check_number", "check_pdf", "check_shell_escape", "check_sty", "compile_paper",
    "find_main", "include_setting", "run_checks", "scan_shell_escape", "shipped_sty",
]
