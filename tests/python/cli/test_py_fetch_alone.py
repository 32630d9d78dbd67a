"""fetch on a main file copied alone (the README's Overleaf route, read as "put your
main.tex in an empty directory"), whose title is in a file it inputs: a real elsarticle
preprint template keeps its title in sections/00-frontmatter.tex.  fetch said "no title
found ... put the title in \\title{...}" (it is in one); it now names the inputs that are
not there and the way on.  Real fetch, offline, against the example mirror."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
TITLE = "FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs"

MAIN = ("\\documentclass[preprint]{elsarticle}\n\\input{config/preamble.tex}\n"
        "\\input glyphtounicode\n\\usepackage{pith}\n\\pithnumber{%s}\n\\begin{document}\n"
        "\\begin{frontmatter}\n\\input{sections/00-frontmatter.tex}\n\\end{frontmatter}\n"
        "Text.\n\\end{document}\n" % N)


def fetch(d: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "--offline",
                           "--resolver", str(MIRROR)], cwd=d, capture_output=True, text=True,
                          timeout=300)


def test_a_main_file_alone_names_the_inputs_that_hold_its_title(tmp_path: Path) -> None:
    d = tmp_path / "alone"
    d.mkdir()
    (d / "main.tex").write_text(MAIN, encoding="utf-8")
    r = fetch(d)
    assert r.returncode == 1, r.stdout + r.stderr
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith("FAIL  title")]
    assert "config/preamble.tex, sections/00-frontmatter.tex" in line, line
    assert "glyphtounicode" not in line, line  # TeX Live's own file is not missing
    assert "Download, Source" in line and "\\title{...}" not in line, line
    # The way on: the whole paper there, and fetch finds the title.
    (d / "config").mkdir()
    (d / "config" / "preamble.tex").write_text("\\usepackage{amsmath}\n", encoding="utf-8")
    (d / "sections").mkdir()
    (d / "sections" / "00-frontmatter.tex").write_text(
        "\\title{%s}\n\\author{A. Author}\n" % TITLE, encoding="utf-8")
    r = fetch(d)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_main_file_alone_whose_body_is_an_input_names_it(tmp_path: Path) -> None:
    """The document itself in ``\\input{body}`` (not there): fetch's "main.tex has no
    \\begin{document}" now names the input and the way on."""
    d = tmp_path / "alone"
    d.mkdir()
    (d / "main.tex").write_text("\\documentclass{article}\n\\usepackage{pith}\n"
                                "\\pithnumber{%s}\n\\input{body}\n" % N, encoding="utf-8")
    r = fetch(d)
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith(("WARN  title",
                                                                      "FAIL  title"))]
    assert "inputs body, which is not beside it" in line and "Download, Source" in line, line
