"""The one value ``check``'s steps share: the paper, as check read it.

:func:`pith_tex.check.run.run_checks` is a list of steps over one :class:`Paper`: the
first steps fill in the main file, its text and the paper's sources; the compile fills
in the log, the PDF and the upload list; each later check reads what it needs from
there.  :class:`Progress` is where the steps report what they found.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Dict, List, Optional

from ..checks import Check, FileOutcome
from ..sourcetree import SourceTree
from .compiler import Compiled
from .html import Conversion
from .safecopy import Budget, Refused
from .texsource import DEFAULT_INCLUDE

#: Hears each check (and the compile's log excerpt) as soon as it is known.
Report = Callable[[Check, List[str]], None]
#: Hears which step is going ("compile: pdflatex run 2"); None: a heartbeat.
Say = Callable[[Optional[str]], None]


class Paper:
    """The paper directory as ``check`` read it, and what the compile made of it.
    Every check reads the directory through :attr:`tree`: each directory listed once,
    each source read once."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.tree = SourceTree(directory)
        self.main = ""  # the main file's name, in *directory*
        self.job = ""  # the main file's name without its extension
        self.main_text = ""  # the main file's text
        self.setting = DEFAULT_INCLUDE  # the include the preamble names, or "false"
        self.sources: List[str] = []  # the paper's .tex files (paths under *directory*)
        #: The compile's scratch copy of the upload (a directory in the scratch one).
        self.copy = ""
        self.refused: List[Refused] = []  # what the copy left out, and why
        self.copied: Dict[str, str] = {}  # each copied file's SHA-256, before TeX ran
        self.compiled: Optional[Compiled] = None  # None: nothing was compiled
        self.log: Optional[str] = None  # the last LaTeX run's log
        self.upload: Optional[List[str]] = None  # the files the compile read from DIR

    @property
    def pdf(self) -> Optional[str]:
        """The compiled PDF's path (None: no PDF was made)."""
        return None if self.compiled is None else self.compiled.pdf

    @property
    def finished(self) -> bool:
        """The compile made its PDF (a compile that stopped read only part of the paper)."""
        return self.pdf is not None


class Progress:
    """What the steps found so far: the checks (each reported as it is added), what
    ``--fix`` did, the include, and the compile's companions (LaTeXML beside it)."""

    def __init__(self, route: str, fix: bool, html: str, report: Optional[Report],
                 say: Optional[Say], running: contextlib.ExitStack, mirror: str = "") -> None:
        self.route, self.fix, self.html = route, fix, html
        self.mirror = mirror  # a resolver mirror on disk (the record's title), or ""
        self.report, self.say = report, say
        self.running = running  # what lives as long as the scratch directory
        self.checks: List[Check] = []
        self.fixed: List[str] = []  # what --fix did, one sentence each
        self.excerpt: List[str] = []  # the compile's log around the first error
        self.budget = Budget()  # the bytes check may still copy
        self.beside: List[Conversion] = []  # LaTeXML, started after the first LaTeX run
        self.anonymous: Optional[str] = None  # why pith.sty was anonymous, if it was
        self.include_name = DEFAULT_INCLUDE  # the include verified
        self.include: Optional[FileOutcome] = None  # its outcome (None: not verified)
        self.number: Optional[Check] = None
        self.expected: Optional[str] = None  # the number the PDF and the HTML view show
        self.pdf: Optional[FileOutcome] = None  # the PDF verifier's outcome
        self.upload_line: Optional[Check] = None
        self.checked: Optional[Dict[str, str]] = None  # the upload's digests as compiled

    def add(self, c: Check, lines: Optional[List[str]] = None) -> None:
        self.checks.append(c)
        if self.report is not None:
            self.report(c, lines or [])

    def tick(self) -> None:
        """About every 0.1 s while a program runs: LaTeXML polled, a heartbeat said."""
        for conversion in self.beside:
            conversion.poll()
        if self.say is not None:
            self.say(None)

    def saying(self, prefix: str) -> Optional[Callable[[str], None]]:
        say = self.say
        return None if say is None else lambda text: say(prefix + text)

