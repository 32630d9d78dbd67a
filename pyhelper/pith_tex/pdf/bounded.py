"""Page 1 read in a child process with bounds: what the engines may cost the command.

PDFium (in process through pypdfium2), zxing-cpp and the OCR read hostile bytes, and a PDF
can be built to make them spend without end (forms drawing forms, each many times: the
structural gate refuses the known ones, :data:`pith_tex.pdf.gate.MAX_DRAWS`).  So the whole
reading of page 1 (:func:`pith_tex.pdf.pageview.page_one`: renders, words, QR codes, the
poppler tools it runs) happens in ``python -m pith_tex.pdf.bounded``, a child process
that limits itself before it reads the request:

* its address space to :data:`MEMORY` (``RLIMIT_AS``, inherited by the poppler tools);
* its CPU time to :data:`CPU_SECONDS` (``RLIMIT_CPU``);
* and the caller's deadline: the child and everything it started are killed there.

The request (the PDF and the options) goes to the child's standard input, pickled; the
:class:`~pith_tex.pdf.pageview.PageOne` comes back pickled on its standard output, read
up to :data:`RESULT_CAP` bytes and unpickled with only pith_tex.pdf's named tuples
allowed.  A child that stops without an answer is an :class:`EngineLimited` (could not
check), its message saying which bound it met.

One child per PDF: it costs a Python start-up (about 15 ms of CPU; the engines' imports
move to the child, the parent no longer pays them).
"""

from __future__ import annotations

import os
import pickle
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Optional, Pattern, Sequence, Tuple

from .pageview import DPI, EngineFailed, PageOne

MEMORY = 2 << 30  # bytes of address space for the child (the engines and their buffers)
CPU_SECONDS = 60  # of CPU time for the child
SECONDS = 60.0  # wall time when the caller gives no deadline
RESULT_CAP = 256 << 20  # bytes of the pickled answer (a page's renders are tens of MB)
_CHUNK = 1 << 16


class EngineLimited(EngineFailed):
    """The engines met a bound (memory, CPU time, the deadline) reading page 1, or died:
    the PDF may be built to exhaust them."""


def _gb(n: int) -> str:
    return "%g GB" % round(n / (1 << 30), 2)


def page_one(data: bytes, *, dpi: float = DPI, deadline: Optional[float] = None,
             ink: Optional[Pattern[str]] = None, meta: Sequence[str] = (),
             memory: int = MEMORY, cpu_seconds: int = CPU_SECONDS) -> PageOne:
    """:func:`pith_tex.pdf.pageview.page_one` in a bounded child process (*deadline*: a
    ``time.monotonic()`` value, :data:`SECONDS` from now when None).  Raises
    :class:`EngineFailed` as it does, and :class:`EngineLimited` when a bound is met."""
    if deadline is None:
        deadline = time.monotonic() + SECONDS
    ceiling = resource.getrlimit(resource.RLIMIT_AS)[1]
    if ceiling != resource.RLIM_INFINITY:  # the child inherits it
        memory = min(memory, ceiling)
    seconds = deadline - time.monotonic()
    request = pickle.dumps((data, {"dpi": dpi, "ink": ink, "meta": tuple(meta),
                                   "seconds": seconds}), protocol=pickle.HIGHEST_PROTOCOL)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    argv = [sys.executable, "-m", __name__, str(memory), str(cpu_seconds)]
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, env=env, start_new_session=True)
        try:
            answer, why = _exchange(proc, request, deadline)
        finally:
            _kill(proc)
            status, usage = _reap(proc)
    if answer and why is None:  # empty: the child died before it answered
        return _answer(answer, memory)
    if why == "time":
        raise EngineLimited("PDFium took longer than %.0f s reading page 1; the PDF may be "
                            "built to exhaust time" % seconds)
    if why == "size":
        raise EngineLimited("the engines' answer for page 1 is larger than %d MiB"
                            % (RESULT_CAP >> 20))
    raise EngineLimited(_died(status, usage, memory, cpu_seconds))


def _died(status: int, usage: Any, memory: int, cpu_seconds: int) -> str:
    """Why the child stopped without an answer, from its exit *status* and *usage*."""
    cpu = usage.ru_utime + usage.ru_stime
    if usage.ru_maxrss * 1024 >= memory // 2 or status == -signal.SIGABRT:
        return ("PDFium used more than %s reading page 1; the PDF may be built to exhaust "
                "memory" % _gb(memory))
    if status in (-signal.SIGXCPU, -signal.SIGKILL) and cpu >= cpu_seconds - 1:
        return ("PDFium used more than %d s of CPU time reading page 1; the PDF may be "
                "built to exhaust time" % cpu_seconds)
    return ("PDFium stopped reading page 1 (%s): it cannot show this PDF"
            % ("signal %d" % -status if status < 0 else "exit %d" % status))


def _exchange(proc: "subprocess.Popen[bytes]", request: bytes,
              deadline: float) -> Tuple[Optional[bytes], Optional[str]]:
    """Write *request* to the child and read its answer: (the answer, None), or (None,
    ``"time"`` or ``"size"``) when the deadline or :data:`RESULT_CAP` was met first."""
    assert proc.stdin is not None and proc.stdout is not None
    sent, view, chunks, size = 0, memoryview(request), [], 0
    os.set_blocking(proc.stdin.fileno(), False)
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdin, selectors.EVENT_WRITE)
        sel.register(proc.stdout, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "time"
            for key, _ in sel.select(left):
                if key.fileobj is proc.stdin:
                    try:
                        sent += os.write(proc.stdin.fileno(), view[sent:sent + _CHUNK])
                    except BrokenPipeError:  # the child died: its status says why
                        sent = len(view)
                    except BlockingIOError:
                        continue
                    if sent >= len(view):
                        sel.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                chunk = os.read(proc.stdout.fileno(), _CHUNK)
                if not chunk:
                    sel.unregister(proc.stdout)
                    continue
                size += len(chunk)
                if size > RESULT_CAP:
                    return None, "size"
                chunks.append(chunk)
    return b"".join(chunks), None


def _kill(proc: "subprocess.Popen[bytes]") -> None:
    """End the child's process group (the poppler tools it started included)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for f in (proc.stdin, proc.stdout):
        if f is not None and not f.closed:
            f.close()


def _reap(proc: "subprocess.Popen[bytes]") -> Tuple[int, Any]:
    """The child's exit status (negative: the signal) and resource usage."""
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage


class _Unpickler(pickle.Unpickler):
    """Only the named tuples of pith_tex.pdf (the views of page 1) may be built."""

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(__name__.rsplit(".", 1)[0] + "."):
            found = getattr(sys.modules.get(module), name, None)
            if isinstance(found, type) and issubclass(found, tuple):
                return found
        raise pickle.UnpicklingError("%s.%s" % (module, name))


def _answer(answer: bytes, memory: int) -> PageOne:
    import io

    try:
        kind, value = _Unpickler(io.BytesIO(answer)).load()
    except Exception as e:  # a child that died half-way through its answer
        raise EngineLimited("the engines' answer for page 1 is not readable (%s)"
                            % type(e).__name__) from None
    if kind == "page" and isinstance(value, PageOne):
        return value
    if kind == "memory":
        raise EngineLimited("PDFium used more than %s reading page 1; the PDF may be "
                            "built to exhaust memory" % _gb(memory))
    raise EngineFailed(str(value))


# --- the child ---------------------------------------------------------------------------


def _child(memory: int, cpu_seconds: int) -> int:
    """Limit this process, read the request, answer it (see the module docstring)."""
    for which, soft, hard in ((resource.RLIMIT_AS, memory, memory),
                              (resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)):
        _soft, ceiling = resource.getrlimit(which)
        if ceiling != resource.RLIM_INFINITY:  # a lower bound already set stays
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        resource.setrlimit(which, (soft, hard))
    data, options = pickle.load(sys.stdin.buffer)  # the parent's own request
    seconds = options.pop("seconds")
    from . import pageview

    answer: Tuple[str, Any]
    try:
        answer = ("page", pageview.page_one(
            data, deadline=time.monotonic() + seconds, **options))
    except EngineFailed as e:
        answer = ("failed", str(e))
    except MemoryError:
        answer = ("memory", None)
    sys.stdout.buffer.write(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child(int(sys.argv[1]), int(sys.argv[2])))
