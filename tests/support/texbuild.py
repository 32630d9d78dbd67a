"""Compile a LaTeX document with pith.sty: the one build helper of every test suite.

Every document is built in its own directory with a private copy of ``latex/pith.sty``
beside it, the way arXiv builds an upload; ``TEXINPUTS`` is dropped so that no stray
pith.sty from elsewhere can be picked up.  Tools are located up front and a missing one
is an error, never a skip.  ``tests/latex/texrun.py`` re-exports these names.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LATEX_DIR = ROOT / "latex"
STY = LATEX_DIR / "pith.sty"


class ToolMissing(RuntimeError):
    pass


def tool(name: str) -> str:
    """Absolute path of a required program; raises if it is not installed."""
    path = shutil.which(name)
    if path is None:
        raise ToolMissing(
            f"required program {name!r} not found on PATH: install TeX Live "
            f"(scripts/setup.sh) -- the LaTeX tests refuse to skip"
        )
    return path



@dataclasses.dataclass
class Build:
    dir: Path
    pdf: Path
    log: str
    returncode: int
    output: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.pdf.exists()

    def describe(self) -> str:
        tail = "\n".join(self.log.splitlines()[-60:])
        return f"build in {self.dir} exit {self.returncode}\n--- output ---\n{self.output[-3000:]}\n--- log tail ---\n{tail}"


_RELEASE: list[int] = []


def texlive_release() -> int:
    """The TeX Live release of the installed TeX, from ``pdftex --version``
    ("pdfTeX 3.141592653-2.6-1.40.24 (TeX Live 2022/Debian)")."""
    if not _RELEASE:
        out = subprocess.run([tool("pdftex"), "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
        m = re.search(r"TeX Live (\d{4})", out)
        if m is None:
            raise ToolMissing(f"cannot tell the TeX Live release from: {out[:200]!r}")
        _RELEASE.append(int(m.group(1)))
    return _RELEASE[0]


def first_error(log: str) -> str:
    """TeX's first error line in *log* ("! ..."), or the last line when there is none."""
    for line in log.splitlines():
        if line.startswith("! "):
            return line[2:].strip()
    lines = [ln for ln in log.splitlines() if ln.strip()]
    return lines[-1] if lines else "no log"


def _run(cmd: list[str], cwd: Path, timeout: int = 240) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    # Only the document directory and the installed TeX tree: no stray
    # pith.sty from elsewhere can be picked up.
    env.pop("TEXINPUTS", None)
    env["max_print_line"] = "10000"
    env["SOURCE_DATE_EPOCH"] = "1767225600"
    return subprocess.run(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, text=True, errors="replace", timeout=timeout,
    )


_RERUN = re.compile(r"Rerun to get|Label\(s\) may have changed|rerunfilecheck Warning")


def compile_tex(
    workdir: Path,
    source: str,
    route: str = "pdflatex",
    include: str | None = None,
    include_name: str = "pith-number.tex",
    max_runs: int = 2,
    jobname: str = "main",
    shell_escape: bool = False,
) -> Build:
    """Write ``source`` as main.tex (+ include) into workdir and build it.

    ``shell_escape`` runs TeX with ``-shell-escape`` (arXiv never does; the
    tests that prove the include is never executed need it on)."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(STY, workdir / "pith.sty")
    (workdir / f"{jobname}.tex").write_text(source, encoding="utf-8")
    if include is not None:
        (workdir / include_name).write_text(include, encoding="ascii")
    engine = {"pdflatex": "pdflatex", "xelatex": "xelatex",
              "lualatex": "lualatex", "dvips": "latex"}[route]
    cmd = [tool(engine), "-shell-escape" if shell_escape else "-no-shell-escape",
           "-interaction=nonstopmode",
           "-halt-on-error", f"{jobname}.tex"]
    out = ""
    rc = 0
    log = ""
    for _ in range(max_runs):
        p = _run(cmd, workdir)
        out += p.stdout
        rc = p.returncode
        logf = workdir / f"{jobname}.log"
        log = logf.read_text(encoding="latin-1") if logf.exists() else ""
        if rc != 0 or not _RERUN.search(log):
            break
    pdf = workdir / f"{jobname}.pdf"
    if route == "dvips" and rc == 0:
        # arXiv's exact dvips call, then Ghostscript's ps2pdf.
        p = _run([tool("dvips"), "-R2", "-q", "-z", f"{jobname}.dvi",
                  "-o", f"{jobname}.ps"], workdir)
        out += p.stdout
        rc = p.returncode
        if rc == 0:
            p = _run([tool("ps2pdf"), f"{jobname}.ps", f"{jobname}.pdf"], workdir)
            out += p.stdout
            rc = p.returncode
    return Build(workdir, pdf, log, rc, out)
