"""Compile LaTeX documents that use pith.sty and read the PDFs back.

Every document is built in its own directory with a private copy of
``latex/pith.sty`` beside it, the way arXiv builds an upload.  Tools are
located up front and a missing one is an error, never a skip: a LaTeX suite
that silently skips on a machine without TeX proves nothing.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from pathlib import Path

from contract import readme_include

ROOT = Path(__file__).resolve().parents[2]
LATEX_DIR = ROOT / "latex"
STY = LATEX_DIR / "pith.sty"

NUM = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
URL = f"https://pith.science/pith/{NUM}"
YEAR = "2025"
SHA = "77a6d68397394cf901660cff4b0c1acee4353488d83c25f073b40c97fa194f23"


# The README's include: the contract with the Python side.
README_INCLUDE = readme_include()

ROUTES = ("pdflatex", "xelatex", "lualatex", "dvips")
ARXIV_STAMP_X = 32.0  # right edge of arXiv's page-1 stamp band, in pt

_TOOLS = {
    "pdflatex": ["pdflatex"],
    "xelatex": ["xelatex"],
    "lualatex": ["lualatex"],
    "dvips": ["latex", "dvips", "ps2pdf"],
}
READ_TOOLS = ["pdfinfo", "pdftotext", "l3build"]


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


def require_all() -> None:
    for names in _TOOLS.values():
        for n in names:
            tool(n)
    for n in READ_TOOLS:
        tool(n)


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
) -> Build:
    """Write ``source`` as main.tex (+ include) into workdir and build it."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(STY, workdir / "pith.sty")
    (workdir / f"{jobname}.tex").write_text(source, encoding="utf-8")
    if include is not None:
        (workdir / include_name).write_text(include, encoding="ascii")
    engine = {"pdflatex": "pdflatex", "xelatex": "xelatex",
              "lualatex": "lualatex", "dvips": "latex"}[route]
    cmd = [tool(engine), "-no-shell-escape", "-interaction=nonstopmode",
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


# --------------------------------------------------------------------------
# Reading PDFs back.

def info(pdf: Path) -> dict[str, str]:
    """Document Info dictionary as pypdf decodes it (keys without '/')."""
    import pypdf

    meta = pypdf.PdfReader(str(pdf)).metadata or {}
    return {k.lstrip("/"): str(v) for k, v in meta.items()}


def pdfinfo_custom(pdf: Path) -> dict[str, str]:
    """``pdfinfo -custom``: 'Key:   value' lines (poppler 22 aligns values
    after the colon; long keys leave no space at all)."""
    p = subprocess.run([tool("pdfinfo"), "-custom", str(pdf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^([A-Za-z0-9_.]+):\s*(.*)$", line)
        if m:
            res[m.group(1)] = m.group(2).strip()
    return res


def urls(pdf: Path) -> list[tuple[int, str]]:
    """``pdfinfo -url``: header 'Page  Type          URL', then rows
    '   1  Annotation    https://...'."""
    p = subprocess.run([tool("pdfinfo"), "-url", str(pdf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    res = []
    for line in p.stdout.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            res.append((int(parts[0]), parts[2]))
    return res


def text(pdf: Path, page: int = 1) -> str:
    p = subprocess.run([tool("pdftotext"), "-f", str(page), "-l", str(page),
                        str(pdf), "-"], stdout=subprocess.PIPE, text=True,
                       errors="replace")
    return p.stdout


def words(pdf: Path, page: int = 1) -> list[tuple[str, float, float, float, float]]:
    """Words with their boxes (xMin, yMin, xMax, yMax in pt, y from top)."""
    p = subprocess.run([tool("pdftotext"), "-bbox", "-f", str(page), "-l",
                        str(page), str(pdf), "-"], stdout=subprocess.PIPE,
                       text=True, errors="replace")
    res = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                         r'yMax="([\d.]+)">([^<]*)</word>', p.stdout):
        res.append((m.group(5), float(m.group(1)), float(m.group(2)),
                    float(m.group(3)), float(m.group(4))))
    return res


def link_annots(pdf: Path, page: int = 1) -> list[tuple[str, list[float]]]:
    """(URI, Rect) of every URI link annotation on a page, via pypdf."""
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    pg = reader.pages[page - 1]
    res = []
    for a in pg.get("/Annots") or []:
        a = a.get_object()
        if a.get("/Subtype") != "/Link":
            continue
        act = a.get("/A")
        act = act.get_object() if act is not None else {}
        uri = act.get("/URI")
        if uri is None:
            continue
        res.append((str(uri), [float(x) for x in a["/Rect"]]))
    return res


def mediabox(pdf: Path, page: int = 1) -> list[float]:
    import pypdf

    return [float(x) for x in pypdf.PdfReader(str(pdf)).pages[page - 1].mediabox]


def xmp(pdf: Path) -> str:
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    md = reader.trailer["/Root"].get_object().get("/Metadata")
    if md is None:
        return ""
    return md.get_object().get_data().decode("utf-8", "replace")
