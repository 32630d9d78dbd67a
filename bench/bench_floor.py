"""``pith-tex verify`` against its floor (issue 27, item 6).

The floor is ``bench/floor.py``: the same engines asked for the same renders, OCR calls and
poppler tools as verify asks for, with nothing decided.  Two ratios of CPU time (user +
system of every process, the engines' child and the poppler tools included), each
against the floor measured in the same interleaved series:

1. single shot: ``pith-tex verify PDF`` vs ``python floor.py PDF`` on the example-like
   one-page paper (badge, QR code, hyperref) and on a paper of about 40 pages (verify's
   cost must not grow with the page count).  Target: at most 1.5x.
2. one process, many PDFs: ``pith-tex verify DIR`` over ``PITH_BENCH_PDFS`` (default 200)
   distinct honest PDFs, each with its own record and number, vs ``python floor.py DIR``:
   CPU per PDF.  Target: at most 1.5x.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import benchlib as B
import recorded as R

N_PDFS = int(os.environ.get("PITH_BENCH_PDFS", "200"))
RUNS = int(os.environ.get("PITH_BENCH_RUNS", "11"))
DIR_RUNS = int(os.environ.get("PITH_BENCH_DIR_RUNS", "3"))
TARGET = 1.5
FLOOR = [sys.executable, str(Path(__file__).resolve().parent / "floor.py")]


def compiled_paper(tmp: Path, vectors, body: str = "Some text.", name: str = "paper") -> Path:
    """A one-page article with pith.sty's badge and QR code, linked through hyperref (as in
    most papers; without it pith.sty writes the links itself), compiled by pdflatex (*body*:
    the text after the title; lipsum's for the long paper)."""
    import texbuild
    from pith_tex.include.include import IncludeData, render

    v = next(v for v in vectors if v.get("canonical_record"))
    include = render(IncludeData(v["number"], v["year"], v["canonical_hash"],
                                 v["canonical_record"], "absent", None, None)).decode("ascii")
    source = ("\\documentclass{article}\n\\usepackage[qr]{pith}\n\\usepackage{hyperref}\n"
              "\\usepackage{lipsum}\n\\pithnumber{%s}\n"
              "\\title{A Paper}\\author{A. Author}\\date{}\n\\begin{document}\n"
              "\\maketitle\n%s\n\\end{document}\n" % (v["number"], body))
    b = texbuild.compile_tex(tmp / name, source, "pdflatex", include=include)
    if not b.ok:
        raise RuntimeError(b.describe())
    return b.pdf


def distinct_papers(out: Path, n: int) -> None:
    """*n* one-page papers with pith.sty's badge, each carrying its own genuine record
    (tests/support/archives.py builds them, as for the archive tests and bench_scale)."""
    import archives

    archives.distinct_pdfs(out, n, 0)


def _row(name: str, cpu: float, base: float, wall: float, base_wall: float,
         per: str = "") -> dict:
    return dict(name=name, value=B.ms(cpu), unit="ms" + per, baseline=B.ms(base),
                baseline_name="bench/floor.py (same renders, OCR and poppler tools; CPU)",
                target=f"<= {TARGET:g}x the floor", met=cpu <= TARGET * base,
                note=f"{cpu / base:.2f}x the floor (wall {B.ms(wall):.0f} ms vs "
                     f"{B.ms(base_wall):.0f} ms)")


def run():
    vectors = R.load_vectors()
    pt = B.pith_tex_cmd()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pith-bench-floor-") as tmp:
        tmp = Path(tmp)
        short = compiled_paper(tmp, vectors)
        long = compiled_paper(tmp, vectors, "\\lipsum[1-150]\\lipsum[1-110]", "long")
        for pdf, label in ((short, "a one-page paper"), (long, "a 40-page paper")):
            B.run_once(pt + ["verify", str(pdf)])
            (t_v, c_v), (t_f, c_f) = B.interleaved_stats(
                [pt + ["verify", str(pdf)], FLOOR + [str(pdf)]], n=RUNS)
            rows.append(_row(f"pith-tex verify PDF, {label}, CPU", c_v, c_f, t_v, t_f))

        pdfs = tmp / "pdfs"
        distinct_papers(pdfs, N_PDFS)
        B.run_once(pt + ["verify", str(pdfs)])  # all verify, and the page cache is warm
        (t_v, c_v), (t_f, c_f) = B.interleaved_stats(
            [pt + ["verify", str(pdfs)], FLOOR + [str(pdfs)]], n=DIR_RUNS, warmup=0)
        rows.append(_row(f"pith-tex verify DIR ({N_PDFS} distinct PDFs, one process), CPU "
                         f"per PDF", c_v / N_PDFS, c_f / N_PDFS, t_v / N_PDFS,
                         t_f / N_PDFS, per="/PDF"))
    return rows
