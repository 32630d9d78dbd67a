"""Running a program on the paper's files with bounds: its own process group, its
output in a file (never in memory), stopped at a deadline or when that file (or a file it
writes, such as TeX's log) grows past a cap, and killed with its children whatever
happens (Ctrl-C included).

This is a bottom module: it imports nothing from pith_tex.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

#: The most a program may write to its output, and to a watched file, by default.
OUTPUT_CAP = 20 * 1024 * 1024


class Run(NamedTuple):
    returncode: Optional[int]  # None: stopped by pith-tex
    stopped: Optional[str]  # why it was stopped: "time" | "output" | None
    output: str  # the end of the program's output


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _tail(path: str, limit: int = 16384) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, _size(path) - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def run_limited(cmd: List[str], cwd: str, env: Dict[str, str], deadline: float,
                output_file: str, watch: Tuple[str, ...] = (), cap: int = OUTPUT_CAP,
                tick: Optional[Callable[[], None]] = None, keep: int = 16384) -> Run:
    """Run *cmd* in its own process group with stdout and stderr in *output_file*; stop
    the group at the monotonic *deadline* or when *output_file* or a *watch* file (the
    job's log) exceeds *cap*.  *tick* is called about every 0.1 s while it runs; the
    last *keep* bytes of the output are returned."""
    with open(output_file, "wb") as out:
        # SIGTERM or Ctrl-C while Popen returns would lose the child, which would run on
        # in its own session (writing into a directory being removed): held until
        # the try below, which kills it whatever comes.
        held = {signal.SIGTERM, signal.SIGINT}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True,
                                    # the program itself gets the usual mask back
                                    preexec_fn=lambda: signal.pthread_sigmask(
                                        signal.SIG_SETMASK, old))
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
            raise
        stopped: Optional[str] = None
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
            while True:
                try:
                    proc.wait(timeout=0.1)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if time.monotonic() >= deadline:
                    stopped = "time"
                elif any(_size(p) > cap for p in (output_file,) + watch):
                    stopped = "output"
                if stopped is not None:
                    break
                if tick is not None:
                    tick()
        finally:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return Run(None if stopped else proc.returncode, stopped, _tail(output_file, keep))
