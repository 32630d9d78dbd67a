"""Paper Citation Records (``record``; the ``citations`` command is in
:mod:`pith_tex.fetch.citationreport`).  Imports :mod:`pith_tex.record` and the bottom modules.
"""
