"""A title in a revision, written with the changes package's marks (a real elsarticle
paper: ``\\title{\\name: A Web-based Library for \\comment[id=kg]{...}\\replaced[id=kg]{new}{old}
...}``): its final version prints the new text only, and that is the paper's title.
fetch called it "different" and refused the paper's own number; fetch, the compile and
check, all real, on a stand-in of our own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from pith_tex.title.compare import DIFFERENT, SAME, canon_sha256, compare

ROOT = Path(__file__).resolve().parents[3]
MIRROR = ROOT / "examples" / "mirror"
STY = ROOT / "latex" / "pith.sty"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
RECORD = "FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs"
REVISED = ("FlashRecovery: Fast and \\comment[id=R1]{Consider ``Cheap''?}"
           "\\replaced[id=R1]{Low-Cost}{Low-cost} Recovery from Failures for "
           "\\added[id=R2]{Large-Scale} Training of \\deleted[id=R2]{Large} LLMs")


def pith_tex(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pith_tex", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_revision_marks_read_as_the_final_text() -> None:
    assert compare(REVISED, RECORD, canon_sha256(RECORD)).kind == SAME
    # The old text of \replaced is not the title: a new text of another paper stays so.
    other = RECORD.replace("Fast and Low-Cost", "\\replaced{Slow}{Fast and Low-Cost}")
    assert compare(other, RECORD, canon_sha256(RECORD)).kind == DIFFERENT


def test_a_revised_title_fetches_compiles_and_checks(tmp_path: Path) -> None:
    d = tmp_path / "paper"
    d.mkdir()
    (d / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[final]{changes}\n\\usepackage{pith}\n"
        "\\pithnumber{%s}\n\\title{%s}\n\\author{A. Author}\n\\begin{document}\n"
        "\\maketitle\nText.\n\\end{document}\n" % (N, REVISED), encoding="utf-8")
    shutil.copy(STY, d / "pith.sty")
    r = pith_tex("fetch", "--offline", "--resolver", MIRROR, cwd=d)
    assert r.returncode == 0, r.stdout + r.stderr
    r = pith_tex("check", ".", "--json", "--html", "off", cwd=d)
    doc = json.loads(r.stdout)
    title = [c for c in doc["checks"] if c["name"] == "title"][0]
    assert title["status"] == "ok", doc  # page 1 shows the final text: the record's title
    assert r.returncode == 0, doc
