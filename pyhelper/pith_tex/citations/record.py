"""Paper Citation Records (schema ``pith.paper-citation-record.v1``, spec section 5): verify
every digest, then say what the record tells an author.

A record lists a paper's outbound references and the Pith papers that cite it, each an
*observation* content-addressed by ``observation_digest``; the whole is addressed by
``context_digest``.  The checks (``docs/citations.md``), in order:

``schema``
    ``pith.paper-citation-record.v1``.  Another version of the schema is not guessed at:
    :class:`CouldNotCheck` (exit 3), as is a record without the fields the checks need.
``json``
    no JSON object repeats a key: readers that keep the first or the last value would
    show different records under the same digests.
``observation``
    every ``observation_digest`` is ``"sha256:"`` + SHA-256 of the canonical JSON of the
    observation without that key.  A failure names the observation by lane, position,
    ``observation_id`` and reference index (at most :data:`MAX_NAMED` are named).
``context``
    ``context_digest`` is ``"sha256:"`` + SHA-256 of the canonical JSON of the record
    without ``context_digest`` and ``as_of`` (so ``as_of`` may change alone).
``paper``
    the record is the paper's that was asked for (the argument of ``pith-tex citations``,
    or the ``paper/ID/citation-record.json`` path of a saved file), every outbound
    observation cites *from* it and every inbound one cites *it*: a mirror cannot pass
    off another paper's intact record.
``counts``
    ``reference_resolution`` agrees with the observations listed (a warning otherwise:
    the digests cover both, so this is the publisher's inconsistency, not tampering).

Canonical JSON is the Pith Number rule (:func:`pith_tex.record.canonical.canonical_json`:
sorted keys, no whitespace, ``ensure_ascii=False``, UTF-8).  It reproduces all 40
observation digests and the context digest of the seed record; with ``ensure_ascii=True``
one observation (a title with an en dash) and the context would not match.

Nothing signs a citation record: *verified* means intact and self-consistent (each
observation is the one its digest names, the whole is the one ``context_digest`` names,
and it is about the paper asked for), not who published it.

Each observation is serialised once without its digest; the record's members are
serialised once, and both the context (without ``context_digest`` and ``as_of``) and the
whole record (compared with the bytes read: canonical bytes cannot repeat a key) are
joined from them, exactly as ``canonical_text`` of the whole would be (sorted keys,
``,``/``:``); the tests seal records with ``json.dumps`` and check that they verify.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple

from ..record import canonical
from ..checks import ERROR, FAIL, OK, WARN, Check, Outcome
from ..errors import CouldNotCheck, show

SCHEMA_PREFIX = "pith.paper-citation-record."
SCHEMA = SCHEMA_PREFIX + "v1"
#: The kind of a citation record in ``verify`` reports.
KIND = "citation-record"
#: The largest citation record read, from disk or over HTTP.  The seed record is 48 KB for
#: 40 observations (about 1.2 KB each) and its page caps are 100 outbound and 100 inbound;
#: 8 MiB holds some 6,500 observations, and still bounds memory and time.
MAX_RECORD = 8 << 20
#: How a citation record's bytes can be told from other documents before parsing them
#: (files over 1 MiB are parsed only when they carry it).
SCHEMA_MARK = b'"' + SCHEMA_PREFIX.encode("ascii")
#: Where a record lives under a resolver or mirror.
RECORD_PATH = "paper/%s/citation-record.json"
RECORD_NAME = "citation-record.json"
LANES = ("outbound", "inbound")
#: The resolution states a record's ``reference_resolution.state_counts`` lists, in the
#: order the Pith page shows them.
STATUSES = ("verified_exact", "verified_fuzzy", "unresolved", "parse_uncertain",
            "malformed_identifier", "metadata_mismatch")
RESOLVED = frozenset(("verified_exact", "verified_fuzzy"))
DIGEST_PREFIX = "sha256:"
DIGEST_KEY = "observation_digest"
#: Outside the context digest (the spec): the record without these is hashed.
CONTEXT_EXCLUDED = frozenset(("context_digest", "as_of"))
#: Failing observations named one check line each; the rest are counted.
MAX_NAMED = 20

_text = canonical.canonical_text


def is_citation_record(obj: Any) -> bool:
    """A parsed document whose ``schema`` names a Paper Citation Record (any version)."""
    if type(obj) is not dict:
        return False
    schema = obj.get("schema")
    return type(schema) is str and schema.startswith(SCHEMA_PREFIX)


def may_be_citation_record(data: bytes) -> bool:
    """Whether the bytes can hold a citation record (cheap: one substring search)."""
    return SCHEMA_MARK in data


def expected_arxiv_id(path: str) -> Optional[str]:
    """``.../paper/ID/citation-record.json`` (``ID`` may be old style, ``hep-th/9901001``):
    the arXiv id the path promises, else None."""
    if os.path.basename(path) != RECORD_NAME:
        return None
    parent = os.path.dirname(path)
    last = os.path.basename(parent)
    if canonical.ARXIV_ID_RE.match(last):
        return last
    two = os.path.basename(os.path.dirname(parent)) + "/" + last
    return two if canonical.ARXIV_ID_RE.match(two) else None


def _at(obj: Any, *keys: str) -> Any:
    """``obj[k1][k2]...``, None where a level is missing or not an object."""
    for k in keys:
        if type(obj) is not dict:
            return None
        obj = obj.get(k)
    return obj


class Observation(NamedTuple):
    lane: str  # "outbound" | "inbound"
    position: int
    obj: Dict[str, Any]

    @property
    def reference_index(self) -> Any:
        return _at(self.obj, "citation", "reference_index")

    @property
    def name(self) -> str:
        """``outbound[3] 'id' (reference 4)``: how a message names it (escaped)."""
        ref = self.reference_index
        return "%s[%d] %s (reference %s)" % (
            self.lane, self.position, show(self.obj.get("observation_id")),
            ref if type(ref) is int else show(ref))


def _bad(where: str, msg: str) -> CouldNotCheck:
    return CouldNotCheck("%s: not a readable %s record: %s" % (where, SCHEMA, msg))


def _schema_check(obj: Any, where: str) -> Check:
    if type(obj) is not dict:
        raise _bad(where, "not a JSON object")
    schema = obj.get("schema")
    if schema != SCHEMA:
        if type(schema) is str and schema.startswith(SCHEMA_PREFIX):
            raise CouldNotCheck("%s: schema %s is not one this pith-tex reads (%s); update "
                                "pith-tex" % (where, show(schema), SCHEMA))
        raise _bad(where, "schema is %s" % show(schema))
    return Check("schema", OK, SCHEMA)


def observations(obj: Dict[str, Any], where: str) -> List[Observation]:
    """Every observation, outbound then inbound; raises :class:`CouldNotCheck` unless each
    lane is a list of objects that carry a string ``observation_digest``."""
    found: List[Observation] = []
    for lane in LANES:
        items = obj.get(lane)
        if type(items) is not list:
            raise _bad(where, "%s is %s" % (lane, "missing" if items is None else "not a list"))
        for i, o in enumerate(items):
            if type(o) is not dict:
                raise _bad(where, "%s[%d] is not a JSON object" % (lane, i))
            if type(o.get(DIGEST_KEY)) is not str:
                raise _bad(where, "%s[%d] has no string %s" % (lane, i, DIGEST_KEY))
            found.append(Observation(lane, i, o))
    if type(obj.get("context_digest")) is not str:
        raise _bad(where, "no string context_digest")
    return found


def _short(digest: str) -> str:
    """``sha256:2c09ed8b…d720`` (a recomputed digest, or an escaped record value)."""
    if digest.startswith(DIGEST_PREFIX) and canonical.is_sha256_hex(digest[7:]):
        return digest[:15] + "\u2026" + digest[-4:]
    return show(digest)


def _observation_checks(obs: List[Observation]) -> List[Check]:
    """The ``observation`` checks: one OK, or a FAIL naming each failing observation."""
    failed: List[Check] = []
    n_failed = 0
    sha = canonical.sha256_hex
    for ob in obs:
        o = dict(ob.obj)
        claimed = o.pop(DIGEST_KEY)
        got = DIGEST_PREFIX + sha(_text(o).encode("utf-8"))
        if claimed != got:
            n_failed += 1
            if n_failed <= MAX_NAMED:
                failed.append(Check("observation", FAIL, "%s: observation_digest is %s, the "
                                    "observation hashes to %s" % (ob.name, _short(claimed),
                                                                 _short(got))))
    if n_failed > MAX_NAMED:
        failed.append(Check("observation", FAIL, "and %d more observations whose digest does "
                            "not match (%d of %d in all)" % (n_failed - MAX_NAMED, n_failed,
                                                             len(obs))))
    if failed:
        return failed
    counts = [sum(1 for ob in obs if ob.lane == lane) for lane in LANES]
    return [Check("observation", OK, "%d of %d observation digests match (%d outbound, %d "
                  "inbound)" % (len(obs), len(obs), counts[0], counts[1]))]


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _Duplicate(k)
            seen.add(k)
    return d


def duplicate_key(data: bytes) -> Optional[str]:
    """A key that some JSON object of *data* repeats, or None (*data* is valid JSON)."""
    try:
        json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except _Duplicate as e:
        return str(e.args[0])
    return None


def _json_check(data: Optional[bytes], whole: str) -> Check:
    """No repeated key.  Bytes that are the canonical text of what was parsed cannot
    repeat one (it would be missing from the re-serialisation): only other bytes are
    parsed again to look."""
    if data is None:
        return Check("json", OK, "parsed by the caller (keys not re-checked)")
    if data.strip(b" \t\r\n") == whole.encode("utf-8"):
        return Check("json", OK, "canonical JSON, no repeated key")
    key = duplicate_key(data)
    if key is not None:
        return Check("json", FAIL, "an object repeats the key %s: readers disagree on what "
                     "this record says" % show(key))
    return Check("json", OK, "no repeated key (not in canonical form: re-serialised)")


def _context_check(obj: Dict[str, Any]) -> Tuple[Check, str]:
    """The ``context`` check and the canonical text of the whole record (joined from the
    same members: each value is serialised once)."""
    members = []
    context = []
    for k in sorted(obj):
        member = _text(k) + ":" + _text(obj[k])
        members.append(member)
        if k not in CONTEXT_EXCLUDED:
            context.append(member)
    got = DIGEST_PREFIX + canonical.sha256_hex(("{" + ",".join(context) + "}").encode("utf-8"))
    claimed = obj["context_digest"]
    if claimed == got:
        check = Check("context", OK, "context_digest %s = the record without context_digest "
                      "and as_of" % _short(got))
    else:
        check = Check("context", FAIL, "context_digest is %s, the record without "
                      "context_digest and as_of hashes to %s" % (_short(claimed), _short(got)))
    return check, "{" + ",".join(members) + "}"


def _paper_check(obj: Dict[str, Any], obs: List[Observation],
                 expected: Optional[str]) -> Check:
    pid = _at(obj, "paper", "arxiv_id")
    if type(pid) is not str or not canonical.ARXIV_ID_RE.match(pid):
        return Check("paper", ERROR, "paper.arxiv_id is not an arXiv identifier: %s" % show(pid))
    if expected is not None and pid != expected:
        return Check("paper", FAIL, "the record is arXiv:%s's, not arXiv:%s's" % (pid, expected))
    for ob in obs:
        side = "citing_paper" if ob.lane == "outbound" else "cited_paper"
        other = _at(ob.obj, "citation", side, "arxiv_id")
        if other != pid:
            return Check("paper", FAIL, "%s: its citation.%s.arxiv_id is %s, not this record's "
                         "paper arXiv:%s" % (ob.name, side, show(other), pid))
    n_out = sum(1 for ob in obs if ob.lane == "outbound")
    return Check("paper", OK, "arXiv:%s%s: %d outbound observations cite from it, %d inbound "
                 "cite it" % (pid, " as asked" if expected else "", n_out, len(obs) - n_out))


def status_counts(obs: Iterable[Observation]) -> Dict[str, int]:
    """How many outbound observations are in each resolution state (the six known ones
    first, then any other value as the record spells it)."""
    counts = {s: 0 for s in STATUSES}
    for ob in obs:
        if ob.lane == "outbound":
            s = _at(ob.obj, "resolution", "status")
            key = s if type(s) is str else "(not a string)"
            counts[key] = counts.get(key, 0) + 1
    return counts


def _counts_check(obj: Dict[str, Any], obs: List[Observation]) -> Check:
    rr = obj.get("reference_resolution")
    listed = sum(1 for ob in obs if ob.lane == "outbound")
    claimed = _at(rr, "state_counts")
    displayed, total = _at(rr, "displayed"), _at(rr, "total_outbound_references")
    if type(claimed) is not dict or type(displayed) is not int or type(total) is not int:
        return Check("counts", WARN, "no reference_resolution summary to compare with")
    if displayed != listed:
        return Check("counts", WARN, "reference_resolution.displayed is %d, the record lists %d "
                     "outbound observations" % (displayed, listed))
    tally = status_counts(obs)
    for key in sorted(set(tally) | set(claimed), key=str):
        want, have = claimed.get(key, 0), tally.get(key, 0)
        if displayed == total:  # every reference listed: the counts are the tally
            wrong = want != have
        else:  # some listed (the record's cap): at least the tally
            wrong = type(want) is not int or want < have
        if wrong:
            return Check("counts", WARN, "state_counts.%s is %s, %d of the %d observations "
                         "listed say so" % (show(key), show(want), have, listed))
    return Check("counts", OK, "state_counts agree with the %d of %d references listed"
                 % (listed, total))


def verify_citation_record(obj: Any, where: str, data: Optional[bytes] = None,
                           expected: Optional[str] = None) -> Outcome:
    """Verify a parsed record (*data*: the bytes it was parsed from, to look for repeated
    keys; *expected*: the arXiv id it must be for).  Raises :class:`CouldNotCheck` for an
    unknown schema version or a record without the fields the checks need."""
    checks = [_schema_check(obj, where)]
    obs = observations(obj, where)
    try:
        obs_checks = _observation_checks(obs)
        context, whole = _context_check(obj)
    except RecursionError as err:  # parsed just below the interpreter's limit, too deep to encode
        raise _bad(where, "nested too deeply") from err
    checks.append(_json_check(data, whole))
    checks.extend(obs_checks)
    checks.append(context)
    checks.append(_paper_check(obj, obs, expected))
    checks.append(_counts_check(obj, obs))
    return Outcome(None, checks)


# ------------------------------------------------------------------ what it says


def _title(work: Any) -> Any:
    return _at(work, "title")


def _ref_sort_key(item: Dict[str, Any]) -> Tuple[int, Any, str]:
    ref = item["reference_index"]
    return (0, ref, "") if type(ref) is int else (1, 0, str(ref))


def summary(obj: Dict[str, Any]) -> Dict[str, Any]:
    """What a verified record says, as plain JSON values (strings untrusted, unescaped):
    the ``record`` object of ``pith-tex citations --json`` (``docs/citations.md``)."""
    obs = observations(obj, "record")
    outbound = [ob for ob in obs if ob.lane == "outbound"]
    rr = obj.get("reference_resolution")
    not_resolved = []
    notices: Dict[str, Dict[str, Dict[str, int]]] = {
        lane: {"states": {}, "reasons": {}} for lane in LANES}
    events = []
    for ob in obs:
        cit = _at(ob.obj, "citation")
        status = _at(ob.obj, "resolution", "status")
        if ob.lane == "outbound" and status not in RESOLVED:
            not_resolved.append({
                "reference_index": ob.reference_index, "status": status,
                "title": _title(_at(cit, "cited_work")),
                "observation_id": ob.obj.get("observation_id"),
                "pith_paper": _paper_ref(_at(cit, "cited_paper")),
            })
        sn = _at(ob.obj, "standing_notice")
        state = _at(sn, "state")
        _bump(notices[ob.lane]["states"], state if type(state) is str else "(none)")
        reason = _at(sn, "reason")
        if type(reason) is str:
            _bump(notices[ob.lane]["reasons"], reason)
        evs = _at(sn, "events")
        if type(evs) is list and evs:
            work = _at(cit, "cited_work") if ob.lane == "outbound" else _at(cit, "cited_paper")
            events.append({"lane": ob.lane, "reference_index": ob.reference_index,
                           "title": _title(work), "observation_id": ob.obj.get("observation_id"),
                           "events": evs})
    not_resolved.sort(key=_ref_sort_key)
    sources = obj.get("standing_sources")
    return {
        "schema": obj.get("schema"),
        "as_of": obj.get("as_of"),
        "context_digest": obj.get("context_digest"),
        "paper": _paper_ref(obj.get("paper")),
        "observations": {"outbound": len(outbound), "inbound": len(obs) - len(outbound)},
        "references": {
            "listed": len(outbound),
            "total": _at(rr, "total_outbound_references"),
            "counts": status_counts(obs),
            "not_resolved": not_resolved,
        },
        "standing_notices": {
            "outbound": notices["outbound"], "inbound": notices["inbound"],
            "with_events": events,
            "sources": [s for s in sources if type(s) is dict] if type(sources) is list else [],
        },
        "cited_by": _cited_by(obs),
    }


def _cited_by(obs: List[Observation]) -> List[Dict[str, Any]]:
    """The Pith papers that cite this one (the inbound observations), one entry each."""
    cited_by: Dict[str, Dict[str, Any]] = {}
    for ob in obs:
        if ob.lane != "inbound":
            continue
        citing = _at(ob.obj, "citation", "citing_paper")
        aid = _at(citing, "arxiv_id")
        key = aid if type(aid) is str else show(aid)
        entry = cited_by.setdefault(key, {"arxiv_id": aid, "title": None, "versions": [],
                                          "reference_indices": [], "observations": 0})
        entry["observations"] += 1
        version = _at(citing, "version")
        if type(version) is int and version not in entry["versions"]:
            entry["versions"].append(version)
            entry["versions"].sort()
            if version == entry["versions"][-1]:
                entry["title"] = _title(citing)
        elif entry["title"] is None:
            entry["title"] = _title(citing)
        ref = ob.reference_index
        if ref not in entry["reference_indices"]:
            entry["reference_indices"].append(ref)
    return list(cited_by.values())


def _bump(counts: Dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def _paper_ref(paper: Any) -> Optional[Dict[str, Any]]:
    if type(paper) is not dict:
        return None
    return {"arxiv_id": paper.get("arxiv_id"), "title": paper.get("title"),
            "version": paper.get("version", paper.get("latest_version"))}
