"""The title comparison (pith_tex.title.compare) on real arXiv titles with TeX, and the search
for the paper's title and main file in a source tree (pith_tex.title.source,
readiness.mainfile), each placement and each main-file situation as a stand-in."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pith_tex.errors import UsageError
from pith_tex.check.mainfile import find_main
from pith_tex.title.compare import (DIFFERENT, FORMATTING, SAME, UNKNOWN, canon_sha256, compare,
                            normalise)
from pith_tex.title.source import find_title

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "pith-numbers.jsonl"


def _titled():
    out = []
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        v = json.loads(line)
        if v.get("title") and v.get("canonical_record"):
            out.append(v)
    return out


TITLED = _titled()


def test_the_vectors_hash_as_the_spec_says():
    assert len(TITLED) >= 20
    for v in TITLED:
        assert canon_sha256(v["title"]) == v["canonical_record"]["metadata"][
            "title_canon_sha256"], v["title"]


@pytest.mark.parametrize("v", TITLED, ids=lambda v: v["number"][:8])
def test_each_vector_is_the_same_as_itself_by_its_hash(v):
    canon = v["canonical_record"]["metadata"]["title_canon_sha256"]
    c = compare(v["title"], v["title"], canon)
    assert c.kind == SAME and "hash" in c.how
    # broken over lines with \\ and a \thanks, as a \title: still the hash
    words = v["title"].split(" ")
    half = len(words) // 2
    typed = " ".join(words[:half]) + "\\\\\n  " + " ".join(words[half:]) + "\\thanks{Funded.}"
    assert compare(typed, v["title"], canon).kind == SAME


# Real arXiv titles with TeX (the vectors' own spelling) and the text a reader sees.
READ_AS = [
    ("KAM \\`{a} la R", "KAM \u00e0 la R"),
    ('Schr\\"odinger operators on periodic discrete graphs',
     "Schr\u00f6dinger operators on periodic discrete graphs"),
    ('KAWA lecture notes on the K\\"ahler-Ricci flow',
     "KAWA lecture notes on the K\u00e4hler-Ricci flow"),
    ('A rank function for Fra\\"{\\i}ss\\\'{e} classes and the rank property',
     "A rank function for Fra\u00efss\u00e9 classes and the rank property"),
    ("Equations in oligomorphic clones and the Constraint Satisfaction Problem for "
     "$\\omega$-categorical structures",
     "Equations in oligomorphic clones and the Constraint Satisfaction Problem for "
     "\u03c9-categorical structures"),
    ("Deep $\\Pi^0_1$ Classes", "Deep \u03a001 Classes"),
    ("Keisler's order has infinitely many classes",
     "Keisler\u2019s order has infinitely many classes"),
]


@pytest.mark.parametrize("tex,text", READ_AS)
def test_tex_reads_as_the_letters_it_makes(tex, text):
    assert normalise(tex) == normalise(text)
    assert compare(text, tex, canon_sha256(tex)).kind == SAME


def test_formatting_commands_braces_and_case_are_same():
    rec = "Infrastructure-Agnostic Hypertext"
    assert compare("\\textbf{Infrastructure}-{A}gnostic \\emph{Hypertext}", rec,
                   canon_sha256(rec)).kind == SAME
    assert compare("INFRASTRUCTURE-AGNOSTIC HYPERTEXT", rec, canon_sha256(rec)).kind == SAME
    assert compare("Infrastructure\u2013Agnostic {\\sc Hypertext}", rec, None).kind == SAME


def test_punctuation_is_same_up_to_formatting_and_says_which():
    rec = "SciPy 1.0: Fundamental Algorithms for Scientific Computing in Python"
    c = compare("SciPy 1.0---Fundamental Algorithms for Scientific Computing in Python",
                rec, canon_sha256(rec))
    assert c.kind == FORMATTING
    assert c.differences == ("'-' where the record's title has ':'",)


def test_an_authors_macro_standing_for_a_word_is_same_up_to_formatting():
    rec = "DataNet: In search of the missing datasets for machine learning"
    c = compare("\\datanet: In search of the missing datasets for machine learning", rec,
                canon_sha256(rec))
    assert c.kind == FORMATTING and c.differences == ("\\datanet read as 'datanet'",)
    # a title that is all macro proves nothing
    assert compare("\\papertitlemacro", rec, canon_sha256(rec)).kind == UNKNOWN


def test_another_papers_title_is_different():
    a, b = TITLED[0]["title"], TITLED[1]["title"]
    assert compare(a, b, canon_sha256(b)).kind == DIFFERENT
    # one word changed is a different title too
    rec = "Periodic Points on the 2-sphere"
    assert compare("Periodic Points on the 3-sphere", rec, canon_sha256(rec)).kind == DIFFERENT


def test_a_record_title_that_does_not_hash_to_the_record_is_not_used():
    # the resolver's paper.title is untrusted text: only its hash binds it to the record
    rec = "Periodic Points on the 2-sphere"
    c = compare(rec, rec, hashlib.sha256(b"another title").hexdigest())
    assert c.kind == UNKNOWN


# ---------------------------------------------------------------- the source


def _paper(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return tmp_path


T = "Periodic Points on the 2-sphere"


@pytest.mark.parametrize("body", [
    "\\title{%s}\n\\begin{document}\n\\maketitle\n" % T,  # preamble
    "\\begin{document}\n\\title{%s}\n\\author{A}\n\\maketitle\n" % T,  # revtex, AASTeX
    "\\title[Short]{%s}\n\\begin{document}\n" % T,  # acmart, sn-jnl
    "\\begin{document}\n\\twocolumn[\\icmltitle{%s}]\n" % T,  # ICML
    "\\Title{%s}\n\\begin{document}\n" % T,  # MDPI
    "\\articletitle{%s}\n\\begin{document}\n" % T,  # Taylor & Francis
    "%% \\title{Not this one}\n\\newcommand{\\mytitle}[1]{\\title{#1}}\n"
    "\\title{%s}\n\\begin{document}\n" % T,  # comments and definitions skipped
])
def test_the_title_is_found_where_authors_put_it(tmp_path, body):
    d = _paper(tmp_path, {"main.tex": "\\documentclass{article}\n" + body + "\\end{document}\n"})
    found = find_title(str(d), "main.tex")
    assert found is not None and found.raw == T and found.file == "main.tex"


def test_the_title_in_an_input_file_and_an_include_tree(tmp_path):
    d = _paper(tmp_path, {
        "main.tex": "\\documentclass{article}\n\\input{front/meta}\n\\begin{document}\n"
                    "\\include{chapters/one}\n\\end{document}\n",
        "front/meta.tex": "\\input{front/title.tex}\n",
        "front/title.tex": "\\title{%s}\n" % T,
        "chapters/one.tex": "\\section{One}\n",
    })
    found = find_title(str(d), "main.tex")
    assert found is not None and found.raw == T
    assert found.file == "front/title.tex"


def test_the_sources_own_macros_are_expanded(tmp_path):
    d = _paper(tmp_path, {"main.tex": "\\documentclass{article}\n\\newcommand{\\pts}{Points}"
                          "\n\\def\\sph{2-sphere}\n\\title{Periodic \\pts{} on the \\sph}\n"
                          "\\begin{document}\n\\end{document}\n"})
    found = find_title(str(d), "main.tex")
    assert found is not None and compare(found.raw, T, canon_sha256(T)).kind == SAME


def test_no_title(tmp_path):
    d = _paper(tmp_path, {"main.tex": "\\documentclass{article}\n\\begin{document}\nx\n"
                          "\\end{document}\n"})
    assert find_title(str(d), "main.tex") is None


PAPER = ("\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{X}\n\\title{%s}\n"
         "\\begin{document}\n\\maketitle\n\\input{fig}\n\\subfile{fig}\n"
         "\\end{document}\n" % T)


@pytest.mark.parametrize("other,name", [
    ("\\documentclass{standalone}\n\\begin{document}\nA figure\n\\end{document}\n", "fig.tex"),
    ("\\documentclass{article}\n\\begin{document}\nA figure\n\\end{document}\n", "fig.tex"),
    ("\\documentclass{article}\n\\title{%s}\n\\begin{document}\n\\end{document}\n" % T,
     "main-backup.tex"),
    ("\\documentclass{article}\n\\begin{document}\n\\end{document}\n", "~main.tex"),
    ("\\documentclass[main]{subfiles}\n\\begin{document}\n\\section{One}\n"
     "\\end{document}\n", "fig.tex"),
], ids=["standalone-figure", "included-by-main", "backup-copy", "editor-temp",
        "subfiles-chapter"])
def test_the_main_file_is_the_paper(tmp_path, other, name):
    d = _paper(tmp_path, {"main.tex": PAPER, name: other})
    assert find_main(str(d)) == "main.tex"
    assert find_main(str(d), paper=True) == "main.tex"


@pytest.mark.parametrize("other", [
    "\\documentclass{letter}\n\\begin{document}\n\\begin{letter}{Editor}Dear editor,"
    "\\end{letter}\n\\end{document}\n",
    "\\documentclass{article}\n\\title{Response to the reviewers}\n\\begin{document}\n"
    "\\maketitle\n\\end{document}\n",
], ids=["cover-letter", "rebuttal"])
def test_a_cover_letter_or_rebuttal_beside_the_paper(tmp_path, other):
    d = _paper(tmp_path, {"main.tex": PAPER, "aaa-letter.tex": other})
    # check: arXiv would compile both: the author names one
    with pytest.raises(UsageError) as e:
        find_main(str(d))
    assert "--main FILE" in e.value.message and "aaa-letter.tex, main.tex" in e.value.message
    # fetch looks for the paper: the one with \pithnumber
    assert find_main(str(d), paper=True) == "main.tex"
    assert find_main(str(d), "main.tex") == "main.tex"
