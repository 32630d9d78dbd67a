"""The same include bytes get the same verdict on every route, and from pith-tex.

An include that an editor re-saved (a byte-order mark, UTF-16, Latin-1 or UTF-8 text in a
comment, a NUL) is refused everywhere with one message that names the fix; before, XeTeX
accepted what it decoded by itself (it drops a BOM and reads UTF-16) while pdfTeX refused
it, and LuaTeX stopped at each reading of a byte that is not UTF-8.  CRLF line ends are
read as LF everywhere, `pith-tex verify` included.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import texdocs as docs
import texrun
from pith_tex.verify.files import verify_include_file

GOOD = texrun.README_INCLUDE.encode("ascii")
BOM = "starts with a byte-order mark (an editor saved it), which 'pith-tex fetch' never writes"
FIX = "Run 'pith-tex fetch' again to rewrite it."


def char(line: int) -> str:
    return (f"line {line}, holds a character that 'pith-tex fetch' never writes "
            "(not ASCII, or NUL)")


LINE2 = b"% Do not edit"
# the lines the edits below fall on, as the include is written today
VALUE_LINE = GOOD[:GOOD.index(b"cs.DC,")].count(b"\n") + 1
END_LINE = GOOD.count(b"\n") + 1
# name: (bytes, the error pith.sty gives on every route or None, pith-tex's reason)
CASES = {
    "utf8-bom": (b"\xef\xbb\xbf" + GOOD, BOM, "byte-order mark"),
    "utf16-bom": (GOOD.decode().encode("utf-16"), BOM, "byte-order mark"),
    "utf16le": (GOOD.decode().encode("utf-16-le"), char(1), "line 1 holds"),
    "utf16be": (GOOD.decode().encode("utf-16-be"), char(1), "line 1 holds"),
    "latin1-comment": (GOOD.replace(LINE2, b"% Do not \xe9dit"), char(2), "line 2 holds"),
    "utf8-comment": (GOOD.replace(LINE2, "% Do not édit".encode()), char(2), "line 2 holds"),
    "latin1-value": (GOOD.replace(b"cs.DC,", b"cs.D\xe9,"), char(VALUE_LINE),
                     "line %d holds" % VALUE_LINE),
    "trailing-nul": (GOOD + b"\0", char(END_LINE), "line %d holds" % END_LINE),
    "crlf": (GOOD.replace(b"\n", b"\r\n"), None, None),
}


def verdict(b: texrun.Build) -> str:
    log = b.log
    if "! String contains an invalid utf-8 sequence." in log:
        # LuaTeX's own error: -halt-on-error stopped there; pith's comes next.
        log = _lualatex(b.dir)
    log = re.sub(r"\n\(pith\)\s+", " ", log)
    m = re.search(r"Package pith Error: (.*?)\n\n", log, re.S)
    if m:
        return m.group(1).replace("\n", "")
    assert b.ok, b.describe()
    return "accepted: " + texrun.info(b.pdf)["PithVerification"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_bytes_same_verdict_everywhere(tmp_path: Path, case: str) -> None:
    data, error, reason = CASES[case]
    verdicts = {}
    for route in texrun.ROUTES:
        d = tmp_path / route
        d.mkdir()
        (d / "pith-number.tex").write_bytes(data)
        b = texrun.compile_tex(d, docs.document(), route, max_runs=1)
        verdicts[route] = verdict(b)
    assert len(set(verdicts.values())) == 1, verdicts
    got = verdicts["pdflatex"]
    if error is None:
        assert got == "accepted: verified-unsigned"
    else:
        assert got.startswith("Include 'pith-number.tex'"), got
        assert error in got and got.endswith(FIX), got
    # pith-tex says the same about the same file.
    out = verify_include_file(str(tmp_path / "pdflatex" / "pith-number.tex"))
    if reason is None:
        assert out.outcome is not None and out.error is None, out
    else:
        assert out.outcome is None and reason in (out.error or ""), out


def _lualatex(d: Path) -> str:
    """lualatex without -halt-on-error (as arXiv runs it): every error is in the log."""
    subprocess.run([texrun.tool("lualatex"), "-interaction=nonstopmode", "main.tex"],
                   cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return (d / "main.log").read_text(encoding="latin-1")


@pytest.mark.parametrize("case", ["latin1-comment", "latin1-value", "utf16-bom"])
def test_luatex_never_reads_a_byte_that_is_not_utf8(tmp_path: Path, case: str) -> None:
    """LuaTeX stops at each reading of such a byte (its own 'String contains an invalid
    utf-8 sequence'): Lua looks at the file's bytes before any line is read, and pith's
    error is the only one."""
    data, error, _ = CASES[case]
    (tmp_path / "main.tex").write_text(docs.document(), encoding="utf-8")
    (tmp_path / "pith.sty").write_bytes(texrun.STY.read_bytes())
    (tmp_path / "pith-number.tex").write_bytes(data)
    log = _lualatex(tmp_path)
    assert "! String contains an invalid utf-8 sequence." not in log, log
    errors = re.findall(r"^! Package pith Error: .*$", log, re.M)
    assert len(errors) == 1, errors
    assert error is not None and error[:40] in re.sub(r"\n\(pith\)\s+", " ", log)


@pytest.mark.parametrize("route", texrun.ROUTES)
@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero"])
def test_an_include_that_is_no_regular_file_is_refused_without_blocking(
        tmp_path: Path, kind: str, route: str) -> None:
    """TeX would wait at the opening of a FIFO for a writer that never comes (the build
    hangs until arXiv's time limit); pith.sty does not open a file of size 0, and says
    what it says of an empty include.  pith-tex says what the file is."""
    inc = tmp_path / "pith-number.tex"
    if kind == "fifo":
        os.mkfifo(inc)
    else:
        os.symlink("/dev/zero", inc)
    b = texrun.compile_tex(tmp_path, docs.document(), route, max_runs=1)
    assert "Package pith Error: Include 'pith-number.tex' has no \\pithrecord{2}{ block." \
        in b.log, b.describe()
    assert re.findall(r"^pith-include: .*$", b.log, re.M) == [
        "pith-include: read pith-number.tex"]
    out = verify_include_file(str(inc))
    assert out.outcome is None
    assert ("a FIFO" if kind == "fifo" else "a character device") in (out.error or "")
