"""The body of ``pith-tex verify`` lives in :mod:`pith_tex.verify.command`; this name is
kept for the entry point's fast path (:mod:`pith_tex.cli`) and for old imports."""

from __future__ import annotations

from ..verify.command import NONE_LINE, paper_files, verify_command

__all__ = ["NONE_LINE", "paper_files", "verify_command"]
