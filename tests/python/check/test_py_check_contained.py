"""``pith-tex check`` runs nothing from the upload, writes nothing outside its scratch
directory and the named tarball, and copies a bounded amount (issue 21, items 1-3).

Each attack is a small paper of our own built on the example (as test_py_check.py's are),
with real TeX and the real LaTeXML: a binding that would write a *marker file* outside the
paper when run; the marker must never appear.  LaTeXML is required here (the attacks are
against its conversion): a missing latexmlc is an error, never a skip.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest

from test_py_check import add_to_preamble, check, detail, example_paper, pith_tex, statuses
from texbuild import tool


@pytest.fixture(scope="session")
def tools() -> None:
    for name in ("pdflatex", "latexmlc"):
        tool(name)


@pytest.fixture
def paper(tmp_path: Path, tools: None) -> Path:
    return example_paper(tmp_path)


def perl_binding(marker: Path) -> str:
    """A LaTeXML binding that, when LaTeXML runs it, writes *marker* (as the issue's
    bindings read /etc/hostname and ran commands)."""
    return ("package LaTeXML::Package::Pool;\nuse LaTeXML::Package;\n"
            "open(my $fh, '>', '%s'); print $fh 'ran'; close($fh);\n1;\n" % marker)


# -- 1. nothing from the upload runs ---------------------------------------------------------

@pytest.mark.parametrize("name", ["pith.sty.ltxml", "latexml.sty.ltxml", "main.latexml"])
def test_a_binding_beside_the_paper_is_not_run_and_fails_named(paper: Path, tmp_path: Path,
                                                               name: str) -> None:
    # pith.sty.ltxml beside an unchanged paper; latexml.sty.ltxml, the package arXiv
    # preloads; main.latexml, which LaTeXML loads before main.tex.
    marker = tmp_path / "marker"
    (paper / name).write_text(perl_binding(marker))
    code, doc, _ = check(paper)
    assert not marker.exists(), "LaTeXML ran the paper's " + name
    assert code == 1, doc
    st = statuses(doc)
    assert st["files"] == "fail" and name in detail(doc, "files"), doc
    assert "LaTeXML binding" in detail(doc, "files")
    assert st["html"] == "fail" and name in detail(doc, "html"), doc
    assert name not in (doc["upload"] or [])


def test_a_package_with_its_own_binding_is_not_run(paper: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    (paper / "lxevil.sty").write_text("\\ProvidesPackage{lxevil}\n")
    (paper / "lxevil.sty.ltxml").write_text(perl_binding(marker))
    add_to_preamble(paper, "\\usepackage{lxevil}")
    code, doc, _ = check(paper)
    assert not marker.exists()
    assert code == 1 and statuses(doc)["html"] == "fail", doc
    assert "lxevil.sty.ltxml" in detail(doc, "files")


# TeX needs no shell escape to write a file beside the paper: \openout writes the binding
# in the first run; the old check then handed that directory to LaTeXML, which ran it.
OPENOUT = (r"\newwrite\lxw\immediate\openout\lxw=pith.sty.ltxml"
           r"\immediate\write\lxw{%s}\immediate\closeout\lxw")


def test_a_binding_written_by_the_compile_is_not_run(paper: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    perl = "use LaTeXML::Package; open(my $fh, '>', '%s'); close($fh); 1;" % marker
    text = (paper / "main.tex").read_text()
    (paper / "main.tex").write_text(text.replace("\\documentclass", OPENOUT % perl
                                                 + "\n\\documentclass", 1))
    code, doc, _ = check(paper)
    assert not marker.exists(), "LaTeXML ran a binding TeX wrote"
    assert code == 1, doc
    st = statuses(doc)
    assert st["files"] == "ok"  # the upload itself brings none: the compile made it
    assert st["html"] == "fail", doc
    assert "the compile writes pith.sty.ltxml" in detail(doc, "html")


def test_a_stylesheet_beside_the_paper_is_not_used(paper: Path, tmp_path: Path) -> None:
    # LaTeXML's post-processing takes LaTeXML-html5.xsl from the document's directory
    # first, and XSLT writes files (exsl:document).
    marker = tmp_path / "marker"
    (paper / "LaTeXML-html5.xsl").write_text(
        '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"'
        ' xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">'
        '<xsl:template match="/"><exsl:document href="%s" method="text">ran</exsl:document>'
        '<html/></xsl:template></xsl:stylesheet>' % marker)
    code, doc, _ = check(paper)
    assert not marker.exists()
    assert code == 1 and "LaTeXML-html5.xsl" in detail(doc, "files"), doc


def test_a_format_beside_the_paper_is_not_loaded(paper: Path) -> None:
    # kpathsea finds pdflatex.fmt in the current directory before TeX Live's.
    (paper / "pdflatex.fmt").write_bytes(b"not a format")
    code, doc, _ = check(paper)
    assert code == 1, doc
    st = statuses(doc)
    assert st["files"] == "fail" and "pdflatex.fmt" in detail(doc, "files")
    assert st["compile"] == "ok", doc  # TeX Live's own format, not the paper's


# -- 2. nothing written outside ------------------------------------------------------------

def test_tarball_is_not_written_through_planted_links(paper: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "upload.tar.gz"
    # The old temp name was TARGET.tmp-<pid>, opened without O_EXCL: links for the next
    # pids made check write the tarball into the victim and leave the target a link.
    with open("/proc/sys/kernel/ns_last_pid") as f:
        last = int(f.read())
    for pid in range(last + 1, last + 400):
        os.symlink(victim, "%s.tmp-%d" % (target, pid))
    r = pith_tex("check", paper, "--tarball", target)
    assert r.returncode == 0, r.stdout + r.stderr
    assert victim.read_text() == "precious\n"
    assert not target.is_symlink() and target.is_file()
    with tarfile.open(target) as tar:
        assert sorted(tar.getnames()) == ["main.tex", "pith-number.tex", "pith.sty"]
    assert (target.stat().st_mode & 0o777) == 0o644 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_tarball_reads_no_file_through_a_link(paper: Path, tmp_path: Path) -> None:
    # The tarball is made from the upload list; a file swapped for a link after the
    # compile must not bring another file into it.
    from pith_tex.check.upload import write_tarball

    secret = tmp_path / "secret"
    secret.write_text("not the paper's\n")
    (paper / "main.tex").unlink()
    os.symlink(secret, paper / "main.tex")
    target = tmp_path / "up.tar.gz"
    with pytest.raises(OSError):
        write_tarball(str(target), str(paper), ["main.tex", "pith.sty"])
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".up.tar.gz")] == []


def test_nothing_is_written_outside_the_scratch_directory(paper: Path, tmp_path: Path) -> None:
    # HOME and TMPDIR point into tmp_path: after check, only the scratch is touched and
    # it is gone; the paper's directory is as it was.
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    scratch.mkdir()
    before = sorted(p.name for p in paper.iterdir())
    env = dict(os.environ, HOME=str(home), TMPDIR=str(scratch))
    r = pith_tex("check", paper, "--json", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.listdir(scratch) == []
    assert sorted(p.name for p in paper.iterdir()) == before
    assert [str(p.relative_to(home)) for p in home.rglob("*")] == []


# -- 3. bounded ------------------------------------------------------------------------------

def _disk_use(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for n in files:
            try:
                total += os.lstat(os.path.join(root, n)).st_blocks * 512
            except OSError:
                pass
    return total


@pytest.mark.parametrize("size", [1 << 30])
def test_a_sparse_file_is_refused_and_temp_space_stays_bounded(paper: Path, tmp_path: Path,
                                                               size: int) -> None:
    # A 212 KB paper with a 4 GiB sparse file became 8.4 GB of temporary copies.
    with open(paper / "data.bin", "wb") as f:
        f.truncate(size)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _disk_use(scratch))
            time.sleep(0.05)

    t = threading.Thread(target=watch)
    t.start()
    try:
        r = pith_tex("check", paper, "--json", env=dict(os.environ, TMPDIR=str(scratch)))
    finally:
        done.set()
        t.join()
    import json

    doc = json.loads(r.stdout)
    assert r.returncode == 1, doc
    assert statuses(doc)["files"] == "fail"
    files = detail(doc, "files")
    assert "data.bin" in files and "sparse" in files and "50 MB" in files, files
    assert peak[0] < 60 * 1000 * 1000, "scratch copies took %d bytes" % peak[0]
    assert os.listdir(scratch) == []


def test_files_past_the_cap_in_all_are_refused(paper: Path) -> None:
    # Each under the cap, together over it: the copy stops at 50 MB, named.
    for i in range(3):
        with open(paper / ("big%d.dat" % i), "wb") as f:
            f.write(os.urandom(1 << 20) * 20)  # 21 MB each, real blocks
    code, doc, _ = check(paper)
    assert code == 1, doc
    files = detail(doc, "files")
    assert "big2.dat" in files and "with the files before it" in files, files
    assert statuses(doc)["compile"] == "error"


def test_copy_never_reads_more_than_it_charged(tmp_path: Path) -> None:
    from pith_tex.check.safecopy import Budget, copy_file

    src = tmp_path / "f"
    src.write_bytes(b"x" * 5000)
    b = Budget(10000)
    assert copy_file(str(src), str(tmp_path / "g"), b) is None
    assert (tmp_path / "g").read_bytes() == b"x" * 5000 and b.left <= 5000
    assert "more than" in (copy_file(str(src), str(tmp_path / "h"), Budget(100)) or "")
    assert not (tmp_path / "h").exists()
    os.mkfifo(tmp_path / "fifo")
    assert copy_file(str(tmp_path / "fifo"), str(tmp_path / "i"), Budget()) == \
        "not a regular file"


# -- 4. progress, piped ------------------------------------------------------------------------

def test_progress_piped_names_each_step_with_the_time(paper: Path) -> None:
    r = pith_tex("check", paper)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    assert any(ln.startswith("... compile: pdflatex run 1 (") for ln in lines), r.stderr
    assert any(ln.startswith("... html: ") and ln.endswith(" s)") for ln in lines), r.stderr


# -- 4. fast by default: the preamble and title block -----------------------------------------

def test_reduced_document_keeps_preamble_and_title_block() -> None:
    from pith_tex.check.titleblock import reduce

    text = ("\\documentclass{article}\n\\usepackage{amsmath,tikz}\n\\usetikzlibrary{arrows}\n"
            "\\tikzset{a/.style={draw,\n fill=red}}\n\\usepackage[qr]{pith}% a comment\n"
            "\\title{T}\n\\begin{document}\n\\maketitle\n\\begin{abstract}\nA.\n"
            "\\end{abstract}\n\\section{One}\nBody \\cite{x}.\n\\end{document}\n")
    reduced, dropped = reduce(text) or ("", [])
    assert dropped == ["tikz"]
    assert "\\usepackage{amsmath}" in reduced and "tikz" not in reduced
    assert "\\usepackage[qr]{pith}" in reduced and "comment" not in reduced
    assert reduced.endswith("\\end{abstract}\n\\end{document}\n")
    assert "Body" not in reduced
    # No title block to tell: the whole paper is converted.
    assert reduce("\\documentclass{article}\n\\begin{document}\nText.\n\\end{document}\n") \
        is None


def test_html_modes(paper: Path) -> None:
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage[qr]{pith}",
                                             "\\usepackage{tikz}\n\\usepackage[qr]{pith}"))
    code, doc, _ = check(paper)
    assert code == 0, doc
    html = detail(doc, "html")
    assert "preamble and title block" in html and "tikz" in html.split("left out")[1], html
    code, doc, _ = check(paper, "--html", "full")
    assert code == 0 and "preamble" not in detail(doc, "html"), doc
    code, doc, _ = check(paper, "--html", "off")
    assert code == 0 and statuses(doc)["html"] == "warn"
    assert "--html off" in detail(doc, "html")


# LaTeXML starts once the first LaTeX run has listed the paper's files, on its own copy
# from DIR, and converts while the reruns go on (issue 21 item 4: check was 3.7x the
# author's build with LaTeXML after the compile).  A loop that makes the reruns (not the
# first run, which has no .aux) take a few seconds shows them side by side.
SLOW_RERUNS = (r"\IfFileExists{\jobname.aux}{\count255=0 \loop\advance\count255 1 "
               r"\ifnum\count255<6000000 \repeat}{}")


def _ours(scratch: Path) -> list[str]:
    """The programs running with their working directory in *scratch* (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "cwd").startswith(str(scratch)):
                    found.append((entry / "comm").read_text().strip())
            except OSError:
                continue
    return found


def _check_watched(paper: Path, scratch: Path, *args: str, stop_when=None, signum=None):
    """Run check with TMPDIR=*scratch*, sampling its programs every 50 ms; *stop_when*
    (a sample -> bool) sends *signum* (SIGTERM) the first time it is true.  (exit code,
    its standard output, samples)."""
    import signal

    scratch.mkdir()
    p = subprocess.Popen([sys.executable, "-m", "pith_tex", "check", str(paper), "--json",
                          *args], env=dict(os.environ, TMPDIR=str(scratch)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    samples: list[list[str]] = []
    try:
        while p.poll() is None:
            samples.append(_ours(scratch))
            if stop_when is not None and stop_when(samples[-1]):
                p.send_signal(signal.SIGTERM if signum is None else signum)
                stop_when = None
            time.sleep(0.05)
        out, _ = p.communicate(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, samples


def test_latexml_converts_beside_the_reruns(paper: Path, tmp_path: Path) -> None:
    _body(paper, SLOW_RERUNS)
    code, out, samples = _check_watched(paper, tmp_path / "tmp")
    import json

    doc = json.loads(out)
    assert code == 0, doc
    assert any("pdflatex" in s and "latexmlc" in s for s in samples), \
        "LaTeXML never ran while TeX did: %s" % sorted({n for s in samples for n in s})
    assert "LaTeXML converts the preamble and title block" in detail(doc, "html")


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_stops_latexml_running_beside_the_compile(paper: Path, tmp_path: Path,
                                                           signame: str) -> None:
    # SIGHUP: the terminal closed (or the ssh connection lost) while check ran: Python's
    # default for it ended check with no clean-up; LaTeXML, in its own session, ran on,
    # and the scratch directories stayed.
    import signal

    _body(paper, SLOW_RERUNS)
    scratch = tmp_path / "tmp"
    code, _, samples = _check_watched(paper, scratch, signum=getattr(signal, signame),
                                      stop_when=lambda s: "pdflatex" in s and "latexmlc" in s)
    assert any("pdflatex" in s and "latexmlc" in s for s in samples), samples
    assert code != 0
    time.sleep(0.5)
    assert _ours(scratch) == [], "left running after " + signame
    assert os.listdir(scratch) == []


def test_a_file_only_the_reruns_and_latexml_read_is_converted_too(paper: Path) -> None:
    # LaTeXML's copy is the first run's list; a file the first run did not read (here the
    # reruns and LaTeXML read it, the first run not) is not in it: LaTeXML converts again
    # with the last list, as arXiv's conversion would have the file.
    (paper / "later.tex").write_text("\\newcommand\\laterword{later}\n")
    add_to_preamble(paper, "\\makeatletter\\IfFileExists{\\jobname.aux}{\\input{later}}"
                    "{\\@ifundefined{iflatexml}{}{\\csname iflatexml\\endcsname"
                    "\\input{later}\\fi}}\\makeatother")
    code, doc, _ = check(paper, "--html", "full")
    assert code == 0, doc
    assert statuses(doc)["html"] == "ok", detail(doc, "html")
    assert "later.tex" in doc["upload"]


def test_a_file_only_the_first_run_reads_is_in_the_upload(paper: Path) -> None:
    # arXiv compiles from nothing: the first run, with no .aux, reads it there too.
    (paper / "firstonly.tex").write_text("\\relax\n")
    add_to_preamble(paper, "\\IfFileExists{\\jobname.aux}{}{\\input{firstonly}}")
    code, doc, _ = check(paper)
    assert code == 0, doc
    assert "firstonly.tex" in doc["upload"], doc["upload"]


# -- 5. advice that is true ------------------------------------------------------------------

def _body(d: Path, text: str) -> None:
    main = d / "main.tex"
    main.write_text(main.read_text().replace("\\end{document}", text + "\n\\end{document}"))


def test_no_ok_line_rests_on_a_compile_that_died_on_page_one(paper: Path) -> None:
    # The compile stops at the first page: nothing is known of citations, and the files
    # it would have read after that were not seen.
    (paper / "main.bbl").write_text("\\begin{thebibliography}{1}\\bibitem{a} A.\n"
                                    "\\end{thebibliography}\n")
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\maketitle", "\\maketitle\\undefinedmacro", 1))
    _body(paper, "\\cite{a}\\bibliographystyle{plain}\\bibliography{refs}")
    code, doc, _ = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["compile"] == "fail", doc
    assert st["citations"] != "ok" and "not checked" in detail(doc, "citations"), doc
    assert st["paths"] != "ok" and "not checked in full" in detail(doc, "paths"), doc


def test_dvips_route_names_the_pdf_figure_it_cannot_read(paper: Path) -> None:
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_blank_page(width=72, height=72)
    with open(paper / "fig.pdf", "wb") as f:
        w.write(f)
    add_to_preamble(paper, "\\usepackage{graphicx}")
    (paper / "main.bbl").write_text("\\begin{thebibliography}{1}\\bibitem{a} A.\n"
                                    "\\end{thebibliography}\n")
    _body(paper, "\\includegraphics{fig}\\cite{a}\\bibliographystyle{plain}"
          "\\bibliography{refs}")
    code, doc, _ = check(paper, "--route", "dvips")
    assert code == 1
    compile_ = detail(doc, "compile")
    assert "fig.pdf is there" in compile_ and "reads .eps figures only" in compile_, compile_
    assert "run bibtex" not in detail(doc, "citations"), doc


@pytest.mark.parametrize("where", ["subdirectory", "texmfhome"])
def test_a_missing_class_found_elsewhere_is_named_with_where(paper: Path, tmp_path: Path,
                                                             where: str) -> None:
    cls = "\\NeedsTeXFormat{LaTeX2e}\\ProvidesClass{wlstand}\\LoadClass{article}\n"
    env = dict(os.environ)
    if where == "subdirectory":
        (paper / "static").mkdir()
        (paper / "static" / "wlstand.cls").write_text(cls)  # the Makefile's TEXINPUTS=.//
    else:
        home = tmp_path / "texmf"
        (home / "tex" / "latex").mkdir(parents=True)
        (home / "tex" / "latex" / "wlstand.cls").write_text(cls)
        env["TEXMFHOME"] = str(home)
    main = paper / "main.tex"
    main.write_text(main.read_text().replace("\\documentclass[11pt]{article}",
                                             "\\documentclass[11pt]{wlstand}"))
    r = pith_tex("check", paper, "--json", env=env)
    import json

    doc = json.loads(r.stdout)
    assert r.returncode == 1, doc
    compile_ = detail(doc, "compile")
    if where == "subdirectory":
        assert "wlstand.cls is in static/wlstand.cls" in compile_, compile_
        assert "searches no subdirectory" in compile_
    else:
        assert "this machine has wlstand.cls at %s" % (
            tmp_path / "texmf" / "tex" / "latex" / "wlstand.cls") in compile_, compile_
    assert statuses(doc)["paths"] != "ok"


def test_no_bibtex_advice_without_an_active_bibliography(paper: Path) -> None:
    _body(paper, "\\cite{quasi}\n%\\bibliographystyle{plain}\n%\\bibliography{refs}")
    code, doc, _ = check(paper)
    assert code == 1
    cit = detail(doc, "citations")
    assert statuses(doc)["citations"] == "fail", doc
    assert "bibtex" not in cit and "no active bibliography" in cit, cit


# -- 6. the page the badge costs ---------------------------------------------------------------

def _fill_page_one(d: Path) -> None:
    """A paper whose first page is full to within two lines without the badge: its text
    is a rule as tall as what is left under the title, measured by TeX with pith's hide."""
    main = d / "main.tex"
    text = main.read_text()
    start = text.index("\\maketitle") + len("\\maketitle")
    end = text.index("\\end{document}")
    probe = text[:start] + "\\par\\typeout{ROOM=\\the\\dimexpr\\pagegoal-\\pagetotal\\relax}\n" \
        + text[end:]
    (d / "probe.tex").write_text(probe)
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode",
                        "\\PassOptionsToPackage{hide}{pith}\\input{probe}"], cwd=d,
                       capture_output=True, text=True, timeout=120)
    room = float(re.search(r"ROOM=([\d.]+)pt", p.stdout).group(1))  # type: ignore[union-attr]
    for f in d.glob("probe.*"):
        f.unlink()
    for f in d.glob("texput.*"):
        f.unlink()
    main.write_text(text[:start] + "\n\\noindent\\rule{1pt}{%.1fpt}\n" % (room - 30) + text[end:])


def test_a_badge_that_costs_a_page_is_warned_with_placement_margin(paper: Path) -> None:
    _fill_page_one(paper)
    code, doc, _ = check(paper, "--html", "off")
    pdf = detail(doc, "pdf")
    assert statuses(doc)["pdf"] == "warn", doc
    assert "makes the paper 2 pages, 1 without it" in pdf and "placement=margin" in pdf, pdf


def test_no_page_warning_when_the_last_page_has_room(paper: Path) -> None:
    code, doc, _ = check(paper, "--html", "off")
    assert statuses(doc)["pdf"] == "ok", doc


# LaTeXML now converts beside the compile, in the same scratch directory: its copy is
# scratch/html/paper, the compile's scratch/paper, where TeX's \openout can write a
# binding.  LaTeXML loads a binding by any path (\usepackage{DIR/x} reads DIR/x.sty.ltxml),
# and a name made by a macro in a branch only LaTeXML takes is seen neither by the paths
# check nor by TeX's -recorder list: the binding TeX wrote ran while the compile went on.
BESIDE = r"\ifdefined\iflatexml\def\up{..}\input{\up/\up/paper/lxbeside.sty}\fi"
# Each TeX run takes a second or two more (a real paper's compile does), so LaTeXML
# gets that far before check ends.
SLOW = (r"\ifdefined\iflatexml\else\count255=0 \loop\advance\count255 1 "
        r"\ifnum\count255<3000000 \repeat\fi")


@pytest.mark.parametrize("mode", ["title", "full"])
def test_a_binding_the_compile_writes_is_not_run_by_latexml_beside(
        paper: Path, tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "marker"
    perl = "use LaTeXML::Package; open(my $fh, '>', '%s'); close($fh); 1;" % marker
    text = (paper / "main.tex").read_text()
    (paper / "main.tex").write_text(text.replace(
        "\\documentclass", OPENOUT.replace("pith.sty.ltxml", "lxbeside.sty.ltxml") % perl
        + "\n" + BESIDE + SLOW + "\n\\documentclass", 1))
    code, doc, _ = check(paper, "--html", mode)
    assert not marker.exists(), "LaTeXML ran a binding TeX wrote in the compile's copy"
    assert code == 1 and statuses(doc)["html"] == "fail", doc


def test_a_binding_outside_the_upload_named_by_a_macro_is_not_run(paper: Path,
                                                                  tmp_path: Path) -> None:
    # The paths check leaves a name made by a macro to the compile's -recorder list, which
    # does not see a branch only LaTeXML takes: the binding sits outside the paper
    # (nothing in the upload, nothing TeX wrote), and LaTeXML would load it by its path.
    marker = tmp_path / "marker"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "lxfar.sty.ltxml").write_text(perl_binding(marker))
    add_to_preamble(paper, r"\def\far{%s}\ifdefined\iflatexml\usepackage{\far/lxfar}\fi"
                    % elsewhere)
    code, doc, _ = check(paper)
    assert not marker.exists(), "LaTeXML ran a binding from outside the upload"
    assert code == 1, doc
    st = statuses(doc)
    assert st["paths"] == "ok" and st["files"] == "ok", doc  # neither can see it
    assert st["html"] == "fail" and "lxfar.sty.ltxml" in detail(doc, "html"), doc


def test_latexml_beside_cannot_read_the_compiles_copy(paper: Path) -> None:
    # A false html verdict: LaTeXML's copy sat beside the compile's (scratch/html/paper,
    # scratch/paper), so a branch only LaTeXML takes read what TeX wrote there (main.aux,
    # after run 1) by a fixed relative name.  arXiv's LaTeXML has no such file: here, the
    # paper's HTML view then takes pith's anonymous mode and shows no badge.
    text = (paper / "main.tex").read_text()
    (paper / "main.tex").write_text(text.replace(
        "\\usepackage[qr]{pith}", r"\ifdefined\iflatexml\def\up{..}\IfFileExists{\up/\up/"
        r"paper/main.aux}{\usepackage[qr]{pith}}{\usepackage[anonymous,qr]{pith}}"
        r"\else\usepackage[qr]{pith}\fi" + SLOW, 1))
    code, doc, _ = check(paper)
    assert statuses(doc)["html"] == "fail", doc
    assert "0 links" in detail(doc, "html"), doc


def test_no_page_warning_when_the_bibliography_fills_the_last_page(paper: Path) -> None:
    # The run without the badge is another job (main-nobadge): it read no main.bbl, so
    # a bibliography that fills the last page was missing there and every such paper
    # was "a page longer because of the badge" (ACL's template, elsarticle's, a thesis).
    _fill_page_one(paper)
    text = (paper / "main.tex").read_text()
    rule = re.search(r"\\rule\{1pt\}\{([\d.]+)pt\}", text)
    assert rule is not None
    shorter = "\\rule{1pt}{%.1fpt}" % (float(rule.group(1)) - 240)
    (paper / "main.tex").write_text(text.replace(rule.group(0), shorter).replace(
        "\\end{document}", "\\cite{k1}\\bibliographystyle{plain}\\bibliography{refs}\n"
        "\\end{document}"))
    (paper / "main.bbl").write_text(
        "\\begin{thebibliography}{99}\n" + "".join(
            "\\bibitem{k%d} A.~Author. \\newblock A title of a paper, number %d. "
            "\\newblock A journal, 2024.\n" % (i, i) for i in range(1, 13))
        + "\\end{thebibliography}\n")
    code, doc, _ = check(paper, "--html", "off")
    assert statuses(doc)["citations"] == "ok", doc
    assert statuses(doc)["pdf"] == "ok", detail(doc, "pdf")


def test_the_reduced_document_makes_no_warning_of_its_own(paper: Path) -> None:
    # --html title leaves graphicx, caption, enumitem, array and cleveref out of the
    # preamble, but not their set-up commands: LaTeXML put an error box for
    # \graphicspath in the page and check warned "about the rest of the paper" (an IEEE
    # template); the whole paper converts with no error.
    add_to_preamble(paper, r"\usepackage{graphicx}\usepackage{caption}\usepackage{enumitem}"
                    r"\usepackage{array}\usepackage{cleveref}\graphicspath{{figs/}}"
                    r"\captionsetup{font=small}\setlist{nosep}"
                    r"\newcolumntype{L}{>{\raggedright\arraybackslash}p{2cm}}"
                    r"\crefname{figure}{Fig.}{Figs.}")
    for mode in ("full", "title"):
        code, doc, _ = check(paper, "--html", mode)
        assert code == 0, doc
        assert statuses(doc)["html"] == "ok", (mode, detail(doc, "html"))


@pytest.mark.parametrize("case", ["missing entry", "missing style"])
def test_undefined_citations_name_what_bibtex_said(paper: Path, case: str) -> None:
    # "run bibtex main again" is no advice when BibTeX already ran and could not make the
    # entries: the same run gives the same .bbl.  The author's main.blg says why.
    (paper / "refs.bib").write_text("@article{a, author={A. Author}, title={T}, "
                                    "journal={J}, year={2020}}\n")
    style = "plain" if case == "missing entry" else "nosuchstyle"
    text = (paper / "main.tex").read_text()
    (paper / "main.tex").write_text(text.replace(
        "\\end{document}", "\\cite{a,nosuchkey}\\bibliographystyle{%s}\\bibliography{refs}\n"
        "\\end{document}" % style))
    for cmd in (["pdflatex", "-interaction=nonstopmode", "main.tex"], ["bibtex", "main"]):
        subprocess.run(cmd, cwd=paper, capture_output=True, timeout=120)
    code, doc, _ = check(paper, "--html", "off")
    assert code == 1 and statuses(doc)["citations"] == "fail", doc
    said = detail(doc, "citations")
    assert "main.blg" in said, said
    if case == "missing entry":
        assert "didn't find a database entry for \"nosuchkey\"" in said, said
    else:
        assert "couldn't open style file nosuchstyle.bst" in said, said


def test_a_package_that_probes_dev_null_reads_nothing_outside(paper: Path) -> None:
    # ifplatform (loaded by minted, svg, gitinfo2 and others) tells Unix by
    # \IfFileExists{/dev/null}: TeX's -recorder list has it, and paths said "the compile
    # read /dev/null; copy it into the paper's directory" (a thesis template).
    add_to_preamble(paper, "\\usepackage{ifplatform}")
    code, doc, _ = check(paper, "--html", "off")
    assert statuses(doc)["paths"] == "ok", detail(doc, "paths")
    assert code == 0, doc


def test_shell_escape_is_judged_on_this_paper_not_the_documents_beside_it(paper: Path) -> None:
    # A template ships main-english.tex and main-minted-english.tex side by side; checking
    # the first said "arXiv has no shell escape: main-minted-english.tex:291 minted".
    (paper / "cover.tex").write_text("\\documentclass{letter}\n\\usepackage{minted}\n"
                                     "\\begin{document}x\\end{document}\n")
    (paper / "chapter.tex").write_text("\\documentclass[main.tex]{subfiles}\n"
                                       "\\usepackage{svg}\n")
    code, doc, _ = check(paper, "--main", "main.tex", "--html", "off")
    said = detail(doc, "shell-escape")
    assert "cover.tex" not in said, said
    assert "chapter.tex" in said and "svg" in said, said  # a subfile is this paper's


def test_latexml_is_stopped_when_it_begins_expl3_code(paper: Path) -> None:
    # LaTeXML (0.8.7 and 0.8.8) reads expl3-code.tex raw for a package that loads expl3
    # (nomencl here, as a thesis class does): minutes, past the 180 s it is given; the
    # thesis's check took 183 s for a WARN known when that step began.
    add_to_preamble(paper, "\\usepackage{nomencl}")
    code, doc, _ = check(paper)
    assert code == 0, doc
    said = detail(doc, "html")
    assert statuses(doc)["html"] == "warn", said
    assert "began reading expl3-code.tex (for nomencl.sty)" in said, said
