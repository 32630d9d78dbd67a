"""Is this Pith Number for this paper?  One comparison of a paper's title with the
record's, used by ``fetch``, ``check`` and ``verify`` (docs/verification.md, "The title").

The record carries ``title_canon_sha256 = sha256(lower(title))``, the title as typed on
arXiv with its TeX left in and whitespace collapsed (pith-spec section 2); the resolver's
JSON (``paper.title``) and a PDF made by pith.sty (``PithTitle``) carry that title as
text.  The paper's side is its ``\\title`` as typed (``fetch``, from the source) or the
title page 1 shows (``check`` and ``verify``, from the PDF).  :func:`compare` classifies:

``same``
    the paper's title, without what never reaches arXiv's title field (``\\thanks``,
    line breaks), hashes to ``title_canon_sha256`` (the strongest answer); or both titles
    are equal once normalised (:func:`normalise`: TeX accents and symbols as the letters
    they make, font commands, braces and math shifts dropped, dashes and quotes of every
    kind as one, case folded, whitespace collapsed);
``formatting``
    same up to formatting: the same letters and digits in the same order, differing only
    in punctuation, spacing or hyphenation (``SciPy 1.0---Fundamental`` and ``SciPy 1.0:
    Fundamental``), or in an author's macro that stands for a word of the record's title
    (``\\datanet`` for ``DataNet``); :attr:`Comparison.differences` says which;
``different``
    anything else: another paper's title (or a title changed since the record);
``unknown``
    the record's title text is not at hand and the hash does not match, so nothing can
    be said beyond "not the same bytes".
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import List, NamedTuple, Optional, Tuple

from ..checks import Check, FAIL, OK, WARN, Status
from ..errors import printable
from ..record.canonical import canon_sha256 as canon_sha256  # the title's hash in the record

SAME = "same"
FORMATTING = "formatting"
DIFFERENT = "different"
UNKNOWN = "unknown"

#: Commands whose argument is not part of the title arXiv shows (of those in _FIRST_OF,
#: the arguments after the first).
_DROPPED = ("thanks", "footnote", "footnotetext", "tnoteref", "fnref", "thanksref",
            "titlenote", "footnotemark", "texorpdfstring", "label", "tmark", "fnmark",
            "protect", "orcidlink", "inst", "IEEEauthorrefmark", "icmlsetsymbol",
            "comment", "deleted", "added", "replaced", "highlight")
_NO_ARGUMENT = ("footnotemark", "protect")
#: Commands that stand for their first argument (after an optional ``[...]``): the TeX of
#: ``\texorpdfstring``, the new text of the changes package's revision marks (a title in
#: a revision: ``\replaced[id=R1]{new}{old}`` prints *new* in the final version), whose
#: ``\comment`` and ``\deleted`` are dropped whole.  The number: arguments read.
_FIRST_OF = {"texorpdfstring": 2, "replaced": 2, "added": 1, "highlight": 1}
_BREAK_RE = re.compile(r"\\\\\*?(?:\s*\[[^\]]*\])?|\\(?:newline|linebreak|break|par)"
                       r"(?![A-Za-z])(?:\s*\[[^\]]*\])?")
_CMD_RE = re.compile(r"\\([A-Za-z@]+)\s*|\\(.)", re.S)
_WS_RE = re.compile(r"\s+")

# ---------------------------------------------------------------- TeX as text

#: Accent commands and the combining character each puts on its letter.
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
            "c": "\u0327", "d": "\u0323", "b": "\u0331", "k": "\u0328", "r": "\u030a"}
_ACCENT_RE = re.compile(
    r"\\(?:([`'^\"~=.])|([uvHcdbkr])(?![A-Za-z]))\s*"
    r"(?:\{\s*(\\[A-Za-z]+|[^{}\\\s])?\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))")

#: Commands that make a letter or a symbol: the character.
_LETTERS = {
    "ss": "\u00df", "o": "\u00f8", "O": "\u00d8", "aa": "\u00e5", "AA": "\u00c5",
    "ae": "\u00e6", "AE": "\u00c6", "oe": "\u0153", "OE": "\u0152", "l": "\u0142",
    "L": "\u0141", "i": "i", "j": "j", "dh": "\u00f0", "DH": "\u00d0", "th": "\u00fe",
    "TH": "\u00de", "ng": "\u014b", "NG": "\u014a",
    "textendash": "-", "textemdash": "-", "ldots": "...", "dots": "...",
    "textellipsis": "...", "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX", "textquoteleft": "'", "textquoteright": "'",
    "textquotedblleft": '"', "textquotedblright": '"', "textasciitilde": "~",
    "textbackslash": "\\", "textbar": "|", "textless": "<", "textgreater": ">",
    "times": "\u00d7", "cdot": "\u00b7", "pm": "\u00b1", "infty": "\u221e",
    "to": "\u2192", "rightarrow": "\u2192", "leftarrow": "\u2190", "ell": "\u2113",
    "hbar": "\u210f", "partial": "\u2202", "nabla": "\u2207", "le": "\u2264",
    "leq": "\u2264", "ge": "\u2265", "geq": "\u2265", "neq": "\u2260", "sim": "~",
    "approx": "\u2248", "in": "\u2208", "circ": "\u2218", "star": "\u22c6",
    "copyright": "\u00a9", "textregistered": "\u00ae", "texttrademark": "\u2122",
    "S": "\u00a7", "P": "\u00b6", "dag": "\u2020", "ddag": "\u2021", "euro": "\u20ac",
    "pounds": "\u00a3", "textdegree": "\u00b0", "degree": "\u00b0",
}
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
          "omicron pi rho sigma tau upsilon phi chi psi omega").split()
for _k, _name in enumerate(_GREEK):
    _LETTERS[_name] = chr(0x3B1 + _k + (1 if _k >= 17 else 0))  # no final sigma
    _LETTERS[_name.capitalize()] = chr(0x391 + _k + (1 if _k >= 17 else 0))
_LETTERS.update({"varepsilon": "\u03b5", "vartheta": "\u03d1", "varphi": "\u03c6",
                 "varpi": "\u03d6", "varrho": "\u03f1", "varsigma": "\u03c2"})

#: Spacing commands: a space.
_SPACES = ("quad", "qquad", "enspace", "thinspace", "space", "hspace", "hfill",
           "nobreakspace")

#: Commands that only format their argument (or what follows): dropped, the text kept.
#: Any other command left in a title is an author's macro: see :func:`compare`.
FORMATTING_COMMANDS = frozenset((
    "textbf textit textsl textsc textup textmd textrm textsf texttt textnormal emph "
    "mathbf mathit mathrm mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm "
    "mbox hbox text textrm operatorname bf it sl sc rm sf tt em normalfont bfseries "
    "itshape slshape scshape upshape mdseries rmfamily sffamily ttfamily tiny scriptsize "
    "footnotesize small normalsize large Large LARGE huge Huge uppercase lowercase "
    "MakeUppercase MakeLowercase MakeTextUppercase MakeTextLowercase textsuperscript "
    "textsubscript ensuremath mathversion boldmath unboldmath centering raggedright "
    "raggedleft noindent relax color textcolor underline uline sout url nolinkurl "
    "href hyperref left right big Big bigg Bigg displaystyle textstyle scriptstyle "
    "mathop mathrel mathbin mathord mathnormal xspace kern hskip vspace ignorespaces "
    "unskip null strut leavevmode allowbreak nobreak mathstrut smash phantom "
    "hphantom vphantom @".split()))
#: Commands whose first argument is not text (a colour, a URL of \href, a length).
_SKIP_FIRST = {"textcolor": 1, "color": 1, "href": 1, "hspace": 1, "vspace": 1,
               "kern": 0, "hskip": 0, "fontsize": 2, "phantom": 1, "hphantom": 1,
               "vphantom": 1, "mathversion": 1}

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_RE = re.compile("[%s]|-{2,3}" % _DASHES)
#: Small capital letters (IPA's and phonetic extensions' forms, which some fonts map their
#: small capitals to): NFKC leaves them, a reader reads the letter.
_SMALL_CAPITALS = str.maketrans(dict(zip(
    "\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f"
    "\u1d0d\u0274\u1d0f\u1d18\ua7af\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21\u028f"
    "\u1d22", "abcdefghijklmnopqrstuvwyz", strict=False)))
_QUOTE_TRANS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
                              "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
                              "\u00bb": '"', "`": "'", "\u00a0": " "})


def _closing(text: str, i: int, close: str) -> int:
    """The index of the first *close* (``}`` or ``]``) from *i* that is outside every
    ``{...}`` group begun after *i* (escaped characters skipped); ``len(text)`` if none."""
    depth = 0
    j = i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == close and depth <= 0:
            return j
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        j += 1
    return len(text)


def group_end(text: str, i: int) -> int:
    """The index after the balanced ``{...}`` group opening at ``text[i]`` (or after the
    single token there); ``len(text)`` when unbalanced."""
    if i >= len(text):
        return i
    if text[i] != "{":
        if text[i] == "\\":
            m = _CMD_RE.match(text, i)
            return m.end() if m else i + 1
        return i + 1
    return min(_closing(text, i + 1, "}") + 1, len(text))


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _skip_optional(text: str, i: int) -> int:
    """After an optional ``[...]`` at *i* (brackets inside braces kept together)."""
    i = _skip_ws(text, i)
    if i < len(text) and text[i] == "[":
        j = _closing(text, i + 1, "]")
        return _skip_ws(text, j + 1) if j < len(text) else len(text)
    return i


def _drop_commands(text: str) -> str:
    """*text* without ``\\thanks{...}``, footnotes and the like (with their arguments);
    ``\\texorpdfstring{TeX}{PDF}`` keeps its TeX, ``\\replaced{new}{old}`` its new text."""
    out: List[str] = []
    i = 0
    while i < len(text):
        m = _CMD_RE.match(text, i) if text[i] == "\\" else None
        if m is not None and m.group(1) in _DROPPED:
            j = _skip_optional(text, m.end())
            if m.group(1) in _FIRST_OF:
                k = group_end(text, j)
                out.append(text[j + 1:k - 1] if text[j:j + 1] == "{" else text[j:k])
                j = k if _FIRST_OF[m.group(1)] == 1 else group_end(text, _skip_ws(text, k))
            elif m.group(1) not in _NO_ARGUMENT:
                j = group_end(text, j)
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


def _accent(m: "re.Match[str]") -> str:
    accent = m.group(1) or m.group(2)
    base = m.group(3) if m.group(3) is not None else m.group(4)
    if base is None:
        return ""
    if base.startswith("\\"):
        base = _LETTERS.get(base[1:], base[1:])
    return base + _ACCENTS[accent]


def _strip_macros(text: str, unknown: List[str]) -> str:
    """Commands as text: letters and symbols as their characters, formatting dropped (with
    the arguments that are not text), any other command replaced by a placeholder
    character (``\\x00``) and its name added to *unknown*."""
    out: List[str] = []
    i = 0
    while i < len(text):
        if text[i] != "\\":
            out.append(text[i])
            i += 1
            continue
        m = _CMD_RE.match(text, i)
        if m is None:
            i += 1
            continue
        name, char = m.group(1), m.group(2)
        i = m.end()
        if char is not None:
            # \& \% \$ \# \_ \{ \} are their character; \, \; \: \! \  and \/ are space
            out.append(char if char in "&%$#_{}" else " ")
            continue
        if name in _LETTERS:
            out.append(_LETTERS[name])
        elif name in _SPACES:
            out.append(" ")
            if name == "hspace":
                i = _skip_ws(text, i)
                i = group_end(text, i + 1 if text[i:i + 1] == "*" else i)
        elif name in FORMATTING_COMMANDS:
            for _ in range(_SKIP_FIRST.get(name, 0)):
                i = group_end(text, _skip_optional(text, i))
        else:
            unknown.append(name)
            out.append("\x00")
    return "".join(out)


class Normalised(NamedTuple):
    text: str  # normalised, case folded; "\x00" marks each unknown command
    macros: Tuple[str, ...]  # the unknown commands, in order


def normalised(title: str) -> Normalised:
    """*title* (TeX or plain text) as comparable text (see the module docstring)."""
    text = _BREAK_RE.sub(" ", _drop_commands(title))
    text = _ACCENT_RE.sub(_accent, text)
    unknown: List[str] = []
    text = _strip_macros(text, unknown)
    text = text.replace("~", " ")
    text = re.sub(r"[{}$]", "", text)
    text = re.sub(r"[\^_](?=\S)", "", text)  # math scripts: $\Pi^0_1$ reads as Π01
    text = unicodedata.normalize("NFKC", text).translate(_QUOTE_TRANS)
    text = text.translate(_SMALL_CAPITALS)
    text = text.replace("''", '"')
    text = _DASH_RE.sub("-", text)
    text = re.sub(r"\s*-\s*(?=-)", "", text)  # a dash made of several
    return Normalised(collapse(text).casefold(), tuple(unknown))


def normalise(title: str) -> str:
    """*title* as text to compare (unknown commands shown by their name)."""
    n = normalised(title)
    macros = iter(n.macros)
    return re.sub("\x00", lambda _m: "\\" + next(macros), n.text)


def plain(title: str) -> str:
    """Kept for callers of the first version: :func:`normalise`."""
    return normalise(title)


def _letters(text: str) -> str:
    """Letters, digits and unknown-command marks only: what formatting cannot change."""
    return "".join(c for c in text if c.isalnum() or c == "\x00")


# ---------------------------------------------------------------- the comparison


class Comparison(NamedTuple):
    kind: str  # SAME | FORMATTING | DIFFERENT | UNKNOWN
    how: str  # how it was decided, for the message
    differences: Tuple[str, ...] = ()  # with FORMATTING: what differs, each as words

    @property
    def matches(self) -> bool:
        return self.kind in (SAME, FORMATTING)


def _quote(s: str) -> str:
    return "'%s'" % printable(s, 60)


def _punctuation_differences(ours: str, theirs: str) -> List[str]:
    """What differs between two normalised titles with the same letters, as phrases."""
    found: List[str] = []
    sm = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for op, a0, a1, b0, b1 in sm.get_opcodes():
        if op == "equal":
            continue
        a, b = ours[a0:a1].strip(), theirs[b0:b1].strip()
        if not a and not b:
            found.append("spacing")
        elif not a:
            found.append("%s in the record's title only" % _quote(b))
        elif not b:
            found.append("%s in the paper's title only" % _quote(a))
        else:
            found.append("%s where the record's title has %s" % (_quote(a), _quote(b)))
    out: List[str] = []
    for f in found:
        if f not in out:
            out.append(f)
    return out[:4] + (["and %d more" % (len(out) - 4)] if len(out) > 4 else [])


def _macro_reading(ours: Normalised, theirs: str) -> Optional[List[str]]:
    """When *ours* has unknown commands: can each stand for 1 to 40 letters of *theirs*
    so that the letters agree?  The readings (``\\datanet as 'datanet'``), else None."""
    parts = _letters(ours.text).split("\x00")
    pattern = "(.{1,40}?)".join(re.escape(p) for p in parts)
    target = _letters(theirs)
    m = re.fullmatch(pattern, target, re.S)
    if m is None:
        return None
    return ["\\%s read as %s" % (name, _quote(m.group(k + 1)))
            for k, name in enumerate(ours.macros)]


def compare(paper: str, record_title: Optional[str], canon_hex: Optional[str]) -> Comparison:
    """Classify *paper* (its title, TeX as typed or text as shown) against the record:
    its title text *record_title* (None: not at hand) and its ``title_canon_sha256``
    *canon_hex* (None: not at hand).  A *record_title* that does not hash to *canon_hex*
    is not the record's and is not used."""
    if canon_hex is not None and canon_sha256(as_typed(paper)) == canon_hex:
        return Comparison(SAME, "its hash is the record's title_canon_sha256")
    if record_title is not None and canon_hex is not None and (
            canon_sha256(record_title) != canon_hex):
        record_title = None
    if record_title is None:
        return Comparison(UNKNOWN, "it does not hash to the record's title_canon_sha256 and "
                                   "the record's title is not at hand")
    ours, theirs = normalised(paper), normalised(record_title)
    if ours.text == theirs.text:
        return Comparison(SAME, "equal once TeX, case and spacing are normalised")
    if not ours.macros and _letters(ours.text) == _letters(theirs.text):
        return Comparison(FORMATTING, "same letters and digits",
                          tuple(_punctuation_differences(ours.text, theirs.text)))
    if ours.macros:
        readings = _macro_reading(ours, theirs.text)
        # An author's macro may stand for a word, not for the title: the letters typed
        # out must be most of the record's, else the macros decide and nothing is known.
        typed = len(_letters(ours.text).replace("\x00", ""))
        if readings is not None and typed * 3 >= 2 * len(_letters(theirs.text)):
            return Comparison(FORMATTING, "same letters and digits", tuple(readings))
        if readings is not None or typed * 3 < 2 * len(_letters(theirs.text)):
            return Comparison(UNKNOWN, "its macros (%s) are not known here: check compares "
                              "the title of the compiled PDF" % ", ".join(
                                  "\\" + m for m in ours.macros))
    return Comparison(DIFFERENT, "different words")


# ---------------------------------------------------------------- messages


def shown(title: str) -> str:
    """A title quoted for a message as the author would read it: one backslash per TeX
    command and letters of any script kept (not ``\\\\emph`` and ``\\xf6``), terminal
    controls still escaped."""
    return "'%s'" % printable(collapse(title), 120)


def title_check(paper: Optional[str], canon_hex: Optional[str], record_title: Optional[str],
                where: str, *, accepted: bool = False, on_different: Status = FAIL,
                advice: str = "") -> Check:
    """The ``title`` line, in the same words for every command: is the record (its
    title, its ``title_canon_sha256``) this paper's (*paper*: its title as *where* gives
    it, None when there is none)?  *accepted*: the author said the title changed since
    the record (``fetch --accept-title``): a different title is then OK, said as such."""
    theirs = "" if record_title is None else " %s" % shown(record_title)
    if paper is None:
        return Check("title", WARN, "not compared: %s; make sure the number is this "
                     "paper's (the record's title is%s)" % (where, theirs or " known by its "
                                                            "hash only"))
    c = compare(paper, record_title, canon_hex)
    ours = shown(as_typed(paper))
    if c.kind == SAME:
        return Check("title", OK, "same: %s is the record's title%s (%s)" % (
            where, theirs, c.how))
    if c.kind == FORMATTING:
        return Check("title", OK, "same up to formatting: %s %s is the record's title%s "
                     "(%s)" % (where, ours, theirs, "; ".join(c.differences) or c.how))
    if accepted:
        return Check("title", OK, "different, accepted (fetch --accept-title): %s is %s; "
                     "the record's title is%s (the title changed since the record)"
                     % (where, ours, theirs or " another (by its hash)"))
    if c.kind == UNKNOWN:
        return Check("title", WARN, "not compared: %s %s: %s; make sure the number is "
                     "this paper's" % (where, ours, c.how))
    return Check("title", on_different, "different: %s is %s; the number is for%s "
                 "(another paper?)%s" % (where, ours, theirs, advice))
