"""The words of ``pith-tex --help``: each command's one-line summary and its epilog (the
files it writes, examples, its exit codes), and the top-level help.

:mod:`pith_tex.cli.commands` hands these to click.  ``pith-tex --help`` alone is printed by
:func:`top_help` without importing click (nor ``re`` or ``typing``): it is the command an
author runs first, and click is most of its cost.  :func:`top_help` lays the text out as
click does on a terminal at least 80 columns wide, where click's layout stops depending on
the width; ``tests/python/test_py_help.py`` checks that the two are the same, byte for
byte, so this module cannot drift from the click definition.

The epilogs are ``\\b`` blocks (click keeps their lines as written), each line at most 76
characters, so that they read the same on every terminal.
"""

from __future__ import annotations

import os
import sys
from typing import List

#: ``pith-tex --help``'s description (click indents it by 2).
MAIN_HELP = """\
Put a verified Pith Number on a paper with pith.sty; get it ready for arXiv.

\b
Exit codes: 0 verified or ready, 1 verification failed or not ready,
2 usage error, 3 could not check (each command's --help says more)."""

#: After the command list.
MAIN_EPILOG = """\
\b
Examples:
  pith-tex fetch                          # in the paper's directory
  pdflatex main.tex                       # compile as usual
  pith-tex check --tarball upload.tar.gz  # ready? write arXiv's upload
  pith-tex verify main.pdf                # check a PDF's number, offline
  pith-tex COMMAND --help                 # options, files written, examples"""

#: One line each in the command list (at most 60 characters: it fits beside the names).
SUMMARIES = {
    "check": "Check that a paper is ready for arXiv; write the upload.",
    "citations": "Verify a paper's Citation Record; list unresolved references.",
    "fetch": "Verify a Pith Number; write the include (and pith.sty).",
    "verify": "Verify PDFs, includes and saved records, offline.",
}

#: The epilog of each command: what it writes, examples, exit codes.
EPILOGS = {
    "fetch": """\
\b
Writes: the include (-o, default pith-number.tex) and, when TeX finds no
pith.sty, pith.sty beside the paper's main file; nothing unless every check
passed. The verified record is cached (PITH_TEX_CACHE_DIR moves the cache).

\b
Examples:
  pith-tex fetch                        # the \\pithnumber in the .tex files
  pith-tex fetch pith:2025:O6TNNA4XHFGPSALGBT7UWDA2Z3
  pith-tex fetch --offline              # from the cache: no network
  pith-tex fetch --resolver ../mirror   # a mirror directory on disk

\b
Exit codes: 0 verified, include written or up to date; 1 verification
failed (nothing written); 2 usage error (bad number, no or several
\\pithnumber); 3 could not check (network, timeout, no such record).""",
    "check": """\
\b
Writes: nothing in DIR, unless asked: --tarball FILE writes the upload
(only when the paper is ready), --fix writes pith.sty beside the main file.
TeX runs on a scratch copy of DIR, which is removed afterwards.

\b
Examples:
  pith-tex check                          # the paper in this directory
  pith-tex check --tarball upload.tar.gz  # then upload that file to arXiv
  pith-tex check paper/ --route xelatex   # as arXiv compiles it: xelatex
  pith-tex check --fix --main paper.tex   # copy this pith-tex's pith.sty

\b
Exit codes: 0 ready (warnings allowed); 1 not ready (a check failed);
2 usage error (no or several main files: use --main); 3 could not check
(no TeX installed).""",
    "verify": """\
\b
Writes: nothing.

\b
Examples:
  pith-tex verify main.pdf          # the PDF's number, from its own record
  pith-tex verify pith-number.tex   # the include fetch wrote
  pith-tex verify .                 # a directory: PDFs, include, *.json
                                    # (a PDF with no Pith Number: listed)
  pith-tex verify --json main.pdf

\b
Exit codes: 0 every file verified; 1 a file failed verification; 2 usage
error; 3 a file could not be checked (not a PDF, no Pith metadata) and
none failed. In a directory, a PDF with no Pith metadata (a figure) is
listed as carrying no Pith Number and changes no exit code.""",
    "citations": """\
\b
Writes: nothing.

\b
Examples:
  pith-tex citations 2509.03047                 # your paper's arXiv id
  pith-tex citations citation-record.json       # a saved record, offline
  pith-tex citations 2601.16956 --resolver examples/mirror --offline

\b
Exit codes: 0 verified; 1 a digest does not verify; 2 usage error (not an
arXiv id); 3 could not check (network, timeout, no record).""",
}

#: ``--json``'s help, the same for every command: the fields themselves, since the wheel
#: installs no docs (docs/cli.md, "--json", in the sources, lists every one).
JSON_HELP = ("Print one JSON object instead of text: command, exit_code, verdict, and "
             "each check as name, status and detail.")

#: The width click lays ``--help`` out to on a terminal of 80 columns or more.
_WIDTH = 78


def _columns() -> int:
    """The terminal width as :func:`shutil.get_terminal_size` (what click asks) says it,
    without importing shutil."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        if columns <= 0:
            columns = 80  # shutil's fallback
    return columns


def _block(text: str) -> List[str]:
    """Lines of a help text made of ``\\b`` blocks and one-line paragraphs, as click
    writes them: indented by 2, one blank line between paragraphs.  None when a
    paragraph would be re-wrapped by click (too long and not a ``\\b`` block)."""
    out: List[str] = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if lines[0] == "\b":
            lines = lines[1:]
        elif len(lines) > 1 or len(lines[0]) + 2 > _WIDTH:
            return []
        if out:
            out.append("")
        out.extend(("  " + line).rstrip() for line in lines)
    return out


def top_help() -> "str | None":
    """``pith-tex --help`` as click prints it, or None where this cannot promise to match
    click (a terminal narrower than 80 columns): then click prints it."""
    if _columns() < 80:
        return None
    help_lines, epilog = _block(MAIN_HELP), _block(MAIN_EPILOG)
    if not help_lines or not epilog:
        return None
    names = sorted(SUMMARIES)
    pad = max(len(n) for n in names) + 2
    rows = ["  %s%s" % (n.ljust(pad), SUMMARIES[n]) for n in names]
    if any(len(r) > _WIDTH for r in rows):
        return None
    lines = (["Usage: pith-tex [OPTIONS] COMMAND [ARGS]...", ""] + help_lines
             + ["", "Options:", "  --version   Show the version and exit.",
                "  -h, --help  Show this message and exit.", "", "Commands:"]
             + rows + [""] + epilog)
    return "\n".join(lines) + "\n"
