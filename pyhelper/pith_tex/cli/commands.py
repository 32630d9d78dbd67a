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
from typing import Any, Callable, Dict, Optional, Tuple

import click

from .. import DEFAULT_INCLUDE_NAME, __version__
from ..console import run_guarded
from .verify import verify_command

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
        run_guarded(functools.partial(fn, *args, **kwargs))

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
    state: Dict[str, Any] = {"number": None, "source": None, "checks": [], "include": None}
    try:
        code = _fetch(state, number, resolver, output, offline, require_signature,
                      as_json, timeout, deadline, main_file, accept_title)
    except Exception as e:
        from ..errors import PithError

        if as_json and isinstance(e, PithError):
            _emit_fetch_json(state, e.exit_code, e.message)
        raise
    if as_json:
        _emit_fetch_json(state, code, None)
    return code


def _emit_fetch_json(state: Dict[str, Any], code: int, error: Optional[str]) -> None:
    from ..report import checks_json, dumps
    from ..checks import VERDICTS

    click.echo(dumps({
        "command": "fetch", "number": state["number"], "source": state["source"],
        "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
        "checks": checks_json(state["checks"]), "include": state["include"], "error": error,
    }))


def _fetch(state: Dict[str, Any], number: Optional[str], resolver_opt: Optional[str],
           output: str, offline: bool, require_signature: bool, as_json: bool,
           timeout: float, deadline: float, main_file: Optional[str] = None,
           accept_title: bool = False) -> int:
    from ..resolver.cache import Cache
    from ..include.discover import find_pith_numbers
    from ..record.documents import parse_bundle_doc, parse_record_doc
    from ..checks import Check, FAIL
    from ..errors import (EXIT_FAILED, EXIT_OK, CouldNotCheck, UsageError, VerificationFailed,
                         safe_name)
    from ..record.identifier import check_requested_year, parse_identifier
    from ..include.include import IncludeData, check_output, write_include
    from ..report import check_lines
    from ..resolver.client import Deadline, HttpResolver, open_resolver, parse_body, resolver_spec
    from ..checks import decisive
    from ..record.verify import verify_record

    def say(text: str) -> None:
        if not as_json:
            click.echo(text)

    # Refuse -o main.tex, a FIFO, a device... first: before the network, and before the
    # number is looked for in the .tex files, which leave -o out (so -o main.tex with no
    # NUMBER would otherwise end in "no \pithnumber here" instead of the refusal).
    check_output(output)
    paper_dir = os.path.dirname(os.path.abspath(output))
    main_name = _paper_main(paper_dir, main_file)  # a bad --main: before the network
    if number is not None:
        ident = parse_identifier(number)
    else:
        out_dir = os.path.dirname(os.path.abspath(output))
        exclude = (os.path.basename(output),) if out_dir == os.path.abspath(".") else ()
        ident = find_pith_numbers(".", exclude=exclude)
    n = ident.number
    state["number"] = n
    spec = resolver_spec(resolver_opt)
    dl = Deadline(deadline)
    res = open_resolver(spec, timeout=timeout, deadline=dl)
    if isinstance(res, HttpResolver):
        res.on_retry = lambda line: click.echo("retry: " + line, err=True)
    cache = Cache()
    from_cache = offline and not res.is_local
    bundle_error = None
    if from_cache:
        entry = cache.load(n)
        if entry is None:
            raise CouldNotCheck("%s is not in the cache (%s) and --offline forbids the network: "
                                "run pith-tex fetch without --offline once" % (n, cache.root))
        state["source"] = cache.record_path(n)
        rec_body = entry[0]
        rec_data = parse_body(entry[0], cache.record_path(n))
        bun_body = entry[1]
        bun_data = None if entry[1] is None else parse_body(entry[1], cache.bundle_path(n))
        rec_where = cache.record_path(n)
        bun_where: Optional[str] = cache.bundle_path(n)
    else:
        state["source"] = res.description
        try:
            rec = res.record(n)
        except CouldNotCheck as e:
            hint = ""
            if not res.is_local and cache.has(n):
                hint = " (a verified copy is cached: use --offline to use it)"
            elif not res.is_local and "could not connect" in e.message:
                hint = (" (check the network and run pith-tex fetch again; --resolver URL|DIR"
                        " names another resolver or a mirror on disk)")
            raise CouldNotCheck(e.message + hint) from e
        rec_body, rec_data, rec_where = rec.body, rec.data, rec.where
        try:
            bun = res.bundle(n)
        except CouldNotCheck as e:
            bun, bundle_error = None, e.message
        bun_body = None if bun is None else bun.body
        bun_data = None if bun is None else bun.data
        bun_where = None if bun is None else bun.where
    record_doc = parse_record_doc(rec_data, rec_where)
    bundle_doc = None if bun_data is None else parse_bundle_doc(bun_data, bun_where or "bundle")
    outcome = verify_record(
        n, record_doc, bundle_doc, require_signature=require_signature,
        bundle_error=bundle_error,
        no_bundle_reason="the resolver has no bundle.json for it, so no receipt")
    from ..verify.files import with_duplicate_key

    for body, what in ((rec_body, "resolver JSON"), (bun_body, "bundle.json")):
        checked = with_duplicate_key(outcome, body, what)  # as verify of the same bytes
        if checked is not outcome:
            outcome = checked
            break
    shown = list(outcome.checks)
    year_error = None
    if outcome.exit_code == EXIT_OK and outcome.fields is not None:
        try:
            check_requested_year(ident, outcome.fields.year)
        except UsageError as e:  # the record is fine; the year typed is not: say so here
            year_error = e
            shown = [Check("year", FAIL, e.message) if c.name == "year" else c for c in shown]
    state["checks"] = shown
    say(check_lines(shown))
    if year_error is not None:
        raise year_error
    code = outcome.exit_code
    if code != EXIT_OK:
        # The decisive check (first failure, else first error) becomes the error line.
        bad = decisive(outcome.checks)
        assert bad is not None  # a non-zero exit code has a failed or erroneous check
        if code == EXIT_FAILED:
            unsigned = (require_signature and bad.name == "signature"
                        and bad.detail.endswith("(--require-signature)"))
            where = ""
            if from_cache and unsigned:
                where = (" (the cached record is intact but unsigned: the resolver has not "
                         "signed it yet)")
            elif from_cache:
                where = (" (the cached copy %s is tampered or corrupt: delete it and fetch "
                         "again)" % cache.record_path(n))
            raise VerificationFailed("verification failed%s: %s: %s; %s was left untouched"
                                     % (where, bad.name, bad.detail, output))
        raise CouldNotCheck("could not check: %s: %s; %s was left untouched"
                            % (bad.name, bad.detail, output))
    fields = outcome.fields
    # exit code 0: every check passed, so the record shape, digest and signature are known
    assert fields is not None and outcome.sha256 is not None and outcome.signature is not None
    # Is the number this paper's?  Decided before anything is written (docs/verification.md).
    title_line, accepted, accepted_title = _title_line(
        paper_dir, main_name, rec_data, record_doc.canonical_record, accept_title)
    paper = [] if title_line is None else [title_line]
    state["checks"] = shown + paper
    if title_line is not None and title_line.status == FAIL:
        say(check_lines(paper))
        if title_line.detail.startswith("not found:"):
            raise VerificationFailed("verification failed: title: %s; %s was left untouched"
                                     % (title_line.detail, output))
        raise VerificationFailed(
            "verification failed: title: %s; %s was left untouched.  If this is your "
            "paper and its title changed since the record, run pith-tex fetch "
            "--accept-title%s; else put this paper's own Pith Number in \\pithnumber"
            % (title_line.detail, output, "" if number is None else " " + number))
    written = write_include(output, IncludeData(
        number=n, year=fields.year, sha256=outcome.sha256,
        record=record_doc.canonical_record, signature=outcome.signature,
        key_id=outcome.key_id, signature_hex=outcome.signature_hex,
        title_accepted=accepted, title=_record_title(rec_data, record_doc.canonical_record),
        accepted_title=accepted_title))
    state["include"] = {"path": output, "written": written}
    if isinstance(main_name, str):
        from ..include.sty import ensure_sty

        paper.append(ensure_sty(paper_dir, main_name))
    state["checks"] = shown + paper
    if paper:
        say(check_lines(paper))
    say(("wrote %s" if written else "%s is up to date") % safe_name(output))
    if not from_cache and not res.is_local:
        try:
            cache.store(n, rec_body, bun_body)
        except OSError as e:
            click.echo("warning: could not cache the record in %s: %s"
                       % (cache.root, e.strerror or e), err=True)
    return 0


def _record_title(rec_data: Any, record: Dict[str, Any]) -> Optional[str]:
    """The resolver's ``paper.title`` when it is the record's (it hashes to
    ``title_canon_sha256``) and fits the include; None otherwise."""
    from ..include.include import MAX_TITLE_UNITS
    from ..record.canonical import canon_sha256

    paper = rec_data.get("paper") if isinstance(rec_data, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    if not isinstance(title, str) or canon_sha256(title) != record.get(
            "metadata", {}).get("title_canon_sha256"):
        return None
    try:
        units = len(title.encode("utf-16-be")) // 2
    except UnicodeEncodeError:
        return None
    return title if 1 <= units <= MAX_TITLE_UNITS else None


def _paper_main(paper_dir: str, main_file: Optional[str]) -> Any:
    """The paper's main file in *paper_dir* (where the include goes): its name; None
    when no paper is there; a :class:`~pith_tex.errors.UsageError` when there are
    several and nothing tells them apart (reported on the title line).  A bad ``--main``
    raises (exit 2)."""
    from ..errors import UsageError
    from ..check.mainfile import find_main

    if main_file is not None:
        return find_main(paper_dir, main_file)
    try:
        return find_main(paper_dir, paper=True)
    except UsageError as e:
        return e if e.message.startswith("several main files") else None


def _title_line(paper_dir: str, main: Any, rec_data: Any, record: Dict[str, Any],
                accept_title: bool) -> Tuple[Any, bool, Optional[str]]:
    """The ``title`` line of ``fetch`` (None: no paper beside the include), whether the
    include says the title was accepted (``--accept-title`` on a different title) and
    the title accepted, as typed (it travels in the include and the PDF, where check and
    verify compare page 1 with it)."""
    from ..checks import Check, FAIL, WARN
    from ..title.compare import DIFFERENT, as_typed, compare, title_check
    from ..title.source import find_title, has_document

    if main is None:
        return None, False, None
    if not isinstance(main, str):
        return Check("title", WARN, "not compared: %s" % main.message.replace(
            "; name the one arXiv should compile with --main FILE",
            ": name the paper's with pith-tex fetch --main FILE")), False, None
    try:
        found = find_title(paper_dir, main)
    except OSError as e:
        return Check("title", WARN, "not compared: cannot read %s: %s"
                     % (main, e.strerror or e)), False, None
    paper = rec_data.get("paper") if isinstance(rec_data, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    title = title if isinstance(title, str) else None
    canon = record.get("metadata", {}).get("title_canon_sha256")
    canon = canon if isinstance(canon, str) else None
    if found is None and not has_document(paper_dir, main):
        return title_check(None, canon, title, "%s has no \\begin{document}" % main), False, None
    if found is None:
        return _no_title(main, title, accept_title), accept_title, None
    raw = _likeliest(found, title, canon)
    where = "%s's %s" % (found.file, found.what)
    differs = compare(raw, title, canon).kind == DIFFERENT
    accepted = accept_title and differs
    line = title_check(raw, canon, title, where, accepted=accepted, on_different=FAIL)
    return line, accepted, as_typed(raw) if accepted else None


def _likeliest(found: Any, title: Optional[str], canon: Optional[str]) -> str:
    """The text of *found* that is the record's title, when one of those a title
    block offers is; else its first."""
    from ..title.compare import compare

    for raw in (found.raw,) + tuple(found.others):
        if compare(raw, title, canon).matches:
            return str(raw)
    return str(found.raw)


def _no_title(main: str, title: Optional[str], accept_title: bool) -> Any:
    """fetch's ``title`` line when the source has no title in a form it reads: a FAIL
    with the ways on (nothing binds the number to this paper), or, after
    ``--accept-title``, a WARN: check and verify compare the compiled page 1."""
    from ..checks import Check, FAIL, WARN
    from ..title.compare import shown
    from ..title.source import NOT_FOUND

    theirs = " %s" % shown(title) if title is not None else " known by its hash only"
    if accept_title:
        return Check("title", WARN, "not compared: %s; written as --accept-title asks: "
                     "check and verify compare the title page 1 of the compiled PDF shows "
                     "with the record's title%s" % (NOT_FOUND % main, theirs))
    return Check("title", FAIL, "not found: %s, so nothing here says the number is this "
                 "paper's (the record's title is%s): put the title in \\title{...}, or, if "
                 "the number is this paper's, run pith-tex fetch --accept-title (check and "
                 "verify then compare the title page 1 of the compiled PDF shows)"
                 % (NOT_FOUND % main, theirs))


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
    from .citations import citations_command

    return citations_command(target, resolver, offline, as_json, timeout, deadline)


@main.command(short_help=SUMMARIES["verify"], epilog=EPILOGS["verify"])
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--require-signature", is_flag=True, help=_REQ_HELP)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@_guard
def verify(paths: Tuple[str, ...], require_signature: bool, as_json: bool) -> int:
    """Check saved resolver JSON, bundles, citation records, includes (.tex), PDFs and
    directories, offline.

    A directory is searched recursively for *.json files; it is reported with one line
    per file and a summary.
    """
    return verify_command(paths, require_signature, as_json)


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

    return check_command(directory, route, fix, main_file, as_json, tarball, html)
