"""What pith costs in a real paper: a 10-page two-column article with hyperref.

The one-page article of bench_compile says little about an author's compile: a paper is
mostly text, floats, mathematics and a bibliography, which pith does not touch.  This paper
is generated here (no third-party text): ``article`` in ``twocolumn`` with hyperref, an
abstract, eight sections of pseudo-Latin filler from a fixed word list and a seeded
generator, numbered equations, a table, cross-references and a ``thebibliography`` of 24
entries cited in the text.  Variants, each compiled with the ``.aux`` of an earlier run in
place (as in an author's rerun):

* ``baseline``   the paper with hyperref
* ``pith``       plus ``\\usepackage[qr]{pith}``, ``\\pithnumber`` and the verified include
                 (``docs/include-format.md``): badge, QR code, Info keys, record, XMP
* ``orcidlink``  plus ``orcidlink`` and an ORCID iD link after the author
* ``hyperxmp``   plus ``hyperxmp`` with the usual ``\\hypersetup`` keys

Measured by user-space instruction counts (``valgrind --tool=cachegrind``, deterministic to
about 1e-7; one run each), CPU-time medians when valgrind is missing.  Targets (issue 8):
pith adds at most 1 % to the paper's compile, and its added cost is more than 20x smaller
than orcidlink's and than hyperxmp's.

Run standalone: ``python bench/bench_paper.py [--runs N] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import benchlib as B
import bench_compile as C

NAME = "paper"
DEFAULT_RUNS = 3
TARGET_SHARE = 0.01     # pith's added cost / the paper's compile
TARGET_TIMES = 20.0     # orcidlink's and hyperxmp's added cost / pith's
PAGES = 10

_WORDS = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud "
    "exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure "
    "in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
    "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est "
    "laborum perspiciatis unde omnis iste natus error voluptatem accusantium doloremque "
    "laudantium totam rem aperiam eaque ipsa quae ab illo inventore veritatis quasi "
    "architecto beatae vitae dicta explicabo nemo ipsam quia voluptas aspernatur aut odit "
    "fugit consequuntur magni dolores eos ratione sequi nesciunt neque porro quisquam"
).split()
_SECTIONS = ("Introduction", "Related Work", "Model", "Method", "Analysis",
             "Experiments", "Discussion", "Conclusion")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 22))]
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), "$x_{%d}^2 + \\alpha$" % rng.randint(1, 9))
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _paragraph(rng: random.Random, cites: list[str]) -> str:
    out = [_sentence(rng) for _ in range(rng.randint(4, 8))]
    if rng.random() < 0.6:
        out[rng.randrange(len(out))] = out[-1][:-1] + " \\cite{%s}." % rng.choice(cites)
    return " ".join(out)


def paper(preamble: str, author_extra: str = "") -> str:
    """The paper's source; *preamble* goes after hyperref, *author_extra* after the author."""
    rng = random.Random(8)  # the same paper in every variant and every run
    cites = ["ref%02d" % i for i in range(1, 25)]
    body: list[str] = []
    for s, title in enumerate(_SECTIONS, 1):
        body.append("\\section{%s}\\label{sec:%d}" % (title, s))
        for p in range(8):
            body.append(_paragraph(rng, cites))
            if p == 2:
                body.append(
                    "\\begin{equation}\\label{eq:%d}\n"
                    "  \\mathcal{L}_{%d}(\\theta) = \\sum_{i=1}^{N} \\log p_\\theta(y_i \\mid x_i)"
                    " - \\frac{\\lambda}{2}\\lVert\\theta\\rVert_2^2\n"
                    "\\end{equation}\n"
                    "Equation~\\eqref{eq:%d} and Section~\\ref{sec:%d} %s" % (
                        s, s, s, max(1, s - 1), _sentence(rng)))
            if p == 4 and s in (3, 6):
                body.append(
                    "\\begin{align}\n"
                    "  h_t &= \\sigma(W_h x_t + U_h h_{t-1} + b_h) \\label{eq:h%d}\\\\\n"
                    "  y_t &= \\operatorname{softmax}(V h_t + c)\n"
                    "\\end{align}" % s)
        if s == 6:
            rows = "\n".join(
                "%s & %.1f & %.1f & %.2f \\\\" % (
                    rng.choice(_WORDS).capitalize(), rng.uniform(50, 99), rng.uniform(50, 99),
                    rng.uniform(0.1, 3)) for _ in range(8))
            body.append(
                "\\begin{table}[t]\\centering\\caption{Results (Section~\\ref{sec:6}).}"
                "\\label{tab:results}\n\\begin{tabular}{lrrr}\\hline\n"
                "Method & Acc. & F1 & Time (h) \\\\\\hline\n%s\n\\hline\\end{tabular}\n"
                "\\end{table}\nTable~\\ref{tab:results} %s" % (rows, _sentence(rng)))
    bib = "\n".join(
        "\\bibitem{%s} A.~%s and B.~%s. \\newblock %s. \\newblock \\emph{Journal of %s}, "
        "%d(%d):%d--%d, %d. \\url{https://example.org/%s}" % (
            key, rng.choice(_WORDS).capitalize(), rng.choice(_WORDS).capitalize(),
            _sentence(rng)[:-1], rng.choice(_WORDS).capitalize(), rng.randint(1, 40),
            rng.randint(1, 12), rng.randint(1, 400), rng.randint(401, 800),
            rng.randint(1990, 2025), key)
        for key in cites)
    return (
        "\\documentclass[10pt,twocolumn]{article}\n"
        "\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n\\usepackage{amsmath,amssymb}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
        "\\usepackage[colorlinks,allcolors=blue]{hyperref}\n"
        + preamble +
        "\\title{Recovering Long Training Runs: a Generated Benchmark Paper}\n"
        "\\author{A. Author%s \\and B. Author}\n\\date{3 September 2025}\n"
        "\\begin{document}\n\\maketitle\n"
        "\\begin{abstract}\n%s\n\\end{abstract}\n%s\n"
        "\\begin{thebibliography}{99}\n%s\n\\end{thebibliography}\n\\end{document}\n" % (
            author_extra, _paragraph(rng, cites), "\n\n".join(body), bib))


PITH = "\\usepackage[qr]{pith}\n\\pithnumber{%s}\n" % C.NUMBER
VARIANTS = [
    # (name, preamble, after the author, include file?)
    ("baseline", "", "", False),
    ("pith", PITH, "", True),
    # Where pith's cost goes (not judged): loaded with a number and nothing shown (the
    # metadata only), then the badge too, then with the include.
    ("pith, hidden", PITH.replace("[qr]", "[hide]"), "", False),
    ("pith, number only", PITH.replace("[qr]", ""), "", False),
    ("pith + include", PITH.replace("[qr]", ""), "", True),
    ("orcidlink", "\\usepackage{orcidlink}\n", "\\,\\orcidlink{0000-0002-1825-0097}", False),
    ("hyperxmp", "\\usepackage{hyperxmp}\n"
     "\\hypersetup{pdfauthor={A. Author},pdfcopyright={CC-BY 4.0},"
     "pdfidentifier={pith:2025:%s}}\n" % C.NUMBER, "", False),
]


def _pages(pdf: Path) -> int:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return int(next(ln.split()[1] for ln in out.splitlines() if ln.startswith("Pages:")))


def measure(runs: int = DEFAULT_RUNS, instructions: bool = True,
            keep: Path | None = None) -> list[dict]:
    if not B.have("pdflatex"):
        raise RuntimeError("pdflatex not found")
    env = C._env()
    n = len(VARIANTS)
    with tempfile.TemporaryDirectory(prefix="pith-bench-paper-") as tmp:
        root = keep or Path(tmp)
        dirs = []
        for i, (name, pre, author, include) in enumerate(VARIANTS):
            d = root / f"{i}-{name}"
            d.mkdir(parents=True, exist_ok=True)
            (d / "main.tex").write_text(paper(pre, author), encoding="ascii")
            if include:
                (d / "pith-number.tex").write_text(C.INCLUDE, encoding="ascii")
            dirs.append(d)
        for d in dirs:  # twice: the .aux (references, citations) is in place from then on
            C._compile(d, env)
            C._compile(d, env)
        pages = [_pages(d / "main.pdf") for d in dirs]
        log = dirs[1].joinpath("main.log").read_text(errors="replace")
        if "No QR code" in log or "Package pith Warning" in log:
            raise RuntimeError("the pith variant is not the verified badge with its QR code:"
                               " see %s" % dirs[1])
        cpu: list[list[float]] = [[] for _ in range(n)]
        for r in range(runs):
            for i in [(r + k) % n for k in range(n)]:
                _, u, s = C._compile(dirs[i], env)
                cpu[i].append(u + s)
        instrs = [C._instructions(d, env) if instructions else None for d in dirs]
    return [{"name": VARIANTS[i][0], "cpu": statistics.median(cpu[i]),
             "instructions": instrs[i], "pages": pages[i], "runs": runs} for i in range(n)]


def judge(m: dict[str, dict]) -> tuple[str, dict[str, float]]:
    """The measure used (instructions when every variant has them) and each variant's added
    cost over the baseline, in that measure."""
    key = "instructions" if all(r["instructions"] for r in m.values()) else "cpu"
    base = m["baseline"][key]
    return key, {name: r[key] - base for name, r in m.items() if name != "baseline"}


def run(runs: int = DEFAULT_RUNS, instructions: bool = True) -> list[dict]:
    """Rows for bench/run.py (see its protocol)."""
    m = {r["name"]: r for r in measure(runs, instructions)}
    key, cost = judge(m)
    unit, scale = ("Minstr", 1e-6) if key == "instructions" else ("s", 1.0)
    base = m["baseline"][key]
    pages = m["baseline"]["pages"]
    share = cost["pith"] / base
    rows = [{
        "name": "pdflatex %d-page two-column paper + hyperref, with pith + include + QR (%s)"
                % (pages, key),
        "value": m["pith"][key] * scale, "unit": unit, "baseline": base * scale,
        "baseline_name": "the paper without pith",
        "target": "pith costs <= 1 % of the compile", "met": share <= TARGET_SHARE,
        "note": "pith adds %+.3f %% (%s): loading it with a number and the metadata %+.3f %%,"
                " the badge %+.3f %%, the include %+.3f %%, the QR code %+.3f %%" % (
                    100 * share, key, 100 * cost["pith, hidden"] / base,
                    100 * (cost["pith, number only"] - cost["pith, hidden"]) / base,
                    100 * (cost["pith + include"] - cost["pith, number only"]) / base,
                    100 * (cost["pith"] - cost["pith + include"]) / base),
    }]
    for other in ("orcidlink", "hyperxmp"):
        times = cost[other] / cost["pith"] if cost["pith"] > 0 else float("inf")
        rows.append({
            "name": "added cost in the paper: pith vs %s (%s)" % (other, key),
            "value": cost["pith"] * scale, "unit": unit, "baseline": cost[other] * scale,
            "baseline_name": other,
            "target": "pith > %gx cheaper" % TARGET_TIMES, "met": times > TARGET_TIMES,
            "note": "%s adds %+.3f %% of the paper, %.1fx pith's cost" % (
                other, 100 * cost[other] / base, times),
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    ap.add_argument("--no-valgrind", action="store_true")
    ap.add_argument("--keep", type=Path, help="build the variants here and keep them")
    args = ap.parse_args(argv)
    m = {r["name"]: r for r in measure(args.runs, not args.no_valgrind, args.keep)}
    key, cost = judge(m)
    for name, r in m.items():
        print("%-18s %2d pages  cpu %.3f s  instr %s  added %s" % (
            name, r["pages"], r["cpu"],
            "-" if r["instructions"] is None else "%.1fM" % (r["instructions"] / 1e6),
            "-" if name == "baseline" else "%+.3f %%" % (100 * cost[name] / m["baseline"][key])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
