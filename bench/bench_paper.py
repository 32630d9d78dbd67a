"""What pith costs in a paper that compiles like real ones.

The one-page article of bench_compile says little about an author's compile: a paper is
mostly text, floats, mathematics, figures and a bibliography, which pith does not touch.
Real arXiv papers compile in 5-10 G instructions; this one is generated here (no
third-party text) to be one of them: ``article`` in ``twocolumn``, 10 pages, with
amsmath, microtype, TikZ figures (two line plots drawn point by point, a diagram, a bar
chart, a two-column heat map), natbib author-year citations read from a ``.bbl`` as
BibTeX writes it (40 entries), and hyperref; an abstract, eight sections of pseudo-Latin
filler from a fixed word list and a seeded generator, numbered equations, a table and
cross-references.  Variants, each compiled with the ``.aux`` of an earlier run in place
(as in an author's rerun):

* ``baseline``   the paper
* ``pith``       plus ``\\usepackage[qr]{pith}``, ``\\pithnumber`` and the verified include
                 (``docs/include-format.md``): badge, QR code, Info keys, record, XMP
* ``orcidlink``  plus ``orcidlink`` and an ORCID iD link after the author
* ``hyperxmp``   plus ``hyperxmp`` with the usual ``\\hypersetup`` keys

Measured by user-space instruction counts (``valgrind --tool=cachegrind``, deterministic to
about 1e-7; one run each), CPU-time medians when valgrind is missing.  Targets (issue 22):
pith with its include adds at most 1 % to the paper's compile, with ``qr`` at most 1.3 %;
orcidlink's and hyperxmp's cost on the same paper are printed beside pith's.

``PITH_BENCH_LATEX_DIR`` measures another pith.sty (see bench_compile).
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
TARGET_INCLUDE = 0.01   # pith with its include: added cost / the paper's compile
TARGET_QR = 0.013       # the same with option qr
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


def _figure_curves(rng: random.Random, n: int) -> str:
    """A line plot drawn point by point with TikZ: axes, ticks, three curves, a legend."""
    curves = []
    for c, colour in enumerate(("blue", "red!80!black", "green!50!black")):
        pts, y = [], 3.2 - 0.6 * c
        for i in range(60):
            y = max(0.1, y - rng.uniform(0.0, 0.09) + rng.uniform(-0.04, 0.04))
            pts.append("(%.3f,%.3f)" % (i * 6.5 / 59, y))
        curves.append("\\draw[%s,thick] plot coordinates {%s};\n"
                      "\\draw[%s,thick] (4.6,%.2f) -- (5.1,%.2f) node[right,black,font=\\scriptsize]"
                      " {run %d};" % (colour, " ".join(pts), colour, 3.4 - 0.3 * c,
                                      3.4 - 0.3 * c, c + 1))
    return (
        "\\begin{figure}[t]\\centering\n\\begin{tikzpicture}[x=1.05cm,y=1cm]\n"
        "\\draw[->] (0,0) -- (6.8,0) node[below left,font=\\scriptsize] {steps ($\\times 10^3$)};\n"
        "\\draw[->] (0,0) -- (0,3.8) node[above right,font=\\scriptsize] {loss};\n"
        "\\foreach \\x in {0,1,...,6} {\\draw (\\x,0) -- (\\x,-0.08) node[below,font=\\tiny] {\\x};"
        " \\draw[gray!30] (\\x,0) -- (\\x,3.6);}\n"
        "\\foreach \\y in {0,0.5,...,3.5} {\\draw (0,\\y) -- (-0.08,\\y) node[left,font=\\tiny]"
        " {\\pgfmathprintnumber{\\y}};}\n%s\n\\end{tikzpicture}\n"
        "\\caption{Training loss of three runs (Figure~\\ref{fig:%d}).}\\label{fig:%d}\n"
        "\\end{figure}" % ("\n".join(curves), n, n))


def _figure_blocks(n: int) -> str:
    """A model diagram: nodes, arrows, a fit-free background box."""
    return (
        "\\begin{figure}[t]\\centering\n"
        "\\begin{tikzpicture}[node distance=4mm and 6mm,font=\\footnotesize,\n"
        "  box/.style={draw,rounded corners,fill=blue!8,minimum width=14mm,minimum height=6mm},\n"
        "  >={Stealth[length=2mm]}]\n"
        "\\node[box] (in) {input};\n"
        "\\node[box,right=of in] (enc) {encoder};\n"
        "\\node[box,right=of enc] (dec) {decoder};\n"
        "\\node[box,below=of enc] (mem) {memory};\n"
        "\\node[box,below=of dec] (ck) {checkpoint};\n"
        "\\node[box,above=of dec] (out) {output};\n"
        "\\draw[->] (in) -- (enc); \\draw[->] (enc) -- (dec); \\draw[->] (dec) -- (out);\n"
        "\\draw[->] (enc) -- (mem); \\draw[->] (mem) -- (ck); \\draw[->,dashed] (ck) -- (dec);\n"
        "\\foreach \\i in {1,...,6} {\\node[circle,fill=red!40,inner sep=1.2pt]"
        " at ($(in.south)+(-0.5+0.2*\\i,-0.9)$) {};}\n"
        "\\end{tikzpicture}\n"
        "\\caption{The model (Figure~\\ref{fig:%d}).}\\label{fig:%d}\n\\end{figure}" % (n, n))


def _figure_heatmap(rng: random.Random, n: int) -> str:
    """A two-column heat map: 10 x 32 shaded cells, labels by \\foreach."""
    cells = "\n".join(
        "\\fill[blue!%d] (%d*0.5,%d*0.4) rectangle ++(0.48,0.38);" % (
            rng.randint(5, 95), x, y) for y in range(10) for x in range(32))
    return (
        "\\begin{figure*}[t]\\centering\n\\begin{tikzpicture}\n%s\n"
        "\\foreach \\x in {0,4,...,28} {\\node[below,font=\\tiny] at (\\x*0.5+0.25,0) {\\x};}\n"
        "\\foreach \\y in {0,...,9} {\\node[left,font=\\tiny] at (0,\\y*0.4+0.2) {layer \\y};}\n"
        "\\end{tikzpicture}\n"
        "\\caption{Gradient norms per layer and step (Figure~\\ref{fig:%d}).}\\label{fig:%d}\n"
        "\\end{figure*}" % (cells, n, n))


def _figure_bars(rng: random.Random, n: int) -> str:
    bars = "\n".join(
        "\\fill[%s] (%.2f,0) rectangle ++(0.3,%.2f);" % (
            ("blue!60", "orange!80")[i % 2], 0.2 + 0.45 * i, rng.uniform(0.5, 3.0))
        for i in range(14))
    return (
        "\\begin{figure}[t]\\centering\n\\begin{tikzpicture}\n%s\n"
        "\\draw (0,0) -- (6.6,0); \\draw[->] (0,0) -- (0,3.3);\n"
        "\\foreach \\i/\\t in {0/A,1/B,2/C,3/D,4/E,5/F,6/G} {\\node[below,font=\\scriptsize]"
        " at (0.55+0.9*\\i,0) {\\t};}\n\\end{tikzpicture}\n"
        "\\caption{Recovery time per method (Figure~\\ref{fig:%d}).}\\label{fig:%d}\n"
        "\\end{figure}" % (bars, n, n))


def _bbl(rng: random.Random, keys: list[str]) -> tuple[str, dict[str, str]]:
    """A natbib .bbl as plainnat writes it, and each key's author-year label."""
    items, labels = [], {}
    for n, key in enumerate(keys):
        a, b = rng.choice(_WORDS).capitalize(), rng.choice(_WORDS).capitalize()
        year = rng.randint(1990, 2025)
        labels[key] = "%s and %s" % (a, b)
        items.append(
            "\\bibitem[%s and %s(%d)]{%s}\n%s~%s and %s~%s.\n\\newblock %s.\n"
            "\\newblock \\emph{Journal of %s}, %d\\penalty0 (%d):\\penalty0 %d--%d, %d.\n"
            "\\newblock \\doi{10.5555/%s}.\n%s" % (
                a, b, year, key, rng.choice("ABCDEFGH"), a, rng.choice("JKLMNPRS"), b,
                _sentence(rng)[:-1], rng.choice(_WORDS).capitalize(), rng.randint(1, 40),
                rng.randint(1, 12), rng.randint(1, 400), rng.randint(401, 800), year, key,
                # a URL field, as plainnat writes it (typewriter type, like most papers'
                # references or code links: the badge's font is then already embedded)
                "\\newblock URL \\url{https://example.org/%s}.\n" % key if n % 4 == 0 else ""))
    head = ("\\begin{thebibliography}{%d}\n\\providecommand{\\natexlab}[1]{#1}\n"
            "\\providecommand{\\url}[1]{\\texttt{#1}}\n"
            "\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\n"
            "  \\providecommand{\\doi}[1]{doi: #1}\\else\n"
            "  \\providecommand{\\doi}{doi: \\begingroup \\urlstyle{rm}\\Url}\\fi\n\n" % len(keys))
    return head + "\n".join(items) + "\n\\end{thebibliography}\n", labels


def paper(preamble: str, author_extra: str = "") -> tuple[str, str]:
    """The paper's source and its .bbl; *preamble* goes after hyperref, *author_extra*
    after the author."""
    rng = random.Random(8)  # the same paper in every variant and every run
    cites = ["ref%02d" % i for i in range(1, 41)]
    bbl, _ = _bbl(random.Random(9), cites)
    body: list[str] = []
    fig = 0
    for s, title in enumerate(_SECTIONS, 1):
        body.append("\\section{%s}\\label{sec:%d}" % (title, s))
        for p in range(6):
            para = _paragraph(rng, cites)
            if p in (1, 5):  # author-year citations, as natbib papers write them
                para += " As \\citet{%s} show, %s (see also \\citealp{%s,%s})." % (
                    rng.choice(cites), _sentence(rng)[:-1].lower(), rng.choice(cites),
                    rng.choice(cites))
            body.append(para)
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
            if p == 3 and s in (1, 3, 4, 5, 6):
                fig += 1
                body.append({1: _figure_blocks(fig), 3: _figure_curves(rng, fig),
                             4: _figure_heatmap(rng, fig), 5: _figure_curves(rng, fig),
                             6: _figure_bars(rng, fig)}[s])
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
    tex = (
        "\\documentclass[10pt,twocolumn]{article}\n"
        "\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n\\usepackage{amsmath,amssymb}\n"
        "\\usepackage[margin=2cm]{geometry}\n\\usepackage{microtype}\n"
        "\\usepackage{graphicx,xcolor}\n\\usepackage{tikz}\n"
        "\\usetikzlibrary{arrows.meta,positioning,calc}\n"
        "\\usepackage[round]{natbib}\n\\usepackage{url}\n"
        "\\usepackage[colorlinks,allcolors=blue]{hyperref}\n"
        + preamble +
        "\\title{Recovering Long Training Runs: a Generated Benchmark Paper}\n"
        "\\author{A. Author%s \\and B. Author}\n\\date{3 September 2025}\n"
        "\\begin{document}\n\\maketitle\n"
        "\\begin{abstract}\n%s\n\\end{abstract}\n%s\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n" % (
            author_extra, _paragraph(rng, cites), "\n\n".join(body)))
    return tex, bbl


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
    # placement=margin: the stamp in page 1's margin, with its QR code (issue 29).
    ("pith, margin", PITH.replace("[qr]", "[qr,placement=margin]"), "", True),
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
            tex, bbl = paper(pre, author)
            (d / "main.tex").write_text(tex, encoding="ascii")
            (d / "main.bbl").write_text(bbl, encoding="ascii")  # as BibTeX would write it
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
    share_inc = cost["pith + include"] / base
    parts = ("loading it with a number and the metadata %+.3f %%, the badge %+.3f %%,"
             " the include %+.3f %%, the QR code %+.3f %%" % (
                 100 * cost["pith, hidden"] / base,
                 100 * (cost["pith, number only"] - cost["pith, hidden"]) / base,
                 100 * (cost["pith + include"] - cost["pith, number only"]) / base,
                 100 * (cost["pith"] - cost["pith + include"]) / base))
    paper = "pdflatex %d-page two-column paper (natbib, microtype, TikZ, hyperref)" % pages
    rows = [{
        "name": "%s, with pith + include (%s)" % (paper, key),
        "value": m["pith + include"][key] * scale, "unit": unit, "baseline": base * scale,
        "baseline_name": "the paper without pith",
        "target": "pith + include <= 1 % of the compile", "met": share_inc <= TARGET_INCLUDE,
        "note": "pith + include adds %+.3f %% (%s): %s" % (100 * share_inc, key, parts),
    }, {
        "name": "%s, with pith[qr] + include (%s)" % (paper, key),
        "value": m["pith"][key] * scale, "unit": unit, "baseline": base * scale,
        "baseline_name": "the paper without pith",
        "target": "pith[qr] + include <= 1.3 % of the compile", "met": share <= TARGET_QR,
        "note": "pith[qr] + include adds %+.3f %% (%s)" % (100 * share, key),
    }]
    for other in ("orcidlink", "hyperxmp"):
        times = cost[other] / cost["pith"] if cost["pith"] > 0 else float("inf")
        rows.append({
            "name": "added cost in the paper: pith[qr] vs %s (%s)" % (other, key),
            "value": cost["pith"] * scale, "unit": unit, "baseline": cost[other] * scale,
            "baseline_name": other,
            "note": "%s adds %+.3f %% of the paper, %.1fx pith[qr]'s cost" % (
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
    print("targets: pith + include <= %.1f %%, pith[qr] + include <= %.1f %%" % (
        100 * TARGET_INCLUDE, 100 * TARGET_QR))
    return 0


if __name__ == "__main__":
    sys.exit(main())
