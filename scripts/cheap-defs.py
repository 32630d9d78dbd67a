#!/usr/bin/env python3
"""Define pith.sty's internal names without the kernel's free-name check.

``\\cs_new_protected:Npn`` is ``\\cs_gset_protected:Npn`` after a check that the name
is free; the check costs ~9k instructions a definition (~8k a variable, ~21k a
message), paid by every document for the ~150 names of the loaded part.  A
``__pith`` name can only clash with pith itself, so its definition takes the
``\\cs_gset...`` form of the same kind: global, the same prefixes (protected, long or
not) and arguments.  Commands a user calls (``\\pithnumber``, ``\\pithbadge``,
``\\pithsetup``, ...) keep the checked ``\\cs_new...``: a clash with another package
stays an error.  Variables become what their ``_new`` makes of them: a ``str``/``tl``
is globally ``\\c_empty_tl``, a ``bool`` ``\\c_false_bool``.  Messages keep
``\\msg_new``: ``\\msg_gset`` is deprecated since l3kernel 2024-02-13 and there is only
``\\msg_set``, which is local (a message defined while a lazy part is read in a group is
gone after it: "Unknown message" on TeX Live 2026).  Registers (``int``, ``dim``,
``box``) and the rest keep their ``_new``.

Re-runnable (a transformed line no longer matches): run it after merging code that
adds checked definitions, then run the l3build checks.

    python3 scripts/cheap-defs.py          # rewrites latex/pith.sty (and its copy)
    python3 scripts/cheap-defs.py --check  # exit 1 if something is left to transform
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STY = ROOT / "latex" / "pith.sty"
COPY = ROOT / "pyhelper" / "pith_tex" / "data" / "pith.sty"

# the name defined: \__pith..., \l__pith..., { __pith... }, { g__pith... } ...
_NAME = r"(?=\s*(?:\\[glcqs]?__pith_|\{\s*[glcqs]?__pith_))"
# (pattern, replacement) on the code part of a line (before its comment)
RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\\cs_new(_protected)?(_nopar)?:(N|c)px" + _NAME),
        r"\\cs_gset\1\2:\3px",
    ),
    (
        re.compile(r"\\cs_new(_protected)?(_nopar)?:(N|c)pn" + _NAME),
        r"\\cs_gset\1\2:\3pn",
    ),
    (re.compile(r"\\cs_new_eq:(NN|Nc|cN|cc)" + _NAME), r"\\cs_gset_eq:\1"),
    (
        re.compile(r"\\prg_new(_protected)?_conditional:(Npnn|Nnn)" + _NAME),
        r"\\prg_gset\1_conditional:\2",
    ),
    (
        re.compile(r"\\(?:str|tl)_new:N(\s*)(\\[lg]__pith_[A-Za-z_@]+)"),
        r"\\cs_gset_eq:NN\1\2 \\c_empty_tl",
    ),
    (
        re.compile(r"\\(?:str|tl)_new:c(\s*)(\{\s*[lg]__pith_[^{}]*\})"),
        r"\\cs_gset_eq:cN\1\2 \\c_empty_tl",
    ),
    (
        re.compile(r"\\bool_new:N(\s*)(\\[lg]__pith_[A-Za-z_@]+)"),
        r"\\cs_gset_eq:NN\1\2 \\c_false_bool",
    ),
    (
        re.compile(r"\\bool_new:c(\s*)(\{\s*[lg]__pith_[^{}]*\})"),
        r"\\cs_gset_eq:cN\1\2 \\c_false_bool",
    ),
]
# where a line's comment starts: the first % not escaped
_COMMENT = re.compile(r"(?<!\\)%")


def transform(text: str) -> tuple[str, int]:
    """*text* with its checked internal definitions made unchecked, and their count.
    Stops at the LaTeXML part (the line that is only '!'), which is not expl3."""
    out: list[str] = []
    count = 0
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == "!":
            out.extend(lines[i:])
            break
        m = _COMMENT.search(line)
        code, comment = (line[: m.start()], line[m.start() :]) if m else (line, "")
        for pattern, repl in RULES:
            code, n = pattern.subn(repl, code)
            count += n
        out.append(code + comment)
    return "\n".join(out), count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if needed"
    )
    args = ap.parse_args(argv)
    text = STY.read_text(encoding="ascii")
    new, count = transform(text)
    if args.check:
        print("%d definitions to transform" % count)
        return 1 if count else 0
    STY.write_text(new, encoding="ascii")
    if COPY.resolve() != STY.resolve():  # a copy, not the symlink of the repository
        COPY.write_text(new, encoding="ascii")
    print("%d definitions transformed in %s" % (count, STY.relative_to(ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
