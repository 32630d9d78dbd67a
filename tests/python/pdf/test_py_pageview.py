"""pageview: page 1 as PDFium and poppler show it, on PDFs that TeX made.

The documents are compiled here (pdflatex, and the dvips route whose PDF Ghostscript
writes), so the engines read real TeX output; a QR code is drawn by the ``qrcode``
package's own matrix as TeX rules, so the decoded text is zxing-cpp's reading of pixels.
"""

from __future__ import annotations

import pytest
import qrcode

from pith_tex.pdf import pageview
from texbuild import compile_tex

DOC = r"""\documentclass{article}
\begin{document}
\begin{center}\LARGE A Title Set Large\end{center}
\vspace*{20pt}
\noindent body words in normal size. %s
\end{document}
"""


def _qr_rules(text: str, module: str = "1.6pt") -> str:
    q = qrcode.QRCode(border=4)
    q.add_data(text)
    q.make(fit=True)
    rows = []
    for row in q.get_matrix():
        cells = "".join(r"\rule{%s}{%s}" % (module, module) if dark else r"\hspace*{%s}" % module
                        for dark in row)
        rows.append(r"\hbox{%s}" % cells)
    return r"\par\vbox{\offinterlineskip %s}" % "".join(rows)


@pytest.fixture(scope="module", params=["pdflatex", "dvips"])
def pdf(request, tmp_path_factory) -> bytes:
    d = tmp_path_factory.mktemp("pageview-" + request.param)
    b = compile_tex(d, DOC % _qr_rules("HTTPS://EXAMPLE.ORG/QR"), route=request.param,
                    max_runs=1)
    assert b.ok, b.describe()
    return b.pdf.read_bytes()


def test_both_engines_read_words_sizes_and_codes(pdf):
    page = pageview.page_one(pdf)
    assert [v.engine for v in page.views] == ["pdfium", "poppler"]
    assert page.missing == ()
    for v in page.views:
        words = {w.text: w for w in v.words}
        assert {"A", "Title", "Set", "Large", "body", "words"} <= set(words), v.engine
        title, body = words["Title"], words["body"]
        # the large title sits above the body text and is read as the larger text
        assert title.box[3] < body.box[1], v.engine
        assert title.size > 1.4 * body.size, v.engine
        assert 0 < title.box[0] < title.box[2] < v.width, v.engine
        assert v.codes == ("HTTPS://EXAMPLE.ORG/QR",), v.engine
    # the two engines put the same word in the same place (top-left origin for both)
    a, b = ({w.text: w.box for w in v.words} for v in page.views)
    for k in ("Title", "body"):
        assert all(abs(x - y) < 3 for x, y in zip(a[k], b[k])), (k, a[k], b[k])


def test_missing_poppler_is_said(pdf, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no poppler tools
    page = pageview.page_one(pdf)
    assert [v.engine for v in page.views] == ["pdfium"]
    assert len(page.missing) == 1 and "poppler" in page.missing[0]
    assert "pdftotext" in page.missing[0]


@pytest.mark.parametrize("data", [b"", b"%PDF-1.4\n%%EOF\n", b"not a pdf at all"])
def test_unreadable_pdf_is_an_engine_failure(data):
    with pytest.raises(pageview.EngineFailed) as e:
        pageview.page_one(data)
    assert "PDFium" in str(e.value)


def test_poppler_failure_is_an_engine_failure(pdf):
    with pytest.raises(pageview.EngineFailed) as e:
        pageview.poppler_view(pdf[: len(pdf) // 3])
    assert "poppler" in str(e.value)


def _covered(pdf: bytes, box, grey: str) -> bytes:
    """*pdf* with a filled rectangle of *grey* drawn over *box* (the view's frame) after
    page 1's content."""
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    page = w.pages[0]
    top = float(page.cropbox[3])
    s = DecodedStreamObject()
    s.set_data(b"q\n" + page.get_contents().get_data() + b"\nQ\nq %s g %.2f %.2f %.2f %.2f re f Q\n"
               % (grey.encode(), box[0], top - box[3], box[2] - box[0], box[3] - box[1]))
    page[NameObject("/Contents")] = w._add_object(s)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


@pytest.mark.parametrize("grey, painted", [("1", False), ("0", False)],
                         ids=["white-box", "black-box"])
def test_ink_is_what_paints(pdf, grey, painted):
    """The title's characters paint (PDFium renders them with and without their text
    objects); a box drawn over them, white or black, leaves the two renderings alike."""
    import re

    v = pageview.pdfium_view(pdf, ink=re.compile("Title"))
    (ink,) = v.ink
    assert ink.text == "Title" and all(ink.painted), ink
    box = (min(b[0] for b in ink.boxes) - 1, min(b[1] for b in ink.boxes) - 1,
           max(b[2] for b in ink.boxes) + 1, max(b[3] for b in ink.boxes) + 1)
    (hidden,) = pageview.pdfium_view(_covered(pdf, box, grey), ink=re.compile("Title")).ink
    assert hidden.painted == (painted,) * 5, hidden


def test_sizes_are_what_a_reader_sees(pdf):
    """PDFium's font size is Tf times the character's matrix: Ghostscript (the dvips
    route) sets text at a small Tf scaled up, pdfTeX at its size; both read alike."""
    sizes = {w.text: w.size for w in pageview.pdfium_view(pdf).words}
    assert 9 < sizes["body"] < 11, sizes  # 10 pt body text
    assert 16 < sizes["Title"] < 19, sizes  # \LARGE: 17.28 pt


def test_a_page_in_bitmap_fonts_is_read(tmp_path):
    # A font with no Unicode mapping (a Type 3 bitmap font, as TeX makes for T1 text on a
    # machine without cm-super; here ecrm1000 taken out of the map, in case it has it)
    # gives pdftotext the glyph's code: "de\x1cnitions" (T1's fi) is not XML, and page 1
    # was "not readable" (check said it could not check the paper).
    b = compile_tex(tmp_path / "t3", "\\documentclass{article}\\usepackage[T1]{fontenc}"
                    "\\pdfmapline{-ecrm1000}\n"
                    "\\begin{document}\nPlain words and definitions.\n\\end{document}\n")
    assert b.pdf is not None and b.pdf.exists(), b.log[-2000:]
    view = pageview.poppler_view(b.pdf.read_bytes())
    texts = [w.text for w in view.words]
    assert "Plain" in texts and "words" in texts, texts
