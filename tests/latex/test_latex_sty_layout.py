"""pith.sty's deferred section: the code read only on first use (messages, QR drawing)
follows ``\\file_input_stop:`` and starts at the one line that begins with ``|``.

On that second read every character is a comment character except ``|``, so a line of
the package proper that began with ``|`` would run the switch too early.  The behaviour
itself (messages, QR codes) is tested by l3build and the compile tests; this pins the
file layout they rely on.
"""
from __future__ import annotations

from pathlib import Path

STY = Path(__file__).resolve().parents[2] / "latex" / "pith.sty"


def test_one_switch_line_right_after_the_stop():
    lines = STY.read_text(encoding="ascii").split("\n")
    switches = [i for i, line in enumerate(lines) if line.startswith("|")]
    assert len(switches) == 1
    (i,) = switches
    assert lines[i] == "|"
    assert lines[i - 1] == "\\file_input_stop:"
    # the package proper ends there: no other top-level \file_input_stop:
    assert [n for n, line in enumerate(lines) if line == "\\file_input_stop:"] == [i - 1]
