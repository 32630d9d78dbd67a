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


def test_internal_names_defined_without_check_user_commands_with() -> None:
    """scripts/cheap-defs.py has been run on pith.sty: no __pith name is left to the
    kernel's free-name check (~9k instructions each; re-run the script after merging
    code that adds some), while every user command keeps \\cs_new..., so that a clash
    with another package stays an error."""
    import importlib.util

    script = STY.parents[1] / "scripts" / "cheap-defs.py"
    spec = importlib.util.spec_from_file_location("cheap_defs", script)
    assert spec and spec.loader
    cheap_defs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cheap_defs)
    text = STY.read_text(encoding="ascii")
    _, left = cheap_defs.transform(text)
    assert left == 0, "run python3 scripts/cheap-defs.py"
    users = ("pithsetup", "pithnumber", "pithrecord", "pithqrcode", "pithbadge", "pithqr")
    for cmd in users:
        first = re.search(r"^\\cs_(\w+):Npn \\%s\b" % cmd, text, re.M)
        assert first and first.group(1).startswith("new"), cmd
    # Messages stay \msg_new: l3kernel 2024-02-13 deprecated \msg_gset and made it the
    # local \msg_set, so a message defined while a lazy part is read in a group is gone
    # afterwards on TeX Live 2024 and later ("Unknown message").
    assert not re.search(r"\\msg_g?set:nnnn?\b", text), "define pith's messages with \\msg_new"
