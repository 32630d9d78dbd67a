"""What ``pith-tex check`` costs an author: a realistic paper, against their own build.

The paper is generated here (no third-party text), from bench_paper's generator: a
10-page two-column ``article`` with hyperref, equations, a table and cross-references,
plus what real papers add and the older bench paper lacks: three TikZ figures (TikZ is
loaded in the preamble, as most papers with one do) and a BibTeX bibliography through a
``.bbl`` (``\\bibliography{refs}``; arXiv runs no BibTeX).  It carries the example's
verified Pith Number (``pith-tex fetch`` from examples/mirror), so every check of
``check`` runs on it, LaTeXML included.

Measured (wall time, interleaved medians):

* ``baseline``       the author's build: ``pdflatex`` twice on the paper
* ``check``          ``pith-tex check DIR`` (the default: the compile as arXiv does it,
                     the PDF verified, LaTeXML on the reduced document)
* ``check --html full``  the whole paper through LaTeXML, for information

Target (issue 21): ``check`` at most 3x the baseline.

Run standalone: ``python bench/bench_check.py [--runs N] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import benchlib as B
import bench_paper as P

NAME = "check"
DEFAULT_RUNS = 5
TARGET = 3.0
NUMBER = "O6TNNA4XHFGPSALGBT7UWDA2Z3"  # examples/mirror's record
TITLE = ("FlashRecovery: Fast and Low-Cost Recovery from Failures\n"
         "  for Large-Scale Training of LLMs")

def build(d: Path) -> None:
    """The paper in *d*: main.tex, main.bbl, pith.sty and the include."""
    tex, bbl = P.paper("\\usepackage[qr]{pith}\n\\pithnumber{%s}\n" % NUMBER)
    tex = tex.replace("Recovering Long Training Runs: a Generated Benchmark Paper", TITLE)
    (d / "main.tex").write_text(tex, encoding="utf-8")
    (d / "main.bbl").write_text(bbl, encoding="utf-8")
    shutil.copy(B.ROOT / "latex" / "pith.sty", d / "pith.sty")
    B.run_once(B.pith_tex_cmd() + ["fetch", "--offline", "--resolver",
                                   str(B.ROOT / "examples" / "mirror"), NUMBER,
                                   "-o", str(d / "pith-number.tex")])


def _pdflatex_twice(d: Path) -> str:
    """The author's build, in a fresh copy each time (no .aux of an earlier run)."""
    return ("set -e; w=$(mktemp -d); cp %s/main.tex %s/main.bbl %s/pith.sty "
            "%s/pith-number.tex \"$w\"; cd \"$w\"; "
            "pdflatex -interaction=nonstopmode main.tex >/dev/null; "
            "pdflatex -interaction=nonstopmode main.tex >/dev/null; cd /; rm -rf \"$w\""
            % ((d,) * 4))


def measure(runs: int = DEFAULT_RUNS, keep: Path | None = None,
            full: bool = True) -> list[dict]:
    for tool in ("pdflatex", "latexmlc"):
        if not B.have(tool):
            raise RuntimeError("%s not found" % tool)
    with tempfile.TemporaryDirectory(prefix="pith-bench-check-") as tmp:
        d = (keep or Path(tmp)) / "paper"
        d.mkdir(parents=True, exist_ok=True)
        build(d)
        check = B.pith_tex_cmd() + ["check", str(d)]
        p = B.run_once(check)
        cmds = [_pdflatex_twice(d), check]
        names = ["pdflatex x2", "pith-tex check DIR"]
        if full:
            cmds.append(check + ["--html", "full"])
            names.append("pith-tex check DIR --html full")
        walls = B.interleaved_medians(cmds, n=runs, warmup=1)
        steps = [ln for ln in p.stderr.splitlines() if ln.startswith("... ")]
    base = walls[0]
    rows = []
    for name, wall in zip(names[1:], walls[1:]):
        row = dict(name=name + " (10-page two-column paper, TikZ, .bbl)", value=wall,
                   unit="s", baseline=base, baseline_name="pdflatex x2, the author's build")
        if name == "pith-tex check DIR":
            row.update(target="<= %gx the baseline" % TARGET, met=wall <= TARGET * base,
                       note="%.2fx the author's build; steps: %s" % (
                           wall / base, " | ".join(steps)))
        else:
            row["note"] = "%.2fx the author's build (not judged)" % (wall / base)
        rows.append(row)
    return rows


def run() -> list[dict]:
    return measure(int(os.environ.get("PITH_BENCH_RUNS", DEFAULT_RUNS)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--no-full", action="store_true")
    a = ap.parse_args(argv)
    for r in measure(a.runs, a.keep, not a.no_full):
        print("%-70s %7.2f s   baseline %6.2f s   %.2fx   %s" % (
            r["name"], r["value"], r["baseline"], r["value"] / r["baseline"],
            r.get("note", "")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
