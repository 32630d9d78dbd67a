"""Verify a file, whatever it holds (``files``: resolver JSON, bundle, Paper Citation
Record, include or PDF), many (``batch``), or the PDFs of tar archives (``archive``).  The
top of the verification: imports :mod:`pith_tex.pdf`, :mod:`pith_tex.citations`,
:mod:`pith_tex.include`, :mod:`pith_tex.record`; imported by :mod:`pith_tex.check`,
:mod:`pith_tex.scale` and :mod:`pith_tex.cli`.

The library entry point is :func:`verify_pdf_bytes` (docs/api.md).
"""

from .files import verify_pdf_bytes

__all__ = ["verify_pdf_bytes"]
