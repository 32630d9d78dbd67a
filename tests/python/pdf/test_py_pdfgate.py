"""The structural gate (pith_tex.pdf.structure): each refusal is met by the construct it names,
in small PDFs written byte by byte, and honest papers from every TeX route pass it."""

from __future__ import annotations

import zlib
from typing import Dict, List

import pytest
from hypothesis import given, settings, strategies as st

import hostile_pdfs as H
import recorded
from pith_tex.pdf import structure as pdfgate
from pith_tex.pdf.structure import refusals

V = recorded.vectors_with_record()[0]


def one(found: List[str], *words: str) -> str:
    """The one refusal in *found*, which holds every word of *words*."""
    assert len(found) == 1, found
    assert all(w in found[0] for w in words), found
    return found[0]


# -- honest papers pass -------------------------------------------------------------------

@pytest.mark.parametrize("route", ["pdflatex", "dvips", "xelatex", "lualatex"])
def test_honest_papers_pass(tmp_path, route):
    pdf = H.paper(tmp_path / route, V, route=route)
    assert refusals(pdf.read_bytes()) == []


_CLASSES = {
    "acmart-sigconf": ("\\documentclass[sigconf]{acmart}", "\\title{T}\\author{A}", ""),
    "acmart-acmsmall": ("\\documentclass[acmsmall]{acmart}", "\\title{T}\\author{A}", ""),
    # revtex reads its front matter after \begin{document}
    "revtex": ("\\documentclass[aps,prl]{revtex4-2}", "",
               "\\title{T}\\author{A}\\affiliation{X}"),
    "IEEEtran": ("\\documentclass[conference]{IEEEtran}", "\\title{T}\\author{A}", ""),
    "beamer": ("\\documentclass{beamer}", "\\title{T}\\author{A}", ""),
}


@pytest.mark.parametrize("name", sorted(_CLASSES))
def test_honest_papers_of_other_classes_pass(tmp_path, name):
    import texbuild

    cls, before, after = _CLASSES[name]
    body = ("\\begin{frame}\\maketitle\\end{frame}" if name == "beamer"
            else "\\maketitle\nSome text.")
    src = ("%s\n\\usepackage[qr]{pith}\n\\pithnumber{%s}\n%s\n\\begin{document}%s%s\n"
           "\\end{document}\n" % (cls, V["number"], before, after, body))
    b = texbuild.compile_tex(tmp_path / name, src, "pdflatex", include=H.include_of(V))
    assert b.ok, b.describe()
    assert refusals(b.pdf.read_bytes()) == []


def test_a_paper_in_bitmap_fonts_passes(tmp_path):
    # dvips with no outline font map: PK bitmap fonts, which Ghostscript turns into Type 3
    # fonts whose glyphs are CCITT-compressed inline image masks
    import texbuild

    src = H.source(V["number"]).replace("\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n",
                                        "")
    b = texbuild.compile_tex(tmp_path / "pk", src, "pdflatex", include=H.include_of(V))
    assert b.ok, b.describe()
    (tmp_path / "pk" / "empty.map").write_text("")
    for cmd in (["latex", "-interaction=nonstopmode", "main.tex"],
                ["dvips", "-q", "-u", "empty.map", "-o", "main.ps", "main.dvi"],
                ["ps2pdf", "main.ps", "main.pdf"]):
        r = texbuild._run([texbuild.tool(cmd[0])] + cmd[1:], tmp_path / "pk")
        assert r.returncode == 0, r.stdout[-2000:]
    from pypdf import PdfReader

    fonts = PdfReader(str(b.pdf)).pages[0]["/Resources"]["/Font"].values()
    assert any(f.get_object()["/Subtype"] == "/Type3" for f in fonts)
    assert b"/CCF" in b"".join(p.get_object().get_data() for f in fonts
                               for p in f.get_object().get("/CharProcs", {}).values())
    assert refusals(b.pdf.read_bytes()) == []


def test_a_paper_with_an_inline_image_from_ghostscript_passes(tmp_path):
    # ps2pdf writes small images inline (Flate-compressed): the honest case of BI/ID/EI
    src = ("\\documentclass{article}\\usepackage[qr]{pith}\\pithnumber{%s}\n"
           "\\begin{document}\\title{T}\\author{A}\\date{}\\maketitle\n"
           "\\special{\" 0 0 moveto 8 8 scale 8 8 8 [8 0 0 -8 0 8] "
           "{<00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff>} image}\n"
           "\\end{document}\n" % V["number"])
    import texbuild

    b = texbuild.compile_tex(tmp_path / "gs", src, "dvips", include=H.include_of(V))
    assert b.ok, b.describe()
    assert b" ID " in H.content(b.pdf) or b"\nID" in H.content(b.pdf), H.content(b.pdf)[:400]
    assert refusals(b.pdf.read_bytes()) == []


def test_a_plain_one_page_pdf_passes():
    assert refusals(H.one_page([b"BT /F1 10 Tf 72 700 Td (hello) Tj ET\n"])) == []


# -- content arrays ------------------------------------------------------------------------

@pytest.mark.parametrize("first, second, words", [
    (b"q 0 g %", b" BT (x) Tj ET Q", ["stream 1 of 2", "inside a comment"]),
    (b"BT /F1 10 Tf (pith:20", b"25) Tj ET", ["inside a string"]),
    (b"BT /F1 10 Tf <7069", b"7468> Tj ET", ["inside a hex string"]),
    (b"BT (x) Tj", b"0 g ET", ["inside a token"]),
    (b"BT (x) T", b"j ET", ["inside a token"]),
    (b"q 0 0 1 1 re", b"f Q", ["inside a token"]),
    (b"q BI /W 8 /H 1 /BPC 8 /CS /G ID 1234", b"5678 EI Q", ["inside an inline image"]),
])
def test_a_content_array_split_inside_something_is_refused(first, second, words):
    one(refusals(H.one_page([first, second])), "page 1's content", *words)


@pytest.mark.parametrize("first, second", [
    (b"q 0 g\n", b"BT (x) Tj ET Q"),
    (b"BT (x) Tj ", b"0 g ET"),
    (b"BT (x)", b"Tj ET"),  # a delimiter ends the token in every reading
    (b"q 0 0 1 1 re f Q % a comment that ends\n", b"q Q"),
    (b"BT [(a)(b)]", b"TJ ET"),
])
def test_a_content_array_split_between_tokens_passes(first, second):
    assert refusals(H.one_page([first, second])) == []


# -- inline images -------------------------------------------------------------------------

def image(entries: bytes, data: bytes, after: bytes = b"\nEI Q") -> bytes:
    return b"q 10 0 0 10 0 0 cm BI " + entries + b" ID " + data + after


@pytest.mark.parametrize("entries, data", [
    (b"/W 8 /H 2 /BPC 8 /CS /G", b"0123456789abcdef"),
    (b"/IM true /W 16 /H 2", b"\x00\xff\x00\xff"),
    (b"/W 3 /H 1 /BPC 1 /CS /RGB", b"\x12\x34"),  # 9 bits: 2 bytes
    (b"/W 2 /H 1 /BPC 8 /CS [/I /RGB 1 <ff0000 00ff00>]", b"\x00\x01"),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /AHx", b"00ff 00ff>"),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /A85", b"!!*-'~>"),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /Fl", zlib.compress(b"\x00\xff\x00\xff")),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F [/Fl]", zlib.compress(b"\x00\xff\x00\xff")),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /RL", b"\x03\x00\xff\x00\xff\x80"),
    # PDF 32000-1's LZW example ("-----A---B"), a JPEG's markers, CCITT data (Ghostscript's
    # bitmap glyphs: its end is the EI that follows)
    (b"/W 10 /H 1 /BPC 8 /CS /G /F /LZW", b"\x80\x0b\x60\x50\x22\x0c\x0c\x85\x01"),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /DCT", b"\xff\xd8\xff\xd9"),
    (b"/IM true /W 27 /H 36 /BPC 1 /F /CCF /DP << /K -1 /Columns 27 >>",
     b"&\xa0\xe7\xca\x9f"),
])
def test_an_inline_image_that_ends_one_way_passes(entries, data):
    assert refusals(H.one_page([image(entries, data) + b"\nBT (x) Tj ET"])) == []


@pytest.mark.parametrize("entries, data, words", [
    # an EI inside the data: pypdf and pdf.js end the image there
    (b"/IM true /W 8 /H 12", b"\xff EI BT (a) Tj ET q", ["holds 'EI' inside its data"]),
    (b"/W 16 /H 1 /BPC 8 /CS /G", b"0123EI\n89abcdef", ["holds 'EI'"]),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /A85", b"EI !!*-'~>", ["holds 'EI'"]),
    # no EI where the size ends it
    (b"/W 4 /H 1 /BPC 8 /CS /G", b"\x01\x02\x03\x04\x05\x06", ["not followed by EI"]),
    (b"/W 2 /H 1 /BPC 8 /CS /RGB", b"\x01" * 9, ["not followed by EI"]),
    # an end only a decoder finds, or none
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /DCT", b"\xff\xd8 EI \xff\xd9", ["holds 'EI'"]),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /DCT", b"\xff\xd8\x00", ["JPEG data does not end"]),
    (b"/W 10 /H 1 /BPC 8 /CS /G /F /LZW", b"\x80\x0b\x60\x50\x22\x0c\x0c\x85\x01\x01",
     ["not followed by EI"]),
    (b"/IM true /W 8 /H 12 /F /CCF", b"\x26\xa0 EI BT (a) Tj ET q", ["CCITT", "two EI"]),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /JBIG2", b"\x00", ["JBIG2"]),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /Fl", zlib.compress(b"\x00\xff\x00\xff")[:-3],
     ["Flate data does not end"]),
    (b"/W 4 /H 1 /BPC 8 /CS /G /F /AHx", b"00ff 00ff", ["hex data does not end"]),
    (b"/W 4 /H 1 /BPC 8 /CS /Sep", b"\x00\x00\x00\x00", ["/Sep"]),
    (b"/W 4 /BPC 8 /CS /G", b"\x00\x00\x00\x00", ["size"]),
])
def test_an_inline_image_with_an_ambiguous_end_is_refused(entries, data, words):
    one(refusals(H.one_page([image(entries, data)])), "inline image", *words)


@pytest.mark.parametrize("cs, data", [
    (b"/Cs1", b"\x01\x02\x03\x04\x05\x06"),  # /DeviceRGB: 2 x 3 bytes
    (b"/Cs2", b"\x01\x00"),  # [/Indexed ...]: 2 x 1 byte
    (b"/Cs3", b"\x01\x02\x03\x04"),  # [/DeviceN [/A /B] ...]: 2 x 2 bytes
])
def test_an_inline_image_in_a_colour_space_of_the_resources(cs, data):
    res = (b"<< /ColorSpace << /Cs1 /DeviceRGB /Cs2 [/Indexed /DeviceRGB 1 <ff000000ff00>] "
           b"/Cs3 [/DeviceN [/A /B] /DeviceGray 10 0 R] >> >>")
    page = image(b"/W 2 /H 1 /BPC 8 /CS " + cs, data)
    assert refusals(H.one_page([page], res)) == []
    # one byte more: the size (from the resources) ends it before the EI
    one(refusals(H.one_page([image(b"/W 2 /H 1 /BPC 8 /CS " + cs, data + b"\x07")], res)),
        "not followed by EI")


def test_an_inline_image_in_a_form_is_refused():
    form = H.stream(image(b"/IM true /W 8 /H 12", b"\xff EI BT (a) Tj ET q"),
                    b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] ")
    pdf = H.raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
           b"/Resources << /XObject << /Fm1 5 0 R >> >> >>",
        4: H.stream(b"q /Fm1 Do Q"),
        5: form,
    })
    one(refusals(pdf), "form /Fm1", "holds 'EI'")


def test_an_annotation_appearance_is_read():
    pdf = H.raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
           b"/Annots [<< /Type /Annot /Subtype /Square /Rect [0 0 9 9] /AP << /N 5 0 R >> >>] "
           b">>",
        4: H.stream(b"q Q"),
        5: H.stream(b"q 0 g 0 0 5 5 re f % ends in a comment", b"/Type /XObject /Subtype "
                    b"/Form /BBox [0 0 9 9] "),
    })
    one(refusals(pdf), "annotation", "inside a comment")


# -- the page tree --------------------------------------------------------------------------

def tree(nodes: Dict[int, bytes]) -> bytes:
    """A PDF whose catalog's /Pages is object 2; *nodes* are the tree's objects; every
    page (objects 20-29) draws nothing."""
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 9: H.stream(b"q Q")}
    objs.update(nodes)
    return H.raw_pdf(objs)


def page(num: int, parent: int) -> bytes:
    return (b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 200 200] /Contents 9 0 R >>"
            % parent)


def test_an_honest_tree_of_three_levels_passes():
    assert refusals(tree({
        2: b"<< /Type /Pages /Kids [3 0 R 4 0 R 22 0 R] /Count 4 >>",
        3: b"<< /Type /Pages /Kids [20 0 R] /Count 1 /Parent 2 0 R >>",
        4: b"<< /Type /Pages /Kids [5 0 R] /Count 2 /Parent 2 0 R >>",
        5: b"<< /Type /Pages /Kids [21 0 R 23 0 R] /Count 2 /Parent 4 0 R >>",
        20: page(20, 3), 21: page(21, 5), 23: page(23, 5), 22: page(22, 2),
    })) == []


def test_a_subtree_claiming_no_page_before_page_1_is_refused():
    found = refusals(tree({
        2: b"<< /Type /Pages /Kids [3 0 R 21 0 R] /Count 1 >>",
        3: b"<< /Type /Pages /Kids [20 0 R] /Count 0 /Parent 2 0 R >>",
        20: page(20, 3), 21: page(21, 2),
    }))
    assert any("holding page 1 claims /Count 0" in f and "pdf.js" in f for f in found), found
    assert any("object 3) claims /Count 0 but its kids hold 1 page" in f for f in found)
    assert any("object 2) claims /Count 1 but its kids hold 2 pages" in f for f in found)


@pytest.mark.parametrize("count", [b"3", b"0", b"(2)", b"2.0"])
def test_a_root_count_that_lies_is_refused(count):
    one(refusals(tree({
        2: b"<< /Type /Pages /Kids [20 0 R 21 0 R] /Count %s >>" % count,
        20: page(20, 2), 21: page(21, 2),
    })), "object 2", "but its kids hold 2 pages")


def test_a_node_both_page_and_tree_is_refused():
    found = refusals(tree({
        2: b"<< /Type /Pages /Kids [20 0 R 3 0 R] /Count 2 >>",
        3: b"<< /Type /Pages /Count 1 /Parent 2 0 R >>",
        20: page(20, 2),
    }))
    assert any("says /Type /Pages but has no /Kids" in f for f in found), found


def test_page_1_with_kids_is_refused():
    found = refusals(tree({
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Kids [20 0 R] /Count 1 /Parent 2 0 R /MediaBox [0 0 9 9] "
           b"/Contents 9 0 R >>",
        20: page(20, 3),
    }))
    assert any("page 1's page object has /Kids" in f for f in found), found


def test_past_the_node_cap_the_way_to_page_1_is_still_compared(monkeypatch):
    later_lie = {
        2: b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>",
        3: b"<< /Type /Pages /Kids [20 0 R] /Count 1 /Parent 2 0 R >>",
        4: b"<< /Type /Pages /Kids [21 0 R 22 0 R] /Count 5 /Parent 2 0 R >>",
        20: page(20, 3), 21: page(21, 4), 22: page(22, 4),
    }
    assert any("object 4) claims /Count 5" in f for f in refusals(tree(later_lie)))
    monkeypatch.setattr(pdfgate, "MAX_TREE_NODES", 3)
    assert refusals(tree(later_lie)) == []  # not reached: it does not choose page 1
    first_lie = dict(later_lie)
    first_lie[3] = b"<< /Type /Pages /Kids [20 0 R] /Count 0 /Parent 2 0 R >>"
    assert any("holding page 1 claims /Count 0" in f for f in refusals(tree(first_lie)))


def test_a_tree_loop_is_refused_and_ends():
    found = refusals(tree({
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>",
    }))
    assert any("loop" in f for f in found), found


# -- caps ----------------------------------------------------------------------------------

def forms(n: int) -> bytes:
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
               b"/Resources << /XObject << %s >> >> >>" % b" ".join(
                   b"/Fm%d %d 0 R" % (k, 10 + k) for k in range(n)),
            4: H.stream(b" ".join(b"/Fm%d Do" % k for k in range(n)))}
    for k in range(n):
        objs[10 + k] = H.stream(b"q 0 0 1 1 re f Q" + b" " * 1000,
                                b"/Type /XObject /Subtype /Form /BBox [0 0 9 9] ")
    return H.raw_pdf(objs)


def test_more_streams_than_the_cap_is_refused(monkeypatch):
    assert refusals(forms(6)) == []
    monkeypatch.setattr(pdfgate, "MAX_STREAMS", 5)
    one(refusals(forms(6)), "more than 5 content streams")


def test_more_bytes_than_the_cap_is_refused(monkeypatch):
    monkeypatch.setattr(pdfgate, "MAX_BYTES", 4000)
    one(refusals(forms(6)), "content streams hold more than")


def test_forms_nested_deeper_than_the_cap_are_refused(monkeypatch):
    depth = 6
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
               b"/Resources << /XObject << /Fm 10 0 R >> >> >>",
            4: H.stream(b"/Fm Do")}
    for k in range(depth):
        objs[10 + k] = H.stream(b"/Fm Do", b"/Type /XObject /Subtype /Form /BBox [0 0 9 9] "
                                b"/Resources << /XObject << /Fm %d 0 R >> >> " % (11 + k))
    objs[10 + depth] = H.stream(b"q Q", b"/Type /XObject /Subtype /Form /BBox [0 0 9 9] ")
    assert refusals(H.raw_pdf(objs)) == []
    monkeypatch.setattr(pdfgate, "MAX_DEPTH", 3)
    one(refusals(H.raw_pdf(objs)), "nested more than 3 deep")


def test_what_pypdf_cannot_open_is_left_to_the_caller():
    assert refusals(b"not a pdf") == []


_PIECES = [b"BI", b"ID", b"EI", b" ", b"\n", b"%", b"(", b")", b"\\", b"<", b">", b"<<",
           b">>", b"/W 8", b"/H 1", b"/IM true", b"/F /Fl", b"/F /AHx", b"0", b"Tj", b"[",
           b"]", b"\x00", b"\xff"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=40).map(b"".join),
                min_size=1, max_size=3))
def test_any_content_gives_a_list_never_an_exception(streams):
    found = refusals(H.one_page(streams))
    assert isinstance(found, list) and all(isinstance(f, str) for f in found)


# -- form draws ------------------------------------------------------------------------------

def fan_out(levels: int, draw: bytes = b"/Fm Do ", fanout: int = 8, own: bool = True) -> bytes:
    """Page 1 draws form 10 once; form 10+k draws form 11+k *fanout* times (each
    ``draw``), *levels* deep; with *own* False the forms have no resources of their own
    and read the name in the page's, where /Fm is form 10 (a form drawing itself)."""
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
               b"/Resources << /XObject << /Fm 10 0 R >> >> >>",
            4: H.stream(b"/Fm Do")}
    for k in range(levels):
        res = b"/Resources << /XObject << /Fm %d 0 R >> >> " % (11 + k) if own else b""
        objs[10 + k] = H.stream(draw * fanout, b"/Type /XObject /Subtype /Form "
                                b"/BBox [0 0 9 9] " + res)
    objs[10 + levels] = H.stream(b"0 0 1 1 re f", b"/Type /XObject /Subtype /Form "
                                 b"/BBox [0 0 9 9] ")
    return H.raw_pdf(objs)


@pytest.mark.parametrize("levels", [6, 12])
def test_a_form_fan_out_is_refused_by_its_draws(levels):
    # 8^6 draws: PDFium takes about 450 MB to render it, 8^7 3.4 GB, 8^12 never ends
    one(refusals(fan_out(levels)), "draws its forms more than %d times" % pdfgate.MAX_DRAWS)


def test_a_fan_out_within_the_budget_passes():
    assert refusals(fan_out(5)) == []  # 37,449 draws


@pytest.mark.parametrize("draw", [b"/F#6d Do ", b"/Fm %note\n Do ", b"/Fm\nDo\n"])
def test_every_spelling_of_a_draw_counts(draw):
    one(refusals(fan_out(6, draw)), "draws its forms")


def test_a_draw_inside_a_string_or_comment_does_not_count():
    for draw in (b"BT (/Fm Do) Tj ET ", b"% /Fm Do\n"):
        assert refusals(fan_out(12, draw)) == []


def test_a_form_drawing_itself_ends():
    # forms without resources read /Fm in the page's: form 10 draws itself, which the
    # engines stop at
    assert refusals(fan_out(3, own=False)) == []
