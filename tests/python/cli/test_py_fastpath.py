"""The fast path of ``pith-tex verify`` gives exactly what the general path gives:
``verify DIR`` prints a passing record's line from ``verified_record_obj`` (no check
objects); on a table of damaged files it must agree with ``verify_file``.  And the verify
command lines of a table end with the exit codes they should.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest

import recorded
from pdfclaims import blank_pdf, claims
from pith_tex.record import canonical
from pith_tex.report import file_line, ok_line
from pith_tex.verify.batch import verified_record_obj, verify_paths
from pith_tex.verify.files import decode_json, read_file, verify_file

V = recorded.vectors_with_record()[0]
N = V["number"]

ENTRY_MAIN = ("import sys; from pith_tex.cli import main; "
              "main(sys.argv[1:], prog_name='pith-tex')")


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(doc if isinstance(doc, bytes) else recorded.encode(doc))
    return path


@pytest.fixture
def files(tmp_path, mirror):
    d = str(tmp_path)
    rec = os.path.join(mirror, "pith", N + ".json")
    bad = recorded.resolver_json(V)
    bad["canonical_record"]["source"]["version"] = 2
    tex = os.path.join(d, "pith-number.tex")
    from pith_tex.include.include import IncludeData, render

    with open(tex, "wb") as f:
        f.write(render(IncludeData(N, 2025, V["canonical_hash"], V["canonical_record"], "absent")))
    os.makedirs(os.path.join(d, "empty"))
    return {
        "rec": rec,
        "bundle": os.path.join(mirror, "pith", N, "bundle.json"),
        "mirror": mirror,
        "tampered": write(os.path.join(d, "t", N + ".json"), bad),
        "notjson": write(os.path.join(d, "x", "notjson.json"), b"{not json"),
        "nonascii": write(os.path.join(d, "x", "\u00e9t\u00e9.json"), bad),
        "tex": tex,
        "empty": os.path.join(d, "empty"),
        "missing": os.path.join(d, "missing.json"),
        "pdf": blank_pdf(os.path.join(d, "paper.pdf"), claims(V)),
        "nopith": blank_pdf(os.path.join(d, "nopith.pdf"), {"/Title": "A Paper"}),
        "notpdf": write(os.path.join(d, "x", "fake.pdf"), b"<html></html>\n"),
        "pdfbin": blank_pdf(os.path.join(d, "paper.bin"), claims(V)),
    }


ARGVS = [
    ["verify", "rec"],
    ["verify", "--json", "rec"],
    ["verify", "rec", "--json", "--require-signature"],
    ["verify", "--json", "--json", "rec"],
    ["verify", "bundle"],
    ["verify", "--require-signature", "bundle"],
    ["verify", "mirror"],
    ["verify", "mirror", "--json"],
    ["verify", "tampered"],
    ["verify", "--json", "tampered"],
    ["verify", "notjson"],
    ["verify", "nonascii"],
    ["verify", "tex"],
    ["verify", "empty"],
    ["verify", "rec", "tampered", "tex"],
    ["verify", "missing"],  # click's usage error
    ["verify"],
    ["verify", "-h"],
    ["verify", "--", "rec"],
    ["verify", "--jsn", "rec"],
    ["verify", "--json=1", "rec"],
    ["--version"],
    ["verif", "rec"],
    ["verify", "pdf"],
    ["verify", "--json", "pdf"],
    ["verify", "--require-signature", "pdf"],
    ["verify", "nopith"],
    ["verify", "notpdf", "--json"],
    ["verify", "pdfbin"],
    ["verify", "rec", "pdf", "tex", "notpdf"],
    ["verify", "--json", "rec", "pdf", "nopith"],
]
# the exit codes of the PDF forms: a blank page (badge warning, no receipt), no Pith keys,
# not a PDF
PDF_CODES = {23: 0, 24: 0, 25: 1, 26: 3, 27: 3, 28: 0, 29: 3, 30: 3}


def _run(code, argv):
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True)


@pytest.mark.parametrize("i", range(len(ARGVS)))
def test_verify_command_lines_end_with_their_exit_codes(files, i):
    argv = [files.get(a, a) for a in ARGVS[i]]
    r = _run(ENTRY_MAIN, argv)
    assert r.returncode in (0, 1, 2, 3), r.stderr
    if i in PDF_CODES:
        assert r.returncode == PDF_CODES[i], (r.stdout, r.stderr)


def _variants():
    """(name, file name, document or bytes): damaged copies of a valid record."""
    good = recorded.resolver_json(V)

    def edit(fn):
        doc = copy.deepcopy(good)
        fn(doc)
        return doc

    rec = lambda doc: doc["canonical_record"]  # noqa: E731
    yield "good", N + ".json", good
    yield "good, any name", "saved.json", good
    yield "wrong name", "A" * 26 + ".json", good
    yield "lower-case name", N.lower() + ".json", good
    yield "tex", N + ".tex", good
    yield "year", N + ".json", edit(lambda d: d.update(pith_number="pith:2024:" + N))
    yield "year, any name", "x.json", edit(lambda d: d.update(pith_number="pith:2024:" + N))
    yield "short year", "x.json", edit(lambda d: d.update(pith_number="pith:025:" + N))
    yield "other number", N + ".json", edit(lambda d: d.update(pith_number="pith:2025:" + "A" * 26))
    yield "no pith_number", N + ".json", edit(lambda d: d.pop("pith_number"))
    yield "pith_number not str", N + ".json", edit(lambda d: d.update(pith_number=5))
    yield "sha upper", N + ".json", edit(lambda d: d.update(canonical_sha256=d["canonical_sha256"].upper()))
    yield "sha other", N + ".json", edit(lambda d: d.update(canonical_sha256="0" * 64))
    yield "sha missing", N + ".json", edit(lambda d: d.pop("canonical_sha256"))
    yield "record_type", N + ".json", edit(lambda d: d.update(record_type="x"))
    yield "record list", N + ".json", edit(lambda d: d.update(canonical_record=[]))
    yield "version", N + ".json", edit(lambda d: rec(d)["source"].update(version=2))
    yield "version 0", "x.json", edit(lambda d: rec(d)["source"].update(version=0))
    yield "version bool", "x.json", edit(lambda d: rec(d)["source"].update(version=True))
    yield "extra field", "x.json", edit(lambda d: rec(d).update(extra=1))
    yield "submitted_at", "x.json", edit(
        lambda d: rec(d)["metadata"].update(submitted_at="2025-09-03"))
    yield "bundle", N + ".json", recorded.bundle_json(V)
    yield "array", N + ".json", [good]
    yield "not json", N + ".json", b"{"
    yield "not utf-8", N + ".json", b'{"a": "\xff"}'


def test_lean_record_check_agrees_with_verify_file(tmp_path):
    for k, (name, fname, doc) in enumerate(_variants()):
        if isinstance(doc, dict) and doc.get("record_type") == "pith_number_record" and \
                name not in ("sha other", "sha upper") and type(doc.get("canonical_record")) is dict:
            # keep the hash right after an edit of the record, so the later checks matter
            d = canonical.digest(doc["canonical_record"])
            if "sha" not in name:
                doc["canonical_sha256"] = d.hex()
        path = write(str(tmp_path / str(k) / fname), doc)
        full = verify_file(path)
        passed = full.kind == "record" and full.exit_code == 0
        # What verify DIR prints for the file (lean path first) is the full report's line.
        out: list = []
        verify_paths([path], require_signature=False, as_json=False, sink=out.append)
        assert "".join(out) == file_line(full) + "\n", name
        if not fname.endswith(".tex"):  # verify DIR reads .tex as an include, never lean
            data, unreadable = read_file(path)
            if unreadable is None:
                obj, unreadable = decode_json(path, data)
            number = None if unreadable else verified_record_obj(path, obj)
            assert (number is not None) == passed, name
            if number is not None:
                assert ok_line(path, number) == file_line(full), name


def make_records(root, n):
    """*n* valid records named NUM.json, varied from the vectors (hash and number redone)."""
    base = recorded.vectors_with_record()
    os.makedirs(os.path.join(root, "pith"))
    paths = []
    for i in range(n):
        v = recorded.varied(base[i % len(base)], i)
        paths.append(write(os.path.join(root, "pith", v["number"] + ".json"),
                           recorded.resolver_json(v)))
    return sorted(paths)


def test_verify_directory_of_many_records(tmp_path, monkeypatch):
    """200 records (several write batches), one tampered: every line, in order."""
    from click.testing import CliRunner

    from pith_tex.verify import batch
    from pith_tex.cli import main

    paths = make_records(str(tmp_path), 200)
    tampered = paths[123]
    with open(tampered, "rb") as f:
        doc = json.loads(f.read())
    doc["canonical_record"]["metadata"]["license"] += " "
    write(tampered, doc)
    monkeypatch.setattr(batch, "WRITE_EVERY", 7)
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 201
    for p, line in zip(paths, lines):
        if p == tampered:
            assert line.startswith("FAIL  %s  hash: canonical_record hashes to " % p)
        else:
            assert line == "OK    %s  %s" % (p, os.path.basename(p)[:-5])
    assert lines[-1] == "200 files: 199 verified, 1 failed, 0 could not be checked"
    assert r.stderr == ("error: verification failed: 1 of 200 files failed verification, "
                        "0 could not be checked\n")
    r = CliRunner().invoke(main, ["verify", "--json", str(tmp_path)])
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and out["summary"] == {
        "files": 200, "verified": 199, "failed": 1, "could_not_check": 0}
    assert [f["path"] for f in out["files"]] == paths
    assert [f["exit_code"] for f in out["files"]] == [1 if p == tampered else 0 for p in paths]


TRICKY = ["", "a" * 63, "a" * 64, "a" * 65, "A" * 64, "a" * 63 + "\n", "a" * 63 + "g",
          "\u0663" * 64, "0123456789abcdef" * 4, " " + "a" * 63, "A" * 26, "A" * 25 + "1",
          "A" * 25 + "\n", "a" * 26, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "234567" * 4 + "AB",
          "A" * 27, "\uff21" * 26]


@pytest.mark.parametrize("s", TRICKY)
def test_string_checks_match_the_patterns(s):
    assert canonical.is_sha256_hex(s) == bool(canonical.SHA256_RE.match(s))
    assert canonical.is_number(s) == bool(canonical.NUMBER_RE.match(s))
    assert not canonical.is_number(None) and not canonical.is_sha256_hex(5)
