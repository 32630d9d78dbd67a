"""arXiv's HTML view: LaTeXML converts papers that use pith, with the badge linked.

Each paper is converted by Debian's ``latexmlc`` (a missing LaTeXML is a failure, never a
skip) in two ways: as arXiv does, reading the raw ``pith.sty`` beside the paper
(``--preload=[nobibtex,ids,localrawstyles]latexml.sty``), and with LaTeXML given
pith's binding ``latex/pith.sty.ltxml`` (``--path``).  The page must have no conversion
error, no undefined macro, no error box, and exactly one link to the Pith page whose
text shows ``pith:YYYY:NUM`` and the state in words, after the title; ``anonymous``
leaves no trace.  LaTeXML is slow (~3 s a paper): eight conversions in all.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import texrun
from texrun import NUM, README_INCLUDE, SIGNED_INCLUDE
from pith_tex.check.html import PRELOAD, URL_BASE, _Links, check_html

BINDING = texrun.LATEX_DIR / "pith.sty.ltxml"
EXAMPLE = texrun.ROOT / "examples" / "paper" / "main.tex"

CLASSES = {
    "article": r"\documentclass{article}",
    # Two columns, with its own LaTeXML binding, as many arXiv papers use.
    "ieeetran": r"\documentclass[conference]{IEEEtran}",
}


def latexmlc() -> str:
    path = shutil.which("latexmlc")
    if path is None:
        raise texrun.ToolMissing("latexmlc not found: install LaTeXML (apt-get install latexml, "
                                 "scripts/setup.sh) -- the HTML tests refuse to skip")
    return path


def paper(directory: Path, cls: str = "article", options: str = "",
          include: str | None = README_INCLUDE) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    opts = f"[{options}]" if options else ""
    (directory / "main.tex").write_text(
        f"{CLASSES[cls]}\n\\usepackage{opts}{{pith}}\n\\usepackage{{hyperref}}\n"
        f"\\pithnumber{{{NUM}}}\n\\title{{A Stand-in Paper}}\\author{{Ada Author}}\n"
        "\\begin{document}\n\\maketitle\n\\begin{abstract}What the paper says.\\end{abstract}\n"
        "\\section{Introduction}\nSome text.\n\\end{document}\n", encoding="ascii")
    shutil.copy(texrun.STY, directory / "pith.sty")
    if include is not None:
        (directory / "pith-number.tex").write_text(include, encoding="ascii")
    return directory


def convert(directory: Path, binding: bool) -> tuple[str, str]:
    """(LaTeXML's output, the HTML page) for main.tex, as arXiv runs it, optionally with
    pith's binding on LaTeXML's path (a binding found there wins over the raw style)."""
    out = directory / "html"
    cmd = [latexmlc(), PRELOAD, f"--dest={out / 'main.html'}", f"--log={out / 'log'}"]
    if binding:
        cmd.append(f"--path={BINDING.parent}")
    p = subprocess.run(cmd + ["main.tex"], cwd=directory, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=300)
    page = (out / "main.html").read_text(encoding="utf-8")
    # Which pith was used: the binding says so in LaTeXML's output.
    assert ("pith.sty.ltxml" in p.stdout) is binding, p.stdout[-3000:]
    return p.stdout, page


def assert_clean(output: str, page: str) -> None:
    assert "Conversion complete" in output, output[-3000:]
    assert not re.search(r"^(Error|Fatal):", output, re.M), output[-3000:]
    assert "undefined macro" not in output, output[-3000:]
    links = _Links()
    links.feed(page)
    assert links.errors == [], links.errors


def badge(page: str) -> str:
    """The text of the page's one badge, which links to the paper's Pith page and stands
    after the title block (title, authors, abstract), before the first section."""
    links = _Links()
    links.feed(page)
    assert len(links.links) == 1, links.links
    href, text = links.links[0]
    assert href == URL_BASE + NUM, href
    at = page.index(href)
    assert page.index("ltx_title_document") < at < page.index("<section"), page
    return text


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_example_paper(tmp_path: Path, binding: bool) -> None:
    d = tmp_path / "paper"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "main.tex")
    shutil.copy(texrun.STY, d / "pith.sty")
    (d / "pith-number.tex").write_text(README_INCLUDE, encoding="ascii")
    output, page = convert(d, binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:2025:{NUM}" in text and "checked" in text
    # The example uses the qr option: no image and no PDF code leak into the page.
    assert "pithqr" not in page and "\\pith" not in page


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_two_columns_signed(tmp_path: Path, binding: bool) -> None:
    output, page = convert(paper(tmp_path / "p", "ieeetran", include=SIGNED_INCLUDE), binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:2025:{NUM}" in text
    assert re.search(r"\bverified\b", text) and "checked" not in text


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_without_an_include_still_renders_unverified(tmp_path: Path, binding: bool) -> None:
    output, page = convert(paper(tmp_path / "p", include=None), binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:{NUM}" in text and "unverified" in text


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_anonymous_leaves_no_trace(tmp_path: Path, binding: bool) -> None:
    output, page = convert(paper(tmp_path / "p", options="anonymous,qr,size=small"),
                           binding)
    assert_clean(output, page)
    assert NUM not in page and NUM.lower() not in page
    assert "pith.science" not in page and "pith-badge" not in page


def test_check_html_reports_the_badge(tmp_path: Path) -> None:
    """The ``html`` check of ``pith-tex check``, as arXiv converts (raw style)."""
    d = paper(tmp_path / "p")
    c = check_html(str(d), "main.tex", NUM)
    assert (c.name, c.status) == ("html", "ok"), c
    assert f"pith:2025:{NUM}" in c.detail


def test_check_html_fails_without_the_latexml_path(tmp_path: Path) -> None:
    """A paper whose pith.sty is missing (as a PDF-only pith.sty was to LaTeXML): the
    conversion reports \\pithnumber undefined, and the check fails saying so."""
    d = paper(tmp_path / "p")
    (d / "pith.sty").unlink()
    c = check_html(str(d), "main.tex", NUM)
    assert c.status == "fail", c
    assert "\\pithnumber" in c.detail


def test_check_html_warns_without_latexml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = paper(tmp_path / "p")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    c = check_html(str(d), "main.tex", NUM)
    assert c.status == "warn" and "latexml" in c.detail.lower(), c


def test_check_html_warns_on_the_rest_of_the_paper(tmp_path: Path) -> None:
    """A LaTeX problem LaTeXML has with another part of the paper (here a macro it does not
    know) is named in a WARN: the badge still renders, and the PDF upload is not at stake."""
    d = paper(tmp_path / "p")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("Some text.", "Some \\notamacroanywhere text."))
    c = check_html(str(d), "main.tex", NUM)
    assert c.status == "warn", c
    assert "notamacroanywhere" in c.detail and f"pith:2025:{NUM}" in c.detail


def test_check_html_warns_on_the_authors_own_pith_named_macro(tmp_path: Path) -> None:
    """A problem that only contains the letters "pith" (the author's own undefined
    \\pithyremark, like a figure named pith-fit.pdf) is not pith's: a WARN naming it, not a
    FAIL.  Before, any LaTeXML message with "pith" in it failed the check."""
    d = paper(tmp_path / "p")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("Some text.", "Some \\pithyremark text."))
    c = check_html(str(d), "main.tex", NUM)
    assert c.status == "warn", c
    assert "pithyremark" in c.detail and f"pith:2025:{NUM}" in c.detail


def test_check_html_names_the_fatal_error_that_cut_the_page_short(tmp_path: Path) -> None:
    """A fatal LaTeXML error before the title (here LaTeXML 0.8.7 dies on a text inside
    \\lxWithClass in an \\mbox, the author's) leaves a page without the badge: the
    HTML view's problem, not the PDF's and not pith's: a WARN that says LaTeXML stopped,
    where and on what (issue 28: before, a FAIL)."""
    d = paper(tmp_path / "p")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\maketitle", "\\mbox{\\lxWithClass{a}{x}}\\maketitle"))
    line = main.read_text().split("\n").index("\\mbox{\\lxWithClass{a}{x}}\\maketitle") + 1
    c = check_html(str(d), "main.tex", NUM)
    assert c.status == "warn", c
    assert "LaTeXML stopped before it, on nothing of pith's: Fatal:" in c.detail, c
    assert "(at main.tex; line %d, in \\lxWithClass in \\mbox)" % line in c.detail, c


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_an_include_with_a_key_twice_is_not_used(tmp_path: Path, binding: bool) -> None:
    """A key given twice (here a second year) makes the record ambiguous: the PDF path
    refuses the include (include-duplicate-key), and the HTML view must not show a year
    or a state the PDF does not: the badge is the unverified one."""
    twice = README_INCLUDE.replace("  year = 2025,\n", "  year = 2025,\n  year = 2024,\n")
    assert twice != README_INCLUDE
    output, page = convert(paper(tmp_path / "p", include=twice), binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:{NUM}" in text and "unverified" in text
    assert "2024" not in text and "2025" not in text


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_without_hyperref(tmp_path: Path, binding: bool) -> None:
    """No hyperref: LaTeXML 0.8.7 links through its url binding's \\@@Url, 0.8.8 (whose url
    binding makes no links) through latexml.sty's \\URL. (amsart without hyperref, where
    \\URL is the AMS bibliography's, is in test_latex_html_acmart.py.)"""
    d = paper(tmp_path / "p")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage{hyperref}\n", ""))
    assert "hyperref" not in main.read_text()
    output, page = convert(d, binding)
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:2025:{NUM}" in text and "checked" in text


# Papers with no \maketitle on page 1: the PDF has the badge all the same (a title block
# built by hand in \twocolumn[...], ICML; else the corner stamp), so the HTML has it too,
# once: 'pith-tex check' requires exactly one badge in the page.
NO_MAKETITLE = {
    # ICML: the title block by hand in \twocolumn[...]; the badge right after it.
    "twocolumn-block": ("\\documentclass[twocolumn]{article}",
                        "\\twocolumn[\\centerline{Hand Title}\\centerline{Ada Author}]\n"),
    # A title page by hand (or none): the badge at the end of the page.
    "titlepage-by-hand": ("\\documentclass{article}",
                          "\\begin{titlepage}\\centering Hand Title\\par\\end{titlepage}\n"),
    # \maketitle twice (a class's cover page and title page): one badge.
    "maketitle-twice": ("\\documentclass{article}", "\\maketitle\n\\maketitle\n"),
}


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("kind", list(NO_MAKETITLE))
def test_title_without_maketitle_has_one_badge(tmp_path: Path, binding: bool,
                                               kind: str) -> None:
    cls, front = NO_MAKETITLE[kind]
    d = tmp_path / "p"
    d.mkdir()
    (d / "main.tex").write_text(
        f"{cls}\n\\usepackage{{pith}}\n\\usepackage{{hyperref}}\n\\pithnumber{{{NUM}}}\n"
        "\\title{Hand Title}\\author{Ada Author}\n\\begin{document}\n" + front
        + "\\section{Introduction}\nBody text.\n\\end{document}\n", encoding="ascii")
    shutil.copy(texrun.STY, d / "pith.sty")
    (d / "pith-number.tex").write_text(README_INCLUDE, encoding="ascii")
    output, page = convert(d, binding)
    assert_clean(output, page)
    links = _Links()
    links.feed(page)
    assert [h for h, _ in links.links] == [URL_BASE + NUM], links.links
    assert f"pith:2025:{NUM}" in links.links[0][1]
    at, section = page.index(URL_BASE + NUM), page.index("<section")
    if kind == "titlepage-by-hand":
        assert at > page.index("Body text"), "the end of the page"
    else:
        assert at < section, "after the title block, before the first section"
    # And 'pith-tex check' reads it so.
    assert check_html(str(d), "main.tex", NUM).status == "ok"


# A package that never ends under LaTeXML (a \loop with no way out; LaTeXML stops a
# macro that expands into itself, not this).
ENDLESS = "\\ProvidesPackage{%s}\n\\newcount\\endlessc\n\\loop\\advance\\endlessc by 1 \\ifnum\\endlessc>0 \\repeat\n"


def test_check_html_warns_when_another_package_outlasts_the_budget(tmp_path: Path) -> None:
    """LaTeXML still inside another package of the paper at the time budget (Debian 12's
    LaTeXML 0.8.7 spends about ten minutes in expl3-code.tex for lipsum or siunitx): the
    badge was not tried, and that is the rest of the paper's doing: a WARN naming the
    package, so `check` still says ready and writes the tarball.  Before, a FAIL: every
    such paper was 'not ready for arXiv' and got no upload.tar.gz."""
    d = paper(tmp_path / "p")
    (d / "slowpkg.sty").write_text(ENDLESS % "slowpkg", encoding="ascii")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage{hyperref}",
                                             "\\usepackage{hyperref}\\usepackage{slowpkg}"))
    c = check_html(str(d), "main.tex", NUM, timeout=20)
    assert c.status == "warn", c
    assert "did not finish within 20 s" in c.detail and "slowpkg.sty" in c.detail, c


def test_check_html_fails_when_pith_outlasts_the_budget(tmp_path: Path) -> None:
    """The same endless loop inside pith.sty is pith's: a FAIL that says where."""
    d = paper(tmp_path / "p")
    (d / "pith.sty").write_text(ENDLESS % "pith", encoding="ascii")
    c = check_html(str(d), "main.tex", NUM, timeout=20)
    assert c.status == "fail", c
    assert "did not finish within 20 s" in c.detail and "pith.sty" in c.detail, c


def _children(pid: int) -> list[int]:
    """The processes whose parent is *pid* (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_ctrl_c_during_the_html_check_stops_latexml(tmp_path: Path) -> None:
    """Ctrl-C while LaTeXML converts (check shows nothing for up to 180 s there, so authors
    press it): LaTeXML runs in its own session, out of the terminal's reach, so check must
    stop it itself.  Before, pith-tex said "interrupted" and LaTeXML ran on, orphaned."""
    import signal

    d = paper(tmp_path / "p")
    (d / "slowpkg.sty").write_text(ENDLESS % "slowpkg", encoding="ascii")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage{hyperref}",
                                             "\\usepackage{hyperref}\\usepackage{slowpkg}"))
    seen: list[int] = []
    # children this process had already (verify's warm engine child, started by an
    # earlier test in the same worker) are not check's
    before = set(_children(os.getpid()))

    def interrupt(signum: int, frame: object) -> None:
        seen.extend(p for p in _children(os.getpid()) if p not in before)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.alarm(10)
    try:
        with pytest.raises(KeyboardInterrupt):
            check_html(str(d), "main.tex", NUM, timeout=600)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert seen, "LaTeXML was not running when the interrupt came"
    left = [p for p in seen if _running(p)]
    for p in left:  # not to leave it looping after a failure
        os.killpg(p, signal.SIGKILL)
    assert left == [], "LaTeXML still runs after Ctrl-C"


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("placement", ["corner", "margin"])
def test_corner_and_margin_placements_get_the_badge_after_the_title(
        tmp_path: Path, binding: bool, placement: str) -> None:
    # An HTML page has no corner and no margin: the badge goes where the title badge
    # goes (issue 21: placement=corner papers had no badge in arXiv's HTML view, and
    # 'pith-tex check' failed them).
    d = paper(tmp_path / "paper", options="placement=%s" % placement)
    output, page = convert(d, binding)
    assert_clean(output, page)
    assert f"pith:2025:{NUM}" in badge(page)


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
def test_manual_placement_gets_only_the_authors_badge(tmp_path: Path, binding: bool) -> None:
    d = paper(tmp_path / "paper", options="placement=manual")
    main = d / "main.tex"
    main.write_text(main.read_text().replace("Some text.", "Some text. \\pithbadge"))
    output, page = convert(d, binding)
    links = _Links()
    links.feed(page)
    assert len(links.links) == 1, links.links


# LIPIcs' mechanism (written here, not copied): a class LaTeXML has no binding for, in
# the upload, that takes the option anonymous and \LoadClass'es article with options of
# its own. LaTeXML stands OmniBus in for it and loads article with those options, so
# \@classoptionslist no longer holds anonymous (the number showed in the HTML view of a
# review copy); OmniBus keeps the paper's options in \opt@OmniBus.cls.
STAND_IN_CLASS = (r"\NeedsTeXFormat{LaTeX2e}\ProvidesClass{lipstand}"
                  r"\DeclareOption{anonymous}{\let\authoranonymous\relax}"
                  r"\DeclareOption*{\PassOptionsToClass{\CurrentOption}{article}}"
                  "\\ProcessOptions\n\\LoadClass[twoside,notitlepage,fleqn]{article}\n")


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("options,links", [("a4paper,UKenglish, anonymous", 0),
                                           ("a4paper,UKenglish", 1)])
def test_anonymous_class_option_of_a_class_latexml_stands_in_for(
        tmp_path: Path, binding: bool, options: str, links: int) -> None:
    d = paper(tmp_path / "paper")
    (d / "lipstand.cls").write_text(STAND_IN_CLASS, encoding="ascii")
    main = d / "main.tex"
    main.write_text(main.read_text().replace(CLASSES["article"],
                                             "\\documentclass[%s]{lipstand}" % options))
    output, page = convert(d, binding)
    found = _Links()
    found.feed(page)
    assert len(found.links) == links, (found.links, output[-2000:])
    assert (NUM in page) is bool(links)
