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


def tail(path: str, limit: int = 16384) -> str:
    """The last *limit* bytes of the file *path*, decoded ("" when unreadable)."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, _size(path) - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


class Limited:
    """A program run with bounds (see :func:`run_limited`), waited for now or later:
    :meth:`start` it inside a ``with`` block, which kills it whatever happens (Ctrl-C
    included); :meth:`check` enforces the bounds (call it often while doing something
    else), :meth:`wait` waits, :meth:`kill` ends it."""

    def __init__(self, cmd: List[str], cwd: str, env: Dict[str, str], deadline: float,
                 output_file: str, watch: Tuple[str, ...] = (), cap: int = OUTPUT_CAP,
                 keep: int = 16384) -> None:
        self.cmd, self.cwd, self.env = cmd, cwd, env
        self.deadline, self.output_file, self.cap, self.keep = deadline, output_file, cap, keep
        self.watch = (output_file,) + watch
        self.stopped: Optional[str] = None
        self.proc: Optional[subprocess.Popen[bytes]] = None

    def start(self) -> None:
        with open(self.output_file, "wb") as out:
            # SIGTERM, SIGHUP or Ctrl-C while Popen returns would lose the child, which would run
            # on in its own session (writing into a directory being removed): held until
            # self.proc holds it; what arrives after is met by the ``with`` block's kill.
            held = {signal.SIGTERM, signal.SIGINT} | (
                {signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())
            old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
            try:
                self.proc = subprocess.Popen(self.cmd, cwd=self.cwd, env=self.env,
                                             stdin=subprocess.DEVNULL, stdout=out,
                                             stderr=subprocess.STDOUT, start_new_session=True,
                                             # the program itself gets the usual mask back
                                             preexec_fn=lambda: signal.pthread_sigmask(
                                                 signal.SIG_SETMASK, old))
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def __enter__(self) -> "Limited":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def check(self) -> bool:
        """True when the program has ended, or was stopped now for passing a bound."""
        assert self.proc is not None, "not started"
        if self.proc.poll() is not None:
            return True
        if time.monotonic() >= self.deadline:
            self.stopped = "time"
        elif any(_size(p) > self.cap for p in self.watch):
            self.stopped = "output"
        if self.stopped is None:
            return False
        self.kill()
        return True

    def kill(self) -> None:
        """End the program's whole process group, if it still runs."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def wait(self, tick: Optional[Callable[[], None]] = None) -> Run:
        """Wait for the end (or a bound), calling *tick* about every 0.1 s meanwhile."""
        assert self.proc is not None, "not started"
        while True:
            try:
                self.proc.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                pass
            if self.check():
                break
            if tick is not None:
                tick()
        return self.result()

    def result(self) -> Run:
        """How it ended; only once it has (after :meth:`wait`, or :meth:`check` true)."""
        assert self.proc is not None, "not started"
        return Run(None if self.stopped else self.proc.returncode, self.stopped,
                   tail(self.output_file, self.keep))


def run_limited(cmd: List[str], cwd: str, env: Dict[str, str], deadline: float,
                output_file: str, watch: Tuple[str, ...] = (), cap: int = OUTPUT_CAP,
                tick: Optional[Callable[[], None]] = None, keep: int = 16384) -> Run:
    """Run *cmd* in its own process group with stdout and stderr in *output_file*; stop
    the group at the monotonic *deadline* or when *output_file* or a *watch* file (the
    job's log) exceeds *cap*.  *tick* is called about every 0.1 s while it runs; the
    last *keep* bytes of the output are returned."""
    with Limited(cmd, cwd, env, deadline, output_file, watch, cap, keep) as job:
        job.start()
        return job.wait(tick)
