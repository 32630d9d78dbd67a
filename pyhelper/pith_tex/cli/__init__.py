"""The ``pith-tex`` entry point (``pith-tex = pith_tex.cli:main``, ``python -m pith_tex``):
the click group of :mod:`pith_tex.cli.commands`.

Every :class:`~pith_tex.errors.PithError` becomes one ``error: ...`` line on stderr and
its exit code; no traceback reaches the user (set ``PITH_TEX_DEBUG=1`` to see one for an
unexpected exception).
"""

from __future__ import annotations

from .commands import main

__all__ = ["main"]
