"""``pith-tex check`` on what a new author's real papers do (a REVTeX paper with EPS
figures, latexmk with an output directory, a package this machine's TeX lacks): each
mechanism in a stand-in of our own, compiled by real TeX."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy
import pypdfium2 as pdfium

from test_py_check import add_to_preamble, check, detail, paper, statuses, tex

__all__ = ["paper", "tex"]  # fixtures, used by name

#: A blue square, 1 in wide, as graphics programs write EPS (REVTeX's templates ask for it).
BLUE_EPS = ("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 72 72\n"
            "newpath 0 0 moveto 72 0 lineto 72 72 lineto 0 72 lineto closepath\n"
            "0 0 1 setrgbcolor fill\nshowpage\n%%EOF\n")


def with_eps_figure(d: Path, preamble: str = "") -> None:
    (d / "figures").mkdir()
    (d / "figures" / "square.eps").write_text(BLUE_EPS, encoding="ascii")
    add_to_preamble(d, "\\usepackage{graphicx}" + preamble)
    main = d / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "\\includegraphics{figures/square.eps}\n\\end{document}"),
        encoding="utf-8")


def blue_pixels(pdf: Path) -> int:
    page = pdfium.PdfDocument(str(pdf))[0]
    rgb = numpy.asarray(page.render(scale=0.5).to_pil().convert("RGB")).astype(int)
    blue = (rgb[:, :, 2] > 200) & (rgb[:, :, 0] < 60) & (rgb[:, :, 1] < 60)
    return int(blue.sum())


def test_eps_figure_is_a_box_on_the_pdflatex_route(paper: Path) -> None:
    """The REVTeX template's figure.eps: the author's pdflatex (TeX Live's restricted shell
    escape runs epstopdf) shows it, pdflatex as arXiv runs it draws a box with its name,
    with no error.  check said "ready for arXiv (pdflatex)"; now the compile line FAILs
    naming the figure and both ways on, and paths does not claim the compile stopped."""
    with_eps_figure(paper)
    # The mechanism, as arXiv compiles: no error, and none of the figure's ink on page 1.
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-no-shell-escape",
                        "main.tex"], cwd=paper, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]
    assert blue_pixels(paper / "main.pdf") == 0
    for f in paper.glob("main.*"):
        if f.suffix != ".tex":
            f.unlink()
    code, doc, _ = check(paper, "--html", "off")
    assert code == 1, doc
    s = statuses(doc)
    assert s["compile"] == "fail" and s["paths"] == "ok" and s["pdf"] == "ok", doc
    said = detail(doc, "compile")
    assert "figures/square.eps" in said and "--route dvips" in said, said


def test_eps_figure_is_ready_on_the_dvips_route(paper: Path) -> None:
    with_eps_figure(paper)
    code, doc, _ = check(paper, "--html", "off", "--route", "dvips")
    assert code == 0, doc
    assert statuses(doc)["compile"] == "ok", doc
    assert "figures/square.eps" in doc["upload"]


def test_eps_figure_with_its_converted_pdf_is_no_box(paper: Path) -> None:
    """epstopdf's own way to arXiv: ``\\usepackage{epstopdf}`` and the converted
    ``square-eps-converted-to.pdf`` in the upload; pdflatex without shell escape draws that
    PDF.  Not a FAIL."""
    with_eps_figure(paper, "\n\\usepackage{epstopdf}")
    r = subprocess.run(["ps2pdf", "-dEPSCrop", "square.eps", "square-eps-converted-to.pdf"],
                       cwd=paper / "figures", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    code, doc, _ = check(paper, "--html", "off")
    assert statuses(doc)["compile"] == "ok", doc
    assert "figures/square-eps-converted-to.pdf" in doc["upload"]
    assert code == 0, doc
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-no-shell-escape",
                        "main.tex"], cwd=paper, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and blue_pixels(paper / "main.pdf") > 1000, r.stdout[-2000:]


def cites_with_bibtex(d: Path) -> None:
    (d / "refs.bib").write_text("@book{knuth, author={Donald Knuth}, title={The TeXbook}, "
                                "year={1984}, publisher={Addison-Wesley}}\n", encoding="ascii")
    main = d / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "See \\cite{knuth}.\n\\bibliographystyle{plain}\n"
        "\\bibliography{refs}\n\\end{document}"), encoding="utf-8")


def test_bbl_in_latexmk_out_dir_is_named(paper: Path) -> None:
    """A REVTeX template's .latexmkrc sets ``$out_dir = 'out'``: latexmk ran BibTeX and
    left out/main.bbl.  "run bibtex main and upload main.bbl" sent the author to do again
    what was done; the line names out/main.bbl and says to copy it beside main.tex."""
    cites_with_bibtex(paper)
    (paper / ".latexmkrc").write_text("$pdf_mode = 1;\n$out_dir = 'out';\n", encoding="ascii")
    r = subprocess.run(["latexmk", "-interaction=nonstopmode", "main.tex"], cwd=paper,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert (paper / "out" / "main.bbl").is_file() and not (paper / "main.bbl").exists()
    code, doc, _ = check(paper, "--html", "off")
    assert code == 1 and statuses(doc)["citations"] == "fail", doc
    said = detail(doc, "citations")
    assert "out/main.bbl" in said and "run bibtex" not in said, said
    (paper / "main.bbl").write_bytes((paper / "out" / "main.bbl").read_bytes())  # the way on
    code, doc, _ = check(paper, "--html", "off")
    assert code == 0 and statuses(doc)["citations"] == "ok", doc


def test_a_package_this_machine_lacks_names_both_ways_on(paper: Path) -> None:
    """Debian's texlive-latex-extra has no siunitx (texlive-science) nor biblatex
    (texlive-bibtex-extra): a real thesis template stopped with "File `siunitx.sty' not
    found" and TeX's context, and nothing on what to do.  A package found neither in the
    upload nor in this machine's TeX (a name no TeX has, here) gets both ways on."""
    add_to_preamble(paper, "\\usepackage{pithauthornosuchpackage}")
    code, doc, _ = check(paper, "--html", "off")
    assert code == 1 and statuses(doc)["compile"] == "fail", doc
    said = detail(doc, "compile")
    assert "pithauthornosuchpackage.sty' not found" in said, said
    assert "beside the main file" in said and "apt-file search pithauthornosuchpackage.sty" \
        in said and "tlmgr" in said, said


def test_a_missing_input_of_the_paper_is_not_sent_to_tex_live(paper: Path) -> None:
    """A section file the author forgot is no TeX Live package: no advice to install."""
    main = paper / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "\\input{sections/forgotten}\n\\end{document}"), encoding="utf-8")
    code, doc, _ = check(paper, "--html", "off")
    assert code == 1 and statuses(doc)["compile"] == "fail", doc
    said = detail(doc, "compile")
    assert "forgotten" in said and "apt-file" not in said, said
