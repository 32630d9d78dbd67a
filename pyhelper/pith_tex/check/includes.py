"""The ``include`` and ``number`` checks: the include the paper reads verifies, and is
for the paper's ``\\pithnumber``."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, List, Optional, Tuple

from ..checks import Check, ERROR, FAIL, FileOutcome, OK, WARN, decisive
from ..include.discover import find_pith_numbers
from ..sourcetree import SourceTree
from ..errors import PithError, UsageError
from ..verify.files import verify_include_file
from .texsource import DEFAULT_INCLUDE, strip_comments

if TYPE_CHECKING:
    from ..record.identifier import Identifier

_PITH_OPTIONS_RE = re.compile(
    r"\\(?:usepackage|RequirePackage)\s*\[([^\]]*)\]\s*\{([^{}]*)\}|\\pithsetup\s*\{([^{}]*)\}")


def _pith_options(main_text: str) -> List[Tuple[str, Optional[str]]]:
    """The ``key`` / ``key=value`` options of ``\\usepackage[...]{pith}`` and
    ``\\pithsetup{...}`` in the main file's preamble, in order (value None for a bare key)."""
    lines = strip_comments(main_text)
    text = "\n".join(lines)
    end = text.find("\\begin{document}")
    if end >= 0:
        text = text[:end]
    found: List[Tuple[str, Optional[str]]] = []
    for m in _PITH_OPTIONS_RE.finditer(text):
        if m.group(3) is not None:
            options = m.group(3)
        elif "pith" in [p.strip() for p in m.group(2).split(",")]:
            options = m.group(1)
        else:
            continue
        for opt in options.split(","):
            key, eq, value = opt.partition("=")
            found.append((key.strip(), value.strip() if eq else None))
    return found


def include_setting(main_text: str) -> str:
    """The include the main file's preamble names (``include=FILE`` in the options of
    ``\\usepackage{pith}`` or in ``\\pithsetup``; the last wins), else the default;
    ``"false"`` when it reads none."""
    name = DEFAULT_INCLUDE
    for key, value in _pith_options(main_text):
        if key == "include" and value is not None:
            if value.startswith("{") and value.endswith("}"):
                value = value[1:-1].strip()
            if value and "#" not in value:
                name = value
    return name


def qr_asked(main_text: str) -> bool:
    """Does the main file's preamble turn on pith.sty's ``qr`` option (the last
    ``qr``/``qr=true``/``qr=false`` wins)?"""
    asked = False
    for key, value in _pith_options(main_text):
        if key == "qr":
            asked = value is None or value.strip("{} ") == "true"
    return asked


def _include_path(directory: str, name: str) -> str:
    path = os.path.join(directory, name)
    if not os.path.exists(path) and not os.path.splitext(name)[1]:
        path += ".tex"  # TeX's own rule for a file name without an extension
    return path


def signature_ok(checks: List[Check]) -> Tuple[Optional[Check], str]:
    """The decisive check, a missing receipt not counted (an unsigned include is what the
    resolver gives today), and "signed" or "unsigned"."""
    from ..checks import UNSIGNED

    bad = decisive(checks)
    unsigned = any(c.name == "signature" and c.detail.startswith(UNSIGNED) for c in checks)
    return bad, ("checked (unsigned: no signed receipt)" if unsigned
                 else "verified (signed receipt)")


def check_include(directory: str, name: str) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``include`` check and the include's outcome (None: not read)."""
    if name == "false":
        return Check("include", WARN, "include=false: pith.sty reads no include, so the "
                     "badge is marked unverified"), None
    path = _include_path(directory, name)
    shown = os.path.relpath(path, directory)
    if not os.path.exists(path):
        return Check("include", FAIL, "%s not found: run pith-tex fetch" % shown), None
    out = verify_include_file(path)
    if out.outcome is None:
        status = FAIL if out.error_code == 1 else ERROR
        return Check("include", status, "%s: %s: run pith-tex fetch again"
                     % (shown, out.error)), out
    bad, signed = signature_ok(out.outcome.checks)
    if bad is not None:
        return Check("include", bad.status, "%s does not verify: %s: %s"
                     % (shown, bad.name, bad.detail)), out
    fields = out.outcome.fields
    year = "" if fields is None else "%d:" % fields.year
    return Check("include", OK, "%s verifies: pith:%s%s, %s"
                 % (shown, year, out.outcome.number, signed)), out


def check_number(tree: SourceTree, include_name: str,
                 include: Optional[FileOutcome]) -> Check:
    """The ``number`` check: the include is for the paper's ``\\pithnumber``."""
    ident: Optional[Identifier]
    try:
        ident = find_pith_numbers(tree.directory, exclude=(os.path.basename(include_name),),
                                  listdir=tree.listdir, read=tree.text)
    except UsageError as e:
        if not e.message.startswith("no \\pithnumber"):
            return Check("number", FAIL, e.message)
        ident = None
    except PithError as e:  # a .tex that cannot be read (a FIFO, a device link, too big)
        return Check("number", ERROR, "not checked: %s" % e.message)
    inc = None if include is None else include.outcome
    inc_number = None if inc is None else inc.number
    if ident is None:
        if inc_number is not None:
            return Check("number", OK, "no \\pithnumber: pith.sty uses the include's number "
                         "%s" % inc_number)
        return Check("number", FAIL, "no \\pithnumber{...} in the .tex files and no include: "
                     "the paper has no Pith Number")
    if include_name == "false":
        return Check("number", OK, "\\pithnumber{%s}; no include to compare it with" % str(ident))
    if inc is None or inc_number is None:
        return Check("number", ERROR, "not checked: the include is missing or unreadable "
                     "(\\pithnumber is %s)" % str(ident))
    if inc_number != ident.number:
        return Check("number", FAIL, "the include is for %s but \\pithnumber is %s: run "
                     "pith-tex fetch again" % (inc_number, ident.number))
    year = None if inc.fields is None else inc.fields.year
    if ident.year is not None and year is not None and ident.year != year:
        return Check("number", FAIL, "\\pithnumber gives the year %d but the record of %s "
                     "is from %d: write pith:%d:%s or leave the year out"
                     % (ident.year, ident.number, year, year, ident.number))
    return Check("number", OK, "the include is for \\pithnumber{%s}" % str(ident))



# -- which include the compile read (issue 9: check what TeX read, not what it seems to) --

#: pith.sty's log line naming the include it read (``pith-include: read NAME``), looked
#: for (``missing NAME``), or that it read none (``none``).
#: Anywhere on a log line (on its own, or inside a \\PackageInfo).
_INCLUDE_LOG_RE = re.compile(r"pith-include: (read|missing|none)\b(?:[ \t]+([^\s]+?))?"
                             r"(?:[ \t]+on input line [0-9]+)?\.?[ \t]*$", re.M)
_MAX_INCLUDE_BYTES = 1 << 20


def _looks_like_include(path: str) -> bool:
    if not os.path.isfile(path) or path.endswith((".sty", ".cls")):
        return False
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_INCLUDE_BYTES)
    except OSError:
        return False
    return b"\\pithrecord{" in data and b"\\documentclass" not in data


def include_read(log: Optional[str], read: Optional[List[str]], copy: str,
                 finished: bool = True) -> Optional[Tuple[str, Optional[str]]]:
    """What the compile did about the include: ``("read", NAME)``, ``("missing", NAME)``
    or ``("none", None)``; None when it cannot be told.  From pith.sty's log line when
    there is one, else from the files TeX read (*read*: relative to the copy) that are
    includes.  A compile that stopped (*finished* False) before pith.sty said anything
    may have stopped before pith.sty was even loaded: reading no include then tells
    nothing."""
    if log is not None:
        found = _INCLUDE_LOG_RE.findall(log)
        if found:
            kind, name = found[-1]
            return kind, (name or None)
    if read is None:
        return None
    includes = [n for n in read if _looks_like_include(os.path.join(copy, n))]
    if len(includes) == 1:
        return "read", includes[0]
    return ("none", None) if not includes and finished else None


def include_from_compile(directory: str, setting: str,
                         what: Optional[Tuple[str, Optional[str]]]
                         ) -> Tuple[Optional[Check], str]:
    """The include to verify (a name in *directory*, or ``"false"``), and a FAIL when the
    compile contradicts the preamble's *setting* in a way that cannot be verified."""
    if what is None:
        return None, setting
    kind, name = what
    if kind == "none":
        if setting == "false" or not os.path.exists(_include_path(directory, setting)):
            return None, setting  # the include check says what to do
        return Check("include", FAIL, "the compile read no include although the preamble "
                     "names %s: is include=false set in an \\input file or a \\pithsetup "
                     "elsewhere? The badge would be unverified" % setting), setting
    assert name is not None
    rel = os.path.normpath(name)
    if kind == "missing":
        return Check("include", FAIL, "pith.sty looked for the include %s, which is not in "
                     "the upload: run pith-tex fetch -o %s" % (rel, rel)), setting
    if rel.startswith("..") or os.path.isabs(rel):
        return Check("include", FAIL, "the compile read the include %s, outside the upload"
                     % rel), setting
    return None, rel


_ANONYMOUS_RE = re.compile(r"Package pith Info: Anonymous \(([^)\n]*)\)")


def anonymous_reason(log: Optional[str]) -> Optional[str]:
    """Why pith.sty was anonymous in this compile (``option anonymous``, ``acmart
    anonymous``...), from its log line; None when it was not."""
    if log is None or "Package pith Info: Anonymous" not in log:
        return None
    m = _ANONYMOUS_RE.search(log)
    return m.group(1) if m else "anonymous"


def anonymous_include(directory: str, setting: str, reason: str
                      ) -> Tuple[Check, Optional[FileOutcome]]:
    """The ``include`` check of an anonymous compile: pith.sty read no include, as it
    should; the include beside the paper, which the version with the badge will read, is
    verified all the same (for the ``number`` and ``title`` checks)."""
    said = ("anonymous (%s): no badge, QR code or Pith metadata in the PDF, as double-blind "
            "review asks; for the version with the badge, drop the option or the class's "
            "review mode and check again" % reason)
    if setting == "false":
        return Check("include", WARN, said), None
    inc_check, inc = check_include(directory, setting)
    if inc_check.status != OK:
        inc = None
    return Check("include", WARN, "%s; %s" % (said, inc_check.detail)), inc


def check_title(tree: SourceTree, main_name: str, include: Optional[FileOutcome],
                pdf: Optional[str] = None, mirror: str = "") -> Check:
    """The ``title`` check: is the include's number this paper's?  The title page 1 of
    the compiled PDF *pdf* shows (the paper's macros expanded), else the paper's
    ``\\title`` as typed, against the include's ``title-sha256`` and, when the verified
    record is at hand (cache, or *mirror*, PITH_RESOLVER naming a mirror on disk), its
    title.  A different title is not ready, unless it is the title the include accepts
    (``fetch --accept-title``: a WARN that names both titles)."""
    from ..include.include import parse_include
    from ..title.compare import title_check
    from ..title.source import find_title

    if include is None or include.outcome is None or include.outcome.number is None:
        return Check("title", WARN, "not compared: no verified include to compare the "
                     "paper's \\title with")
    try:
        # include.path already starts with *directory* (check_include joined them):
        # joining again read "paper/paper/pith-number.tex" for ``check paper``.
        with open(include.path, "rb") as f:
            data = parse_include(f.read(_MAX_INCLUDE_BYTES).decode("ascii", "replace"))
        canon = data.record["metadata"]["title_canon_sha256"]
    except (OSError, ValueError, KeyError, TypeError, PithError) as e:
        return Check("title", ERROR, "not checked: cannot read title-sha256 from the include "
                     "(%s)" % e)
    canon = canon if isinstance(canon, str) else None
    record_title = _record_title(include.outcome.number, mirror)
    if pdf is not None:
        from ..pdf.pagetitle import visible_title_check

        seen = visible_title_check(pdf, canon, record_title, "the compiled PDF's title "
                                   "(page 1)", accepted=data.accepted_title)
        if seen is not None:
            return _unaccepted(seen, data.title_accepted and data.accepted_title is None)
    try:
        found = find_title(tree.directory, main_name, tree.text)
    except OSError as e:
        return Check("title", WARN, "not compared: cannot read %s: %s"
                     % (main_name, e.strerror or e))
    if found is None:
        from ..title.source import NOT_FOUND

        return title_check(None, canon, record_title, NOT_FOUND % main_name)
    accepted = data.accepted_title is not None and _is_accepted(found.raw,
                                                                 data.accepted_title)
    return _unaccepted(title_check(found.raw, canon, record_title, "%s's %s" % (
                                       found.file, found.what), accepted=accepted),
                       data.title_accepted and data.accepted_title is None)


def _is_accepted(raw: str, accepted: str) -> bool:
    """Is the source's title *raw* the title the include accepts?"""
    from ..title.compare import compare

    return compare(raw, accepted, None).matches


def _unaccepted(line: Check, note_only: bool) -> Check:
    """*line*, with the way on when it fails and the include has the ``--accept-title``
    note but no accepted title (written by a pith-tex before the accepted title travelled
    in the include, or by a fetch that found no title in the source)."""
    if line.status != FAIL or not note_only:
        return line
    return line._replace(detail=line.detail + "; the include says --accept-title but "
                         "carries no accepted title: run pith-tex fetch --accept-title "
                         "again (with the title in \\title{...})")


def _record_title(number: str, mirror: str) -> Optional[str]:
    """``paper.title`` of the verified record of *number*, from the cache or the mirror
    on disk *mirror* (PITH_RESOLVER, when it names a directory); None when neither has
    it."""
    import json

    from ..resolver.cache import Cache

    bodies: List[bytes] = []
    try:
        entry = Cache().load(number)
        if entry is not None:
            bodies.append(entry[0])
    except OSError:
        pass
    if mirror and os.path.isdir(mirror):
        path = os.path.join(mirror, "pith", number + ".json")
        try:
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    bodies.append(f.read(_MAX_INCLUDE_BYTES))
        except OSError:
            pass
    for body in bodies:
        try:
            doc = json.loads(body)
        except ValueError:
            continue
        paper = doc.get("paper") if isinstance(doc, dict) else None
        title = paper.get("title") if isinstance(paper, dict) else None
        if isinstance(title, str):
            return title
    return None
