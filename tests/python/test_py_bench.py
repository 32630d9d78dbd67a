"""``make bench`` keeps working: its modules load and keep the protocol of bench/run.py,
and the realistic paper bench_check times is one ``pith-tex check`` finds ready (a bench
of a paper that fails early measures nothing).  bench_check once died at start-up on a
changed generator and nothing said so until the next measurement.  No timing here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from texbuild import tool

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module", autouse=True)
def bench_on_path() -> None:
    sys.path.insert(0, str(BENCH))
    yield
    sys.path.remove(str(BENCH))


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("bench_*.py")))
def test_bench_module_loads_with_run(name: str) -> None:
    module = importlib.import_module(name)
    assert callable(getattr(module, "run", None)), name


def test_bench_check_paper_is_ready(tmp_path: Path) -> None:
    for name in ("pdflatex", "latexmlc"):
        tool(name)
    import bench_check

    d = tmp_path / "paper"
    d.mkdir()
    bench_check.build(d)
    r = subprocess.run([sys.executable, "-m", "pith_tex", "check", str(d), "--json"],
                       capture_output=True, text=True, timeout=600)
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["verdict"] == "ready", doc
    assert sorted(doc["upload"]) == ["main.bbl", "main.tex", "pith-number.tex", "pith.sty"]
