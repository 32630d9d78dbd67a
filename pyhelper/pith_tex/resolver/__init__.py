"""The resolver pith.science: the HTTP client (``client``) and the local cache of
verified records (``cache``).  Imports :mod:`pith_tex.record` and the bottom modules.
"""
