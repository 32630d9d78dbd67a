"""``pith-tex check`` on honest papers tells the truth (issue 28): a FAIL only for what
breaks the paper on arXiv, with its true cause and a way on; the tarball holds the bytes
that were checked.  Real papers' mechanisms, in stand-ins of our own, compiled by real TeX
and converted by real LaTeXML."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Dict, List

from test_py_check import (EXAMPLE, N, add_to_preamble, assert_ready, check, detail, fetch,
                           paper, pith_tex, statuses, tex)

__all__ = ["paper", "tex"]  # fixtures, used by name


def test_a_forgotten_fetch_names_pith_tex_fetch_last(tmp_path: Path) -> None:
    """No pith.sty and no include: the author forgot ``pith-tex fetch``, which writes
    both; the last line (the decisive check) names it, not --fix (which copies pith.sty
    only, and the next run fails on the include)."""
    d = tmp_path / "paper"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "main.tex")
    r = pith_tex("check", d)
    assert r.returncode == 1, r.stdout + r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert "pith-tex fetch" in last and "--fix" not in last, last


def test_main_is_the_file_fetch_chose(paper: Path) -> None:
    """A cover letter beside the paper (its own \\documentclass, no \\pithnumber): fetch
    took the paper, so check takes it too, instead of exit 2 for several main files."""
    (paper / "cover.tex").write_text(
        "\\documentclass{letter}\n\\begin{document}\nDear editor, ...\n\\end{document}\n",
        encoding="ascii")
    fetch(paper)  # fetch's own choice, which names no --main
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert doc["main"] == "main.tex"
    assert "cover.tex" not in doc["upload"]


# -- minted's frozen cache -----------------------------------------------------------------

LISTINGS = ("\\begin{minted}{python}\ndef f(x):\n    return x + 1\n\\end{minted}\n"
            "Inline \\mintinline{c}{int x = 1;}.\n")


def frozen_minted_paper(d: Path) -> None:
    """minted's route to arXiv, as its manual gives it: compile once with shell escape and
    ``finalizecache`` (real pygmentize), then switch to ``frozencache`` and upload the
    cache.  (TeX Live 2022 here has minted 2.7: ``_minted-main/listingN.pygtex``.)"""
    text = (d / "main.tex").read_text(encoding="utf-8")
    text = text.replace("\\usepackage[qr]{pith}",
                        "\\usepackage[finalizecache]{minted}\n\\usepackage[qr]{pith}")
    (d / "main.tex").write_text(text.replace("\\end{document}", LISTINGS + "\\end{document}"),
                                encoding="utf-8")
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep
               + os.environ["PATH"])  # this venv's pygmentize
    r = subprocess.run(["pdflatex", "-shell-escape", "-interaction=nonstopmode", "main.tex"],
                       cwd=d, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:]
    assert sorted(os.listdir(d / "_minted-main")) == [
        "default.pygstyle", "listing1.pygtex", "listing2.pygtex"]
    for f in d.iterdir():
        if f.name not in ("main.tex", "pith.sty", "pith-number.tex", "_minted-main"):
            f.unlink()
    (d / "main.tex").write_text(text.replace("finalizecache", "frozencache").replace(
        "\\end{document}", LISTINGS + "\\end{document}"), encoding="utf-8")


def test_minted_with_its_frozen_cache_is_ready(paper: Path) -> None:
    frozen_minted_paper(paper)
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert "_minted-main/ (frozencache, 2 listings)" in detail(doc, "shell-escape")
    assert "_minted-main/listing2.pygtex" in doc["upload"]


def test_minted_frozen_cache_missing_or_stale_fails(paper: Path) -> None:
    frozen_minted_paper(paper)
    text = (paper / "main.tex").read_text(encoding="utf-8")
    line = text[:text.rindex("\\end{document}")].count("\n") + 1
    (paper / "main.tex").write_text(text.replace(
        "\\end{document}", "\\begin{minted}{c}\nint added;\n\\end{minted}\n\\end{document}"),
        encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 1
    st = statuses(doc)
    assert st["shell-escape"] == "fail" and st["compile"] == "fail"  # minted stops there
    assert ("main.tex:%d \\begin{minted} is listing 3, and _minted-main/listing3.pygtex is "
            "not there" % line) in detail(doc, "shell-escape")
    shutil.rmtree(paper / "_minted-main")
    code, doc, _ = check(paper)
    assert code == 1 and statuses(doc)["shell-escape"] == "fail"
    assert "its cache _minted-main/, which is not in the paper's directory" in detail(
        doc, "shell-escape")


# -- the tarball holds the bytes that were checked -----------------------------------------

def _descendants(pid: int) -> List[int]:
    """The processes under *pid* now (from /proc: Linux, where the tests run)."""
    parent: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path("/proc", entry, "stat").read_text()
            except OSError:
                continue
            parent[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        found += kids
        todo += kids
    return found


def _running_latexml(pid: int) -> bool:
    for p in _descendants(pid):
        try:
            if b"latexmlc" in Path("/proc", str(p), "cmdline").read_bytes():
                return True
        except OSError:
            continue
    return False


def test_an_autosave_while_latexml_runs_does_not_reach_the_tarball(paper: Path,
                                                                   tmp_path: Path) -> None:
    """An editor saves main.tex with another title while check's LaTeXML step runs (after
    check copied and compiled the paper): the tarball must not pack the new main.tex
    under the old verdict.  The writer waits until LaTeXML, under check, is running."""
    target = tmp_path / "upload.tar.gz"
    checked = (paper / "main.tex").read_bytes()
    proc = subprocess.Popen([sys.executable, "-m", "pith_tex", "check", str(paper), "--json",
                             "--tarball", str(target), "--html", "full"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not _running_latexml(proc.pid):
            assert proc.poll() is None, "check ended before LaTeXML was seen running"
            time.sleep(0.02)
        saved = checked.replace(b"\\title{FlashRecovery", b"\\title{Another Title, FlashRecovery")
        assert saved != checked
        (paper / "main.tex").write_bytes(saved)
        out, err = proc.communicate(timeout=600)
    finally:
        proc.kill()
        proc.wait()
    doc = json.loads(out)
    if target.exists():  # whatever check says, a tarball holds the bytes it checked
        with tarfile.open(target) as tar:
            f = tar.extractfile("main.tex")
            assert f is not None and f.read() == checked
    assert proc.returncode == 3 and not target.exists(), (out, err)
    assert statuses(doc)["upload"] == "error"
    assert "main.tex changed in the paper's directory while check ran" in detail(doc, "upload")


# -- paths: the advice names the real cause ------------------------------------------------

def test_graphicspath_outside_the_paper_is_named_not_a_cover_letter(paper: Path) -> None:
    """``\\graphicspath{{../figures/}}`` (a figures directory shared beside the paper) and
    a cover letter beside the paper that reads a file from outside: the paths line names
    the \\graphicspath and the figure it finds there, never the cover letter (which the
    main file does not read and arXiv does not compile); its way on works."""
    figures = paper.parent / "figures"
    figures.mkdir()
    (figures / "p.tex").write_text("\\documentclass{standalone}\n\\begin{document}X"
                                   "\\end{document}\n", encoding="ascii")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "p.tex"], cwd=figures,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]
    (figures / "p.pdf").rename(figures / "plot.pdf")
    line = add_to_preamble(paper, "\\usepackage{graphicx}\n\\graphicspath{{../figures/}}")
    text = (paper / "main.tex").read_text(encoding="utf-8")
    (paper / "main.tex").write_text(text.replace(
        "\\end{document}", "\\includegraphics[width=1cm]{plot}\n\\end{document}"),
        encoding="utf-8")
    (paper / "cover.tex").write_text("\\documentclass{letter}\n\\begin{document}\nDear "
                                     "editor, \\input{../letters/signature}\n\\end{document}\n",
                                     encoding="ascii")
    code, doc, err = check(paper)
    assert code == 1 and statuses(doc)["paths"] == "fail"
    said = detail(doc, "paths")
    assert ("main.tex:%d \\graphicspath{{../figures/}} (the paper's figure "
            "../figures/plot.pdf" % (line + 1)) in said, said
    assert "copy ../figures/ into the paper's directory (as figures/) and write " \
        "\\graphicspath{{figures/}}" in said
    assert "cover" not in said and "letters" not in said
    # the way on, as said
    shutil.copytree(figures, paper / "figures")
    (paper / "main.tex").write_text((paper / "main.tex").read_text(encoding="utf-8").replace(
        "{{../figures/}}", "{{figures/}}"), encoding="utf-8")
    code, doc, _ = check(paper)
    assert_ready(code, doc)
    assert "figures/plot.pdf" in doc["upload"]


# -- html: a problem of the HTML view names its cause and is a WARN ------------------------

HONEST = r"""\documentclass[11pt]{article}
\usepackage[switch]{lineno}
\usepackage{titling}
\usepackage[draft]{fixme}
\usepackage{pith}
\usepackage{hyperref}
\pithnumber{%s}
\title{FlashRecovery: Fast and Low-Cost Recovery from Failures
  for Large-Scale Training of LLMs}
\author{Chunsheng Li}
\predate{}\postdate{}
\date{}
\begin{document}
\linenumbers
\begin{titlingpage}
\maketitle
\begin{abstract}
An abstract. \fxnote{a note to the co-authors}
\end{abstract}
\end{titlingpage}
\section{Introduction}
Text.
\end{document}
"""


def test_html_view_without_the_badge_names_titlingpage_and_is_a_warning(paper: Path) -> None:
    """An honest article (titling, lineno, fixme) with its title page in titling's
    titlingpage: LaTeXML's titling binding drops that environment's content, the badge
    with it.  The PDF is right: a WARN that names the environment and the binding."""
    (paper / "main.tex").write_text(HONEST % N, encoding="utf-8")
    code, doc, _ = check(paper)
    assert code == 0, doc
    assert statuses(doc)["html"] == "warn" and statuses(doc)["pdf"] == "ok"
    said = detail(doc, "html")
    assert "\\maketitle is inside \\begin{titlingpage}, and LaTeXML's binding " \
        "titling.sty.ltxml drops what that environment holds" in said, said


def test_minted_listings_are_counted_in_the_order_minted_caches_them(tmp_path: Path) -> None:
    """minted 2 numbers its frozen cache files in the order it typesets listings, through
    \\input files and the commands \\newminted, \\newmint and \\newmintinline make."""
    from pith_tex.check.minted import check_frozen_cache, listings

    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[frozencache]{minted}\n"
        "\\newminted{python}{}\n\\newmint[shell]{bash}{}\n\\newmintinline{c}{}\n"
        "\\begin{document}\n\\begin{pythoncode}\nx = 1\n\\end{pythoncode}\n"
        "\\input{sec}\n\\shell|ls|  \\cinline{int x;} % \\mint{c}|not this|\n"
        "\\end{document}\n", encoding="ascii")
    (tmp_path / "sec.tex").write_text("\\begin{minted}{c}\nint y;\n\\end{minted}\n",
                                      encoding="ascii")
    found = listings(str(tmp_path), "main.tex")
    assert [(x.where, x.what) for x in found] == [
        ("main.tex:7", "\\begin{pythoncode}"), ("sec.tex:1", "\\begin{minted}"),
        ("main.tex:11", "\\shell"), ("main.tex:11", "\\cinline")]
    cache = tmp_path / "_minted-main"
    cache.mkdir()
    for name in ("default.pygstyle", "listing1.pygtex", "listing2.pygtex", "listing3.pygtex"):
        (cache / name).write_text("", encoding="ascii")
    c = check_frozen_cache(str(tmp_path), "main.tex")
    assert c is not None and c.status == "fail"
    assert "main.tex:11 \\cinline is listing 4" in c.detail
    (cache / "listing4.pygtex").write_text("", encoding="ascii")
    c = check_frozen_cache(str(tmp_path), "main.tex")
    assert c is not None and c.status == "ok" and "4 listings" in c.detail
