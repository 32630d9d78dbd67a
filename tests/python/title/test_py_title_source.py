"""Where fetch finds a title when the paper has no ``\\title``: the forms real templates
use, each as a stand-in of our own (PLOS/bioRxiv's title block, a ``\\Title`` or
``\\papertitle`` macro typeset in a block, a hand-made centred title page), and nothing
found where there is no title in any of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pith_tex.title.source import find_title

T = "Periodic Points on the 2-sphere"


def _find(tmp_path: Path, body: str, preamble: str = ""):
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n%s\n\\begin{document}\n%s\n"
                                       "\\end{document}\n" % (preamble, body), encoding="utf-8")
    return find_title(str(tmp_path), "main.tex")


PLOS = ("\\begin{flushleft}\n{\\Large\n\\textbf\\newline{%s} %% sentence case\n}\n\\newline\n"
        "\\\\\nAnn Author\\textsuperscript{1}\n\\end{flushleft}\n\\section*{Abstract}\nx")


@pytest.mark.parametrize("preamble,title,what", [
    ("\\newcommand{\\Title}{%s}" % T, "\\Title", "\\Title (a title macro it typesets)"),
    ("\\providecommand{\\mytitle}{%s}" % T, "\\mytitle",
     "\\mytitle (a title macro it typesets)"),
    ("\\def\\papertitle{%s}" % T, "\\papertitle", "\\papertitle"),
    ("", T, "title block (text set in \\Large or larger before the first section)"),
])
def test_a_plos_like_title_block(tmp_path, preamble, title, what):
    found = _find(tmp_path, PLOS % title, preamble)
    assert found is not None and found.what == what, found
    assert found.raw.replace("\\textbf\\newline{", "").rstrip("}") == T, found


@pytest.mark.parametrize("body", [
    "\\begin{center}\n{\\LARGE\\bfseries %s\\par}\n\\bigskip\nAnn Author\n\\end{center}" % T,
    "\\begin{center}\n\\Huge %s\\\\\n\\large Ann Author\n\\end{center}" % T,
    "\\begin{titlepage}\n\\centering{\\bf\\huge %s}\\\\ Ann\n\\end{titlepage}" % T,
])
def test_a_hand_made_title_page(tmp_path, body):
    found = _find(tmp_path, body)
    assert found is not None and found.raw.replace("\\bfseries ", "").replace(
        "\\bf", "").strip() == T, found


def test_the_blocks_after_a_larger_journal_name_are_offered(tmp_path):
    found = _find(tmp_path, "{\\huge The Journal of Stand-ins}\\\\\n{\\LARGE %s}\n"
                            "\\section{Introduction}\n{\\Large Not front matter}" % T)
    assert found is not None and found.raw == "The Journal of Stand-ins"
    assert found.others == (T,)  # the section's large text is not front matter


@pytest.mark.parametrize("preamble,body", [
    ("", "\\noindent\\textbf{%s}\n\nText." % T),  # not set large: not read as a title
    ("\\newcommand{\\shorttitle}{%s}" % T, "\\shorttitle\n\nText."),  # a running head
    ("\\newcommand{\\Title}{%s}" % T, "Text."),  # defined, never typeset
    ("", "\\section{Intro}\n{\\Large %s}" % T),  # after the front matter
])
def test_no_title_in_any_form(tmp_path, preamble, body):
    assert _find(tmp_path, body, preamble) is None
