"""pith.sty's deferred parts: code read only on first use follows the package proper's
``\\file_input_stop:``: the include's fast reader (marker line ``|``), which continues
into the QR part (marker line ``<``) when a code is asked for, the include's full reader
(marker line ``;``), the title badge carried off page 1 (marker line ``*``) and the rest
(marker line ``>``), each ending with
``\\file_input_stop:``; after them the LaTeXML path (marker line ``!``), which only
LaTeXML reads.

A part is read by inputting pith.sty again with every character a comment character
except its marker, so a line before the part that began with the marker would switch to
code too early, and a part without its closing stop would run into the next.  The
behaviour (messages, include reading, QR codes) is tested by l3build and the compile
tests; this pins the layout they rely on.
"""
from __future__ import annotations

import re
from pathlib import Path

STY = Path(__file__).resolve().parents[2] / "latex" / "pith.sty"


def test_two_marked_parts_each_after_a_stop():
    lines = STY.read_text(encoding="ascii").split("\n")
    stops = [n for n, line in enumerate(lines) if line == "\\file_input_stop:"]
    assert [lines[n + 1] for n in stops] == ["|", ";", "*", ">", "!"]
    # the QR part: between the fast reader and the full one
    qr = lines.index("<")
    assert stops[0] < qr < stops[1]
    for marker, part_start in [("<", qr)] + [(lines[n + 1], n + 1) for n in stops]:
        # before its marker line, no line of the file starts with the marker
        assert not [n for n in range(part_start) if lines[n].startswith(marker)], marker
    # nothing but ASCII: the reading loops set tab, end of line and the printable range
    text = STY.read_bytes()
    assert all(b in (9, 10) or 32 <= b <= 126 for b in text)


def test_names_declared_with_the_kernels_checks() -> None:
    """Every variable declared at load time is declared with its \\..._new (the kernel's free-name check and
    its log entry), not made by letting it to an empty constant; the commands users call
    and pith's messages are \\cs_new... and \\msg_new, so that a clash with another
    package stays an error."""
    text = STY.read_text(encoding="ascii")
    code = text[: text.index("\n!\n")]  # the LaTeXML part is plain LaTeX
    lets = re.findall(
        r"^\\(?:cs_gset_eq:[Nc]N|tex_let:D|tex_global:D).*\\c_(?:empty_tl|false_bool)",
        code, re.M)
    assert not lets, lets
    users = ("pithsetup", "pithnumber", "pithrecord", "pithqrcode", "pithbadge", "pithqr")
    for cmd in users:
        first = re.search(r"^\\(?:cs_(\w+):Npn|NewDocumentCommand) *\\%s\b" % cmd, code, re.M)
        assert first and (first.group(1) or "new").startswith("new"), cmd
    # Messages stay \msg_new: l3kernel 2024-02-13 deprecated \msg_gset and made it the
    # local \msg_set.
    assert not re.search(r"\\msg_g?set:nnnn?\b", code), "define pith's messages with \\msg_new"
