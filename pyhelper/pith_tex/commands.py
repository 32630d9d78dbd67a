"""The click definition of the ``pith-tex`` command line.

:mod:`pith_tex.cli` is the entry point: it runs the plain ``verify [--json]
[--require-signature] PATH...`` form itself, without importing click, and hands every
other command line (help, options, errors, ``fetch``) to the group defined here.  Only
click is imported at start-up; everything else is imported inside the commands so
``pith-tex --help`` stays fast.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Dict, List, Optional, Tuple

import click

from . import DEFAULT_INCLUDE_NAME, __version__
from .console import run_guarded
from .verify_cmd import verify_command

_JSON_HELP = "Print one JSON object (see the pith_tex.report docstring) instead of text."
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pith-tex")
def main() -> None:
    """Fetch and verify Pith Numbers for pith.sty.

    \b
    Exit codes: 0 verified, 1 verification failed, 2 usage error, 3 could not check.
    """


@main.command()
@click.argument("number", required=False)
@click.option("--resolver", metavar="URL|DIR",
              help="Resolver base URL or a local mirror directory "
                   "[env PITH_RESOLVER; default https://pith.science].")
@click.option("-o", "--output", default=DEFAULT_INCLUDE_NAME, show_default=True,
              type=click.Path(dir_okay=False), help="The include file to write.")
@click.option("--offline", is_flag=True,
              help="Use only the cache or a local mirror directory; no network.")
@click.option("--require-signature", is_flag=True, help=_REQ_HELP)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@_network_options
@_guard
def fetch(number: Optional[str], resolver: Optional[str], output: str, offline: bool,
          require_signature: bool, as_json: bool, timeout: float, deadline: float) -> int:
    """Fetch NUMBER's record, verify it, and write the include.

    NUMBER may be NUM, pith:NUM, pith:YYYY:NUM or https://pith.science/pith/NUM.
    Without NUMBER, the \\pithnumber{...} of the .tex files here is used.  The include
    is written only when every check passed; on any failure it is left untouched.
    """
    state: Dict[str, Any] = {"number": None, "source": None, "checks": [], "include": None}
    try:
        code = _fetch(state, number, resolver, output, offline, require_signature,
                      as_json, timeout, deadline)
    except Exception as e:
        from .errors import PithError

        if as_json and isinstance(e, PithError):
            _emit_fetch_json(state, e.exit_code, e.message)
        raise
    if as_json:
        _emit_fetch_json(state, code, None)
    return code


def _emit_fetch_json(state: Dict[str, Any], code: int, error: Optional[str]) -> None:
    from .report import checks_json, dumps
    from .checks import VERDICTS

    click.echo(dumps({
        "command": "fetch", "number": state["number"], "source": state["source"],
        "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
        "checks": checks_json(state["checks"]), "include": state["include"], "error": error,
    }))


def _fetch(state: Dict[str, Any], number: Optional[str], resolver_opt: Optional[str],
           output: str, offline: bool, require_signature: bool, as_json: bool,
           timeout: float, deadline: float) -> int:
    from .cache import Cache
    from .discover import find_pith_numbers
    from .documents import parse_bundle_doc, parse_record_doc
    from .checks import Check, FAIL
    from .errors import (EXIT_FAILED, EXIT_OK, CouldNotCheck, UsageError, VerificationFailed,
                         safe_name)
    from .identifier import check_requested_year, parse_identifier
    from .include import IncludeData, check_output, write_include
    from .report import check_lines
    from .resolver import Deadline, HttpResolver, open_resolver, parse_body, resolver_spec
    from .checks import decisive
    from .verify import verify_record

    def say(text: str) -> None:
        if not as_json:
            click.echo(text)

    # Refuse -o main.tex, a FIFO, a device... first: before the network, and before the
    # number is looked for in the .tex files, which leave -o out (so -o main.tex with no
    # NUMBER would otherwise end in "no \pithnumber here" instead of the refusal).
    check_output(output)
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
            raise CouldNotCheck(e.message + hint)
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
    from .files import with_duplicate_key

    for body, what in ((rec_body, "resolver JSON"), (bun_body, "bundle.json")):
        checked = with_duplicate_key(outcome, body, what)  # as verify of the same bytes
        if checked is not outcome:
            outcome = checked
            break
    shown = [_author_facing(c) for c in outcome.checks]
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
    written = write_include(output, IncludeData(
        number=n, year=fields.year, sha256=outcome.sha256,
        record=record_doc.canonical_record, signature=outcome.signature,
        key_id=outcome.key_id, signature_hex=outcome.signature_hex))
    state["include"] = {"path": output, "written": written}
    paper = _paper_checks(os.path.dirname(os.path.abspath(output)), rec_data,
                          record_doc.canonical_record)
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


def _author_facing(c: Any) -> Any:
    """A missing receipt is the resolver's to fix, not the author's: shown as OK with what
    it means, not as a warning on every run (``--require-signature`` still refuses it)."""
    from .checks import Check, OK, WARN

    if c.name == "signature" and c.status == WARN:
        return Check("signature", OK, "unsigned: the resolver has not signed this record yet; "
                     "nothing to do, the hash proves the number (--require-signature "
                     "refuses unsigned records)")
    return c


def _paper_checks(paper_dir: str, rec_data: Any, record: Dict[str, Any]) -> List[Any]:
    """``title`` and ``pith.sty`` when *paper_dir* (where the include goes) holds the
    paper's main file: is the number this paper's, and will TeX find pith.sty?"""
    from .discover import read_tex
    from .errors import UsageError
    from .readiness.mainfile import find_main
    from .sty import ensure_sty
    from .title import paper_title, title_check

    from .checks import Check, WARN

    try:
        main_name = find_main(paper_dir)
        source = read_tex(os.path.join(paper_dir, main_name))
    except UsageError as e:
        if not e.message.startswith("several main files"):
            return []  # no paper there: nothing to compare, nowhere to put pith.sty
        return [Check("title", WARN, "not compared: %s" % e.message.replace(
                    "; name the one arXiv should compile with --main FILE", "")),
                ensure_sty(paper_dir, "the main files")]
    except OSError:
        return []
    paper = rec_data.get("paper") if isinstance(rec_data, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    canon = record.get("metadata", {}).get("title_canon_sha256")
    return [title_check(paper_title(source), canon if isinstance(canon, str) else None,
                        title if isinstance(title, str) else None, main_name),
            ensure_sty(paper_dir, main_name)]


@main.command()
@click.argument("target", metavar="ARXIV_ID|FILE")
@click.option("--resolver", metavar="URL|DIR",
              help="Resolver base URL or a local mirror directory "
                   "[env PITH_RESOLVER; default https://pith.science].")
@click.option("--offline", is_flag=True,
              help="Read a local mirror directory (--resolver DIR) only; no network.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (see docs/citations.md) instead of text.")
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
    from .citations_command import citations_command

    return citations_command(target, resolver, offline, as_json, timeout, deadline)


@main.command()
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


@main.command()
@click.argument("directory", metavar="[DIR]", default=".",
                type=click.Path(file_okay=False))
@click.option("--route", type=click.Choice(["pdflatex", "dvips", "xelatex"]),
              default="pdflatex", show_default=True,
              help="arXiv's route to compile on: pdflatex; latex + dvips -R2 + ps2pdf; xelatex.")
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
              help="Print one JSON object (see pith_tex.readiness.check_json) instead of text.")
@_guard
def check(directory: str, route: str, fix: bool, main_file: Optional[str],
          tarball: Optional[str], html: str, as_json: bool) -> int:
    """Check that the paper in DIR is ready to upload to arXiv.

    Finds the main file, checks pith.sty, the include and its number, looks for anything
    that needs shell escape, compiles a copy of DIR the way arXiv does (no shell escape,
    at most 5 runs) and verifies the PDF.  One line per check.
    """
    from .readiness import check_command

    return check_command(directory, route, fix, main_file, as_json, tarball, html)
