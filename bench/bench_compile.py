"""Compile-time cost of pith.sty, compared with orcidlink and hyperxmp.

Each variant is the same one-page article; only the preamble differs.  Every
variant is compiled with pdflatex (no shell escape) several times, the
variants interleaved round by round so that machine load drifts hit all of them
alike, and the median is taken.  Each package is compared with the baseline of
its own group:

* group ``plain``:    article            vs article + pith
* group ``hyperref``: article + hyperref vs article + hyperref + pith / pith with
  a verified include / orcidlink / hyperxmp  (hyperref in every variant, since
  orcidlink and hyperxmp load or need it anyway: the comparison stays fair)

Three measures per variant:

* CPU time (user + system of the pdflatex child, from ``resource.getrusage``),
  median over the runs: ``seconds`` / ``baseline`` / ``ratio``.  Less disturbed
  than wall time by other jobs on a shared machine, but on a small VM single
  runs still scatter by +-15 %, so a 3 % effect needs many runs to show.
* wall time, median: ``wall_*``.
* instructions executed (user space, counted by ``valgrind --tool=cachegrind``,
  one run each, when valgrind is installed): ``instructions`` / ``instr_ratio``.
  Deterministic to about 1e-7, so this is the measure that can resolve 3 %.
  It does not see kernel time (exec, mapping the format, opening files),
  about a third of a pdflatex run here, which a package barely adds to; so
  ``instr_ratio`` overstates the cost in time.
* ``est_ratio`` = 1 + (instr_ratio - 1) * user share of the baseline's CPU
  time: the time ratio the instruction count predicts.  The target is judged
  on it (on the CPU-time ratio when valgrind is missing).

The ratio target for pith is <= 1.03.

The uninstalled ``pith.sty`` is found by pointing ``TEXINPUTS`` at the
``latex/`` directory next to this file's ``bench/`` directory (or at
``$PITH_BENCH_LATEX_DIR``, to measure a candidate pith.sty).

Run standalone: ``python bench/bench_compile.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchlib as B
from contract import readme_include  # tests/support, on sys.path through benchlib

NAME = "compile"
TARGET_RATIO = 1.03
DEFAULT_RUNS = 15

# PITH_BENCH_LATEX_DIR: measure another pith.sty (e.g. a candidate change).
LATEX_DIR = Path(
    os.environ.get("PITH_BENCH_LATEX_DIR")
    or B.ROOT / "latex"
).resolve()

NUMBER = "O6TNNA4XHFGPSALGBT7UWDA2Z3"

# The README's example include, the contract pith-tex writes (tests/support/contract.py).
INCLUDE = readme_include()

BODY = r"""
\title{FlashRecovery: a one-page benchmark article}
\author{A. Author%s}
\date{3 September 2025}
\begin{document}
\maketitle
\section{Introduction}
Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis
nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.
Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu
fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in
culpa qui officia deserunt mollit anim id est laborum.
\begin{equation}
  E = mc^2 \qquad \int_0^1 x^2\,dx = \frac13
\end{equation}
\section{Conclusion}
Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium
doloremque laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore
veritatis et quasi architecto beatae vitae dicta sunt explicabo.
\end{document}
"""


def _doc(preamble: str, author_extra: str = "") -> str:
    return "\\documentclass{article}\n" + preamble + BODY % author_extra


# (name, group, tex source, needs include file?)
VARIANTS: list[tuple[str, str, str, bool]] = [
    ("baseline", "plain", _doc(""), False),
    ("pith", "plain", _doc("\\usepackage{pith}\n\\pithnumber{%s}\n" % NUMBER), False),
    ("baseline", "hyperref", _doc("\\usepackage{hyperref}\n"), False),
    (
        "pith",
        "hyperref",
        _doc("\\usepackage{hyperref}\n\\usepackage{pith}\n\\pithnumber{%s}\n" % NUMBER),
        False,
    ),
    (
        "pith+include",
        "hyperref",
        _doc("\\usepackage{hyperref}\n\\usepackage{pith}\n\\pithnumber{%s}\n" % NUMBER),
        True,
    ),
    (
        "orcidlink",
        "hyperref",
        _doc(
            "\\usepackage{hyperref}\n\\usepackage{orcidlink}\n",
            "\\,\\orcidlink{0000-0002-1825-0097}",
        ),
        False,
    ),
    (
        "hyperxmp",
        "hyperref",
        _doc(
            "\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n"
            "\\hypersetup{pdfauthor={A. Author},pdfcopyright={CC-BY 4.0},"
            "pdfidentifier={pith:2025:%s}}\n" % NUMBER
        ),
        False,
    ),
]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Trailing separator: keep the system search path after latex/.
    env["TEXINPUTS"] = str(LATEX_DIR) + os.pathsep + env.get("TEXINPUTS", "")
    env.setdefault("SOURCE_DATE_EPOCH", "1756857600")
    return env


PDFLATEX = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"]


def _pdflatex(workdir: Path, env: dict[str, str], wrapper: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """One pdflatex run of main.tex in *workdir*, under *wrapper* (e.g. valgrind) if
    given; output is discarded, except the wrapper's stderr (valgrind reports there)."""
    return subprocess.run([*wrapper, *PDFLATEX], cwd=workdir, env=env,
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE if wrapper else subprocess.DEVNULL,
                          text=True, errors="replace", check=False)


def _compile(workdir: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """One pdflatex run; returns (wall, user cpu, system cpu) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = _pdflatex(workdir, env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        log = (workdir / "main.log").read_text(errors="replace")
        raise RuntimeError(f"pdflatex failed in {workdir}:\n{log[-3000:]}")
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def _instructions(workdir: Path, env: dict[str, str]) -> int | None:
    """User-space instructions of one pdflatex run, or None without valgrind."""
    if not B.have("valgrind"):
        return None
    proc = _pdflatex(workdir, env, ("valgrind", "--tool=cachegrind", "--cache-sim=no",
                                    "--cachegrind-out-file=" + os.devnull))
    for line in proc.stderr.splitlines():
        if "I" in line and "refs:" in line:
            return int(line.split("refs:")[1].strip().replace(",", ""))
    return None


def measure(runs: int = DEFAULT_RUNS, instructions: bool = True) -> list[dict]:
    """Compile every variant `runs` times (interleaved); one detailed row per variant:
    ``name``, ``seconds`` (median CPU), ``baseline``, ``ratio`` = seconds/baseline,
    ``wall_seconds``, ``wall_ratio``, ``instructions``, ``instr_ratio``,
    ``est_ratio``, ``runs``, ``target`` (None for the comparison packages)."""
    if not B.have("pdflatex"):
        raise RuntimeError("pdflatex not found")
    if not (LATEX_DIR / "pith.sty").is_file():
        raise RuntimeError(f"pith.sty not found in {LATEX_DIR}")
    env = _env()
    n = len(VARIANTS)
    with tempfile.TemporaryDirectory(prefix="pith-bench-") as tmp:
        dirs = []
        for i, (name, group, src, include) in enumerate(VARIANTS):
            d = Path(tmp) / f"{i}-{group}-{name}"
            d.mkdir()
            (d / "main.tex").write_text(src, encoding="ascii")
            if include:
                (d / "pith-number.tex").write_text(INCLUDE, encoding="ascii")
            dirs.append(d)
        # Warm-up, twice so that the .aux exists as in a real build.
        for d in dirs:
            _compile(d, env)
            _compile(d, env)
        wall: list[list[float]] = [[] for _ in range(n)]
        user: list[list[float]] = [[] for _ in range(n)]
        syst: list[list[float]] = [[] for _ in range(n)]
        for r in range(runs):
            # Rotate the start so that no variant always runs first.
            for i in [(r + k) % n for k in range(n)]:
                w, u, s_ = _compile(dirs[i], env)
                wall[i].append(w)
                user[i].append(u)
                syst[i].append(s_)
        instrs = [_instructions(d, env) if instructions else None for d in dirs]

    med = statistics.median
    cpu = [med([u + s_ for u, s_ in zip(user[i], syst[i])]) for i in range(n)]
    base_idx = {g: i for i, (nm, g, _, _) in enumerate(VARIANTS) if nm == "baseline"}
    rows = []
    for i, (name, group, _, _) in enumerate(VARIANTS):
        b = base_idx[group]
        instr_ratio = instrs[i] / instrs[b] if instrs[i] and instrs[b] else None
        user_share = med(user[b]) / max(med(user[b]) + med(syst[b]), 1e-9)
        rows.append(
            {
                "name": f"{group}/{name}",
                "seconds": cpu[i],
                "baseline": cpu[b],
                "ratio": cpu[i] / cpu[b],
                "wall_seconds": med(wall[i]),
                "wall_baseline": med(wall[b]),
                "wall_ratio": med(wall[i]) / med(wall[b]),
                "instructions": instrs[i],
                "instr_ratio": instr_ratio,
                "est_ratio": 1 + (instr_ratio - 1) * user_share if instr_ratio else None,
                "user_share": user_share,
                "runs": runs,
                "target": TARGET_RATIO if name.startswith("pith") else None,
            }
        )
    return rows


def _judged(r: dict) -> float:
    return r["est_ratio"] if r.get("est_ratio") else r["ratio"]


def run(runs: int = DEFAULT_RUNS, instructions: bool = True) -> list[dict]:
    """Entry point for bench/run.py: rows in its protocol (see run.py).

    Per non-baseline variant: a row with the median CPU time and, when valgrind
    is there, a row with the instruction count.  run.py prints baseline/value,
    so the pith target (cost <= 3 %) shows there as a ratio >= 0.97x; it is
    judged on ``est_ratio`` (see the module docstring) and carried by the
    instruction row when there is one, else by the CPU row.
    """
    detailed = measure(runs, instructions)
    target = "time cost <= 3 % (est. from instructions)"
    out: list[dict] = []
    for r in detailed:
        if r["name"].endswith("/baseline"):
            continue
        group = r["name"].split("/")[0]
        base_name = "article" if group == "plain" else "article + hyperref"
        is_pith = r["target"] is not None
        note = (
            f"cost {100 * (r['ratio'] - 1):+.1f} % cpu, "
            f"{100 * (r['wall_ratio'] - 1):+.1f} % wall (medians of {runs})"
        )
        if r.get("instr_ratio"):
            note += (
                f"; {100 * (r['instr_ratio'] - 1):+.2f} % instructions"
                f" -> est. {100 * (r['est_ratio'] - 1):+.1f} % time"
            )
        row = {
            "name": f"pdflatex one-page {r['name']} (cpu)",
            "value": r["seconds"],
            "unit": "s",
            "baseline": r["baseline"],
            "baseline_name": base_name,
            "note": note,
        }
        if is_pith and not r.get("instr_ratio"):
            row["target"] = "time cost <= 3 %"
            row["met"] = r["ratio"] <= TARGET_RATIO
        out.append(row)
        if r.get("instructions"):
            irow = {
                "name": f"pdflatex one-page {r['name']} (instructions)",
                "value": r["instructions"] / 1e6,
                "unit": "Minstr",
                "baseline": r["instructions"] / r["instr_ratio"] / 1e6,
                "baseline_name": base_name,
            }
            if is_pith:
                irow["target"] = target
                irow["met"] = _judged(r) <= TARGET_RATIO
            out.append(irow)
    return out


def format_table(rows: list[dict]) -> str:
    head = (
        f"{'variant':<24}{'cpu s':>8}{'base s':>8}{'ratio':>7}{'wall':>7}"
        f"{'Minstr':>9}{'ratio':>7}{'est':>7}  target"
    )
    lines = [head, "-" * (len(head) + 16)]
    for r in rows:
        tgt = ""
        if r.get("target"):
            ok = _judged(r) <= r["target"]
            tgt = f"<= {r['target']:.2f} {'OK' if ok else 'OVER'}"
        mi = f"{r['instructions'] / 1e6:>9.1f}" if r.get("instructions") else f"{'-':>9}"
        ri = f"{r['instr_ratio']:>7.3f}" if r.get("instr_ratio") else f"{'-':>7}"
        es = f"{r['est_ratio']:>7.3f}" if r.get("est_ratio") else f"{'-':>7}"
        lines.append(
            f"{r['name']:<24}{r['seconds']:>8.3f}{r['baseline']:>8.3f}{r['ratio']:>7.3f}"
            f"{r['wall_ratio']:>7.3f}{mi}{ri}{es}  {tgt}"
        )
    lines.append(
        f"ratios vs the group's baseline. cpu/wall: medians of {rows[0]['runs']} interleaved\n"
        "pdflatex runs; Minstr: user-space instructions (valgrind, one run); est: time\n"
        f"ratio predicted from instructions (user share of baseline cpu "
        f"{rows[0]['user_share']:.2f})."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    ap.add_argument("--no-valgrind", action="store_true", help="skip instruction counts")
    args = ap.parse_args(argv)
    print(format_table(measure(args.runs, not args.no_valgrind)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
