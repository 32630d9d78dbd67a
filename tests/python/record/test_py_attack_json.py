"""Saved resolver JSON and bundles that read two ways: a key written twice in one object.

Python's ``json`` keeps the last value; other parsers (and a person reading the file top
down) keep the first.  A file that says two things is not verified, whichever of them
pith-tex happened to check (issue 9: ambiguity is failure).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import bounded
import recorded

pytestmark = pytest.mark.hostile

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]
V2 = next(v for v in VECTORS[1:] if v["number"] != V["number"])


def _first(text: str, opening: str, extra: str) -> str:
    """*text* with ``"key": value,`` pairs *extra* written right after *opening*, before
    the honest ones."""
    assert text.count(opening) >= 1
    return text.replace(opening, opening + extra, 1)


def _verify(tmp_path: Path, name: str, text: str) -> bounded.Ran:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return bounded.run(["verify", "--json", path], cwd=tmp_path, cache_dir=tmp_path / "c")


CASES = {
    # the record's own source names another paper first
    "record-source": ("record", lambda t: _first(
        t, '"canonical_record": {', '"source": {"id": "2509.99999", "kind": "arxiv", '
        '"version": 1}, ')),
    # the document names another Pith Number first
    "pith-number": ("record", lambda t: _first(
        t, "{", '"pith_number": "pith:%d:%s", ' % (V2["year"], V2["number"]))),
    "bundle-pith-number": ("bundle", lambda t: _first(
        t, "{", '"pith_number": "pith:%d:%s", ' % (V2["year"], V2["number"]))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_key_written_twice_is_not_verified(tmp_path, case):
    kind, edit = CASES[case]
    doc = recorded.resolver_json(V) if kind == "record" else recorded.bundle_json(V)
    honest = json.dumps(doc, ensure_ascii=False)
    name = "%s.json" % ("r" if kind == "record" else "b")
    assert _verify(tmp_path, name, honest).rc == 0  # the honest one verifies
    text = edit(honest)
    json.loads(text)  # still JSON to Python (the last value wins)
    r = _verify(tmp_path, name, text)
    assert r.rc == 1, (r.out, r.err)
    out = json.loads(r.out)
    checks = {c["name"]: c for c in out["files"][0]["checks"]}
    assert checks["json"]["status"] == "fail" and "repeats the key" in checks["json"]["detail"]


# -- NaN and Infinity: Python reads them, JSON has no such values -------------------------

MIRROR = Path(__file__).resolve().parents[3] / "examples" / "mirror"


def _with_state(value: str) -> str:
    """Resolver JSON whose attestation_state (outside the record's digest) is *value*."""
    doc = recorded.resolver_json(V)
    doc["attestation_state"] = "@STATE@"
    return json.dumps(doc).replace('"@STATE@"', value, 1)


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.parametrize("doc", ["record", "citation-record"])
def test_nan_and_infinity_are_not_json(tmp_path, doc, value):
    """A field outside every digest (the resolver JSON's attestation_state, a citation
    record's as_of) holding NaN verified: the file is not JSON to any other reader."""
    if doc == "record":
        text = _with_state(value)
        name = "r.json"
    else:
        text = (MIRROR / "paper" / "2601.16956" / "citation-record.json").read_text("utf-8")
        assert text.count('"as_of":"') == 1
        text = text.replace('"as_of":"2026-08-07T07:15:00Z"', '"as_of":%s' % value, 1)
        name = "citation-record.json"
    assert value in text
    json.loads(text)  # Python's json reads it
    r = _verify(tmp_path, name, text)
    assert r.rc == 3, (r.out, r.err)
    assert "not valid JSON" in json.loads(r.out)["files"][0]["error"]


def test_a_resolver_answering_nan_is_could_not_check(tmp_path):
    from server import Reply, ResolverServer

    text = _with_state("NaN")
    with ResolverServer() as srv:
        srv.record(V["number"], Reply(body=text.encode()))
        r = bounded.run(["fetch", V["number"], "--resolver", srv.url, "-o", "inc.tex"],
                        cwd=tmp_path, cache_dir=tmp_path / "c")
    assert r.rc == 3, (r.out, r.err)
    assert "not valid JSON" in r.err and not (tmp_path / "inc.tex").exists()


@pytest.mark.parametrize("case", sorted(CASES))
def test_fetch_refuses_an_answer_that_repeats_a_key(tmp_path, case):
    """The resolver's answer says two things (``verify`` of the same bytes fails): fetch
    wrote the include from the value Python kept, and said every check passed."""
    from server import Reply, ResolverServer

    kind, edit = CASES[case]
    record = json.dumps(recorded.resolver_json(V), ensure_ascii=False)
    bundle = json.dumps(recorded.bundle_json(V), ensure_ascii=False)
    if kind == "record":
        record = edit(record)
    else:
        bundle = edit(bundle)
    with ResolverServer() as srv:
        srv.record(V["number"], Reply(body=record.encode()))
        srv.bundle(V["number"], Reply(body=bundle.encode()))
        r = bounded.run(["fetch", V["number"], "--resolver", srv.url, "-o", "inc.tex"],
                        cwd=tmp_path, cache_dir=tmp_path / "c")
    assert r.rc == 1, (r.out, r.err)
    assert "repeats the key" in r.err and not (tmp_path / "inc.tex").exists()
