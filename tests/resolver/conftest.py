"""Fixtures for the hostile-resolver tests: a real HTTP server and the real CLI.

``server``  (from ``tests/support/shared_fixtures.py``) a started :class:`server.ResolverServer`
            on 127.0.0.1, one per test, so request logs never mix.
``cli``     runs ``python -m pith_tex ...`` as a subprocess in a fresh working
            directory that already holds an old ``include.tex``; the cache is
            moved to a tmp dir with ``PITH_TEX_CACHE_DIR``.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional

import pytest

import recorded  # tests/support
import server as srvmod  # tests/support, on sys.path through pytest's ``pythonpath`` ini option

ROOT = srvmod.ROOT

OLD_INCLUDE = srvmod.OLD_INCLUDE


@dataclasses.dataclass
class Result:
    rc: int
    out: str
    err: str
    elapsed: float
    cwd: Path

    @property
    def include(self) -> Path:
        return self.cwd / "include.tex"

    def error_line(self) -> str:
        """The single ``error: ...`` line on stderr (and no traceback)."""
        assert "Traceback" not in self.err, self.err
        lines = [ln for ln in self.err.splitlines() if ln.startswith("error:")]
        assert len(lines) == 1, f"expected exactly one 'error:' line on stderr:\n{self}"
        return lines[0]

    def __str__(self) -> str:
        return f"rc={self.rc} in {self.elapsed:.2f}s\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


@pytest.fixture(scope="session")
def vectors() -> List[dict]:
    return recorded.load_vectors()


@pytest.fixture(scope="session")
def full(vectors) -> List[dict]:
    """Vectors with a published canonical record (these can be served)."""
    vs = [v for v in vectors if v.get("canonical_record")]
    assert len(vs) >= 2
    return vs


@pytest.fixture(scope="session")
def signed(vectors) -> List[dict]:
    """Vectors carrying a real resolver signature (over *their own* digest)."""
    vs = [v for v in vectors if v.get("signature_b64")]
    assert vs, "no signed vector in pith-numbers.jsonl"
    return vs


@pytest.fixture
def workdir(tmp_path) -> Path:
    d = tmp_path / "paper"
    d.mkdir()
    (d / "include.tex").write_bytes(OLD_INCLUDE)
    return d


def base_env(tmp_path: Path) -> dict:
    # PITH_TEX_PYHELPER: run the tests against another copy of the package (mutation checks)
    pkg = os.environ.get("PITH_TEX_PYHELPER", str(ROOT / "pyhelper"))
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy") and not k.startswith("PITH_")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PITH_TEX_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [pkg, env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@pytest.fixture
def cli(workdir, tmp_path) -> Callable[..., Result]:
    def run(*args: str, env: Optional[dict] = None, timeout: float = 60, preexec_fn=None) -> Result:
        e = base_env(tmp_path)
        if env:
            e.update(env)
        t0 = time.monotonic()
        p = subprocess.run(
            [sys.executable, "-m", "pith_tex", *args],
            cwd=workdir,
            env=e,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=preexec_fn,
        )
        return Result(p.returncode, p.stdout, p.stderr, time.monotonic() - t0, workdir)

    return run
