"""The click definition of the ``pith-tex`` command line: click parses every command line
and prints every ``--help``.

The help texts below are click's help and epilogs: each command's one-line summary, and
its epilog (the files it writes, examples, its exit codes) as ``\\b`` blocks (click keeps
their lines as written), each line at most 76 characters, so that they read the same on
every terminal.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Optional, Tuple

import click

from .. import DEFAULT_INCLUDE_NAME, __version__
from ..console import run_guarded
from ..verify.command import verify_command

#: ``pith-tex --help``'s description (click indents it by 2).
MAIN_HELP = """\
Put a verified Pith Number on a paper with pith.sty; get it ready for arXiv.

\b
Exit codes: 0 verified or ready, 1 verification failed or not ready,
2 usage error, 3 could not check (each command's --help says more)."""

#: After the command list.
MAIN_EPILOG = """\
\b
Examples:
  pith-tex fetch                          # in the paper's directory
  pdflatex main.tex                       # compile as usual
  pith-tex check --tarball upload.tar.gz  # ready? write arXiv's upload
  pith-tex verify main.pdf                # check a PDF's number, offline
  pith-tex COMMAND --help                 # options, files written, examples"""

#: One line each in the command list (at most 60 characters: it fits beside the names).
SUMMARIES = {
    "check": "Check that a paper is ready for arXiv; write the upload.",
    "citations": "Verify a paper's Citation Record; list unresolved references.",
    "fetch": "Verify a Pith Number; write the include (and pith.sty).",
    "verify": "Verify PDFs, includes and saved records, offline.",
}

#: The epilog of each command: what it writes, examples, exit codes.
EPILOGS = {
    "fetch": """\
\b
Writes: the include (-o, default pith-number.tex) and, when TeX finds no
pith.sty, pith.sty beside the paper's main file; nothing unless every check
passed. The verified record is cached (PITH_TEX_CACHE_DIR moves the cache).

\b
Examples:
  pith-tex fetch                        # the \\pithnumber in the .tex files
  pith-tex fetch pith:2025:O6TNNA4XHFGPSALGBT7UWDA2Z3
  pith-tex fetch --offline              # from the cache: no network
  pith-tex fetch --resolver ../mirror   # a mirror directory on disk

\b
Exit codes: 0 verified, include written or up to date; 1 verification
failed (nothing written); 2 usage error (bad number, no or several
\\pithnumber); 3 could not check (network, timeout, no such record).""",
    "check": """\
\b
Writes: nothing in DIR, unless asked: --tarball FILE writes the upload
(only when the paper is ready), --fix writes pith.sty beside the main file.
TeX runs on a scratch copy of DIR, which is removed afterwards.

\b
Examples:
  pith-tex check                          # the paper in this directory
  pith-tex check --tarball upload.tar.gz  # then upload that file to arXiv
  pith-tex check paper/ --route xelatex   # as arXiv compiles it: xelatex
  pith-tex check --fix --main paper.tex   # copy this pith-tex's pith.sty

\b
Exit codes: 0 ready (warnings allowed); 1 not ready (a check failed);
2 usage error (no or several main files: use --main); 3 could not check
(no TeX installed).""",
    "verify": """\
\b
Writes: nothing.

\b
Examples:
  pith-tex verify main.pdf          # the PDF's number, from its own record
  pith-tex verify pith-number.tex   # the include fetch wrote
  pith-tex verify .                 # a directory: PDFs, include, *.json
                                    # (a PDF with no Pith Number: listed)
  pith-tex verify --json main.pdf

\b
Exit codes: 0 every file verified; 1 a file failed verification; 2 usage
error; 3 a file could not be checked (not a PDF, no Pith metadata) and
none failed. In a directory, a PDF with no Pith metadata (a figure) is
listed as carrying no Pith Number and changes no exit code.""",
    "citations": """\
\b
Writes: nothing.

\b
Examples:
  pith-tex citations 2509.03047                 # your paper's arXiv id
  pith-tex citations citation-record.json       # a saved record, offline
  pith-tex citations 2601.16956 --resolver examples/mirror --offline

\b
Exit codes: 0 verified; 1 a digest does not verify; 2 usage error (not an
arXiv id); 3 could not check (network, timeout, no record).""",
}

#: ``--json``'s help, the same for every command: the fields themselves, since the wheel
#: installs no docs (docs/cli.md, "--json", in the sources, lists every one).
JSON_HELP = ("Print one JSON object instead of text: command, exit_code, verdict, and "
             "each check as name, status and detail.")
_JSON_HELP = JSON_HELP
_REQ_HELP = "Fail (exit 1) when the record carries no signed receipt."
#: The resolver or mirror directory when --resolver is not given (read here, at the top:
#: nothing below the command line reads the environment).
_ENV_RESOLVER = "PITH_RESOLVER"


def _network_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--timeout`` and ``--deadline``, the same for every command that fetches."""
    fn = click.option("--deadline", default=60.0, show_default=True, metavar="S",
                      type=click.FloatRange(min=0, min_open=True),
                      help="Time budget of the whole command, in seconds.")(fn)
    return click.option("--timeout", default=10.0, show_default=True, metavar="S",
                        type=click.FloatRange(min=0, min_open=True),
                        help="Connect/read timeout of each request, in seconds.")(fn)


def _guard(fn: Callable[..., int]) -> Callable[..., None]:
    """Run a command body with :func:`pith_tex.cli.run_guarded` (exit code, errors)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        run_guarded(functools.partial(fn, *args, **kwargs),
                    debug=bool(os.environ.get("PITH_TEX_DEBUG")))

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             help=MAIN_HELP, epilog=MAIN_EPILOG)
@click.version_option(__version__, prog_name="pith-tex")
def main() -> None:
    pass


@main.command(short_help=SUMMARIES["fetch"], epilog=EPILOGS["fetch"])
@click.argument("number", required=False)
@click.option("--resolver", metavar="URL|DIR",
              help="Resolver base URL or a local mirror directory "
                   "[env PITH_RESOLVER; default https://pith.science].")
@click.option("-o", "--output", default=DEFAULT_INCLUDE_NAME, show_default=True,
              type=click.Path(dir_okay=False), help="The include file to write.")
@click.option("--offline", is_flag=True,
              help="No network: use the verified-record cache, or the mirror "
                   "directory that --resolver DIR names.")
@click.option("--require-signature", is_flag=True, help=_REQ_HELP)
@click.option("--main", "main_file", metavar="FILE",
              help="The paper's main .tex file, when the include's directory has several "
                   "with \\documentclass (a cover letter, a rebuttal).")
@click.option("--accept-title", is_flag=True,
              help="Write the include although the paper's title differs from the "
                   "record's (the title changed since the record: the new title goes into "
                   "the include and the PDF, and check and verify show both), or although "
                   "no title was found in the paper.")
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@_network_options
@_guard
def fetch(number: Optional[str], resolver: Optional[str], output: str, offline: bool,
          require_signature: bool, main_file: Optional[str], accept_title: bool,
          as_json: bool, timeout: float, deadline: float) -> int:
    """Fetch NUMBER's record, verify it, and write the include.

    NUMBER may be NUM, pith:NUM, pith:YYYY:NUM or https://pith.science/pith/NUM.
    Without NUMBER, the \\pithnumber{...} of the .tex files here is used.  The include
    is written only when every check passed and the paper's title is the record's (up
    to formatting); on any failure it is left untouched.
    """
    from ..fetch import FetchRequest, fetch_command

    resolver = resolver or os.environ.get(_ENV_RESOLVER)
    return fetch_command(FetchRequest(number, resolver, output, offline, require_signature,
                                      main_file, accept_title, as_json, timeout, deadline))


@main.command(short_help=SUMMARIES["citations"], epilog=EPILOGS["citations"])
@click.argument("target", metavar="ARXIV_ID|FILE")
@click.option("--resolver", metavar="URL|DIR",
              help="Resolver base URL or a local mirror directory "
                   "[env PITH_RESOLVER; default https://pith.science].")
@click.option("--offline", is_flag=True,
              help="No network: read the mirror directory that --resolver DIR names "
                   "(citation records are not cached).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object instead of text: command, exit_code, verdict, "
                   "each check as name, status and detail, and the record's references "
                   "and their counts.")
@_network_options
@_guard
def citations(target: str, resolver: Optional[str], offline: bool, as_json: bool,
              timeout: float, deadline: float) -> int:
    """Verify a paper's Paper Citation Record and list what it says about its references.

    ARXIV_ID (2601.16956, hep-th/9901001, arXiv:2601.16956v2) is fetched from
    /paper/ARXIV_ID/citation-record.json; a saved record FILE is verified offline.
    Prints how many references resolved, the ones that did not (reference index and
    title: fix those bibliography entries), standing notices such as retractions on the
    cited works, and the Pith papers that cite this one; nothing unless every digest
    verified.
    """
    from ..fetch import citations_command

    resolver = resolver or os.environ.get(_ENV_RESOLVER)
    return citations_command(target, resolver, offline, as_json, timeout, deadline)


@main.command(short_help=SUMMARIES["verify"], epilog=EPILOGS["verify"])
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--require-signature", is_flag=True, help=_REQ_HELP)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@click.option("-j", "--jobs", type=click.IntRange(min=1), metavar="N",
              help="Worker processes for directories and tar archives [default: the CPUs; "
                   "a directory starts one for every 8 PDFs or 4,000 other files].")
@click.option("--resume", type=click.Path(dir_okay=False), metavar="FILE",
              help="Tar archives with --json: skip the members whose lines FILE (the JSON "
                   "Lines of an earlier run) already holds; append to it with >> FILE.")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help="Verify the tar archives on a Dask cluster (pip install "
                   "'pith-tex[scale]'); the workers must read the archives' paths.")
@_guard
def verify(paths: Tuple[str, ...], require_signature: bool, as_json: bool,
           jobs: Optional[int], resume: Optional[str], scheduler: Optional[str]) -> int:
    """Check saved resolver JSON, bundles, citation records, includes (.tex), PDFs,
    directories and tar archives of PDFs, offline.

    A directory is searched recursively for *.json files; it is reported with one line
    per file and a summary.  A tar archive (.tar, .tar.gz) is streamed, never extracted:
    one line per PDF member, written as each is decided.
    """
    if scheduler is not None:
        from ..scale.command import scheduler_command

        return scheduler_command(scheduler, paths, require_signature, as_json, resume)
    return verify_command(paths, require_signature, as_json, jobs, resume)


@main.command(short_help=SUMMARIES["check"], epilog=EPILOGS["check"])
@click.argument("directory", metavar="[DIR]", default=".",
                type=click.Path(file_okay=False))
@click.option("--route", type=click.Choice(["pdflatex", "dvips", "xelatex"]),
              default="pdflatex", show_default=True, metavar="ROUTE",
              help="How arXiv compiles the paper: pdflatex, dvips (latex + dvips -R2 + "
                   "ps2pdf) or xelatex.")
@click.option("--fix", is_flag=True,
              help="Copy (or replace) pith.sty with the one shipped in this pith-tex.")
@click.option("--main", "main_file", metavar="FILE",
              help="The main .tex file, when DIR has several with \\documentclass.")
@click.option("--tarball", metavar="FILE", type=click.Path(dir_okay=False),
              help="When the paper is ready, write FILE (.tar.gz) with exactly the files "
                   "the compile read from DIR: the upload for arXiv.")
@click.option("--html", type=click.Choice(["title", "full", "off"]), default="title",
              show_default=True,
              help="What LaTeXML converts to check the badge in arXiv's HTML view: the "
                   "preamble and title block (fast), the whole paper, or nothing.")
@click.option("--json", "as_json", is_flag=True,
              help=JSON_HELP)
@_guard
def check(directory: str, route: str, fix: bool, main_file: Optional[str],
          tarball: Optional[str], html: str, as_json: bool) -> int:
    """Check that the paper in DIR is ready to upload to arXiv.

    Finds the main file, checks pith.sty, the include and its number, looks for anything
    that needs shell escape, compiles a copy of DIR the way arXiv does (no shell escape,
    at most 5 runs) and verifies the PDF.  One line per check.
    """
    from ..check import check_command

    # The record's title, for the title check, may be in a mirror on disk.
    mirror = os.environ.get(_ENV_RESOLVER, "")
    return check_command(directory, route, fix, main_file, as_json, tarball, html, mirror)
