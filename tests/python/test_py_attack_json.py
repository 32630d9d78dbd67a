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
