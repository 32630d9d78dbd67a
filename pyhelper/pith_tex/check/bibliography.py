"""The ``citations`` check: arXiv runs no BibTeX, so the paper must bring its ``.bbl``,
and the compile must leave no citation or reference undefined."""

from __future__ import annotations

import os
import re
from typing import List, Optional

from ..checks import Check, FAIL, OK, WARN
from ..sourcetree import SourceTree
from .texsource import strip_comments

_CITE_RE = re.compile(r"\\(?:[A-Za-z]*cite[A-Za-z]*\*?|nocite)(?![A-Za-z@])")
_BIB_RE = re.compile(r"\\(?:bibliography|addbibresource|printbibliography)(?![A-Za-z@])")
_THEBIB_RE = re.compile(r"\\begin\s*\{thebibliography\}")
_UNDEF_CITE_RE = re.compile(r"Citation [`']([^']*)' (?:on page [0-9]+ )?undefined")
_UNDEF_REF_RE = re.compile(r"Reference [`']([^']*)' on page [0-9]+ undefined")


#: What BibTeX's log (JOB.blg) says when it made a .bbl without the entries cited: a
#: style or database it could not open, no \bibdata, a key no database has.
_BLG_RE = re.compile(r"^(I couldn't open (?:style|database) file [^\n]*"
                     r"|I found no [^\n-]*"
                     r"|Warning--I didn't find a database entry for \"[^\"\n]*\")", re.M)


def _bibtex_said(tree: SourceTree, job: str) -> List[str]:
    """The problems the author's last BibTeX run wrote in DIR/JOB.blg (at most three)."""
    path = os.path.join(tree.directory, job + ".blg")
    if os.path.islink(path) or not os.path.isfile(path):
        return []
    try:
        text = tree.text(path)
    except OSError:
        return []
    found: List[str] = []
    for m in _BLG_RE.finditer(text):
        line = " ".join(m.group(1).replace("Warning--", "").split())
        if line not in found:
            found.append(line)
    return found[:3]


def active_bibliography(tree: SourceTree, sources: List[str]) -> Optional[str]:
    """"bibtex" when an uncommented ``\\bibliography``, ``\\addbibresource`` or
    ``\\printbibliography`` is in the paper's sources (only then is BibTeX or biber the
    way to define a citation), "hand" for a ``thebibliography`` written out, else None."""
    hand = False
    for path in sources:
        try:
            text = "\n".join(strip_comments(tree.text(path)))
        except OSError:
            continue
        if _BIB_RE.search(text):
            return "bibtex"
        hand = hand or bool(_THEBIB_RE.search(text))
    return "hand" if hand else None


def needs_bbl(tree: SourceTree, sources: List[str]) -> bool:
    """Whether the paper cites through BibTeX/biber (an uncommented ``\\bibliography``
    or ``\\addbibresource``, no ``thebibliography`` written by hand)."""
    cites = bib = hand = False
    for path in sources:
        try:
            text = "\n".join(strip_comments(tree.text(path)))
        except OSError:
            continue
        cites = cites or bool(_CITE_RE.search(text))
        bib = bib or bool(_BIB_RE.search(text))
        hand = hand or bool(_THEBIB_RE.search(text))
    # Citations with no \bibliography at all: the undefined-citation check says what is
    # missing; "run bibtex" would be no advice (issue 21).
    return bib and not hand


def bbl_elsewhere(tree: SourceTree, bbl: str, depth: int = 3) -> Optional[str]:
    """A regular file named *bbl* in a subdirectory of *tree* (at most *depth* levels
    down, dot directories left out), relative; None when there is none."""
    top = tree.directory.rstrip(os.sep).count(os.sep)
    for root, dirs, files in tree.walk():
        level = root.rstrip(os.sep).count(os.sep) - top
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if level < depth else []
        path = os.path.join(root, bbl)
        if level > 0 and bbl in files and os.path.isfile(path) and not os.path.islink(path):
            return os.path.relpath(path, tree.directory)
    return None


def check_citations(tree: SourceTree, job: str, sources: List[str],
                    log: Optional[str], finished: bool = True) -> Check:
    """*tree*: the paper's directory; *sources*: its ``.tex`` files (paths in *tree*);
    *log*: the last run's log (None: no compile);
    *finished*: the compile made its PDF (else the log of a run that stopped tells
    nothing of citations: not checked)."""
    bbl = job + ".bbl"
    has_bbl = os.path.isfile(os.path.join(tree.directory, bbl))
    if needs_bbl(tree, sources) and not has_bbl:
        built = bbl_elsewhere(tree, bbl)
        if built is not None:
            # latexmk's $out_dir (or an editor's build directory) holds BibTeX's output:
            # BibTeX did run; what is missing is the copy arXiv reads.
            return Check("citations", FAIL, "the paper cites but there is no %s beside the "
                         "main file, where arXiv reads it; %s is there (a build directory, "
                         "such as latexmk's $out_dir?): copy it beside the main file as %s "
                         "and upload it (arXiv does not run BibTeX)" % (bbl, built, bbl))
        return Check("citations", FAIL, "the paper cites but there is no %s: arXiv does not "
                     "run BibTeX: run bibtex (or biber) %s and upload %s" % (bbl, job, bbl))
    if log is None or not finished:
        return Check("citations", WARN, "%s; not checked: %s" % (
            "%s is there" % bbl if has_bbl else "no bibliography",
            "not compiled" if log is None else "the compile stopped before the end (see "
            "compile), so undefined citations are not known"))
    cites = sorted(set(_UNDEF_CITE_RE.findall(log)))
    refs = sorted(set(_UNDEF_REF_RE.findall(log)))
    how = active_bibliography(tree, sources) if cites else "bibtex"
    if how is None:
        return Check("citations", FAIL, "undefined citations after the compile (arXiv shows "
                     "[?]): %s; the paper has no active bibliography (no uncommented "
                     "\\bibliography, \\addbibresource or thebibliography): add one"
                     % ", ".join(cites[:10]))
    if how == "hand":
        return Check("citations", FAIL, "undefined citations after the compile (arXiv shows "
                     "[?]): %s; the paper's thebibliography has no \\bibitem for them"
                     % ", ".join(cites[:10]))
    if cites:
        said = _bibtex_said(tree, job)
        if said:
            # Running BibTeX again gives the same .bbl: what stopped it is the advice.
            return Check("citations", FAIL, "undefined citations after the compile (arXiv "
                         "shows [?]): %s; the last BibTeX run (%s.blg) says: %s: fix that, "
                         "run bibtex %s and upload %s (arXiv does not run BibTeX)"
                         % (", ".join(cites[:10]), job, "; ".join(said), job, bbl))
        return Check("citations", FAIL, "undefined citations after the compile (arXiv shows "
                     "[?]): %s; arXiv does not run BibTeX: run bibtex %s again and upload %s"
                     % (", ".join(cites[:10]), job, bbl))
    if refs:
        return Check("citations", FAIL, "undefined references after the compile (arXiv shows "
                     "??): %s" % ", ".join(refs[:10]))
    return Check("citations", OK, "no undefined citation or reference%s"
                 % (" (%s is there)" % bbl if has_bbl else ""))
