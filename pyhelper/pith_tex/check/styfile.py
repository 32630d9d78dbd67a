"""The ``pith.sty`` check: the paper carries the pith.sty arXiv needs (arXiv's TeX Live
does not have it), the one shipped with this pith-tex or a newer one."""

from __future__ import annotations

import os
from typing import Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from ..include.sty import compare_versions, describe, read_sty, shipped_sty

__all__ = ["check_sty", "shipped_sty"]


def check_sty(directory: str, fix: bool, fetched: bool = True) -> Tuple[Check, Optional[str]]:
    """The ``pith.sty`` check, and what ``--fix`` did (None: nothing).  *fetched*: the
    include is there; when it is not, a missing pith.sty is a forgotten ``pith-tex fetch``
    (which writes both), and that is the way on to name."""
    from .. import __version__

    here = os.path.join(directory, "pith.sty")
    try:
        shipped: Optional[bytes] = read_sty(shipped_sty())
    except OSError:
        shipped = None
    local: Optional[bytes] = None
    if os.path.lexists(here):
        try:
            local = read_sty(here)
        except OSError as e:
            return Check("pith.sty", ERROR, "cannot read pith.sty: %s" % (e.strerror or e)), None
    ours = "the one shipped with pith-tex %s" % __version__
    if local is not None and shipped is None:
        return Check("pith.sty", WARN, "pith.sty is there, but this pith-tex install has no "
                     "pith.sty to compare it with"), None
    how = None if local is None or shipped is None else compare_versions(local, shipped)
    if how == "same":
        return Check("pith.sty", OK, "pith.sty is beside the main file and is %s" % ours), None
    if local is None:
        problem = "pith.sty is missing: arXiv does not have it"
    else:
        assert shipped is not None
        problem = "%s %s %s (%s)" % (
            describe(local), {"older": "is older than", "newer": "is newer than"}.get(
                how or "", "differs from"), ours, describe(shipped))
    if not fix:
        if local is None and not fetched:
            return Check("pith.sty", FAIL, problem + ", nor the include: run pith-tex fetch "
                         "(it copies pith.sty and writes the include)"), None
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
    if local is None:
        did = "copied the pith.sty shipped with pith-tex %s" % __version__
        return Check("pith.sty", OK, "--fix %s beside the main file (it was missing, and "
                     "arXiv does not have it)" % did), did
    did = "replaced pith.sty with %s" % ours
    return Check("pith.sty", OK, "--fix %s (the old one: %s)" % (did, problem)), did
