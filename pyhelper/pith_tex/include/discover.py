"""Find the ``\\pithnumber{...}`` of the paper in the ``.tex`` files of a directory.

Comments (from an unescaped ``%`` to the end of the line) are ignored, and so are
arguments containing ``#`` (macro definitions).  ``\\pithnumber[options]{...}`` is
accepted.  Exactly one distinct number must be found.

Every ``.tex`` file is read through :mod:`pith_tex.safeio`: a FIFO, device or socket
named ``*.tex`` and a file larger than 8 MiB are refused with a message naming them
(exit 3), never opened or read whole; a directory named ``*.tex`` is skipped.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, List, Optional, Tuple

from ..errors import CouldNotCheck, UsageError, safe_name
from ..record.identifier import Identifier, parse_identifier
from ..safeio import NotRegularFile, read_tex

_COMMENT_RE = re.compile(r"(?<!\\)%.*")
_PITHNUMBER_RE = re.compile(r"\\pithnumber\s*(?:\[[^\]\n]*\])?\s*\{([^{}\n]*)\}")


def uncomment(line: str) -> str:
    """*line* without its comment (from an unescaped ``%`` to the end)."""
    return _COMMENT_RE.sub("", line)


def find_pith_numbers(directory: str = ".", exclude: Tuple[str, ...] = (),
                      listdir: Callable[[str], List[str]] = os.listdir,
                      read: Callable[[str], str] = read_tex) -> Identifier:
    """The one number the ``*.tex`` files of *directory* name; :class:`UsageError` else.
    *listdir* and *read*: how the directory is listed and a file read (``check`` hands
    in the listing and the texts it already has)."""
    try:
        names = sorted(n for n in listdir(directory)
                       if n.endswith(".tex") and n not in exclude)
    except OSError as e:
        raise UsageError("cannot list %s: %s" % (directory, e.strerror or e)) from e
    found: Dict[str, List[Tuple[str, Identifier]]] = {}
    for name in names:
        path = os.path.join(directory, name)
        try:
            text = read(path)
        except NotRegularFile as e:
            if e.kind == "a directory":
                continue  # a directory named *.tex is no source file
            raise CouldNotCheck("%s is %s, not a regular file: pith-tex does not read it; "
                                "remove it, or name the number: pith-tex fetch NUMBER"
                                % (safe_name(name), e.kind)) from e
        except FileNotFoundError:
            continue  # removed since the listing (or a dangling symlink)
        except OSError as e:
            raise CouldNotCheck("cannot read %s to look for \\pithnumber: %s; name the "
                                "number instead: pith-tex fetch NUMBER"
                                % (safe_name(name), e.strerror or e)) from e
        for lineno, line in enumerate(text.splitlines(), 1):
            if "\\pithnumber" not in line:
                continue
            for m in _PITHNUMBER_RE.finditer(uncomment(line)):
                arg = m.group(1)
                if "#" in arg:
                    continue
                where = "%s:%d" % (name, lineno)
                try:
                    ident = parse_identifier(arg)
                except UsageError as e:
                    raise UsageError("%s: \\pithnumber{...}: %s" % (where, e.message)) from e
                found.setdefault(ident.number, []).append((where, ident))
    if not found:
        raise UsageError(
            "no \\pithnumber{...} in %s: add \\pithnumber{NUMBER} to the paper or run "
            "pith-tex fetch NUMBER" % (
                "the .tex files here (%s)" % ", ".join(names) if names else "any .tex file here"))
    if len(found) > 1:
        listing = "; ".join("%s (%s)" % (num, ", ".join(w for w, _ in uses))
                            for num, uses in sorted(found.items()))
        raise UsageError("the .tex files name %d different Pith Numbers: %s; run "
                         "pith-tex fetch NUMBER with the one you mean" % (len(found), listing))
    (number, uses), = found.items()
    years = sorted({i.year for _, i in uses if i.year is not None})
    if len(years) > 1:
        raise UsageError("the .tex files give %s with different years (%s): fix them"
                         % (number, ", ".join(map(str, years))))
    year: Optional[int] = years[0] if years else None
    return Identifier(number, year)
