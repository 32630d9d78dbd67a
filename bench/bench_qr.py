"""What the QR code costs: compile time over the badge alone, against the LaTeX ``qrcode``
package drawing the same URL, and the bytes it adds to the PDF.

Variants, all the one-page article of bench_compile with the README's include:

* ``badge``       ``\\usepackage{pith}``: the badge, no QR code (the baseline)
* ``badge+qr``    ``\\usepackage[qr]{pith}``: the modules come from the include; pith.sty
                  only draws rules
* ``qrcode pkg``  the badge plus ``\\qrcode[level=M]{URL}`` of the ``qrcode`` package, which
                  computes the symbol in TeX.  It caches the symbol in the ``.aux``, so it
                  is measured twice: ``fresh`` (no ``.aux``: the first compile of a paper) and
                  ``cached`` (a rerun).

Targets (issue 4): the QR code costs at most 5 % of compile time over the badge, the
``qrcode`` package's cost over the badge is at least 10x pith's, and the QR code adds at
most 10 KB to the PDF.  Time is judged on instruction counts (valgrind, deterministic;
CPU-time medians when valgrind is missing), as in bench_compile.

Run standalone: ``python bench/bench_qr.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import bench_compile as C

NAME = "qr"
DEFAULT_RUNS = 9
URL = "HTTPS://PITH.SCIENCE/pith/" + C.NUMBER  # what pith's code encodes (docs/qrtex.md)

PITH = "\\usepackage{pith}\n\\pithnumber{%s}\n" % C.NUMBER
VARIANTS = [
    # (name, preamble, extra after \maketitle, keep .aux between runs)
    ("badge", PITH, "", True),
    ("badge+qr", PITH.replace("{pith}", "[qr]{pith}"), "", True),
    ("qrcode pkg, fresh", PITH + "\\usepackage{qrcode}\n", "\\qrcode[level=M]{%s}\n" % URL,
     False),
    ("qrcode pkg, cached", PITH + "\\usepackage{qrcode}\n", "\\qrcode[level=M]{%s}\n" % URL,
     True),
]


def _source(preamble: str, extra: str) -> str:
    return C._doc(preamble).replace("\\maketitle\n", "\\maketitle\n" + extra, 1)


def _prepare(d: Path, keep_aux: bool) -> None:
    if not keep_aux:
        for f in d.glob("main.*"):
            if f.suffix != ".tex":
                f.unlink()


def measure(runs: int = DEFAULT_RUNS, instructions: bool = True) -> list[dict]:
    env = C._env()
    n = len(VARIANTS)
    with tempfile.TemporaryDirectory(prefix="pith-bench-qr-") as tmp:
        dirs = []
        for i, (_name, pre, extra, _) in enumerate(VARIANTS):
            d = Path(tmp) / str(i)
            d.mkdir()
            (d / "main.tex").write_text(_source(pre, extra), encoding="ascii")
            (d / "pith-number.tex").write_text(C.INCLUDE, encoding="ascii")
            dirs.append(d)
        for d in dirs:  # warm-up, twice so that the .aux exists where it is kept
            C._compile(d, env)
            C._compile(d, env)
        sizes = [(d / "main.pdf").stat().st_size for d in dirs]
        cpu: list[list[float]] = [[] for _ in range(n)]
        for r in range(runs):
            for i in [(r + k) % n for k in range(n)]:
                _prepare(dirs[i], VARIANTS[i][3])
                _, u, s = C._compile(dirs[i], env)
                cpu[i].append(u + s)
        instrs: list[int | None] = []
        for i, d in enumerate(dirs):
            _prepare(d, VARIANTS[i][3])
            instrs.append(C._instructions(d, env) if instructions else None)
    med = [statistics.median(c) for c in cpu]
    return [{"name": VARIANTS[i][0], "cpu": med[i], "instructions": instrs[i],
             "pdf_bytes": sizes[i], "runs": runs} for i in range(n)]


def run(runs: int = DEFAULT_RUNS, instructions: bool = True) -> list[dict]:
    """Rows for bench/run.py (see its protocol)."""
    m = {r["name"]: r for r in measure(runs, instructions)}
    badge, qr = m["badge"], m["badge+qr"]
    by_instr = all(r["instructions"] for r in m.values())
    key, unit, scale = (("instructions", "Minstr", 1e-6) if by_instr else ("cpu", "s", 1.0))
    base = badge[key]
    qr_cost = qr[key] - base
    rows = [{
        "name": "pdflatex one-page, badge + QR code (%s)" % key,
        "value": qr[key] * scale, "unit": unit, "baseline": base * scale,
        "baseline_name": "badge without QR code",
        "target": "QR code costs <= 5 %", "met": qr[key] <= 1.05 * base,
        "note": "QR code: %+.2f %% %s" % (100 * qr_cost / base, key),
    }]
    for name in ("qrcode pkg, fresh", "qrcode pkg, cached"):
        pkg_cost = m[name][key] - base
        times = pkg_cost / qr_cost if qr_cost > 0 else float("inf")
        rows.append({
            "name": "added cost of the QR code, pith vs %s (%s)" % (name, key),
            "value": qr_cost * scale, "unit": unit, "baseline": pkg_cost * scale,
            "baseline_name": "LaTeX qrcode package",
            "target": "qrcode package costs >= 10x pith's QR code", "met": times >= 10,
            "note": "%s: %.0fx pith's added cost" % (name, times),
        })
    growth = qr["pdf_bytes"] - badge["pdf_bytes"]
    rows.append({
        "name": "PDF bytes added by the QR code",
        "value": float(qr["pdf_bytes"]), "unit": "B", "baseline": float(badge["pdf_bytes"]),
        "baseline_name": "badge without QR code",
        "target": "<= 10 KB more", "met": growth <= 10 * 1024,
        "note": "+%d bytes (qrcode package: %+d)" % (
            growth, m["qrcode pkg, cached"]["pdf_bytes"] - badge["pdf_bytes"]),
    })
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    ap.add_argument("--no-valgrind", action="store_true")
    args = ap.parse_args(argv)
    for r in measure(args.runs, not args.no_valgrind):
        print("%-20s cpu %.3f s  instr %s  pdf %d B" % (
            r["name"], r["cpu"], "-" if r["instructions"] is None else
            "%.1fM" % (r["instructions"] / 1e6), r["pdf_bytes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
