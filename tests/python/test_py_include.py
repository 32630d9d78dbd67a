"""The include: README contract byte for byte, refusal of anything unvalidated, atomic
writes, parse back."""

from __future__ import annotations

import errno
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import recorded
from contract import readme_include
from pith_tex.errors import CouldNotCheck
from pith_tex.include import (IncludeData, IncludeRefused, IncludeWriteError, parse_include,
                              render, write_include)

README_EXAMPLE = readme_include().encode("ascii")

GOOD = IncludeData("O6TNNA4XHFGPSALGBT7UWDA2Z3", 2025,
                   "77a6d68397394cf901660cff4b0c1acee4353488d83c25f073b40c97fa194f23",
                   "2509.03047", 1, "absent", None)
SIGNED = GOOD._replace(signature="verified", key_id="pith-v1-2026-05")

# An independent statement of the contract (README table), not the module's own regex.
STRICT = re.compile(
    rb"% pith-number\.tex: written by `pith-tex fetch` after verifying the record\.\n"
    rb"% Do not edit: run `pith-tex fetch` again instead\.\n"
    rb"\\pithrecord\{1\}\{\n"
    rb"  number = [A-Z2-7]{26},\n"
    rb"  year = [0-9]{4},\n"
    rb"  sha256 = [0-9a-f]{64},\n"
    rb"  arxiv-id = ([0-9]{4}\.[0-9]{4,5}|[a-z-]+(\.[A-Z]{2})?/[0-9]{7}),\n"
    rb"  arxiv-version = [1-9][0-9]{0,3},\n"
    rb"  signature = (absent|verified,\n  key-id = [a-z0-9-]{1,64}),\n"
    rb"\}\n\Z")


def test_readme_example_byte_for_byte():
    assert render(GOOD) == README_EXAMPLE


def test_signed_form():
    out = render(SIGNED)
    assert out.endswith(b"  signature = verified,\n  key-id = pith-v1-2026-05,\n}\n")
    assert STRICT.match(out)


@pytest.mark.parametrize("v", recorded.vectors_with_record(), ids=lambda v: v["number"])
def test_every_vector_renders_and_parses_back(v):
    data = IncludeData(v["number"], v["year"], v["canonical_hash"], v["arxiv_id"],
                       v["version"], "absent")
    out = render(data)
    assert STRICT.match(out) and out.isascii()
    assert parse_include(out.decode("ascii")) == data
    signed = data._replace(signature="verified", key_id="pith-v1-2026-05")
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
    ("arxiv_id", "2509.03047}\\input{evil}"),
    ("arxiv_id", "Fra\\\"{\\i}ss\\'{e}"),
    ("arxiv_id", "2509.03047\n"),
    ("arxiv_id", "2509.030"),
    ("arxiv_id", "math/970720"),
    ("arxiv_version", 0),
    ("arxiv_version", 10000),
    ("arxiv_version", "1"),
    ("signature", "maybe"),
    ("key_id", "x"),  # key-id with signature = absent
])
def test_bad_values_are_refused(field, value):
    with pytest.raises(IncludeRefused):
        render(GOOD._replace(**{field: value}))


@pytest.mark.parametrize("key_id", [None, "", "Pith-V1", "a" * 65, "k%y", "k y", "k\u00e9"])
def test_bad_key_ids_refused(key_id):
    with pytest.raises(IncludeRefused):
        render(SIGNED._replace(key_id=key_id))


tex_specials = st.sampled_from(list("\\{}%#$&~^_\n\r\t ,=") + ["\\input{x}", "\u00ef",
                                                               "\u2028", "\x00"])
tex_text = st.lists(st.one_of(tex_specials, st.characters()), max_size=20).map("".join)
near_valid = st.tuples(st.sampled_from([GOOD.number, "2025", GOOD.sha256, "2509.03047", "1",
                                        "pith-v1-2026-05", "verified", "absent"]),
                       tex_text).map(lambda t: t[0] + t[1])
hostile = st.one_of(st.text(), tex_text, near_valid, st.integers(), st.none(), st.booleans(),
                    st.floats())


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(IncludeData._fields), value=hostile)
def test_whatever_a_response_contains_is_refused_or_strict_ascii(tmp_path, field, value):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(b"previous\n")
    data = GOOD._replace(**{field: value})
    try:
        written = write_include(str(target), data)
    except IncludeRefused:
        assert target.read_bytes() == b"previous\n"
    else:
        out = target.read_bytes()
        assert written
        assert out.isascii() and STRICT.match(out)
        assert render(data) == out
    assert sorted(os.listdir(tmp_path)) == ["pith-number.tex"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=26, max_size=26),
       st.integers(1000, 9999), st.binary(min_size=32, max_size=32),
       st.from_regex(r"\A([0-9]{4}\.[0-9]{4,5}|[a-z-]{1,10}(\.[A-Z]{2})?/[0-9]{7})\Z"),
       st.integers(1, 9999))
def test_valid_values_always_render(number, year, digest, arxiv_id, version):
    data = IncludeData(number, year, digest.hex(), arxiv_id, version, "absent")
    out = render(data)
    assert STRICT.match(out)
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


def test_real_failure_target_is_a_directory(tmp_path):
    # A real failing filesystem situation: os.replace onto a non-empty directory.
    target = tmp_path / "pith-number.tex"
    target.mkdir()
    (target / "keep").write_bytes(b"x")
    with pytest.raises(IncludeWriteError):
        write_include(str(target), GOOD)
    assert (target / "keep").read_bytes() == b"x"
    assert sorted(os.listdir(tmp_path)) == ["pith-number.tex"]


def test_real_failure_missing_directory(tmp_path):
    with pytest.raises(IncludeWriteError):
        write_include(str(tmp_path / "nope" / "pith-number.tex"), GOOD)


def test_mode_of_existing_file_is_kept(tmp_path):
    target = tmp_path / "pith-number.tex"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    write_include(str(target), GOOD)
    assert os.stat(target).st_mode & 0o777 == 0o640


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("year = 2025", "year =  2025"), "year"),
    (lambda t: t.replace("\n", "\r\n"), "line"),
    (lambda t: t.replace("{1}", "{2}"), "format '2' is unknown"),
    (lambda t: t.replace("  signature = absent,\n", ""), "no signature key"),
    (lambda t: t.replace("2509.03047", "25O9.03047"), "arxiv-id"),
    (lambda t: t.replace("\\pithrecord", "\\pithnumber"), "no \\pithrecord"),
    (lambda t: t.replace("}\n", ""), "never closed"),
    (lambda t: t.replace("year = 2025,", "year = 2025"), "line 5"),
    (lambda t: t.replace("% Do not edit", "% Please edit"), "byte-for-byte"),
    (lambda t: t + "\\input{evil}\n", "byte-for-byte"),
])
def test_parse_rejects_anything_not_written_by_us(edit, message):
    text = edit(README_EXAMPLE.decode())
    with pytest.raises(CouldNotCheck) as e:
        parse_include(text)
    assert message in e.value.message
