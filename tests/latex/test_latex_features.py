"""Options, the include, errors, and placement, checked in the PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import texdocs as docs
import texrun
from texrun import NUM, URL

OTHER = "OZSQU6PZ6STJ7LG5TIDHTNXEHD"  # real: arXiv 0909.1015, year 2009

SIGNED_INCLUDE = texrun.SIGNED_INCLUDE

BLUE = b"0.08 0.27 0.52"  # the badge colour as the PDF operators write it


def page_stream(pdf: Path) -> bytes:
    import pypdf

    return pypdf.PdfReader(str(pdf)).pages[0].get_contents().get_data()


def build(tmp_path, route="pdflatex", **kw):
    include = kw.pop("include", None)
    include_name = kw.pop("include_name", "pith-number.tex")
    src = kw.pop("source", None) or docs.document(**kw)
    return texrun.compile_tex(tmp_path, src, route, include=include,
                              include_name=include_name)


# -- the include ---------------------------------------------------------

def test_no_include_warns_and_is_unverified(tmp_path):
    b = build(tmp_path)
    assert b.ok, b.describe()
    assert "Package pith Warning: No include 'pith-number.tex' found" in b.log
    assert "pith-tex fetch" in b.log
    assert texrun.info(b.pdf)["PithVerification"] == "unverified"
    for key in ("PithSHA256", "PithRecord", "PithKeyID", "PithSignature"):
        assert key not in texrun.info(b.pdf)
        assert key not in texrun.pdfinfo_custom(b.pdf)
    # The badge says so in a word: no include, nothing was checked.
    states = re.findall(r"\b(verified|checked|unverified)\b", texrun.text(b.pdf))
    assert states == ["unverified"], states


@pytest.mark.parametrize("route", texrun.ROUTES)
def test_signed_include(tmp_path, route):
    b = build(tmp_path, route, include=SIGNED_INCLUDE)
    assert b.ok, b.describe()
    info = texrun.info(b.pdf)
    assert info["PithVerification"] == "verified"
    assert info["PithNumber"] == f"pith:2025:{NUM}"
    text = texrun.text(b.pdf)
    assert f"pith:2025:{NUM}" in text
    states = re.findall(r"\b(verified|checked|unverified)\b", text)
    assert states == ["verified"], states
    assert "No include" not in b.log
    texrun.check_record(b.pdf, signed=True)


def test_unsigned_include_says_checked(tmp_path):
    # Recomputed from the arXiv record, but no signed receipt: "checked",
    # a word a reader understands, not "hash verified".
    b = build(tmp_path, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    states = re.findall(r"\b(verified|checked|unverified)\b", texrun.text(b.pdf))
    assert states == ["checked"], states
    assert texrun.info(b.pdf)["PithVerification"] == "verified-unsigned"
    texrun.check_record(b.pdf, signed=False)


def test_include_without_pithnumber_uses_its_number(tmp_path):
    b = build(tmp_path, number=None, include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithNumber"] == f"pith:2025:{NUM}"
    assert (URL) in [u for _, u in texrun.urls(b.pdf)]
    assert "Package pith Info: Using Pith Number" in b.log


def test_include_mismatch_is_an_error_naming_both(tmp_path):
    other = texrun.README_INCLUDE.replace(NUM, OTHER)
    b = build(tmp_path, include=other)
    assert not b.ok
    log = re.sub(r"\n\(pith\)\s+", " ", b.log)
    assert "Package pith Error: Include 'pith-number.tex' is for Pith Number" in log
    assert OTHER in log and NUM in log


def test_include_false_ignores_include(tmp_path):
    b = build(tmp_path, pith_options="include=false", include=texrun.README_INCLUDE)
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithVerification"] == "unverified"
    assert "No include" not in b.log


def test_include_named_by_option_and_pithsetup(tmp_path):
    b = build(tmp_path / "opt", pith_options="include=paper-pith.tex",
              include=SIGNED_INCLUDE, include_name="paper-pith.tex")
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithVerification"] == "verified"
    b = build(tmp_path / "setup", extra_preamble=r"\pithsetup{include=paper-pith.tex}",
              include=SIGNED_INCLUDE, include_name="paper-pith.tex")
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithVerification"] == "verified"


@pytest.mark.parametrize("bad,message", [
    ("format", "has format '1', which this pith.sty does not read"),
    ("key", "Unknown key 'title'"),
    ("value", "has the invalid value"),
])
def test_broken_include_is_an_error(tmp_path, bad, message):
    inc = texrun.README_INCLUDE
    if bad == "format":
        inc = inc.replace(r"\pithrecord{2}", r"\pithrecord{1}")
    elif bad == "key":
        inc = inc.replace("signature = absent,", "signature = absent,\n  title = X,")
    else:
        inc = inc.replace("year = 2025", "year = 25")
    b = build(tmp_path, include=inc)
    assert not b.ok
    assert message in re.sub(r"\n\(pith\)\s+", " ", b.log)


# -- bad numbers stop the build ------------------------------------------

@pytest.mark.parametrize("number,message", [
    (NUM[:25], "has 25 characters, not 26"),
    ("0" + NUM[1:], "contains '0'"),
    (NUM[:8], "is a short form (8 characters)"),
    (f"pith:{NUM[:16]}", "is a short form (16 characters)"),
])
def test_bad_number_is_an_error(tmp_path, number, message):
    b = build(tmp_path, number=number)
    assert not b.ok
    assert message in re.sub(r"\n\(pith\)\s+", " ", b.log)


def test_twice_same_ok_different_error(tmp_path):
    same = build(tmp_path / "same", extra_preamble=rf"\pithnumber{{pith:{NUM.lower()}}}")
    assert same.ok, same.describe()
    diff = build(tmp_path / "diff", extra_preamble=rf"\pithnumber{{{OTHER}}}")
    assert not diff.ok
    assert "used twice with different numbers" in diff.log


# -- options --------------------------------------------------------------

def test_colour_and_monochrome(tmp_path):
    colour = build(tmp_path / "c", mode="none")
    mono = build(tmp_path / "m", mode="none", pith_options="monochrome")
    assert colour.ok and mono.ok
    assert BLUE in page_stream(colour.pdf)
    assert BLUE not in page_stream(mono.pdf)
    assert f"pith:{NUM}" in texrun.text(mono.pdf)


@pytest.mark.parametrize("route", texrun.ROUTES)
def test_hide_writes_metadata_only(tmp_path, route):
    b = build(tmp_path, route, pith_options="hide", body=r"Text \pithbadge.")
    assert b.ok, b.describe()
    assert "pith:" not in texrun.text(b.pdf)
    assert not [u for _, u in texrun.urls(b.pdf) if "pith" in u]
    assert texrun.info(b.pdf)["PithURL"] == URL


def test_manual_placement(tmp_path):
    none = build(tmp_path / "none", pith_options="placement=manual")
    assert none.ok
    assert "pith:" not in texrun.text(none.pdf)
    assert texrun.info(none.pdf)["PithNumber"] == f"pith:{NUM}"
    here = build(tmp_path / "here", pith_options="placement=manual",
                 body=r"See \pithbadge{} for the record.")
    assert here.ok
    assert texrun.text(here.pdf).count(f"pith:{NUM}") == 1
    assert URL in [u for _, u in texrun.urls(here.pdf)]


@pytest.mark.parametrize("route", texrun.ROUTES)
@pytest.mark.parametrize("cls", ["article", "ieeetran", "beamer", "acmart"])
def test_corner_placement(tmp_path, cls, route):
    b = build(tmp_path, route, cls=cls, pith_options="placement=corner")
    assert b.ok, b.describe()
    words = [w for w in texrun.words(b.pdf) if "pith:" in w[0]]
    assert len(words) == 1, words  # only the stamp, not also after the title
    word, x0, y0, x1, y1 = words[0]
    assert NUM in word
    assert x0 >= texrun.ARXIV_STAMP_X
    assert y0 < 60, "the stamp sits in the top margin"
    pw = texrun.mediabox(b.pdf)[2]
    assert x1 <= pw, (x1, pw)
    for u, rect in texrun.link_annots(b.pdf):
        if "pith" in u:
            assert u == URL and min(rect[0], rect[2]) >= texrun.ARXIV_STAMP_X
    # Only page 1 carries it.
    if cls == "beamer":
        assert "pith:" not in texrun.text(b.pdf, 2)


def test_badge_once_and_without_title(tmp_path):
    b = build(tmp_path / "once")
    assert texrun.text(b.pdf).count(f"pith:{NUM}") == 1
    src = (r"\documentclass{article}\usepackage{pith}\usepackage{hyperref}"
           "\n" rf"\pithnumber{{{NUM}}}" "\n"
           r"\begin{document}No title here. \pithbadge\end{document}" "\n")
    b = build(tmp_path / "notitle", source=src)
    assert b.ok, b.describe()
    assert f"pith:{NUM}" in texrun.text(b.pdf)
    assert texrun.info(b.pdf)["PithURL"] == URL
    assert URL in [u for _, u in texrun.urls(b.pdf)]


def test_number_in_body_before_maketitle(tmp_path):
    src = docs.document(number=None).replace(
        r"\maketitle", rf"\pithnumber{{{NUM}}}\maketitle")
    b = build(tmp_path, source=src)
    assert b.ok, b.describe()
    assert texrun.info(b.pdf)["PithNumber"] == f"pith:{NUM}"
    assert f"pith:{NUM}" in texrun.text(b.pdf)


# -- hyperref interplay ----------------------------------------------------

@pytest.mark.parametrize("route", ["pdflatex", "dvips"])
def test_badge_in_amsart_title(tmp_path, route):
    """amsart upper-cases the title: neither the URL nor the visible number
    may change, and pdfusetitle must not pick up badge internals."""
    src = (r"\documentclass{amsart}\usepackage{pith}"
           r"\usepackage[pdfusetitle]{hyperref}" "\n"
           rf"\pithnumber{{pith:{NUM.lower()}}}" "\n"
           r"\title{Upper \pithbadge{} Case}\author{Ada}"
           r"\begin{document}\maketitle\section{Intro \pithbadge}x\end{document}" "\n")
    b = build(tmp_path, route, source=src)
    assert b.ok, b.describe()
    urls = [u for _, u in texrun.urls(b.pdf) if "pith" in u.lower()]
    assert urls and all(u == URL for u in urls), urls
    text = texrun.text(b.pdf)
    assert f"pith:{NUM}" in text and "UPPER" in text
    title = texrun.info(b.pdf)["Title"]
    assert title.split() == ["Upper", "Case"], title


def test_hyperref_options_preserved_both_orders(tmp_path):
    for order in ("before", "after"):
        b = build(tmp_path / order, mode=order,
                  extra_preamble=r"\hypersetup{pdfsubject={Sub},pdfkeywords={K1}}")
        assert b.ok, b.describe()
        info = texrun.info(b.pdf)
        assert info["Title"] == docs.TITLE and info["Author"] == "Ada Author"
        assert info["Subject"] == "Sub" and info["Keywords"] == "K1"
        assert info["PithNumber"] == f"pith:{NUM}"


@pytest.mark.parametrize("route", ["pdflatex", "xelatex", "lualatex"])
def test_documentmetadata_xmp(tmp_path, route):
    b = build(tmp_path, route, mode="docmeta", include=SIGNED_INCLUDE)
    assert b.ok, b.describe()
    info = texrun.info(b.pdf)
    assert info["PithNumber"] == f"pith:2025:{NUM}"
    assert info["Title"] == docs.TITLE
    xmp = texrun.xmp(b.pdf)
    assert 'xmlns:pith="https://pith.science/ns/pith/1.0/"' in xmp
    assert f"<pith:number>pith:2025:{NUM}</pith:number>" in xmp
    assert f"<pith:url>{URL}</pith:url>" in xmp
    assert "<pith:verification>verified</pith:verification>" in xmp
    assert f"<dc:identifier>pith:2025:{NUM}</dc:identifier>" in xmp
    assert f"<pith:sha256>{texrun.SHA}</pith:sha256>" in xmp
    assert f"<pith:keyid>{texrun.KEY_ID}</pith:keyid>" in xmp
    assert f"<pith:signature>{texrun.SIG_HEX}</pith:signature>" in xmp
    import html
    import xml.etree.ElementTree as ET
    m = re.search(r"<pith:record>(.*?)</pith:record>", xmp, flags=re.S)
    assert m, xmp
    # XML character data: '"' may or may not be escaped; the text is the record.
    record = ET.fromstring(f"<r>{m.group(1)}</r>").text
    assert record == texrun.info(b.pdf)["PithRecord"], (record, html.unescape(m.group(1)))
    texrun.check_record(b.pdf, signed=True)


@pytest.mark.parametrize("docmeta", [False, True])
def test_hyperxmp_coexists(tmp_path, docmeta):
    mode = "docmeta" if docmeta else "after"
    b = build(tmp_path, mode=mode, extra_preamble=r"\usepackage{hyperxmp}")
    assert b.ok, b.describe()
    info = texrun.info(b.pdf)
    assert info["PithNumber"] == f"pith:{NUM}" and info["Title"] == docs.TITLE
    assert texrun.xmp(b.pdf), "an XMP packet is still written"


# -- the badge in running text ------------------------------------------------

def _baselines(pdf: Path) -> dict:
    """Baseline y (in pt) of each text run on page 1, keyed by its first word."""
    import pypdf

    found: dict = {}

    def visit(text, cm, tm, font, size):
        word = text.strip().split(" ")[0] if text.strip() else ""
        if word and word not in found:
            found[word] = round(tm[5] * cm[3] + cm[5], 2)  # no rotation in these pages

    pypdf.PdfReader(str(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("route", ["pdflatex", "xelatex"])
def test_badge_sits_on_the_baseline_of_running_text(tmp_path, route):
    # The badge's text must line up with the words around it, so an inline
    # \pithbadge reads as part of the line.
    src = (r"\documentclass{article}\usepackage[placement=manual]{pith}"
           "\n" rf"\pithnumber{{{NUM}}}" "\n"
           r"\begin{document}\noindent Before \pithbadge\ after\end{document}" "\n")
    b = build(tmp_path, route, source=src)
    assert b.ok, b.describe()
    y = _baselines(b.pdf)
    badge = [v for k, v in y.items() if k.startswith("pith:")]
    assert badge, y
    assert abs(badge[0] - y["Before"]) < 0.05, y


@pytest.mark.parametrize("route", ["pdflatex", "xelatex"])
def test_maketitle_patched_in_place_after_the_wrap(tmp_path, route):
    """A cmd hook on \\maketitle makes the kernel patch pith's wrapper in place
    at \\begin{document} (the 2026 kernel does so itself under
    \\DocumentMetadata); the second wrap at the end of \\begin{document} must
    not keep that as the original, or \\maketitle calls itself forever
    ("TeX capacity exceeded")."""
    src = docs.document(extra_preamble="\\AddToHook{cmd/maketitle/before}{\\typeout{HOOK-RAN}}")
    b = build(tmp_path, route, source=src)
    assert b.ok, b.describe()
    assert b.log.count("HOOK-RAN") == 1, b.log[-2000:]
    assert texrun.text(b.pdf).count(f"pith:{NUM}") == 1
