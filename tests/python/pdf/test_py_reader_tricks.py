"""What one reader's engine draws and the others do not (issue 27, "every reader's
view"; tests/support/reader_tricks.py).  ``pith-tex verify`` must not say verified (exit 1
or 3) when Firefox (pdf.js) shows another number than PDFium and poppler; each test shows
with the three engines what a reader sees."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import reader_tricks as A
import glyph_lies as G
import hostile_pdfs as H
from test_py_glyph_lies import (CLAIMED, SWAPPED, V, _apart, badge_status, pdfium_dark,
                                pdfium_text, pdfjs_dark, poppler_dark, poppler_text, verify)

pytestmark = pytest.mark.hostile


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    return H.paper(tmp_path_factory.mktemp("annots") / "honest", V, options="")


def test_an_appearance_with_an_empty_box_is_refused(honest, tmp_path):
    pdf = A.empty_box_cover(honest, tmp_path / "empty-box.pdf", tmp_path)
    # PDFium and poppler extract and paint the claimed number; pdf.js (Firefox) paints
    # the swapped one, from the annotation they leave out
    for text in (pdfium_text(pdf), poppler_text(pdf)):
        assert CLAIMED in text and SWAPPED not in text
    swapped = G.painted_swapped(honest, tmp_path / "swapped.pdf")
    box = G.badge_box_pdf(honest, CLAIMED)
    for dark, shows in ((pdfium_dark, honest), (poppler_dark, honest), (pdfjs_dark, swapped)):
        seen, want = dark(pdf, box), dark(shows, box)
        other = dark(swapped if shows is honest else honest, box)
        assert len(seen) > 100
        assert _apart(seen, want) * 3 < _apart(seen, other), dark.__name__
    code, doc = verify(pdf)  # exit 0 before: verified
    assert code == 3, json.dumps(doc, indent=1)[:3000]
    line = next(c for c in doc["files"][0]["checks"] if c["name"] == "print")
    assert line["status"] == "error" and "empty" in line["detail"], line
    assert badge_status(doc) == "ok"  # PDFium and poppler do show the number


def pdfjs_gstates(pdf: Path) -> list:
    """The graphics states pdf.js sets drawing page 1 (tests/pdfjs/gstates.mjs)."""
    import pdfjs

    assert not pdfjs.missing(), pdfjs.missing()
    p = subprocess.run(["node", str(pdfjs.HERE / "gstates.mjs"), str(pdf)], capture_output=True,
                       text=True, timeout=120, cwd=pdfjs.HERE)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)["gstates"]


def test_a_transfer_function_read_two_ways_is_refused(honest, tmp_path):
    pdf = A.transfer_two_ways(honest, tmp_path / "transfer.pdf")
    # PDFium and poppler apply /TR2 (the identity): the claimed number, as in the honest
    # paper; pdf.js applies /TR, a map of every grey to white (Firefox draws it through an
    # SVG filter; its canvas under node has none, so the map is read from its operators)
    box = G.badge_box_pdf(honest, CLAIMED)
    for dark in (pdfium_dark, poppler_dark):
        assert _apart(dark(pdf, box), dark(honest, box)) < 20, dark.__name__
    assert pdfjs_gstates(honest) == []
    assert pdfjs_gstates(pdf) == [["TR", [[255, 255]]]]
    code, doc = verify(pdf)  # exit 0 before: verified
    assert code == 3, json.dumps(doc, indent=1)[:3000]
    line = next(c for c in doc["files"][0]["checks"] if c["name"] == "structure")
    assert line["status"] == "error" and "/TR2" in line["detail"], line


@pytest.mark.parametrize("symbolic", [True, False], ids=["symbolic", "not-symbolic"])
def test_a_font_with_two_character_maps_is_refused(honest, tmp_path, symbolic):
    pdf = A.symbol_map_font(honest, tmp_path / "two-maps.pdf", symbolic=symbolic)
    for text in (pdfium_text(pdf), poppler_text(pdf)):
        assert CLAIMED in text and SWAPPED not in text
    # the same font, both maps its own: the claimed number's and the swapped number's
    # honest paintings
    claimed = A.symbol_map_font(honest, tmp_path / "claimed.pdf", lie=False, symbolic=symbolic)
    swapped = A.symbol_map_font(G.painted_swapped(honest, tmp_path / "swapped-src.pdf"),
                                tmp_path / "swapped.pdf", lie=False, symbolic=symbolic)
    box = G.badge_box_pdf(pdf, CLAIMED)
    for dark, shows in ((pdfium_dark, claimed), (poppler_dark, claimed), (pdfjs_dark, swapped)):
        seen, want = dark(pdf, box), dark(shows, box)
        other = dark(swapped if shows is claimed else claimed, box)
        assert len(seen) > 100
        assert _apart(seen, want) * 3 < _apart(seen, other), dark.__name__
    code, doc = verify(pdf)  # exit 0 before: verified (the badge only partly linked)
    assert code == 3, json.dumps(doc, indent=1)[:3000]
    line = next(c for c in doc["files"][0]["checks"] if c["name"] == "structure")
    assert line["status"] == "error" and "Symbol map" in line["detail"], line
