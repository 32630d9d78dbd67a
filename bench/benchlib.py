"""Small helpers shared by the bench_*.py modules (optional; see run.py for the protocol)."""
from __future__ import annotations

import os
import shutil
import resource
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple, Union

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "vectors" / "pith-numbers.jsonl"
SUPPORT = ROOT / "tests" / "support"  # the tests' builders (recorded.py, contract.py)
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

Cmd = Union[str, Sequence[str]]


def pith_tex_cmd() -> List[str]:
    """The installed console script of *this* interpreter (no pyenv shim in between),
    falling back to ``python -m pith_tex``."""
    script = Path(sysconfig.get_path("scripts")) / "pith-tex"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "pith_tex"]


def bench_env() -> dict:
    env = dict(os.environ)
    env.setdefault("PITH_TEX_CACHE_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "pith-tex-bench-cache"))
    return env


def run_once(cmd: Cmd, *, ok_codes: Iterable[int] = (0,), cwd=None, env=None) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True, text=True, cwd=cwd,
                       env=env or bench_env(), executable="/bin/bash" if isinstance(cmd, str) else None)
    if p.returncode not in tuple(ok_codes):
        raise RuntimeError(f"{cmd!r} exited {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def interleaved_medians(cmds: Sequence[Cmd], n: int = 21, warmup: int = 2, ok_codes: Optional[Sequence[Iterable[int]]] = None) -> List[float]:
    """Median wall time in seconds of *n* runs of each command (after *warmup* runs), the
    commands run alternately so that machine noise hits them alike."""
    return [wall for wall, _ in interleaved_stats(cmds, n, warmup, ok_codes)]


def interleaved_stats(cmds: Sequence[Cmd], n: int = 21, warmup: int = 2, ok_codes: Optional[Sequence[Iterable[int]]] = None) -> List[Tuple[float, float]]:
    """Median wall time and median CPU time (user + system of every process the command
    ran, e.g. both sides of a pipe) in seconds, per command, runs interleaved.

    CPU time tells apart what wall time on a 2-core machine hides: a two-process pipeline
    runs its halves in parallel when the machine is idle and in turn when it is busy.
    """
    ok_codes = ok_codes or [(0,)] * len(cmds)
    for _ in range(warmup):
        for c, ok in zip(cmds, ok_codes):
            run_once(c, ok_codes=ok)
    walls: List[List[float]] = [[] for _ in cmds]
    cpus: List[List[float]] = [[] for _ in cmds]
    for _ in range(n):
        for i, (c, ok) in enumerate(zip(cmds, ok_codes)):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            run_once(c, ok_codes=ok)
            walls[i].append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[i].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus)]


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


def ms(seconds: float) -> float:
    return seconds * 1000.0


def import_top(args: Sequence[str], k: int = 8) -> List[str]:
    """``python -X importtime -m pith_tex ARGS``: the *k* slowest imports (cumulative)."""
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "pith_tex", *args],
                       capture_output=True, text=True, env=bench_env())
    rows = []
    for line in p.stderr.splitlines():
        if not line.startswith("import time:") or "imported package" in line:
            continue
        _self_us, cum_us, name = line[len("import time:"):].split("|")
        rows.append((int(cum_us), len(name) - len(name.lstrip()), name.strip()))
    if not rows:
        return []
    top_level = min(indent for _, indent, _ in rows)
    top = sorted((r for r in rows if r[1] <= top_level + 2), reverse=True)[:k]
    return [f"{name} {cum / 1000:.1f} ms" for cum, _, name in top]
