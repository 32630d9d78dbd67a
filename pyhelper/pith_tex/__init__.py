"""pith-tex: fetch, verify and write verified Pith Numbers for pith.sty.

One subpackage per concern (docs/development.md draws the tree).  Imports flow down this
list, never up (import-linter's contracts in pyproject.toml check it: ``make lint``):

``cli``        the ``pith-tex`` entry point (:func:`pith_tex.cli.main`, the click group),
               the click commands and their help texts
``check``      ``pith-tex check``: main file, pith.sty, include, shell escape, compile,
               PDF, HTML view, upload
``verify``     one file of any kind, or many, handed to the verifier of its kind
``citations``  Paper Citation Records: verify every digest, summarise the references
``pdf``        a compiled paper: its metadata, and what readers' engines show of page 1
``title``      the paper's title: found in the source, compared with the record's
``include``    what TeX gets: ``pith-number.tex``, its QR code, the shipped pith.sty,
               the number found in the sources
``resolver``   the HTTP and mirror client, the verified-record cache
``record``     canonical form, number, keys, signatures; verify a record or bundle

and at the bottom, used by all: ``errors`` (error types, exit codes), ``checks`` (Check,
Outcome), ``safeio`` (regular files, capped reads), ``atomic`` (file replacement),
``console`` (exit statuses), ``report`` (text and JSON output).
"""

#: The one version of pith-tex and of the pith.sty it ships (pith.dtx's \ProvidesExplPackage
#: says the same; tests/python/test_py_version.py enforces it, `l3build tag` in latex/
#: changes both).  Used by ``--version``, the HTTP User-Agent and the wheel's metadata.
__version__ = "1.1.0"

#: The include file ``fetch`` writes by default (:mod:`pith_tex.include.include`).  Defined here,
#: not in ``include``, so that the click command line shows it without importing
#: ``include`` (and ``canonical``, ``json``) at start-up.
DEFAULT_INCLUDE_NAME = "pith-number.tex"
