"""fetch's ``title`` line: is the number this paper's?  The paper beside the include
(its main file, its ``\\title``) against the record's title, decided before anything
is written (docs/verification.md)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

from ..checks import FAIL, WARN, Check
from ..check.mainfile import find_main
from ..errors import UsageError
from ..include.include import MAX_TITLE_UNITS
from ..record.canonical import canon_sha256
from ..sourcetree import SourceTree
from ..title.compare import DIFFERENT, as_typed, compare, shown, title_check
from ..title.source import NOT_FOUND, find_title, has_document, inputs_missing

#: The paper's main file: its name; None when no paper is there; the error of several.
MainFile = Union[str, None, UsageError]


def record_title(rec_data: Any, record: Dict[str, Any]) -> Optional[str]:
    """The resolver's ``paper.title`` when it is the record's (it hashes to
    ``title_canon_sha256``) and fits the include; None otherwise."""
    paper = rec_data.get("paper") if isinstance(rec_data, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    if not isinstance(title, str) or canon_sha256(title) != record.get(
            "metadata", {}).get("title_canon_sha256"):
        return None
    try:
        units = len(title.encode("utf-16-be")) // 2
    except UnicodeEncodeError:
        return None
    return title if 1 <= units <= MAX_TITLE_UNITS else None


def paper_main(tree: SourceTree, main_file: Optional[str]) -> MainFile:
    """The paper's main file in *tree* (where the include goes): its name; None
    when no paper is there; a :class:`~pith_tex.errors.UsageError` when there are
    several and nothing tells them apart (reported on the title line).  A bad ``--main``
    raises (exit 2)."""
    if main_file is not None:
        return find_main(tree.directory, main_file, tree=tree)
    try:
        return find_main(tree.directory, paper=True, tree=tree)
    except UsageError as e:
        return e if e.message.startswith("several main files") else None


def title_line(tree: SourceTree, main: MainFile, rec_data: Any, record: Dict[str, Any],
               accept_title: bool) -> Tuple[Optional[Check], bool, Optional[str]]:
    """The ``title`` line of ``fetch`` (None: no paper beside the include), whether the
    include says the title was accepted (``--accept-title`` on a different title) and
    the title accepted, as typed (it travels in the include and the PDF, where check and
    verify compare page 1 with it)."""
    if main is None:
        return None, False, None
    if not isinstance(main, str):
        return Check("title", WARN, "not compared: %s" % main.message.replace(
            "; name the one arXiv should compile with --main FILE",
            ": name the paper's with pith-tex fetch --main FILE")), False, None
    try:
        found = find_title(tree.directory, main, tree.text)
    except OSError as e:
        return Check("title", WARN, "not compared: cannot read %s: %s"
                     % (main, e.strerror or e)), False, None
    paper = rec_data.get("paper") if isinstance(rec_data, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    title = title if isinstance(title, str) else None
    canon = record.get("metadata", {}).get("title_canon_sha256")
    canon = canon if isinstance(canon, str) else None
    if found is None and not has_document(tree.directory, main, tree.text):
        missing = inputs_missing(tree.directory, main, tree.text)
        return title_check(None, canon, title, "%s has no \\begin{document}%s" % (
            main, "" if not missing else " in it or the files it inputs here; it inputs "
            "%s, which %s not beside it: put the whole paper beside it (Overleaf: Menu, "
            "Download, Source, then unpack it)" % (", ".join(missing[:5]),
                                                   "is" if len(missing) == 1 else "are"))
            ), False, None
    if found is None:
        return _no_title(tree, main, title, accept_title), accept_title, None
    raw = _likeliest(found, title, canon)
    where = "%s's %s" % (found.file, found.what)
    differs = compare(raw, title, canon).kind == DIFFERENT
    accepted = accept_title and differs
    line = title_check(raw, canon, title, where, accepted=accepted, on_different=FAIL)
    return line, accepted, as_typed(raw) if accepted else None


def _likeliest(found: Any, title: Optional[str], canon: Optional[str]) -> str:
    """The text of *found* that is the record's title, when one of those a title
    block offers is; else its first."""
    for raw in (found.raw,) + tuple(found.others):
        if compare(raw, title, canon).matches:
            return str(raw)
    return str(found.raw)


def _no_title(tree: SourceTree, main: str, title: Optional[str], accept_title: bool
              ) -> Check:
    """fetch's ``title`` line when the source has no title in a form it reads: a FAIL
    with the ways on (nothing binds the number to this paper), or, after
    ``--accept-title``, a WARN: check and verify compare the compiled page 1."""
    theirs = " %s" % shown(title) if title is not None else " known by its hash only"
    missing = inputs_missing(tree.directory, main, tree.text)
    if missing and not accept_title:
        # The main file copied alone (as Overleaf's authors may): its title is likely in
        # one of the files it inputs.
        return Check("title", FAIL, "not found: %s inputs %s, which %s not beside it, and "
                     "%s: put the whole paper beside it (Overleaf: Menu, Download, Source, "
                     "then unpack it) and run pith-tex fetch again" % (
                         main, ", ".join(missing[:5]) + (" and %d more" % (len(missing) - 5)
                                                         if len(missing) > 5 else ""),
                         "is" if len(missing) == 1 else "are", NOT_FOUND % main))
    if accept_title:
        return Check("title", WARN, "not compared: %s; written as --accept-title asks: "
                     "check and verify compare the title page 1 of the compiled PDF shows "
                     "with the record's title%s" % (NOT_FOUND % main, theirs))
    return Check("title", FAIL, "not found: %s, so nothing here says the number is this "
                 "paper's (the record's title is%s): put the title in \\title{...}, or, if "
                 "the number is this paper's, run pith-tex fetch --accept-title (check and "
                 "verify then compare the title page 1 of the compiled PDF shows)"
                 % (NOT_FOUND % main, theirs))
