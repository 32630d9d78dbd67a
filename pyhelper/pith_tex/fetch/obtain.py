"""A Pith Number's record and bundle, from the verified-record cache or the resolver,
verified as ``verify`` verifies the same bytes."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from ..checks import Outcome
from ..errors import CouldNotCheck
from ..record.documents import RecordDoc, parse_bundle_doc, parse_record_doc
from ..record.verdict import verify_record
from ..resolver.cache import Cache
from ..resolver.client import Resolver, parse_body
from ..verify.files import with_duplicate_key


class Obtained(NamedTuple):
    """The record's and the bundle's bytes, decoded JSON and where they came from."""

    source: str  # the cache's record file or the resolver, for --json
    from_cache: bool
    rec_body: bytes
    rec_data: Any
    rec_where: str
    bun_body: Optional[bytes] = None
    bun_data: Any = None
    bun_where: Optional[str] = None
    bundle_error: Optional[str] = None  # why the resolver gave no bundle


def from_cache(cache: Cache, n: str) -> Obtained:
    """*n*'s record and bundle as the cache holds them (``--offline``)."""
    entry = cache.load(n)
    if entry is None:
        raise CouldNotCheck("%s is not in the cache (%s) and --offline forbids the network: "
                            "run pith-tex fetch without --offline once" % (n, cache.root))
    where = cache.record_path(n)
    bun_data = None if entry[1] is None else parse_body(entry[1], cache.bundle_path(n))
    return Obtained(where, True, entry[0], parse_body(entry[0], where), where,
                    entry[1], bun_data, cache.bundle_path(n))


def from_resolver(res: Resolver, cache: Cache, n: str) -> Obtained:
    """*n*'s record and bundle from the resolver (a URL or a mirror on disk); the error
    says when a verified copy is cached or the network is the trouble."""
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
    try:
        bun = res.bundle(n)
    except CouldNotCheck as e:
        return Obtained(res.description, False, rec.body, rec.data, rec.where,
                        bundle_error=e.message)
    if bun is None:
        return Obtained(res.description, False, rec.body, rec.data, rec.where)
    return Obtained(res.description, False, rec.body, rec.data, rec.where,
                    bun.body, bun.data, bun.where)


def verified(n: str, got: Obtained, require_signature: bool) -> Tuple[RecordDoc, Outcome]:
    """The record's document and the outcome of its checks (the record, its bundle and
    receipt, a duplicate key in either body)."""
    record_doc = parse_record_doc(got.rec_data, got.rec_where)
    bundle_doc = None if got.bun_data is None else parse_bundle_doc(
        got.bun_data, got.bun_where or "bundle")
    outcome = verify_record(
        n, record_doc, bundle_doc, require_signature=require_signature,
        bundle_error=got.bundle_error,
        no_bundle_reason="the resolver has no bundle.json for it, so no receipt")
    for body, what in ((got.rec_body, "resolver JSON"), (got.bun_body, "bundle.json")):
        checked = with_duplicate_key(outcome, body, what)  # as verify of the same bytes
        if checked is not outcome:
            return record_doc, checked
    return record_doc, outcome
