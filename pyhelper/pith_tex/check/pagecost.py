"""Does pith's badge cost the paper a page?

The title badge (and its QR code) pushes everything after it down by its height; when
the paper's last page would otherwise be full, the lines pushed over make a new last page
that holds only those few lines: the paper is one page longer than the same paper
without the badge, which a page limit (8 pages for a conference) turns into a problem.  ``check`` then compiles the paper once more with pith's ``hide`` (the badge's
space taken away, nothing else changed; the first compile's ``.aux`` reused) and
compares the page counts from TeX's own "Output written ... (N pages" lines.  The
second run is only made when the last page's text (a lone page number not counted) ends
in the top :data:`SHORT` of the page: a fuller last page cannot be the badge's doing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from typing import Callable, Dict, Optional

from .bounded import run_limited
from ..safeio import read_tex

#: The share of the page height, from the top, within which a last page's text ends
#: when it may be the badge's overflow (the badge and its QR code are under 10 % of it).
SHORT = 0.35
#: Seconds for the run without the badge.
BUDGET = 120.0

#: The job's files the run without the badge must not start from: its sources and what
#: the run writes itself.
_NOT_READ = (".tex", ".ltx", ".log", ".pdf", ".dvi", ".xdv", ".ps", ".fls", ".synctex.gz",
             ".fdb_latexmk")

#: The largest of those copied.
_AUX_CAP = 8 << 20

_PAGES_RE = re.compile(r"Output written on .*?\((\d+) pages?")
_LINE_RE = re.compile(r'<line xMin="[^"]*" yMin="[^"]*" xMax="[^"]*" yMax="([^"]*)">(.*?)</line>',
                      re.S)
_WORD_RE = re.compile(r"<word[^>]*>([^<]*)</word>")
_PAGE_RE = re.compile(r'<page width="[^"]*" height="([^"]*)">')


def pages_in_log(log: str) -> Optional[int]:
    found = _PAGES_RE.findall(log)
    return int(found[-1]) if found else None


def short_page(pdf: str, page: int) -> bool:
    """Whether the text of *page* ends in the top :data:`SHORT` of it (or there is none:
    a figure, a rule), a footer of digits alone (the page number) not counted.  True
    when it cannot be told."""
    exe = shutil.which("pdftotext")
    if exe is None:
        return True
    try:
        p = subprocess.run([exe, "-bbox-layout", "-f", str(page), "-l", str(page), pdf, "-"],
                           capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL, errors="replace")
    except (OSError, subprocess.SubprocessError):
        return True
    m = _PAGE_RE.search(p.stdout)
    if p.returncode != 0 or m is None:
        return True
    height = float(m.group(1))
    lowest = 0.0
    for y, body in _LINE_RE.findall(p.stdout):
        words = " ".join(_WORD_RE.findall(body)).strip()
        if not words or re.fullmatch(r"[\divxlcIVXLC.\-– ]{1,8}", words):
            continue  # the page number
        lowest = max(lowest, float(y))
    return lowest <= height * SHORT


def pages_without_badge(paper: str, main: str, engine: str, env: Dict[str, str],
                        tick: Optional[Callable[[], None]] = None) -> Optional[int]:
    """The page count of the paper compiled once more with pith's ``hide`` (as job
    ``JOB-nobadge``, from copies of the first compile's ``JOB.*`` files); None when that run
    fails or says nothing."""
    job = os.path.splitext(main)[0]
    other = job + "-nobadge"
    # What the job reads under its own name, the .aux and what others made for it (the
    # .bbl, the .ind, the .nls, the .toc): without them the other job has no
    # bibliography, index or contents, and is pages shorter for that, not for the badge.
    # (Small files only: a figure named after the job is not one of them, and is not
    # copied a second time into the scratch directory.)
    for name in sorted(os.listdir(paper)):
        ext, path = name[len(job):], os.path.join(paper, name)
        if name.startswith(job + ".") and ext.lower() not in _NOT_READ and \
                os.path.isfile(path) and not os.path.islink(path) and \
                os.path.getsize(path) <= _AUX_CAP:
            shutil.copyfile(path, os.path.join(paper, other + ext))
    cmd = [engine, "-interaction=nonstopmode", "-no-shell-escape", "-jobname=" + other,
           "\\PassOptionsToPackage{hide}{pith}\\input{%s}" % main]
    out = os.path.join(os.path.dirname(paper), "nobadge-output.txt")
    r = run_limited(cmd, paper, env, time.monotonic() + BUDGET, out,
                    (os.path.join(paper, other + ".log"),), tick=tick)
    if r.stopped or r.returncode != 0:
        return None
    try:
        return pages_in_log(read_tex(os.path.join(paper, other + ".log")))
    except OSError:
        return None
