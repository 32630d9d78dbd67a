"""Paper Citation Records: ``verify FILE/DIR`` and ``pith-tex citations`` (issue 11).

The published record (``tests/vectors/paper-citation-record-2601.16956.json``) and records
built and sealed by ``tests/support/citation_records.py`` (the spec's recipe, independent
of pith_tex) are verified by the real code: in-process through ``pith_tex.verify.files`` (the
dispatcher ``verify`` uses) and as ``python -m pith_tex`` subprocesses whose stdout bytes
are read back, against a mirror directory and the real HTTP test server.
"""
from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import citation_records as C
import server as S
from pith_tex.verify.files import verify_file

ROOT = Path(__file__).resolve().parents[3]
MIRROR = ROOT / "examples" / "mirror"
SEED = C.seed()
SEED_ID = C.SEED_ID
REL = "paper/%s/citation-record.json"


def cli(*args, cwd=None, timeout=60):
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and not k.startswith("PITH_")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "pyhelper"), env.get("PYTHONPATH")]))
    p = subprocess.run([sys.executable, "-m", "pith_tex", *map(str, args)], capture_output=True,
                       cwd=cwd, env=env, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def error_lines(err):
    assert "Traceback" not in err, err
    lines = [l for l in err.splitlines() if l.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0]


def save(tmp_path, record, name="record.json", raw=None):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(raw if raw is not None else C.encode(record))
    return p


def checks_of(path):
    r = verify_file(str(path))
    assert r.kind == "citation-record", r
    assert r.outcome is not None, r
    return r, [(c.name, c.status, c.detail) for c in r.outcome.checks]


def failing(checks, name):
    return [d for n, s, d in checks if n == name and s == "fail"]


# ------------------------------------------------------------------ the seed


def test_seed_digests_follow_the_spec_recipe():
    """The recipe the tests build with reproduces every published digest (40 + context),
    and needs ensure_ascii=False: the seed is not all ASCII."""
    assert len(C.observations(SEED)) == 40
    for obs in C.observations(SEED):
        assert C.observation_digest(obs) == obs["observation_digest"]
    assert C.context_digest(SEED) == SEED["context_digest"]
    assert C.encode(SEED) == C.seed_bytes()  # published as canonical JSON
    assert not C.seed_bytes().isascii()


def test_seed_verifies(tmp_path):
    r, checks = checks_of(save(tmp_path, SEED, REL % SEED_ID, raw=C.seed_bytes()))
    assert r.exit_code == 0, checks
    assert [(n, s) for n, s, _ in checks] == [
        ("schema", "ok"), ("json", "ok"), ("observation", "ok"), ("context", "ok"),
        ("paper", "ok"), ("counts", "ok")]
    detail = dict((n, d) for n, _, d in checks)
    assert "40 of 40" in detail["observation"] and "38 outbound, 2 inbound" in detail["observation"]
    assert SEED["context_digest"][:15] in detail["context"]
    assert SEED_ID in detail["paper"]


def test_verify_file_cli_and_example_mirror_copy():
    path = MIRROR / (REL % SEED_ID)
    assert path.read_bytes() == C.seed_bytes(), "the example mirror's record is not the seed"
    rc, out, err = cli("verify", path)
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "verified"
    assert re.search(r"^OK    observation 40 of 40 ", out, re.M), out


# ------------------------------------------------------- one field changed

LEAVES = list(C.observation_leaves(SEED["outbound"][0]))
TITLE = ("citation", "cited_work", "title")
CHANGES = ([("outbound", 0, p) for p in LEAVES]
           + [(lane, i, p) for lane, i, p in [
               ("outbound", 5, TITLE), ("outbound", 37, ("citation", "reference_index")),
               ("outbound", 20, ("resolution", "status")),
               ("inbound", 0, ("citation", "citing_paper", "title")),
               ("inbound", 1, ("standing_notice", "source_receipts", 1, "source"))]])


def _id(change):
    lane, i, path = change
    return "%s[%d].%s" % (lane, i, ".".join(map(str, path)))


@pytest.mark.parametrize("change", CHANGES, ids=[_id(c) for c in CHANGES])
def test_one_field_changed_fails_naming_the_observation(tmp_path, change):
    lane, i, path = change
    rec = copy.deepcopy(SEED)
    obs = rec[lane][i]
    C.set_path(obs, path, C.changed(C.get_path(obs, path)))
    r, checks = checks_of(save(tmp_path, rec))
    assert r.exit_code == 1, checks
    named = failing(checks, "observation")
    assert len(named) == 1, checks  # that observation, and only it
    assert "%s[%d]" % (lane, i) in named[0]
    assert obs["observation_id"] in named[0]
    ref = obs["citation"]["reference_index"]
    assert "(reference %s)" % (ref if isinstance(ref, int) else repr(ref)) in named[0]
    assert failing(checks, "context"), checks  # the context holds the observation too


@pytest.mark.parametrize("how", ["digest", "added field", "removed field", "reordered keys"])
def test_observation_edits(tmp_path, how):
    rec = copy.deepcopy(SEED)
    obs = rec["outbound"][2]
    if how == "digest":
        d = obs["observation_digest"]
        obs["observation_digest"] = d[:-1] + ("0" if d[-1] != "0" else "1")
    elif how == "added field":
        obs["note"] = "added"
    elif how == "removed field":
        del obs["citation"]["source"]
    else:  # the same content in another key order: still the same observation
        rec["outbound"][2] = dict(reversed(list(obs.items())))
    r, checks = checks_of(save(tmp_path, rec, raw=json.dumps(rec).encode()))
    if how == "reordered keys":
        assert r.exit_code == 0, checks
        return
    assert r.exit_code == 1
    named = failing(checks, "observation")
    assert len(named) == 1 and "outbound[2]" in named[0] and obs["observation_id"] in named[0]


def test_many_failures_are_counted_not_all_named(tmp_path):
    rec = copy.deepcopy(SEED)
    for obs in rec["outbound"]:
        obs["citation"]["source"] = "edited"
    r, checks = checks_of(save(tmp_path, rec))
    named = failing(checks, "observation")
    assert r.exit_code == 1 and len(named) == 21, named
    assert "and 18 more" in named[-1] and "38 of 40" in named[-1]


def test_as_of_is_outside_the_context(tmp_path):
    rec = dict(SEED, as_of="2031-01-01T00:00:00Z")
    r, checks = checks_of(save(tmp_path, rec))
    assert r.exit_code == 0, checks


@pytest.mark.parametrize("edit", [
    lambda r: r["caps"].update(outbound=r["caps"]["outbound"] + 1),
    lambda r: r["coverage"][0].update(records_observed=r["coverage"][0]["records_observed"] - 1),
    lambda r: r["coverage"].pop(),
    lambda r: r.update(thesis=r["thesis"] + " "),
], ids=["caps", "coverage value", "coverage entry", "thesis"])
def test_context_covers_the_rest(tmp_path, edit):
    rec = copy.deepcopy(SEED)
    edit(rec)
    r, checks = checks_of(save(tmp_path, rec))
    assert r.exit_code == 1
    assert failing(checks, "context") and not failing(checks, "observation"), checks


def test_resealed_forgery_for_another_paper_fails_on_the_paper(tmp_path):
    """An intact record (digests recomputed) served as another paper's: the path's id."""
    other = C.generate(3, 1, arxiv_id="2501.00001")
    r, checks = checks_of(save(tmp_path, other, REL % SEED_ID))
    assert r.exit_code == 1
    assert failing(checks, "paper") and "2501.00001" in failing(checks, "paper")[0]
    # an observation that cites from another paper, resealed
    rec = copy.deepcopy(SEED)
    rec["outbound"][4]["citation"]["citing_paper"]["arxiv_id"] = "2501.00001"
    r, checks = checks_of(save(tmp_path, C.seal(rec)))
    assert r.exit_code == 1 and not failing(checks, "observation")
    assert "outbound[4]" in failing(checks, "paper")[0]


def test_inconsistent_counts_warn(tmp_path):
    rec = copy.deepcopy(SEED)
    rec["reference_resolution"]["state_counts"]["unresolved"] = 37
    r, checks = checks_of(save(tmp_path, C.seal(rec)))
    assert r.exit_code == 0
    assert ("counts", "warn") in [(n, s) for n, s, _ in checks]


@pytest.mark.parametrize("schema, code, words", [
    ("pith.paper-citation-record.v2", 3, "update pith-tex"),
    ("pith.paper-citation-record.v1.1", 3, "update pith-tex"),
])
def test_unknown_schema_version_is_not_guessed(tmp_path, schema, code, words):
    rec = C.seal(dict(copy.deepcopy(SEED), schema=schema))
    p = save(tmp_path, rec)
    r = verify_file(str(p))
    assert r.exit_code == code and r.outcome is None and words in r.error
    rc, out, err = cli("verify", p)
    assert rc == code and schema in error_lines(err)


@pytest.mark.parametrize("where", ["top", "observation"])
def test_repeated_key_fails(tmp_path, where):
    raw = C.seed_bytes()
    if where == "top":  # a first schema value that a first-wins reader would keep
        raw = raw.replace(b'{"as_of"', b'{"schema":"x","as_of"', 1)
    else:  # the digests are over the last title; a first-wins reader shows another
        title = SEED["outbound"][0]["citation"]["cited_work"]["title"]
        key = b'"title":' + json.dumps(title).encode()
        assert raw.count(key) == 1
        raw = raw.replace(key, b'"title":"Another paper",' + key)
    r, checks = checks_of(save(tmp_path, None, raw=raw))
    assert r.exit_code == 1
    assert failing(checks, "json") and ("schema" if where == "top" else "title") in failing(checks, "json")[0]
    assert not failing(checks, "observation") and not failing(checks, "context")


def test_pretty_printed_record_verifies(tmp_path):
    raw = json.dumps(SEED, indent=2, ensure_ascii=True).encode()
    r, checks = checks_of(save(tmp_path, None, raw=raw))
    assert r.exit_code == 0, checks


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40), min_size=1, max_size=6))
def test_any_text_round_trips(tmp_path_factory, titles):
    """Records sealed by the spec's recipe verify whatever their strings (any script,
    controls, escapes): pith_tex's piecewise serialisation is the recipe's."""
    rec = C.generate(len(titles), 1)
    for obs, t in zip(rec["outbound"], titles):
        obs["citation"]["cited_work"]["title"] = t
        obs["citation"][t] = t  # as a key too
    rec = C.seal(rec)
    p = save(tmp_path_factory.mktemp("rt"), rec)
    r, checks = checks_of(p)
    assert r.exit_code == 0, checks
    # the whole record, joined from its parts, is byte for byte what json.dumps wrote
    assert ("json", "ok", "canonical JSON, no repeated key") in checks


# -------------------------------------------------------------- size caps


def test_record_over_1_mib_verifies_and_others_are_still_capped(tmp_path):
    big = C.generate(1000, 2)
    raw = C.encode(big)
    assert 1 << 20 < len(raw) < 8 << 20
    r, checks = checks_of(save(tmp_path, None, "big.json", raw=raw))
    assert r.exit_code == 0, checks
    # a resolver JSON of the same size is refused, marked or not
    import recorded
    doc = recorded.resolver_json(recorded.vectors_with_record()[0])
    doc["padding"] = "x" * (len(raw))
    doc["note"] = "pith.paper-citation-record.v1"
    p = save(tmp_path, None, "rec.json", raw=json.dumps(doc).encode())
    r = verify_file(str(p))
    assert r.exit_code == 3 and "larger than 1 MiB" in r.error
    p = save(tmp_path, None, "huge.json", raw=raw[:-1] + b',"pad":"' + b"x" * (8 << 20) + b'"}')
    r = verify_file(str(p))
    assert r.exit_code == 3 and "larger than 1 MiB" in r.error and "8 MiB" in r.error


def test_verify_dir_routes_citation_records(tmp_path):
    import recorded
    recorded.write_mirror(str(tmp_path), recorded.vectors_with_record()[:2])
    save(tmp_path, None, REL % SEED_ID, raw=C.seed_bytes())
    bad = copy.deepcopy(SEED)
    bad["outbound"][3]["citation"]["cited_work"]["title"] = "edited"
    save(tmp_path, bad, "paper/2601.99999/citation-record.json")
    dup = C.seed_bytes().replace(b'{"as_of"', b'{"schema":"x","as_of"', 1)
    save(tmp_path, None, "dup.json", raw=dup)
    rc, out, err = cli("verify", tmp_path)
    assert rc == 1, out + err
    lines = out.splitlines()
    assert any(l.startswith("OK    ") and l.endswith(REL % SEED_ID + "  citation-record") for l in lines), out
    assert any(l.startswith("FAIL  ") and "2601.99999" in l and "outbound[3]" in l for l in lines), out
    assert any(l.startswith("FAIL  ") and "dup.json  json:" in l for l in lines), out
    assert lines[-1].startswith("7 files: 5 verified, 2 failed"), out


# ------------------------------------------------------------ citations


def test_citations_from_the_example_mirror_offline():
    rc, out, err = cli("citations", SEED_ID, "--resolver", MIRROR, "--offline")
    assert rc == 0, out + err
    assert not err
    counts = dict(re.findall(r"^  ([a-z ]+?) +(\d+)$", out, re.M))
    assert counts == {"verified exact": "0", "verified fuzzy": "0", "unresolved": "38",
                      "parse uncertain": "0", "malformed identifier": "0",
                      "metadata mismatch": "0"}, out
    listed = re.findall(r"^  \[(\d+)\] +unresolved  (.*)$", out, re.M)
    want = [(str(o["citation"]["reference_index"]), o["citation"]["cited_work"]["title"])
            for o in SEED["outbound"]]
    assert listed == want
    assert re.search(r"^  arXiv:2605\.11215 v1, v2  ReCoVer: .*\[20\]", out, re.M), out
    assert "cited by 1 paper in Pith" in out
    assert "references: 38 of 38 listed" in out


def test_citations_json_summary():
    rc, out, err = cli("citations", "arXiv:%sv1" % SEED_ID, "--resolver", MIRROR, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert out.isascii()
    assert doc["exit_code"] == 0 and doc["verdict"] == "verified" and doc["error"] is None
    assert doc["arxiv_id"] == SEED_ID
    rec = doc["record"]
    assert rec["context_digest"] == SEED["context_digest"] and rec["as_of"] == SEED["as_of"]
    assert rec["references"]["counts"]["unresolved"] == 38
    assert rec["references"]["total"] == 38 and rec["references"]["listed"] == 38
    nr = rec["references"]["not_resolved"]
    assert [x["observation_id"] for x in nr] == [o["observation_id"] for o in SEED["outbound"]]
    assert nr[0]["pith_paper"]["arxiv_id"] == "2502.18864"
    assert [c["arxiv_id"] for c in rec["cited_by"]] == ["2605.11215"]
    assert rec["cited_by"][0]["versions"] == [1, 2]
    assert rec["standing_notices"]["outbound"]["reasons"] == {"canonical_work_link_unavailable": 38}


def test_citations_of_a_saved_file_is_offline(tmp_path):
    p = save(tmp_path, None, "saved.json", raw=C.seed_bytes())
    # a resolver that does not exist: a saved file never needs one
    rc, out, err = cli("citations", p, "--resolver", "http://127.0.0.1:%d" % S.closed_port())
    assert rc == 0, out + err
    assert "references: 38 of 38 listed" in out


def test_citations_shows_nothing_of_a_failed_record(tmp_path):
    rec = copy.deepcopy(SEED)
    rec["outbound"][0]["citation"]["cited_work"]["title"] = "Tampered title"
    p = save(tmp_path, rec)
    rc, out, err = cli("citations", p, "--json")
    assert rc == 1
    doc = json.loads(out)
    assert doc["record"] is None and doc["verdict"] == "failed"
    assert "outbound[0]" in doc["error"]
    rc, out, err = cli("citations", p)
    assert rc == 1 and "references:" not in out and "Tampered" not in out
    assert "outbound[0]" in error_lines(err)


@pytest.mark.parametrize("args, words", [
    (["2601.16956", "--offline", "--resolver", "http://127.0.0.1:1"], "mirror directory"),
    (["not-an-id"], "arXiv identifier"),
    (["O6TNNA4XHFGPSALGBT7UWDA2Z3"], "Pith Number"),
    (["../../etc/passwd"], "arXiv identifier"),
])
def test_citations_usage_errors(args, words, tmp_path):
    rc, out, err = cli("citations", *args, cwd=tmp_path)
    assert rc == 2, out + err
    assert words in error_lines(err)


def test_citations_missing_in_mirror(tmp_path):
    rc, out, err = cli("citations", "2501.00001", "--resolver", MIRROR)
    assert rc == 3
    assert "no citation record for arXiv:2501.00001" in error_lines(err)


# ---------------------------------------------------- untrusted strings

HOSTILE = [
    "\x1b[31mRED\x1b[0m title",  # ANSI colour
    "\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07",  # OSC 8 hyperlink
    "line one\nOK    context     forged line",  # a forged report line
    "carriage\rreturn overwrite",
    "bidi \u202eevil\u202c and \u2066isolate\u2069",
    "separators \u2028 and \u2029 and \x85 NEL",
    "zero\u200bwidth and bell\x07 and \x9b CSI",
    "tab\there and form\x0cfeed and DEL\x7f",
]
BAD_CHARS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def hostile_record():
    rec = copy.deepcopy(SEED)
    rec["paper"]["title"] = HOSTILE[0]
    for i, o in enumerate(rec["outbound"][: len(HOSTILE)]):
        o["citation"]["cited_work"]["title"] = HOSTILE[i]
        o["resolution"]["status"] = "unresolved"
    rec["outbound"][1]["citation"]["cited_paper"] = dict(
        rec["outbound"][0]["citation"]["cited_paper"], title=HOSTILE[2],
        arxiv_id="2502.18864\x1b[2J")
    rec["outbound"][2]["citation"]["reference_index"] = "3\n[99] injected"
    rec["outbound"][3]["resolution"]["status"] = "metadata_mismatch\x1b[1m"
    rec["outbound"][4]["standing_notice"].update(
        state="measured", events=[{"event_type": "retraction\x1b[5m", "source": "crossref\n",
                                   "observed_at": "2026-08-01"}, "\x1b[0mraw"])
    rec["inbound"][0]["citation"]["citing_paper"]["title"] = HOSTILE[4]
    rec["standing_sources"][0]["source"] = HOSTILE[5]
    rec["reference_resolution"]["state_counts"]["metadata_mismatch\x1b[1m"] = 1
    rec["reference_resolution"]["state_counts"]["unresolved"] -= 1
    return C.seal(rec)


def test_hostile_strings_print_safely(tmp_path):
    rec = hostile_record()
    p = save(tmp_path, rec)
    rc, out, err = cli("citations", p)
    assert rc == 0, out + err
    for line in out.splitlines():
        assert not BAD_CHARS.search(line), repr(line)
    # every hostile title is there, escaped, each on its own line
    lines = out.splitlines()
    for h in HOSTILE:
        shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in h)
        assert any(shown in l for l in lines), (shown, out)
    assert not any(l.startswith("OK    context     forged") for l in lines)
    assert not any(l.startswith("[99]") or l.startswith("  [99]") for l in lines)
    assert "retraction\\x1b[5m (crossref\\n, 2026-08-01)" in out
    # the JSON carries the exact strings, ASCII-escaped
    rc, out, err = cli("citations", p, "--json")
    assert rc == 0 and out.isascii()
    doc = json.loads(out)
    titles = {x["observation_id"]: x["title"] for x in doc["record"]["references"]["not_resolved"]}
    assert [titles[o["observation_id"]] for o in rec["outbound"][: len(HOSTILE)]] == HOSTILE


def test_hostile_strings_in_errors_print_safely(tmp_path):
    rec = copy.deepcopy(SEED)
    rec["outbound"][0]["observation_id"] = "\x1b[32mOK\x1b[0m\nerror: forged"
    rec["outbound"][0]["citation"]["reference_index"] = "\u202e1"
    rec["outbound"][1]["observation_digest"] = "sha256:\r\x08" + "0" * 62  # digest-shaped
    p = save(tmp_path, rec)
    rc, out, err = cli("citations", p)
    assert rc == 1
    for text in (out, err):
        for line in text.splitlines():
            assert not BAD_CHARS.search(line), repr(line)
    assert "\\x1b[32mOK" in error_lines(err)


# ------------------------------------------------------------ over HTTP


def test_citations_over_http(server):
    server.route("/" + REL % SEED_ID, S.Reply(body=C.seed_bytes()))
    rc, out, err = cli("citations", SEED_ID, "--resolver", server.url, "--timeout", "5")
    assert rc == 0, out + err
    assert [s.path for s in server.seen] == ["/" + REL % SEED_ID]
    assert "references: 38 of 38 listed" in out


def test_citations_old_style_id_over_http(server):
    aid = "hep-th/9901001"
    server.route("/" + REL % aid, S.Reply(body=C.encode(C.generate(7, 1, arxiv_id=aid))))
    rc, out, err = cli("citations", "arXiv:%sv3" % aid, "--resolver", server.url)
    assert rc == 0, out + err
    assert [s.path for s in server.seen] == ["/paper/hep-th/9901001/citation-record.json"]
    assert out.splitlines()[7].startswith("arXiv:hep-th/9901001  ")


def test_citations_another_papers_record_over_http(server):
    server.route("/" + REL % "2501.00001", S.Reply(body=C.seed_bytes()))
    rc, out, err = cli("citations", "2501.00001", "--resolver", server.url)
    assert rc == 1
    assert "arXiv:2601.16956's, not arXiv:2501.00001's" in error_lines(err)
    assert "references:" not in out


def test_citations_large_record_over_http(server):
    """Over 1 MiB, under the 8 MiB cap stated for this document type."""
    raw = C.encode(C.generate(1000, 2))
    assert len(raw) > 1 << 20
    server.route("/" + REL % SEED_ID, S.Reply(body=raw))
    rc, out, err = cli("citations", SEED_ID, "--resolver", server.url)
    assert rc == 0, out + err
    assert "references: 1000 of 1000 listed" in out


def test_docs_example_is_real_output():
    """Every line of docs/citations.md's example (but its ``...``) is in the real output,
    in the same order."""
    doc = (ROOT / "docs" / "citations.md").read_text(encoding="utf-8")
    cmd = "$ pith-tex citations 2601.16956 --resolver examples/mirror --offline\n"
    block = doc.split(cmd, 1)[1].split("```", 1)[0]
    rc, out, err = cli(*cmd[2:].split()[1:], cwd=ROOT)
    assert rc == 0, err
    real = out.splitlines()
    at = 0
    for line in block.splitlines():
        if line.strip() == "...":
            continue
        assert line in real[at:], line
        at = real.index(line, at) + 1


@pytest.mark.parametrize("command", ["verify", "citations"])
def test_deeply_nested_record_is_refused_cleanly(tmp_path, command):
    nest = b"[" * 5000 + b"]" * 5000
    raw = C.seed_bytes().replace(b'"source":"pdf_text"', b'"source":' + nest, 1)
    rc, out, err = cli(command, save(tmp_path, None, raw=raw))
    assert rc == 3
    assert "nested too deeply" in error_lines(err) and "internal error" not in err


def test_saved_path_names_the_paper_old_style_too(tmp_path):
    aid = "hep-th/9901001"
    rec = C.generate(3, 1, arxiv_id=aid)
    r, checks = checks_of(save(tmp_path, rec, REL % aid))
    assert r.exit_code == 0 and "arXiv:hep-th/9901001 as asked" in dict(
        (n, d) for n, _, d in checks)["paper"], checks
    r, checks = checks_of(save(tmp_path, rec, REL % "hep-th/9901002"))
    assert r.exit_code == 1 and "not arXiv:hep-th/9901002's" in failing(checks, "paper")[0]


def test_verify_json_kind(tmp_path):
    rc, out, err = cli("verify", "--json", save(tmp_path, None, REL % SEED_ID, raw=C.seed_bytes()))
    assert rc == 0, err
    f = json.loads(out)["files"][0]
    assert f["kind"] == "citation-record" and f["number"] is None and f["verdict"] == "verified"
    assert [c["name"] for c in f["checks"]] == ["schema", "json", "observation", "context",
                                                "paper", "counts"]
