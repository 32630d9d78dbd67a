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
from contract import readme_include
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


# The fast reader (an include exactly as `pith-tex fetch` writes it) must leave the same
# state as the full reader, which reads every other include: every variable the record,
# the QR block and the number set, compared by meaning after each reader alone.
STATE = ("g__pith_include_bool", "g__pith_inc_number_str", "g__pith_inc_year_str",
         "g__pith_inc_sha_str", "g__pith_inc_arxiv_id_str", "g__pith_inc_arxiv_version_str",
         "g__pith_inc_signature_str", "g__pith_inc_key_id_str",
         "g__pith_inc_signature_hex_str", "g__pith_number_str", "g__pith_inc_record_str",
         "g__pith_qr_bool", "g__pith_qr_raw_bool", "g__pith_qr_size_tl", "g__pith_qr_rows_tl",
         "g__pith_qr_file_str", "g__pith_qr_clean_bool", "g__pith_reading_include_bool",
         "g__pith_include_name_str", "g__pith_user_number_bool", "g__pith_inc_title_str")
STATE_DOC = r"""\documentclass{article}
\usepackage[include=false]{pith}
NUMBER
\ExplSyntaxOn
\cs_gset_protected:Npx \__pith_include_read:
  { \iow_log:n { pith-test:~the~full~reader } \exp_not:o { \__pith_include_read: } }
\str_set:Nn \l__pith_include_str { pith-number.tex }
\str_gset:Nn \g__pith_include_name_str { pith-number.tex }
\ior_open:Nn \g__pith_inc_ior { pith-number.tex }
READ
\ior_close:N \g__pith_inc_ior
\iow_new:N \g__test_iow
\iow_open:Nn \g__test_iow { state.txt }
\clist_map_inline:nn { VARS }
  { \iow_now:Nx \g__test_iow { #1 = \cs_meaning:c {#1} } }
\iow_close:N \g__test_iow
\ExplSyntaxOff
\begin{document}
x
\end{document}
"""


@pytest.mark.parametrize("include", ["unsigned", "signed", "no-qr", "titled"])
@pytest.mark.parametrize("number", [True, False])
@pytest.mark.parametrize("engine", ["pdflatex", "xelatex", "lualatex"])
def test_fast_and_full_reader_leave_the_same_state(tmp_path: Path, include: str,
                                                   number: bool, engine: str) -> None:
    text = {"unsigned": GOOD, "signed": texrun.SIGNED_INCLUDE,
            "no-qr": GOOD.split("\\pithqrcode")[0],
            "titled": readme_include()}[include]  # with the record's title, as fetch writes
    states = {}
    for reader, read in (("fast", r"\__pith_fast_read:"), ("full", r"\__pith_include_read:")):
        doc = (STATE_DOC.replace("NUMBER", r"\pithnumber{%s}" % NUM if number else "")
               .replace("READ", read).replace("VARS", ",".join(STATE)))
        b = texrun.compile_tex(tmp_path / reader, doc, engine, include=text, max_runs=1)
        assert b.ok, b.describe()
        states[reader] = (tmp_path / reader / "state.txt").read_text()
        # the fast reader did not fall back to the full one
        assert ("pith-test: the full reader" in b.log) == (reader == "full"), reader
    assert "g__pith_include_bool=\\char\"1" in states["full"], states["full"]
    assert states["fast"] == states["full"]
