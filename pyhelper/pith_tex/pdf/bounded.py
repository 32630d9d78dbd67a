"""Page 1 read in a child process with bounds: what the engines may cost the command.

PDFium (in process through pypdfium2), zxing-cpp and the OCR read hostile bytes, and a PDF
can be built to make them spend without end (forms drawing forms, each many times: the
structural gate refuses the known ones, :data:`pith_tex.pdf.structure.MAX_DRAWS`).  So the whole
reading of page 1 (:func:`pith_tex.pdf.pageview.page_one`: renders, words, QR codes, the
poppler tools it runs) happens in a child process, ``python -m pith_tex.pdf.bounded``,
which limits itself:

* its address space to :data:`MEMORY` (``RLIMIT_AS``, inherited by the poppler tools);
* its CPU time to :data:`CPU_SECONDS` a PDF (``RLIMIT_CPU``, raised by that much before
  each PDF);
* and the caller's deadline: it and everything it started are killed there.

The child is started once per process that asks and reads PDF after PDF (``verify DIR``
pays the engines' imports and their first-use costs once, as it did in process); a
request (the PDF, the options) goes to its standard input, the
:class:`~pith_tex.pdf.pageview.PageOne` comes back pickled on its standard output (at
most :data:`RESULT_CAP` bytes), unpickled with only pith_tex.pdf's named tuples allowed.
A child that stops without an answer is an :class:`EngineLimited` (could not check), its
message saying which bound it met; the next PDF starts a new child.  So does a child
whose peak memory passed half its limit, so that one PDF's leftovers do not shrink the
next one's room.  The caller waits for its child at exit.
"""

from __future__ import annotations

import atexit
import io
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import time
from typing import Any, Callable, Optional, Pattern, Sequence, Tuple

from .views import DPI, EngineFailed, PageOne

MEMORY = 2 << 30  # bytes of address space for the child (the engines and their buffers)
CPU_SECONDS = 60  # of CPU time for one PDF
SECONDS = 60.0  # wall time when the caller gives no deadline
RESULT_CAP = 256 << 20  # bytes of the pickled answer (a page's renders are tens of MB)
_LENGTH = struct.Struct("<Q")
_REPLY = struct.Struct("<QB")  # the answer's length; 1: the child ends after it


class EngineLimited(EngineFailed):
    """The engines met a bound (memory, CPU time, the deadline) reading page 1, or died:
    the PDF may be built to exhaust them."""


def _gb(n: int) -> str:
    return "%g GB" % round(n / (1 << 30), 2)


def page_one(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None,
             ink: Optional[Pattern[str]] = None, meta: Sequence[str] = (),
             glyphs: Optional[Tuple[float, float]] = None,
             then: Optional[Callable[[PageOne], bool]] = None,
             memory: int = MEMORY, cpu_seconds: int = CPU_SECONDS) -> PageOne:
    """:func:`pith_tex.pdf.pageview.page_one` in the bounded child (*then*: a module-level
    function, which the child imports by name; *deadline*: a
    ``time.monotonic()`` value, :data:`SECONDS` from now when None).  Raises
    :class:`EngineFailed` as it does, and :class:`EngineLimited` when a bound is met."""
    if deadline is None:
        deadline = time.monotonic() + SECONDS
    ceiling = resource.getrlimit(resource.RLIMIT_AS)[1]
    if ceiling != resource.RLIM_INFINITY:  # the child inherits it
        memory = min(memory, ceiling)
    seconds = max(0.0, deadline - time.monotonic())
    request = pickle.dumps((cpu_seconds, seconds, data,
                            {"dpi": dpi, "ink": ink, "meta": tuple(meta), "glyphs": glyphs,
                             "then": then}),
                           protocol=pickle.HIGHEST_PROTOCOL)
    child = _Child.get(memory)
    try:
        answer = child.ask(request, deadline)
    except TimeoutError:
        child.stop()
        raise EngineLimited("PDFium took longer than %.0f s reading page 1; the PDF may be "
                            "built to exhaust time" % seconds) from None
    except OverflowError:
        child.stop()
        raise EngineLimited("the engines' answer for page 1 is larger than %d MiB"
                            % (RESULT_CAP >> 20)) from None
    except (OSError, EOFError):
        status, usage = child.stop()
        raise EngineLimited(_died(status, usage, memory, cpu_seconds)) from None
    except BaseException:  # Ctrl-C: the child goes with the command
        child.stop()
        raise
    return _answer(answer, memory)


def _died(status: int, usage: Any, memory: int, cpu_seconds: int) -> str:
    """Why the child stopped without an answer, from its exit *status* and *usage* (None:
    not known)."""
    rss = usage.ru_maxrss * 1024 if usage is not None else 0
    if rss >= memory // 2 or status == -signal.SIGABRT:
        return ("PDFium used more than %s reading page 1; the PDF may be built to exhaust "
                "memory" % _gb(memory))
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        return ("PDFium used more than %d s of CPU time reading page 1; the PDF may be "
                "built to exhaust time" % cpu_seconds)
    return ("PDFium stopped reading page 1 (%s): it cannot show this PDF"
            % ("signal %d" % -status if status < 0 else "exit %d" % status))


class _Unpickler(pickle.Unpickler):
    """Only the named tuples of pith_tex.pdf (the views of page 1) may be built."""

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(__name__.rsplit(".", 1)[0] + "."):
            found = getattr(sys.modules.get(module), name, None)
            if isinstance(found, type) and issubclass(found, tuple):
                return found
        raise pickle.UnpicklingError("%s.%s" % (module, name))


def _answer(answer: bytes, memory: int) -> PageOne:
    try:
        kind, value = _Unpickler(io.BytesIO(answer)).load()
    except Exception as e:  # noqa: BLE001 -- not what the child writes
        raise EngineLimited("the engines' answer for page 1 is not readable (%s)"
                            % type(e).__name__) from None
    if kind == "page" and isinstance(value, PageOne):
        return value
    if kind == "memory":
        raise EngineLimited("PDFium used more than %s reading page 1; the PDF may be "
                            "built to exhaust memory" % _gb(memory))
    if kind == "failed":
        raise EngineFailed(str(value))
    raise RuntimeError("reading page 1: %s" % (value,))  # a bug of ours: internal error


# --- the caller's side -------------------------------------------------------------------


def _read_exact(fd: int, n: int, deadline: float) -> bytes:
    """*n* bytes from *fd*; EOFError at its end, TimeoutError at *deadline*."""
    chunks, left = [], n
    while left:
        wait = deadline - time.monotonic()
        if wait <= 0 or not select.select([fd], [], [], wait)[0]:
            raise TimeoutError()
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError()
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class _Child:
    """The child of this process (a forked caller starts its own)."""

    current: Optional["_Child"] = None

    def __init__(self, memory: int) -> None:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p))
        debug = bool(os.environ.get("PITH_TEX_DEBUG"))
        self.owner, self.memory = os.getpid(), memory
        self.proc = subprocess.Popen([sys.executable, "-m", __name__, str(memory)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if debug else subprocess.DEVNULL,
                                     env=env, start_new_session=True)
        atexit.register(self.close)

    @classmethod
    def get(cls, memory: int) -> "_Child":
        child = cls.current
        if child is not None and (child.owner != os.getpid() or child.memory != memory
                                  or child.proc.poll() is not None):
            if child.owner == os.getpid():
                child.stop()
            child = None
        if child is None:
            child = cls.current = _Child(memory)
        return child

    def ask(self, request: bytes, deadline: float) -> bytes:
        """Send *request*, read the answer (TimeoutError at *deadline*, OverflowError past
        :data:`RESULT_CAP`, EOFError or OSError when the child died)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(_LENGTH.pack(len(request)) + request)
        self.proc.stdin.flush()
        fd = self.proc.stdout.fileno()
        length, last = _REPLY.unpack(_read_exact(fd, _REPLY.size, deadline))
        if length > RESULT_CAP:
            raise OverflowError()
        answer = _read_exact(fd, length, deadline)
        if last:  # the child ends: the next PDF starts another
            _Child.current = None
            self.reap()
        return answer

    def stop(self) -> Tuple[int, Any]:
        """Kill the child and what it started; its exit status and resource usage."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        if _Child.current is self:
            _Child.current = None
        return self.reap()

    def reap(self) -> Tuple[int, Any]:
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None and not f.closed:
                try:
                    f.close()
                except OSError:  # a write the dead child did not read
                    pass
        if self.proc.returncode is not None:  # reaped by a poll: its usage is gone
            return self.proc.returncode, None
        _pid, status, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return self.proc.returncode, usage

    def close(self) -> None:
        """At the caller's exit: the child's standard input closed, the child waited for
        (its time and memory count as the caller's children's); killed when it is still
        reading a PDF (the caller was interrupted)."""
        if self.owner != os.getpid() or self.proc.returncode is not None:
            return
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            self.stop()


# --- the child ---------------------------------------------------------------------------


def _limit(which: int, soft: int, hard: int) -> None:
    ceiling = resource.getrlimit(which)[1]
    if ceiling != resource.RLIM_INFINITY:  # a lower bound already set stays
        hard = ceiling if hard == resource.RLIM_INFINITY else min(hard, ceiling)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def _read_page(cpu_seconds: int, seconds: float, data: bytes, options: Any) -> bytes:
    """One request's answer, pickled: page 1 read with *cpu_seconds* more of CPU time."""
    from . import pageview

    used = resource.getrusage(resource.RUSAGE_SELF)
    _limit(resource.RLIMIT_CPU, int(used.ru_utime + used.ru_stime) + cpu_seconds + 1,
           resource.RLIM_INFINITY)
    answer: Tuple[str, Any]
    try:
        answer = ("page", pageview.page_one(data, deadline=time.monotonic() + seconds,
                                            **options))
    except EngineFailed as e:
        answer = ("failed", str(e))
    except MemoryError:
        answer = ("memory", None)
    except Exception as e:  # noqa: BLE001 -- a bug of ours: the caller says internal error
        answer = ("bug", "%s: %s" % (type(e).__name__, e))
    return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)


def _serve(memory: int) -> int:
    """Requests (length, pickle) on standard input, answers (length, pickle) on standard
    output, until standard input ends or this process's peak memory passed half its
    limit."""
    _limit(resource.RLIMIT_AS, memory, memory)
    from . import pageview  # noqa: F401  the engines, imported once for every PDF

    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = inp.read(_LENGTH.size)
        if len(head) < _LENGTH.size:
            return 0
        request = pickle.loads(inp.read(_LENGTH.unpack(head)[0]))  # the caller's own
        answer = _read_page(*request)
        del request
        last = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 > memory // 2
        out.write(_REPLY.pack(len(answer), last) + answer)
        out.flush()
        if last:
            return 0


if __name__ == "__main__":
    sys.exit(_serve(int(sys.argv[1])))
