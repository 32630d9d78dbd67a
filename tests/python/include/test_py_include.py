"""The include: README contract byte for byte, refusal of anything unvalidated, atomic
writes, parse back."""

from __future__ import annotations

import copy
import errno
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import recorded
from contract import readme_include
from server import OLD_INCLUDE
from pith_tex.errors import CouldNotCheck, UsageError
from pith_tex.include.include import (IncludeData, IncludeRefused, IncludeWriteError, parse_include,
                              qr_block_matches, render, write_include)

README_FULL = readme_include().encode("ascii")  # as fetch writes it: with the title
README_EXAMPLE = readme_include(title=False).encode("ascii")

V = recorded.vector("O6TNNA4XHFGPSALGBT7UWDA2Z3")
GOOD = IncludeData(V["number"], 2025, V["canonical_hash"], V["canonical_record"], "absent")
SIGNED = GOOD._replace(signature="verified", key_id="pith-v1-2026-05",
                       signature_hex="5a" * 64)

# An independent statement of the contract (README table), not the module's own regexes.
CAT = rb"[a-z-]{1,20}(\.[A-Za-z-]{1,20})?"
STRICT = re.compile(
    rb"% pith-number\.tex: written by `pith-tex fetch` after verifying the record\.\n"
    rb"% Do not edit: run `pith-tex fetch` again instead\.\n"
    rb"(% pith-tex ([0-9]+\.[0-9]+\.[0-9]+) wrote it; it needs pith\.sty \2 or newer\.\n)?"
    rb"(% title accepted: the paper's title differs from the record's "
    rb"\(pith-tex fetch --accept-title\)\n)?"
    rb"\\pithrecord\{2\}\{\n"
    rb"  number = [A-Z2-7]{26},\n"
    rb"  year = [0-9]{4},\n"
    rb"  sha256 = [0-9a-f]{64},\n"
    rb"  arxiv-id = ([0-9]{4}\.[0-9]{4,5}|[a-z-]+(\.[A-Z]{2})?/[0-9]{7}),\n"
    rb"  arxiv-version = [1-9][0-9]{0,3},\n"
    rb"  submitted-at = [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z,\n"
    rb"  primary-cat = " + CAT + rb",\n"
    rb"  cross-cats = (" + CAT + rb"( " + CAT + rb"){0,15})?,\n"
    rb"  license = (https?://[A-Za-z0-9./_-]{1,200})?,\n"
    rb"  title-sha256 = [0-9a-f]{64},\n"
    rb"  abstract-sha256 = [0-9a-f]{64},\n"
    rb"  signature = (absent|verified,\n  key-id = [a-z0-9-]{1,64},\n"
    rb"  signature-hex = [0-9a-f]{128}),\n"
    rb"(  title-utf16 = feff([0-9a-f]{4}){1,1000},\n)?"
    rb"(  accepted-title-utf16 = feff([0-9a-f]{4}){1,1000},\n)?"
    rb"\}\n"
    rb"\\pithqrcode\{(?P<size>[0-9]+)\}\{\n(  [01]+\n)+\}\n\Z")


def strict(out):
    """STRICT, and the QR block is SIZE rows of SIZE modules."""
    m = STRICT.match(out)
    if not m:
        return False
    rows = out.split(b"\\pithqrcode{", 1)[1].split(b"\n")[1:-2]
    size = int(m.group("size"))
    return len(rows) == size and all(len(r) == size + 2 for r in rows)


def with_field(data, path, value):
    """*data* with the record field at *path* (a tuple of keys) set to *value*."""
    record = copy.deepcopy(data.record)
    node = record
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data._replace(record=record)


def test_readme_example_byte_for_byte():
    assert render(GOOD._replace(title=V["title"])) == README_FULL
    assert render(GOOD) == README_EXAMPLE


def test_signed_form():
    out = render(SIGNED)
    assert b"  signature = verified,\n  key-id = pith-v1-2026-05,\n  signature-hex = %s,\n}\n" \
        % (b"5a" * 64) in out
    assert strict(out)


def test_qr_block_is_checked_apart_from_the_parse():
    text = README_EXAMPLE.decode("ascii")
    # The last module of the first row (a finder pattern's corner: always dark).
    head, rows = text.split("\\pithqrcode{29}{\n", 1)
    assert rows.startswith("  " + "1" * 7) and rows[30] == "1", rows[:32]
    flipped = head + "\\pithqrcode{29}{\n" + rows[:30] + "0" + rows[31:]
    assert qr_block_matches(text, GOOD.number)
    assert parse_include(flipped) == GOOD  # the shape is right ...
    assert not qr_block_matches(flipped, GOOD.number)  # ... the modules are not
    assert not qr_block_matches(text, recorded.vectors_with_record()[1]["number"])


def test_record_rebuilt_from_the_include_hashes_to_its_sha256():
    data = parse_include(README_EXAMPLE.decode("ascii"))
    assert recorded.sha256_hex(data.record) == data.sha256
    assert recorded.number_of(data.record) == data.number


@pytest.mark.parametrize("v", recorded.vectors_with_record(), ids=lambda v: v["number"])
def test_every_vector_renders_and_parses_back(v):
    data = IncludeData(v["number"], v["year"], v["canonical_hash"], v["canonical_record"],
                       "absent")
    out = render(data)
    assert strict(out) and out.isascii()
    parsed = parse_include(out.decode("ascii"))
    assert parsed == data
    assert recorded.canonical_bytes(parsed.record) == recorded.canonical_bytes(
        v["canonical_record"])
    signed = data._replace(signature="verified", key_id="pith-v1-2026-05",
                           signature_hex="0f" * 64)
    assert parse_include(render(signed).decode("ascii")) == signed


@pytest.mark.parametrize("field, value", [
    ("number", "O6TNNA4XHFGPSALGBT7UWDA2Z"),
    ("number", "o6tnna4xhfgpsalgbt7uwda2z3"),
    ("number", "O6TNNA4XHFGPSALGBT7UWDA2Z3\n"),
    ("year", 999),
    ("year", 20250),
    ("year", "2025"),
    ("year", True),
    ("sha256", "77A6" + GOOD.sha256[4:]),
    ("sha256", GOOD.sha256[:-1]),
    ("signature", "maybe"),
    ("key_id", "x"),  # key-id with signature = absent
    ("signature_hex", "ab" * 64),  # a signature with signature = absent
    ("record", None),
    ("record", {}),
])
def test_bad_values_are_refused(field, value):
    with pytest.raises(IncludeRefused):
        render(GOOD._replace(**{field: value}))


@pytest.mark.parametrize("path, value", [
    (("source", "id"), "2509.03047}\\input{evil}"),
    (("source", "id"), "Fra\\\"{\\i}ss\\'{e}"),
    (("source", "id"), "2509.03047\n"),
    (("source", "id"), "2509.030"),
    (("source", "id"), "math/970720"),
    (("source", "version"), 0),
    (("source", "version"), 10000),
    (("source", "version"), "1"),
    (("metadata", "primary_cat"), "cs.DC}\\def\\x{"),
    (("metadata", "primary_cat"), "cs DC"),
    (("metadata", "primary_cat"), ""),
    (("metadata", "cross_cats_sorted"), ["cs.AI", "cs,AI"]),
    (("metadata", "cross_cats_sorted"), ["cs.AI", ""]),
    (("metadata", "cross_cats_sorted"), ["cs.AI"] * 17),
    (("metadata", "license"), "http://example.org/a b"),
    (("metadata", "license"), "http://example.org/%7e"),
    (("metadata", "license"), "https://example.org/#x"),
    (("metadata", "license"), "ftp://example.org/"),
    (("metadata", "license"), "http://example.org/\\input{x}"),
    (("metadata", "submitted_at"), "2025-09-03 06:19:59Z"),
    (("metadata", "title_canon_sha256"), "3AD4" + "0" * 60),
    (("metadata", "abstract_canon_sha256"), "0" * 63),
    (("schema_version",), "1.1"),
    (("source", "kind"), "doi"),
])
def test_bad_record_fields_are_refused(path, value):
    with pytest.raises(IncludeRefused):
        render(with_field(GOOD, path, value))


@pytest.mark.parametrize("signature_hex", [None, "", "AB" * 64, "ab" * 63, "ab" * 65, "g" * 128])
def test_bad_signature_hex_refused(signature_hex):
    with pytest.raises(IncludeRefused):
        render(SIGNED._replace(signature_hex=signature_hex))


@pytest.mark.parametrize("key_id", [None, "", "Pith-V1", "a" * 65, "k%y", "k y", "k\u00e9"])
def test_bad_key_ids_refused(key_id):
    with pytest.raises(IncludeRefused):
        render(SIGNED._replace(key_id=key_id))


tex_specials = st.sampled_from(list("\\{}%#$&~^_\n\r\t ,=") + ["\\input{x}", "\u00ef",
                                                               "\u2028", "\x00"])
tex_text = st.lists(st.one_of(tex_specials, st.characters()), max_size=20).map("".join)
near_valid = st.tuples(st.sampled_from([GOOD.number, "2025", GOOD.sha256, "2509.03047", "1",
                                        "pith-v1-2026-05", "verified", "absent", "cs.AI",
                                        "http://creativecommons.org/licenses/by/4.0/"]),
                       tex_text).map(lambda t: t[0] + t[1])
hostile = st.one_of(st.text(), tex_text, near_valid, st.integers(), st.none(), st.booleans(),
                    st.floats())
RECORD_PATHS = [("source", "id"), ("source", "version"), ("metadata", "primary_cat"),
                ("metadata", "license"), ("metadata", "submitted_at"),
                ("metadata", "title_canon_sha256"), ("metadata", "abstract_canon_sha256")]


def _hostile_data(where, value):
    if type(where) is str:
        return GOOD._replace(**{where: value})
    if where == ("metadata", "cross_cats_sorted"):
        return with_field(GOOD, where, ["cs.AI", value])
    return with_field(GOOD, where, value)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(list(IncludeData._fields) + RECORD_PATHS
                             + [("metadata", "cross_cats_sorted")]),
       value=hostile)
def test_whatever_a_response_contains_is_refused_or_strict_ascii(tmp_path, where, value):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(OLD_INCLUDE)
    data = _hostile_data(where, value)
    try:
        written = write_include(str(target), data)
    except IncludeRefused:
        assert target.read_bytes() == OLD_INCLUDE
    else:
        out = target.read_bytes()
        assert written
        assert out.isascii() and strict(out)
        assert render(data) == out
    assert sorted(os.listdir(tmp_path)) == ["pith-number.tex"]


CATS = st.from_regex(r"\A[a-z-]{1,20}(\.[A-Za-z-]{1,20})?\Z")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=26, max_size=26),
       st.integers(1000, 9999), st.binary(min_size=32, max_size=32),
       st.from_regex(r"\A([0-9]{4}\.[0-9]{4,5}|[a-z-]{1,10}(\.[A-Z]{2})?/[0-9]{7})\Z"),
       st.integers(1, 9999), CATS, st.lists(CATS, max_size=16),
       st.from_regex(r"\A(https?://[A-Za-z0-9./_-]{1,200})?\Z"))
def test_valid_values_always_render(number, year, digest, arxiv_id, version, primary, cross,
                                    license):
    record = copy.deepcopy(GOOD.record)
    record["source"].update(id=arxiv_id, version=version)
    record["metadata"].update(primary_cat=primary, cross_cats_sorted=cross, license=license)
    data = IncludeData(number, year, digest.hex(), record, "absent")
    out = render(data)
    assert strict(out)
    parsed = parse_include(out.decode())
    assert parsed == data
    assert render(parsed) == out  # deterministic: the same values from a parse, same bytes


def test_write_is_skipped_when_identical(tmp_path):
    target = tmp_path / "pith-number.tex"
    assert write_include(str(target), GOOD) is True
    mtime = os.stat(target).st_mtime_ns
    assert write_include(str(target), GOOD) is False
    assert os.stat(target).st_mtime_ns == mtime
    assert write_include(str(target), SIGNED) is True
    assert target.read_bytes() == render(SIGNED)


def _enospc_after(n):
    calls = {"n": 0}

    def write(fd, data):
        calls["n"] += 1
        if calls["n"] > n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.write(fd, data[:10])  # short writes, so several calls are needed
    return write


@pytest.mark.parametrize("after", [0, 1, 5])
def test_enospc_leaves_previous_include_intact(tmp_path, after):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(README_EXAMPLE)
    with pytest.raises(IncludeWriteError) as e:
        write_include(str(target), SIGNED, write=_enospc_after(after))
    assert "No space left on device" in e.value.message
    assert "unchanged" in e.value.message
    assert e.value.exit_code == 3
    assert target.read_bytes() == README_EXAMPLE
    assert os.listdir(tmp_path) == ["pith-number.tex"]


def test_fsync_failure_leaves_previous_include_intact(tmp_path):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(README_EXAMPLE)

    def fsync(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    with pytest.raises(IncludeWriteError):
        write_include(str(target), SIGNED, fsync=fsync)
    assert target.read_bytes() == README_EXAMPLE
    assert os.listdir(tmp_path) == ["pith-number.tex"]


def test_target_is_a_directory(tmp_path):
    target = tmp_path / "pith-number.tex"
    target.mkdir()
    (target / "keep").write_bytes(b"x")
    with pytest.raises(UsageError, match="is a directory, not a regular file") as e:
        write_include(str(target), GOOD)
    assert e.value.exit_code == 2
    assert (target / "keep").read_bytes() == b"x"
    assert sorted(os.listdir(tmp_path)) == ["pith-number.tex"]


def test_real_failure_missing_directory(tmp_path):
    with pytest.raises(IncludeWriteError):
        write_include(str(tmp_path / "nope" / "pith-number.tex"), GOOD)


@pytest.mark.parametrize("old_mode", [0o640, 0o4755, 0o777])
def test_mode_is_0644_minus_umask_never_the_old_one(tmp_path, old_mode):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(OLD_INCLUDE)
    os.chmod(target, old_mode)
    mask = os.umask(0o027)
    try:
        write_include(str(target), GOOD)
    finally:
        os.umask(mask)
    assert os.stat(target).st_mode & 0o7777 == 0o640  # 0644 & ~027: no setuid, no exec
    assert target.read_bytes() == render(GOOD)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("year = 2025", "year =  2025"), "year"),
    (lambda t: t.replace("{2}", "{1}"), "format '1' is unknown"),
    (lambda t: t.replace("{2}", "{3}"), "format '3' is unknown"),
    (lambda t: t.replace("  signature = absent,\n", ""), "no signature key"),
    (lambda t: t.replace("2509.03047", "25O9.03047"), "source.id"),
    (lambda t: t.replace("\\pithrecord", "\\pithnumber"), "no \\pithrecord"),
    (lambda t: t.split("}\n")[0], "never closed"),
    (lambda t: t.replace("year = 2025,", "year = 2025"), "line 6"),
    (lambda t: t.replace("  cross-cats = cs.AI,\n", ""), "no cross-cats key"),
    (lambda t: t.replace("cross-cats = cs.AI", "cross-cats = cs.AI "), "bad include: cross-cats"),
    (lambda t: t.replace("primary-cat = cs.DC", "primary-cat = cs.DC~"), "bad include: primary-cat"),
    (lambda t: t.replace("}\n\\pithqrcode{29}{\n  1111111", "}\n\\pithqrcode{29}{\n  111111", 1),
     "byte-for-byte"),  # a module missing: not the shape of a QR block
    (lambda t: t.replace("\\pithqrcode{29}", "\\pithqr{29}"), "byte-for-byte"),
    (lambda t: t.replace("% Do not edit", "% Please edit"), "byte-for-byte"),
    (lambda t: t + "\\input{evil}\n", "byte-for-byte"),
])
def test_parse_rejects_anything_not_written_by_us(edit, message):
    text = edit(README_EXAMPLE.decode())
    with pytest.raises(CouldNotCheck) as e:
        parse_include(text)
    assert message in e.value.message


def test_parse_reads_crlf_line_ends_as_pith_sty_does():
    """A checkout on Windows (git autocrlf): pith.sty reads it (TeX drops the CR), and so
    does pith-tex, to the same values."""
    text = README_EXAMPLE.decode()
    assert parse_include(text.replace("\n", "\r\n")) == parse_include(text)
    assert qr_block_matches(text.replace("\n", "\r\n"), GOOD.number)


@pytest.mark.parametrize("resave", [
    lambda b: b"\xef\xbb\xbf" + b,
    lambda b: b.decode().encode("utf-16"),
    lambda b: b.decode().encode("utf-16-le"),
    lambda b: b.decode().encode("utf-16-be"),
], ids=["utf8-bom", "utf16-bom", "utf16le", "utf16be"])
def test_fetch_replaces_an_include_an_editor_resaved(tmp_path, resave):
    """pith.sty refuses an include with a byte-order mark or in UTF-16 and says to run
    pith-tex fetch again: fetch must then replace it (it refused: 'not an include')."""
    target = tmp_path / "pith-number.tex"
    target.write_bytes(resave(README_EXAMPLE))
    assert write_include(str(target), GOOD) is True
    assert target.read_bytes() == render(GOOD)


def test_fetch_still_refuses_a_paper_with_a_byte_order_mark(tmp_path):
    target = tmp_path / "main.tex"
    target.write_bytes(b"\xef\xbb\xbf\\documentclass{article}\n")
    with pytest.raises(UsageError, match="is not a pith-tex include"):
        write_include(str(target), GOOD)
    assert target.read_bytes() == b"\xef\xbb\xbf\\documentclass{article}\n"


def test_an_accepted_title_is_said_in_the_include_and_read_back():
    out = render(GOOD._replace(title_accepted=True))
    assert strict(out) and b"% title accepted:" in out
    assert parse_include(out.decode("ascii")).title_accepted is True
    assert parse_include(render(GOOD).decode("ascii")).title_accepted is False


def test_the_accepted_title_rides_in_the_include_after_the_records():
    new = "Recovering Large Training Jobs in Seconds \\emph{fast}"
    out = render(GOOD._replace(title=V["title"], title_accepted=True, accepted_title=new))
    assert strict(out), out
    line = "  accepted-title-utf16 = feff%s,\n" % new.encode("utf-16-be").hex()
    assert line.encode("ascii") in out and out.index(line.encode()) > out.index(b"title-utf16")
    back = parse_include(out.decode("ascii"))
    assert back.accepted_title == new and back.title == V["title"] and back.title_accepted
    assert parse_include(render(GOOD).decode("ascii")).accepted_title is None


@pytest.mark.parametrize("data", [
    GOOD._replace(accepted_title="A new title"),  # without the note
    GOOD._replace(title_accepted=True, accepted_title=V["title"]),  # the record's own
    GOOD._replace(title_accepted=True, accepted_title=""),
    GOOD._replace(title_accepted=True, accepted_title="x" * 1001),
])
def test_an_accepted_title_that_cannot_be_one_is_refused(data):
    with pytest.raises(IncludeRefused):
        render(data)


def test_the_records_title_rides_in_the_include_as_utf16_hex():
    title = V["title"]  # FlashRecovery: ... (it hashes to the record's title_canon_sha256)
    out = render(GOOD._replace(title=title))
    line = "  title-utf16 = feff%s,\n" % title.encode("utf-16-be").hex()
    assert line.encode("ascii") in out and out.index(line.encode()) > out.index(b"signature")
    assert parse_include(out.decode("ascii")).title == title
    assert parse_include(render(GOOD).decode("ascii")).title is None


@pytest.mark.parametrize("title", ["Another paper's title", "", "x" * 1001, 42, "\ud800"])
def test_a_title_that_is_not_the_records_is_refused(title):
    with pytest.raises(IncludeRefused):
        render(GOOD._replace(title=title))


def test_a_hand_made_title_line_is_not_trusted():
    text = render(GOOD._replace(title=V["title"])).decode("ascii")
    for bad in ("feff0046006c", "FEFF" + text.split("title-utf16 = feff")[1][:8]):
        edited = re.sub(r"title-utf16 = [^,]*,", "title-utf16 = %s," % bad, text)
        with pytest.raises(CouldNotCheck):
            parse_include(edited)
