"""arXiv's HTML view of an ACM paper (acmart, final mode) that uses pith: the page and
the badge, not a fatal error.

LaTeXML reads ``\\documentclass{acmart}`` through its own binding ``acmart.cls.ltxml``,
which loads its ``amsart`` binding, which loads ``ams_support.sty.ltxml``.  That one
replaces latexml.sty's ``\\URL[text]{url}`` by the AMS bibliography's ``\\URL|url|``: the
``[`` is taken as a delimiter and everything up to the next ``[`` is read verbatim,
closing braces included.  pith's LaTeXML path built its badge with ``\\URL[...]{...}``
inside ``\\mbox{\\lxWithClass{...}{...}}``: the groups never closed, LaTeXML stopped
with a fatal error, and arXiv showed no HTML page at all.  Plain ``amsart`` meets it the
same way, so it is converted here too.

The papers are real documents: LaTeXML's installed acmart and amsart bindings, TeX Live's
acmart.cls for the PDF of ``pith-tex check``.  Each is converted as arXiv does (raw
pith.sty) and with pith's binding.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import texrun
from texrun import NUM, README_INCLUDE
from test_latex_html import assert_clean, badge, convert
from pith_tex.check.html import check_html

MIRROR = texrun.ROOT / "examples" / "mirror"

# A small ACM paper in its usual shape: front matter in the document, the abstract before
# \maketitle, hyperref loaded by the class (LaTeXML's acmart binding loads it too).
ACMART = r"""\documentclass[%(fmt)s]{acmart}
\usepackage{pith}
\pithnumber{%(num)s}
\settopmatter{printacmref=false}
\setcopyright{none}
\begin{document}
\title{FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs}
\author{Ada Author}
\affiliation{\institution{Some University}\country{Somewhere}}
\begin{abstract}What the paper says.\end{abstract}
\maketitle
\section{Introduction}
Some text.
\end{document}
"""

AMSART = r"""\documentclass{amsart}
\usepackage{pith}
\pithnumber{%(num)s}
\begin{document}
\title{FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs}
\author{Ada Author}
\begin{abstract}What the paper says.\end{abstract}
\maketitle
\section{Introduction}
Some text.
\end{document}
"""

FORMATS = ["sigconf", "acmsmall", "manuscript", "amsart"]


def write_paper(d: Path, fmt: str, include: str = README_INCLUDE) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    doc = AMSART if fmt == "amsart" else ACMART
    (d / "main.tex").write_text(doc % {"fmt": fmt, "num": NUM}, encoding="ascii")
    shutil.copy(texrun.STY, d / "pith.sty")
    (d / "pith-number.tex").write_text(include, encoding="ascii")
    return d


@pytest.mark.parametrize("binding", [False, True], ids=["raw-style", "binding"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_acm_paper_html_has_the_badge(tmp_path: Path, fmt: str, binding: bool) -> None:
    output, page = convert(write_paper(tmp_path / "p", fmt), binding)
    # LaTeXML's own class binding and its AMS \URL were in play (not a raw class).
    cls = "amsart" if fmt == "amsart" else "acmart"
    assert f"{cls}.cls.ltxml" in output and "ams_support.sty.ltxml" in output, output[-3000:]
    assert_clean(output, page)
    text = badge(page)
    assert f"pith:2025:{NUM}" in text and "checked" in text
    # The state's class follows the state, not the last class option read (sigconf...).
    assert "pith-state-checked" in page and "pith-state-" + fmt not in page


def test_acm_paper_check_html_is_ok(tmp_path: Path) -> None:
    """The ``html`` check of ``pith-tex check`` (as arXiv converts: raw style)."""
    c = check_html(str(write_paper(tmp_path / "p", "sigconf")), "main.tex", NUM)
    assert (c.name, c.status) == ("html", "ok"), c
    assert f"pith:2025:{NUM}" in c.detail


def test_acm_paper_pith_tex_check(tmp_path: Path) -> None:
    """``pith-tex check`` on the ACM paper: the PDF (TeX Live's acmart.cls) and the HTML
    (LaTeXML's acmart binding) both show the badge, the include written by ``fetch``."""
    d = write_paper(tmp_path / "p", "sigconf")
    r = subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "--offline", "--resolver",
                        str(MIRROR), NUM, "-o", str(d / "pith-number.tex")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "pith_tex", "check", str(d), "--json"],
                       capture_output=True, text=True, timeout=900)
    checks = {c["name"]: (c["status"], c["detail"]) for c in json.loads(r.stdout)["checks"]}
    assert checks["pdf"][0] == "ok", checks
    assert checks["html"][0] == "ok", checks["html"]
    assert f"pith:2025:{NUM}" in checks["html"][1], checks["html"]
