"""pith-tex: fetch, verify and write verified Pith Numbers for pith.sty.

Modules (each imports only the public names of the others):

``identifier``  parse what a user types as a Pith Number
``canonical``   canonical JSON, digest, number derivation, record shape, include patterns
``keys``        the pinned resolver keys and the :class:`~pith_tex.keys.Keyring`
``documents``   shape of resolver JSON and bundles
``resolver``    HTTP and on-disk mirror clients
``verify``      the checks and their outcome
``signatures``  the signature checks (bundles' receipts, includes), imported on demand
``citations``   Paper Citation Records: verify every digest, summarise the references
``citations_command``  the ``citations`` command: fetch, verify, the author's report
``batch``       many files fast (``verify DIR``)
``errors``      error types and exit codes
``include``     render / write / parse ``pith-number.tex``
``atomic``      atomic file replacement
``cache``       the verified-record cache
``discover``    find ``\\pithnumber{...}`` in the paper
``report``      text and JSON output
``console``     printing and exit statuses (the bottom of the command line)
``verify_cmd``  the body of ``pith-tex verify``
``readiness``   ``pith-tex check`` (a package: main file, pith.sty, include, shell escape,
                compile, PDF, the command), imported only by ``commands``
``helptext``    the words of ``--help`` (summaries, examples, exit codes), without click
``commands``    the ``pith-tex`` command line (click)
``cli``         the ``pith-tex`` entry point: plain ``verify`` and ``--help`` without
                click, else click

Imports flow one way: ``cli`` -> ``commands`` -> ``readiness`` -> ``console`` and the rest.
"""

#: The one version of pith-tex and of the pith.sty it ships (pith.sty's \ProvidesExplPackage
#: says the same; tests/python/test_py_version.py enforces it, scripts/set-version.sh
#: changes both).  Used by ``--version``, the HTTP User-Agent and the wheel's metadata.
__version__ = "1.0.0"

#: The include file ``fetch`` writes by default (:mod:`pith_tex.include`).  Defined here,
#: not in ``include``, so that the click command line shows it without importing
#: ``include`` (and ``canonical``, ``json``) at start-up.
DEFAULT_INCLUDE_NAME = "pith-number.tex"
