"""The include is data: pith.sty reads it line by line and never executes it.

Includes with TeX written outside (or inside) the documented lines are compiled on
pdflatex and xelatex, with and without ``-shell-escape``: nothing in them runs (the
files their lines would write do not exist afterwards), the build stops with an error
that names the line and shows it, and the .log names the include that was read.  A
control line in the document itself proves that shell escape really is on when the
test says so, so that a missing side-effect file means something.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import texdocs as docs
import texrun
from texrun import NUM

ENGINES = ("pdflatex", "xelatex")
GOOD = texrun.README_INCLUDE
LINES = GOOD.split("\n")
OTHER = "OZSQU6PZ6STJ7LG5TIDHTNXEHD"  # another real Pith Number (arXiv 0909.1015)


def payload(tag: str) -> str:
    """One line of TeX that, if executed, writes ``pwned-TAG-openout.tex`` (no shell
    escape needed) and ``pwned-TAG-shell`` (with shell escape)."""
    return (rf"\immediate\openout15=pwned-{tag}-openout.tex\immediate\write15{{x}}"
            rf"\immediate\closeout15\immediate\write18{{touch pwned-{tag}-shell}}")


def _index(pred) -> int:
    return next(i for i, line in enumerate(LINES) if pred(line))


def _insert(at: int, line: str) -> tuple[str, int]:
    lines = LINES[:at] + [line] + LINES[at:]
    return "\n".join(lines), at + 1


def _replace(at: int, line: str) -> tuple[str, int]:
    lines = LINES[:at] + [line] + LINES[at + 1:]
    return "\n".join(lines), at + 1


QR_HEAD = _index(lambda s: s.startswith("\\pithqrcode"))
# (name, include text, line number the error must name, the line's text as shown)
CASES = {
    "top": _insert(0, payload("top")),
    "between-blocks": _insert(QR_HEAD, payload("between")),
    "key-line": _replace(_index(lambda s: s.startswith("  year =")), "  " + payload("key")),
    "qr-row": _replace(QR_HEAD + 3, "  " + payload("row")),
    "after-qr": (GOOD + payload("after") + "\n", len(LINES)),
    "input": (GOOD + "\\input{pwned-input}\n", len(LINES)),
    "def": _insert(0, r"\gdef\pithbadge{}\def\pithnumber#1{}"),
    "second-record": (GOOD + GOOD.split("\\pithqrcode")[0].replace(NUM, OTHER),
                      len(LINES) + GOOD[:GOOD.index("\\pithrecord")].count("\n")),
}
# Written beside the include: what its \input line would run.
INPUT_FILE = payload("input") + "\n\\endinput\n"


def control_document() -> str:
    """The usual test document, with a control line of its own that uses the shell."""
    src = docs.document()
    return src.replace("\\documentclass", "\\immediate\\write18{touch control-shell}\n"
                       "\\documentclass", 1)


def include_lines(log: str) -> list[str]:
    return re.findall(r"^pith-include: .*$", log, re.M)


@pytest.mark.parametrize("shell", [False, True], ids=["no-shell-escape", "shell-escape"])
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_nothing_in_the_include_runs(tmp_path: Path, case: str, engine: str,
                                     shell: bool) -> None:
    include, lineno = CASES[case]
    (tmp_path / "pwned-input.tex").write_text(INPUT_FILE, encoding="ascii")
    b = texrun.compile_tex(tmp_path, control_document(), engine, include=include,
                           shell_escape=shell, max_runs=1)
    # The control line proves the shell is (or is not) really available.
    assert (tmp_path / "control-shell").exists() is shell, b.describe()
    written = sorted(p.name for p in tmp_path.glob("pwned-*") if p.name != "pwned-input.tex")
    assert written == [], f"the include was executed: {written}\n{b.describe()}"
    assert not b.ok, "an include with foreign lines must stop the build"
    log = re.sub(r"\n\(pith\)\s+", " ", b.log)
    m = re.search(r"Package pith Error: Include 'pith-number\.tex', line (\d+): '(.*?)' is "
                  r"not part of the include format", log, re.S)
    assert m, b.describe()
    assert int(m.group(1)) == lineno
    shown = include.split("\n")[lineno - 1].strip()
    # Long lines are shortened to their first 64 characters.
    assert m.group(2).replace("\n", "").rstrip(".") == shown[:64] or m.group(2) == shown
    assert include_lines(b.log) == ["pith-include: read pith-number.tex"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_good_include_still_verifies(tmp_path: Path, engine: str) -> None:
    b = texrun.compile_tex(tmp_path, control_document(), engine, include=GOOD,
                           shell_escape=True)
    assert b.ok, b.describe()
    info = texrun.info(b.pdf)
    assert info["PithVerification"] == "verified-unsigned"
    assert info["PithNumber"] == f"pith:2025:{NUM}"
    assert f"pith:2025:{NUM}" in texrun.text(b.pdf).replace("\n", "")
    assert include_lines(b.log) == ["pith-include: read pith-number.tex"]


def test_signed_include_with_windows_line_ends(tmp_path: Path) -> None:
    """An include saved with CRLF line ends (an editor on Windows) reads the same."""
    inc = texrun.SIGNED_INCLUDE.replace("\n", "\r\n")
    (tmp_path / "pith-number.tex").write_bytes(inc.encode("ascii"))
    b = texrun.compile_tex(tmp_path, docs.document(), "pdflatex")
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithVerification"] == "verified"


@pytest.mark.parametrize("options,include,expected", [
    ("", None, "pith-include: missing pith-number.tex"),
    ("include=false", GOOD, "pith-include: none"),
    ("include=other-name.tex", None, "pith-include: missing other-name.tex"),
    ("anonymous", GOOD, "pith-include: none"),
], ids=["missing", "include=false", "named-missing", "anonymous"])
def test_the_log_names_the_include(tmp_path: Path, options: str, include: str | None,
                                   expected: str) -> None:
    b = texrun.compile_tex(tmp_path, docs.document(pith_options=options), "pdflatex",
                           include=include)
    assert b.ok, b.describe()
    assert include_lines(b.log) == [expected]


@pytest.mark.parametrize("text,message", [
    ("% only a comment\n\n", "has no \\pithrecord{2}{ block"),
    (GOOD[:GOOD.index("}\n\\pithqrcode")], "ends inside the \\pithrecord block (begun at line %d)"
     % (GOOD[:GOOD.index("\\pithrecord")].count("\n") + 1)),
    (GOOD[:GOOD.rindex("}")], "ends inside the \\pithqrcode block (begun at line"),
], ids=["no-record", "open-record", "open-qr"])
def test_a_cut_include_is_an_error(tmp_path: Path, text: str, message: str) -> None:
    b = texrun.compile_tex(tmp_path, docs.document(), "pdflatex", include=text, max_runs=1)
    assert not b.ok
    assert message in re.sub(r"\n\(pith\)\s+", " ", b.log), b.describe()
