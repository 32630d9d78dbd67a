"""Where is the paper's title?  The main file arXiv compiles, and the ``\\title`` in it.

The main file is :func:`pith_tex.check.mainfile.find_main`'s (arXiv's rule).

:func:`find_title` reads the main file with the files it ``\\input``\\s and
``\\include``\\s (in the paper's directory, at most :data:`MAX_FILES` files) and returns the
first title command's argument: ``\\title`` (before or after ``\\begin{document}``;
``\\title[short]{long}`` gives the long one), and the venue macros of the real templates
(``\\icmltitle``, MDPI's ``\\Title``, Taylor & Francis' ``\\articletitle``).  A paper
without one (PLOS, bioRxiv and home-made title pages) is read in the forms templates
use: a title macro the source defines and typesets (``\\newcommand{\\Title}{...}``,
``\\def\\papertitle{...}``), else the text set in ``\\Large`` or larger in the
document's front matter (``{\\Large\\textbf\\newline{...}}`` in a ``flushleft`` block).
Argumentless macros the source defines (``\\newcommand{\\datanet}{DataNet}``, ``\\def``)
are expanded in it.  Everything here reads text: nothing is executed.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, List, NamedTuple, Optional, Set, Tuple

from ..include.discover import uncomment
from ..include.sty import kpsewhich
from ..safeio import read_tex
from .compare import _skip_optional, group_end

#: fetch's words when the source has no title in a form read here (the main file's name).
NOT_FOUND = ("no title found in %s or the files it inputs (read: \\title, \\icmltitle, "
             "\\Title, \\articletitle, \\papertitle, a title macro the document "
             "typesets, text set in \\Large or larger before the first section)")
MAX_FILES = 64  # files read through \input and \include
MAX_TEXT = 4 * 1024 * 1024  # characters read in all

#: The commands that set a paper's title, in the templates' spelling.
TITLE_COMMANDS = ("title", "icmltitle", "Title", "articletitle", "papertitle")
_TITLE_RE = re.compile(r"\\(%s)(?![A-Za-z@])\s*" % "|".join(TITLE_COMMANDS))
INPUT_RE = re.compile(r"\\(?:input|include|subfile)\s*\{([^{}\n]+)\}|\\input\s+([^\s{}\\]+)")
DOCCLASS_RE = re.compile(r"\\documentclass(?![A-Za-z@])\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
BEGIN_DOC_RE = re.compile(r"\\begin\s*\{document\}")
_DEF_RE = re.compile(r"\\(?:(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)"
                     r"\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?"
                     r"|[gex]?def\s*\\([A-Za-z@]+))\s*(?=\{)")


#: How a text file is read: :func:`pith_tex.safeio.read_tex`, or a reader that keeps
#: what it read (:meth:`pith_tex.sourcetree.SourceTree.text`).
Reader = Callable[[str], str]


def source_text(path: str, read: Reader = read_tex) -> str:
    """The text of the file *path* without its comments."""
    return "\n".join(uncomment(line) for line in read(path).splitlines())


def resolve_input(directory: str, name: str) -> Optional[str]:
    name = name.strip()
    for candidate in (name, name + ".tex"):
        path = os.path.normpath(os.path.join(directory, candidate))
        if not path.startswith(os.path.abspath(directory) + os.sep) and not path.startswith(
                directory + os.sep):
            # only files inside the paper's directory are the paper
            if os.path.isabs(candidate) or candidate.startswith(".."):
                return None
        if os.path.isfile(path):
            return path
    return None


class Source(NamedTuple):
    text: str  # the main file with its \input and \include files in place
    files: List[str]  # the files read, main first
    missing: Tuple[str, ...] = ()  # the names \input or \include gave that are not there


def expanded_source(directory: str, main_name: str, read_file: Reader = read_tex) -> Source:
    """The main file's text with ``\\input``/``\\include`` files put in their place
    (each file once, :data:`MAX_FILES` files and :data:`MAX_TEXT` characters at most)."""
    seen: Set[str] = set()
    files: List[str] = []
    missing: List[str] = []
    budget = [MAX_TEXT]

    def read(path: str) -> str:
        real = os.path.realpath(path)
        if real in seen or len(seen) >= MAX_FILES or budget[0] <= 0:
            return ""
        seen.add(real)
        files.append(os.path.relpath(path, directory))
        try:
            text = source_text(path, read_file)[:budget[0]]
        except OSError:
            return ""
        budget[0] -= len(text)
        out: List[str] = []
        last = 0
        for m in INPUT_RE.finditer(text):
            target = resolve_input(directory, m.group(1) or m.group(2))
            out.append(text[last:m.end()])
            last = m.end()
            if target is not None:
                out.append("\n" + read(target) + "\n")
            elif (m.group(1) or m.group(2)).strip() not in missing:
                missing.append((m.group(1) or m.group(2)).strip())
        out.append(text[last:])
        return "".join(out)

    text = read(os.path.join(directory, main_name))
    return Source(text, files, tuple(missing))


def inputs_missing(directory: str, main_name: str, read_file: Reader = read_tex
                   ) -> Tuple[str, ...]:
    """The files *main_name* (and what it inputs) names in ``\\input``/``\\include`` that
    are not in *directory*: the main file copied alone (as Overleaf's authors may), whose
    title is likely in one of them.  A file TeX finds itself (``\\input glyphtounicode``)
    is not missing."""
    return tuple(n for n in expanded_source(directory, main_name, read_file).missing
                 if kpsewhich(n, "/") is None and kpsewhich(n + ".tex", "/") is None)


def macros_defined(text: str) -> Dict[str, str]:
    """The argumentless macros *text* defines, name to body (the first definition)."""
    found: Dict[str, str] = {}
    for m in _DEF_RE.finditer(text):
        name = m.group(1) or m.group(2)
        start = m.end()
        end = group_end(text, start)
        body = text[start + 1:end - 1]
        if "#" in body or name in found or len(body) > 400:
            continue
        found[name] = body
    return found


def expand(title: str, macros: Dict[str, str]) -> str:
    """*title* with the source's own argumentless macros replaced by their bodies."""
    def sub(m: "re.Match[str]") -> str:
        body = macros.get(m.group(1))
        if body is None:
            return m.group(0)
        # braces only where the body's last command would run into a letter
        return "{%s}" % body if re.search(r"\\[A-Za-z@]+\s*$", body) else body

    for _ in range(8):  # macros that use macros, a few levels deep
        # a pass that changes nothing would change nothing again: stop there
        expanded = re.sub(r"\\([A-Za-z@]+)(?![A-Za-z@])(?:\{\})?", sub, title)
        unchanged, title = expanded == title, expanded
        if unchanged or len(title) > 4000:
            break
    return title


def title_in(text: str) -> Optional[str]:
    """The argument of the first title command in *text* that is not a definition."""
    found = _title_command(text)
    return None if found is None else found[1]


def _title_command(text: str) -> Optional[Tuple[str, str]]:
    """The first title command in *text* that is not a definition: its name and
    argument."""
    for m in _TITLE_RE.finditer(text):
        i = _skip_optional(text, m.end())  # \title[short]{long}: the long one
        if i >= len(text) or text[i] != "{":
            continue
        j = group_end(text, i)
        arg = text[i + 1:j - 1]
        if "#" in arg:  # a definition, not a title
            continue
        if not arg.strip():
            continue
        return m.group(1), arg
    return None


#: The names of argumentless macros that hold a paper's title (``\\Title``,
#: ``\\papertitle``, ``\\mytitle``), not a running head's (``\\shorttitle``).
_TITLE_MACRO_RE = re.compile(r"(?i)(?:the|my|paper|doc|article|full|main|long)?title\Z")
#: The sizes a title is set in (a template's own title block); smaller text is not one.
_SIZE_RE = re.compile(r"\\(?:LARGE|Large|huge|Huge)(?![A-Za-z@])\s*")
#: Where the front matter ends: the first section or the abstract.
_FRONT_END_RE = re.compile(r"\\(?:section|abstract)(?![A-Za-z@])|\\begin\s*\{abstract\}")
#: Where a title set without braces ends (``\\begin{center}\\LARGE Title\\\\ ...``).
_LINE_END_RE = re.compile(r"\\\\|\\par(?![A-Za-z@])|\n\s*\n|\\end\s*\{|\\begin\s*\{|\}")
MAX_FRONT = 20000  # characters of the document read for its front matter
MAX_BLOCKS = 6  # titles set in a block, at most


def _body(text: str) -> str:
    """The document's front matter: from ``\\begin{document}`` to its first section or
    abstract."""
    m = BEGIN_DOC_RE.search(text)
    if m is None:
        return ""
    body = text[m.end():m.end() + MAX_FRONT]
    end = _FRONT_END_RE.search(body)
    return body if end is None else body[:end.start()]


def _title_macro(text: str, macros: Dict[str, str]) -> Optional[Tuple[str, str]]:
    """A title macro the source defines and its front matter uses: name and body."""
    body = _body(text)
    for name, value in macros.items():
        if _TITLE_MACRO_RE.match(name) and value.strip() and re.search(
                r"\\%s(?![A-Za-z@])" % re.escape(name), body):
            return name, value
    return None


def _set_large(text: str) -> List[str]:
    """The texts the front matter sets in ``\\Large`` or larger, in order: a brace
    group's rest after the size (``{\\Large\\textbf{Title}}``), else up to the line's
    end (``\\LARGE Title\\\\``), each up to its first paragraph break."""
    body = _body(text)
    found: List[str] = []
    for m in _SIZE_RE.finditer(body):
        before = body[:m.start()].rstrip()
        if before.endswith("{"):
            end = group_end(body, len(before) - 1) - 1
        else:
            stop = _LINE_END_RE.search(body, m.end())
            end = len(body) if stop is None else stop.start()
        raw = re.split(r"\\par(?![A-Za-z@])|\n\s*\n", body[m.end():end])[0].strip()
        if sum(c.isalnum() for c in raw) >= 4 and raw not in found:
            found.append(raw)
        if len(found) >= MAX_BLOCKS:
            break
    return found


class Found(NamedTuple):
    raw: str  # the title as typed (its own macros expanded)
    file: str  # the file it is in, relative to the paper's directory
    what: str = "\\title"  # the form it was found in, for the message
    #: other texts that may be the title (a form read by its typesetting: each is
    #: compared when the first is not the record's title)
    others: Tuple[str, ...] = ()


def _file_of(directory: str, src: Source, raw: str, default: str, read: Reader) -> str:
    for name in src.files:
        try:
            if raw in source_text(os.path.join(directory, name), read):
                return name
        except OSError:
            continue
    return default


def has_document(directory: str, main_name: str, read: Reader = read_tex) -> bool:
    """Does the main file (with its inputs) have a ``\\begin{document}``, so that a title
    would be found in it?  (A preamble alone typesets nothing.)"""
    return BEGIN_DOC_RE.search(expanded_source(directory, main_name, read).text) is not None


def find_title(directory: str, main_name: str, read: Reader = read_tex) -> Optional[Found]:
    """The paper's title as typed, or None when the source has none in a form read here
    (see the module's docstring)."""
    src = expanded_source(directory, main_name, read)
    macros = macros_defined(src.text)
    command = _title_command(src.text)
    if command is not None:
        name, raw = command
        return Found(expand(raw, macros), _file_of(directory, src, raw, main_name, read),
                     "\\" + name)
    macro = _title_macro(src.text, macros)
    if macro is not None:
        name, raw = macro
        return Found(expand(raw, macros), _file_of(directory, src, raw, main_name, read),
                     "\\%s (a title macro it typesets)" % name)
    typed = _set_large(src.text)
    if not typed:
        return None
    return Found(expand(typed[0], macros), _file_of(directory, src, typed[0], main_name, read),
                 "title block (text set in \\Large or larger before the first section)",
                 tuple(expand(b, macros) for b in typed[1:]))
