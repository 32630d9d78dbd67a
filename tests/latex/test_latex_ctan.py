"""``make ctan`` (scripts/ctan.sh): the zip CTAN accepts, with the one version everywhere.

The script compiles the manual in a scratch copy; the test reads the zip back and the
manual's first page with poppler."""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import pith_tex
from texbuild import ROOT, tool


def test_ctan_zip(tmp_path: Path) -> None:
    tool("pdflatex")
    tool("pdftotext")
    r = subprocess.run(["bash", str(ROOT / "scripts" / "ctan.sh"), str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    with zipfile.ZipFile(tmp_path / "pith.zip") as z:
        names = {n for n in z.namelist() if not n.endswith("/")}
        assert {"pith/pith.sty", "pith/pith.tex", "pith/pith.pdf", "pith/README.md",
                "pith/LICENSE"} <= names
        assert all(n.startswith("pith/") for n in names)
        assert not [n for n in names if n.endswith((".log", ".aux", ".toc", ".out"))]
        assert z.read("pith/pith.sty") == (ROOT / "latex" / "pith.sty").read_bytes()
        readme = z.read("pith/README.md").decode()
        assert "Version: %s (" % pith_tex.__version__ in readme
        assert "Project Public License" in z.read("pith/LICENSE").decode()
        z.extract("pith/pith.pdf", tmp_path)
    text = subprocess.run(["pdftotext", "-l", "2", str(tmp_path / "pith" / "pith.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "v" + pith_tex.__version__ in text  # the manual states the package's version
    assert "Contents" in text and re.search(r"Installation", text)
    assert "Project Public License" in text and "Contact" in text
