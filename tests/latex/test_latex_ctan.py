"""``make ctan`` (``l3build ctan``): the zip CTAN accepts, with the one version everywhere.

l3build runs in a copy of latex/ (it typesets the manual and runs its checks there); the
test reads the zip back and the manual's first pages with poppler."""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import pith_tex
from test_latex_docs import latex_copy, toc_problems
from texbuild import tool


def _ctan(tmp_path: Path) -> Path:
    work = latex_copy(tmp_path)
    r = subprocess.run([tool("l3build"), "ctan"], cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=900)
    assert r.returncode == 0, r.stdout[-4000:]
    return work / "pith.zip"


def test_ctan_zip(tmp_path: Path) -> None:
    tool("pdftotext")
    zip_path = _ctan(tmp_path)
    with zipfile.ZipFile(zip_path) as z:
        names = {n for n in z.namelist() if not n.endswith("/")}
        assert {"pith/pith.dtx", "pith/pith.ins", "pith/pith.pdf", "pith/README.md",
                "pith/LICENSE"} <= names
        assert all(n.startswith("pith/") for n in names)
        assert not [n for n in names if n.endswith((".log", ".aux", ".toc", ".out"))]
        # The source, not generated files: CTAN builds pith.sty (and the binding) from it.
        assert not names & {"pith/pith.sty", "pith/pith.sty.ltxml"}
        work = zip_path.parent
        assert z.read("pith/pith.dtx") == (work / "pith.dtx").read_bytes()
        readme = z.read("pith/README.md").decode()
        assert "Version: %s (" % pith_tex.__version__ in readme
        assert "Project Public License" in z.read("pith/LICENSE").decode()
        z.extract("pith/pith.pdf", tmp_path)
    text = subprocess.run(["pdftotext", "-l", "2", str(tmp_path / "pith" / "pith.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "v" + pith_tex.__version__ in text  # the manual states the package's version
    assert "Contents" in text and re.search(r"Installation", text)
    assert "Project Public License" in text and "Contact" in text


def test_ctan_zip_builds_its_manual_with_its_one_command(tmp_path: Path) -> None:
    """Unpacked, the zip generates pith.sty and rebuilds its manual with the one command
    line its README gives, with the right table of contents, and names no file that is
    not in it."""
    tool("latexmk")
    zip_path = _ctan(tmp_path)
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(tmp_path / "u")
    pkg = tmp_path / "u" / "pith"
    readme = (pkg / "README.md").read_text()
    commands = re.findall(r"```sh\n\s*(.*?)\n\s*```", readme, re.S)
    assert len(commands) == 1 and len(commands[0].strip().splitlines()) == 1, readme
    (pkg / "pith.pdf").unlink()
    r = subprocess.run(["bash", "-c", commands[0].strip() + " -interaction=nonstopmode"],
                       cwd=pkg, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    assert (pkg / "pith.sty").is_file() and (pkg / "pith.sty.ltxml").is_file()
    assert toc_problems(pkg / "pith.pdf") == []
    # Every picture of every badge form is in the zip, source and PDF.
    for form in ("verified", "checked", "unverified", "monochrome", "small", "large"):
        assert (pkg / "docs" / ("badge-%s.pdf" % form)).is_file(), form
    for page in ("title", "qr", "corner", "twocolumn", "fallback"):
        assert (pkg / "docs" / ("page-%s.pdf" % page)).is_file(), page
    # No file named that is not in the zip: pith.dtx, the README and pith.sty's header.
    sty = (pkg / "pith.sty").read_text()
    header = sty[:re.search(r"^[^%\n]", sty, re.M).start()]
    manual = (pkg / "pith.dtx").read_text().split("% \\begin{implementation}")[0]
    for name, text in (("pith.dtx's manual", manual), ("README.md", readme),
                       ("pith.sty header", header)):
        for ref in set(re.findall(r"\bdocs/[\w.*-]+\.(?:md|tex|pdf)\b", text)):
            ref = re.sub(r"[A-Z]{3,}", "*", ref)  # docs/badge-STATE.tex: any state
            if "*" in ref:
                assert list(pkg.glob(ref)), (name, ref)
            else:
                assert (pkg / ref).is_file(), (name, ref)
