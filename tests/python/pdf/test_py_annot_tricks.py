"""Annotations one reader's engine draws and the others do not (issue 27, "every reader's
view"; tests/support/annot_tricks.py).  ``pith-tex verify`` must not say verified (exit 1
or 3) when Firefox (pdf.js) shows another number than PDFium and poppler; each test shows
with the three engines what a reader sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import annot_tricks as A
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
