"""The commands that fetch a document from the resolver, verify it, and act on it.

``pith-tex fetch`` (:mod:`.command`): a Pith Number's record, verified, written into
the include when the paper's title is the record's.  ``pith-tex citations``
(:mod:`.citationreport`): a paper's Paper Citation Record, verified, and what it says
about the references.  The click commands in :mod:`pith_tex.cli.commands` parse the
command line and call :func:`fetch_command` or :func:`citations_command`.
"""

from .citationreport import citations_command
from .command import FetchRequest, fetch_command

__all__ = ["FetchRequest", "citations_command", "fetch_command"]
