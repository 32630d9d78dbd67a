"""The reduced document ``check`` converts with LaTeXML by default: the paper's preamble,
its title block and abstract, and nothing after them.

Why: LaTeXML takes 10-40x an author's pdflatex run on a whole paper (87-91 % of
``check``'s time on real papers, minutes on long ones), while pith's part of arXiv's
HTML view is decided by the preamble (the class, its options, the venue's review
switches, pith's options, the include) and the title block (where the badge goes).  So
the reduced document keeps:

* the preamble, with the packages that draw or typeset body material and cannot touch
  the title block or pith (:data:`HEAVY`: TikZ, pgfplots, siunitx, listings, ...) and
  their set-up commands taken out: loading TikZ alone costs LaTeXML about 10 s;
* ``\\begin{document}`` up to the end of the title block: the last of the first
  ``\\maketitle``, ``\\end{abstract}``, ``\\end{frontmatter}``, ``\\end{titlepage}``
  (titling's ``titlingpage`` too);
* ``\\end{document}``, which also places a corner badge (pith's LaTeXML path puts it at
  the end of the page).

When the title block cannot be told (none of those markers in the main file, or a cut
inside a group) the whole paper is converted.  ``check --html full`` always converts
the whole paper.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ..include.discover import uncomment
from ..title.compare import group_end

#: Packages left out of the reduced document's preamble: drawing, plots, units, code
#: listings, algorithms, tables, floats, fonts, page layout, mathematics symbols.  None
#: can change the title block's badge or pith's decisions (the class, the venue's
#: style, hyperref and pith itself stay); each costs LaTeXML time (TikZ alone ~10 s).
HEAVY = frozenset((
    "tikz", "pgf", "pgfplots", "pgfplotstable", "tikz-cd", "tikzscale", "circuitikz",
    "forest", "pgfgantt", "smartdiagram", "tikz-network", "tkz-euclide", "pgfornament",
    "siunitx", "lipsum", "blindtext", "listings", "algorithm2e", "tcolorbox", "chemfig",
    "tikzpeople", "pgf-pie", "pgf-umlsd", "bchart", "dirtree",
    "algorithm", "algorithmic", "algpseudocode", "algorithmicx", "booktabs", "multirow",
    "tabularx", "longtable", "array", "colortbl", "makecell", "threeparttable",
    "subcaption", "subfig", "caption", "float", "wrapfig", "placeins", "graphicx",
    "epstopdf", "geometry", "fontenc", "inputenc", "lmodern", "times", "mathptmx",
    "newtxtext", "newtxmath", "mathpazo", "palatino", "helvet", "courier", "microtype",
    "amssymb", "amsfonts", "bm", "bbm", "dsfont", "mathrsfs", "nicefrac", "xfrac",
    "enumitem", "cleveref", "pifont", "wasysym", "textcomp", "upgreek",
))
#: Their set-up commands, taken out with their arguments.
_SETUP = ("usetikzlibrary", "tikzset", "tikzstyle", "pgfplotsset", "usepgfplotslibrary",
          "usepgflibrary", "pgfdeclarelayer", "pgfsetlayers", "sisetup", "DeclareSIUnit",
          "lstset", "lstdefinestyle", "lstdefinelanguage", "lstnewenvironment",
          "tcbuselibrary", "tcbset", "newtcolorbox", "newtcbox", "DeclareTColorBox",
          "SetKwInOut", "SetKwInput", "SetKw", "SetKwFunction", "SetAlgoLined",
          "SetKwProg", "DontPrintSemicolon", "SetAlFnt", "SetAlCapFnt")

_PACKAGE_RE = re.compile(r"\\usepackage\s*(\[[^\]]*\])?\s*\{([^{}]*)\}")
_SETUP_RE = re.compile(r"\\(%s)(?![A-Za-z@])\*?" % "|".join(_SETUP))
_BEGIN_RE = re.compile(r"\\begin\s*\{document\}")
_ENDS = (re.compile(r"\\maketitle(?![A-Za-z@])"), re.compile(r"\\end\s*\{abstract\}"),
         re.compile(r"\\end\s*\{frontmatter\}"), re.compile(r"\\end\s*\{titl(?:e|ing)page\}"))


def _skip_args(text: str, i: int) -> int:
    """The position after the optional and brace arguments that start at *i*."""
    n = len(text)
    while True:
        j = i
        while j < n and text[j] in " \t\n":
            j += 1
        if j < n and text[j] == "[":
            close = text.find("]", j)
            if close < 0:
                return n
            i = close + 1
        elif j < n and text[j] == "{":
            i = group_end(text, j)
        else:
            return i


def _balanced(text: str) -> bool:
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        depth += c == "{"
        depth -= c == "}"
        if depth < 0:
            return False
        i += 1
    return depth == 0


def _lighter(preamble: str) -> Tuple[str, List[str]]:
    """*preamble* without :data:`HEAVY` packages and their set-up; what was left out."""
    dropped: List[str] = []

    def package(m: "re.Match[str]") -> str:
        names = [p.strip() for p in m.group(2).split(",")]
        keep = [p for p in names if p not in HEAVY]
        dropped.extend(p for p in names if p in HEAVY)
        if not keep:
            return ""
        return "\\usepackage%s{%s}" % (m.group(1) or "", ",".join(keep))

    out = _PACKAGE_RE.sub(package, preamble)
    while True:
        m = _SETUP_RE.search(out)
        if m is None:
            break
        out = out[:m.start()] + out[_skip_args(out, m.end()):]
    return out, dropped


def reduce(text: str) -> Optional[Tuple[str, List[str]]]:
    """The reduced document of the main file's *text* and the packages left out of it,
    or None when the title block cannot be told (then the whole paper is converted)."""
    plain = "\n".join(uncomment(line) for line in text.splitlines())
    begin = _BEGIN_RE.search(plain)
    if begin is None:
        return None
    body = plain[begin.end():]
    ends = [m.end() for m in (rx.search(body) for rx in _ENDS) if m is not None]
    if not ends:
        return None
    block = body[:max(ends)]
    if not _balanced(block):
        return None
    preamble, dropped = _lighter(plain[:begin.start()])
    return preamble + "\\begin{document}" + block + "\n\\end{document}\n", dropped
