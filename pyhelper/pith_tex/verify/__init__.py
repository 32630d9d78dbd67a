"""Verify a file, whatever it holds (``files``: resolver JSON, bundle, Paper Citation
Record, include or PDF), or many (``batch``).  The top of the verification: imports
:mod:`pith_tex.pdf`, :mod:`pith_tex.citations`, :mod:`pith_tex.include`,
:mod:`pith_tex.record`; imported by :mod:`pith_tex.check` and :mod:`pith_tex.cli`.
"""
