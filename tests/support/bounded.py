"""Run the real ``pith-tex`` in a child process bounded in time and memory.

Hostile inputs (FIFOs, devices, bombs, dripping servers) must end with an exit code and
a message, never with a hang or an exhausted machine.  :func:`run` caps the child's
address space with ``RLIMIT_AS`` (:data:`MEMORY`) and its wall time with
``subprocess.run(timeout=...)``: a child that hangs makes the test fail with
``TimeoutExpired`` instead of hanging the suite.  The time limit is a guard, never a
measurement: tests assert on the exit code and the message.
"""
from __future__ import annotations

import dataclasses
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]

#: Address space of the child: a normal fetch (Python, requests, cryptography, one HTTP
#: thread) runs in 256 MiB; the bombs these tests throw need gigabytes.
MEMORY = 512 << 20


def limit_memory(limit: int = MEMORY) -> None:
    """``preexec_fn``: cap the child's address space."""
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def child_env(cache_dir: Path, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment of a pith-tex child: this checkout's package, no proxy, no
    ``PITH_*`` from the caller, a private cache."""
    pkg = os.environ.get("PITH_TEX_PYHELPER", str(ROOT / "pyhelper"))
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and not k.startswith("PITH_")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PITH_TEX_CACHE_DIR"] = str(cache_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [pkg, env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


@dataclasses.dataclass
class Ran:
    rc: int
    out: str
    err: str

    def error_line(self) -> str:
        """The one ``error: ...`` line on stderr (and no traceback)."""
        assert "Traceback" not in self.err, self.err
        lines = [ln for ln in self.err.splitlines() if ln.startswith("error:")]
        assert len(lines) == 1, "expected one error: line\n%s" % self
        return lines[0]

    def __str__(self) -> str:
        return "rc=%d\n--- stdout\n%s\n--- stderr\n%s" % (self.rc, self.out, self.err)


def run(args: Sequence[str], *, cwd: Path, cache_dir: Path, timeout: float = 60,
        env: Optional[Dict[str, str]] = None, memory: int = MEMORY) -> Ran:
    """``python -m pith_tex ARGS`` in *cwd*; raises ``TimeoutExpired`` past *timeout*."""
    p = subprocess.run([sys.executable, "-m", "pith_tex", *args], cwd=cwd,
                       env=child_env(cache_dir, env), capture_output=True, text=True,
                       timeout=timeout, preexec_fn=lambda: limit_memory(memory),
                       stdin=subprocess.DEVNULL)
    return Ran(p.returncode, p.stdout, p.stderr)
