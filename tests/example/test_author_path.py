"""An author's first five minutes, end to end, with pith-tex installed the way an author
installs it: a wheel built from this repository (not an editable install) in a fresh venv.

A paper with a citation, an ``\\input`` file, a figure and a file it never uses; ``fetch`` from the
example mirror writes pith.sty and the include beside it and says the title matches;
pdflatex compiles it with no TEXINPUTS; ``check`` fails on the missing .bbl; after BibTeX,
``check --tarball`` passes and the tarball holds exactly the upload and builds on its own
with a verified badge; another paper's ``\\title`` makes fetch fail (``FAIL title``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"  # the one record of the example mirror
TITLE = "FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs"


def _run(cmd: List[str], cwd: Path, env: Dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin directory of a fresh venv holding pith-tex from a wheel of this repository.

    The wheel is built from a copy of the sources (parallel test workers never share a
    build directory).  The venv reaches the dependencies (click, requests, pypdf, ...)
    through a .pth line naming this interpreter's site-packages: a plain path, so no
    editable install there is activated, and the venv's own pith_tex comes first."""
    for name in ("pdflatex", "bibtex"):
        assert shutil.which(name), f"{name} is not installed: run scripts/setup.sh"
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "LICENSE.LPPL"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "pyhelper", src / "pyhelper", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (src / "latex").mkdir()
    shutil.copy(ROOT / "latex" / "pith.sty", src / "latex" / "pith.sty")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    wheels = base / "wheels"
    r = _run([sys.executable, "-m", "pip", "wheel", "--no-deps",
              "-q", "-w", str(wheels), str(src)], base, env)
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = wheels.glob("pith_tex-*.whl")
    v = base / "venv"
    r = _run([sys.executable, "-m", "venv", str(v)], base, env)
    assert r.returncode == 0, r.stdout + r.stderr
    py = v / "bin" / "python"
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                base, env).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "outer-deps.pth").write_text("".join(d + "\n" for d in sorted(deps)))
    r = _run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
             base, env)
    assert r.returncode == 0, r.stdout + r.stderr
    return v / "bin"


@pytest.fixture
def env(venv: Path, tmp_path: Path) -> Dict[str, str]:
    """An author's shell: the venv's pith-tex first on PATH, no TEXINPUTS, no PYTHONPATH,
    a private cache."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("PYTHONPATH", "TEXINPUTS", "PITH_RESOLVER")}
    e["PATH"] = str(venv) + os.pathsep + e.get("PATH", "")
    e["PITH_TEX_CACHE_DIR"] = str(tmp_path / "cache")
    return e


MAIN = r"""\documentclass{article}
\usepackage{graphicx}
\usepackage{pith}
\pithnumber{%s}
\title{FlashRecovery: Fast and Low-Cost\\ Recovery from Failures
  for Large-Scale Training of LLMs\thanks{Stand-in for the test.}}
\author{A. Author}
\begin{document}
\maketitle
\input{section}
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""
SECTION = r"""\section{Introduction}
Checkpoints are old news~\cite{young}.
\includegraphics[width=2cm]{figure}
"""
BIB = r"""@article{young,
  author = {John W. Young}, title = {A first order approximation to the optimum
  checkpoint interval}, journal = {Communications of the ACM}, year = {1974},
  volume = {17}, number = {9}, pages = {530--531}}
"""


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    d = tmp_path / "paper"
    d.mkdir()
    (d / "main.tex").write_text(MAIN % N)
    (d / "section.tex").write_text(SECTION)
    (d / "refs.bib").write_text(BIB)
    (d / "notes.txt").write_text("not part of the paper\n")
    from pypdf import PdfWriter  # a figure: one blank PDF page

    w = PdfWriter()
    w.add_blank_page(width=72, height=72)
    with open(d / "figure.pdf", "wb") as f:
        w.write(f)
    return d


def test_installed_from_a_wheel(venv: Path, env: Dict[str, str], tmp_path: Path) -> None:
    r = _run([str(venv / "python"), "-c", "import pith_tex, os; d = os.path.dirname("
              "pith_tex.__file__); s = os.path.join(d, 'data', 'pith.sty'); "
              "print(d); print(os.path.islink(s), os.path.getsize(s))"], tmp_path, env)
    where, sty = r.stdout.splitlines()
    assert where.startswith(str(venv.parent)), where  # the wheel's copy, not the sources
    assert sty == "False %d" % (ROOT / "latex" / "pith.sty").stat().st_size


def test_fetch_compile_check_upload(venv: Path, env: Dict[str, str], paper: Path,
                                    tmp_path: Path) -> None:
    # 1. fetch: verified, the title matches, pith.sty and the include written beside main.tex
    r = _run(["pith-tex", "fetch", "--offline", "--resolver", str(MIRROR)], paper, env)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert any(ln.split()[:2] == ["OK", "title"] and TITLE in ln for ln in lines), r.stdout
    assert any(ln.split()[:2] == ["OK", "pith.sty"] and "wrote" in ln for ln in lines), r.stdout
    assert lines[-1] == "wrote pith-number.tex"
    assert (paper / "pith.sty").read_bytes() == (ROOT / "latex" / "pith.sty").read_bytes()
    assert "\\pithrecord{" in (paper / "pith-number.tex").read_text()

    # 2. pdflatex finds pith.sty with no TEXINPUTS
    r = _run(["pdflatex", "-interaction=nonstopmode", "main.tex"], paper, env)
    assert r.returncode == 0 and (paper / "main.pdf").exists(), r.stdout[-2000:]

    # 3. check: arXiv runs no BibTeX, so without main.bbl the paper is not ready
    r = _run(["pith-tex", "check", "--json"], paper, env)
    doc = json.loads(r.stdout)
    assert r.returncode == 1, r.stdout
    (cit,) = [c for c in doc["checks"] if c["name"] == "citations"]
    assert cit["status"] == "fail" and "arXiv does not run BibTeX" in cit["detail"]
    assert "main.bbl" in cit["detail"]
    assert not (tmp_path / "upload.tar.gz").exists()

    # 4. after BibTeX: ready, and the tarball holds exactly the upload
    r = _run(["bibtex", "main"], paper, env)
    assert r.returncode == 0 and (paper / "main.bbl").exists(), r.stdout
    tarball = tmp_path / "upload.tar.gz"
    r = _run(["pith-tex", "check", "--tarball", str(tarball)], paper, env)
    assert r.returncode == 0, r.stdout + r.stderr
    upload = {"main.tex", "section.tex", "figure.pdf", "main.bbl", "pith.sty",
              "pith-number.tex"}
    with tarfile.open(tarball) as tar:
        members = tar.getmembers()
        assert {m.name for m in members} == upload
        assert all(m.isreg() for m in members)
        fresh = tmp_path / "fresh"
        tar.extractall(fresh)
    assert r.stdout.splitlines()[-1].startswith("ready for arXiv (pdflatex): wrote")

    # 5. the tarball alone builds the paper, with its verified badge and its citation
    for _ in range(2):
        r = _run(["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main.tex"],
                 fresh, env)
        assert r.returncode == 0, r.stdout[-2000:]
    r = _run(["pith-tex", "verify", "main.pdf"], fresh, env)
    assert r.returncode == 0, r.stdout + r.stderr
    text = _run(["pdftotext", "main.pdf", "-"], fresh, env).stdout
    assert "pith:2025:" + N in text and "[1]" in text and "[?]" not in text


def test_another_papers_title_fails(venv: Path, env: Dict[str, str], paper: Path) -> None:
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("FlashRecovery: Fast and Low-Cost",
                                             "Slow and Costly"))
    r = _run(["pith-tex", "fetch", "--offline", "--resolver", str(MIRROR)], paper, env)
    assert r.returncode == 1, r.stdout + r.stderr  # the number is another paper's
    (line,) = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["title"]]
    assert line.split()[0] == "FAIL"
    assert TITLE in line and "Slow and Costly" in line
    assert "--accept-title" in r.stderr
    assert not (paper / "pith-number.tex").exists() and not (paper / "pith.sty").exists()


def test_title_warning_shows_the_title_as_typed(venv: Path, env: Dict[str, str],
                                                paper: Path) -> None:
    # The paper's \title is quoted as the author typed it: one backslash before \emph,
    # the accented letter as itself (not '\\emph', not '\xf6').
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("FlashRecovery: Fast and Low-Cost",
                                             "Schr\u00f6dinger's \\emph{Slow} and Costly"),
                    encoding="utf-8")
    r = _run(["pith-tex", "fetch", "--offline", "--resolver", str(MIRROR)], paper, env)
    assert r.returncode == 1, r.stdout + r.stderr
    (line,) = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["title"]]
    assert line.split()[0] == "FAIL"
    assert "'Schr\u00f6dinger's \\emph{Slow} and Costly Recovery" in line, line
    assert "'%s'" % TITLE in line, line
