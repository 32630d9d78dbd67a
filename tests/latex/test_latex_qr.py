"""The QR code of the Pith URL: drawn by pith.sty from the include's modules.

Every check reads the rendered page back: poppler's pdftoppm rasterises page 1
and two independent decoders, zbar and zxing-cpp, read what is really on it.
The expected text is computed here from the Pith URL alone, not taken from the
include: scheme and host in upper case (QR alphanumeric mode, case-insensitive),
the path ``/pith/NUM`` exactly as the resolver serves it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import qrdecode
import texdocs as docs
import texrun
from texrun import NUM, URL

# What a phone must read: the Pith URL with its exact path.
_U = urlsplit(URL)
EXPECTED = f"{_U.scheme.upper()}://{_U.netloc.upper()}{_U.path}"
assert EXPECTED == f"HTTPS://PITH.SCIENCE/pith/{NUM}"
DPI = 150
ROUTES = ("pdflatex", "xelatex", "dvips")
CLASSES = ("article", "ieeetran")
PLACEMENTS = {
    "title": ("qr", "Some text.\n"),
    "corner": ("qr,placement=corner", "Some text.\n"),
    "manual": ("placement=manual", "Some text. \\pithqr\n"),
}


def render(pdf: Path, gray: bool = False) -> Path:
    """Page 1 of pdf as an image at DPI (PNG, or binary PGM when gray)."""
    out = pdf.with_name(pdf.stem + "-p1")
    fmt = ["-gray"] if gray else ["-png"]
    subprocess.run([texrun.tool("pdftoppm"), "-r", str(DPI), *fmt, "-f", "1", "-l", "1",
                    "-singlefile", str(pdf), str(out)], check=True)
    return out.with_suffix(".pgm" if gray else ".png")


def decode(pdf: Path) -> list[str]:
    """Every QR code on page 1, as zbar and zxing-cpp both read it (they must agree)."""
    by_zbar, by_zxing = qrdecode.both(render(pdf, gray=True))
    assert by_zbar == by_zxing, (by_zbar, by_zxing)
    return by_zbar


read_pgm = qrdecode.read_pgm


def build(tmp_path: Path, route: str, **kw) -> texrun.Build:
    include = kw.pop("include", texrun.README_INCLUDE)
    src = kw.pop("source", None) or docs.document(**kw)
    b = texrun.compile_tex(tmp_path, src, route, include=include)
    assert b.ok, b.describe()
    return b


@pytest.mark.parametrize("placement", list(PLACEMENTS))
@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("route", ROUTES)
def test_qr_decodes_to_the_pith_url(tmp_path, route, cls, placement):
    options, body = PLACEMENTS[placement]
    b = build(tmp_path, route, cls=cls, pith_options=options, body=body)
    if (cls, placement) == ("ieeetran", "corner"):
        # IEEEtran's margins (0.625 in right, 0.75 in top) hold no 1.5 cm code beside
        # the corner stamp: it is left out, with a warning, never drawn over the text
        # block (test_latex_mechanisms.py, corner QR).
        assert decode(b.pdf) == []
        assert "cannot hold the QR code" in " ".join(b.log.split())
        return
    assert decode(b.pdf) == [EXPECTED]
    assert "No QR code" not in b.log
    # The code is a link to the Pith URL too (hyperref is loaded after pith).
    pith_links = [u for u, _ in texrun.link_annots(b.pdf) if "pith.science" in u]
    expected_links = 1 if placement == "manual" else 2  # badge + code
    assert pith_links == [URL] * expected_links, pith_links
    for _, rect in texrun.link_annots(b.pdf):
        assert min(rect[0], rect[2]) >= texrun.ARXIV_STAMP_X, rect


@pytest.mark.parametrize("route", ROUTES)
def test_corner_code_is_under_the_stamp_and_clear_of_arxiv_band(tmp_path, route):
    b = build(tmp_path, route, pith_options="qr,placement=corner", mode="none")
    assert decode(b.pdf) == [EXPECTED]
    w, h, px = read_pgm(render(b.pdf, gray=True))
    stamp = [wd for wd in texrun.words(b.pdf) if "pith:" in wd[0]]
    assert len(stamp) == 1, stamp
    scale = DPI / 72.0
    # Dark pixels right of the text block (x > 450 pt on letter paper, the
    # article's right margin): the stamp's frame and the code.
    x_min = int(450 * scale)
    cols = [x for y in range(h // 3) for x in range(x_min, w) if px[y * w + x] < 128]
    rows = [y for y in range(h // 3) for x in range(x_min, w) if px[y * w + x] < 128]
    assert cols and min(cols) / scale >= texrun.ARXIV_STAMP_X
    assert max(cols) / scale <= texrun.mediabox(b.pdf)[2]
    # The code reaches well below the stamp's text (it hangs under it).
    assert max(rows) / scale > stamp[0][4] + 20, (max(rows) / scale, stamp[0])


@pytest.mark.parametrize("route", ROUTES)
def test_no_include_one_warning_and_no_code(tmp_path, route):
    b = build(tmp_path, route, include=None, pith_options="qr",
              body="Some text. \\pithqr\n")
    log = re.sub(r"\n\(pith\)\s+", " ", b.log)
    assert log.count("Package pith Warning: No QR code to draw") == 1, log
    assert "no include 'pith-number.tex' was found" in log
    assert "pith-tex fetch" in log
    assert decode(b.pdf) == []
    # The badge and the metadata are there as without the option.
    assert texrun.info(b.pdf)["PithVerification"] == "unverified"
    assert f"pith:{NUM}" in texrun.text(b.pdf)


def test_include_false_says_so(tmp_path):
    b = build(tmp_path, "pdflatex", pith_options="qr,include=false")
    log = re.sub(r"\n\(pith\)\s+", " ", b.log)
    assert log.count("No QR code to draw") == 1
    assert "(include=false)" in log
    assert decode(b.pdf) == []


def test_bad_qr_block_is_an_error_and_draws_nothing(tmp_path):
    inc = texrun.README_INCLUDE.replace(r"\pithqrcode{29}", r"\pithqrcode{30}")
    src = docs.document(pith_options="qr")
    b = texrun.compile_tex(tmp_path, src, "pdflatex", include=inc)
    assert not b.ok
    assert "Invalid \\pithqrcode block" in b.log


@pytest.mark.parametrize("size_cm", [2.0, 3.0])
@pytest.mark.parametrize("route", ROUTES)
def test_size_is_qr_size_with_a_four_module_quiet_zone(tmp_path, route, size_cm):
    """Two marker rules either side of \\pithqr: the gap between them is the
    whole symbol with its quiet zone (qr-size); the dark modules between them
    span 29 of its 37 modules, 4 light modules from each marker."""
    opt = "" if size_cm == 2.0 else f"qr-size={size_cm}cm"  # 2 cm is the default
    src = ("\\documentclass{article}\n"
           f"\\usepackage[placement=manual]{{pith}}\\pithsetup{{{opt}}}\n"
           f"\\pithnumber{{{NUM}}}\\pagestyle{{empty}}\n"
           "\\begin{document}\\noindent\n"
           "\\vrule width 2pt height 5cm depth 1cm\\pithqr\\vrule width 2pt height 5cm depth 1cm\n"
           "\\end{document}\n")
    b = build(tmp_path, route, source=src)
    assert decode(b.pdf) == [EXPECTED]
    w, h, px = read_pgm(render(b.pdf, gray=True))
    scale = DPI / 72.0
    size_pt = size_cm / 2.54 * 72
    module = size_pt / 37
    # Columns with any dark pixel, grouped into runs: the first and the last
    # run are the markers, everything dark between them is the code.
    cols = [x for x in range(w) if any(px[y * w + x] < 128 for y in range(h))]
    runs: list[list[int]] = []
    for x in cols:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    assert len(runs) >= 3, runs
    left_end, right_start = runs[0][-1] + 1, runs[-1][0]
    inner = [x for r in runs[1:-1] for x in r]
    # Gap between the markers = the whole symbol with its quiet zone.
    assert abs((right_start - left_end) / scale - size_pt) < 2.0, (left_end, right_start)
    # The dark modules span 29 of the 37 modules, 4 light ones each side.
    assert abs((inner[-1] - inner[0] + 1) / scale - 29 * module) < 1.5, (inner[0], inner[-1])
    assert abs((inner[0] - left_end) / scale - 4 * module) < 1.5
    assert abs((right_start - inner[-1] - 1) / scale - 4 * module) < 1.5


def verify_qr(pdf: Path) -> dict:
    """The qr check of ``pith-tex verify --json`` on *pdf*."""
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=300)
    doc = json.loads(r.stdout)
    found = [c for c in doc["files"][0]["checks"] if c["name"] == "qr"]
    assert found, doc
    return found[0]


def small_qr_warning(log: str) -> str:
    """pith's qr-small warning, its continuation lines joined; '' when there is none."""
    m = re.search(r"Package pith Warning: QR code too small to scan:(.*?)\n\n", log, re.S)
    return re.sub(r"\n\(pith\)\s+", " ", m.group(1)) if m else ""


SMALL_DOC = ("\\documentclass{article}\n\\usepackage[qr,qr-size=%s]{pith}\n"
             "\\pithnumber{%s}\n\\title{T}\\author{A}\n"
             "\\begin{document}\\maketitle\nText.\n\\end{document}\n")


@pytest.mark.parametrize("route", ["pdflatex", "xelatex"])
@pytest.mark.parametrize("size,small", [("9mm", True), ("9.25mm", False)])
def test_qr_too_small_to_scan_is_warned_as_verify_fails_it(tmp_path, route, size, small):
    """37 modules (29 and the quiet zone) of at least 0.25 mm, the floor of
    ``pith-tex verify``: qr-size 9.25 mm or more.  Below it the compile says so;
    at 9 mm verify fails the code, at 9.25 mm both are content."""
    b = build(tmp_path, route, source=SMALL_DOC % (size, NUM))
    said = small_qr_warning(b.log)
    check = verify_qr(b.pdf)
    if small:
        assert "its modules are 0.2432 mm, under 0.25 mm" in said, b.log
        assert "qr-size=9.25mm or more" in said
        assert check["status"] == "fail" and "too small to scan" in check["detail"], check
    else:
        assert said == "" and "too small" not in b.log, b.log
        assert check["status"] == "ok", check


@pytest.mark.parametrize("size,small", [("1724810sp", True), ("1724811sp", False)])
def test_qr_small_threshold_is_the_module_verify_needs(tmp_path, size, small):
    """The module is qr-size / 37 rounded to the sp; verify needs 0.70866 bp, i.e.
    46617 sp: the warning starts one sp below 37 x 46616.5 sp.  (At the boundary
    the PDF's coordinate digits decide what verify measures, so only the compile
    is read here.)"""
    b = build(tmp_path, "dvips", source=SMALL_DOC % (size, NUM))
    assert bool(small_qr_warning(b.log)) is small, b.log


# -- the drawing: one path per route ----------------------------------------------------

QR_SIZE_PT = 2 / 2.54 * 72  # the default qr-size, 2 cm
# q S 0 0 S T T cm 0 G 1 w 0 J, then a row: [D1 L2 D2 ... SIZE]0 d L1 y.5 m SIZE y.5 l S
ROW = rb"\[[0-9 ]+\]0 d [0-9]+ [0-9]+\.5 m 29 [0-9]+\.5 l S "
PATH = re.compile(rb"q ([0-9.]+) 0 0 \1 ([0-9.]+) \2 cm 0 G 1 w 0 J ((?:%s)+)Q" % ROW)


def pdf_rgb(pdf: Path):
    """Page 1 rendered in colour at DPI: width, height and RGB bytes."""
    out = pdf.with_name(pdf.stem + "-rgb")
    subprocess.run([texrun.tool("pdftoppm"), "-r", str(DPI), "-f", "1", "-l", "1",
                    "-singlefile", str(pdf), str(out)], check=True)
    data = out.with_suffix(".ppm").read_bytes()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert m, data[:40]
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():m.end() + 3 * w * h]


def _content(pdf: Path) -> bytes:
    import pypdf

    return pypdf.PdfReader(str(pdf)).pages[0].get_contents().get_data()


def _code_and_link(pdf: Path):
    """The code's box and module (from PDFium's rendering at 600 dpi, as zxing-cpp
    locates the symbol), and the link rectangle of the code (the square one)."""
    from types import SimpleNamespace

    from pith_tex.pdf import pageview

    v = pageview.pdfium_view(pdf.read_bytes(), dpi=600)
    assert len(v.code_boxes) == 1, v.codes
    b = v.code_boxes[0]
    left, top = v.crop[0], v.crop[3]
    box = (left + b[0], top - b[3], left + b[2], top - b[1])
    grid = SimpleNamespace(box=box, module=(box[2] - box[0]) / 29)
    squares = [r for u, r in texrun.link_annots(pdf)
               if u == URL and abs((r[2] - r[0]) - (r[3] - r[1])) < 0.5]
    assert len(squares) == 1, texrun.link_annots(pdf)
    return grid, squares[0]


@pytest.mark.parametrize("route", texrun.ROUTES)
def test_code_is_one_path_black_in_red_text(tmp_path, route):
    """Every route, lualatex too: in red text, with hyperref's colorlinks and the
    monochrome option, the code is black, reads back with both decoders and with
    pith-tex verify, and fills its box: the link is the symbol with its 4-module quiet
    zone, qr-size wide.  pdfTeX, LuaTeX and XeTeX write it in module units, a dashed
    line a row; dvips's PostScript reaches the PDF as the same lines in points."""
    b = build(tmp_path, route, pith_options="qr,monochrome",
              extra_preamble="\\usepackage{xcolor}\\AtBeginDocument{\\color{red}}")
    assert "Overfull" not in b.log and "pith Warning" not in b.log
    assert decode(b.pdf) == [EXPECTED]
    grid, link = _code_and_link(b.pdf)
    module = QR_SIZE_PT / 37
    assert abs(grid.module - module) < 0.01, grid
    # the link is the code's box, plus hyperref's \pdflinkmargin (1 pt) but on xdvipdfmx,
    # where pith gives the box's rectangle itself
    margin = 0.0 if route == "xelatex" else 1.0
    assert abs((link[2] - link[0]) - QR_SIZE_PT - 2 * margin) < 0.1, link
    for inner, outer, sign in ((grid.box[0], link[0], 1), (grid.box[1], link[1], 1),
                               (grid.box[2], link[2], -1), (grid.box[3], link[3], -1)):
        assert abs(sign * (inner - outer) - 4 * module - margin) < 0.3, (grid.box, link)
    # black modules in red text: no coloured pixel inside the code
    ppm = pdf_rgb(b.pdf)
    w, h, px = ppm
    scale = DPI / 72.0
    page_h = texrun.mediabox(b.pdf)[3]
    x0, x1 = int(grid.box[0] * scale) + 1, int(grid.box[2] * scale) - 1
    y0, y1 = int((page_h - grid.box[3]) * scale) + 1, int((page_h - grid.box[1]) * scale) - 1
    coloured = [(x, y) for y in range(y0, y1) for x in range(x0, x1)
                if max(px[3 * (y * w + x):3 * (y * w + x) + 3])
                - min(px[3 * (y * w + x):3 * (y * w + x) + 3]) > 60]
    assert coloured == [], coloured[:5]
    # ... while the text around it is red
    assert any(p[0] > 150 and p[1] < 80 for p in zip(px[0::3], px[1::3], px[2::3]))
    content = _content(b.pdf)
    paths = PATH.findall(content)
    if route == "dvips":  # ghostscript writes the dashed lines in its own units
        assert paths == [] and len(re.findall(rb"\] 0 d\s", content)) >= 29
    else:
        assert len(paths) == 1 and len(re.findall(ROW, paths[0][2])) == 29, paths
        assert abs(float(paths[0][0]) - module) < 1e-3
        assert abs(float(paths[0][1]) - 4 * module) < 1e-3
    v = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(b.pdf)],
                       capture_output=True, text=True)
    qr = [c for f in json.loads(v.stdout)["files"] for c in f["checks"] if c["name"] == "qr"]
    assert [c["status"] for c in qr] == ["ok"], v.stdout


def test_other_backends_draw_rules(tmp_path):
    """A backend pith does not write a path for (here dvisvgm's, whose DVI dvips can
    still render) gets one rule a dash: the same code, the same box."""
    src = ("\\documentclass[dvisvgm]{article}\n"
           "\\usepackage[placement=manual]{pith}\n"
           f"\\pithnumber{{{NUM}}}\\pagestyle{{empty}}\n"
           "\\begin{document}\\noindent\\ExplSyntaxOn\\typeout{backend=\\c_sys_backend_str}"
           "\\ExplSyntaxOff\n"
           "\\setbox0\\hbox{\\pithqr}\\typeout{qrbox=\\the\\wd0,\\the\\ht0,\\the\\dp0}"
           "\\box0\n\\end{document}\n")
    b = build(tmp_path, "dvips", source=src)
    assert "backend=dvisvgm" in b.log
    size = re.search(r"qrbox=([0-9.]+)pt,([0-9.]+)pt,([0-9.]+)pt", b.log)
    assert size, b.log[-2000:]
    wd, ht, dp = (float(v) for v in size.groups())
    assert wd == ht and dp == 0 and abs(wd - 2 / 2.54 * 72.27) < 0.01, size.groups()
    assert decode(b.pdf) == [EXPECTED]
    assert PATH.findall(_content(b.pdf)) == []


# A page turned a quarter: dvips's landscape special turns the whole page's content (the
# code's rows become columns in the PDF), lscape's landscape environment turns its content
# with a matrix.  A scanner reads a code in any of its four turns; verify must vouch for it.
TURNED = {
    "dvips": "\\AtBeginDvi{\\special{landscape}}\n",
    "pdflatex": "\\usepackage{lscape}\n",
}


@pytest.mark.parametrize("route", sorted(TURNED))
def test_a_code_turned_a_quarter_is_vouched_for(tmp_path, route):
    src = ("\\documentclass{article}\n%s\\usepackage[qr]{pith}\n\\pithnumber{%s}\n"
           "\\title{A Paper}\\author{A. Author}\\date{}\n\\begin{document}\n%s"
           "\\maketitle\nSome text.\n%s\\end{document}\n"
           % (TURNED[route], NUM, "\\begin{landscape}\n" if route == "pdflatex" else "",
              "\\end{landscape}\n" if route == "pdflatex" else ""))
    b = build(tmp_path, route, source=src)
    assert decode(b.pdf) == [EXPECTED]  # what a phone reads from the rendered page
    qr = verify_qr(b.pdf)
    assert qr["status"] == "ok", qr
