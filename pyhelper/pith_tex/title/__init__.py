"""The paper's title: found in the TeX source (``source``) and compared with the record's
(``compare``).  Imports :mod:`pith_tex.include` (reading TeX sources), :mod:`pith_tex.record`
and the bottom modules.
"""
