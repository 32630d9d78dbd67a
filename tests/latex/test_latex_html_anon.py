"""arXiv's HTML view of a paper in a venue's review mode: no badge, no number, as in its PDF.

pith.sty turns ``anonymous`` on by itself where a venue's review switch can be read
(``\\__pith_anon_venue:``, tests/latex/test_latex_badge.py).  LaTeXML reads pith.sty's
LaTeXML path (or the binding ``latex/pith.sty.ltxml``), which must decide the same way at
the same moment.  The venues are the stand-ins of test_latex_badge.py (their switch, named
as in the real files), converted with ``latexmlc`` as arXiv runs it, both ways
(test_latex_html.convert).  LaTeXML 0.8.7 has bindings of its own for ``neurips_YYYY`` and
``icmlYYYY`` (a year in the name falls back to them) that define no switch, so those two
also test the decision from the package options; ``aclbind`` is a small binding of that
kind written here (LaTeXML 0.8.8's acl.sty.ltxml: options, no switch).

``pith-tex check`` decides anonymity from the PDF's compile log; its html step must then
find the page free of the number (and the badge in final mode).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM, README_INCLUDE
from test_latex_badge import GENERIC, venue_fields, venue_package
from test_latex_html import EXAMPLE, assert_clean, badge, convert

MIRROR = texrun.ROOT / "examples" / "mirror"

DOC = r"""\documentclass%(clsopt)s{%(cls)s}
%(pkg)s
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%(num)s}
\title{A Stand-in Paper%(titlebadge)s}\author{Ada Author}
%(front)s
\begin{document}
\maketitle
\begin{abstract}What the paper says.\end{abstract}
\section{Introduction}
Some text.
\end{document}
"""

ACMART_FRONT = (r"\settopmatter{printacmref=false}\setcopyright{none}"
                r"\affiliation{\institution{X}\country{Y}}")

# LaTeXML 0.8.8's acl.sty.ltxml mechanism (written here, not copied): the options are
# declared and do nothing, \aclfinalcopy is a no-op, no \ifacl@finalcopy.  A binding
# beside the paper wins over everything, as LaTeXML's own would over the raw acl.sty.
ACL_BINDING = """package LaTeXML::Package::Pool;
use strict;
use warnings;
use LaTeXML::Package;
foreach my $option (qw(final review preprint)) { DeclareOption($option, undef); }
ProcessOptions();
DefMacro('\\\\aclfinalcopy', '');
1;
"""


def write_paper(d: Path, venue: str, opt: str, after: str = "",
                title_badge: bool = False) -> Path:
    """main.tex using the venue's stand-in in mode *opt*, pith.sty and the include."""
    d.mkdir(parents=True, exist_ok=True)
    fields = {"clsopt": "", "cls": "article", "front": "", "num": NUM,
              "titlebadge": r" \pithbadge" if title_badge else ""}
    if venue == "acmart":
        fields.update(clsopt=f"[{opt}]", cls="acmart", pkg=after, front=ACMART_FRONT)
    elif venue == "aclbind":
        (d / "acl.sty.ltxml").write_text(ACL_BINDING, encoding="ascii")
        fields["pkg"] = (rf"\usepackage[{opt}]{{acl}}" if opt else r"\usepackage{acl}") + after
    elif venue == "otherjournal":  # opt: whose generic switch names it uses, false
        (d / "otherjournal.sty").write_text(
            r"\ProvidesPackage{otherjournal}" + GENERIC[opt or "tmlr"] + "\n",
            encoding="ascii")
        fields["pkg"] = r"\usepackage{otherjournal}"
    else:
        fields.update(venue_fields(d, venue, opt, after))
    (d / "main.tex").write_text(DOC % fields, encoding="ascii")
    (d / "pith.sty").write_bytes(texrun.STY.read_bytes())
    (d / "pith-number.tex").write_text(README_INCLUDE, encoding="ascii")
    return d


def assert_no_number(page: str) -> None:
    assert NUM not in page and NUM.lower() not in page, "the number is in the page"
    assert "pith.science" not in page and "pith-badge" not in page, "a badge is in the page"


# Review modes, one per switch kind: (venue, package or class option, preamble after it).
REVIEW = [
    ("neurips", "", ""),          # \newif set by an option; LaTeXML binds neurips_YYYY
    ("icml", "", ""),             # \newif set by an option; LaTeXML binds icmlYYYY
    ("icml-2025", "", ""),        # no switch: accepted defines \isaccepted
    ("iclr", "", ""),             # \newif false until \iclrfinalcopy
    ("acl", "review", ""),        # \newif set by an option, raw style
    ("acl-2020", "", ""),         # \newif false until \aclfinalcopy
    ("aclbind", "review", ""),    # a LaTeXML binding with options and no switch
    ("cvpr", "review", ""),       # \newif true, option review
    ("cvpr-2025", "review", ""),  # an etoolbox toggle (\newtoggle{cvprfinal}), option review
    ("eccv", "review", ""),       # \newif true in review
    ("wacv", "", ""),             # \newif false until \wacvfinalcopy
    ("colm-2024", "", ""),
    ("colm-2025", "", ""),        # submission by default, asked after final and preprint
    ("tmlr", "", ""),             # \if@accepted, read only with tmlr.sty loaded
    ("aaai", "submission", ""),   # a package option, no switch
    ("uai", "", ""),              # a class; kvoptions bool false until accepted
    ("colt", "anon", ""),         # a class; \newif true with the option anon
    ("aistats", "", ""),          # \statePaper 0, read only with \aistatstitle
    ("corl", "", ""),             # \newif false, read only with corl_YYYY loaded
    ("elsarticle", "doubleblind", ""),  # a class; its option doubleblind (LaTeXML: OmniBus)
    ("ecai", "doubleblind", ""),  # a class; its option doubleblind (LaTeXML: OmniBus)
    ("apa7", "man,mask", ""),     # a class; its option mask (LaTeXML: OmniBus)
    ("apa7", "man, % the mode\n  mask", ""),  # the options over two lines, a comment
    ("interspeech", "", ""),      # a class; no \interspeechcameraready (LaTeXML: OmniBus)
    ("interspeech-2026", "", ""),  # a class; no option cameraready (LaTeXML: OmniBus)
    ("acmart", "sigconf,anonymous", ""),  # a class option: pith's key, global
    # \iclrfinalcopy in \AtBeginDocument: too late for the PDF (begindocument/before).
    ("iclr", "", r"\AtBeginDocument{\iclrfinalcopy}"),
]
REVIEW_IDS = [f"{v}-{o or 'default'}{'-late' if a else ''}" for v, o, a in REVIEW]


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("venue,opt,after", REVIEW, ids=REVIEW_IDS)
def test_review_mode_html_has_no_badge(tmp_path: Path, venue: str, opt: str, after: str,
                                       binding: bool) -> None:
    # A \pithbadge in the title too: LaTeXML digests \title in the preamble, before the
    # end-of-preamble decision.
    d = write_paper(tmp_path / "p", venue, opt, after, title_badge=True)
    output, page = convert(d, binding)
    assert "Conversion complete" in output, output[-3000:]
    if venue == "aclbind":
        assert "acl.sty.ltxml" in output, output[-3000:]
    assert "undefined macro" not in output, output[-3000:]
    assert_no_number(page)


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("later", [r"\pithsetup{anonymous}",
                                   "\\usepackage[review]{cvpr}"], ids=["option", "venue"])
def test_title_badge_before_the_review_mode_is_decided(tmp_path: Path, binding: bool,
                                                       later: str) -> None:
    """\\pithbadge in \\title, then the anonymous option (or the venue's review mode):
    LaTeXML digests the title in the preamble, before the mode is known.  The PDF has no
    badge; the HTML used to show the number in its title."""
    d = write_paper(tmp_path / "p", "cvpr", "", title_badge=True)
    main = d / "main.tex"
    src = main.read_text(encoding="ascii").replace("\\usepackage{cvpr}\n", "")
    main.write_text(src.replace("\\author{Ada Author}\n", "\\author{Ada Author}\n" + later
                                + "\n"), encoding="ascii")
    (tmp_path / "pdf").mkdir()
    (tmp_path / "pdf" / "cvpr.sty").write_bytes((d / "cvpr.sty").read_bytes())
    b = texrun.compile_tex(tmp_path / "pdf", main.read_text(encoding="ascii"), "pdflatex",
                           include=README_INCLUDE)
    assert b.ok and "Package pith Info: Anonymous" in b.log, b.describe()
    assert NUM not in texrun.text(b.pdf)
    output, page = convert(d, binding)
    assert "Conversion complete" in output, output[-3000:]
    assert_no_number(page)


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_title_badge_in_a_final_copy_keeps_the_badge_after_the_title(
        tmp_path: Path, binding: bool) -> None:
    d = write_paper(tmp_path / "p", "cvpr", "", title_badge=True)
    output, page = convert(d, binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:2025:{NUM}" in text


# Final modes (the authors printed): the badge, once, linked.
FINAL = [
    ("neurips", "final", ""),
    ("neurips", "preprint", ""),
    ("icml", "accepted", ""),
    ("icml-2025", "accepted", ""),
    ("iclr", "", r"\iclrfinalcopy"),
    ("acl-2020", "", r"\aclfinalcopy"),
    ("aclbind", "", ""),
    ("cvpr", "", ""),
    ("cvpr-2025", "", ""),
    ("eccv", "final", ""),
    ("wacv", "", r"\wacvfinalcopy"),
    ("colm-2025", "preprint", ""),
    ("tmlr", "accepted", ""),
    ("aaai", "", ""),
    ("uai", "accepted", ""),
    ("colt", "", ""),
    ("aistats", "accepted", ""),
    ("aistats", "preprint", ""),
    ("corl", "final", ""),
    ("corl", "preprint", ""),
    ("apa7", "man", ""),
    ("otherjournal", "", ""),         # \if@accepted false, but no tmlr.sty: not a review mode
    ("otherjournal", "corl", ""),     # \if@conferencefinal false, no corl_YYYY
    ("otherjournal", "aistats", ""),  # \statePaper 0, no \aistatstitle
]
FINAL_IDS = [f"{v}-{o or a.strip(chr(92)) or 'default'}" for v, o, a in FINAL]


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("venue,opt,after", FINAL, ids=FINAL_IDS)
def test_final_mode_html_keeps_the_badge(tmp_path: Path, venue: str, opt: str, after: str,
                                         binding: bool) -> None:
    d = write_paper(tmp_path / "p", venue, opt, after)
    output, page = convert(d, binding)
    assert_clean(output, page)
    if venue == "aclbind":
        assert "acl.sty.ltxml" in output, output[-3000:]
    text = badge(page)
    assert f"pith:2025:{NUM}" in text


# Interspeech's class is not read raw (LaTeXML: OmniBus), so its switch cannot be read:
# the paper's own lines say a camera-ready copy (its \interspeechcameraready, the 2026
# class's option cameraready); the template's review copy has the line commented out.
# LaTeXML reports the class's own command undefined, with or without pith.
INTERSPEECH = [
    ("interspeech", "", r"\interspeechcameraready", True),
    ("interspeech", "", r"  \interspeechcameraready % camera-ready", True),
    ("interspeech", "", r"% \interspeechcameraready", False),
    ("interspeech", "", r"\newcommand\x{100\%} % \interspeechcameraready", False),
    ("interspeech-2026", "cameraready", "", True),
]


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("venue,opt,after,final", INTERSPEECH,
                         ids=["camera-ready", "indented", "commented", "after-a-percent",
                              "2026-option"])
def test_interspeech_camera_ready_is_read_from_the_paper(
        tmp_path: Path, venue: str, opt: str, after: str, final: bool, binding: bool) -> None:
    d = write_paper(tmp_path / "p", venue, opt, after)
    output, page = convert(d, binding)
    assert "Conversion complete" in output, output[-3000:]
    if final:
        assert f"pith:2025:{NUM}" in badge(page)
    else:
        assert_no_number(page)


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_acmart_class_option_false_keeps_the_badge(tmp_path: Path, binding: bool) -> None:
    """``anonymous=false`` among acmart's class options is pith's key set false."""
    d = write_paper(tmp_path / "p", "acmart", "sigconf,anonymous=false")
    output, page = convert(d, binding)
    assert_clean(output, page)
    badge(page)  # the one badge, linked to the paper's page


# -- pith-tex check: the html step follows the PDF's decision --------------------------

def pith_tex_check(d: Path) -> dict:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "check", str(d), "--json"],
                       capture_output=True, text=True, timeout=900)
    doc = json.loads(r.stdout)
    return {c["name"]: (c["status"], c["detail"]) for c in doc["checks"]}


def example_in(d: Path, venue: str, opt: str, after: str = "") -> Path:
    """The example paper with the venue's stand-in loaded before pith, and the include
    pith-tex fetch writes from the recorded resolver answer."""
    d.mkdir(parents=True)
    main = EXAMPLE.read_text(encoding="utf-8")
    pkg = venue_package(d, venue, opt) + after
    assert "\\usepackage[qr]{pith}" in main
    (d / "main.tex").write_text(main.replace("\\usepackage[qr]{pith}",
                                             pkg + "\n\\usepackage[qr]{pith}"),
                                encoding="utf-8")
    (d / "pith.sty").write_bytes(texrun.STY.read_bytes())
    r = subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "--offline", "--resolver",
                        str(MIRROR), NUM, "-o", str(d / "pith-number.tex")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return d


@pytest.mark.parametrize("venue,opt", [("neurips", ""), ("iclr", "")])
def test_check_review_mode_html_is_anonymous(tmp_path: Path, venue: str, opt: str) -> None:
    """The PDF compile is anonymous (its log line); the html step then wants a page
    without the number, and gets one.  Before, it failed: the HTML showed the badge."""
    checks = pith_tex_check(example_in(tmp_path / "p", venue, opt))
    assert checks["include"][0] == "warn" and "anonymous (" in checks["include"][1], checks
    assert checks["pdf"][0] == "ok", checks
    assert checks["html"] == ("ok", checks["html"][1]) and "anonymous" in checks["html"][1], \
        checks["html"]


def test_check_final_mode_html_shows_the_badge(tmp_path: Path) -> None:
    checks = pith_tex_check(example_in(tmp_path / "p", "neurips", "final"))
    assert checks["include"][0] == "ok", checks
    assert checks["html"][0] == "ok", checks["html"]
    assert f"pith:2025:{NUM}" in checks["html"][1], checks["html"]
