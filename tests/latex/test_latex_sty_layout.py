"""pith.sty's layout: one file, read once.  TeX reads it from the top to the one
``\\file_input_stop:`` before the LaTeXML path (marker line ``!``), which only LaTeXML
reads (every character but ``!`` a comment character there); no part of the file is read
a second time.  The behaviour (messages, include reading, QR codes) is tested by l3build
and the compile tests; this pins the layout they rely on.
"""
from __future__ import annotations

import re
from pathlib import Path

STY = Path(__file__).resolve().parents[2] / "latex" / "pith.sty"


def test_read_once_with_the_latexml_path_after_the_one_stop() -> None:
    lines = STY.read_text(encoding="ascii").split("\n")
    stops = [n for n, line in enumerate(lines) if "\\file_input_stop:" in line.split("%")[0]]
    assert [lines[n + 1] for n in stops] == ["!"]
    # before the LaTeXML path's marker line, no line of the file starts with '!'
    assert not [n for n in range(stops[0] + 1) if lines[n].startswith("!")]
    # nothing re-reads the file: no primitive \input of it, no \file_input of it
    code = "\n".join(line.split("%")[0] for line in lines[: stops[0]])
    assert "\\tex_input:D" not in code and "\\file_input:n" not in code
    # nothing but ASCII: the LaTeXML path's skip sets tab, end of line and the
    # printable range
    text = STY.read_bytes()
    assert all(b in (9, 10) or 32 <= b <= 126 for b in text)


def test_names_defined_with_the_kernels_checks() -> None:
    """The kernel's own checks, which every l3build test turns on before loading pith
    (check-declarations: every variable declared before use; deprecation: no deprecated
    function, e.g. \\msg_gset, which l3kernel 2024-02-13 made the local \\msg_set), see to
    the variables.  They do not see how a function is defined: an internal name is
    defined once at load time, with the checked \\..._new form (\\cs_gset... only
    redefines at run time, indented, in a function's body), and the commands users call
    are \\cs_new... or \\NewDocumentCommand, so that a clash with another package stays
    an error."""
    text = STY.read_text(encoding="ascii")
    code = text[: text.index("\n!\n")]  # the LaTeXML part is plain LaTeX
    gsets = re.findall(r"^\\(?:cs|prg)_gset\w*:\w+ *\\_*pith\S*", code, re.M)
    assert not gsets, gsets
    users = ("pithsetup", "pithnumber", "pithrecord", "pithqrcode", "pithbadge", "pithqr")
    for cmd in users:
        first = re.search(r"^\\(?:cs_(\w+):Npn|NewDocumentCommand) *\\%s\b" % cmd, code, re.M)
        assert first and (first.group(1) or "new").startswith("new"), cmd


def test_contents_name_each_part_in_order() -> None:
    """The contents at the top list the parts; each part opens with a banner that carries
    its number, in that order: a reader finds each part from the contents."""
    text = STY.read_text(encoding="ascii")
    head = text[text.index("% Contents.") : text.index("% Cost.")]
    listed = [int(n) for n in re.findall(r"^%   (\d)\. ", head, re.M)]
    assert listed == list(range(10))
    bar = "% " + "=" * 75
    banners = re.findall(r"^%s\n%% (\d)\. .*\n%s$" % (bar, bar), text, re.M)
    assert [int(n) for n in banners] == list(range(1, 10))
    # the LaTeXML path is the last part, right after its banner
    assert text.index("\n%% 9. " % ()) < text.index("\n\\file_input_stop:\n!\n")
