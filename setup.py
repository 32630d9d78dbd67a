"""The wheel ships pith.sty and its LaTeXML binding (pith_tex/data/, symlinks into latex/),
generated from their literate source latex/pith.dtx by docstrip and never committed: a
build from a checkout generates it first when it is missing or older than its source
(with TeX, which pith-tex's users have).  Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LATEX = Path(__file__).resolve().parent / "latex"


def generate_sty() -> None:
    sources = [LATEX / "pith.dtx", LATEX / "pith.ins"]
    if not all(p.is_file() for p in sources):
        return  # not a checkout (an sdist carries the generated files)
    made = [LATEX / "pith.sty", LATEX / "pith.sty.ltxml"]
    if all(m.is_file() and all(p.stat().st_mtime <= m.stat().st_mtime for p in sources)
           for m in made):
        return
    tex = shutil.which("pdftex") or shutil.which("tex")
    if tex is None:
        raise SystemExit("latex/pith.sty is generated from latex/pith.dtx by TeX (docstrip), "
                         "and no pdftex or tex is on PATH: install TeX, or run "
                         "'make latex/pith.sty' where TeX is, then build again")
    subprocess.run([tex, "-interaction=batchmode", "pith.ins"], cwd=LATEX, check=True,
                   stdout=subprocess.DEVNULL)


class BuildPy(build_py):
    def run(self) -> None:
        generate_sty()
        super().run()


setup(cmdclass={"build_py": BuildPy})
