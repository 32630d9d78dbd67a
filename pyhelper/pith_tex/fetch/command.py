"""``pith-tex fetch``: a Pith Number's record, verified, written into the include.

The steps, in order: refuse a bad ``-o`` and ``--main`` (before the network), find the
number, get the record and bundle (:mod:`.obtain`), verify them, say whether the paper's
title is the record's (:mod:`.papertitle`), and only then write the include, copy
pith.sty beside the paper when TeX has none or an older one, and cache the record.
On any failure the include is left untouched.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from ..checks import FAIL, VERDICTS, Check, Outcome, decisive
from ..console import echo
from ..errors import (EXIT_FAILED, EXIT_OK, CouldNotCheck, PithError, UsageError,
                      VerificationFailed, safe_name)
from ..include.discover import find_pith_numbers
from ..include.include import IncludeData, check_output, write_include
from ..include.sty import ensure_sty
from ..record.identifier import Identifier, check_requested_year, parse_identifier
from ..report import check_lines, checks_json, dumps
from ..resolver.cache import Cache
from ..sourcetree import SourceTree
from ..resolver.client import Deadline, HttpResolver, Resolver, open_resolver, resolver_spec
from .obtain import Obtained, from_cache, from_resolver, verified
from .papertitle import MainFile, paper_main, record_title, title_line


class FetchRequest(NamedTuple):
    """``pith-tex fetch``'s command line."""

    number: Optional[str]  # as typed; None: the paper's \pithnumber
    resolver: Optional[str]  # --resolver URL|DIR
    output: str  # -o: the include to write
    offline: bool = False
    require_signature: bool = False
    main_file: Optional[str] = None  # --main
    accept_title: bool = False
    as_json: bool = False
    timeout: float = 10.0
    deadline: float = 60.0


class Said:
    """What fetch reported, for ``--json`` (also after an error)."""

    def __init__(self) -> None:
        self.number: Optional[str] = None
        self.source: Optional[str] = None
        self.checks: List[Check] = []
        self.include: Optional[Dict[str, Any]] = None

    def json(self, code: int, error: Optional[str]) -> str:
        return dumps({
            "command": "fetch", "number": self.number, "source": self.source,
            "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
            "checks": checks_json(self.checks), "include": self.include, "error": error,
        })


def fetch_command(request: FetchRequest) -> int:
    """The body of ``pith-tex fetch``: 0, or the decisive error raised (and with
    ``--json``, the JSON object printed either way)."""
    said = Said()
    try:
        code = fetch(request, said)
    except PithError as e:
        if request.as_json:
            echo(said.json(e.exit_code, e.message))
        raise
    if request.as_json:
        echo(said.json(code, None))
    return code


def fetch(request: FetchRequest, said: Said) -> int:
    """Every step of ``fetch`` (see the module docstring); *said* collects the report."""
    say = _sayer(request.as_json)
    output = request.output
    # Refuse -o main.tex, a FIFO, a device... first: before the network, and before the
    # number is looked for in the .tex files, which leave -o out (so -o main.tex with no
    # NUMBER would otherwise end in "no \pithnumber here" instead of the refusal).
    check_output(output)
    paper = SourceTree(os.path.dirname(os.path.abspath(output)))  # read once
    main_name = paper_main(paper, request.main_file)  # a bad --main: before the network
    ident = _identifier(request.number, output, paper)
    n = ident.number
    said.number = n
    res = open_resolver(resolver_spec(request.resolver), timeout=request.timeout,
                        deadline=Deadline(request.deadline))
    if isinstance(res, HttpResolver):
        res.on_retry = lambda line: echo("retry: " + line, err=True)
    cache = Cache()
    if request.offline and not res.is_local:
        got = from_cache(cache, n)
    else:
        said.source = res.description
        got = from_resolver(res, cache, n)
    said.source = got.source
    record_doc, outcome = verified(n, got, request.require_signature)
    year_error = _year_error(outcome, ident)
    shown = _shown(outcome, year_error)
    said.checks = shown
    say(check_lines(shown))
    if year_error is not None:
        raise year_error
    _refuse(request, outcome, got, cache.record_path(n))
    record = record_doc.canonical_record
    lines, accepted_title = _title(request, said, shown, paper, main_name, got, record)
    _write(request, said, n, outcome, got, record, accepted_title)
    if isinstance(main_name, str):
        lines.append(ensure_sty(paper.directory, main_name))
    said.checks = shown + lines
    if lines:
        say(check_lines(lines))
    assert said.include is not None  # _write wrote it, or raised
    say(("wrote %s" if said.include["written"] else "%s is up to date") % safe_name(output))
    _store(res, cache, n, got)
    return 0


def _sayer(as_json: bool) -> Callable[[str], None]:
    def say(text: str) -> None:
        if not as_json:
            echo(text)
    return say


def _identifier(number: Optional[str], output: str, paper: SourceTree) -> Identifier:
    """The number typed, else the one the ``.tex`` files here name (not the include;
    *paper*: the include's directory, read once, when it is here)."""
    if number is not None:
        return parse_identifier(number)
    if paper.directory != os.path.abspath("."):
        return find_pith_numbers(".")
    return find_pith_numbers(".", exclude=(os.path.basename(output),),
                             listdir=paper.listdir, read=paper.text)


def _year_error(outcome: Outcome, ident: Identifier) -> Optional[UsageError]:
    """The error of a year typed that is not the record's (the record is fine; the year
    typed is not: the ``year`` line says so, then this is raised)."""
    if outcome.exit_code == EXIT_OK and outcome.fields is not None:
        try:
            check_requested_year(ident, outcome.fields.year)
        except UsageError as e:
            return e
    return None


def _shown(outcome: Outcome, year_error: Optional[UsageError]) -> List[Check]:
    """The record's check lines, the ``year`` line a FAIL after *year_error*."""
    if year_error is None:
        return list(outcome.checks)
    return [Check("year", FAIL, year_error.message) if c.name == "year" else c
            for c in outcome.checks]


def _refuse(request: FetchRequest, outcome: Outcome, got: Obtained, cached: str) -> None:
    """Raise the decisive check (first failure, else first error) as the error line when
    the record did not verify; *cached*: the cache's file of the record."""
    code = outcome.exit_code
    if code == EXIT_OK:
        return
    bad = decisive(outcome.checks)
    assert bad is not None  # a non-zero exit code has a failed or erroneous check
    if code == EXIT_FAILED:
        unsigned = (request.require_signature and bad.name == "signature"
                    and bad.detail.endswith("(--require-signature)"))
        where = ""
        if got.from_cache and unsigned:
            where = (" (the cached record is intact but unsigned: the resolver has not "
                     "signed it yet)")
        elif got.from_cache:
            where = (" (the cached copy %s is tampered or corrupt: delete it and fetch "
                     "again)" % cached)
        raise VerificationFailed("verification failed%s: %s: %s; %s was left untouched"
                                 % (where, bad.name, bad.detail, request.output))
    raise CouldNotCheck("could not check: %s: %s; %s was left untouched"
                        % (bad.name, bad.detail, request.output))


def _title(request: FetchRequest, said: Said, shown: List[Check], paper: SourceTree,
           main: MainFile, got: Obtained, record: Dict[str, Any]
           ) -> Tuple[List[Check], "_Accepted"]:
    """The paper's lines (the title line, when a paper is beside the include) and what
    the include says of an accepted title; raises when the title is not the record's."""
    line, accepted, accepted_title = title_line(paper, main, got.rec_data, record,
                                                request.accept_title)
    lines = [] if line is None else [line]
    said.checks = shown + lines
    if line is None or line.status != FAIL:
        return lines, _Accepted(accepted, accepted_title)
    if not request.as_json:
        echo(check_lines(lines))
    if line.detail.startswith("not found:"):
        raise VerificationFailed("verification failed: title: %s; %s was left untouched"
                                 % (line.detail, request.output))
    raise VerificationFailed(
        "verification failed: title: %s; %s was left untouched.  If this is your "
        "paper and its title changed since the record, run pith-tex fetch "
        "--accept-title%s; else put this paper's own Pith Number in \\pithnumber"
        % (line.detail, request.output,
           "" if request.number is None else " " + request.number))


class _Accepted(NamedTuple):
    note: bool  # the include says the title was accepted (--accept-title, different)
    title: Optional[str]  # the title accepted, as typed


def _write(request: FetchRequest, said: Said, n: str, outcome: Outcome, got: Obtained,
           record: Dict[str, Any], accepted: "_Accepted") -> None:
    """Write the include (every check passed, so shape, digest and signature are known)."""
    fields = outcome.fields
    assert fields is not None and outcome.sha256 is not None and outcome.signature is not None
    written = write_include(request.output, IncludeData(
        number=n, year=fields.year, sha256=outcome.sha256,
        record=record, signature=outcome.signature,
        key_id=outcome.key_id, signature_hex=outcome.signature_hex,
        title_accepted=accepted.note, title=record_title(got.rec_data, record),
        accepted_title=accepted.title))
    said.include = {"path": request.output, "written": written}


def _store(res: Resolver, cache: Cache, n: str, got: Obtained) -> None:
    """Keep the verified record in the cache (a record from the network only)."""
    if got.from_cache or res.is_local:
        return
    try:
        cache.store(n, got.rec_body, got.bun_body)
    except OSError as e:
        echo("warning: could not cache the record in %s: %s"
             % (cache.root, e.strerror or e), err=True)
