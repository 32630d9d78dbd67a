"""``pith-tex check DIR``: real directories, the real ``pith-tex fetch``, real TeX.

Every paper is built in tmp_path from the example (examples/paper/main.tex), the
repository's latex/pith.sty and an include written by running ``pith-tex fetch`` against a
mirror on disk.  Every case asserts the exit code *and* which check has which status (from
``--json``).  TeX is required: a missing program is an error, never a skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import recorded
from texbuild import STY, tool

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "paper" / "main.tex"
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"  # the example paper's number (its mirror's one record)


def pith_tex(*args: Any, cwd: Path | None = None,
             env: Dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pith_tex", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env)


def fetch(d: Path, number: str = N, mirror: Path = MIRROR, out: str = "pith-number.tex") -> None:
    r = pith_tex("fetch", "--offline", "--resolver", mirror, number, "-o", d / out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (d / out).exists()


def check(d: Path, *args: Any) -> Tuple[int, Dict[str, Any], str]:
    """Run ``pith-tex check D --json ...``: (exit code, JSON object, stderr)."""
    r = pith_tex("check", d, "--json", *args)
    doc = json.loads(r.stdout)
    assert doc["command"] == "check" and doc["exit_code"] == r.returncode, r.stdout
    return r.returncode, doc, r.stderr


def statuses(doc: Dict[str, Any]) -> Dict[str, str]:
    return {c["name"]: c["status"] for c in doc["checks"]}


def detail(doc: Dict[str, Any], name: str) -> str:
    (found,) = [c["detail"] for c in doc["checks"] if c["name"] == name]
    return str(found)


NAMES: List[str] = ["main", "pith.sty", "shell-escape", "files", "paths", "compile", "include",
                    "number", "title", "citations", "pdf", "html", "upload"]


@pytest.fixture(scope="session")
def tex() -> None:
    for name in ("pdflatex", "xelatex", "latex", "dvips", "ps2pdf"):
        tool(name)  # raises: the compile checks cannot be tested without TeX


def example_paper(tmp_path: Path) -> Path:
    """A paper ready for arXiv: main.tex, pith.sty, and the include fetch wrote."""
    d = tmp_path / "paper"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "main.tex")
    shutil.copy(STY, d / "pith.sty")
    fetch(d)
    return d


@pytest.fixture
def paper(tmp_path: Path, tex: None) -> Path:
    return example_paper(tmp_path)


def add_to_preamble(d: Path, text: str) -> int:
    """Insert *text* as a line before ``\\begin{document}``; returns its line number."""
    lines = (d / "main.tex").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("\\begin{document}"))
    lines.insert(at, text + "\n")
    (d / "main.tex").write_text("".join(lines), encoding="utf-8")
    return at + 1


def assert_ready(code: int, doc: Dict[str, Any]) -> None:
    assert code == 0, doc
    assert [c["name"] for c in doc["checks"]] == NAMES
    assert set(statuses(doc).values()) == {"ok"}, doc
    assert doc["verdict"] == "ready" and doc["error"] is None


# -- good papers, each route ---------------------------------------------------------------

def test_good_paper_pdflatex(paper: Path) -> None:
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert doc["main"] == "main.tex" and doc["route"] == "pdflatex"
    assert N in detail(doc, "include") and N in detail(doc, "number")
    assert detail(doc, "compile").startswith("pdflatex")
    assert doc["pdf"]["number"] == N and N in detail(doc, "pdf")
    # the author's directory is not touched: the compile ran in a copy
    assert sorted(os.listdir(paper)) == ["main.tex", "pith-number.tex", "pith.sty"]


def test_compile_names_the_tex_live_it_compiled_with(paper: Path) -> None:
    # "compiles with no error" was proved on this machine's TeX, not arXiv's (2023, 2025):
    # the line says which, so "ready for arXiv" is not read as more than was checked.
    banner = subprocess.run([tool("pdflatex"), "--version"], capture_output=True,
                            text=True).stdout
    year = re.search(r"TeX Live (\d{4})", banner)
    assert year is not None, banner
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert detail(doc, "compile").endswith(", with this machine's TeX Live %s" % year.group(1))


@pytest.mark.parametrize("usepackage", ["\\usepackage{pith}", "\\usepackage[qr=false]{pith}"])
def test_no_qr_option_no_qr_warning(paper: Path, usepackage: str) -> None:
    # A paper without the qr option has no QR code, as it should: check must not warn
    # about it on every run (the author can do nothing about it), while the PDF that
    # verify reads still says it has none.
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage[qr]{pith}", usepackage))
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert "QR" not in detail(doc, "pdf")


def test_anonymous_paper_is_ready_with_a_warning(paper: Path) -> None:
    # Double-blind review: pith.sty reads no include and writes nothing of the number, by
    # design.  check says so (a WARN naming the way back to the badge) instead of failing
    # with "the compile read no include" and "the PDF carries no Pith metadata".
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage[qr]{pith}",
                                             "\\usepackage[qr,anonymous]{pith}"))
    code, doc, _ = check(paper)
    st = statuses(doc)
    assert code == 0 and doc["verdict"] == "ready", doc
    assert st["include"] == "warn" and "anonymous (option anonymous)" in detail(doc, "include")
    assert "pith-number.tex verifies" in detail(doc, "include")
    assert st["pdf"] == "ok" and st["html"] == "ok", doc
    assert "no Pith metadata" in detail(doc, "pdf")
    assert "pith-number.tex" not in doc["upload"]  # the compile did not read it
    # ... but main.tex, in the upload, names the number: said, with the way out.
    assert st["number"] == "warn" and "not anonymous" in detail(doc, "number"), doc
    assert N in (paper / "main.tex").read_text() and "main.tex" in doc["upload"]


def test_anonymous_paper_that_names_its_number_in_the_text_is_not_ready(paper: Path) -> None:
    # An anonymous paper whose sources give \\pithnumber (the usual case) and whose text
    # also prints the number (a footnote the author forgot): check knows the number from
    # the include and must find it on the page, not say "the number is not known".
    main = paper / "main.tex"
    src = main.read_text().replace("\\usepackage[qr]{pith}", "\\usepackage[anonymous]{pith}")
    main.write_text(src.replace("\\section{Introduction}",
                                "Pith Number: pith:2025:%s.\n\n\\section{Introduction}" % N))
    code, doc, _ = check(paper)
    assert code == 1 and doc["verdict"] != "ready", doc
    assert statuses(doc)["pdf"] == "fail" and "shows the Pith Number" in detail(doc, "pdf"), doc


def test_anonymous_paper_that_does_not_show_its_number_says_it_was_searched(paper: Path) -> None:
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage[qr]{pith}",
                                             "\\usepackage[anonymous]{pith}"))
    code, doc, _ = check(paper)
    assert code == 0, doc
    assert "does not show the number" in detail(doc, "pdf"), doc


def test_anonymous_paper_without_pithnumber_has_no_number_in_its_sources(paper: Path) -> None:
    main = paper / "main.tex"
    src = main.read_text().replace("\\usepackage[qr]{pith}", "\\usepackage[qr,anonymous]{pith}")
    main.write_text(re.sub(r"\\pithnumber\{[^}]*\}\n", "", src))
    code, doc, _ = check(paper)
    assert code == 0 and doc["verdict"] == "ready", doc
    assert statuses(doc)["number"] == "ok", doc
    assert N not in main.read_text()


def test_review_option_pith_does_not_know_is_warned(paper: Path) -> None:
    # A venue pith.sty does not read: its review copy gets the badge, which names the
    # authors.  check cannot know it is one, but it can say what it saw.
    (paper / "someconf.sty").write_text("\\ProvidesPackage{someconf}\\DeclareOption{review}{}"
                                        "\\ProcessOptions\\relax\n", encoding="ascii")
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage[qr]{pith}",
                                             "\\usepackage[review]{someconf}\n"
                                             "\\usepackage[qr]{pith}"))
    code, doc, _ = check(paper)
    assert code == 0 and doc["verdict"] == "ready", doc
    assert statuses(doc)["pdf"] == "warn", doc
    assert "someconf with the option review" in detail(doc, "pdf")
    assert "\\usepackage[anonymous]{pith}" in detail(doc, "pdf")


@pytest.mark.parametrize("line,seen", [
    ("\\usepackage[anon]{someconf}", True),         # COLT's option, in a style not read
    ("\\usepackage[ anon ,x]{someconf}", True),
    ("\\usepackage[anonx]{someconf}", False),
    ("% \\usepackage[anon]{someconf}", False),
    ("\\usepackage[anon]{pith}", False),
])
def test_review_hint_knows_colts_anon_option(line: str, seen: bool) -> None:
    from pith_tex.check.pdfcheck import review_mode_hint
    hint = review_mode_hint("\\documentclass{article}\n" + line + "\n")
    assert (hint is not None) is seen, hint
    if seen:
        assert hint is not None and hint.startswith("someconf with the option anon")


def test_relative_dir(paper: Path) -> None:
    # "pith-tex check paper" from the directory above: every check reads the paper's
    # files, none the same path joined twice (the title check read paper/paper/...).
    r = pith_tex("check", "--json", paper.name, cwd=paper.parent)
    doc = json.loads(r.stdout)
    assert_ready(r.returncode, doc)
    assert detail(doc, "title").startswith("same: page 1's title is the record's title")


@pytest.mark.parametrize("target", ["main.tex", "pith-number.tex", "notes.txt"])
def test_tarball_onto_a_file_that_is_not_one_is_refused(paper: Path, target: str) -> None:
    # "--tarball main.tex" (a slip of the keyboard) replaced the paper with a tarball.
    if target == "notes.txt":
        (paper / target).write_text("my notes\n")
    before = (paper / target).read_bytes()
    r = pith_tex("check", "--tarball", paper / target, cwd=paper)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "is not a .tar.gz: refusing to overwrite it" in r.stderr
    assert (paper / target).read_bytes() == before
    if target != "main.tex":
        return
    # an earlier upload is replaced, as before
    tarball = paper.parent / "upload.tar.gz"
    for _ in range(2):
        r = pith_tex("check", "--tarball", tarball, cwd=paper)
        assert r.returncode == 0, r.stdout + r.stderr
        with tarfile.open(tarball) as tar:
            assert "main.tex" in tar.getnames()


def test_a_failed_check_says_the_tarball_there_is_an_earlier_one(paper: Path) -> None:
    # Ready, upload.tar.gz written; then the paper breaks and check fails: the old
    # upload.tar.gz is still there (left untouched), and "upload.tar.gz was not written"
    # alone let an author upload it as this version.  The error now says what it is.
    tarball = paper.parent / "upload.tar.gz"
    r = pith_tex("check", "--tarball", tarball, cwd=paper)
    assert r.returncode == 0, r.stdout + r.stderr
    before = tarball.read_bytes()
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\end{document}",
                                             "See \\ref{nolabel}.\n\\end{document}"))
    r = pith_tex("check", "--tarball", tarball, cwd=paper)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "upload.tar.gz was not written, and the " in r.stderr, r.stderr
    assert "is from an earlier run, not from this version of the paper: do not upload it" \
        in r.stderr, r.stderr
    assert tarball.read_bytes() == before
    # With no earlier tarball, the error says only that none was written.
    tarball.unlink()
    r = pith_tex("check", "--tarball", tarball, cwd=paper)
    assert r.returncode == 1 and "earlier run" not in r.stderr, r.stderr
    assert "upload.tar.gz was not written" in r.stderr and not tarball.exists()


def test_pdf_figure_html_view(paper: Path) -> None:
    # A PDF figure: LaTeXML converts it with ImageMagick, which Debian and Ubuntu forbid
    # to read PDF by default.  Then the html line must say it is this machine's setting,
    # not the paper's fault; where PDF may be read, the line is OK.
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_blank_page(width=72, height=72)
    with open(paper / "figure.pdf", "wb") as f:
        w.write(f)
    add_to_preamble(paper, "\\usepackage{graphicx}")
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\end{document}",
                                             "\\includegraphics{figure}\n\\end{document}"))
    code, doc, _ = check(paper, "--html", "full")  # the figure is after the title block
    assert code == 0 and "figure.pdf" in doc["upload"], doc
    html = detail(doc, "html")
    if "security policy" in html:
        assert statuses(doc)["html"] == "warn"
        assert "ImageMagick security policy" in html and "not a fault of the paper" in html
    else:
        assert statuses(doc)["html"] == "ok", html


def test_good_paper_text_output(paper: Path) -> None:
    r = pith_tex("check", cwd=paper)  # DIR defaults to .
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert [ln[:19].split() for ln in lines[:-1]] == [["OK", n] for n in NAMES]
    assert lines[-1].startswith("ready for arXiv (pdflatex)")
    # Piped, stderr has the progress lines only (issue 21): each step, with the time.
    assert r.stderr and all(ln.startswith("... ") for ln in r.stderr.splitlines()), r.stderr


def test_good_paper_dvips(paper: Path) -> None:
    code, doc, _ = check(paper, "--route", "dvips")
    assert_ready(code, doc)
    assert "dvips -R2 -q -z" in detail(doc, "compile") and "ps2pdf" in detail(doc, "compile")


def test_good_paper_xelatex(paper: Path) -> None:
    code, doc, _ = check(paper, "--route", "xelatex")
    assert_ready(code, doc)
    assert detail(doc, "compile").startswith("xelatex")


# -- pith.sty ------------------------------------------------------------------------------

def test_missing_sty_then_fix(paper: Path) -> None:
    os.unlink(paper / "pith.sty")
    code, doc, err = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["pith.sty"] == "fail" and "--fix" in detail(doc, "pith.sty")
    assert st["compile"] == "error" and "pith.sty" in detail(doc, "compile")
    assert not (paper / "pith.sty").exists()
    assert err.startswith("error: not ready for arXiv: pith.sty:")

    code, doc, _ = check(paper, "--fix")
    assert (paper / "pith.sty").read_bytes() == STY.read_bytes()
    assert doc["fixed"] and doc["fixed"][0].startswith("copied the pith.sty")
    assert statuses(doc)["pith.sty"] == "ok" and "--fix copied" in detail(doc, "pith.sty")
    assert_ready(code, doc)

    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert doc["fixed"] == []


def test_modified_sty_warns_then_fix(paper: Path) -> None:
    with open(paper / "pith.sty", "ab") as f:
        f.write(b"% a local change\n")
    code, doc, _ = check(paper)
    assert statuses(doc)["pith.sty"] == "warn", doc
    assert "differs from" in detail(doc, "pith.sty")
    assert code == 0, doc  # a warning is allowed
    code, doc, _ = check(paper, "--fix")
    assert (paper / "pith.sty").read_bytes() == STY.read_bytes()
    assert doc["fixed"][0].startswith("replaced pith.sty")
    assert_ready(code, doc)


def test_older_sty_is_named_older(paper: Path) -> None:
    text = STY.read_text(encoding="utf-8")
    old = text.replace("\\ProvidesExplPackage{pith}{",
                       "\\ProvidesExplPackage{pith}{2000-01-01}{0.1}% was {", 1)
    assert old != text
    (paper / "pith.sty").write_text(old, encoding="utf-8")
    code, doc, _ = check(paper)
    assert statuses(doc)["pith.sty"] == "warn"
    assert "pith.sty 0.1 (2000-01-01) is older than" in detail(doc, "pith.sty")


def test_shipped_sty_is_the_repository_file() -> None:
    """One source of truth: the package's pith.sty has latex/pith.sty's bytes (in a checkout
    a symlink to it; in an unpacked sdist, which has no symlinks, a copy)."""
    from pith_tex.check import shipped_sty

    data = Path(shipped_sty())
    assert data.read_bytes() == STY.read_bytes()
    if data.is_symlink():
        assert data.resolve() == STY.resolve()


# -- include and number --------------------------------------------------------------------

def test_missing_include(paper: Path) -> None:
    os.unlink(paper / "pith-number.tex")
    code, doc, err = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["include"] == "fail"
    assert "pith-number.tex" in detail(doc, "include")
    assert "pith-tex fetch" in detail(doc, "include")
    assert st["number"] == "error"  # not checked
    assert st["compile"] == "ok"  # compiled anyway: the badge is merely unverified
    assert "include:" in err


def test_tampered_include(paper: Path) -> None:
    inc = paper / "pith-number.tex"
    inc.write_text(inc.read_text(encoding="ascii").replace("arxiv-version = 1,",
                                                           "arxiv-version = 2,"),
                   encoding="ascii")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["include"] == "fail"
    assert "does not verify: hash" in detail(doc, "include")


def test_stale_include_for_another_number(paper: Path, tmp_path: Path) -> None:
    from pith_tex.include.include import IncludeData, render

    other = next(v for v in recorded.vectors_with_record() if v["number"] != N)
    # another paper's include copied in (fetch itself refuses the number: its title differs)
    (paper / "pith-number.tex").write_bytes(render(IncludeData(
        other["number"], other["year"], other["canonical_hash"], other["canonical_record"],
        "absent")))
    code, doc, err = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["include"] == "ok" and st["number"] == "fail"
    d = detail(doc, "number")
    assert other["number"] in d and N in d
    assert st["compile"] == "fail"  # pith.sty refuses an include for another number
    assert other["number"] in err and N in err


def test_include_option_is_honoured(paper: Path) -> None:
    os.rename(paper / "pith-number.tex", paper / "other.tex")
    text = (paper / "main.tex").read_text(encoding="utf-8")
    assert "\\usepackage[qr]{pith}" in text
    (paper / "main.tex").write_text(text.replace("\\usepackage[qr]{pith}",
                                                 "\\usepackage[qr,include=other.tex]{pith}"),
                                    encoding="utf-8")
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert detail(doc, "include").startswith("other.tex verifies")


def test_include_setting_parser() -> None:
    from pith_tex.check import include_setting

    pre = "\\documentclass{article}\n"
    assert include_setting(pre + "\\usepackage{pith}\n") == "pith-number.tex"
    assert include_setting(pre + "\\usepackage[placement=corner, include = a.tex]{pith}") \
        == "a.tex"
    assert include_setting(pre + "\\usepackage[include=a.tex]{pith}\n\\pithsetup{include=false}"
                           ) == "false"
    assert include_setting(pre + "%\\pithsetup{include=b.tex}\n") == "pith-number.tex"
    assert include_setting(pre + "\\usepackage[include=c.tex]{other}\n") == "pith-number.tex"
    assert include_setting(pre + "\\begin{document}\\pithsetup{include=d.tex}") \
        == "pith-number.tex"
    assert include_setting(pre + "\\usepackage[hide,include={e.tex}]{pith,xcolor}") == "e.tex"


# -- shell escape --------------------------------------------------------------------------

def test_local_package_with_write18(paper: Path) -> None:
    (paper / "shellpkg.sty").write_text(
        "\\ProvidesPackage{shellpkg}\n"
        "% \\immediate\\write18{this one is a comment}\n"
        "\\immediate\\write18{echo hello > hello.txt}\n", encoding="ascii")
    add_to_preamble(paper, "\\usepackage{shellpkg}")
    code, doc, err = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["shell-escape"] == "fail"
    d = detail(doc, "shell-escape")
    assert "shellpkg.sty:3 \\write18" in d and "shellpkg.sty:2" not in d
    assert st["compile"] == "ok"  # with -no-shell-escape TeX only logs the \write18
    assert "shell-escape: " in err


def test_minted(paper: Path) -> None:
    line = add_to_preamble(paper, "\\usepackage[cache=false]{minted}")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["shell-escape"] == "fail"
    assert "main.tex:%d minted runs Pygments" % line in detail(doc, "shell-escape")


def test_comments_and_other_packages_are_not_hits(paper: Path) -> None:
    add_to_preamble(paper, "% \\usepackage{minted} \\write18{x}\n\\usepackage{amsmath,xcolor}")
    code, doc, _ = check(paper)
    assert_ready(code, doc)


# -- usage errors --------------------------------------------------------------------------

def test_no_documentclass(tmp_path: Path) -> None:
    d = tmp_path / "paper"
    d.mkdir()
    (d / "notes.tex").write_text("% \\documentclass{article}\nSome text.\n", encoding="ascii")
    code, doc, err = check(d)
    assert code == 2
    assert doc["verdict"] == "usage-error" and doc["checks"] == [] and doc["main"] is None
    assert "\\documentclass" in doc["error"] and str(d) in doc["error"]
    assert err.startswith("error: no main file in %s" % d)


def test_two_main_files(paper: Path) -> None:
    shutil.copy(paper / "main.tex", paper / "second.tex")
    code, doc, err = check(paper)
    assert code == 2
    assert "main.tex, second.tex" in doc["error"] and "--main" in doc["error"]
    assert "--main" in err
    # the author names the main file: the checks run.  Both files name the number.
    code, doc, _ = check(paper, "--main", "main.tex")
    assert_ready(code, doc)
    assert doc["main"] == "main.tex"


def test_main_option_errors(paper: Path) -> None:
    code, doc, _ = check(paper, "--main", "nothere.tex")
    assert code == 2 and "nothere.tex" in doc["error"]
    code, doc, _ = check(paper, "--main", "pith-number.tex")
    assert code == 2 and "\\documentclass" in doc["error"]


# -- compile errors ------------------------------------------------------------------------

def test_tex_error_in_paper(paper: Path) -> None:
    text = (paper / "main.tex").read_text(encoding="utf-8")
    edited = text.replace("\\section{Introduction}", "\\section{Introduction}\n\\nosuchmacro")
    (paper / "main.tex").write_text(edited, encoding="utf-8")
    line = edited.split("\n").index("\\nosuchmacro") + 1
    code, doc, err = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["compile"] == "fail" and st["pdf"] == "error"
    d = detail(doc, "compile")
    assert "! Undefined control sequence." in d and "l.%d \\nosuchmacro" % line in d
    assert doc["log_excerpt"][0] == "! Undefined control sequence."
    assert "compile: pdflatex failed" in err
    r = pith_tex("check", paper)
    assert r.returncode == 1
    assert "      | ! Undefined control sequence." in r.stdout.splitlines()
    assert statuses(doc)["upload"] == "error" and doc["upload"] is None  # no partial list


@pytest.mark.parametrize("package", ["fontspec", "unicode-math"])
def test_a_compile_stopped_before_pith_does_not_blame_the_include(paper: Path,
                                                                  package: str) -> None:
    # A XeLaTeX paper checked on the default route: fontspec stops pdflatex in the
    # preamble, before pith.sty is loaded.  The include beside the paper is fine; before,
    # check also said "FAIL include the compile read no include although the preamble
    # names pith-number.tex: is include=false set in an \input file ...?" and "ERROR
    # number ... the include is missing or unreadable": two wrong leads.
    main = paper / "main.tex"
    main.write_text(main.read_text().replace(
        "\\usepackage[qr]{pith}", "\\usepackage{%s}\n\\usepackage[qr]{pith}" % package))
    code, doc, _ = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["compile"] == "fail" and package in detail(doc, "compile")
    # and the way on is named
    assert detail(doc, "compile").endswith("; a XeLaTeX paper: pith-tex check --route xelatex")
    assert st["include"] == "ok", detail(doc, "include")
    assert st["number"] == "ok", detail(doc, "number")


def test_tex_not_installed_is_could_not_check(paper: Path) -> None:
    env = dict(os.environ, PATH=os.path.dirname(sys.executable))  # python, but no TeX
    r = pith_tex("check", paper, "--json", env=env)
    doc = json.loads(r.stdout)
    assert r.returncode == 3, doc
    st = statuses(doc)
    assert st["compile"] == "error" and "pdflatex is not installed" in detail(doc, "compile")
    assert st["pdf"] == "error"
    assert {st[n] for n in NAMES[:5]} == {"ok"}
    assert doc["verdict"] == "could-not-check"
    assert r.stderr.startswith("error: could not check: compile:")


# -- sandboxed like arXiv (issue 9 item 5) -------------------------------------------------

def test_symlink_is_refused_and_named(paper: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("outside the upload\n")
    os.symlink(target, paper / "data.txt")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["files"] == "fail"
    assert "data.txt is a symbolic link" in detail(doc, "files")
    assert statuses(doc)["compile"] == "ok"  # the rest still runs


@pytest.mark.parametrize("how", ["absolute", "parent"])
def test_input_outside_the_upload_fails(paper: Path, tmp_path: Path, how: str) -> None:
    (tmp_path / "outside.tex").write_text("Text from outside the upload.\n")
    name = str(tmp_path / "outside") if how == "absolute" else "../outside"
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(
        text.replace("\\section{Introduction}", "\\input{%s}\n\\section{Introduction}" % name),
        encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["paths"] == "fail"
    assert "main.tex:" in detail(doc, "paths") and name in detail(doc, "paths")


def test_names_made_by_macros_are_judged_by_what_the_compile_read(paper: Path,
                                                                    tmp_path: Path) -> None:
    # \jobname.aux and a figure directory in a macro are everyday names, not files
    # outside the upload (check said "files outside the upload" for both); a macro that
    # does lead outside is caught by the compile's list of files read.
    (paper / "sub").mkdir()
    (paper / "sub" / "part.tex").write_text("Text of a part.\n")
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(text.replace(
        "\\section{Introduction}", "\\IfFileExists{\\jobname.aux}{}{}\\def\\partdir{sub}"
        "\\input{\\partdir/part}\n\\section{Introduction}"), encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 0 and statuses(doc)["paths"] == "ok", doc
    (tmp_path / "outside.tex").write_text("Text from outside the upload.\n")
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(text.replace(
        "\\def\\partdir{sub}", "\\def\\partdir{%s}" % tmp_path).replace(
        "\\partdir/part", "\\partdir/outside"), encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 1 and statuses(doc)["paths"] == "fail", doc
    assert "outside.tex" in detail(doc, "paths")


def test_main_named_like_an_option(paper: Path) -> None:
    os.rename(paper / "main.tex", paper / "-x.tex")
    code, doc, _ = check(paper)
    assert code == 1 and doc["main"] == "-x.tex"
    st = statuses(doc)
    assert st["main"] == "fail" and "starting with -" in detail(doc, "main")
    # TeX got ./-x.tex, a file, not the option -x: it compiled and the PDF verifies
    assert st["compile"] == "ok" and st["pdf"] == "ok", doc


def test_runaway_output_is_stopped_and_cleaned_up(paper: Path, tmp_path: Path) -> None:
    add_to_preamble(paper, "\\def\\x{\\message{runaway output runaway output}\\x}\\x")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    r = pith_tex("check", paper, "--json", env=dict(os.environ, TMPDIR=str(scratch)))
    doc = json.loads(r.stdout)
    assert r.returncode == 1
    assert statuses(doc)["compile"] == "fail"
    assert "more than 20 MB" in detail(doc, "compile")
    assert os.listdir(scratch) == []  # the scratch copy is gone


def test_sigterm_removes_the_scratch_copy(paper: Path, tmp_path: Path) -> None:
    import signal
    import time

    add_to_preamble(paper, "\\def\\x{\\x}\\x")  # TeX loops silently
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    p = subprocess.Popen([sys.executable, "-m", "pith_tex", "check", str(paper)],
                         env=dict(os.environ, TMPDIR=str(scratch)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(600):  # until TeX runs in the scratch copy (bounded)
            if any(d.glob("tex-output.txt") for d in scratch.glob("pith-check-*")):
                break
            time.sleep(0.1)
        else:
            pytest.fail("check never started TeX")
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode != 0
    assert os.listdir(scratch) == []


# -- the include the compile read (issue 9 item 2) ----------------------------------------

def test_include_named_inside_iffalse_does_not_fool_check(paper: Path) -> None:
    add_to_preamble(paper, "\\iffalse\\pithsetup{include=nothere.tex}\\fi")
    code, doc, _ = check(paper)
    assert_ready(code, doc)  # TeX read pith-number.tex, and that one verifies
    assert "pith-number.tex" in detail(doc, "include")


def test_include_false_in_an_input_file_is_caught(paper: Path) -> None:
    (paper / "settings.tex").write_text("\\pithsetup{include=false}\n")
    add_to_preamble(paper, "\\input{settings}")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["include"] == "fail"
    assert "read no include" in detail(doc, "include")


def test_upload_lists_what_the_compile_read(paper: Path) -> None:
    (paper / "unused.tex").write_text("never read\n")
    (paper / "used.tex").write_text("Some text.\n")
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(
        text.replace("\\section{Introduction}", "\\input{used}\n\\section{Introduction}"),
        encoding="utf-8")
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert sorted(doc["upload"]) == ["main.tex", "pith-number.tex", "pith.sty", "used.tex"]
    assert "unused.tex" not in detail(doc, "upload")


def test_progress_on_a_terminal(paper: Path) -> None:
    """On a terminal, stderr shows which compile run is going; stdout has each check."""
    master, slave = os.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "pith_tex", "check", str(paper)],
                             stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        out, _ = p.communicate(timeout=600)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    terminal = b"".join(chunks).decode()
    assert p.returncode == 0, out + terminal
    assert "... compile: pdflatex run 1" in terminal
    # LaTeXML's conversion can take up to 180 s with nothing else on the screen: said.
    assert "... html: LaTeXML converts the preamble and title block as arXiv does" \
        in terminal, terminal
    assert [ln.split()[1] for ln in out.splitlines()[:-1]] == NAMES


def test_a_name_arxiv_refuses_in_the_upload_fails(paper: Path) -> None:
    (paper / "my part.tex").write_text("Some text.\n")
    (paper / "notes (old).txt").write_text("never read\n")  # not uploaded: not named
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(
        text.replace("\\section{Introduction}", '\\input{"my part"}\n\\section{Introduction}'),
        encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 1
    assert statuses(doc)["upload"] == "fail"
    assert "my part.tex (a space in its name)" in detail(doc, "upload")
    assert "notes" not in detail(doc, "upload")


def test_fifo_and_a_newline_in_a_name_are_reported_not_followed(paper: Path) -> None:
    os.mkfifo(paper / "pipe.tex")  # read, it would block check forever
    forged = "x\nOK    upload       forged.tex"
    (paper / forged).write_text("\\immediate\\write18{echo hi}\n")
    r = pith_tex("check", paper)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert not [ln for ln in lines if ln.startswith("OK    upload       forged")], r.stdout
    (files,) = [ln for ln in lines if ln.split()[1:2] == ["files"]]
    assert files.startswith("FAIL") and "pipe.tex is not a regular file" in files
    (shell,) = [ln for ln in lines if ln.split()[1:2] == ["shell-escape"]]
    assert shell.startswith("FAIL") and "'x\\nOK" in shell  # shown escaped, on one line


def test_time_budget_stops_tex(paper: Path, tmp_path: Path) -> None:
    """The real compile of a paper that never ends, with a short budget: TeX is stopped
    (its process group killed) and the check says why."""
    from pith_tex.check.compiler import compile_paper
    from pith_tex.check.sandbox import copy_upload

    add_to_preamble(paper, "\\def\\x{\\x}\\x")  # TeX loops silently, forever
    work = tmp_path / "work"
    work.mkdir()
    assert copy_upload(str(paper), str(work / "paper"), "main") == []
    compiled = compile_paper(str(work / "paper"), "main.tex", "pdflatex", budget_seconds=2)
    assert compiled.check.status == "fail" and compiled.pdf is None
    assert "did not finish within 2 s" in compiled.check.detail


def test_include_set_in_an_input_file_is_the_one_verified(paper: Path) -> None:
    """The preamble seems to read pith-number.tex; an \\input file switches to other.tex.
    check verifies the file the compile opened (TeX's -recorder list), not the other."""
    os.rename(paper / "pith-number.tex", paper / "other.tex")
    (paper / "settings.tex").write_text("\\pithsetup{include=other.tex}\n")
    add_to_preamble(paper, "\\input{settings}")
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert detail(doc, "include").startswith("other.tex verifies")
    assert sorted(doc["upload"]) == ["main.tex", "other.tex", "pith.sty", "settings.tex"]


def test_an_upload_larger_than_arxiv_takes_fails(paper: Path) -> None:
    with open(paper / "data.bin", "wb") as f:  # sparse: 60 MB on paper, nothing on disk
        f.truncate(60 * 1000 * 1000)
    add_to_preamble(paper, "\\IfFileExists{data.bin}{}{}")  # TeX opens it: it is read
    code, doc, _ = check(paper)
    # Not copied (issue 21: a sparse file became gigabytes of copies), so not compiled:
    # said, with the size, the sparseness and arXiv's limit.
    assert code == 1, doc
    assert statuses(doc)["files"] == "fail" and statuses(doc)["compile"] == "error"
    assert "data.bin" in detail(doc, "files") and "50 MB" in detail(doc, "files")
    assert "sparse" in detail(doc, "files")


# -- the title badge carried off page 1 ----------------------------------------------------

# sn-jnl's mechanism (tests/latex/test_latex_badge_shipped.py): the title block typeset in
# a box to measure it and, taller than the page (a long date line here), unboxed onto the
# page: its lines, and the badge pith.sty set at its end, go on to page 2.
UNBOXED_TITLE = (
    r"\makeatletter\renewcommand\maketitle{\par\begingroup\setbox0=\vbox{\@maketitle}"
    r"\ifdim\ht0>\textheight\unvbox0 \else\box0 \fi\endgroup}\makeatother"
    r"\date{" + "A date line long enough to make the title block taller than the page. " * 60
    + "}")


def test_title_badge_carried_off_page_one_is_ready_after_the_rerun(paper: Path) -> None:
    # pith.sty sees page 1 ship out without the badge, records it in the .aux and asks for a
    # rerun; check's compile reruns as arXiv does, and the PDF has the corner stamp on page 1.
    add_to_preamble(paper, UNBOXED_TITLE)
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert re.match(r"pdflatex x[2-5]", detail(doc, "compile")), detail(doc, "compile")


def test_title_badge_carried_off_page_one_with_nofiles_is_not_ready(paper: Path) -> None:
    # \nofiles: no .aux to remember the miss, so every run ships page 1 without the badge.
    # verify alone would only warn (page 1 shows no badge: it cannot tell that from hide);
    # the log says what happened, and check must not call the paper ready.
    add_to_preamble(paper, UNBOXED_TITLE + r"\nofiles")
    code, doc, _ = check(paper)
    assert code == 1 and doc["verdict"] == "failed", doc
    assert statuses(doc)["pdf"] == "fail", doc
    assert "page 1 was shipped out without the title badge" in detail(doc, "pdf"), doc
