"""The title binding on real PDFs: pith.sty writes the record's title (PithTitle) from the
include; ``verify paper.pdf`` checks that it hashes to the record and that page 1's title,
as PDFium and poppler show it, is the record's (same, or same up to formatting); ``check``
compares on the PDF it compiled.  Real fetch (the example mirror), real pdflatex, real
engines.  TeX is required: a missing program is an error, never a skip."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

from standins import PLOS_LIKE
from texbuild import STY, tool

ROOT = Path(__file__).resolve().parents[3]
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
TITLE = "FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs"

PAPER = r"""\documentclass{article}
\usepackage{pith}%(packages)s
\pithnumber{%(number)s}
\title{%(title)s}
\author{A. Author}
\begin{document}
\maketitle
Text.
\end{document}
"""


def pith_tex(*args: Any, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pith_tex", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def paper(d: Path, title: str, packages: str = "", fetch: bool = True,
          accept: bool = False) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "main.tex").write_text(PAPER % {"packages": packages, "number": N, "title": title},
                                encoding="utf-8")
    shutil.copy(STY, d / "pith.sty")
    if fetch:
        r = pith_tex("fetch", "--offline", "--resolver", MIRROR, N,
                     *(["--accept-title"] if accept else []), cwd=d)
        assert r.returncode == 0, r.stdout + r.stderr
    return d


def build(d: Path) -> Path:
    pdflatex = tool("pdflatex")
    for _ in range(2):
        r = subprocess.run([pdflatex, "-interaction=nonstopmode", "-no-shell-escape",
                            "main.tex"], cwd=d, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout[-3000:]
    return d / "main.pdf"


def verify(pdf: Path) -> Dict[str, Any]:
    r = pith_tex("verify", "--json", pdf.name, cwd=pdf.parent)
    doc = json.loads(r.stdout)
    doc["rc"] = r.returncode
    return doc


def lines(doc: Dict[str, Any]) -> Dict[str, Dict[str, str]]:
    (f,) = doc["files"]
    return {c["name"]: c for c in f["checks"]}


def test_the_papers_own_pdf(tmp_path: Path) -> None:
    d = paper(tmp_path / "p", "FlashRecovery: Fast and Low-Cost Recovery from Failures\\\\ "
                              "for Large-Scale Training of LLMs\\thanks{At home.}")
    assert "  title-utf16 = feff0046006c" in (d / "pith-number.tex").read_text()
    doc = verify(build(d))
    assert doc["rc"] == 0, doc
    c = lines(doc)
    assert c["pith-title"]["status"] == "ok" and TITLE in c["pith-title"]["detail"]
    assert c["title"]["status"] == "ok", c["title"]
    assert c["title"]["detail"].startswith("same: page 1's title is the record's title '%s' "
                                           "(PithTitle; its hash" % TITLE)
    assert "as pdfium and poppler show it" in c["title"]["detail"]
    # the Info string as another reader decodes it
    from pypdf import PdfReader

    assert PdfReader(d / "main.pdf").metadata["/PithTitle"] == TITLE


def test_macros_and_punctuation_are_same_up_to_formatting(tmp_path: Path) -> None:
    d = tmp_path / "p"
    d.mkdir()
    # the macro lives in a package of the author's: only the PDF shows what it makes
    (d / "mymacros.sty").write_text("\\newcommand{\\flash}{FlashRecovery}\n")
    paper(d, "\\flash---Fast and Low-Cost Recovery from Failures for Large-Scale "
             "Training of LLMs", packages="\n\\usepackage{mymacros}")
    doc = verify(build(d))
    assert doc["rc"] == 0, doc
    t = lines(doc)["title"]
    assert t["status"] == "ok" and t["detail"].startswith("same up to formatting: page 1's "
                                                          "title 'FlashRecovery"), t
    assert "'-' where the record's title has ':'" in t["detail"]


def test_a_copied_include_fails_verify_and_check(tmp_path: Path) -> None:
    own = paper(tmp_path / "flash", TITLE)
    d = paper(tmp_path / "other", "Slow and Costly Recovery of Small Jobs", fetch=False)
    shutil.copy(own / "pith-number.tex", d / "pith-number.tex")  # another paper's include
    doc = verify(build(d))
    assert doc["rc"] == 1, doc
    t = lines(doc)["title"]
    assert t["status"] == "fail", t
    assert t["detail"].startswith("different: this PDF is titled 'Slow and Costly Recovery "
                                  "of Small Jobs'; the number is for '%s'" % TITLE)
    r = pith_tex("check", "--json", d, cwd=tmp_path)
    check = json.loads(r.stdout)
    assert r.returncode == 1 and check["verdict"] == "failed", r.stdout
    (title,) = [c for c in check["checks"] if c["name"] == "title"]
    assert title["status"] == "fail" and "Slow and Costly" in title["detail"]
    assert check["error"].startswith("not ready for arXiv: title: different:")


def _title(doc: Dict[str, Any]) -> Dict[str, str]:
    (title,) = [c for c in doc["checks"] if c["name"] == "title"]
    return title


def _accepted(d: Path, title: str) -> None:
    """check is ready (with its tarball) and verify exits 0, each with the WARN that
    names both titles and says the author accepted the change."""
    r = pith_tex("check", "--json", "--tarball", d.parent / "upload.tar.gz", d, cwd=d.parent)
    check = json.loads(r.stdout)
    assert r.returncode == 0 and check["verdict"] != "failed", r.stdout
    assert (d.parent / "upload.tar.gz").is_file()
    doc = verify(build(d))
    assert doc["rc"] == 0, doc
    for t in (_title(check), lines(doc)["title"]):
        assert t["status"] == "warn", t
        assert t["detail"].startswith("different, accepted by the author (fetch "
                                      "--accept-title): page 1's title '%s' is the title the "
                                      "author accepted (PithAcceptedTitle); the record's title "
                                      "is '%s' (PithTitle)" % (title, TITLE)), t
        assert "nothing here proves that" in t["detail"]
    from pypdf import PdfReader

    assert PdfReader(d / "main.pdf").metadata["/PithAcceptedTitle"] == title


def test_a_retitled_paper_accepted_by_fetch(tmp_path: Path) -> None:
    # the README's case, verbatim: v2 changed the title; the author ran fetch --accept-title
    new = "Recovering Large Training Jobs in Seconds"
    d = paper(tmp_path / "p", new, accept=True)
    assert "  accepted-title-utf16 = feff%s,\n" % new.encode("utf-16-be").hex() in (
        d / "pith-number.tex").read_text()
    _accepted(d, new)


def test_words_added_to_the_title_are_the_accepted_title_not_the_records(
        tmp_path: Path) -> None:
    # the record's title is all there, set in the same size: it is still not the record's
    new = TITLE + " at Scale"
    _accepted(paper(tmp_path / "p", new, accept=True), new)


def test_a_third_title_fails_check_and_verify(tmp_path: Path) -> None:
    accepted = "Recovering Large Training Jobs in Seconds"
    d = paper(tmp_path / "p", accepted, accept=True)
    main = d / "main.tex"
    main.write_text(main.read_text().replace(accepted, "Slow and Costly Recovery of Small "
                                                       "Jobs"))
    r = pith_tex("check", "--json", d, cwd=tmp_path)
    check = json.loads(r.stdout)
    assert r.returncode == 1, r.stdout
    doc = verify(build(d))
    assert doc["rc"] == 1, doc
    for t in (_title(check), lines(doc)["title"]):
        assert t["status"] == "fail", t
        assert t["detail"].startswith("different: this PDF is titled 'Slow and Costly Recovery "
                                      "of Small Jobs'; the number is for '%s' (PithTitle), and "
                                      "the title its author accepted is '%s'"
                                      % (TITLE, accepted)), t
        assert "run pith-tex fetch --accept-title again" in t["detail"]


def test_an_old_pdf_without_pithtitle(tmp_path: Path) -> None:
    # an include without title-utf16 (a pith-tex before the title binding): no PithTitle
    from pith_tex.include.include import parse_include, render

    d = paper(tmp_path / "p", TITLE)
    inc = d / "pith-number.tex"
    inc.write_bytes(render(parse_include(inc.read_text())._replace(title=None)))
    doc = verify(build(d))
    assert doc["rc"] == 0, doc
    c = lines(doc)
    assert c["pith-title"]["status"] == "warn"
    assert c["pith-title"]["detail"].startswith("not checked: the PDF has no PithTitle")
    # page 1's title still hashes to the record's title_canon_sha256
    assert c["title"]["status"] == "ok" and "its hash is the record's" in c["title"]["detail"]


def test_a_pithtitle_that_is_not_the_records_fails(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    d = paper(tmp_path / "p", TITLE)
    pdf = build(d)
    w = PdfWriter(clone_from=PdfReader(pdf))
    w.add_metadata({"/PithTitle": "Slow and Costly Recovery of Small Jobs"})
    forged = d / "forged.pdf"
    with open(forged, "wb") as f:
        w.write(f)
    doc = verify(forged)
    assert doc["rc"] == 1, doc
    c = lines(doc)["pith-title"]
    assert c["status"] == "fail" and "does not hash to the record's title_canon_sha256" in \
        c["detail"]


def test_a_journal_name_set_larger_than_the_title(tmp_path: Path) -> None:
    # a venue's heading above the title, in a larger size: the title is not the largest
    # text on page 1, but it is there, set larger than the body
    d = paper(tmp_path / "p", TITLE)
    main = d / "main.tex"
    # (a title block made by hand: article's \\maketitle would start a new page)
    main.write_text(main.read_text().replace(
        "\\maketitle", "{\\centering\\Huge The Journal of Stand-ins\\par\\bigskip\n"
        "\\LARGE %s\\par}" % TITLE))
    doc = verify(build(d))
    assert doc["rc"] == 0, doc
    t = lines(doc)["title"]
    assert t["status"] == "ok" and t["detail"].startswith("same up to formatting"), t
    assert "set below larger text 'The Journal of Stand-ins'" in t["detail"]




def plos(d: Path, title: str, fetch: bool = True) -> Path:
    """A stand-in of a PLOS/bioRxiv title block: no \\title, a \\Title macro set in
    \\Large in a flushleft block."""
    d.mkdir(parents=True)
    (d / "main.tex").write_text(PLOS_LIKE % {"number": N, "title": "\\Title",
                                             "preamble": "\\newcommand{\\Title}{%s}" % title},
                                encoding="utf-8")
    shutil.copy(STY, d / "pith.sty")
    if fetch:
        r = pith_tex("fetch", "--offline", "--resolver", MIRROR, N, cwd=d)
        assert r.returncode == 0 and "main.tex's \\Title (a title macro" in r.stdout, \
            r.stdout + r.stderr
    return d


def test_a_title_block_without_title_is_compared_on_the_page(tmp_path: Path) -> None:
    d = plos(tmp_path / "own", TITLE)
    r = pith_tex("check", "--json", d, cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    t = _title(json.loads(r.stdout))
    assert t["status"] == "ok" and t["detail"].startswith("same: page 1's title is the "
                                                          "record's title '%s'" % TITLE), t
    doc = verify(build(d))
    assert doc["rc"] == 0 and lines(doc)["title"]["status"] == "ok", doc


def test_a_title_block_with_another_papers_include_fails(tmp_path: Path) -> None:
    own = plos(tmp_path / "own", TITLE)
    d = plos(tmp_path / "other", "Structuring Bodies of Evidence in Plant Genomics",
             fetch=False)
    r = pith_tex("fetch", "--offline", "--resolver", MIRROR, N, cwd=d)  # fetch refuses
    assert r.returncode == 1 and not (d / "pith-number.tex").exists(), r.stdout
    shutil.copy(own / "pith-number.tex", d / "pith-number.tex")  # copied all the same
    r = pith_tex("check", "--json", d, cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    doc = verify(build(d))
    assert doc["rc"] == 1, doc
    for t in (_title(json.loads(r.stdout)), lines(doc)["title"]):
        assert t["status"] == "fail" and t["detail"].startswith(
            "different: this PDF is titled 'Structuring Bodies of Evidence in Plant "
            "Genomics'; the number is for '%s'" % TITLE), t


def test_an_include_with_the_note_but_no_accepted_title(tmp_path: Path) -> None:
    # written by a pith-tex before the accepted title travelled in the include: check
    # cannot tell the new title from another paper's, and says how to write it again
    from pith_tex.include.include import parse_include, render

    d = paper(tmp_path / "p", "Recovering Large Training Jobs in Seconds", accept=True)
    inc = d / "pith-number.tex"
    inc.write_bytes(render(parse_include(inc.read_text())._replace(accepted_title=None)))
    r = pith_tex("check", "--json", d, cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    t = _title(json.loads(r.stdout))
    assert t["status"] == "fail" and t["detail"].startswith("different: this PDF is titled "
                                                            "'Recovering Large"), t
    assert t["detail"].endswith("the include says --accept-title but carries no accepted "
                                "title: run pith-tex fetch --accept-title again (with the "
                                "title in \\title{...})"), t
