"""``pith-tex check`` on honest papers tells the truth (issue 28): a FAIL only for what
breaks the paper on arXiv, with its true cause and a way on; the tarball holds the bytes
that were checked.  Real papers' mechanisms, in stand-ins of our own, compiled by real TeX
and converted by real LaTeXML."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_py_check import (EXAMPLE, add_to_preamble, assert_ready, check, detail, fetch,
                           paper, pith_tex, statuses, tex)

__all__ = ["paper", "tex"]  # fixtures, used by name


def test_a_forgotten_fetch_names_pith_tex_fetch_last(tmp_path: Path) -> None:
    """No pith.sty and no include: the author forgot ``pith-tex fetch``, which writes
    both; the last line (the decisive check) names it, not --fix (which copies pith.sty
    only, and the next run fails on the include)."""
    d = tmp_path / "paper"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "main.tex")
    r = pith_tex("check", d)
    assert r.returncode == 1, r.stdout + r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert "pith-tex fetch" in last and "--fix" not in last, last


def test_main_is_the_file_fetch_chose(paper: Path) -> None:
    """A cover letter beside the paper (its own \\documentclass, no \\pithnumber): fetch
    took the paper, so check takes it too, instead of exit 2 for several main files."""
    (paper / "cover.tex").write_text(
        "\\documentclass{letter}\n\\begin{document}\nDear editor, ...\n\\end{document}\n",
        encoding="ascii")
    fetch(paper)  # fetch's own choice, which names no --main
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert doc["main"] == "main.tex"
    assert "cover.tex" not in doc["upload"]
