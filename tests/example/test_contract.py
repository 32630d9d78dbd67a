"""The include format is the contract between pith-tex and pith.sty, and the README shows
it. The LaTeX tests compile the README's example include; this test checks that pith-tex
writes exactly that example for the example paper's record, so the two halves cannot drift.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from contract import readme_include

ROOT = Path(__file__).resolve().parents[2]


def test_readme_example_is_what_fetch_writes(tmp_path: Path) -> None:
    out = tmp_path / "pith-number.tex"
    subprocess.run(
        [sys.executable, "-m", "pith_tex", "fetch", "O6TNNA4XHFGPSALGBT7UWDA2Z3",
         "--offline", "--resolver", str(ROOT / "examples" / "mirror"), "-o", str(out)],
        check=True, capture_output=True, cwd=tmp_path,
        # A bare environment, but the pith_tex under test (PYTHONPATH) kept.
        env={"PITH_TEX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
             **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}},
    )
    assert out.read_text(encoding="ascii") == readme_include()


# --- Whatever a response contains, what pith-tex writes compiles ---------------------------
#
# Records are generated with hypothesis: identifiers that go into the include are drawn
# both from their patterns and from arbitrary text, and every untrusted field (title,
# authors) is arbitrary text full of TeX specials; so, in the hostile half, are the record
# fields that format 2 carries (licence, categories). The number is
# derived from each record with the spec's recipe, so the record is genuine for it; pith-tex
# must then either refuse it (exit 3, nothing written) or write an include that is pure
# ASCII, carries none of the untrusted text, and compiles with pith.sty into a PDF whose
# metadata carries that number.

from datetime import datetime

import recorded
import texbuild
from hypothesis import HealthCheck, event, given, settings, strategies as st
from pypdf import PdfReader

TEX_SPECIALS = st.text(alphabet=st.sampled_from(list("\\{}%#$&~^_ \n\tx\u00e9\u2603")), max_size=30)
ANY_TEXT = st.one_of(st.text(max_size=40), TEX_SPECIALS)


@st.composite
def genuine_vectors(draw: st.DrawFn) -> dict:
    # Half the records have well-formed identifiers (so the include gets written and
    # compiled), half may carry arbitrary text in them (so it must be refused).
    hostile = draw(st.booleans())

    def field(valid: st.SearchStrategy) -> object:
        return draw(st.one_of(valid, ANY_TEXT) if hostile else valid)

    arxiv_id = field(st.one_of(
        st.from_regex(r"[0-9]{4}\.[0-9]{4,5}", fullmatch=True),
        st.from_regex(r"[a-z-]{1,12}(\.[A-Z]{2})?/[0-9]{7}", fullmatch=True),
    ))
    version = field(st.integers(1, 9999))
    when = field(st.datetimes(min_value=datetime(1991, 1, 1))
                 .map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")))
    category = st.from_regex(r"[a-z-]{1,20}(\.[A-Za-z-]{1,20})?", fullmatch=True)
    record = {
        "metadata": {
            "abstract_canon_sha256": draw(st.from_regex(r"[0-9a-f]{64}", fullmatch=True)),
            "cross_cats_sorted": [field(category) for _ in range(draw(st.integers(0, 3)))],
            "license": field(st.from_regex(r"(https?://[A-Za-z0-9./_-]{1,200})?",
                                           fullmatch=True)),
            "primary_cat": field(category),
            "submitted_at": when,
            "title_canon_sha256": draw(st.from_regex(r"[0-9a-f]{64}", fullmatch=True)),
        },
        "schema_version": "1.0",
        "source": {"id": arxiv_id, "kind": "arxiv", "version": version},
    }
    year = int(when[:4]) if when[:4].isdigit() else 2025
    return {
        "number": recorded.number_of(record),
        "year": year,
        "canonical_hash": recorded.sha256_hex(record),
        "canonical_record": record,
        "title": draw(ANY_TEXT),
    }


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(vector=genuine_vectors())
def test_any_include_pith_tex_writes_compiles(tmp_path_factory: pytest.TempPathFactory,
                                              vector: dict) -> None:
    texbuild.tool("pdflatex")  # a missing pdflatex is an error, not a skip
    work = tmp_path_factory.mktemp("prop")
    doc = recorded.resolver_json(vector)
    doc["paper"]["authors_text"] = vector["title"]
    mirror = recorded.write_mirror(str(work / "mirror"), [vector], bundles=False)
    os.makedirs(os.path.join(mirror, "pith", vector["number"]), exist_ok=True)
    with open(os.path.join(mirror, "pith", vector["number"] + ".json"), "wb") as f:
        f.write(recorded.encode(doc))
    paper = work / "paper"
    paper.mkdir()
    fetched = subprocess.run(
        [sys.executable, "-m", "pith_tex", "fetch", vector["number"], "--offline",
         "--resolver", mirror],
        capture_output=True, text=True, cwd=paper,
        env={**os.environ, "PITH_TEX_CACHE_DIR": str(work / "cache")},
    )
    include = paper / "pith-number.tex"
    event("refused" if fetched.returncode else "written and compiled")
    if fetched.returncode != 0:
        assert fetched.returncode == 3, fetched.stderr
        assert not include.exists()
        return
    data = include.read_bytes()
    assert data.isascii()
    untrusted = vector["title"]
    # Hex digits and 0/1 runs are what digests and QR modules are made of: a title of only
    # those ("0000") is found there by chance, not because it leaked.
    # Nor is a word of the format itself ("title", "signature").
    if len(untrusted.strip()) > 3 and not set(untrusted) <= set("0123456789abcdef \n\t") \
            and untrusted not in readme_include():
        assert untrusted.encode("utf-8", "replace") not in data
    built = texbuild.compile_tex(
        paper, "\\documentclass{article}\\usepackage{pith}\\begin{document}\\pithbadge\\end{document}\n",
        max_runs=1)
    assert built.ok, built.describe()
    info = PdfReader(built.pdf).metadata
    assert info["/PithNumber"] == "pith:%s:%s" % (
        vector["canonical_record"]["metadata"]["submitted_at"][:4], vector["number"])
    # The record travelled through the include and pith.sty into the PDF byte for byte.
    assert info["/PithRecord"].encode("ascii") == recorded.canonical_bytes(
        vector["canonical_record"])
