"""The ``pith.sty`` check: the paper carries the pith.sty arXiv needs."""

from __future__ import annotations

import os
import re
from typing import Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN

_PROVIDES_RE = re.compile(r"\\ProvidesExplPackage\s*\{pith\}\s*\{([0-9/-]+)\}\s*\{([^{}]*)\}")


def shipped_sty() -> str:
    """The path of the pith.sty shipped inside this package (``pith_tex/data/pith.sty``)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "pith.sty")


def _sty_version(data: bytes) -> Optional[Tuple[str, str]]:
    m = _PROVIDES_RE.search(data.decode("utf-8", "replace"))
    return None if m is None else (m.group(1).replace("/", "-"), m.group(2))


def check_sty(directory: str, fix: bool) -> Tuple[Check, Optional[str]]:
    """The ``pith.sty`` check, and what ``--fix`` did (None: nothing)."""
    from .. import __version__

    here = os.path.join(directory, "pith.sty")
    try:
        with open(shipped_sty(), "rb") as f:
            shipped: Optional[bytes] = f.read()
    except OSError:
        shipped = None
    try:
        with open(here, "rb") as f:
            local: Optional[bytes] = f.read()
    except FileNotFoundError:
        local = None
    except OSError as e:
        return Check("pith.sty", ERROR, "cannot read pith.sty: %s" % (e.strerror or e)), None
    ours = "the one shipped with pith-tex %s" % __version__
    if local is not None and shipped is not None and local == shipped:
        return Check("pith.sty", OK, "pith.sty is beside the main file and is %s" % ours), None
    if local is not None and shipped is None:
        return Check("pith.sty", WARN, "pith.sty is there, but this pith-tex install has no "
                     "pith.sty to compare it with"), None
    if local is None:
        problem = "pith.sty is missing: arXiv does not have it"
    else:
        assert shipped is not None
        lv, sv = _sty_version(local), _sty_version(shipped)
        if lv is None or sv is None or lv[0] == sv[0]:
            how = "differs from"
        else:
            how = "is older than" if lv[0] < sv[0] else "is newer than"
        problem = "pith.sty%s %s %s%s" % (
            "" if lv is None else " (%s v%s)" % lv, how, ours,
            "" if sv is None else " (%s v%s)" % sv)
    if not fix:
        if local is None:
            return Check("pith.sty", FAIL, problem + ": copy it or run with --fix"), None
        return Check("pith.sty", WARN, problem + ": run with --fix to replace it"), None
    if shipped is None:
        return Check("pith.sty", ERROR if local is None else WARN,
                     problem + "; --fix: this pith-tex install has no pith.sty to copy"), None
    from ..atomic import write_atomic

    try:
        write_atomic(here, shipped)
    except OSError as e:
        return Check("pith.sty", FAIL if local is None else WARN,
                     problem + "; --fix could not write it: %s" % (e.strerror or e)), None
    did = ("copied the pith.sty shipped with pith-tex %s" % __version__ if local is None
           else "replaced pith.sty with %s" % ours)
    return Check("pith.sty", OK, "%s; --fix %s" % (problem, did)), did

