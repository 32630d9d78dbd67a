"""Is this Pith Number for this paper?  The paper's ``\\title`` against the record's.

The record carries ``title_canon_sha256 = sha256(lower(title))``, the title as typed on
arXiv with its TeX left in and whitespace collapsed (pith-spec section 2); the resolver's
JSON also carries that title as ``paper.title`` (untrusted text).  The paper's title is
the argument of ``\\title`` in its main file.  They match when

* the paper's title, without what never reaches arXiv's title field (``\\thanks``,
  footnotes, line breaks), hashes to ``title_canon_sha256``; or
* both titles, with every TeX command, brace, ``$`` and ``~`` removed, whitespace collapsed
  and case folded, are the same text (the author may format the title where arXiv's
  field is plain, or the other way round).
"""

from __future__ import annotations

import hashlib
import re
from typing import List, Optional

from .checks import Check, OK, WARN
from .discover import uncomment
from .errors import printable

#: Commands whose argument is not part of the title arXiv shows.
_DROPPED = ("thanks", "footnote", "footnotetext", "tnoteref", "fnref", "thanksref",
            "titlenote", "footnotemark", "texorpdfstring")
_BREAK_RE = re.compile(r"\\\\\*?(?:\s*\[[^\]]*\])?|\\(?:newline|linebreak|break)(?![A-Za-z])"
                       r"(?:\s*\[[^\]]*\])?")
_TITLE_RE = re.compile(r"\\title(?![A-Za-z@])\s*")
_CMD_RE = re.compile(r"\\([A-Za-z@]+)\s*|\\(.)")
_WS_RE = re.compile(r"\s+")


def _group(text: str, i: int) -> int:
    """The index after the balanced ``{...}`` group opening at ``text[i]`` (or after the
    single token there); ``len(text)`` when unbalanced."""
    if i >= len(text):
        return i
    if text[i] != "{":
        return i + (2 if text[i] == "\\" else 1)
    depth = 0
    j = i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(text)


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _skip_optional(text: str, i: int) -> int:
    i = _skip_ws(text, i)
    if i < len(text) and text[i] == "[":
        end = text.find("]", i)
        return len(text) if end < 0 else _skip_ws(text, end + 1)
    return i


def paper_title(source: str) -> Optional[str]:
    """The argument of the first uncommented ``\\title`` in *source* (a main file), raw."""
    text = "\n".join(uncomment(line) for line in source.splitlines())
    end_preamble = text.find("\\begin{document}")
    for m in _TITLE_RE.finditer(text):
        if 0 <= end_preamble < m.start() and text.find("\\maketitle") < m.start():
            continue
        i = _skip_optional(text, m.end())  # \title[short]{long}: the long one
        if i >= len(text) or text[i] != "{":
            continue
        j = _group(text, i)
        arg = text[i + 1:j - 1]
        if "#" in arg:  # a definition, not a title
            continue
        return arg
    return None


def _drop_commands(text: str) -> str:
    """*text* without ``\\thanks{...}``, footnotes and the like (with their arguments)."""
    out: List[str] = []
    i = 0
    while i < len(text):
        m = _CMD_RE.match(text, i) if text[i] == "\\" else None
        if m is not None and m.group(1) in _DROPPED:
            j = _skip_optional(text, m.end())
            if m.group(1) == "texorpdfstring":  # \texorpdfstring{TeX}{PDF}: keep the TeX
                k = _group(text, j)
                out.append(text[j + 1:k - 1] if text[j:j + 1] == "{" else text[j:k])
                j = _group(text, _skip_ws(text, k))
            elif m.group(1) != "footnotemark":
                j = _group(text, j)
            i = j
            continue
        if m is not None:
            out.append(m.group(0))
            i = m.end()
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def collapse(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def as_typed(raw: str) -> str:
    """The title as it would be typed on arXiv: TeX kept, line breaks and notes dropped."""
    return collapse(_BREAK_RE.sub(" ", _drop_commands(raw)))


def _plain_command(m: "re.Match[str]") -> str:
    """A command as text: a name or an accent is nothing, ``\\&`` is ``&``, ``\\ `` a space."""
    c = m.group(2)
    if c is None or c in "'`^\"~=.-":
        return ""
    return " " if c.isspace() else c


def plain(title: str) -> str:
    """*title* as text to compare: commands, braces, ``$`` and ``~`` gone; case folded."""
    text = _BREAK_RE.sub(" ", _drop_commands(title)).replace("~", " ")
    text = _CMD_RE.sub(_plain_command, text)
    text = re.sub(r"[{}$]", "", text)
    return collapse(text).casefold()


def canon_sha256(title: str) -> str:
    """``title_canon_sha256`` of a title as typed on arXiv."""
    return hashlib.sha256(collapse(title).lower().encode("utf-8")).hexdigest()


def title_matches(raw: str, canon_hex: Optional[str], record_title: Optional[str]) -> bool:
    if canon_hex is not None and canon_sha256(as_typed(raw)) == canon_hex:
        return True
    return record_title is not None and plain(raw) == plain(record_title)


def shown(title: str) -> str:
    """A title quoted for a message as the author would read it: one backslash per TeX
    command and letters of any script kept (not ``\\\\emph`` and ``\\xf6``), terminal
    controls still escaped."""
    return "'%s'" % printable(collapse(title), 120)


def title_check(raw: Optional[str], canon_hex: Optional[str], record_title: Optional[str],
                main_name: str) -> Check:
    """The ``title`` line: is the record (its title, its ``title_canon_sha256``) this
    paper's (its raw ``\\title`` argument, None when it has none)?"""
    theirs = "" if record_title is None else " %s" % shown(record_title)
    if raw is None:
        return Check("title", WARN, "%s has no \\title{...} to compare with the record's "
                     "title%s: make sure the number is this paper's" % (main_name, theirs))
    if title_matches(raw, canon_hex, record_title):
        return Check("title", OK, "the record's title%s is the paper's \\title" % (
            theirs or " (by its hash)"))
    if record_title is None:
        return Check("title", WARN, "the paper's \\title %s does not hash to the record's "
                     "title_canon_sha256: is this number for another paper? (formatting in "
                     "the \\title can cause this too)" % shown(as_typed(raw)))
    return Check("title", WARN, "the record is for%s but the paper's \\title is %s: is "
                 "this number for another paper?" % (theirs, shown(as_typed(raw))))
