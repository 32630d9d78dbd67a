"""``pith-tex citations ARXIV_ID|FILE``: fetch a paper's Paper Citation Record, verify it
(:mod:`pith_tex.citations.record`), and tell the author what it says about their references.

``ARXIV_ID`` (``2601.16956``, ``arXiv:2601.16956v2``, ``hep-th/9901001``, an arxiv.org
``abs`` URL) is fetched from ``paper/ID/citation-record.json`` under the resolver or mirror
directory (``--resolver``, ``$PITH_RESOLVER``, ``https://pith.science``), with ``fetch``'s
client: per-request timeout, one deadline, retries, and a body cap of
:data:`pith_tex.citations.record.MAX_RECORD` (8 MiB) for this document type.  ``--offline``
reads a mirror directory only.  A FILE (a saved record) is verified offline.

Nothing the record says is shown unless every check passed.  Every string from the record
is untrusted: the text report escapes it with :func:`pith_tex.errors.printable` (no
control character, terminal escape, bidi control or line break reaches the terminal);
``--json`` prints ASCII-escaped JSON.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional

from ..record import canonical
from ..citations import record as citations
from ..checks import VERDICTS, Outcome, decisive
from click import echo
from ..errors import (EXIT_FAILED, EXIT_OK, CouldNotCheck, PithError, UsageError,
                     VerificationFailed, printable, show)

_PREFIX_RE = re.compile(r"(?:arxiv:|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)",
                        re.IGNORECASE)
_VERSION_RE = re.compile(r"v[1-9][0-9]*\Z")


def parse_arxiv_id(text: str) -> str:
    """The arXiv id without version, from what a user types; :class:`UsageError` else."""
    t = text.strip()
    m = _PREFIX_RE.match(t)
    if m:
        t = t[m.end():]
    t = _VERSION_RE.sub("", t)
    if canonical.ARXIV_ID_RE.match(t):
        return t
    hint = ""
    bare = t.upper().replace("PITH:", "")
    if canonical.NUMBER_RE.match(bare[-26:]) and len(bare) >= 26:
        hint = " (that looks like a Pith Number: citations takes the paper's arXiv id)"
    raise UsageError("%s is neither an arXiv identifier (2601.16956, hep-th/9901001) nor a "
                     "saved citation record file%s" % (show(text), hint))


def _load(target: str, resolver_opt: Optional[str], offline: bool, timeout: float,
          deadline: float, state: Dict[str, Any]) -> Outcome:
    """Get and verify the record; sets ``state`` (``source``, ``arxiv_id``, ``data``)."""
    if os.path.isfile(target):  # a saved record: offline, whatever the options say
        from ..verify.files import decode_json, read_file

        state["source"] = target
        data, failed = read_file(target)
        obj = None
        if failed is None:
            obj, failed = decode_json(target, data)
        if failed is not None:
            raise CouldNotCheck("%s: %s" % (target, failed.error))
        if not citations.is_citation_record(obj):
            raise CouldNotCheck("%s: not a Paper Citation Record (no schema: %s)"
                                % (target, citations.SCHEMA))
        expected = citations.expected_arxiv_id(target)
        state["arxiv_id"] = expected
        outcome = citations.verify_citation_record(obj, target, data, expected)
    else:
        from ..resolver.client import Deadline, open_resolver, resolver_spec

        aid = parse_arxiv_id(target)
        state["arxiv_id"] = aid
        spec = resolver_spec(resolver_opt)
        res = open_resolver(spec, timeout=timeout, deadline=Deadline(deadline))
        if offline and not res.is_local:
            raise UsageError("--offline reads a mirror directory only: give --resolver DIR "
                             "(or a saved record file)")
        state["source"] = res.description
        rel = citations.RECORD_PATH % aid
        doc = res.document(rel, citations.MAX_RECORD)
        if doc is None:
            raise CouldNotCheck("%s/%s: no citation record for arXiv:%s (%s)" % (
                res.description.rstrip("/"), rel, aid,
                "no such file" if res.is_local else "HTTP 404"))
        state["source"] = doc.where
        obj = doc.data
        outcome = citations.verify_citation_record(obj, doc.where, doc.body, aid)
    state["data"] = obj
    return outcome


def citations_command(target: str, resolver_opt: Optional[str], offline: bool,
                      as_json: bool, timeout: float, deadline: float) -> int:
    """The body of ``pith-tex citations`` (its JSON: ``docs/citations.md``)."""
    from ..report import check_lines

    state: Dict[str, Any] = {"source": None, "arxiv_id": None, "data": None}
    outcome: Optional[Outcome] = None
    try:
        outcome = _load(target, resolver_opt, offline, timeout, deadline, state)
        if not as_json:
            echo(check_lines(outcome.checks))
        code = outcome.exit_code
        if code != EXIT_OK:
            bad = decisive(outcome.checks)
            assert bad is not None  # a non-zero exit code has a failed or erroneous check
            msg = "%s: %s: %s" % (state["source"], bad.name, bad.detail)
            if code == EXIT_FAILED:
                raise VerificationFailed("verification failed: " + msg)
            raise CouldNotCheck("could not check: " + msg)
        summary = citations.summary(state["data"])
        text = "" if as_json else render(summary)
    except RecursionError as err:  # a verified record nested just below the parser's limit
        e2 = CouldNotCheck("%s: nested too deeply to show" % state["source"])
        if as_json:
            _emit_json(state, outcome, e2.exit_code, None, e2.message)
        raise e2 from err
    except PithError as e:
        if as_json:
            _emit_json(state, outcome, e.exit_code, None, e.message)
        raise
    if as_json:
        _emit_json(state, outcome, EXIT_OK, summary, None)
    else:
        echo("\n" + text)
    return EXIT_OK


def _emit_json(state: Dict[str, Any], outcome: Optional[Outcome], code: int,
               summary: Optional[Dict[str, Any]], error: Optional[str]) -> None:
    from ..report import checks_json, dumps

    echo(dumps({
        "command": "citations", "arxiv_id": state["arxiv_id"], "source": state["source"],
        "exit_code": code, "verdict": VERDICTS.get(code, "could-not-check"),
        "checks": [] if outcome is None else checks_json(outcome.checks),
        "record": summary, "error": error,
    }))


# ------------------------------------------------------------------ the text report


def _t(value: Any, limit: int = 300) -> str:
    """Any record value as one safe line: strings escaped, anything else as JSON."""
    if type(value) is str:
        return printable(value, limit)
    if value is None:
        return "(none)"
    return printable(canonical.canonical_text(value), limit)


def _label(value: Any) -> str:
    """``verified_exact`` -> ``verified exact`` (the Pith page's words)."""
    return _t(value, 60).replace("_", " ")


def _ref(value: Any) -> str:
    return "[%s]" % (value if type(value) is int else _t(value, 20))


def _event_text(event: Any) -> str:
    """One standing-notice event: its type, then source and date where it names them."""
    if type(event) is not dict:
        return _t(event, 200)
    what = next((event[k] for k in ("event_type", "type", "kind", "status", "label")
                 if type(event.get(k)) is str), None)
    extra = [event[k] for k in ("source", "observed_at", "occurred_at", "event_date", "date")
             if type(event.get(k)) is str]
    if what is None:
        return _t(event, 200)
    return _label(what) + (" (%s)" % ", ".join(_t(x, 80) for x in extra) if extra else "")


def _plural(n: int, word: str) -> str:
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def render(s: Dict[str, Any]) -> str:
    """The author's view of a verified record's :func:`pith_tex.citations.record.summary`."""
    out: List[str] = []
    paper = s["paper"] or {}
    out.append("arXiv:%s  %s" % (_t(paper.get("arxiv_id"), 40), _t(paper.get("title"))))
    out.append("record as of %s (as_of is outside the context digest)" % _t(s["as_of"], 40))
    refs = s["references"]
    total = refs["total"]
    out.append("")
    out.append("references: %d%s listed" % (
        refs["listed"], "" if total is None else " of %s" % _t(total, 20)))
    counts = refs["counts"]
    width = max(len(_label(k)) for k in counts)
    for key, n in counts.items():
        out.append("  %-*s %5d" % (width, _label(key), n))
    pending = refs["not_resolved"]
    if pending:
        out.append("")
        out.append("not resolved: check these bibliography entries")
        # columns as wide as the usual values; an odd long one only shifts its own line
        rw = min(8, max(len(_ref(x["reference_index"])) for x in pending))
        sw = min(20, max(len(_label(x["status"])) for x in pending))
        for x in pending:
            out.append("  %-*s %-*s  %s" % (rw, _ref(x["reference_index"]), sw,
                                            _label(x["status"]), _t(x["title"])))
            cand = x["pith_paper"]
            if cand and cand.get("arxiv_id"):
                out.append("  %*s %s arXiv:%s  %s" % (rw, "", "candidate in Pith:",
                                                      _t(cand["arxiv_id"], 40),
                                                      _t(cand.get("title"))))
    out.append("")
    out.extend(_notice_lines(s["standing_notices"]))
    out.append("")
    cited_by = s["cited_by"]
    out.append("cited by %s in Pith%s" % (_plural(len(cited_by), "paper"),
                                          ":" if cited_by else ""))
    for c in cited_by:
        versions = ", ".join("v%d" % v for v in c["versions"])
        refs_txt = ", ".join(_ref(r) for r in c["reference_indices"])
        out.append("  arXiv:%s%s  %s  (cites it as %s)" % (
            _t(c["arxiv_id"], 40), " " + versions if versions else "", _t(c["title"]),
            refs_txt))
    return "\n".join(out)


def _notice_lines(n: Dict[str, Any]) -> List[str]:
    """Standing notices: on the works cited (outbound), then on this paper (inbound)."""
    sources = ", ".join(_t(x.get("source"), 40) for x in n["sources"]) or "no named source"
    lines = ["standing notices (retractions, corrections...), from %s:" % sources]
    for lane, what in (("outbound", "cited works"),
                       ("inbound", "this paper (inbound observations)")):
        states: Dict[str, int] = n[lane]["states"]
        total = sum(states.values())
        if not total:
            continue
        checked = states.get("measured", 0)
        reasons = "; ".join("%s: %d" % (_label(k), v)
                            for k, v in sorted(n[lane]["reasons"].items()))
        found = sum(1 for e in n["with_events"] if e["lane"] == lane)
        lines.append("  %s: checked %d of %d%s; %s" % (
            what, checked, total, " (not checked: %s)" % reasons if reasons else "",
            "notices on %d" % found if found else "none found"))
    for e in n["with_events"]:
        where = "this paper" if e["lane"] == "inbound" else _ref(e["reference_index"])
        lines.append("  %s %s" % (where, _t(e["title"])))
        for ev in e["events"]:
            lines.append("    %s" % _event_text(ev))
    return lines
