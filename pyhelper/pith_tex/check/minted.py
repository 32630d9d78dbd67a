"""minted's frozen cache: minted's own route to arXiv, where shell escape is off.

With the package option ``frozencache`` minted runs nothing: it reads each listing from
the cache the author made on their machine with shell escape (minted 2: ``finalizecache``
names them ``listing1.pygtex``, ``listing2.pygtex``... in the order of the document, in
``_minted-JOBNAME/``; minted 3: ``_minted/``), and the cache is uploaded with the paper.
It breaks on arXiv only when the cache is not in the upload, or is stale: a listing of
the document has no cache file (one added after ``finalizecache``), which stops minted
with "Missing Pygments output".
"""

from __future__ import annotations

import os
import re
from typing import Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

from ..checks import Check, FAIL, OK
from ..sourcetree import SourceTree
from ..title.source import INPUT_RE, resolve_input
from .texsource import shown_name, strip_comments

#: Files read through \input, at most (a loop of inputs ends there too).
MAX_FILES = 64

#: minted's own commands that each typeset one listing (one cache file).
_LISTING_RE = r"\\begin\s*\{minted\}|\\(?:mint|mintinline|inputminted)(?![A-Za-z@])"
#: ``\newminted[ENV]{lang}``, ``\newmint[CMD]{lang}``, ``\newmintinline``, ``\newmintedfile``.
_NEW_RE = re.compile(r"\\(newminted|newmint|newmintinline|newmintedfile)\s*"
                     r"(?:\[\s*([A-Za-z@]+)\s*\])?\s*\{\s*([A-Za-z0-9@+#-]+)\s*\}")
_PACKAGE_RE = re.compile(r"\\(?:usepackage|RequirePackage)\s*(?:\[([^\]]*)\]\s*)?\{([^{}]*)\}")
_PASS_RE = re.compile(r"\\PassOptionsToPackage\s*\{([^{}]*)\}\s*\{\s*minted\s*\}")
_V2_FILE_RE = re.compile(r"^listing(\d+)\.pygtex$")


def _options(text: str) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for o in text.split(","):
        k, _, v = o.partition("=")
        if k.strip():
            out[k.strip()] = v.strip().strip("{}").strip() or "true"
    return out


def minted_options(options: str, lines: List[str]) -> Dict[str, str]:
    """minted's package options: *options* (of its ``\\usepackage``) and those a
    ``\\PassOptionsToPackage{...}{minted}`` in *lines* gives it."""
    given: Dict[str, str] = {}
    for m in _PASS_RE.finditer("\n".join(lines)):
        given.update(_options(m.group(1)))
    given.update(_options(options))
    return given


def frozen_minted(options: str, lines: List[str]) -> bool:
    """minted loaded so that it runs nothing: ``frozencache`` (it reads the cache the
    author made with shell escape and uploads, minted's own route for arXiv) or
    ``draft`` (plain verbatim)."""
    given = minted_options(options, lines)
    return any(given.get(k, "false") == "true" for k in ("frozencache", "draft"))


class Listing(NamedTuple):
    where: str  # file:line, relative to the paper's directory
    what: str  # the command as written


def _lines(tree: SourceTree, name: str, seen: Set[str]) -> Iterator[Tuple[str, int, str]]:
    """(file, line number, line) of *name* with its \\input files in their place."""
    directory = tree.directory
    path = os.path.join(directory, name)
    real = os.path.realpath(path)
    if real in seen or len(seen) >= MAX_FILES:
        return
    seen.add(real)
    try:
        lines = strip_comments(tree.text(path))
    except OSError:
        return
    rel = shown_name(os.path.relpath(path, directory))
    for i, line in enumerate(lines, 1):
        last = 0
        for m in INPUT_RE.finditer(line):
            yield rel, i, line[last:m.end()]
            last = m.end()
            target = resolve_input(directory, m.group(1) or m.group(2))
            if target is not None:
                yield from _lines(tree, os.path.relpath(target, directory), seen)
        yield rel, i, line[last:]


def listings(directory: str, main: str, tree: Optional[SourceTree] = None) -> List[Listing]:
    """minted's listings of the document, in the order minted typesets them (*tree*:
    the paper's directory as check read it)."""
    parts = list(_lines(tree or SourceTree(directory), main, set()))
    text = "\n".join(p[2] for p in parts)
    envs, cmds = ["minted"], ["mint", "mintinline", "inputminted"]
    for m in _NEW_RE.finditer(text):
        kind, name, lang = m.group(1), m.group(2), m.group(3)
        if kind == "newminted":
            envs.append(name or lang + "code")
        else:
            cmds.append(name or lang + {"newmint": "", "newmintinline": "inline",
                                        "newmintedfile": "file"}[kind])
    rx = re.compile(r"\\begin\s*\{(%s)\*?\}|\\(%s)(?![A-Za-z@*])" % (
        "|".join(map(re.escape, envs)), "|".join(map(re.escape, cmds))))
    found: List[Listing] = []
    for rel, i, piece in parts:
        for m in rx.finditer(piece):
            found.append(Listing("%s:%d" % (rel, i), m.group(0)))
    return found


def _minted_loaded(tree: SourceTree, main: str) -> Optional[str]:
    """The options minted is loaded with in the document (None: it is not loaded)."""
    lines = [p[2] for p in _lines(tree, main, set())]
    for line in lines:
        for m in _PACKAGE_RE.finditer(line):
            if "minted" in (p.strip() for p in m.group(2).split(",")):
                return m.group(1) or ""
    return None


def _v2_cachedir(main: str) -> str:
    """minted 2's cache directory for the job *main* (its jobname as minted cleans it)."""
    job = os.path.splitext(main)[0]
    return "_minted-" + job.replace(" ", "_").replace("*", "_").replace('"', "").replace(
        "'", "_")


def check_frozen_cache(directory: str, main: str,
                       tree: Optional[SourceTree] = None) -> Optional[Check]:
    """The ``shell-escape`` line for a paper whose minted reads a frozen cache (None: its
    minted is not loaded with ``frozencache``)."""
    tree = tree or SourceTree(directory)
    options = _minted_loaded(tree, main)
    if options is None:
        return None
    lines = [p[2] for p in _lines(tree, main, set())]
    given = minted_options(options, lines)
    if given.get("frozencache", "false") != "true":
        return None
    outdir = given.get("outputdir", "")
    named = given.get("cachedir")
    names = [named] if named else [_v2_cachedir(main), "_minted"]
    dirs = [n for n in names if os.path.isdir(os.path.join(directory, outdir, n))]
    way = ("compile once with shell escape and minted's finalizecache option (minted 2; "
           "minted 3 fills it in any compile with shell escape), then upload %s/ with the "
           "paper" % os.path.join(outdir, names[0]))
    if not dirs:
        return Check("shell-escape", FAIL, "minted's frozencache reads each listing from its "
                     "cache %s/, which is not in the paper's directory, so the compile on "
                     "arXiv stops at the first listing: %s" % (os.path.join(
                         outdir, names[0]), way))
    cache = os.path.join(outdir, dirs[0])
    files = tree.listdir(os.path.join(directory, cache))
    found = listings(directory, main, tree)
    numbered = {int(m.group(1)) for m in map(_V2_FILE_RE.match, files) if m}
    if numbered or not any(f.endswith(".minted") for f in files):  # minted 2's layout
        for n, listing in enumerate(found, 1):
            if n not in numbered:
                return Check("shell-escape", FAIL, "minted's frozen cache %s/ is stale: "
                             "%s %s is listing %d, and %s/listing%d.pygtex is not there "
                             "(minted stops with 'Missing Pygments output' on arXiv): %s"
                             % (cache, listing.where, listing.what, n, cache, n, way))
        if found and not any(f.endswith(".pygstyle") for f in files):
            return Check("shell-escape", FAIL, "minted's frozen cache %s/ has no .pygstyle "
                         "file, the colours of its listings (minted stops with 'Missing "
                         "style definition' on arXiv): %s" % (cache, way))
    return Check("shell-escape", OK, "nothing needs shell escape: minted reads its frozen "
                 "cache %s/ (frozencache, %d listing%s), which is in the paper's directory"
                 % (cache, len(found), "" if len(found) == 1 else "s"))
