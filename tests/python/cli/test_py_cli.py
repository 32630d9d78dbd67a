"""The command line on a mirror on disk, the cache, discovery and exit codes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import pith_tex
from click.testing import CliRunner

import recorded
from pith_tex.resolver.cache import Cache
from pith_tex.cli import main
from pith_tex.include.include import IncludeData, render

V = recorded.vectors_with_record()[0]
N = V["number"]
V2 = recorded.vectors_with_record()[1]
# fetch writes the record's title too: the resolver JSON's paper.title hashes to the record
EXPECTED = render(IncludeData(N, 2025, V["canonical_hash"], V["canonical_record"], "absent",
                              title=V["title"]))
# An include from an earlier run (format 1, CRLF): fetch may replace it, a failure may not.
from server import OLD_INCLUDE as PREVIOUS  # noqa: E402


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    d = tmp_path / "paper"
    d.mkdir()
    monkeypatch.chdir(d)
    return d


def test_fetch_from_mirror_writes_include(mirror, workdir):
    r = run("fetch", N, "--resolver", mirror)
    assert r.exit_code == 0, r.output
    assert (workdir / "pith-number.tex").read_bytes() == EXPECTED
    lines = r.stdout.splitlines()
    assert [l[:6].strip() for l in lines[:-1]] == ["OK"] * 6  # no receipt: OK, "unsigned"
    assert lines[1].startswith("OK    hash        canonical_record hashes to 77a6d683")
    assert lines[-1] == "wrote pith-number.tex"
    r = run("fetch", N, "--resolver", mirror)
    assert r.stdout.splitlines()[-1] == "pith-number.tex is up to date"


def test_fetch_every_vector(mirror, workdir):
    for v in recorded.vectors_with_record():
        r = run("fetch", "pith:%d:%s" % (v["year"], v["number"].lower()), "--resolver", mirror,
                "-o", "out.tex")
        assert r.exit_code == 0, r.output
        assert b"number = %s," % v["number"].encode() in (workdir / "out.tex").read_bytes()


def test_env_resolver_and_file_url(mirror, workdir, monkeypatch):
    monkeypatch.setenv("PITH_RESOLVER", mirror)
    assert run("fetch", N).exit_code == 0
    monkeypatch.delenv("PITH_RESOLVER")
    assert run("fetch", N, "--resolver", "file://" + mirror).exit_code == 0


def test_fetch_json(mirror, workdir):
    r = run("fetch", N, "--resolver", mirror, "--json")
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["command"] == "fetch" and doc["number"] == N and doc["verdict"] == "verified"
    assert doc["exit_code"] == 0 and doc["error"] is None
    assert doc["include"] == {"path": "pith-number.tex", "written": True}
    assert [c["name"] for c in doc["checks"]] == ["record", "hash", "derivation", "year",
                                                  "bundle", "signature"]
    r = run("fetch", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ", "--resolver", mirror, "--json")
    assert r.exit_code == 3
    doc = json.loads(r.stdout)
    assert doc["verdict"] == "could-not-check" and "no record" in doc["error"]


def write_tex(d, name, body):
    (d / name).write_text("\\documentclass{article}\n\\usepackage{pith}\n" + body + "\n")


def test_discovery(mirror, workdir):
    write_tex(workdir, "main.tex", "%% \\pithnumber{%s}\n\\pithnumber{%s}" % (V2["number"], N))
    write_tex(workdir, "appendix.tex", "\\newcommand\\x[1]{\\pithnumber{#1}}")
    r = run("fetch", "--resolver", mirror)
    assert r.exit_code == 0, r.output
    assert (workdir / "pith-number.tex").read_bytes() == EXPECTED


def test_discovery_with_options_and_year(mirror, workdir):
    write_tex(workdir, "main.tex", "\\pithnumber[qr]{pith:2025:%s}" % N)
    assert run("fetch", "--resolver", mirror).exit_code == 0


def test_discovery_errors(mirror, workdir):
    r = run("fetch", "--resolver", mirror)
    assert r.exit_code == 2 and "no \\pithnumber" in r.stderr
    write_tex(workdir, "main.tex", "\\pithnumber{%s}" % N)
    write_tex(workdir, "other.tex", "\\pithnumber{%s}" % V2["number"])
    r = run("fetch", "--resolver", mirror)
    assert r.exit_code == 2
    assert N in r.stderr and V2["number"] in r.stderr and "main.tex:3" in r.stderr
    os.unlink(workdir / "other.tex")
    write_tex(workdir, "other.tex", "\\pithnumber{pith:O6TNNA4X}")
    r = run("fetch", "--resolver", mirror)
    assert r.exit_code == 2 and "other.tex:3" in r.stderr and "short form" in r.stderr
    assert not (workdir / "pith-number.tex").exists()


def tamper(path, fn):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    fn(doc)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def record_path(mirror, n=N):
    return os.path.join(mirror, "pith", n + ".json")


def bundle_path(mirror, n=N):
    return os.path.join(mirror, "pith", n, "bundle.json")


FAILURES = [
    ("tampered value", lambda m: tamper(record_path(m), lambda d: d["canonical_record"][
        "metadata"].update(primary_cat="cs.AI")), 1, "FAIL  hash"),
    ("another number", lambda m: shutil.copy(record_path(m, V2["number"]), record_path(m)), 1,
     "FAIL  derivation"),
    ("bad signature", lambda m: tamper(bundle_path(m), lambda d: d["events"][0]["payload"]
                                       .update(receipt=recorded.receipt("A" * 86 + "=="))), 1,
     "FAIL  signature"),
    ("unknown key", lambda m: tamper(bundle_path(m), lambda d: d["events"][0]["payload"]
                                     .update(receipt=recorded.receipt("A" * 86 + "==", "k-2")))
     , 3, "ERROR signature   receipt signed with unknown key id 'k-2'"),
    ("bundle disagrees", lambda m: tamper(bundle_path(m), lambda d: d.update(
        canonical_sha256="0" * 64)), 1, "FAIL  bundle"),
    ("missing record", lambda m: os.unlink(record_path(m)), 3, "no record for"),
    ("html", lambda m: open(record_path(m), "w").write("<!DOCTYPE html><html>x</html>"), 3,
     "HTML page, not JSON"),
    ("truncated", lambda m: open(record_path(m), "r+b").truncate(300), 3, "truncated"),
    ("not json", lambda m: open(record_path(m), "w").write("hello"), 3, "not valid JSON"),
    ("oversized", lambda m: open(record_path(m), "w").write(" " * (1 << 20) + "{}"), 3,
     "larger than 1 MiB"),
    ("missing field", lambda m: tamper(record_path(m), lambda d: d.pop("canonical_sha256")), 3,
     "no canonical_sha256"),
    ("tex in source.id", lambda m: tamper(record_path(m), lambda d: d["canonical_record"][
        "source"].update(id="\\input{x}")), 1, "ERROR record"),
]


@pytest.mark.parametrize("name, breaker, code, text", FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_include_untouched(mirror, workdir, name, breaker, code, text):
    (workdir / "pith-number.tex").write_bytes(PREVIOUS)
    breaker(mirror)
    r = run("fetch", N, "--resolver", mirror)
    assert r.exit_code == code, r.output
    assert text in r.output
    assert "Traceback" not in r.output
    errors = [l for l in r.stderr.splitlines() if l.startswith("error: ")]
    assert len(errors) == 1 and r.stderr.count("\n") == 1
    assert "pith-number.tex was left untouched" in errors[0] or code == 3
    assert (workdir / "pith-number.tex").read_bytes() == PREVIOUS
    assert os.listdir(workdir) == ["pith-number.tex"]


def test_bundle_404_is_a_warning(mirror, workdir):
    shutil.rmtree(os.path.join(mirror, "pith", N))
    r = run("fetch", N, "--resolver", mirror)
    assert r.exit_code == 0
    assert "OK    signature   checked, unsigned: the hash proves the number" in r.stdout
    r = run("fetch", N, "--resolver", mirror, "--require-signature")
    assert r.exit_code == 1


def test_require_signature(mirror, workdir):
    (workdir / "pith-number.tex").write_bytes(PREVIOUS)
    r = run("fetch", N, "--resolver", mirror, "--require-signature")
    assert r.exit_code == 1 and "FAIL  signature" in r.stdout
    assert (workdir / "pith-number.tex").read_bytes() == PREVIOUS


def test_year_contradicting_record_is_usage_error(mirror, workdir):
    (workdir / "pith-number.tex").write_bytes(PREVIOUS)
    r = run("fetch", "pith:2024:" + N, "--resolver", mirror)
    assert r.exit_code == 2
    assert "pith:2024:" in r.stderr and "from 2025" in r.stderr
    assert (workdir / "pith-number.tex").read_bytes() == PREVIOUS


@pytest.mark.parametrize("args", [
    ["fetch", "pith:O6TNNA4X"],
    ["fetch", "O6TNNA4XHFGPSALGBT7UWDA2Z0"],
    ["fetch", N, "--timeout", "0"],
    ["fetch", N, "--resolver", "ftp://example.org"],
    ["fetch", N, "--resolver", "/no/such/dir"],
    ["fetch", N, "--bogus"],
    ["verify"],
    ["verify", "/no/such/file.json"],
])
def test_usage_errors_exit_2(workdir, args):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output


def test_offline_uses_cache_and_rejects_tampering(mirror, workdir):
    r = run("fetch", N, "--offline")
    assert r.exit_code == 3 and "not in the cache" in r.stderr
    with open(record_path(mirror), "rb") as f:
        rec = f.read()
    with open(bundle_path(mirror), "rb") as f:
        bun = f.read()
    cache = Cache()
    cache.store(N, rec, bun)
    assert cache.load(N) == (rec, bun)
    r = run("fetch", N, "--offline")
    assert r.exit_code == 0, r.output
    assert (workdir / "pith-number.tex").read_bytes() == EXPECTED
    tamper(cache.record_path(N), lambda d: d["canonical_record"]["source"].update(version=2))
    r = run("fetch", N, "--offline")
    assert r.exit_code == 1
    assert "cached copy" in r.stderr and "tampered" in r.stderr
    assert (workdir / "pith-number.tex").read_bytes() == EXPECTED


def test_offline_with_mirror_directory(mirror, workdir):
    assert run("fetch", N, "--offline", "--resolver", mirror).exit_code == 0


def test_verify_directory(mirror, workdir):
    r = run("verify", mirror)
    assert r.exit_code == 0, r.output
    n = len(recorded.vectors_with_record())
    assert r.stdout.splitlines()[-1] == "%d files: %d verified, 0 failed, 0 could not be checked" % (2 * n, 2 * n)
    assert len(r.stdout.splitlines()) == 2 * n + 1
    shutil.copy(record_path(mirror, V2["number"]), record_path(mirror))
    with open(os.path.join(mirror, "junk.json"), "w") as f:
        f.write("[]")
    r = run("verify", mirror)
    assert r.exit_code == 1
    assert "1 failed, 1 could not be checked" in r.stdout
    r = run("verify", os.path.join(mirror, "junk.json"))
    assert r.exit_code == 3


def test_verify_files_and_json(mirror, workdir):
    assert run("fetch", N, "--resolver", mirror).exit_code == 0
    r = run("verify", "pith-number.tex")
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == "checked (unsigned)"
    r = run("verify", "pith-number.tex", "--require-signature")
    assert r.exit_code == 1
    r = run("verify", record_path(mirror), bundle_path(mirror), "pith-number.tex", "--json")
    doc = json.loads(r.stdout)
    assert doc["exit_code"] == 0 and doc["summary"]["files"] == 3
    assert [f["kind"] for f in doc["files"]] == ["record", "bundle", "include"]
    text = (workdir / "pith-number.tex").read_text()
    (workdir / "bad.tex").write_text(text.replace(N, V2["number"]))
    r = run("verify", "bad.tex")
    assert r.exit_code == 1 and "FAIL  derivation" in r.stdout
    (workdir / "edited.tex").write_text(text.replace("% Do not", "% Do"))
    assert run("verify", "edited.tex").exit_code == 3


def test_verify_bundle_named_for_another_number(mirror, workdir):
    shutil.copy(bundle_path(mirror, V2["number"]), bundle_path(mirror))
    r = run("verify", bundle_path(mirror))
    assert r.exit_code == 1


def test_python_dash_m_and_help():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "pith_tex", "--help"], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0 and "fetch" in r.stdout
    r = subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "pith:O6TNNA4X"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_verify_empty_directory_could_not_check(tmp_path):
    r = run("verify", tmp_path)
    assert r.exit_code == 3 and "nothing to verify" in r.stderr


def test_parallel_batch_gives_the_same_output(mirror, workdir, monkeypatch):
    from pith_tex.verify import batch

    shutil.copy(record_path(mirror, V2["number"]), record_path(mirror))
    sequential = run("verify", mirror, "--jobs", "1")
    monkeypatch.setattr(batch, "RECORDS_PER_WORKER", 5)  # a worker for every 5 records
    monkeypatch.setattr(batch, "CHUNK", 7)
    parallel = run("verify", mirror, "--jobs", "2")
    assert parallel.exit_code == sequential.exit_code == 1
    assert parallel.stdout == sequential.stdout
    parallel_json = run("verify", mirror, "--json", "--jobs", "2")
    assert json.loads(parallel_json.stdout)["summary"]["failed"] == 1
    assert batch.workers_for([(p, False) for p in batch.iter_json_files(mirror)], 2) == 2


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.split()[-1] == pith_tex.__version__
