"""The pith.sty shipped inside pith-tex, its version, and whether TeX will find one for a
paper (beside the main file, where arXiv needs it, or anywhere ``kpsewhich`` looks).

``fetch`` uses it to make the paper buildable (it writes the shipped pith.sty beside the
main file when TeX finds none or an older one, which would refuse the include it writes);
``check`` to say whether the paper's copy is current.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Optional, Tuple

from ..checks import Check, OK, WARN
from .. import __version__
from ..atomic import write_atomic

_PROVIDES_RE = re.compile(r"\\ProvidesExplPackage\s*\{pith\}\s*\{([0-9/-]+)\}\s*\{([^{}]*)\}")
#: pith.sty is about 80 kB; a file ten times that is not one.
MAX_STY_BYTES = 1 << 20


def shipped_sty() -> str:
    """The path of the pith.sty shipped inside this package (``pith_tex/data/pith.sty``)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # pith_tex/
    return os.path.join(package, "data", "pith.sty")


def read_sty(path: str) -> bytes:
    """The bytes of a regular file named pith.sty, at most :data:`MAX_STY_BYTES`
    (:class:`OSError` otherwise)."""
    if not os.path.isfile(path):  # before open(): a FIFO would block it
        raise OSError("%s is not a regular file" % path)
    with open(path, "rb") as f:
        data = f.read(MAX_STY_BYTES + 1)
    if len(data) > MAX_STY_BYTES:
        raise OSError("%s is larger than %d bytes: not a pith.sty" % (path, MAX_STY_BYTES))
    return data


def sty_version(data: bytes) -> Optional[Tuple[str, str]]:
    """``(date, version)`` from a pith.sty's ``\\ProvidesExplPackage``, date as YYYY-MM-DD."""
    m = _PROVIDES_RE.search(data.decode("utf-8", "replace"))
    return None if m is None else (m.group(1).replace("/", "-"), m.group(2).strip())


def _version_key(v: Tuple[str, str]) -> Tuple[str, Tuple[int, ...]]:
    parts = re.findall(r"[0-9]+", v[1])
    return v[0], tuple(int(p) for p in parts)


def compare_versions(local: bytes, shipped: bytes) -> str:
    """``"same"``, ``"older"``, ``"newer"`` or ``"differs"`` (no version to compare):
    how the pith.sty *local* stands to *shipped*."""
    if local == shipped:
        return "same"
    lv, sv = sty_version(local), sty_version(shipped)
    if lv is None or sv is None or _version_key(lv) == _version_key(sv):
        return "differs"
    return "older" if _version_key(lv) < _version_key(sv) else "newer"


def describe(data: bytes) -> str:
    v = sty_version(data)
    return "pith.sty" if v is None else "pith.sty %s (%s)" % (v[1], v[0])


def kpsewhich(name: str, cwd: str) -> Optional[str]:
    """Where TeX run in *cwd* finds *name* (None: nowhere, or no ``kpsewhich``)."""
    exe = shutil.which("kpsewhich")
    if exe is None:
        return None
    try:
        p = subprocess.run([exe, name], cwd=cwd, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    found = p.stdout.strip()
    if p.returncode != 0 or not found:
        return None
    return os.path.normpath(os.path.join(cwd, found))


def ensure_sty(paper_dir: str, main_name: str) -> Check:
    """The ``pith.sty`` line of ``fetch``: make sure TeX finds a pith.sty for the paper in
    *paper_dir*, writing the shipped one there when it finds none."""
    here = os.path.join(paper_dir, "pith.sty")
    try:
        shipped = read_sty(shipped_sty())
    except OSError as e:
        return Check("pith.sty", WARN, "this pith-tex install has no pith.sty to offer (%s)"
                     % (e.strerror or e))
    ours = "the %s shipped with pith-tex %s" % (describe(shipped), __version__)
    if os.path.lexists(here):
        try:
            local = read_sty(here)
        except OSError as e:
            return Check("pith.sty", WARN, "cannot read pith.sty beside %s: %s"
                         % (main_name, e.strerror or e))
        how = compare_versions(local, shipped)
        if how in ("same", "newer"):
            return Check("pith.sty", OK, "%s is beside %s%s" % (
                describe(local), main_name, "" if how == "same" else " (newer than %s)" % ours))
        if how == "older":  # it would refuse the include written now (include-newer)
            return _write(here, shipped, "replaced the older %s beside %s with %s: the "
                          "include needs it" % (describe(local), main_name, ours))
        return Check("pith.sty", WARN, "the %s beside %s differs from %s: replace it with "
                     "pith-tex check --fix (arXiv compiles with the one you upload)"
                     % (describe(local), main_name, ours))
    elsewhere = kpsewhich("pith.sty", paper_dir)
    if elsewhere is not None:
        older = _older(elsewhere, shipped)
        if older is None:
            return Check("pith.sty", OK, "TeX finds pith.sty at %s; arXiv does not have it: "
                         "copy it beside %s before you upload (pith-tex check --fix)"
                         % (elsewhere, main_name))
        return _write(here, shipped, "wrote %s beside %s: TeX finds only the older %s at %s, "
                      "and arXiv needs it in the upload" % (ours, main_name, older, elsewhere))
    return _write(here, shipped, "wrote %s beside %s: TeX had none, and arXiv needs it in "
                  "the upload" % (ours, main_name))


def _older(path: str, shipped: bytes) -> Optional[str]:
    """The description of the pith.sty at *path* when it is older than *shipped*."""
    try:
        data = read_sty(path)
    except OSError:
        return None
    return describe(data) if compare_versions(data, shipped) == "older" else None


def _write(here: str, shipped: bytes, done: str) -> Check:
    try:
        write_atomic(here, shipped)
    except OSError as e:
        return Check("pith.sty", WARN, "writing pith.sty to %s failed: %s; copy the one "
                     "pith-tex ships with pith-tex check --fix" % (here, e.strerror or e))
    return Check("pith.sty", OK, done)
