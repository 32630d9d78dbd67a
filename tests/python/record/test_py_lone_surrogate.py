"""A lone surrogate (``"\\ud800"``: no UTF-8 text can carry it, so no canonical JSON, title
hash or TeX include) in a record, a resolver's answer or a PDF's Pith keys: a clear error
(exit 3), never "internal error".  Through the command line, in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Tuple

import pytest

import hostile_pdfs as H
import recorded
from pdfclaims import tampered

V = recorded.vectors_with_record()[0]
N = V["number"]
LONE = "not valid JSON (a lone surrogate escape: \\uD800-\\uDFFF not in a pair)"


def pith_tex(*args: Any, cwd: Path) -> Tuple[int, str]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", *map(str, args)], cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    return r.returncode, r.stdout + r.stderr


def _resolver_doc() -> bytes:
    v = dict(V, title="Flash\ud800Recovery")
    return json.dumps(recorded.resolver_json(v), indent=2).encode("ascii")  # \ud800 escaped


def test_fetch_of_a_record_whose_title_holds_a_lone_surrogate(tmp_path):
    (tmp_path / "mirror" / "pith").mkdir(parents=True)
    (tmp_path / "mirror" / "pith" / (N + ".json")).write_bytes(_resolver_doc())
    code, out = pith_tex("fetch", N, "--offline", "--resolver", tmp_path / "mirror",
                         cwd=tmp_path)
    assert code == 3, out
    assert "body is not valid JSON (a lone surrogate escape" in out, out
    assert not (tmp_path / "pith-number.tex").exists()


def test_verify_of_a_saved_record_with_a_lone_surrogate(tmp_path):
    (tmp_path / "rec.json").write_bytes(_resolver_doc())
    code, out = pith_tex("verify", "rec.json", cwd=tmp_path)
    assert code == 3 and LONE in out, out


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    return H.paper(tmp_path_factory.mktemp("honest"), V)


def test_a_pith_record_with_a_lone_surrogate_in_a_pdf(honest, tmp_path):
    from pypdf.generic import NameObject, TextStringObject

    def edit(w: Any) -> None:
        info = w._info.get_object()
        raw = str(info["/PithRecord"])
        info[NameObject("/PithRecord")] = TextStringObject(
            raw.replace('"schema_version"', '"x":"\\ud800","schema_version"'))

    tampered(honest, tmp_path / "rec.pdf", edit)
    code, out = pith_tex("verify", "rec.pdf", cwd=tmp_path)
    assert code == 3, out
    assert "PithRecord is not JSON (a lone surrogate escape" in out, out


def test_a_pith_title_with_a_lone_surrogate_in_a_pdf(honest, tmp_path):
    from pypdf.generic import ByteStringObject, NameObject

    def edit(w: Any) -> None:  # UTF-16BE with a high surrogate and no low one after it
        w._info.get_object()[NameObject("/PithTitle")] = ByteStringObject(
            b"\xfe\xff\xd8\x00\x00A")

    tampered(honest, tmp_path / "title.pdf", edit)
    code, out = pith_tex("verify", "title.pdf", cwd=tmp_path)
    assert code == 3 and "PithTitle is not a text string" in out, out


def test_an_include_whose_title_holds_a_lone_surrogate(tmp_path):
    from pith_tex.include.include import IncludeData, render

    include = render(IncludeData(N, V["year"], V["canonical_hash"], V["canonical_record"],
                                 "absent", title=V["title"])).decode("ascii")
    assert "title-utf16 = feff0046" in include
    (tmp_path / "pith-number.tex").write_text(
        include.replace("title-utf16 = feff0046", "title-utf16 = feffd800"))
    code, out = pith_tex("verify", "pith-number.tex", cwd=tmp_path)
    assert code == 3 and "title-utf16" in out, out
